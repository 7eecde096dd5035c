package main

import (
	"strings"
	"testing"
)

func TestEval(t *testing.T) {
	for _, tt := range []struct {
		src  string
		want int64
		err  string
	}{
		{"3 4 + 2 *", 14, ""},
		{"  10\t3 - \n", 7, ""},
		{"1000 1000 * 1000 *", 1000 * 1000 % modulus * 1000 % modulus, ""},
		{"17 4 %", 17 % 5, ""},
		{"6 3 ^", 5, ""},
		{"1 +", 0, "needs two values"},
		{"1 2", 0, "2 values left on the stack"},
		{"1 2 /", 0, `unknown operator '/'`},
		{"", 0, "0 values left"},
	} {
		got, err := eval(strings.NewReader(tt.src))
		if tt.err != "" {
			if err == nil || !strings.Contains(err.Error(), tt.err) {
				t.Errorf("eval(%q): error %v, want %q", tt.src, err, tt.err)
			}
			continue
		}
		if err != nil || got != tt.want {
			t.Errorf("eval(%q) = %d, %v; want %d", tt.src, got, err, tt.want)
		}
	}
}

// TestProgram: the generated program is the same on every run, and
// valid: it leaves one value.
func TestProgram(t *testing.T) {
	a, b := program(1000), program(1000)
	if string(a) != string(b) {
		t.Fatal("the program differs between calls")
	}
	if !strings.HasPrefix(string(a), "1 ") || strings.Count(string(a), " ") != 1+2*1000 {
		t.Errorf("program(1000) has the wrong shape: %.40q", a)
	}
	if _, err := eval(strings.NewReader(string(a))); err != nil {
		t.Error(err)
	}
}
