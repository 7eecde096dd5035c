package report

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"github.com/chronograph/chronograph/result"
)

// largeDocument is a command document of n samples in all: two commands
// of n/2 runs each, with a warm-up slope, a slow drift, a periodic
// disturbance and rare outliers, and the rusage metrics of every run.
func largeDocument(n int) *result.Document {
	d := &result.Document{Schema: result.Schema, Version: result.Version, Kind: result.KindCommand,
		Tool: result.Tool{Name: "chrono", Version: "bench"}, Start: time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)}
	r := rand.New(rand.NewPCG(1, 2))
	for k, base := range []float64{1e6, 1.3e6} {
		m := n / 2
		wall, user, rss := make([]float64, m), make([]float64, m), make([]float64, m)
		for i := range m {
			v := base * math.Exp(0.05*r.NormFloat64())
			v *= 1 + 0.3*math.Exp(-float64(i)/200) + 0.02*float64(i)/float64(m) + 0.01*math.Sin(float64(i)/500)
			if r.Float64() < 1e-4 {
				v *= 5
			}
			wall[i] = math.Round(v)
			user[i] = math.Round(0.6*v/1000) * 1000
			rss[i] = float64(6<<20 + 4096*r.IntN(16))
		}
		d.Measurements = append(d.Measurements, result.Measurement{Name: []string{"old build", "new build"}[k], Primary: "wall", Metrics: []result.Metric{
			{Name: "wall", Unit: result.UnitNs, Resolution: 1, Values: wall},
			{Name: "user", Unit: result.UnitNs, Resolution: 1000, Values: user},
			{Name: "max_rss", Unit: result.UnitBytes, Resolution: 1024, Values: rss},
		}})
	}
	return d
}

// countingWriter counts the bytes written.
type countingWriter struct{ n int64 }

func (c *countingWriter) Write(p []byte) (int, error) { c.n += int64(len(p)); return len(p), nil }

// BenchmarkHTMLMillion renders the HTML report of a document of 1,000,000
// samples (two commands of 500,000 runs, each with three metrics): the
// plots bin or down-sample what they cannot show (histograms, densities
// from 1024 bins, 800 columns of the sequence), the statistics use every
// sample. It reports the page's size (bytes/page); the goal is under 2 s
// and under 5 MB. Run: go test ./report -run '^$' -bench HTMLMillion.
func BenchmarkHTMLMillion(b *testing.B) {
	d := largeDocument(1_000_000)
	var size int64
	for b.Loop() {
		var c countingWriter
		if err := Render(&c, Subject{Docs: []*result.Document{d}}, HTML, Options{}); err != nil {
			b.Fatal(err)
		}
		size = c.n
	}
	b.ReportMetric(float64(size), "bytes/page")
}

// TestHTMLMillionSize: the page of a million samples stays under 5 MB (a
// size, not a time: the time is BenchmarkHTMLMillion's).
func TestHTMLMillionSize(t *testing.T) {
	if testing.Short() || raceEnabled {
		t.Skip("skipped with -short and -race: renders a million samples")
	}
	var c countingWriter
	if err := Render(&c, Subject{Docs: []*result.Document{largeDocument(1_000_000)}}, HTML, Options{}); err != nil {
		t.Fatal(err)
	}
	if c.n > 5<<20 {
		t.Errorf("the page of a million samples is %d bytes, more than 5 MB", c.n)
	}
	t.Logf("%d bytes", c.n)
}

// BenchmarkSortMillion is the anchor of BenchmarkHTMLMillion: sorting a
// million float64 samples once, which every statistic of them needs
// (scripts/report-html-bench.sh prints the ratio of the two).
func BenchmarkSortMillion(b *testing.B) {
	xs := largeDocument(1_000_000).Measurements[0].Metrics[0].Values
	buf := make([]float64, len(xs))
	for b.Loop() {
		copy(buf, xs)
		slices.Sort(buf)
	}
}

// pairDocuments is two command documents (a baseline and a newer one) of
// n wall samples each, one command per document, seeded: the fixture of
// `chrono report --html OLD NEW` at scale (issue 20).
func pairDocuments(n int) []*result.Document {
	var docs []*result.Document
	r := rand.New(rand.NewPCG(3, 4))
	for k, base := range []float64{1e6, 1.05e6} {
		d := &result.Document{Schema: result.Schema, Version: result.Version, Kind: result.KindCommand,
			Tool: result.Tool{Name: "chrono", Version: "bench"}, Start: time.Date(2026, 11, 30, 12, k, 0, 0, time.UTC)}
		wall := make([]float64, n)
		for i := range wall {
			v := base * math.Exp(0.05*r.NormFloat64())
			if r.Float64() < 1e-4 {
				v *= 5
			}
			wall[i] = math.Round(v)
		}
		d.Measurements = []result.Measurement{{Name: "build", Primary: "wall", Metrics: []result.Metric{
			{Name: "wall", Unit: result.UnitNs, Resolution: 1, Values: wall}}}}
		docs = append(docs, d)
	}
	return docs
}

// BenchmarkHTMLPair renders the HTML page of two command documents of
// 1,000,000 wall samples each (pairDocuments) and, interleaved with it in
// the same process, its anchor: sorting every sample of the two documents
// once (a copy of each, slices.Sort). Each iteration times both, in ABBA
// order; it reports the median of the per-iteration ratios (render/sort)
// and their min and max. Issue 20's goal is ratio ≤ 10. Run:
// go test ./report -run '^$' -bench HTMLPair -benchtime 6x.
func BenchmarkHTMLPair(b *testing.B) {
	docs := pairDocuments(1_000_000)
	bufs := make([][]float64, len(docs))
	for i, d := range docs {
		bufs[i] = make([]float64, len(d.Measurements[0].Metrics[0].Values))
	}
	sortAll := func() {
		for i, d := range docs {
			copy(bufs[i], d.Measurements[0].Metrics[0].Values)
			slices.Sort(bufs[i])
		}
	}
	render := func() {
		var c countingWriter
		if err := Render(&c, Subject{Docs: docs}, HTML, Options{}); err != nil {
			b.Fatal(err)
		}
	}
	timed := func(f func()) float64 {
		t0 := time.Now()
		f()
		return float64(time.Since(t0))
	}
	var ratios []float64
	i := 0
	for b.Loop() {
		var r, s float64
		if i%2 == 0 {
			s = timed(sortAll)
			r = timed(render)
		} else {
			r = timed(render)
			s = timed(sortAll)
		}
		ratios = append(ratios, r/s)
		i++
	}
	slices.Sort(ratios)
	b.ReportMetric(ratios[len(ratios)/2], "median-ratio")
	b.ReportMetric(ratios[0], "min-ratio")
	b.ReportMetric(ratios[len(ratios)-1], "max-ratio")
}
