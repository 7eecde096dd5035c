package report

import (
	"fmt"
	"io"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/chronograph/chronograph/report/internal/view"
	"github.com/chronograph/chronograph/result"
)

// benchfmtRenderer writes a function document (package bench) in the Go
// benchmark format that go test -bench prints and benchstat reads
// (golang.org/x/perf/benchfmt): the configuration lines goos, goarch and
// cpu from the environment, then one line per sample of every batch,
// cold and parallel measurement,
//
//	BenchmarkSum/n=100-2  35613  171.2 ns/op  170.9 cpu-ns/op  0 B/op  0 allocs/op
//
// named "Benchmark" + the measurement's name (first letter upper-cased,
// spaces as underscores) + "-GOMAXPROCS" when that is not 1, with the
// sample's iterations and its figures per operation: "ns/op" (wall),
// "cpu-ns/op" (the thread's CPU time), "B/op", "allocs/op", and per
// counted event "EVENT/op" ("EVENT-ns/op" for task-clock and cpu-clock)
// and "IPC"; an instruction-mode measurement's samples (its repeats) have
// "instructions/op" and with the cache simulation "l1-misses/op",
// "ll-misses/op" and "estimated-cycles/op". A parallel sample's iterations are all its workers'; a cold
// one has one. The latency mode's durations are binned, not kept per
// operation: it gets one line with their percentiles and maximum
// ("p50-ns/op", ..., "max-ns/op"), over its operations. Values are exact
// (benchstat chooses the digits). Other kinds of documents have no Go
// benchmarks: they are refused with an error that says which formats
// they have.
type benchfmtRenderer struct{}

func (benchfmtRenderer) Render(w io.Writer, s Subject, _ Options) error {
	d := s.Docs[0]
	var b strings.Builder
	procs := 0
	if h := d.Environment; h != nil {
		if h.Go.GOOS != "" {
			fmt.Fprintf(&b, "goos: %s\ngoarch: %s\n", h.Go.GOOS, h.Go.GOARCH)
		}
		if h.CPU.Model != "" {
			fmt.Fprintf(&b, "cpu: %s\n", h.CPU.Model)
		}
		procs = h.Go.GOMAXPROCS
	}
	for i := range d.Measurements {
		m := &d.Measurements[i]
		name := benchfmtName(m.Name, procs)
		if fd := m.Detail.Function; fd != nil && fd.Mode == result.FunctionLatency {
			writeBenchfmtLatency(&b, name, m)
			continue
		}
		writeBenchfmtSamples(&b, name, m)
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// benchfmtName is the benchmark line's name of a measurement.
func benchfmtName(name string, procs int) string {
	name = strings.Join(strings.Fields(name), "_")
	if name == "" {
		name = "_"
	}
	if !strings.HasPrefix(name, "Benchmark") {
		r, n := utf8.DecodeRuneInString(name)
		name = "Benchmark" + string(unicode.ToUpper(r)) + name[n:]
	}
	if procs > 1 {
		name += "-" + strconv.Itoa(procs)
	}
	return name
}

// benchfmtUnits maps a function measurement's per-operation metrics to
// their benchfmt units, in the order of a line.
var benchfmtUnits = []struct{ metric, unit string }{
	{"wall", "ns/op"}, {"cpu_time", "cpu-ns/op"}, {"bytes", "B/op"}, {"allocs", "allocs/op"},
}

// writeBenchfmtSamples writes one line per sample of m.
func writeBenchfmtSamples(b *strings.Builder, name string, m *result.Measurement) {
	type col struct {
		unit   string
		values []float64
	}
	var cols []col
	n := -1
	add := func(met *result.Metric, unit string) {
		if met != nil && met.Histogram == nil {
			cols = append(cols, col{unit, met.Values})
			if n < 0 || len(met.Values) < n {
				n = len(met.Values)
			}
		}
	}
	for _, u := range benchfmtUnits {
		add(m.Metric(u.metric), u.unit)
	}
	var fd *result.FunctionDetail
	if fd = m.Detail.Function; fd != nil {
		for _, c := range fd.Counters {
			u := c.Event + "/op"
			if c.Unit == "ns" {
				u = c.Event + "-ns/op"
			}
			add(m.Metric(c.Event), u)
		}
		add(m.Metric("ipc"), "IPC")
		if fd.Instructions != nil {
			for _, u := range simulatedUnits {
				add(m.Metric(u.metric), u.unit)
			}
		}
	}
	if len(cols) == 0 || n <= 0 {
		return
	}
	// Iterations per sample: the metric, all workers' in parallel mode,
	// one in cold mode.
	iters := func(i int) float64 { return 1 }
	if it := m.Metric("iterations"); it != nil && len(it.Values) >= n {
		iters = func(i int) float64 { return it.Values[i] }
	} else if fd != nil && fd.Parallel != nil {
		ops := float64(fd.Parallel.Workers) * float64(fd.Parallel.Iterations)
		iters = func(int) float64 { return ops }
	}
	for i := range n {
		fmt.Fprintf(b, "%s\t%s", name, view.ExactNum(iters(i)))
		for _, c := range cols {
			fmt.Fprintf(b, "\t%s %s", view.ExactNum(c.values[i]), c.unit)
		}
		b.WriteByte('\n')
	}
}

// writeBenchfmtLatency writes the latency mode's percentiles and maximum
// as one line over its operations.
func writeBenchfmtLatency(b *strings.Builder, name string, m *result.Measurement) {
	met := m.Metric(m.Primary)
	if met == nil {
		return
	}
	s := view.NewSeries(met)
	if s.N() == 0 {
		return
	}
	fmt.Fprintf(b, "%s\t%d", name, s.N())
	for _, q := range []struct {
		label string
		q     float64
	}{{"p50", 0.5}, {"p90", 0.9}, {"p99", 0.99}, {"p99.9", 0.999}} {
		fmt.Fprintf(b, "\t%s %s-ns/op", view.ExactNum(s.Quantile(q.q)), q.label)
	}
	fmt.Fprintf(b, "\t%s max-ns/op\n", view.ExactNum(s.Summary.Max))
}

// simulatedUnits are the Go benchmark format's units of an instruction
// measurement's metrics (bench/benchtest reports the same).
var simulatedUnits = []struct{ metric, unit string }{
	{"instructions", "instructions/op"}, {"l1_misses", "l1-misses/op"}, {"ll_misses", "ll-misses/op"}, {"estimated_cycles", "estimated-cycles/op"},
}
