package main

import (
	"strings"
	"testing"
)

func TestExitCodesAndHelp(t *testing.T) {
	tests := []struct {
		name string
		args []string
		code int
		out  string // substring of stdout
		err  string // substring of stderr
	}{
		{"no args prints help", nil, exitOK, "Usage:", ""},
		{"version", []string{"version"}, exitOK, "chrono ", ""},
		{"version shows go", []string{"version"}, exitOK, "go:       go1.", ""},
		{"--version", []string{"--version"}, exitOK, "chrono " + readBuildInfo().Version + "\n", ""},
		{"-v", []string{"-v"}, exitOK, "chrono " + readBuildInfo().Version + "\n", ""},
		{"unknown command", []string{"frobnicate"}, exitUsage, "", `unknown command "frobnicate"`},
		{"unknown flag", []string{"version", "--frob"}, exitUsage, "", "unknown flag: --frob"},
		{"extra args", []string{"version", "x"}, exitUsage, "", "unknown command"},
		{"completion bash", []string{"completion", "bash"}, exitOK, "bash completion", ""},
		{"completion zsh", []string{"completion", "zsh"}, exitOK, "compdef", ""},
		{"completion fish", []string{"completion", "fish"}, exitOK, "complete -c chrono", ""},
		{"help has examples", []string{"numbers", "--help"}, exitOK, "Examples:", ""},
		{"completion unknown shell", []string{"completion", "tcsh"}, exitUsage, "", `no completion for shell "tcsh"`},
		{"completion help has examples", []string{"completion", "--help"}, exitOK, "chrono completion bash >", ""},
		{"too many args names the fix", []string{"numbers", "a", "b"}, exitUsage, "", "(see --help)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out, errs, code := runChrono(t, "", tt.args...)
			if code != tt.code {
				t.Fatalf("exit %d, want %d (stderr %q)", code, tt.code, errs)
			}
			if !strings.Contains(out, tt.out) || !strings.Contains(errs, tt.err) {
				t.Errorf("stdout %.200q, stderr %q; want %q / %q", out, errs, tt.out, tt.err)
			}
			if tt.code != exitOK && !strings.HasPrefix(errs, "chrono: ") {
				t.Errorf("error %q does not start with chrono:", errs)
			}
		})
	}
}

// TestEveryCommandHasExamples: every command's --help shows examples.
func TestEveryCommandHasExamples(t *testing.T) {
	root := newRootCmd(nil, nil)
	for _, c := range root.Commands() {
		if c.Name() == "help" {
			continue
		}
		if c.Example == "" {
			t.Errorf("chrono %s --help has no examples", c.Name())
		}
	}
}

// --pin and --affinity take the kernel's CPU list format (one parser,
// env.ParseCPUList) and name the flag when it is wrong.
func TestCPUListFlags(t *testing.T) {
	for _, args := range [][]string{
		{"run", "--pin", "x", "true"},
		{"latency", "-a", "3-1", "-l", "1"},
		{"latency", "--affinity", "a,b", "-l", "1"},
	} {
		_, errs, code := runChrono(t, "", args...)
		if code != exitUsage || !strings.Contains(errs, "is not a CPU list") {
			t.Errorf("%v: exit %d, stderr %q; want a usage error naming the CPU list", args, code, errs)
		}
	}
}

// An explicit zero run count is a usage error, not "run without limit".
func TestRunZeroRuns(t *testing.T) {
	for _, flag := range []string{"--runs", "-r", "--min-runs", "--max-runs", "-M"} {
		_, errs, code := runChrono(t, "", "run", "-N", flag, "0", "true")
		if code != exitUsage || !strings.Contains(errs, "give at least 1 run") {
			t.Errorf("%s 0: exit %d, stderr %q; want a usage error", flag, code, errs)
		}
	}
	if _, errs, code := runChrono(t, "", "run", "-N", "--timeout", "-1s", "true"); code != exitUsage || !strings.Contains(errs, "--timeout -1s is negative") {
		t.Errorf("--timeout -1s: exit %d, stderr %q; want a usage error", code, errs)
	}
	// A zero timeout and seed were taken for none and for a seed from the
	// clock, silently.
	if _, errs, code := runChrono(t, "", "run", "-N", "--runs", "2", "--timeout", "0s", "true"); code != exitUsage || !strings.Contains(errs, "--timeout 0s would kill every run at once") {
		t.Errorf("--timeout 0s: exit %d, stderr %q; want a usage error", code, errs)
	}
	if _, errs, code := runChrono(t, "", "run", "-N", "--runs", "2", "--seed", "0", "true"); code != exitUsage || !strings.Contains(errs, "--seed 0 is not a seed: 0 asks for one from the clock; give a seed of 1 or more") {
		t.Errorf("--seed 0: exit %d, stderr %q; want a usage error", code, errs)
	}
}

// With one run the sample standard deviation is undefined: the text says
// so and hyperfine's CSV column stays empty (never a measured-looking 0).
func TestRunOneRunStdDev(t *testing.T) {
	out, errs, code := runChrono(t, "", "run", "-N", "-r", "1", "--export-csv", "-", noop)
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, errs)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) != 2 || !strings.HasPrefix(lines[1], noop+",") || strings.Split(lines[1], ",")[2] != "" {
		t.Errorf("csv:\n%s\nwant an empty stddev field", out)
	}
	if out, _, _ = runChrono(t, "", "run", "-N", "-r", "1", noop); !strings.Contains(out, "± undefined (one run)") {
		t.Errorf("summary:\n%s\nwant the stddev said undefined", out)
	}
}
