# Sourced by setup and go_windows_amd64_exec: the Wine prefix and settings
# chronograph's Windows tests run with.
export WINEPREFIX=${CHRONO_WINEPREFIX:-${XDG_CACHE_HOME:-$HOME/.cache}/chronograph/wine}
export WINEARCH=win64
# Wine's diagnostics (fixme:, err:) go to stderr, where they would mix with
# the tests' output.
export WINEDEBUG=-all

# wine_up reports whether Wine's services run for this prefix (started by
# setup, they keep its persistent server company).
wine_up() {
  local pid
  for pid in $(pgrep -f 'services\.exe' 2>/dev/null); do
    tr '\0' '\n' <"/proc/$pid/environ" 2>/dev/null | grep -qxF "WINEPREFIX=$WINEPREFIX" && return 0
  done
  return 1
}
