package wintimer

import (
	"runtime"
	"testing"
)

// TestQuery: on Windows (and under Wine, which answers it) the three
// periods are ordered; elsewhere the call fails.
func TestQuery(t *testing.T) {
	r, err := Query()
	if runtime.GOOS != "windows" {
		if err == nil {
			t.Errorf("Query() = %+v on %s, want an error", r, runtime.GOOS)
		}
		return
	}
	if err != nil {
		t.Fatal(err)
	}
	if r.Finest <= 0 || r.Finest > r.Current || r.Current > r.Coarsest {
		t.Errorf("Query() = %+v: want 0 < finest <= current <= coarsest", r)
	}
}
