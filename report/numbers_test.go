package report

import (
	"bytes"
	"strings"
	"testing"

	"github.com/chronograph/chronograph/result"
	"github.com/chronograph/chronograph/stats"
	"github.com/chronograph/chronograph/unit"
)

func numbersDoc(values []float64, u string, run *result.NumbersRun) *result.Document {
	d := result.New(result.KindNumbers, result.Meta{Tool: result.Tool{Name: "chrono", Version: "test"}})
	d.Run.Numbers = run
	d.Measurements = []result.Measurement{{Name: "stdin", Primary: "value",
		Metrics: []result.Metric{{Name: "value", Unit: u, Values: values, Resolution: 1}}}}
	return d
}

// TestNumbersView: the figures are recomputed from the values with the
// document's options; report's options override them.
func TestNumbersView(t *testing.T) {
	run := &result.NumbersRun{Source: "stdin", PercentileMethod: "hazen", Percentiles: []float64{50, 90}, Confidence: 0.99, Bins: 2, TimeUnit: "µs"}
	d := numbersDoc([]float64{1000, 2000, 3000, 4000, 5000, 6000, 7000, 8000, 9000, 10000}, result.UnitNs, run)
	var b bytes.Buffer
	if err := Render(&b, Subject{Docs: []*result.Document{d}}, Text, Options{}); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"10 durations from stdin", "99% CI", "percentiles (hazen)", "histogram (2 bins)", "min       1.000 µs", "p90"} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("text lacks %q:\n%s", want, b.String())
		}
	}
	b.Reset()
	if err := Render(&b, Subject{Docs: []*result.Document{d}}, Text, Options{Percentiles: []float64{25}, Unit: unit.Millisecond}); err != nil {
		t.Fatal(err)
	}
	if s := b.String(); !strings.Contains(s, "p25") || strings.Contains(s, "p90") || !strings.Contains(s, "min       0.001000 ms") {
		t.Errorf("options do not override:\n%s", s)
	}
	b.Reset()
	if err := Render(&b, Subject{Docs: []*result.Document{d}}, CSV, Options{}); err != nil || !strings.HasPrefix(b.String(), "source,unit,n,min,median,") ||
		!strings.Contains(b.String(), "\nstdin,ns,10,1000,5500,") {
		t.Errorf("csv (%v):\n%s", err, b.String())
	}
}

// TestNumbersViewRefusesBadDocuments: an edited document cannot make the
// view allocate a billion bins or use an unknown method.
func TestNumbersViewRefusesBadDocuments(t *testing.T) {
	for _, run := range []*result.NumbersRun{
		{PercentileMethod: "linear", Confidence: 0.95, Bins: stats.MaxLinearBins + 1},
		{PercentileMethod: "r7", Confidence: 0.95},
		{PercentileMethod: "linear", Confidence: 2},
		{PercentileMethod: "linear", Confidence: 0.95, TimeUnit: "fortnight"},
	} {
		if err := Render(&bytes.Buffer{}, Subject{Docs: []*result.Document{numbersDoc([]float64{1, 2}, result.UnitOne, run)}}, Text, Options{}); err == nil {
			t.Errorf("%+v: no error", run)
		}
	}
}

// TestNumbersViewOverflow: figures beyond the float64 range are said to
// be, never printed as +Inf or NaN.
func TestNumbersViewOverflow(t *testing.T) {
	var b bytes.Buffer
	if err := Render(&b, Subject{Docs: []*result.Document{numbersDoc([]float64{-1.7e308, 1.7e308}, result.UnitOne, nil)}}, Text, Options{}); err != nil {
		t.Fatal(err)
	}
	if s := b.String(); strings.Contains(s, "Inf") || strings.Contains(s, "NaN") || !strings.Contains(s, "beyond the float64 range (sample, n-1)") {
		t.Errorf("text:\n%s", s)
	}
}

// TestClocksViewUntyped: a clocks document without typed details (written
// before the port) gets the generic table rather than an empty view.
func TestClocksViewUntyped(t *testing.T) {
	d := result.New(result.KindClocks, result.Meta{Tool: result.Tool{Name: "chrono", Version: "old"}})
	d.Measurements = []result.Measurement{{Name: "CLOCK_MONOTONIC", Primary: "read_cost",
		Metrics: []result.Metric{{Name: "read_cost", Unit: "ns", Values: []float64{25, 26, 24}}}}}
	var b bytes.Buffer
	if err := Render(&b, Subject{Docs: []*result.Document{d}}, Text, Options{}); err != nil || !strings.Contains(b.String(), "CLOCK_MONOTONIC  read_cost") {
		t.Errorf("untyped clocks document (%v):\n%s", err, b.String())
	}
}

// One value has no sample standard deviation: it is never shown as 0.
func TestNumbersViewOneValue(t *testing.T) {
	d := numbersDoc([]float64{1500}, result.UnitNs, nil)
	var txt, csvb bytes.Buffer
	if err := Render(&txt, Subject{Docs: []*result.Document{d}}, Text, Options{}); err != nil || !strings.Contains(txt.String(), "stddev    undefined (sample, n-1: one value)") {
		t.Errorf("text (%v):\n%s", err, txt.String())
	}
	if err := Render(&csvb, Subject{Docs: []*result.Document{d}}, CSV, Options{}); err != nil || !strings.Contains(csvb.String(), "\nstdin,ns,1,1500,1500,,,,1500,1500,,0,") {
		t.Errorf("csv (%v):\n%s", err, csvb.String())
	}
}
