package plural

import "testing"

func TestCount(t *testing.T) {
	for _, tt := range []struct {
		n          int
		noun, want string
	}{
		{0, "run", "0 runs"},
		{1, "run", "1 run"},
		{-1, "run", "-1 run"},
		{2, "run", "2 runs"},
		{1, "latency", "1 latency"},
		{3, "latency", "3 latencies"},
		{2, "day", "2 days"},
		{2, "process", "2 processes"},
		{2, "switch", "2 switches"},
		{2, "box", "2 boxes"},
		{1, "sample", "1 sample"},
		{20, "value", "20 values"},
	} {
		if got := Count(tt.n, tt.noun); got != tt.want {
			t.Errorf("Count(%d, %q) = %q, want %q", tt.n, tt.noun, got, tt.want)
		}
	}
}

func TestNoun(t *testing.T) {
	if got := Noun(1, "run"); got != "run" {
		t.Errorf("Noun(1, run) = %q", got)
	}
	if got := Noun(5, "run"); got != "runs" {
		t.Errorf("Noun(5, run) = %q", got)
	}
}
