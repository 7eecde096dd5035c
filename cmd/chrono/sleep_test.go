package main

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/chronograph/chronograph/internal/crosstest"
	"github.com/chronograph/chronograph/result"
)

// delayStrictDecode decodes a sleep or latency document rejecting unknown
// fields, so that the schema and the writer cannot drift apart.
func delayStrictDecode(t *testing.T, data []byte) *result.Document {
	t.Helper()
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	var d result.Document
	if err := dec.Decode(&d); err != nil {
		t.Fatalf("strict decoding: %v", err)
	}
	if bytes.Contains(data, []byte(`"details"`)) {
		t.Errorf("the document has untyped details")
	}
	return &d
}

// TestSleepLiveIsReport: the live table of chrono sleep is the text
// rendering of its document, byte for byte, so chrono report of the saved
// document prints it again. The budget is tiny: what is checked is the
// document and its rendering, not how well the machine waits.
func TestSleepLiveIsReport(t *testing.T) {
	dir := crosstest.TempDir(t)
	jsonPath, csvPath := filepath.Join(dir, "sleep.json"), filepath.Join(dir, "sleep.csv")
	live, errb, code := runChrono(t, "", "sleep", "--durations", "100us,1ms", "--mechanisms", "time.Sleep,delay.Sleep,busy-spin",
		"--budget", "30ms", "-q", "--export-json", jsonPath, "--export-csv", csvPath)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errb)
	}
	again, errb, code := runChrono(t, "", "report", jsonPath)
	if code != 0 || again != live {
		t.Fatalf("chrono report (exit %d, %s) differs from the live output:\n--- live\n%s\n--- report\n%s", code, errb, live, again)
	}
	for _, want := range []string{"requested 100µs", "requested 1ms", "time.Sleep", "delay.Sleep", "CPU/wait", "most accurate", "delay.Sleep spin margin at the end: "} {
		if !strings.Contains(live, want) {
			t.Errorf("output lacks %q:\n%s", want, live)
		}
	}
	data, err := os.ReadFile(jsonPath)
	if err != nil {
		t.Fatal(err)
	}
	doc := delayStrictDecode(t, data)
	if doc.Kind != result.KindSleep || len(doc.Measurements) != 6 || doc.Run.Sleep == nil || doc.Environment == nil {
		t.Fatalf("document kind %q with %d measurements, run %v; want sleep with 6, its run and environment", doc.Kind, len(doc.Measurements), doc.Run.Sleep)
	}
	if r := doc.Run.Sleep; len(r.DurationsNs) != 2 || r.DurationsNs[0] != 100_000 || r.SpinMarginNs == nil || doc.Args[0] != "chrono" || doc.Args[1] != "sleep" {
		t.Errorf("run %+v, args %q", r, doc.Args)
	}
	for _, m := range doc.Measurements {
		det := m.Detail.Sleep
		if det == nil || m.Name != det.Mechanism+"@"+map[int64]string{100_000: "100µs", 1_000_000: "1ms"}[det.RequestedNs] {
			t.Errorf("measurement %q: detail %+v", m.Name, det)
			continue
		}
		a, o := m.Metric("achieved"), m.Metric("overshoot")
		if m.Primary != "achieved" || a == nil || o == nil || len(a.Values) == 0 || a.Unit != "ns" || a.Resolution <= 0 || len(o.Values) != len(a.Values) {
			t.Errorf("measurement %q lacks its raw samples: %+v", m.Name, m.Metrics)
		}
	}
	f, err := os.Open(csvPath)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	recs, err := csv.NewReader(f).ReadAll()
	if err != nil || len(recs) != 7 || strings.Join(recs[0][:7], ",") != "mechanism,requested_ns,n,achieved_median_ns,overshoot_median_ns,overshoot_p99_ns,overshoot_max_ns" {
		t.Errorf("CSV: %v, %d records: %q", err, len(recs), recs)
	}
}

// --json prints the document and nothing else.
func TestSleepJSON(t *testing.T) {
	out, errb, code := runChrono(t, "", "sleep", "--durations", "10us", "--mechanisms", "busy-spin", "--budget", "1ms", "--json", "--redact")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errb)
	}
	d := delayStrictDecode(t, []byte(out))
	if d.Kind != result.KindSleep || len(d.Measurements) != 1 || d.Measurements[0].Name != "busy-spin@10µs" {
		t.Errorf("document %+v", d)
	}
	if d.Run.Sleep.SpinMarginNs != nil {
		t.Errorf("a spin margin though delay.Sleep was not measured: %d ns", *d.Run.Sleep.SpinMarginNs)
	}
}

// TestSleepInterrupted: an interrupted study prints and exports what it
// measured (marked incomplete) and exits 128 + the signal's number.
func TestSleepInterrupted(t *testing.T) {
	for sig, want := range map[os.Signal]int{os.Interrupt: 130, syscall.SIGTERM: 143} {
		injectInterrupt(t, sig)
		jsonPath := filepath.Join(crosstest.TempDir(t), "sleep.json")
		out, errb, code := runChrono(t, "", "sleep", "--durations", "5s", "--mechanisms", "busy-spin", "-q", "--export-json", jsonPath)
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
		if again, _, _ := runChrono(t, "", "report", jsonPath); again != out {
			t.Errorf("%v: chrono report differs from the live output:\n--- live\n%s\n--- report\n%s", sig, out, again)
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
		{[]string{"sleep", "--durations", ""}, "--durations is empty"},
		{[]string{"sleep", "--durations", ","}, "empty item"},
		{[]string{"sleep", "--durations", "1ms,,2ms"}, "empty item"},
		{[]string{"sleep", "--durations", "1ms,1ms"}, "1ms is given twice: give each duration once"},
		{[]string{"sleep", "--durations", "1ms,1000us"}, "1ms and 1000us are the same duration"},
		{[]string{"sleep", "--durations", "-1ms"}, "out of range"},
		{[]string{"sleep", "--mechanisms", "sundial"}, "unknown mechanism"},
		{[]string{"sleep", "--mechanisms", ""}, "--mechanisms is empty"},
		{[]string{"sleep", "--mechanisms", "time.Sleep,,busy-spin"}, "empty item"},
		{[]string{"sleep", "--mechanisms", "time.Sleep,time.sleep"}, "time.Sleep is given twice"},
		{[]string{"sleep", "--priority", "120"}, "out of range"},
		{[]string{"sleep", "--budget", "0s"}, "--budget"},
		{[]string{"sleep", "--dma-latency", "-1"}, "--dma-latency must be at least 0 µs"}, // -1 was taken for "not given"
		{[]string{"sleep", "--pin", "x"}, "--pin \"x\" is not a CPU list"},
		{[]string{"sleep", "--pin", ""}, "is not a CPU list"},
		{[]string{"sleep", "--json", "sleep.json"}, "--json is a switch"},
		{[]string{"sleep", "--csv", "x.csv"}, "unknown flag: --csv"},
		{[]string{"sleep", "--json", "--export-json", "-"}, "both write to standard output"},
		{[]string{"sleep", "--export-json", "/nonexistent/x.json"}, "does not exist"},
	}
	for _, tt := range tests {
		t.Run(strings.Join(tt.args, " "), func(t *testing.T) {
			out, errb, code := runChrono(t, "", tt.args...)
			if code != exitUsage || !strings.Contains(errb, tt.want) || out != "" {
				t.Errorf("exit %d, stdout %q, stderr %q; want exit 2 mentioning %q", code, out, errb, tt.want)
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

// Completion offers the mechanisms, one list item at a time.
func TestSleepCompletion(t *testing.T) {
	out, _, code := runChrono(t, "", "__complete", "sleep", "--mechanisms", "time.Sleep,delay.")
	if code != 0 || !strings.Contains(out, "time.Sleep,delay.Sleep\n") || !strings.Contains(out, "time.Sleep,delay.Sleep(NoSpin)\n") || strings.Contains(out, "busy-spin") {
		t.Errorf("exit %d, completion:\n%s", code, out)
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
