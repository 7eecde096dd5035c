package view

import (
	"testing"

	"github.com/chronograph/chronograph/result"
)

func TestRowsToShow(t *testing.T) {
	if s := rowsToShow(10, nil, false); len(s) != 10 || !s[5] {
		t.Fatalf("few rows: %v", s)
	}
	s := rowsToShow(100, []result.HistoryChange{{Index: 50}}, false)
	n := 0
	for _, v := range s {
		if v {
			n++
		}
	}
	if !s[0] || !s[48] || !s[49] || !s[50] || !s[51] || s[52] || s[47] || !s[99] || !s[90] || s[89] || n != 1+4+10 {
		t.Fatalf("many rows: %d shown: %v", n, s)
	}
	if s := rowsToShow(100, nil, true); !s[30] {
		t.Fatal("--all")
	}
}
