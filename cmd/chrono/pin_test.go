package main

import (
	"errors"
	"slices"
	"strings"
	"testing"
)

// TestCheckCPUList: the one check of --pin (run, sleep) and -a/--affinity
// (latency), against an injected set of allowed CPUs.
func TestCheckCPUList(t *testing.T) {
	for _, tt := range []struct {
		s       string
		allowed []int
		want    []int
		err     string
	}{
		{"0", []int{0, 1}, []int{0}, ""},
		{"1,0", []int{0, 1}, []int{0, 1}, ""},
		{"2-3", []int{2, 3, 6}, []int{2, 3}, ""},
		{"6", nil, []int{6}, ""}, // allowed set unknown: not checked here
		{"", []int{0, 1}, nil, `--pin "" is not a CPU list: it is empty (an unset variable?); give CPUs like 0,1 or 0-3 (this process may use CPUs 0-1), or leave --pin out`},
		{" ", nil, nil, "it is empty"},
		{"x", []int{0, 1}, nil, `--pin "x" is not a CPU list: write CPUs like 0,1 or 0-3 (this process may use CPUs 0-1)`},
		{"0,0", []int{0, 1}, nil, `--pin "0,0" names CPU 0 twice: give each CPU once, e.g. --pin 0`},
		{"0-3,2", []int{0, 1, 2, 3}, nil, `--pin "0-3,2" names CPU 2 twice: give each CPU once, e.g. --pin 0-3`},
		{"99", []int{0, 1}, nil, `--pin "99": this process may not run on CPU 99: it may use CPUs 0-1 (its affinity: see nproc, taskset -p $$); pick CPUs among those`},
		{"0,5", []int{0, 2, 3, 4}, nil, "may not run on CPU 5: it may use CPUs 0,2-4"},
		{"1", []int{0, 2, 3}, nil, "may not run on CPU 1"},
	} {
		got, err := checkCPUList("--pin", tt.s, tt.allowed)
		var ue usageError
		switch {
		case tt.err == "" && (err != nil || !slices.Equal(got, tt.want)):
			t.Errorf("%q (allowed %v) = %v, %v; want %v", tt.s, tt.allowed, got, err, tt.want)
		case tt.err != "" && (err == nil || !strings.Contains(err.Error(), tt.err) || !errors.As(err, &ue)):
			t.Errorf("%q (allowed %v): err %v, want a usage error with %q", tt.s, tt.allowed, err, tt.err)
		}
	}
}

// TestPinFlagsRefuseCPUs: run --pin, sleep --pin and latency -a refuse a
// CPU the process may not run on (they failed with exit 1 when pinning,
// run after measuring its warm-up), an empty list (an empty run --pin was
// ignored) and a CPU named twice, with exit 2 before measuring. The
// allowed CPUs are injected: CPU 0 only.
func TestPinFlagsRefuseCPUs(t *testing.T) {
	saved := allowedCPUs
	allowedCPUs = func() ([]int, error) { return []int{0}, nil }
	defer func() { allowedCPUs = saved }()
	for _, tt := range []struct {
		args []string
		want string
	}{
		{[]string{"run", "-N", "--runs", "2", "--pin", "1", "true"}, `--pin "1": this process may not run on CPU 1: it may use CPUs 0`},
		{[]string{"run", "-N", "--runs", "2", "--pin", "", "true"}, `--pin "" is not a CPU list: it is empty`},
		{[]string{"run", "-N", "--runs", "2", "--pin", "0,0", "true"}, `--pin "0,0" names CPU 0 twice`},
		{[]string{"sleep", "--pin", "7", "--durations", "1ms", "--budget", "10ms"}, `--pin "7": this process may not run on CPU 7`},
		{[]string{"sleep", "--pin", "0,0", "--durations", "1ms", "--budget", "10ms"}, `names CPU 0 twice`},
		{[]string{"latency", "-a", "5", "-l", "10"}, `--pin "5": this process may not run on CPU 5`},
		{[]string{"latency", "--affinity", "0,1", "-l", "10"}, `--affinity "0,1": this process may not run on CPU 1`},
		{[]string{"latency", "-a", "0,0", "-l", "10"}, `names CPU 0 twice`},
	} {
		out, errOut, code := runChrono(t, "", tt.args...)
		if code != exitUsage || !strings.Contains(errOut, tt.want) || out != "" {
			t.Errorf("%v: exit %d, %q, stdout %q; want exit 2 and %q", tt.args, code, errOut, out, tt.want)
		}
	}
}
