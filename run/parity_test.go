package run

import (
	"context"
	"fmt"
	"os/exec"
	"reflect"
	"strings"
	"testing"
)

// The tests in this file check the behaviours of `chrono run` that
// hyperfine 1.20 has and chrono lacked (issue 11), at the level of the run
// package, with the fake executor (figures exact, no real clock). The
// scenarios of hyperfine's own tests are in cmd/chrono/hyperfine_test.go.

// TestExpansionOrder: hyperfine expands the parameter values in the outer
// loop and the command lines in the inner one, the first parameter
// varying fastest after the command lines; -n names follow that order.
func TestExpansionOrder(t *testing.T) {
	val, _ := ScanParam("val", "1", "2", "")
	names := []string{"echo-1", "sleep-1", "echo-2", "sleep-2"}
	cmds, err := Commands([]string{"echo {val}", "sleep {val}"}, names, []Param{val}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, c := range cmds {
		got = append(got, c.Name+"="+c.Line)
	}
	want := []string{"echo-1=echo 1", "sleep-1=sleep 1", "echo-2=echo 2", "sleep-2=sleep 2"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("-P with two commands: %q, want %q", got, want)
	}
	// -L cross product: the command lines vary fastest, then par1, then
	// par2 (hyperfine's test_build_commands_cross_product).
	p1, _ := ListParam("par1", "a,b")
	p2, _ := ListParam("par2", "z,y")
	cmds, err = Commands([]string{"echo {par1} {par2}", "printf '%s\\n' {par1} {par2}"}, nil, []Param{p1, p2}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	got = got[:0]
	for _, c := range cmds {
		got = append(got, fmt.Sprintf("%d:%s%s", c.Index, c.Params["par1"], c.Params["par2"]))
	}
	want = []string{"0:az", "1:az", "0:bz", "1:bz", "0:ay", "1:ay", "0:by", "1:by"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("-L cross product: %q, want %q", got, want)
	}
	// Index follows the command line (for per-command --prepare lists).
	if cmds[1].Index != 1 || cmds[2].Index != 0 {
		t.Errorf("indices %d %d", cmds[1].Index, cmds[2].Index)
	}
}

// TestCommandNames: hyperfine's rules for -n: fewer names than commands
// name the first ones (the others keep their command line); with
// parameters, one name serves every command ({param} substituted), or one
// per command; chrono also takes one per command line.
func TestCommandNames(t *testing.T) {
	n, _ := ListParam("n", "1,2")
	tests := []struct {
		lines, names []string
		params       []Param
		want         []string
		err          string
	}{
		{[]string{"echo a", "echo b", "echo c"}, []string{"A"}, nil, []string{"A", "echo b", "echo c"}, ""},
		{[]string{"echo a", "echo b"}, []string{"A", "B"}, nil, []string{"A", "B"}, ""},
		{[]string{"echo a"}, []string{"A", "B"}, nil, nil, "too many -n/--command-name names: 2 for 1 command"},
		{[]string{"echo {n}"}, []string{"name-{n}"}, []Param{n}, []string{"name-1", "name-2"}, ""},
		{[]string{"echo {n}", "cat {n}"}, []string{"x{n}"}, []Param{n}, []string{"x1", "x1", "x2", "x2"}, ""},
		{[]string{"echo {n}", "cat {n}"}, []string{"e{n}", "c{n}"}, []Param{n}, []string{"e1", "c1", "e2", "c2"}, ""},
		{[]string{"echo {n}", "cat {n}"}, []string{"a", "b", "c", "d"}, []Param{n}, []string{"a", "b", "c", "d"}, ""},
		{[]string{"echo {n}", "cat {n}"}, []string{"a", "b", "c"}, []Param{n}, nil, "3 -n/--command-name names for 4 benchmarks"},
		// A parameter the line does not use is shown, as hyperfine shows it.
		{[]string{"echo test"}, nil, []Param{{Name: "branch", Values: []string{"master", "feature"}}}, []string{"echo test (branch = master)", "echo test (branch = feature)"}, ""},
	}
	for _, tt := range tests {
		cmds, err := Commands(tt.lines, tt.names, tt.params, Options{})
		if tt.err != "" {
			if err == nil || !strings.Contains(err.Error(), tt.err) {
				t.Errorf("%q -n %q: error %v, want %q", tt.lines, tt.names, err, tt.err)
			}
			continue
		}
		if err != nil {
			t.Errorf("%q -n %q: %v", tt.lines, tt.names, err)
			continue
		}
		var got []string
		for _, c := range cmds {
			got = append(got, c.Name)
		}
		if !reflect.DeepEqual(got, tt.want) {
			t.Errorf("%q -n %q: names %q, want %q", tt.lines, tt.names, got, tt.want)
		}
	}
}

// TestListEscapes: -L splits at commas, as hyperfine's tokenizer does: a
// backslash escapes a comma or a backslash, other backslashes stay.
func TestListEscapes(t *testing.T) {
	tests := map[string][]string{
		`a\,b,c`:        {"a,b", "c"},
		`hello\, world`: {"hello, world"},
		`\,\,\,`:        {",,,"},
		`\n`:            {`\n`},
		`\\`:            {`\`},
		`\\\,`:          {`\,`},
		`foo,,bar`:      {"foo", "", "bar"},
		`,bar`:          {"", "bar"},
		`bar,`:          {"bar", ""},
		`a\`:            {`a\`},
	}
	for in, want := range tests {
		p, err := ListParam("x", in)
		if err != nil || !reflect.DeepEqual(p.Values, want) {
			t.Errorf("ListParam(%q) = %q, %v; want %q", in, p.Values, err, want)
		}
	}
}

// TestEmptyCommandRefused: an empty command line is refused (hyperfine
// refuses ”), with a shell as without, also when a parameter makes it
// empty.
func TestEmptyCommandRefused(t *testing.T) {
	for _, opts := range []Options{{}, {NoShell: true}} {
		for _, line := range []string{"", "  "} {
			if _, err := Commands([]string{"true", line}, nil, nil, opts); err == nil || !strings.Contains(err.Error(), "command 2 is empty") {
				t.Errorf("%q (no shell %v): error %v", line, opts.NoShell, err)
			}
		}
	}
	x, _ := ListParam("x", "true,")
	if _, err := Commands([]string{"{x}"}, nil, []Param{x}, Options{}); err == nil || !strings.Contains(err.Error(), "is empty with x = ") {
		t.Errorf("empty by substitution: %v", err)
	}
	if _, err := shellWords(Options{Shell: "''"}); err == nil {
		t.Error("shell '': no error")
	}
}

// TestShellDecides: with a shell, chrono refuses nothing the shell may
// run: functions, bash builtins and keywords, `cmd || true` (the issue's
// five lines), with sh and with bash. They run for real where bash is
// installed.
func TestShellDecides(t *testing.T) {
	lines := []string{"f(){ :; }; f", "declare x=1", "shopt -s extglob", "function g { :; }; g", "nonexistent_xyz || true"}
	for _, sh := range []string{"", "bash"} {
		if _, err := Commands(lines, nil, nil, Options{Shell: sh}); err != nil {
			t.Errorf("shell %q: %v", sh, err)
		}
	}
	if _, err := exec.LookPath("bash"); err != nil {
		t.Skip("no bash to run them with")
	}
	cmds, err := Commands(lines, nil, nil, Options{Shell: "bash"})
	if err != nil {
		t.Fatal(err)
	}
	rep, err := Run(context.Background(), cmds, Options{Shell: "bash", Runs: 2})
	if err != nil || rep.Err != nil {
		t.Fatalf("bash: %v %v", err, rep.Err)
	}
	// With sh (dash on Debian) the bash-only lines fail at their first
	// run, as in hyperfine, with the shell's message; not before.
	cmds, _ = Commands([]string{"declare x=1"}, nil, nil, Options{})
	rep, err = Run(context.Background(), cmds, Options{Runs: 2})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Err != nil && strings.Contains(rep.Err.Error(), "exited with code 127") && !strings.Contains(rep.Err.Error(), "127: the shell found no such command") {
		t.Errorf("no hint for exit code 127: %v", rep.Err)
	}
}
