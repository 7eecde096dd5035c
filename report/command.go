// Package report renders result documents for people and spreadsheets:
// any document as text, Markdown or CSV (Text, Markdown, CSV), the
// comparison of a document with a baseline (Diff, DiffText), and the CSV
// and Markdown exports of command benchmarks, with the columns of
// hyperfine's exports so that existing scripts keep working.
package report

import (
	"encoding/csv"
	"fmt"
	"io"
	"maps"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/chronograph/chronograph/result"
	"github.com/chronograph/chronograph/unit"
)

// paramNames returns the parameter names of the document's measurements,
// sorted.
func paramNames(d *result.Document) []string {
	set := map[string]bool{}
	for _, m := range d.Measurements {
		for k := range m.Parameters {
			set[k] = true
		}
	}
	return slices.Sorted(maps.Keys(set))
}

// figures are the summary figures of one measurement, in ns (or bytes).
type figures struct {
	mean, stddev, median, user, sys, min, max float64
	ciLo, ciHi, p95, p99, maxRSS              float64
	runs, failures, timeouts                  int
	ok                                        bool
}

func figuresOf(m *result.Measurement) figures {
	f := figures{ciLo: nan, ciHi: nan, p95: nan, p99: nan, maxRSS: nan}
	// The counts are known even when no run gave a timing (every run
	// timed out).
	f.runs = intOf(m.Details["runs"])
	f.failures = intOf(m.Details["failures"])
	f.timeouts = intOf(m.Details["timeouts"])
	w := m.Metric("wall")
	if w == nil || w.Summary == nil || w.Summary.N == 0 {
		return f
	}
	f.ok = true
	s := w.Summary
	f.mean, f.stddev, f.median, f.min, f.max = s.Mean, s.StdDevSample, s.Median, s.Min, s.Max
	if s.N < 2 {
		f.stddev = math.NaN() // undefined for one run: an empty field, not a measured 0
	}
	if u := m.Metric("user"); u != nil && u.Summary != nil {
		f.user = u.Summary.Mean
	}
	if u := m.Metric("sys"); u != nil && u.Summary != nil {
		f.sys = u.Summary.Mean
	}
	if v, ok := w.Percentiles["p95"]; ok {
		f.p95 = v
	}
	if v, ok := w.Percentiles["p99"]; ok {
		f.p99 = v
	}
	if r := m.Metric("max_rss"); r != nil && r.Summary != nil {
		f.maxRSS = r.Summary.Max
	}
	if ci, ok := m.Details["median_ci"]; ok {
		lo, hi := intervalOf(ci)
		f.ciLo, f.ciHi = lo, hi
	}
	return f
}

var nan = func() float64 { v, _ := strconv.ParseFloat("NaN", 64); return v }()

// intervalOf reads Lo and Hi from a stats.Interval or its decoded JSON.
func intervalOf(v any) (float64, float64) {
	switch iv := v.(type) {
	case map[string]any:
		lo, _ := iv["lo"].(float64)
		hi, _ := iv["hi"].(float64)
		return lo, hi
	case interface{ Contains(float64) bool }:
		// stats.Interval (or a pointer to it), by reflection-free access.
		return reflectLoHi(v)
	}
	return nan, nan
}

func intOf(v any) int {
	switch x := v.(type) {
	case int:
		return x
	case float64:
		return int(x)
	}
	return 0
}

// counterNames returns the names of the counter metrics of the document
// (Details["counters"] of its measurements), in the order of their first
// appearance.
func counterNames(d *result.Document) []string {
	var names []string
	seen := map[string]bool{}
	for i := range d.Measurements {
		var list []string
		switch v := d.Measurements[i].Details["counters"].(type) {
		case []string:
			list = v
		case []any: // decoded JSON
			for _, x := range v {
				if s, ok := x.(string); ok {
					list = append(list, s)
				}
			}
		}
		for _, n := range list {
			if !seen[n] {
				seen[n] = true
				names = append(names, n)
			}
		}
	}
	return names
}

// counterUnit returns the unit of the counter metric name.
func counterUnit(d *result.Document, name string) string {
	for i := range d.Measurements {
		if m := d.Measurements[i].Metric(name); m != nil {
			return m.Unit
		}
	}
	return ""
}

// count formats a count for a table: 3 significant digits with an SI
// prefix from 10,000 ("47.6 M"), whole below, and 3 significant digits
// for small fractions (a median of counts can be a half).
func count(v float64) string {
	for _, p := range []struct {
		s float64
		p string
	}{{1e12, " T"}, {1e9, " G"}, {1e6, " M"}, {1e3, " k"}} {
		if math.Abs(v) >= 10*p.s {
			return unit.Sig(v/p.s, 3) + p.p
		}
	}
	if math.Abs(v) >= 100 || v == math.Trunc(v) {
		return strconv.FormatFloat(v, 'f', 0, 64)
	}
	return strconv.FormatFloat(v, 'g', 3, 64)
}

// exact formats a counter value in its own unit (ns or count), exactly.
func exact(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }

// sec formats ns as seconds, as hyperfine's CSV does.
func sec(ns float64) string {
	if ns != ns { // NaN
		return ""
	}
	return strconv.FormatFloat(ns/1e9, 'g', -1, 64)
}

// CommandCSV writes one row per command with hyperfine's CSV columns
// (command, mean, stddev, median, user, system, min, max in seconds, then
// parameter_NAME per parameter), followed by chrono's own: the median's
// confidence interval, p95 and p99 (linear), max RSS in bytes, and the
// counts of runs, failures and timeouts, then for each counter (chrono run
// --counters) NAME_median, NAME_mean and NAME_stddev in the counter's unit
// (ns for task-clock and cpu-clock, counts otherwise). stddev is the sample
// standard deviation; user and system are means, as in hyperfine; all
// times (and counters) are corrected for the shell overhead when it was
// subtracted.
func CommandCSV(w io.Writer, d *result.Document) error {
	cw := csv.NewWriter(w)
	params := paramNames(d)
	head := []string{"command", "mean", "stddev", "median", "user", "system", "min", "max"}
	for _, p := range params {
		head = append(head, "parameter_"+p)
	}
	head = append(head, "median_ci_lo", "median_ci_hi", "p95", "p99", "max_rss_bytes", "runs", "failures", "timeouts")
	cnames := counterNames(d)
	for _, c := range cnames {
		head = append(head, c+"_median", c+"_mean", c+"_stddev")
	}
	cw.Write(head)
	for i := range d.Measurements {
		m := &d.Measurements[i]
		f := figuresOf(m)
		row := []string{m.Name}
		if f.ok {
			row = append(row, sec(f.mean), sec(f.stddev), sec(f.median), sec(f.user), sec(f.sys), sec(f.min), sec(f.max))
		} else {
			row = append(row, "", "", "", "", "", "", "")
		}
		for _, p := range params {
			row = append(row, m.Parameters[p])
		}
		rss := ""
		if f.maxRSS == f.maxRSS {
			rss = strconv.FormatFloat(f.maxRSS, 'f', 0, 64)
		}
		row = append(row, sec(f.ciLo), sec(f.ciHi), sec(f.p95), sec(f.p99), rss,
			strconv.Itoa(f.runs), strconv.Itoa(f.failures), strconv.Itoa(f.timeouts))
		for _, c := range cnames {
			if cm := m.Metric(c); cm != nil && cm.Summary != nil && cm.Summary.N > 0 {
				sd := ""
				if cm.Summary.N >= 2 {
					sd = exact(cm.Summary.StdDevSample)
				}
				row = append(row, exact(cm.Summary.Median), exact(cm.Summary.Mean), sd)
			} else {
				row = append(row, "", "", "")
			}
		}
		cw.Write(row)
	}
	cw.Flush()
	return cw.Error()
}

// CommandMarkdown writes a Markdown table like hyperfine's (Command,
// Mean ± σ, Min, Max, Relative) with a Median column, in unit u (the
// zero Unit picks one for the fastest median). Relative is the ratio of
// medians to the reference (the fastest unless the comparisons name
// another) with its confidence interval, where hyperfine gives a ratio of
// means ± an error estimate. Counters (chrono run --counters) add one
// column each with the median, after hyperfine's columns.
func CommandMarkdown(w io.Writer, d *result.Document, u unit.Unit) error {
	fs := make([]figures, len(d.Measurements))
	// The unit fits the fastest command: its median, or its mean or
	// maximum when the overhead correction clamped the median to 0 (a
	// unit chosen from 0 would print every figure in ns).
	fastest := -1.0
	for i := range d.Measurements {
		fs[i] = figuresOf(&d.Measurements[i])
		f := fs[i]
		if !f.ok {
			continue
		}
		v := f.median
		if v <= 0 {
			v = f.mean
		}
		if v <= 0 {
			v = f.max
		}
		if v > 0 && (fastest < 0 || v < fastest) {
			fastest = v
		}
	}
	if u.Nanos == 0 {
		u = unit.For(max(fastest, 1))
	}
	measured := 0 // measurements with figures
	for _, f := range fs {
		if f.ok {
			measured++
		}
	}
	ref := ""
	rel := map[string]result.Comparison{}
	for _, c := range d.Comparisons {
		if c.Metric != "wall" && c.Metric != "" {
			continue // counters: ratios of their own
		}
		ref = c.B
		rel[c.A] = c
	}
	cnames := counterNames(d)
	var b strings.Builder
	fmt.Fprintf(&b, "| Command | Mean [%[1]s] | Median [%[1]s] | Min [%[1]s] | Max [%[1]s] | Relative |", u.Name)
	for _, c := range cnames {
		if counterUnit(d, c) == "ns" {
			fmt.Fprintf(&b, " %s [%s] |", c, u.Name)
		} else {
			fmt.Fprintf(&b, " %s |", c)
		}
	}
	b.WriteString("\n|:---|---:|---:|---:|---:|---:|" + strings.Repeat("---:|", len(cnames)) + "\n")
	num := func(ns float64) string { return unit.Sig(ns/u.Nanos, 3) }
	for i := range d.Measurements {
		m := &d.Measurements[i]
		f := fs[i]
		name := "`" + strings.ReplaceAll(m.Name, "|", `\|`) + "`"
		if !f.ok {
			fmt.Fprintf(&b, "| %s | – | – | – | – | – |%s\n", name, strings.Repeat(" – |", len(cnames)))
			continue
		}
		relative := "1.00"
		if c, ok := rel[m.Name]; ok {
			relative = fmt.Sprintf("%s [%s, %s]", unit.Sig(c.Ratio, 3), unit.Sig(c.Lo, 3), unit.Sig(c.Hi, 3))
		} else if m.Name != ref && (len(d.Comparisons) > 0 || measured > 1) {
			// Not compared (e.g. a median lost in the overhead
			// correction: the document's warnings say why).
			relative = "–"
		}
		// σ with as many decimals as the mean, as hyperfine prints it.
		mean := num(f.mean)
		d := 0
		if i := strings.IndexByte(mean, '.'); i >= 0 {
			d = len(mean) - i - 1
		}
		fmt.Fprintf(&b, "| %s | %s ± %s | %s | %s | %s | %s |", name, mean, stddevText(f.stddev/u.Nanos, d), num(f.median), num(f.min), num(f.max), relative)
		for _, c := range cnames {
			cm := m.Metric(c)
			switch {
			case cm == nil || cm.Summary == nil || cm.Summary.N == 0:
				b.WriteString(" – |")
			case cm.Unit == "ns":
				fmt.Fprintf(&b, " %s |", num(cm.Summary.Median))
			default:
				fmt.Fprintf(&b, " %s |", count(cm.Summary.Median))
			}
		}
		b.WriteString("\n")
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// stddevText formats a standard deviation, "–" when it is undefined (NaN:
// fewer than two samples).
func stddevText(v float64, d int) string {
	if math.IsNaN(v) {
		return "–"
	}
	return unit.Number(v, d)
}
