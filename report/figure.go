package report

import (
	"math"
	"slices"
	"strconv"

	"github.com/chronograph/chronograph/result"
	"github.com/chronograph/chronograph/stats"
	"github.com/chronograph/chronograph/unit"
)

// Series is one metric's raw samples, sorted, with what renderers need to
// print its statistics with the right digits: every figure of a View
// comes through a Series (or a Precision built the same way), which is
// the one place where the digits rule meets the statistics.
type Series struct {
	Unit       string
	Resolution float64
	Sorted     []float64
	Summary    stats.Summary
}

// NewSeries sorts a copy of m's values (NaNs dropped) and summarizes them.
func NewSeries(m *result.Metric) *Series {
	xs := make([]float64, 0, len(m.Values))
	for _, v := range m.Values {
		if !math.IsNaN(v) {
			xs = append(xs, v)
		}
	}
	slices.Sort(xs)
	res := m.Resolution
	if res == 0 && (m.Unit == result.UnitCount || m.Unit == result.UnitBytes || m.Unit == result.UnitCPU) {
		res = 1 // whole numbers by nature
	}
	return &Series{Unit: m.Unit, Resolution: res, Sorted: xs, Summary: stats.SummarizeSorted(xs)}
}

// N is the number of samples.
func (s *Series) N() int { return len(s.Sorted) }

// Observed is the precision of one observed value (a sample, the minimum,
// the maximum): the instrument's resolution.
func (s *Series) Observed() unit.Precision { return unit.Precision{Resolution: s.Resolution} }

// AtQuantile is the precision of the q-quantile (0..1): its order
// statistics' spread and the resolution.
func (s *Series) AtQuantile(q float64) unit.Precision {
	return unit.Precision{Resolution: s.Resolution, Uncertainty: stats.QuantileUncertainty(s.Sorted, q)}
}

// OfMean is the precision of the mean.
func (s *Series) OfMean() unit.Precision {
	return unit.Precision{Uncertainty: stats.MeanUncertainty(s.Summary)}
}

// OfStdDev is the precision of the standard deviation.
func (s *Series) OfStdDev() unit.Precision {
	return unit.Precision{Uncertainty: stats.StdDevUncertainty(s.Summary)}
}

// Quantile returns the q-quantile by the linear definition.
func (s *Series) Quantile(q float64) float64 {
	return stats.Quantile(s.Sorted, q, stats.Linear)
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
	return Cell{Text: Figure(v, un, p, u), Raw: exactNum(v)}
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
	}
	return unit.Plain(v, p) + " " + un
}

// Ratio formats a dimensionless ratio with its interval's precision: the
// digits its interval supports, at most 3 significant ones.
func Ratio(r, lo, hi float64) string {
	unc := math.Max(math.Abs(r-lo), math.Abs(hi-r))
	if math.IsNaN(unc) {
		unc = 0
	}
	p := unit.Precision{Uncertainty: unc, Resolution: math.Pow(10, math.Floor(math.Log10(math.Abs(r)))-2)}
	return unit.Plain(r, p)
}

// PValue formats a p-value with 2 significant digits, in exponent form
// below 0.001.
func PValue(p float64) string {
	if math.IsNaN(p) {
		return "–"
	}
	if p != 0 && p < 1e-3 {
		return strconv.FormatFloat(p, 'e', 1, 64)
	}
	return unit.Sig(p, 2)
}

// Percent formats a fraction (0.95) as a percentage without float noise:
// "95%", "99.9%", "0.0001%".
func Percent(f float64) string {
	return strconv.FormatFloat(f*100, 'g', 6, 64) + "%"
}
