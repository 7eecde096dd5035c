package run

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chronograph/chronograph/counters"
	golden_ "github.com/chronograph/chronograph/internal/golden"
	"github.com/chronograph/chronograph/report"
	"github.com/chronograph/chronograph/result"
)

func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	golden_.Check(t, filepath.Join("testdata", name), got)
}

// fixedReport is a deterministic report: two commands with parameter n,
// made-up but plausible per-run figures, and a shell overhead. Where the
// platform gives no per-child rusage (windows) the runs have none, as
// fillUsage leaves them.
func fixedReport() *Benchmark {
	mk := func(base time.Duration, n int, jitter []int) []Sample {
		var ss []Sample
		for i := range n {
			w := base + time.Duration(jitter[i%len(jitter)])*time.Microsecond
			s := Sample{Iteration: i, Wall: w, User: w * 8 / 10, Sys: w / 10, MaxRSSBytes: 4 << 20,
				MinorFaults: 150, MajorFaults: 0, VolCS: 2, InvolCS: int64(i % 3)}
			if usageUnavailable != "" {
				s.MaxRSSBytes, s.MinorFaults, s.MajorFaults, s.VolCS, s.InvolCS = -1, -1, -1, -1, -1
			}
			ss = append(ss, s)
		}
		return ss
	}
	sh, err := shellWords(Options{}) // the platform's default shell
	if err != nil {
		panic(err)
	}
	a := Command{Name: "work 1", Line: "work 1", Argv: append(slices.Clone(sh), "work 1"), Params: map[string]string{"n": "1"}}
	b := Command{Name: "work 2", Line: "work 2", Argv: append(slices.Clone(sh), "work 2"), Params: map[string]string{"n": "2"}, Index: 0}
	start := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	rep := &Benchmark{Order: Interleaved, Seed: 42, Start: start, End: start.Add(time.Minute),
		Options: Options{Runs: 12, Order: Interleaved, Seed: 42}}
	rep.Results = []*CommandRuns{
		{Command: &a, Samples: mk(20*time.Millisecond, 12, []int{0, 150, -80, 300, 40, -20, 90, 900, 10, -60, 30, 70}), Complete: true},
		{Command: &b, Samples: mk(31*time.Millisecond, 12, []int{10, -150, 80, 200, 40, -20, 60, 30, -10, 50, -30, 20}), Complete: true},
	}
	rep.Overhead = &Overhead{Kind: "shell", Line: joinWords(append(slices.Clone(sh), "")), Subtracted: true,
		Samples: mk(time.Millisecond, 20, []int{0, 10, -10, 20, 5})}
	return rep
}

// platformGolden is the name of the golden files of fixedReport's
// documents: prefix, or prefix + "-windows" on windows, whose documents
// differ by the platform's facts (the shell, the CPU times' step, no
// per-child rusage).
func platformGolden(prefix string) string {
	if runtime.GOOS == "windows" {
		return prefix + "-windows"
	}
	return prefix
}

// exportsGolden renders the document of rep in every format, compares
// each with its golden file (platformGolden(prefix) + .json, .csv, .md,
// .txt), decodes the JSON strictly (no field unknown to package result)
// and checks that the document read back renders byte for byte as the
// one written: what chrono report FILE prints is what chrono run
// printed.
func exportsGolden(t *testing.T, rep *Benchmark, prefix string, args []string) (*result.Document, string) {
	t.Helper()
	prefix = platformGolden(prefix)
	d := rep.Document(result.Meta{Tool: result.Tool{Name: "chrono", Version: "test"}, Args: args})
	var js bytes.Buffer
	if err := result.Encode(&js, d); err != nil {
		t.Fatal(err)
	}
	golden(t, prefix+".json", js.Bytes())
	dec := json.NewDecoder(bytes.NewReader(js.Bytes()))
	dec.DisallowUnknownFields()
	var strict result.Document
	if err := dec.Decode(&strict); err != nil {
		t.Errorf("strict decoding of the document: %v", err)
	}
	back, err := result.Unmarshal(js.Bytes())
	if err != nil {
		t.Fatalf("the JSON export does not read back: %v", err)
	}
	var txt string
	for _, f := range []struct {
		format report.Format
		ext    string
	}{{report.CSV, ".csv"}, {report.Markdown, ".md"}, {report.Text, ".txt"}} {
		out := render(t, d, f.format)
		golden(t, prefix+f.ext, []byte(out))
		if again := render(t, back, f.format); again != out {
			t.Errorf("%s of the document read back differs:\n%s\nwant\n%s", f.format, again, out)
		}
		if f.format == report.Text {
			txt = out
		}
	}
	return d, txt
}

func TestExportsGolden(t *testing.T) {
	exportsGolden(t, fixedReport(), "export", []string{"chrono", "run", "work {n}"})
}

// fixedCountersReport is fixedReport with made-up counters in every run
// (as a deterministic fake probe would record them): task-clock and
// page-faults, cycles and instructions (for IPC), instructions scaled in
// some runs; branch-misses unavailable.
func fixedCountersReport() *Benchmark {
	rep := fixedReport()
	evs, err := counters.ParseEvents("task-clock,page-faults,cycles,instructions,branch-misses")
	if err != nil {
		panic(err)
	}
	rep.Options.Counters = evs
	rep.CountersUnavailable = []result.Unavailable{{Name: "branch-misses",
		Reason: "hardware counters are not available on this host (no PMU exposed, e.g. a virtual machine); software counters still work", Runs: 44}}
	fake := func(ss []Sample, scale float64) {
		for i := range ss {
			s := &ss[i]
			w := float64(s.Wall)
			s.Extra = map[string]float64{
				"task-clock":   0.9 * w,
				"page-faults":  math.Round(100*scale) + float64(i%3),
				"cycles":       2.5 * w,
				"instructions": 3 * w * scale,
			}
			if i%4 == 1 {
				s.ExtraRunning = map[string]float64{"instructions": 0.5}
			}
		}
	}
	fake(rep.Results[0].Samples, 1)
	fake(rep.Results[1].Samples, 1.2)
	fake(rep.Overhead.Samples, 0.5)
	return rep
}

func TestCountersExportsGolden(t *testing.T) {
	d, txt := exportsGolden(t, fixedCountersReport(), "export-counters", []string{"chrono", "run", "--counters", "work {n}"})

	// Per metric: one value per run, corrected by the overhead's median,
	// raw kept; one comparison per counter and wall.
	m := d.Measurements[0]
	for _, name := range []string{"task-clock", "page-faults", "cycles", "instructions"} {
		mt, raw := m.Metric(name), m.Metric(name+"_raw")
		if mt == nil || raw == nil || len(mt.Values) != 12 || mt.Values[0] >= raw.Values[0] {
			t.Errorf("metric %s: %+v, raw %+v", name, mt, raw)
		}
	}
	if u := m.Metric("task-clock").Unit; u != "ns" {
		t.Errorf("task-clock unit %q, want ns", u)
	}
	if m.Metric("branch-misses") != nil {
		t.Errorf("an unavailable event has values")
	}
	metrics := map[string]bool{}
	for _, c := range d.Comparisons {
		metrics[c.Metric] = true
	}
	for _, want := range []string{"wall", "task-clock", "page-faults", "cycles", "instructions"} {
		if !metrics[want] {
			t.Errorf("no comparison of %s in %v", want, metrics)
		}
	}
	if n := strings.Count(fmt.Sprint(d.Warnings), "branch-misses"); n != 1 {
		t.Errorf("branch-misses named %d times in the warnings, want once: %q", n, d.Warnings)
	}
	for _, want := range []string{"ipc", "scaled", "branch-misses: hardware counters are not available", "Counters compared with"} {
		if !strings.Contains(txt, want) {
			t.Errorf("summary lacks %q", want)
		}
	}
}
