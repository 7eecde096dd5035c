package main

import (
	"strings"
	"testing"

	"github.com/chronograph/chronograph/result"
)

// chrono env and chrono clocks report whether counters can be read (and
// why not), since env and clock do not probe perf events themselves.
func TestCounterAvailabilityShown(t *testing.T) {
	out, errs, code := runChrono(t, "", "env", "--json")
	if code != exitOK {
		t.Fatalf("env --json: exit %d: %s", code, errs)
	}
	doc, err := result.Unmarshal([]byte(out))
	if err != nil {
		t.Fatal(err)
	}
	c := doc.Environment.Counters
	if c == nil || !strings.Contains(c.Summary, "hardware counters:") {
		t.Fatalf("environment.counters = %+v, want the availability summary", c)
	}
	if !c.Hardware && !strings.Contains(c.Summary, "(") {
		t.Errorf("hardware counters unavailable without a reason: %q", c.Summary)
	}
	text, _, code := runChrono(t, "", "env")
	if code != exitOK || !strings.Contains(text, "Performance counters") {
		t.Errorf("chrono env text lacks the counters group (exit %d)", code)
	}
}
