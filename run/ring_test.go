package run

import (
	"strings"
	"testing"
)

func TestTail(t *testing.T) {
	tests := []struct {
		writes    []string
		want      string
		truncated bool
	}{
		{nil, "", false},
		{[]string{"ab"}, "ab", false},
		{[]string{"ab", "cd"}, "abcd", false},
		{[]string{"abc", "def"}, "cdef", true},
		{[]string{"abcdefgh"}, "efgh", true},
		{[]string{"a", "b", "c", "d", "e", "f", "g"}, "defg", true},
		{[]string{"abcd", "ef", "g"}, "defg", true},
	}
	for _, tt := range tests {
		tl := newTail(4)
		for _, w := range tt.writes {
			if n, err := tl.Write([]byte(w)); n != len(w) || err != nil {
				t.Fatalf("Write(%q) = %d, %v", w, n, err)
			}
		}
		got, trunc := tl.Bytes()
		if string(got) != tt.want || trunc != tt.truncated {
			t.Errorf("writes %q: Bytes() = %q, %v; want %q, %v", tt.writes, got, trunc, tt.want, tt.truncated)
		}
		tl.Reset()
		if b, _ := tl.Bytes(); len(b) != 0 {
			t.Errorf("after Reset: %q", b)
		}
	}
	tl := newTail(3)
	tl.Write([]byte(strings.Repeat("x", 10) + "yz"))
	if b, _ := tl.Bytes(); string(b) != "xyz" {
		t.Errorf("long write: %q", b)
	}
}
