package report

import (
	"bytes"
	"math"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/chronograph/chronograph/compare"
	"github.com/chronograph/chronograph/report/internal/view"
	"github.com/chronograph/chronograph/result"
	"github.com/chronograph/chronograph/stats"
	"github.com/chronograph/chronograph/warn"
)

// latencyMetric bins values as chrono latency does (HDR, 3 digits) with
// the exact extremes, mean and standard deviation.
func latencyMetricOf(t *testing.T, vs []int64) result.Metric {
	t.Helper()
	h, err := stats.NewHistogram(1, int64(10*time.Second), 3)
	if err != nil {
		t.Fatal(err)
	}
	var sum, sq float64
	for _, v := range vs {
		h.Record(v)
		sum += float64(v)
	}
	mean := sum / float64(len(vs))
	for _, v := range vs {
		sq += (float64(v) - mean) * (float64(v) - mean)
	}
	sd := math.Sqrt(sq / float64(len(vs)))
	b, c := h.Bins()
	return result.Metric{Name: "latency", Unit: "ns", Resolution: 20, PercentileMethod: "hdr-upper",
		Histogram: &result.Histogram{Bounds: b, Counts: c, Min: float64(h.Min()), Max: float64(h.Max()), Mean: mean, StdDev: &sd}}
}

func latencyDoc(t *testing.T, histUS int) *result.Document {
	d := result.New(result.KindLatency, result.Meta{Tool: result.Tool{Name: "chrono", Version: "test"}})
	d.Start = time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)
	d.End = d.Start.Add(time.Second)
	d.Run.Latency = &result.LatencyRun{Wait: "clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME)", IntervalNs: 1_000_000, Threads: 2,
		Loops: 200, OverflowNs: int64(10 * time.Second), SignificantDigits: 3, Conditions: result.WaitConditions{MLocked: true}}
	if histUS > 0 {
		d.Run.Latency.HistogramUs = histUS
		d.Run.Latency.OverflowNs = int64(histUS) * 1000
	}
	var a, b, all []int64
	for i := range 200 {
		a = append(a, int64(40_000+(i%10)*3_000+(i/199)*3_000_000))
		if i < 50 {
			b = append(b, int64(60_000+(i%5)*1_000))
		}
	}
	all = append(append(all, a...), b...)
	zero, one, cpu1 := 0, 1, 1
	y, ymax, last0, last1 := int64(3), int64(77_054), int64(43_000), int64(61_000)
	slack := int64(50_000)
	over := func(vs []int64) (n int64) {
		for _, v := range vs {
			if v >= d.Run.Latency.OverflowNs {
				n++
			}
		}
		return n
	}
	d.Measurements = []result.Measurement{
		{Name: "thread 0", Primary: "latency", Metrics: []result.Metric{latencyMetricOf(t, a)},
			Detail: result.KindDetail{Latency: &result.LatencyDetail{Thread: &zero, TID: 4523, TimerSlackNs: &slack, LastNs: &last0,
				Overflows: over(a), Overruns: 2, RuntimeYields: &y, RuntimeYieldMaxNs: &ymax,
				PerCPU: []result.LatencyCPU{{CPU: 0, Count: 150, MinNs: 40_000, MaxNs: 3_067_000, MeanNs: 73_123.4, StdDevNs: 243_000}, {CPU: 1, Count: 50, MinNs: 40_000, MaxNs: 67_000, MeanNs: 53_500, StdDevNs: 8_600}}}}},
		{Name: "thread 1", Primary: "latency", Metrics: []result.Metric{latencyMetricOf(t, b)}, Incomplete: true,
			Detail:   result.KindDetail{Latency: &result.LatencyDetail{Thread: &one, TID: 4524, CPU: &cpu1, LastNs: &last1, Overflows: over(b), Error: "clock_nanosleep: invalid argument"}},
			Warnings: []warn.Warning{warn.New("sleep-failed", "the thread stopped after 50 latencies: invalid argument", "the figures cover what it measured before; the error says why the sleep failed")}},
		{Name: "all threads", Primary: "latency", Metrics: []result.Metric{latencyMetricOf(t, all)},
			Detail: result.KindDetail{Latency: &result.LatencyDetail{Overflows: over(all), Overruns: 2}}},
	}
	d.Incomplete = true
	return d
}

func TestLatencyViewGolden(t *testing.T) {
	for _, tt := range []struct {
		name   string
		histUS int
		f      Format
	}{{"latency.txt", 0, Text}, {"latency-h.txt", 100, Text}, {"latency.md", 0, Markdown}, {"latency.csv", 0, CSV}} {
		var b bytes.Buffer
		if err := Render(&b, Subject{Docs: []*result.Document{latencyDoc(t, tt.histUS)}}, tt.f, Options{}); err != nil {
			t.Fatal(err)
		}
		golden(t, tt.name, b.Bytes())
	}
}

// The -h view counts per µs below the limit and the overflows above it
// per thread, without clipping the percentiles, which come from every
// latency.
func TestLatencyViewHistogram(t *testing.T) {
	var b bytes.Buffer
	if err := Render(&b, Subject{Docs: []*result.Document{latencyDoc(t, 50)}}, Text, Options{}); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	for _, want := range []string{
		"000040 000020 000000", "000048 000020 000000",
		"# Histogram Overflows: 00120 00050",
		"overflows: latencies of 50 µs or more (-h)",
		"T: 0 (  4523) P: 0 I:1000 C:     200 Min:     40 Act:     43 Avg:     68 Max:    3067",
		"Go runtime yields (after a measurement, or at once when the deadline was far): thread 0: 3, longest 77.05 µs", // 20 ns tick: digits to 10 ns
		"per CPU (threads not pinned, by the CPU each wake-up ran on):",
		"thread 1: the thread stopped after 50 latencies",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("view lacks %q:\n%s", want, out)
		}
	}
	// The figures of thread 0 include its 3 ms latency, above the -h
	// limit: the exact max and mean (68.5 µs, known to ±29 µs).
	if !strings.Contains(out, "  3.067 ms    68 µs  ") {
		t.Errorf("figures clipped at the -h limit:\n%s", out)
	}
	if strings.Count(out, "000000 000000") > 0 {
		t.Errorf("empty µs lines printed:\n%s", out)
	}
}

// A quantile whose rank falls between two values in distant bins lies
// between them, as the linear definition has it for raw values: the
// p99.99 of 200 latencies is near the largest, not the one below it.
func TestBinnedQuantileBetweenBins(t *testing.T) {
	vs := make([]float64, 0, 200)
	var raw []int64
	for i := range 199 {
		raw = append(raw, int64(40_000+(i%10)*3_000))
	}
	raw = append(raw, 3_067_000)
	for _, v := range raw {
		vs = append(vs, float64(v))
	}
	s := view.NewSeries(func() *result.Metric { m := latencyMetricOf(t, raw); return &m }())
	exact := view.NewSeries(&result.Metric{Unit: "ns", Values: vs})
	for _, q := range []float64{0, 0.5, 0.9, 0.99, 0.999, 0.9999, 1} {
		got, want := s.Quantile(q), exact.Quantile(q)
		// The bins keep 3 significant digits: a value may move by 1/1000.
		if math.Abs(got-want) > 2e-3*want {
			t.Errorf("q%v: %v from the bins, %v from the values", q, got, want)
		}
	}
}

// A latency document compared with a baseline: the threads are in both,
// with their medians read from the bins and no test claimed.
func TestLatencyDiff(t *testing.T) {
	var b bytes.Buffer
	if err := Render(&b, Subject{Diff: compare.Documents(latencyDoc(t, 0), latencyDoc(t, 0), false)}, Text, Options{}); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	if strings.Contains(out, "no measurement is in both") || !strings.Contains(out, "cannot tell: the samples are binned") || !strings.Contains(out, "53.5 µs") {
		t.Errorf("diff:\n%s", out)
	}
}

// TestLatencyHugeHistogramLimit: the per-µs histogram of a document whose
// -h limit is 2e9 µs (as chrono latency -h 2000000000 writes, or any
// document may say) costs memory in proportion to the latencies' bins,
// not to the limit (it allocated 8 bytes per µs and thread: 32 GB here).
func TestLatencyHugeHistogramLimit(t *testing.T) {
	d := latencyDoc(t, 2_000_000_000)
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	var b bytes.Buffer
	if err := Render(&b, Subject{Docs: []*result.Document{d}}, Text, Options{}); err != nil {
		t.Fatal(err)
	}
	runtime.ReadMemStats(&after)
	if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 64<<20 {
		t.Errorf("rendering allocated %d MB", alloc>>20)
	}
	if !strings.Contains(b.String(), "000040 000020 000000") || !strings.Contains(b.String(), "003065 000001 000000") {
		t.Errorf("the histogram lacks its lines:\n%s", b.String())
	}
}
