package valgrind

import (
	"runtime/debug"
	"strings"
	"testing"
)

func TestRebuildArgs(t *testing.T) {
	set := func(kv ...string) []debug.BuildSetting {
		var out []debug.BuildSetting
		for i := 0; i < len(kv); i += 2 {
			out = append(out, debug.BuildSetting{Key: kv[i], Value: kv[i+1]})
		}
		return out
	}
	for _, tt := range []struct {
		name         string
		settings     []debug.BuildSetting
		instrumented string
		args, env    string
	}{
		{"plain", set("-buildmode", "exe", "-compiler", "gc", "CGO_ENABLED", "1", "GOARCH", "amd64", "GOAMD64", "v1"), "", "", "CGO_ENABLED=1 GOAMD64=v1"},
		{"race and cover", set("-cover", "true", "-race", "true", "-tags", "foo,bar", "CGO_ENABLED", "1"), "-cover -race", "-tags=foo,bar", "CGO_ENABLED=1"},
		{"flags kept", set("-race", "true", "-gcflags", "all=-N -l", "-ldflags", "-X main.v=1", "-trimpath", "true", "GOEXPERIMENT", "greenteagc"), "-race",
			"-gcflags=all=-N -l|-ldflags=-X main.v=1|-trimpath=true", "GOEXPERIMENT=greenteagc"},
		{"race off", set("-race", "false"), "", "", ""},
	} {
		if got := instrumented(tt.settings); got != tt.instrumented {
			t.Errorf("%s: instrumented = %q, want %q", tt.name, got, tt.instrumented)
		}
		args, env := rebuildArgs(tt.settings)
		if strings.Join(args, "|") != tt.args || strings.Join(env, " ") != tt.env {
			t.Errorf("%s: args %q, env %q, want %q, %q", tt.name, args, env, tt.args, tt.env)
		}
	}
	if got := strings.Join(quoteArgs([]string{"-c", "-gcflags=all=-N -l", "it's"}), " "); got != `-c '-gcflags=all=-N -l' 'it'\''s'` {
		t.Errorf("quoteArgs: %s", got)
	}
}
