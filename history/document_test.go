package history

import (
	"bytes"
	"context"
	"errors"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chronograph/chronograph/compare"
	"github.com/chronograph/chronograph/env"
	"github.com/chronograph/chronograph/internal/crosstest"
	"github.com/chronograph/chronograph/result"
	"github.com/chronograph/chronograph/stats"
)

// twoMachines fills the store at dsn with 24 runs of "step" on machine A,
// whose wall time steps up by 30 % at run 12, then 6 flat runs on machine
// B (the newest), and returns A's and B's fingerprints.
func twoMachines(t *testing.T, dsn string) (*Store, Machine, Machine) {
	t.Helper()
	ctx := context.Background()
	s, err := Open(ctx, dsn)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	hostA := &env.Host{CPU: env.CPU{Model: "CPU-A"}, Go: env.Go{Version: "go1.26", GOMAXPROCS: 2}}
	hostB := &env.Host{CPU: env.CPU{Model: "CPU-B"}, Go: env.Go{Version: "go1.26", GOMAXPROCS: 2}}
	add := func(i int, host *env.Host, v float64) {
		d := testDoc("step", []float64{v * 0.99, v, v * 1.01}, time.Unix(int64(1000+i), 0))
		d.Environment = host
		if _, err := s.Add(ctx, d, Meta{Git: Git{Commit: strings.Repeat(string(rune('a'+i%26)), 40)}}); err != nil {
			t.Fatal(err)
		}
	}
	for i := range 24 {
		v := 1e6 * (1 + 0.002*float64(i%3))
		if i >= 12 {
			v *= 1.3
		}
		add(i, hostA, v)
	}
	for i := 24; i < 30; i++ {
		add(i, hostB, 2e6)
	}
	return s, Fingerprint(hostA), Fingerprint(hostB)
}

var checkOpts = CheckOptions{Threshold: 0.05, Detector: stats.EDivisiveOptions{Permutations: 199, MinSegment: 5, Seed: 1, Significance: 0.05}}

// TestSelect: the series a query selects (the default metric, the newest
// run's machine, a machine prefix, each machine, every machine merged,
// since) and the errors for what a measurement does not have.
func TestSelect(t *testing.T) {
	ctx := context.Background()
	for name, dsn := range backends(t) {
		t.Run(name, func(t *testing.T) {
			s, a, b := twoMachines(t, dsn)
			for _, tt := range []struct {
				name string
				q    Query
				want string // metric machine runs, per series
			}{
				{"newest machine, wall", Query{Name: "step"}, "wall " + b.Hash + " 6"},
				{"a metric", Query{Name: "step", Metric: "user"}, "user " + b.Hash + " 6"},
				{"a machine prefix", Query{Name: "step", Machine: a.Hash[:5]}, "wall " + a.Hash + " 24"},
				{"each machine", Query{Name: "step", EachMachine: true}, "wall " + b.Hash + " 6|wall " + a.Hash + " 24"},
				{"merged", Query{Name: "step", Merged: true}, "wall merged 30"},
				{"since", Query{Name: "step", Machine: a.Hash, Since: time.Unix(1020, 0)}, "wall " + a.Hash + " 4"},
			} {
				ss, err := s.Select(ctx, tt.q)
				if err != nil {
					t.Fatalf("%s: %v", tt.name, err)
				}
				var got []string
				for _, se := range ss {
					m := se.Machine.Hash
					if se.Merged {
						m = "merged"
					}
					got = append(got, se.Metric+" "+m+" "+strconv.Itoa(len(se.Points)))
					if se.Unit != "ns" || se.Name != "step" {
						t.Errorf("%s: series %s %s in %q", tt.name, se.Name, se.Metric, se.Unit)
					}
				}
				if strings.Join(got, "|") != tt.want {
					t.Errorf("%s: %s, want %s", tt.name, strings.Join(got, "|"), tt.want)
				}
			}
			var qe *QueryError
			if _, err := s.Select(ctx, Query{Name: "step", Metric: "cycles"}); !errors.As(err, &qe) || !strings.Contains(err.Error(), `"step" has no metric "cycles": it has user, wall`) {
				t.Errorf("unknown metric: %v", err)
			}
			if _, err := s.Select(ctx, Query{Name: "step", Machine: "zz"}); !errors.As(err, &qe) || !strings.Contains(err.Error(), `no run of "step" on machine "zz": its machines are `+b.Hash+", "+a.Hash) {
				t.Errorf("unknown machine: %v", err)
			}
			if _, err := s.Select(ctx, Query{Name: "nothing"}); err == nil || errors.As(err, &qe) || !strings.Contains(err.Error(), "see chrono history list") {
				t.Errorf("unknown measurement: %v", err)
			}
		})
	}
}

// TestDocuments: every view's document is a valid history document that
// reads back, holds the selection, the series (run medians as the
// metric, the runs beside them) and, for trend and check, the change
// points; check counts its series.
func TestDocuments(t *testing.T) {
	ctx := context.Background()
	for name, dsn := range backends(t) {
		t.Run(name, func(t *testing.T) {
			s, a, b := twoMachines(t, dsn)
			tool := result.Meta{Tool: result.Tool{Name: "chrono", Version: "test"}}
			since := time.Unix(1001, 0)
			list, err := s.ListDocument(ctx, tool)
			if err != nil || len(list.Measurements) != 2 || list.Measurements[1].Detail.History.Metric != "wall" ||
				list.Measurements[1].Detail.History.Stored.Runs != 30 || list.Measurements[1].Detail.History.Stored.Machines != 2 {
				t.Fatalf("list: %v %+v", err, list)
			}
			show, err := s.ShowDocument(ctx, "step", tool)
			if err != nil || len(show.Measurements) != 2 || !show.Measurements[0].Detail.History.Merged || len(show.Measurements[0].Detail.History.Runs) != 30 {
				t.Fatalf("show: %v %+v", err, show)
			}
			if _, err := s.ShowDocument(ctx, "nothing", tool); err == nil || !strings.Contains(err.Error(), "no measurement named") {
				t.Errorf("show of nothing: %v", err)
			}
			trend, err := s.TrendDocument(ctx, Query{Name: "step", Machine: a.Hash[:8], Since: since}, checkOpts, true, tool)
			if err != nil {
				t.Fatal(err)
			}
			run := trend.Run.History
			if run.View != result.HistoryViewTrend || run.Store != s.Where() || run.Machine != a.Hash[:8] || run.Since == nil || !run.Since.Equal(since) ||
				!run.AllRuns || run.Detector == nil || run.Detector.Permutations != 199 || run.Detector.Confidence != 0.95 {
				t.Errorf("trend run: %+v", run)
			}
			m := trend.Measurements[0]
			det := m.Detail.History
			if m.Name != "step" || m.Primary != "wall" || len(m.Metrics[0].Values) != 23 || len(det.Runs) != 23 || det.Machine == nil || det.Machine.Hash != a.Hash ||
				det.Runs[0].N != 3 || len(det.Runs[0].Values) != 3 || m.Metrics[0].Values[0] != stats.Median(det.Runs[0].Values) {
				t.Fatalf("trend series: %+v", m)
			}
			if len(det.Changes) != 1 || det.Changes[0].Index != 11 || det.Changes[0].Verdict != string(compare.Regression) ||
				det.Changes[0].AfterCommit != det.Runs[11].Commit || det.Changes[0].BeforeCommit != det.Runs[10].Commit {
				t.Errorf("trend changes: %+v", det.Changes)
			}
			check, err := s.CheckDocument(ctx, nil, Query{EachMachine: true}, checkOpts, tool)
			if err != nil {
				t.Fatal(err)
			}
			if c := check.Run.History.Check; c == nil || c.Checked != 2 || c.Changed != 1 || c.Regressed != 1 || c.Threshold != 0.05 || len(check.Measurements) != 2 {
				t.Errorf("check: %+v, %d series", check.Run.History.Check, len(check.Measurements))
			}
			merged, err := s.CheckDocument(ctx, []string{"step"}, Query{Merged: true}, checkOpts, tool)
			if err != nil || merged.Run.History.Check.Checked != 1 || !merged.Run.History.AnyMachine || !merged.Measurements[0].Detail.History.Merged {
				t.Errorf("check --any-machine: %v %+v", err, merged.Run.History)
			}
			export, err := s.ExportDocument(ctx, Query{Name: "step"}, tool)
			if err != nil || export.Run.History.View != result.HistoryViewExport || len(export.Measurements) != 1 ||
				export.Measurements[0].Detail.History.Machine.Hash != b.Hash || len(export.Measurements[0].Detail.History.Changes) != 0 {
				t.Errorf("export: %v %+v", err, export)
			}
			for _, d := range []*result.Document{list, show, trend, check, merged, export} {
				var buf bytes.Buffer
				if err := result.Encode(&buf, d); err != nil {
					t.Fatal(err)
				}
				if back, err := result.Unmarshal(buf.Bytes()); err != nil || back.Kind != result.KindHistory {
					t.Errorf("%s: does not read back: %v", d.Run.History.View, err)
				}
			}
		})
	}
}

// TestSelectInstructions: without wall, the default series are every
// metric but the loop counts of bench's instruction mode ("iterations",
// sized from a native calibration); a measurement of only iterations
// keeps them.
func TestSelectInstructions(t *testing.T) {
	ctx := context.Background()
	s, err := Open(ctx, filepath.Join(crosstest.TempDir(t), "h.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	d := result.New("function", result.Meta{Tool: result.Tool{Name: "chrono", Version: "test"}})
	d.Start = time.Unix(1000, 0)
	d.Measurements = []result.Measurement{
		{Name: "Sum", Primary: "instructions", Metrics: []result.Metric{
			{Name: "instructions", Unit: "count/op", Values: []float64{4117, 4117, 4117}, Exact: true},
			{Name: "iterations", Unit: "count", Values: []float64{6666, 6666, 6666}},
			{Name: "l1_misses", Unit: "count/op", Values: []float64{0, 0, 0}, Exact: true},
		}},
		{Name: "Loops", Primary: "iterations", Metrics: []result.Metric{{Name: "iterations", Unit: "count", Values: []float64{3, 3}}}},
	}
	if _, err := s.Add(ctx, d, Meta{}); err != nil {
		t.Fatal(err)
	}
	for name, want := range map[string]string{"Sum": "instructions l1_misses", "Loops": "iterations"} {
		ss, err := s.Select(ctx, Query{Name: name})
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, se := range ss {
			got = append(got, se.Metric)
		}
		if strings.Join(got, " ") != want {
			t.Errorf("%s: series %v, want %s", name, got, want)
		}
	}
}
