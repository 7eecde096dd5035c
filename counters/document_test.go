package counters

import (
	"bytes"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chronograph/chronograph/internal/golden"
	"github.com/chronograph/chronograph/report"
	"github.com/chronograph/chronograph/result"
)

// fixedStat is a deterministic chrono stat measurement of three runs:
// multiplexed, user-space-only, unsupported and partly counted events.
func fixedStat(t *testing.T) *Stat {
	ev := func(name string) Event {
		e, err := LookupEvent(name)
		if err != nil {
			t.Fatal(err)
		}
		return e
	}
	c := func(name string, v float64, running float64) Count {
		en := 10 * time.Millisecond
		return Count{Event: ev(name), State: Counted, Value: v, Raw: uint64(v * running), Enabled: en, Running: time.Duration(float64(en) * running)}
	}
	noPMU := Count{Event: ev("ref-cycles"), State: NotSupported, Reason: "hardware counters are not available on this host (no PMU exposed, e.g. a virtual machine); software counters still work"}
	user := c("page-faults", 120, 1)
	user.UserOnly, user.Note = true, "user space only: permission denied (EACCES; kernel.perf_event_paranoid=2): run `sysctl kernel.perf_event_paranoid=1`"
	run := func(scale float64, llcCounted bool) CommandRun {
		llc := c("LLC-load-misses", 5000*scale, 0.5)
		if !llcCounted {
			llc = Count{Event: ev("LLC-load-misses"), State: NotCounted, Reason: "never scheduled on a counter while enabled"}
		}
		u := user
		u.Value *= scale
		return CommandRun{
			Reading: Reading{Source: SourcePerf, Counts: []Count{
				c("task-clock", 8e6*scale, 1), c("cycles", 2.4e7*scale, 0.75), c("instructions", 3e7*scale, 0.75),
				u, noPMU, llc, {Event: ev("branches"), State: NotSupported, Reason: noPMU.Reason},
			}},
			Wall: time.Duration(10e6 * scale), User: time.Duration(7e6 * scale), Sys: time.Duration(1e6 * scale),
		}
	}
	start := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	return &Stat{Argv: []string{"gzip", "-k", "big file.log"}, Source: SourcePerf,
		Events: []string{"task-clock", "cycles", "instructions", "page-faults", "ref-cycles", "LLC-load-misses", "branches"},
		Asked:  3, Runs: []CommandRun{run(1, true), run(1.1, false), run(0.9, true)}, CPUTimeResolution: time.Microsecond,
		Read:  &ReadInfo{Cost: 1450 * time.Nanosecond, UserReadReason: "cap_user_rdpmc is 0 in the perf mmap page; read(2) is used"},
		Start: start, End: start.Add(time.Second)}
}

// TestStatDocumentGolden renders the document of a constructed
// measurement in every format (testdata/stat.*; go test -update rewrites
// them), decodes its JSON strictly and checks that the document read back
// renders byte for byte as the one written: chrono report FILE prints
// what chrono stat printed.
func TestStatDocumentGolden(t *testing.T) {
	d := fixedStat(t).Document(result.Meta{Tool: result.Tool{Name: "chrono", Version: "test"}})
	var js bytes.Buffer
	if err := result.Encode(&js, d); err != nil {
		t.Fatal(err)
	}
	golden.Check(t, filepath.Join("testdata", "stat.json"), js.Bytes())
	dec := json.NewDecoder(bytes.NewReader(js.Bytes()))
	dec.DisallowUnknownFields()
	var strict result.Document
	if err := dec.Decode(&strict); err != nil {
		t.Errorf("strict decoding of the document: %v", err)
	}
	back, err := result.Unmarshal(js.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range []struct {
		format report.Format
		ext    string
	}{{report.Text, "txt"}, {report.Markdown, "md"}, {report.CSV, "csv"}} {
		var b, again bytes.Buffer
		if err := report.Render(&b, report.Subject{Docs: []*result.Document{d}}, f.format, report.Options{}); err != nil {
			t.Fatal(err)
		}
		golden.Check(t, filepath.Join("testdata", "stat."+f.ext), b.Bytes())
		if err := report.Render(&again, report.Subject{Docs: []*result.Document{back}}, f.format, report.Options{}); err != nil {
			t.Fatal(err)
		}
		if again.String() != b.String() {
			t.Errorf("%s of the document read back differs:\n%s\nwant\n%s", f.format, again.String(), b.String())
		}
	}

	// The figures: a metric per event counted in every run, never one
	// for an event not counted (or counted in some runs only); running
	// fractions of the multiplexed ones; times with their resolutions.
	m := d.Measurements[0]
	for _, name := range []string{"task-clock", "cycles", "instructions", "page-faults", "cycles_running", "wall", "user", "sys", "exit_code"} {
		if met := m.Metric(name); met == nil || len(met.Values) != 3 {
			t.Errorf("metric %s = %+v, want 3 values", name, met)
		}
	}
	for _, name := range []string{"ref-cycles", "LLC-load-misses", "branches", "page-faults_running"} {
		if m.Metric(name) != nil {
			t.Errorf("metric %s recorded", name)
		}
	}
	if r := m.Metric("user").Resolution; r != 1000 {
		t.Errorf("user resolution %v, want 1000 ns (rusage)", r)
	}
	states := map[string]string{}
	for _, e := range m.Detail.Counters.Events {
		states[e.Name] = e.State
	}
	if states["LLC-load-misses"] != result.CounterPartly || states["ref-cycles"] != result.CounterNotSupported || states["page-faults"] != result.CounterCounted {
		t.Errorf("event states %v", states)
	}
	var codes []string
	for _, w := range m.Warnings {
		codes = append(codes, w.Code)
	}
	if got := strings.Join(codes, " "); got != "counter-multiplexed counter-multiplexed counter-user-only counter-partly-counted" {
		t.Errorf("warning codes %q", got)
	}
}
