package view

import (
	"errors"
	"math"
	"sync"

	"github.com/chronograph/chronograph/internal/radix"
	"github.com/chronograph/chronograph/result"
	"github.com/chronograph/chronograph/stats"
	"github.com/chronograph/chronograph/unit"
)

// Series is one metric's samples, with what renderers need to print its
// statistics with the right digits: every figure of a View comes through
// a Series (or a Precision built the same way), the one place where the
// digits rule meets the statistics. A Series is built from raw values
// (sorted here) or from a binned metric (result.Histogram), whose
// quantiles are read from the bins and whose min, max and mean are the
// recorder's exact figures.
type Series struct {
	Unit       string
	Resolution float64
	// Sorted holds the raw values in increasing order (nil when binned).
	Sorted []float64
	// Summary summarizes the values. For a binned metric only N, Min, Max,
	// Mean, Median (from the bins) and the standard deviations (when the
	// recorder kept them) are set.
	Summary stats.Summary
	hist    *result.Histogram
	cum     []int64 // cumulative counts of hist: cum[i] = underflow + counts[0..i)
}

// NewSeries sorts a copy of m's values (NaNs dropped) and summarizes
// them, or reads m's histogram.
func NewSeries(m *result.Metric) *Series {
	res := m.Resolution
	if res == 0 && (m.Unit == result.UnitCount || m.Unit == result.UnitBytes || m.Unit == result.UnitCPU) {
		res = 1 // whole numbers by nature
	}
	if h := m.Histogram; h != nil && len(m.Values) == 0 {
		s := &Series{Unit: m.Unit, Resolution: res, hist: h}
		s.cum = make([]int64, len(h.Counts)+1)
		s.cum[0] = h.Underflow
		for i, c := range h.Counts {
			s.cum[i+1] = s.cum[i] + c
		}
		n := h.Total()
		s.Summary = stats.Summary{N: int(n), Min: h.Min, Max: h.Max, Mean: h.Mean}
		if n > 0 {
			s.Summary.Median = s.Quantile(0.5)
		}
		if h.StdDev != nil && n > 1 {
			s.Summary.StdDevPopulation = *h.StdDev
			s.Summary.StdDevSample = *h.StdDev * math.Sqrt(float64(n)/float64(n-1))
		}
		return s
	}
	xs := radix.Numbers(m.Values)
	return &Series{Unit: m.Unit, Resolution: res, Sorted: xs, Summary: stats.SummarizeSorted(xs)}
}

// A SeriesCache keeps the Series of each metric of one rendering, so
// that its layouts, plots and comparisons sort each metric's samples
// once (a page of two documents of a million samples sorted them seven
// times; a command's text view, twice). Every layout takes the Series of
// a document's metric through Options.Series. The documents must not change while it is in use; it is safe
// for concurrent use.
type SeriesCache struct {
	mu sync.Mutex
	m  map[*result.Metric]*Series
}

// NewSeriesCache returns an empty cache for Options.Cache.
func NewSeriesCache() *SeriesCache { return &SeriesCache{m: map[*result.Metric]*Series{}} }

// Series returns NewSeries(m), made once per metric when o holds a
// Cache. The Series is shared: read it, never change it.
func (o Options) Series(m *result.Metric) *Series {
	c := o.Cache
	if c == nil {
		return NewSeries(m)
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	s, ok := c.m[m]
	if !ok {
		s = NewSeries(m)
		c.m[m] = s
	}
	return s
}

// Sorted returns the values of m without NaN in increasing order, from
// o's cache (compare.DocumentsSorted's sorted).
func (o Options) Sorted(m *result.Metric) []float64 { return o.Series(m).Sorted }

// N is the number of samples.
func (s *Series) N() int { return s.Summary.N }

// Binned reports whether the series comes from a histogram.
func (s *Series) Binned() bool { return s.hist != nil }

// Histogram is the histogram a binned series reads (nil for raw values).
func (s *Series) Histogram() *result.Histogram { return s.hist }

// Observed is the precision of one observed value (a sample, the minimum,
// the maximum): the instrument's resolution. When every sample agreed,
// the value is known exactly, and its own digits say it: "1.234 s" for
// ten runs of exactly 1.234 s on a 1 ns clock, not "1.234000000 s"; "5"
// for six 5s.
func (s *Series) Observed() unit.Precision {
	if !s.agreed() {
		return unit.Precision{Resolution: s.Resolution}
	}
	return unit.Exactly(s.Summary.Min, s.Resolution)
}

// agreed reports whether at least two samples were taken and all were
// equal: their figures are then known exactly at the resolution.
func (s *Series) agreed() bool { return s.N() >= 2 && s.Summary.Min == s.Summary.Max }

// AtQuantile is the precision of the linear q-quantile (0..1): its order
// statistics' spread (for bins: the values at the ranks that bound it,
// and the width of its bin) and the resolution when it is an observed
// value; that of an observed value when all the values agreed.
func (s *Series) AtQuantile(q float64) unit.Precision {
	if s.agreed() {
		return s.Observed() // every quantile of equal values is that value
	}
	if s.hist == nil {
		p := unit.Precision{Resolution: s.Resolution, Uncertainty: stats.QuantileUncertainty(s.Sorted, q)}
		// The linear quantile between two different observations weighs
		// them, so it is finer than their resolution (the median of 1 and
		// 2 is 1.5): its uncertainty alone decides its digits then.
		if n := len(s.Sorted); n > 1 {
			i := q * float64(n-1)
			lo, hi := int(math.Floor(i)), int(math.Ceil(i))
			if lo != hi && s.Sorted[lo] != s.Sorted[hi] {
				p.Resolution = 0
			}
		}
		return p
	}
	n := float64(s.N())
	if n < 2 {
		return unit.Precision{Resolution: s.Resolution}
	}
	est := s.Quantile(q)
	half := 1.959963984540054 * math.Sqrt(n*q*(1-q)) / n
	lo, hi := s.Quantile(math.Max(0, q-half)), s.Quantile(math.Min(1, q+half))
	unc := math.Max(est-lo, hi-est)
	if i := s.bin(q); i >= 0 {
		unc = math.Max(unc, (s.hist.Bounds[i+1]-s.hist.Bounds[i])/2)
	}
	return unit.Precision{Resolution: s.Resolution, Uncertainty: unc}
}

// OfMean is the precision of the mean: its uncertainty (a mean of n
// values is finer than their resolution). The mean of one value, or of
// values that all agreed, is that value, with its precision: the mean of
// a single 5 is "5", not "5.000".
func (s *Series) OfMean() unit.Precision {
	if s.N() < 2 || s.agreed() {
		return s.Observed()
	}
	return unit.Precision{Uncertainty: stats.MeanUncertainty(s.Summary)}
}

// OfStdDev is the precision of the standard deviation.
func (s *Series) OfStdDev() unit.Precision {
	return unit.Precision{Uncertainty: stats.StdDevUncertainty(s.Summary)}
}

// Quantile returns the q-quantile (0..1) by the linear definition: of
// the raw values, or, for a binned series, read from the bins
// (result.Histogram.Quantile).
func (s *Series) Quantile(q float64) float64 {
	if s.hist == nil {
		return stats.Quantile(s.Sorted, q, stats.Linear)
	}
	return s.hist.Quantile(q)
}

// bin returns the index of the bin that holds the q-quantile's rank
// q·(n-1), or -1 when it falls in the under- or overflow.
func (s *Series) bin(q float64) int {
	n := s.cum[len(s.cum)-1] + s.hist.Overflow
	r := q * float64(n-1)
	if r < float64(s.cum[0]) {
		return -1
	}
	for i := range s.hist.Counts {
		if r < float64(s.cum[i+1]) {
			return i
		}
	}
	return -1
}

// MedianCI is the median's distribution-free interval at confidence c
// (raw values only: a binned series has none).
func (s *Series) MedianCI(c float64) (stats.Interval, error) {
	if s.hist != nil {
		return stats.Interval{}, errors.New("report: no interval from binned values")
	}
	return stats.MedianCISorted(s.Sorted, c)
}

// Cell formats v of the series' unit with precision p for people, and
// exactly for machines.
func (s *Series) Cell(v float64, p unit.Precision, u unit.Unit) Cell {
	return FigureCell(v, s.Unit, p, u)
}

// FigureCell formats v, a figure in unit un (a metric unit: "ns", "bytes",
// "count", ...), with the digits p allows: durations in u when u is set,
// else in the unit that suits v. Raw is the exact value. NaN is Missing.
func FigureCell(v float64, un string, p unit.Precision, u unit.Unit) Cell {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return Missing
	}
	return Cell{Text: Figure(v, un, p, u), Raw: ExactNum(v)}
}

// Figure formats v of metric unit un with precision p (durations in u when
// u is set) for people.
func Figure(v float64, un string, p unit.Precision, u unit.Unit) string {
	if math.IsNaN(v) {
		return "–"
	}
	switch un {
	case result.UnitNs, result.UnitNsPerOp:
		s := ""
		if u.Nanos > 0 {
			s = unit.DurationIn(v, u, p)
		} else {
			s = unit.Duration(v, p)
		}
		if un == result.UnitNsPerOp {
			s += "/op"
		}
		return s
	case result.UnitBytes, result.UnitBytesPerOp:
		s := unit.FormatBytes(v)
		if un == result.UnitBytesPerOp {
			s += "/op"
		}
		return s
	case result.UnitCount, result.UnitOne, "":
		return unit.Plain(v, p)
	case result.UnitCountPerOp:
		return unit.Plain(v, p) + "/op"
	case result.UnitHz:
		return unit.SI(v, p, "Hz")
	}
	return unit.Plain(v, p) + " " + un
}
