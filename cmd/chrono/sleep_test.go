package main

import (
	"encoding/csv"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/chronograph/chronograph/result"
)

func TestSleepCommand(t *testing.T) {
	dir := t.TempDir()
	jsonPath, csvPath := filepath.Join(dir, "sleep.json"), filepath.Join(dir, "sleep.csv")
	out, errb, code := runChrono(t, "", "sleep", "--durations", "100us,1ms", "--mechanisms", "time.Sleep,delay.Sleep",
		"--budget", "60ms", "-q", "--json", jsonPath, "--csv", csvPath)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errb)
	}
	for _, want := range []string{"requested 100", "requested 1", "time.Sleep", "delay.Sleep", "CPU/wait", "most accurate"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	if strings.Count(out, "\n*") != 2 && strings.Count(out, "*") < 2 {
		t.Errorf("expected a best mark per duration:\n%s", out)
	}
	doc, err := result.ReadFile(jsonPath)
	if err != nil {
		t.Fatal(err)
	}
	if doc.Kind != "sleep" || len(doc.Measurements) != 4 {
		t.Fatalf("document kind %q with %d measurements, want sleep with 4", doc.Kind, len(doc.Measurements))
	}
	for _, m := range doc.Measurements {
		a := m.Metric("achieved")
		if a == nil || len(a.Values) == 0 || m.Parameters["mechanism"] == "" {
			t.Errorf("measurement %q lacks raw achieved durations or parameters", m.Name)
		}
	}
	f, err := os.Open(csvPath)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	recs, err := csv.NewReader(f).ReadAll()
	if err != nil || len(recs) != 5 || recs[0][0] != "mechanism" {
		t.Errorf("CSV: %v, %d records", err, len(recs))
	}
}

// TestSleepInterrupted: an interrupted study prints and exports what it
// measured (marked incomplete) and exits 128 + the signal's number.
func TestSleepInterrupted(t *testing.T) {
	for sig, want := range map[os.Signal]int{os.Interrupt: 130, syscall.SIGTERM: 143} {
		injectInterrupt(t, sig)
		jsonPath := filepath.Join(t.TempDir(), "sleep.json")
		out, errb, code := runChrono(t, "", "sleep", "--durations", "5s", "--mechanisms", "busy-spin", "-q", "--json", jsonPath)
		if code != want || !strings.Contains(errb, "interrupted by SIG") || !strings.Contains(out, "interrupted:") {
			t.Errorf("%v: exit %d (want %d), stderr %q, stdout:\n%s", sig, code, want, errb, out)
		}
		if strings.Contains(out, "spin margin") {
			t.Errorf("a margin printed though delay.Sleep never ran:\n%s", out)
		}
		doc, err := result.ReadFile(jsonPath)
		if err != nil || !doc.Incomplete {
			t.Errorf("%v: export %v, incomplete %v", sig, err, doc != nil && doc.Incomplete)
		}
	}
}

func TestSleepUsageErrors(t *testing.T) {
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"sleep", "--durations", "11s"}, "out of range"},
		{[]string{"sleep", "--durations", "100"}, "needs a unit"},
		{[]string{"sleep", "--durations", "abc"}, "--durations"},
		{[]string{"sleep", "--mechanisms", "sundial"}, "unknown mechanism"},
		{[]string{"sleep", "--priority", "120"}, "out of range"},
		{[]string{"sleep", "--budget", "0s"}, "--budget"},
	}
	for _, tt := range tests {
		t.Run(strings.Join(tt.args, " "), func(t *testing.T) {
			_, errb, code := runChrono(t, "", tt.args...)
			if code != exitUsage || !strings.Contains(errb, tt.want) {
				t.Errorf("exit %d, stderr %q; want exit 2 mentioning %q", code, errb, tt.want)
			}
		})
	}
}

func TestSleepList(t *testing.T) {
	out, _, code := runChrono(t, "", "sleep", "--list")
	if code != 0 || !strings.Contains(out, "delay.Sleep\n") || !strings.Contains(out, "time.Sleep\n") {
		t.Errorf("exit %d, list:\n%s", code, out)
	}
}

// TestResolveMechanism: names as a user types them in a shell (no
// parentheses, any case) find the mechanism; unknown ones do not.
func TestResolveMechanism(t *testing.T) {
	known := []string{"time.Sleep", "clock_nanosleep(ABS)", "clock_nanosleep(ABS)+slack1ns", "busy-spin", "delay.Sleep", "delay.Sleep(NoSpin)"}
	for in, want := range map[string]string{
		"time.Sleep":               "time.Sleep",
		"clock_nanosleep":          "clock_nanosleep(ABS)",
		"CLOCK_NANOSLEEP+slack1ns": "clock_nanosleep(ABS)+slack1ns",
		"clock_nanosleep(ABS)":     "clock_nanosleep(ABS)",
		"busyspin":                 "busy-spin",
		"delay.sleep":              "delay.Sleep",
		"delay.Sleep-NoSpin":       "delay.Sleep(NoSpin)",
		"delay.sleepnospin":        "delay.Sleep(NoSpin)",
	} {
		if got, ok := resolveMechanism(known, in); !ok || got != want {
			t.Errorf("resolveMechanism(%q) = %q, %v; want %q", in, got, ok, want)
		}
	}
	for _, in := range []string{"sundial", "delay", "time.sleepx"} {
		if got, ok := resolveMechanism(known, in); ok {
			t.Errorf("resolveMechanism(%q) = %q, want unknown", in, got)
		}
	}
}

func TestFormatExact(t *testing.T) {
	for d, want := range map[time.Duration]string{
		100 * time.Microsecond:  "100 µs",
		1500 * time.Microsecond: "1.5 ms",
		123456:                  "123.456 µs",
		time.Second:             "1 s",
		time.Microsecond:        "1 µs",
	} {
		if got := formatExact(d); got != want {
			t.Errorf("formatExact(%v) = %q, want %q", d, got, want)
		}
	}
}
