package run

import (
	"bytes"
	"errors"
	"testing"
	"time"

	"github.com/chronograph/chronograph/result"
	"github.com/chronograph/chronograph/warn"
)

// TestDocumentOptionsGolden: the JSON of a benchmark with the
// presentation choices recorded (reference, sort, time unit, style), a
// pinned, precision-bounded, interrupted run that stopped on an error,
// with a timed-out run, signals, notes and the own CPU time is the
// golden one (testdata/document-options.json, -windows.json on windows;
// go test -update rewrites it). The exports goldens cover the plain
// benchmark.
func TestDocumentOptionsGolden(t *testing.T) {
	rep := fixedReport()
	rep.Options.Precision, rep.Options.Pin, rep.Options.Timeout = 0.05, []int{0, 1}, time.Second
	rep.Interrupted, rep.Err = true, errors.New("run: command \"work 2\" exited with code 1\nmore")
	rep.Notes = []warn.Warning{warn.NewNote("setup-first", "every setup command ran before the runs", "")}
	rep.OwnCPU, rep.Processes, rep.ParentPeakRSSBytes = 120*time.Millisecond, 46, 9<<20
	a := rep.Results[0]
	a.CPUs = make([]int, len(a.Samples))
	for i := range a.CPUs {
		a.CPUs[i] = i % 2
	}
	a.PrecisionReached = true
	b := rep.Results[1]
	b.Complete = false
	b.Samples[3].ExitCode, b.Samples[3].SignalNumber = -1, 9
	b.TimedOut = []Sample{{Iteration: 12, Wall: time.Second}}
	rep.Options.Reference, rep.Options.Sort, rep.Options.TimeUnit, rep.Options.Style = "work 2", "median", "ms", "hyperfine"
	d := rep.Document(result.Meta{Tool: result.Tool{Name: "chrono", Version: "test"}, Args: []string{"chrono", "run", "work {n}"}})
	var js bytes.Buffer
	if err := result.Encode(&js, d); err != nil {
		t.Fatal(err)
	}
	golden(t, platformGolden("document-options")+".json", js.Bytes())
}
