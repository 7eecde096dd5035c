package report

import (
	"encoding/csv"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/chronograph/chronograph/env"
	"github.com/chronograph/chronograph/result"
	"github.com/chronograph/chronograph/stats"
	"github.com/chronograph/chronograph/unit"
)

// Options control the rendering of documents.
type Options struct {
	// All renders every metric of a measurement, not only its primary one.
	All bool
	// Percentiles are the percentiles to show (default 50 and 99), by the
	// linear definition.
	Percentiles []float64
}

func (o Options) percentiles() []float64 {
	if len(o.Percentiles) == 0 {
		return []float64{50, 99}
	}
	return o.Percentiles
}

// row is one metric of one measurement, summarized for display.
type row struct {
	measurement, metric, unit string
	values                    []float64
	summary                   stats.Summary
	ci                        *stats.Interval
	pcts                      []float64
	incomplete                bool
}

// rows summarizes the metrics of d to render. Summaries are recomputed
// from the raw values (the document's stored summaries are not trusted
// blindly: they may come from another version).
func rows(d *result.Document, o Options) []row {
	var rs []row
	for _, m := range d.Measurements {
		for _, met := range m.Metrics {
			if !o.All && m.Primary != "" && met.Name != m.Primary {
				continue
			}
			if len(met.Values) == 0 {
				continue
			}
			r := row{measurement: m.Name, metric: met.Name, unit: met.Unit, values: met.Values, incomplete: m.Incomplete}
			r.summary = stats.Summarize(met.Values)
			if ci, err := stats.MedianCI(met.Values, 0.95); err == nil {
				r.ci = &ci
			}
			r.pcts = stats.Percentiles(met.Values, o.percentiles(), stats.Linear)
			rs = append(rs, r)
		}
	}
	return rs
}

// sd formats the row's sample standard deviation with f, or "–" when it
// is undefined (fewer than two samples).
func (r row) sd(f func(float64) string) string {
	if r.summary.N < 2 {
		return "–"
	}
	return f(r.summary.StdDevSample)
}

// format renders v of the given unit for people, with digits bounded by
// res (in the same unit).
func format(v float64, u string, res float64) string {
	if math.IsNaN(v) {
		return "-"
	}
	switch u {
	case "ns":
		return unit.FormatDuration(v, res)
	case "ns/op":
		return unit.FormatDuration(v, res) + "/op"
	case "bytes":
		return unit.FormatBytes(v)
	case "", "1", "count":
		return plain(v)
	}
	return plain(v) + " " + u
}

// pvalue formats a p-value with 2 significant digits, in exponent form
// below 0.001.
func pvalue(p float64) string {
	if p != 0 && p < 1e-3 {
		return strconv.FormatFloat(p, 'e', 1, 64)
	}
	return unit.Sig(p, 2)
}

// plain formats a dimensionless figure with 4 significant digits and
// without trailing zeros: 75, 0.7333, 2.86.
func plain(v float64) string {
	s := unit.Sig(v, 4)
	if strings.Contains(s, ".") {
		s = strings.TrimRight(strings.TrimRight(s, "0"), ".")
	}
	return s
}

// resolution picks the display resolution of a row: a tenth of its
// spread (MAD, or the standard deviation when the MAD is 0), at least
// 1 ns for durations.
func (r row) resolution() float64 {
	res := r.summary.MADScaled / 10
	if res == 0 {
		res = r.summary.StdDevSample / 10
	}
	if r.unit == "ns" || r.unit == "ns/op" {
		res = max(res, 1)
	}
	return res
}

// Text renders d for people: a header (kind, tool, time, environment), a
// table of the measurements' metrics (n, median with its 95 %
// distribution-free interval, mean ± sample standard deviation, min … max,
// percentiles), the comparisons stored in d, and the warnings.
func Text(w io.Writer, d *result.Document, o Options) error {
	var b strings.Builder
	fmt.Fprintf(&b, "%s document, written by %s %s", d.Kind, d.Tool.Name, d.Tool.Version)
	if !d.Start.IsZero() {
		fmt.Fprintf(&b, " on %s", d.Start.Format("2006-01-02 15:04:05 MST"))
	}
	if d.Incomplete {
		b.WriteString(" (incomplete: the run was interrupted or failed part way)")
	}
	b.WriteByte('\n')
	if d.Environment != nil {
		fmt.Fprintf(&b, "environment: %s\n", env.Brief(d.Environment))
	}
	rs := rows(d, o)
	if len(rs) > 0 {
		b.WriteByte('\n')
		tw := tabwriter.NewWriter(&b, 0, 0, 2, ' ', 0)
		head := "measurement\tmetric\tn\tmedian\t95% CI\tmean ± σ (n-1)\tmin … max"
		for _, p := range o.percentiles() {
			head += "\t" + stats.PercentileLabel(p)
		}
		fmt.Fprintln(tw, head)
		for _, r := range rs {
			res := r.resolution()
			f := func(v float64) string { return format(v, r.unit, res) }
			ci := "-"
			if r.ci != nil {
				ci = "[" + f(r.ci.Lo) + ", " + f(r.ci.Hi) + "]"
			}
			name := r.measurement
			if r.incomplete {
				name += " (incomplete)"
			}
			line := fmt.Sprintf("%s\t%s\t%d\t%s\t%s\t%s ± %s\t%s … %s", name, r.metric, r.summary.N, f(r.summary.Median), ci,
				f(r.summary.Mean), r.sd(f), f(r.summary.Min), f(r.summary.Max))
			for _, p := range r.pcts {
				line += "\t" + f(p)
			}
			fmt.Fprintln(tw, line)
		}
		tw.Flush()
		fmt.Fprintf(&b, "percentiles: linear definition (numpy's default); CI: distribution-free, from order statistics\n")
	}
	var noMetrics []string
	for _, m := range d.Measurements {
		if len(m.Metrics) == 0 || (len(m.Metrics) > 0 && len(m.Metrics[0].Values) == 0) {
			noMetrics = append(noMetrics, m.Name)
		}
	}
	if len(noMetrics) > 0 {
		fmt.Fprintf(&b, "without per-sample values (their figures are in the document's details): %s\n", strings.Join(noMetrics, ", "))
	}
	if len(d.Comparisons) > 0 {
		b.WriteString("\ncomparisons:\n")
		for _, c := range d.Comparisons {
			fmt.Fprintf(&b, "  %s vs %s (%s): %sx [%s, %s], p = %s: %s\n", c.A, c.B, c.Metric,
				plain(c.Ratio), plain(c.Lo), plain(c.Hi), pvalue(c.P), c.Verdict)
		}
	}
	ws := slices.Clone(d.Warnings)
	for _, m := range d.Measurements {
		for _, mw := range m.Warnings {
			ws = append(ws, m.Name+": "+mw)
		}
	}
	if d.Environment != nil {
		for _, ew := range d.Environment.Warnings {
			if !slices.Contains(d.Warnings, ew.Message) { // writers often copy them
				ws = append(ws, "environment: "+ew.Message)
			}
		}
	}
	if len(ws) > 0 {
		b.WriteString("\nwarnings:\n")
		for _, x := range ws {
			fmt.Fprintf(&b, "  - %s\n", x)
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// Markdown renders the table of Text as a Markdown table.
func Markdown(w io.Writer, d *result.Document, o Options) error {
	var b strings.Builder
	b.WriteString("| Measurement | Metric | n | Median | 95% CI | Mean ± σ | Min | Max |")
	for _, p := range o.percentiles() {
		b.WriteString(" " + stats.PercentileLabel(p) + " |")
	}
	b.WriteString("\n|:---|:---|---:|---:|---:|---:|---:|---:|")
	for range o.percentiles() {
		b.WriteString("---:|")
	}
	b.WriteByte('\n')
	for _, r := range rows(d, o) {
		res := r.resolution()
		f := func(v float64) string { return format(v, r.unit, res) }
		ci := "-"
		if r.ci != nil {
			ci = "[" + f(r.ci.Lo) + ", " + f(r.ci.Hi) + "]"
		}
		fmt.Fprintf(&b, "| `%s` | %s | %d | %s | %s | %s ± %s | %s | %s |", strings.ReplaceAll(r.measurement, "|", "\\|"), r.metric, r.summary.N,
			f(r.summary.Median), ci, f(r.summary.Mean), r.sd(f), f(r.summary.Min), f(r.summary.Max))
		for _, p := range r.pcts {
			b.WriteString(" " + f(p) + " |")
		}
		b.WriteByte('\n')
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// CSV renders one line per measurement and metric, with plain numbers in
// the metric's unit (a column says which).
func CSV(w io.Writer, d *result.Document, o Options) error {
	cw := csv.NewWriter(w)
	head := []string{"measurement", "metric", "unit", "n", "median", "ci_lo", "ci_hi", "mean", "stddev_sample", "min", "max"}
	for _, p := range o.percentiles() {
		head = append(head, stats.PercentileLabel(p))
	}
	cw.Write(head)
	num := func(v float64) string { return strconv.FormatFloat(v, 'f', -1, 64) }
	for _, r := range rows(d, o) {
		lo, hi := "", ""
		if r.ci != nil {
			lo, hi = num(r.ci.Lo), num(r.ci.Hi)
		}
		rec := []string{r.measurement, r.metric, r.unit, strconv.Itoa(r.summary.N), num(r.summary.Median), lo, hi,
			num(r.summary.Mean), "", num(r.summary.Min), num(r.summary.Max)}
		if r.summary.N >= 2 {
			rec[8] = num(r.summary.StdDevSample) // empty when undefined (one sample)
		}
		for _, p := range r.pcts {
			rec = append(rec, num(p))
		}
		cw.Write(rec)
	}
	cw.Flush()
	return cw.Error()
}

// Change is how one measurement's metric moved from a baseline document
// to a newer one.
type Change struct {
	Measurement, Metric, Unit string
	// Old and New are the medians; Ratio = New/Old with its interval and
	// test (see stats.CompareMedians).
	Old, New float64
	stats.MedianRatio
	// Err says why no test could be made (too few samples).
	Err error
}

// Verdict is the plain conclusion about c.
func (c Change) Verdict() string {
	switch {
	case c.Err != nil:
		return "cannot tell: " + c.Err.Error()
	case !c.Significant:
		return fmt.Sprintf("no significant change (p = %s)", pvalue(c.MannWhitney.P))
	case c.Ratio > 1:
		return fmt.Sprintf("%sx slower (higher) than the baseline", plain(c.Ratio))
	default:
		return fmt.Sprintf("%sx faster (lower) than the baseline", plain(1/c.Ratio))
	}
}

// Diff compares every metric of newer that has a counterpart (same
// measurement name and metric) in baseline: the primary metrics, or all
// with o.All. Measurements present in only one document are listed in
// onlyOld and onlyNew.
func Diff(baseline, newer *result.Document, o Options) (changes []Change, onlyOld, onlyNew []string) {
	old := map[string]*result.Measurement{}
	for i := range baseline.Measurements {
		old[baseline.Measurements[i].Name] = &baseline.Measurements[i]
	}
	seen := map[string]bool{}
	for _, m := range newer.Measurements {
		om, ok := old[m.Name]
		if !ok {
			onlyNew = append(onlyNew, m.Name)
			continue
		}
		seen[m.Name] = true
		for _, met := range m.Metrics {
			if (!o.All && m.Primary != "" && met.Name != m.Primary) || len(met.Values) == 0 {
				continue
			}
			omet := om.Metric(met.Name)
			if omet == nil || len(omet.Values) == 0 || omet.Unit != met.Unit {
				continue
			}
			c := Change{Measurement: m.Name, Metric: met.Name, Unit: met.Unit, Old: stats.Median(omet.Values), New: stats.Median(met.Values)}
			c.MedianRatio, c.Err = stats.CompareMedians(met.Values, omet.Values, 0.95, 0.05, 1)
			changes = append(changes, c)
		}
	}
	for _, m := range baseline.Measurements {
		if !seen[m.Name] {
			onlyOld = append(onlyOld, m.Name)
		}
	}
	return changes, onlyOld, onlyNew
}

// DiffText renders the changes from baseline to newer.
func DiffText(w io.Writer, baseline, newer *result.Document, o Options) error {
	changes, onlyOld, onlyNew := Diff(baseline, newer, o)
	var b strings.Builder
	fmt.Fprintf(&b, "baseline: %s document of %s; new: %s document of %s\n", baseline.Kind, stamp(baseline), newer.Kind, stamp(newer))
	if len(changes) == 0 {
		b.WriteString("no measurement is in both documents with the same name and metric\n")
	} else {
		tw := tabwriter.NewWriter(&b, 0, 0, 2, ' ', 0)
		fmt.Fprintln(tw, "measurement\tmetric\tbaseline median\tnew median\tnew/baseline [95% CI]\tverdict")
		for _, c := range changes {
			res := 1.0
			f := func(v float64) string { return format(v, c.Unit, res) }
			fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s [%s, %s]\t%s\n", c.Measurement, c.Metric, f(c.Old), f(c.New),
				plain(c.Ratio), plain(c.CI.Lo), plain(c.CI.Hi), c.Verdict())
		}
		tw.Flush()
		b.WriteString("ratio of medians with a 95% bootstrap interval; significant when the two-sided Mann-Whitney U test gives p < 0.05 and the interval excludes 1\n")
	}
	if len(onlyOld) > 0 {
		fmt.Fprintf(&b, "only in the baseline: %s\n", strings.Join(onlyOld, ", "))
	}
	if len(onlyNew) > 0 {
		fmt.Fprintf(&b, "only in the new document: %s\n", strings.Join(onlyNew, ", "))
	}
	if baseline.Environment != nil && newer.Environment != nil {
		if ob, nb := env.Brief(baseline.Environment), env.Brief(newer.Environment); ob != nb {
			fmt.Fprintf(&b, "warning: the environments differ, so a change may come from the machine, not the code:\n  baseline: %s\n  new:      %s\n", ob, nb)
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

func stamp(d *result.Document) string {
	if d.Start.IsZero() {
		return "unknown time"
	}
	return d.Start.Format("2006-01-02 15:04:05")
}
