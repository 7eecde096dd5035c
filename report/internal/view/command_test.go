package view

import "testing"

func TestGroupThousands(t *testing.T) {
	for in, want := range map[string]string{"1": "1", "999": "999", "1000": "1,000", "-1234567.5": "-1,234,567.5", "47580000": "47,580,000", "0.001": "0.001"} {
		if got := groupThousands(in); got != want {
			t.Errorf("groupThousands(%q) = %q, want %q", in, got, want)
		}
	}
}
