package main

import (
	"os"
	"runtime"
	"strings"
	"testing"

	"github.com/chronograph/chronograph/internal/crosstest"
)

// TestEmptyValuesRefused: a flag or argument given an empty value (an
// unset variable: --history="$DSN", --db "$DB") is refused with exit 2
// before anything is measured or read, naming the flag; each of these was
// accepted silently (--history= recorded nothing and said nothing, run
// --input "" ran with /dev/null) or failed with exit 1.
func TestEmptyValuesRefused(t *testing.T) {
	t.Chdir(crosstest.TempDir(t))
	run := []string{"run", "-N", "--runs", "2"}
	for _, tt := range []struct {
		args []string
		want string
	}{
		{[]string{"numbers", "--history="}, "--history is empty (an unset variable?): write --history alone, without '=', or give it a value"},
		{append(run, "--history=", "true"), "--history is empty"},
		{[]string{"history", "--db", "", "list"}, "--db is empty (an unset variable?): give it a value, or leave it out (--db: the store"},
		{[]string{"history", "check", "--db="}, "--db is empty"},
		{append(run, "--input", "", "true"), "--input '': an empty path names no file (an unset variable?): give a FILE, or leave --input out"},
		{append(run, "--output", "", "true"), "--output '': an empty path names no file"},
		{append(run, "-n", "", "true"), "-n/--command-name is empty"},
		{append(run, "--reference", "", "true"), "--reference is empty"},
		{append(run, "--reference-name", "", "--reference", "true", "true"), "--reference-name is empty"},
		{append(run, "-u", "", "true"), "-u/--time-unit is empty"},
		{append(run, "--order", "", "true"), "--order is empty"},
		{append(run, "--precision", "", "true"), "--precision is empty"},
		{append(run, "--ignore-failure=", "true"), "-i/--ignore-failure is empty (an unset variable?): write --ignore-failure alone, without '=', or give it a value"},
		{append(run, "-P", "n", "1", "2", "-D", "", "echo {n}"), "-D/--parameter-step-size is empty"},
		{append(run, "--setup", "", "true"), "-s/--setup is empty"},
		{append(run, "--prepare", "", "true"), "-p/--prepare is empty"},
		{append(run, "--conclude", "", "true"), "-C/--conclude is empty"},
		{append(run, "--cleanup", "", "true"), "-c/--cleanup is empty"},
		{[]string{"numbers", "--method", ""}, "--method is empty (an unset variable?): give it a value, or leave it out for the default linear"},
		{[]string{"numbers", "-u", ""}, "-u/--time-unit is empty"},
		{[]string{"numbers", "--unit="}, "--unit is empty"},
		{[]string{"numbers", ""}, "numbers: argument 1 is empty (an unset variable?): give a value (chrono numbers [FILE|-] [flags]; see --help)"},
		{[]string{"report", ""}, "report: argument 1 is empty"},
		{[]string{"report", "--baseline", "", "x.json"}, "--baseline '': an empty path names no file"},
		{[]string{"report", "--title", "", "x.json"}, "--title is empty"},
		{[]string{"report", "--fail-on", "", "x.json"}, "--fail-on is empty"},
		{[]string{"trace", "--title", "", "x.json"}, "--title is empty"},
		{[]string{"trace", ""}, "trace: argument 1 is empty"},
		{[]string{"stat", "--", ""}, "stat: argument 1 is empty"},
		{[]string{"history", "add", ""}, "history add: argument 1 is empty"},
		{[]string{"history", "show", ""}, "history show: argument 1 is empty"},
		{[]string{"history", "trend", "--since", "", "x"}, "--since is empty"},
		{[]string{"history", "check", "--machine", ""}, "--machine is empty"},
		{[]string{"history", "check", "--metric", ""}, "--metric is empty"},
		{[]string{"history", "check", "--fail-on", ""}, "--fail-on is empty"},
		{[]string{"latency", "-D", "", "-l", "5"}, "-D/--duration is empty"},
	} {
		out, errOut, code := runChrono(t, "1\n2\n", tt.args...)
		if code != exitUsage || !strings.Contains(errOut, tt.want) || strings.Count(errOut, "\n") != 1 || out != "" {
			t.Errorf("%q: exit %d, %q, stdout %q; want exit 2 and %q", tt.args, code, errOut, out, tt.want)
		}
	}
	if _, err := os.Stat(".chrono"); err == nil {
		t.Error("a store was created")
	}
}

// TestEmptyValuesAllowed: what may be empty stays allowed: the arguments
// of the command chrono stat counts; a flag with its own empty check keeps its
// message.
func TestEmptyValuesAllowed(t *testing.T) {
	// A program given an empty argument: printf ''; on windows, which has
	// no printf program, cmd's rem.
	empty := []string{"printf", ""}
	if runtime.GOOS == "windows" {
		empty = []string{"cmd", "/c", "rem", ""}
	}
	if _, errOut, code := runChrono(t, "", append([]string{"stat", "-e", "task-clock", "--"}, empty...)...); code != 0 {
		t.Errorf("stat -- %q: exit %d, %s", empty, code, errOut)
	}
	for _, tt := range []struct {
		args []string
		want string
	}{
		{[]string{"run", "--runs", "2", "--shell", "", "true"}, "--shell '' names no shell"},
		{[]string{"run", "-N", "--runs", "2", "--counters=", "true"}, "--counters= has an empty event list"},
		{[]string{"sleep", "--durations", ""}, "--durations is empty: give durations like"},
		{[]string{"run", "-N", "--runs", "2", "--pin", "", "true"}, `--pin "" is not a CPU list: it is empty`},
	} {
		_, errOut, code := runChrono(t, "", tt.args...)
		if code != exitUsage || !strings.Contains(errOut, tt.want) {
			t.Errorf("%q: exit %d, %q; want exit 2 and %q", tt.args, code, errOut, tt.want)
		}
	}
}
