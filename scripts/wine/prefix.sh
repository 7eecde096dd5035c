# Sourced by setup and go_windows_amd64_exec: the Wine prefix and settings
# chronograph's Windows tests run with.
export WINEPREFIX=${CHRONO_WINEPREFIX:-${XDG_CACHE_HOME:-$HOME/.cache}/chronograph/wine}
export WINEARCH=win64
# Wine's diagnostics (fixme:, err:) go to stderr, where they would mix with
# the tests' output.
export WINEDEBUG=-all
