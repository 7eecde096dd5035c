package view

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/chronograph/chronograph/internal/plural"
	"github.com/chronograph/chronograph/result"
)

// ChartWidth is the width of a terminal chart in columns (characters).
const ChartWidth = 32

// The levels of a terminal chart, lowest first: eighth blocks, or ASCII
// characters of growing weight with --style basic. A column with no
// sample is a space; any sample shows at least the lowest level, so that
// a lone outlier stays visible.
var (
	unicodeLevels = []rune("▁▂▃▄▅▆▇█")
	asciiLevels   = []rune("._-:=+*#")
)

func levels(o Options) []rune {
	if o.Style == "basic" {
		return asciiLevels
	}
	return unicodeLevels
}

// level maps v in [0, 1] to a chart character; v <= 0 (nothing there)
// is a space.
func level(v float64, lv []rune) rune {
	if !(v > 0) {
		return ' '
	}
	i := int(math.Ceil(v*float64(len(lv)))) - 1
	return lv[max(0, min(len(lv)-1, i))]
}

// HistogramLine draws the distribution of s in one line of at most width
// columns (ChartWidth when width <= 0; fewer for few samples: twice the
// square root of their number, at least 8) between its minimum and maximum, labelled
// with both ("1.358 ms ▁▂▅█▇▃▁ 1.984 ms"): each column is an equal share
// of the range, its height the number of samples in it relative to the
// fullest column. When the maximum is more than 20 times the minimum (a
// long tail, all values positive) the columns are equal shares of the
// logarithm and the line ends in "(log x)". A binned series is spread
// over the columns assuming uniform values within each bin. It costs one
// pass over the values (or bins). It is "" for an empty series.
func HistogramLine(s *Series, width int, o Options) string {
	if s == nil || s.N() == 0 {
		return ""
	}
	if width <= 0 {
		width = ChartWidth
	}
	width = min(width, max(8, 2*int(math.Ceil(math.Sqrt(float64(s.N()))))))
	lo, hi := s.Summary.Min, s.Summary.Max
	counts, logX := columnCounts(s, lo, hi, width)
	top := slices.Max(counts)
	var b strings.Builder
	lv := levels(o)
	for _, c := range counts {
		b.WriteRune(level(c/top, lv))
	}
	lab := func(v float64) string { return Figure(v, s.Unit, s.Observed(), o.Unit) }
	line := lab(lo) + " " + b.String() + " " + lab(hi)
	if logX {
		line += " (log x)"
	}
	return line
}

// columnCounts counts the samples of s in width equal columns over
// [lo, hi] (of log values when logX).
func columnCounts(s *Series, lo, hi float64, width int) (counts []float64, logX bool) {
	logX = LogWorthy(lo, hi)
	return SpreadColumns(s, lo, hi, width, logX), logX
}

// SpreadColumns counts the samples of s in width equal columns over
// [lo, hi] (of log values when logX; lo > 0 then): a binned series'
// bins are spread over the columns they overlap, in proportion.
func SpreadColumns(s *Series, lo, hi float64, width int, logX bool) []float64 {
	counts := make([]float64, width)
	pos := func(v float64) float64 { // v's place in [0, 1]
		if hi == lo {
			return 0.5
		}
		if logX {
			return math.Log(v/lo) / math.Log(hi/lo)
		}
		return (v - lo) / (hi - lo)
	}
	col := func(v float64) int { return max(0, min(width-1, int(pos(v)*float64(width)))) }
	if s.hist == nil {
		for _, v := range s.Sorted {
			counts[col(v)]++
		}
		return counts
	}
	h := s.hist
	counts[0] += float64(h.Underflow)
	counts[width-1] += float64(h.Overflow)
	for i, c := range h.Counts {
		if c == 0 {
			continue
		}
		// Spread the bin's count over the columns it overlaps, in
		// proportion to the overlap (clamped to the exact extremes).
		a, z := math.Max(h.Bounds[i], lo), math.Min(h.Bounds[i+1], hi)
		if z <= a {
			counts[col(a)] += float64(c)
			continue
		}
		pa, pz := float64(pos(a)*float64(width)), float64(pos(z)*float64(width))
		for j := max(0, int(pa)); j < width && float64(j) < pz; j++ {
			overlap := math.Min(pz, float64(j+1)) - math.Max(pa, float64(j))
			counts[j] += float64(float64(c) * overlap / (pz - pa))
		}
	}
	return counts
}

// Sparkline draws values in the order they were taken, in one line of at
// most width columns (ChartWidth when width <= 0): one column per value,
// or per run of consecutive values (their median) when there are more,
// its height between the lowest and the highest column. Warm-up, drift
// and periodic disturbances show as a slope or a pattern. NaNs are
// skipped. It is "" without values; equal values give a flat line.
func Sparkline(values []float64, width int, o Options) string {
	if width <= 0 {
		width = ChartWidth
	}
	xs := make([]float64, 0, len(values))
	for _, v := range values {
		if !math.IsNaN(v) {
			xs = append(xs, v)
		}
	}
	if len(xs) == 0 {
		return ""
	}
	cols := xs
	if len(xs) > width {
		cols = make([]float64, width)
		buf := make([]float64, 0, len(xs)/width+1)
		for j := range width {
			chunk := xs[j*len(xs)/width : (j+1)*len(xs)/width]
			cols[j] = MiddleOf(append(buf[:0], chunk...))
		}
	}
	lo, hi := slices.Min(cols), slices.Max(cols)
	var b strings.Builder
	lv := levels(o)
	for _, v := range cols {
		f := 1.0 / float64(len(lv)) // flat: the lowest level
		if hi > lo {
			f = math.Max(f, (v-lo)/(hi-lo))
		}
		b.WriteRune(level(f, lv))
	}
	return b.String()
}

// MiddleOf is Middle of buf's values in increasing order, found by
// selection (no sort: O(len(buf))); it reorders buf, which must be
// non-empty and hold no NaN.
func MiddleOf(buf []float64) float64 {
	n := len(buf)
	k := n / 2
	selectNth(buf, k)
	if n%2 == 1 {
		return buf[k]
	}
	return (slices.Max(buf[:k]) + buf[k]) / 2
}

// selectNth reorders xs so that xs[k] is the value a sort would put
// there, none before it greater and none after it smaller (Hoare's
// quickselect, pivot the median of three; short runs are
// insertion-sorted).
func selectNth(xs []float64, k int) {
	lo, hi := 0, len(xs)-1
	for hi-lo >= 16 {
		m := lo + (hi-lo)/2
		if xs[m] < xs[lo] {
			xs[m], xs[lo] = xs[lo], xs[m]
		}
		if xs[hi] < xs[lo] {
			xs[hi], xs[lo] = xs[lo], xs[hi]
		}
		if xs[hi] < xs[m] {
			xs[hi], xs[m] = xs[m], xs[hi]
		}
		p := xs[m]
		i, j := lo, hi
		for i <= j {
			for xs[i] < p {
				i++
			}
			for xs[j] > p {
				j--
			}
			if i <= j {
				xs[i], xs[j] = xs[j], xs[i]
				i++
				j--
			}
		}
		// Now xs[lo..j] <= p <= xs[i..hi], and xs[j+1..i-1] == p.
		switch {
		case k <= j:
			hi = j
		case k >= i:
			lo = i
		default:
			return
		}
	}
	slices.Sort(xs[lo : hi+1])
}

// Middle is the median of sorted values.
func Middle(sorted []float64) float64 {
	n := len(sorted)
	if n%2 == 1 {
		return sorted[n/2]
	}
	return (sorted[n/2-1] + sorted[n/2]) / 2
}

// ChartLines are the terminal charts of metric m, ready for a View's
// Lines: the distribution (HistogramLine) and, for raw values of which
// there are at least 3, the sample sequence (Sparkline) with how many
// values each column stands for:
//
//	distribution  1.358 ms ▁▂▅█▇▃▁ 1.984 ms
//	sequence      ▃▅▇█▆▃▂▁▁▂▃▃▂ (20 samples in run order)
//
// indent starts every line. A view calls it as
// `Block{Lines: ChartLines(m, "  ", o), In: InText}` (the charts are
// for terminals: Markdown and CSV leave them out). It is nil for a metric
// without samples.
func ChartLines(m *result.Metric, indent string, o Options) []string {
	s := o.Series(m)
	if s.N() == 0 {
		return nil
	}
	lines := []string{indent + "distribution  " + HistogramLine(s, ChartWidth, o)}
	if n := len(m.Values); n >= 3 {
		per := ""
		if n > ChartWidth {
			per = fmt.Sprintf(", median of each %s", plural.Count(n/ChartWidth, "sample"))
		}
		lines = append(lines, indent+"sequence      "+Sparkline(m.Values, ChartWidth, o)+fmt.Sprintf(" (%s in run order%s)", plural.Count(n, "sample"), per))
	}
	return lines
}

// LogWorthy reports whether values from lo to hi (both positive) spread
// over more than a factor of 20: a logarithmic axis shows them better.
func LogWorthy(lo, hi float64) bool { return lo > 0 && hi/lo > 20 }
