package wintimer

import (
	"errors"
	"runtime"
	"testing"
	"time"
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

// TestMeasured: under Wine (a version given) the answer is refused with
// what Wine answered, in the one wording clock, env and delay report;
// otherwise it is Query's.
func TestMeasured(t *testing.T) {
	e := &WineError{Version: "8.0", Answer: Resolution{Coarsest: 15625 * time.Microsecond, Finest: time.Millisecond, Current: time.Millisecond}}
	if want := "under Wine 8.0 NtQueryTimerResolution answers coarsest 15.625ms, finest 1ms, current 1ms: " +
		"Wine's figures, not a Windows clock interrupt's (Wine waits on the Linux host's timers)"; e.Error() != want {
		t.Errorf("WineError:\n got %q\nwant %q", e.Error(), want)
	}
	q, qerr := Query()
	r, err := Measured("")
	if (err == nil) != (qerr == nil) || r != q {
		t.Errorf("Measured(\"\") = %+v, %v; Query() = %+v, %v", r, err, q, qerr)
	}
	r, err = Measured("9.1")
	var we *WineError
	switch {
	case qerr != nil:
		if !errors.Is(err, qerr) && (err == nil || err.Error() != qerr.Error()) {
			t.Errorf("Measured(\"9.1\") where Query fails: %v, want Query's error %v", err, qerr)
		}
	case !errors.As(err, &we) || we.Version != "9.1" || we.Answer != q || r != (Resolution{}):
		t.Errorf("Measured(\"9.1\") = %+v, %v; want a *WineError with Query's answer %+v", r, err, q)
	}
}
