package result

import (
	"reflect"
	"runtime"
	"testing"

	"github.com/chronograph/chronograph/env"
	"github.com/chronograph/chronograph/stats"
)

func TestNew(t *testing.T) {
	host := &env.Host{}
	m := Meta{Tool: Tool{Name: "x", Version: "1"}, Args: []string{"x", "-v"}, Environment: host}
	d := New(KindEnv, m)
	if d.Schema != Schema || d.Version != Version || d.Kind != KindEnv || d.Tool != m.Tool ||
		!reflect.DeepEqual(d.Args, m.Args) || d.Environment != host || d.Start.IsZero() || !d.End.IsZero() {
		t.Errorf("New = %+v", d)
	}
	if d := New(KindScope, Meta{}); d.Args != nil || d.Environment != nil {
		t.Errorf("New without arguments or environment recorded them: %+v", d)
	}
}

func TestToolFromBuild(t *testing.T) {
	tool := ToolFromBuild("chronograph/bench")
	if tool.Name != "chronograph/bench" || tool.GoVersion != runtime.Version() {
		t.Errorf("ToolFromBuild = %+v, want the name and %s", tool, runtime.Version())
	}
}

func TestSampleMetric(t *testing.T) {
	xs := []float64{5, 1, 4, 2, 3}
	tests := []struct {
		name        string
		xs          []float64
		percentiles []float64
		want        map[string]float64
		n           int
	}{
		{"no percentiles", xs, nil, nil, 5},
		{"linear percentiles", xs, []float64{50, 90, 99.9}, map[string]float64{
			"p50": stats.Percentile(xs, 50, stats.Linear), "p90": stats.Percentile(xs, 90, stats.Linear), "p99.9": stats.Percentile(xs, 99.9, stats.Linear)}, 5},
		{"no samples: an empty series, no percentiles", nil, []float64{50}, nil, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := SampleMetric("wall", UnitNs, 20, tt.xs, tt.percentiles...)
			if m.Name != "wall" || m.Unit != UnitNs || m.Resolution != 20 || m.Values == nil || len(m.Values) != tt.n {
				t.Fatalf("metric %+v", m)
			}
			if m.Summary == nil || m.Summary.N != tt.n {
				t.Errorf("summary %+v, want one of %d values", m.Summary, tt.n)
			}
			if !reflect.DeepEqual(m.Percentiles, tt.want) {
				t.Errorf("percentiles %v, want %v", m.Percentiles, tt.want)
			}
			if wantMethod := map[bool]string{true: "linear"}[tt.want != nil]; m.PercentileMethod != wantMethod {
				t.Errorf("method %q, want %q", m.PercentileMethod, wantMethod)
			}
		})
	}
	if xs[0] != 5 {
		t.Error("SampleMetric reordered the samples")
	}
}
