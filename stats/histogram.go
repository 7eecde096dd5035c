package stats

import (
	"encoding/json"
	"fmt"
	"math"
	"sort"

	"github.com/HdrHistogram/hdrhistogram-go"
)

// Histogram is an HDR (high dynamic range) log-linear histogram of
// non-negative integer values, such as latencies in nanoseconds: constant
// memory, and every value is kept to the configured number of significant
// decimal digits (relative error at most 10^-sigfigs). It wraps
// github.com/HdrHistogram/hdrhistogram-go and adds what that library leaves
// to the caller: values above the highest trackable value are counted as
// overflows (and kept, at the highest trackable value, so that ranks stay
// right) and negative values as underflows (kept at 0); the exact minimum
// and maximum are tracked. A Histogram is not safe for concurrent use.
type Histogram struct {
	h          *hdrhistogram.Histogram
	overflows  int64
	underflows int64
	min, max   int64 // exact extremes of everything recorded; valid when Count() > 0
}

// hdrBucket is a non-empty histogram bucket: Count values in [Lo, Hi].
type hdrBucket struct {
	Lo    int64 `json:"lo"`
	Hi    int64 `json:"hi"`
	Count int64 `json:"count"`
}

// NewHistogram returns a histogram that tracks values from lowest (>= 1;
// smaller values, down to 0, are recorded in the lowest bucket) to highest
// (>= 2*lowest) with sigfigs significant decimal digits (1 to 5). Memory
// grows with sigfigs and log(highest/lowest): 3 digits from 1 ns to an hour
// is about 200 KB.
func NewHistogram(lowest, highest int64, sigfigs int) (*Histogram, error) {
	if lowest < 1 {
		return nil, fmt.Errorf("stats: histogram lowest value %d must be at least 1", lowest)
	}
	if highest < 2*lowest || highest <= 0 {
		return nil, fmt.Errorf("stats: histogram highest value %d must be at least twice the lowest (%d)", highest, lowest)
	}
	if sigfigs < 1 || sigfigs > 5 {
		return nil, fmt.Errorf("stats: histogram significant figures %d must be between 1 and 5", sigfigs)
	}
	// The library rejects a lowest value too large for the precision
	// (unit magnitude + sub-bucket magnitude > 61) by panicking.
	if float64(math.Log2(float64(lowest)))+float64(math.Log2(2*float64(math.Pow10(sigfigs)))) > 60 {
		return nil, fmt.Errorf("stats: histogram lowest value %d is too large for %d significant figures: lower one of them", lowest, sigfigs)
	}
	return &Histogram{h: hdrhistogram.New(lowest, highest, sigfigs)}, nil
}

// Record adds the value v. Values above the highest trackable value are
// counted in Overflows (and in the highest bucket); negative values in
// Underflows (and in the lowest bucket).
func (h *Histogram) Record(v int64) { h.recordN(v, 1) }

func (h *Histogram) recordN(v, n int64) {
	if n <= 0 {
		return
	}
	if h.h.TotalCount() == 0 {
		h.min, h.max = v, v
	} else {
		h.min, h.max = min(h.min, v), max(h.max, v)
	}
	r := v
	switch {
	case v < 0:
		h.underflows += n
		r = 0
	case v > h.h.HighestTrackableValue():
		h.overflows += n
		r = h.h.HighestTrackableValue()
	}
	if h.h.RecordValues(r, n) != nil {
		// Values are clamped into range; only a count overflowing int64
		// can fail. Count it as an overflow rather than lose it silently.
		h.overflows += n
	}
}

// RecordCorrected adds v and corrects for coordinated omission: when
// values are expected every expectedInterval and v exceeds it, the values
// the stalled recorder missed (v - expectedInterval, v - 2 expectedInterval,
// ... down to expectedInterval) are added too, as HdrHistogram does.
// A non-positive expectedInterval records v alone.
func (h *Histogram) RecordCorrected(v, expectedInterval int64) {
	h.Record(v)
	if expectedInterval <= 0 || v <= expectedInterval {
		return
	}
	for m := v - expectedInterval; m >= expectedInterval; m -= expectedInterval {
		h.Record(m)
	}
}

// Count returns the number of values recorded, overflows and underflows
// included.
func (h *Histogram) Count() int64 { return h.h.TotalCount() }

// Overflows returns the number of values recorded above the highest
// trackable value. Quantiles that fall among them return the highest
// trackable value, a lower bound.
func (h *Histogram) Overflows() int64 { return h.overflows }

// Underflows returns the number of negative values recorded.
func (h *Histogram) Underflows() int64 { return h.underflows }

// Min returns the smallest value recorded (exact), 0 when empty.
func (h *Histogram) Min() int64 {
	if h.Count() == 0 {
		return 0
	}
	return h.min
}

// Max returns the largest value recorded (exact, even an overflow), 0 when
// empty.
func (h *Histogram) Max() int64 {
	if h.Count() == 0 {
		return 0
	}
	return h.max
}

// Mean returns the mean of the recorded values, each taken at its bucket's
// middle (within the histogram's relative error), NaN when empty.
func (h *Histogram) Mean() float64 {
	if h.Count() == 0 {
		return math.NaN()
	}
	return h.h.Mean()
}

// StdDev returns the population standard deviation of the recorded values
// (divisor n), from bucket middles, NaN when empty.
func (h *Histogram) StdDev() float64 {
	if h.Count() == 0 {
		return math.NaN()
	}
	return h.h.StdDev()
}

// Quantile returns the q-quantile (q in [0, 1], clamped) of the recorded
// values: the highest value equivalent to the smallest recorded value with
// at least q of the count at or below it (HdrHistogram's definition), so
// within the relative error. Quantile(0) and Quantile(1) return the exact
// Min and Max. It returns 0 when empty.
func (h *Histogram) Quantile(q float64) int64 {
	if h.Count() == 0 {
		return 0
	}
	switch {
	case !(q > 0):
		return h.Min()
	case q >= 1:
		return h.Max()
	}
	return min(max(h.h.ValueAtQuantile(q*100), h.Min()), h.Max())
}

// Merge adds the values of o to h. Values of o beyond h's range are counted
// as h's overflows.
func (h *Histogram) Merge(o *Histogram) {
	if o == nil || o.Count() == 0 {
		return
	}
	// recordN moves the extremes to bucket bounds; keep the exact ones.
	lo, hi := o.min, o.max
	if h.Count() > 0 {
		lo, hi = min(h.min, lo), max(h.max, hi)
	}
	for _, b := range o.buckets() {
		h.recordN(b.Lo, b.Count)
	}
	// The exact extremes and flow counts of o carry over.
	h.min, h.max = lo, hi
	h.underflows += o.underflows
	// o's overflows sit in its top bucket; if that bucket fit in h they
	// were not counted as overflows by recordN.
	if o.overflows > 0 && o.h.HighestTrackableValue() <= h.h.HighestTrackableValue() {
		h.overflows += o.overflows
	}
}

// buckets returns the non-empty buckets in increasing order of value.
func (h *Histogram) buckets() []hdrBucket {
	var out []hdrBucket
	for _, b := range h.h.Distribution() {
		if b.Count > 0 {
			out = append(out, hdrBucket{Lo: b.From, Hi: b.To, Count: b.Count})
		}
	}
	return out
}

// histogramJSON is the compact JSON form: the geometry, the exact extremes,
// the flow counts, and [index, count] pairs for the non-empty counters of
// the HDR counts array.
type histogramJSON struct {
	Lowest     int64      `json:"lowest"`
	Highest    int64      `json:"highest"`
	SigFigs    int        `json:"sigfigs"`
	Count      int64      `json:"count"`
	Min        int64      `json:"min"`
	Max        int64      `json:"max"`
	Overflows  int64      `json:"overflows,omitempty"`
	Underflows int64      `json:"underflows,omitempty"`
	Counts     [][2]int64 `json:"counts"`
}

// MarshalJSON encodes the histogram compactly (non-empty counters only).
func (h *Histogram) MarshalJSON() ([]byte, error) {
	s := h.h.Export()
	j := histogramJSON{
		Lowest: s.LowestTrackableValue, Highest: s.HighestTrackableValue,
		SigFigs: int(s.SignificantFigures), Count: h.Count(), Min: h.Min(), Max: h.Max(),
		Overflows: h.overflows, Underflows: h.underflows, Counts: [][2]int64{},
	}
	for i, c := range s.Counts {
		if c != 0 {
			j.Counts = append(j.Counts, [2]int64{int64(i), c})
		}
	}
	return json.Marshal(j)
}

// UnmarshalJSON decodes the form MarshalJSON writes, validating it.
func (h *Histogram) UnmarshalJSON(data []byte) error {
	var j histogramJSON
	if err := json.Unmarshal(data, &j); err != nil {
		return fmt.Errorf("stats: bad histogram JSON: %w", err)
	}
	n, err := NewHistogram(j.Lowest, j.Highest, j.SigFigs)
	if err != nil {
		return err
	}
	s := n.h.Export()
	for _, p := range j.Counts {
		if p[0] < 0 || p[0] >= int64(len(s.Counts)) || p[1] < 0 {
			return fmt.Errorf("stats: bad histogram JSON: counter [%d, %d] is out of range", p[0], p[1])
		}
		s.Counts[p[0]] = p[1]
	}
	if err := s.Validate(); err != nil {
		return fmt.Errorf("stats: bad histogram JSON: %w", err)
	}
	n.h = hdrhistogram.Import(s)
	if n.h.TotalCount() != j.Count {
		return fmt.Errorf("stats: bad histogram JSON: counters sum to %d, count says %d", n.h.TotalCount(), j.Count)
	}
	n.min, n.max, n.overflows, n.underflows = j.Min, j.Max, j.Overflows, j.Underflows
	*h = *n
	return nil
}

// Bin is one bin of a linear histogram: Count values in [Lo, Hi) (the last
// bin also holds Hi).
type Bin struct {
	Lo    float64 `json:"lo"`
	Hi    float64 `json:"hi"`
	Count int     `json:"count"`
}

// MaxLinearBins is the most bins a caller should let a user ask LinearBins
// for: LinearBins allocates every bin (24 bytes each), and a histogram of
// more bins is not readable on a terminal. chrono stats refuses more.
const MaxLinearBins = 1000

// LinearBins returns n equal-width bins spanning [min(xs), max(xs)], for
// display. NaN and infinite values are left out. A sample of one distinct
// value gives one bin; an empty sample or n < 1 gives none. The bounds
// never overflow (a range from -1e308 to 1e308 is wider than the largest
// float64: its bounds are weighed from both ends) and strictly increase:
// where the range holds fewer than n+1 distinct float64 values (a range of
// a few subnormals, or 2 units at 1e16), bins that would be empty of
// numbers are merged, so fewer than n bins come back. It takes O(n) memory
// and O(len(xs)·log n) time: bound n (MaxLinearBins).
func LinearBins(xs []float64, n int) []Bin {
	if n < 1 {
		return nil
	}
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, x := range xs {
		if !math.IsNaN(x) && !math.IsInf(x, 0) {
			lo, hi = min(lo, x), max(hi, x)
		}
	}
	if lo > hi {
		return nil
	}
	if lo == hi {
		c := 0
		for _, x := range xs {
			if x == lo {
				c++
			}
		}
		return []Bin{{Lo: lo, Hi: hi, Count: c}}
	}
	// The bounds: lo, the interior edges that lie strictly between the
	// previous bound and hi, then hi.
	width := (hi - lo) / float64(n)
	bounds := make([]float64, 1, n+1)
	bounds[0] = lo
	for i := 1; i < n; i++ {
		var e float64
		if math.IsInf(hi-lo, 0) {
			f := float64(i) / float64(n)
			e = float64(lo*(1-f)) + float64(hi*f)
		} else {
			e = lo + float64(float64(i)*width)
		}
		if e > bounds[len(bounds)-1] && e < hi {
			bounds = append(bounds, e)
		}
	}
	bounds = append(bounds, hi)
	bins := make([]Bin, len(bounds)-1)
	for i := range bins {
		bins[i].Lo, bins[i].Hi = bounds[i], bounds[i+1]
	}
	for _, x := range xs {
		if math.IsNaN(x) || math.IsInf(x, 0) {
			continue
		}
		// The last bound at or below x (hi belongs to the last bin).
		i := sort.SearchFloat64s(bounds, x)
		if i == len(bounds) || bounds[i] > x {
			i--
		}
		bins[min(max(i, 0), len(bins)-1)].Count++
	}
	return bins
}

// Bins returns the histogram as contiguous bins in value units: count[i]
// values fell in [bounds[i], bounds[i+1]) (so len(bounds) ==
// len(counts)+1), empty bins at either end left out; nil for an empty
// histogram. Values above the highest trackable value are recorded at it
// (and counted by Overflows), so they are in the last bin: a caller that
// keeps overflows apart moves them out itself.
func (h *Histogram) Bins() (bounds []float64, counts []int64) { return HDRBins(h.h) }

// HDRBins returns an HdrHistogram's buckets as contiguous bins in value
// units, as Histogram.Bins does: each bucket [From, To] of equivalent
// integer values becomes the bin [From, To+1); empty buckets at either
// end are left out.
func HDRBins(h *hdrhistogram.Histogram) (bounds []float64, counts []int64) {
	bars := h.Distribution()
	lo, hi := 0, len(bars)
	for lo < hi && bars[lo].Count == 0 {
		lo++
	}
	for hi > lo && bars[hi-1].Count == 0 {
		hi--
	}
	if lo == hi {
		return nil, nil
	}
	for _, b := range bars[lo:hi] {
		if n := len(bounds); n > 0 && float64(b.From) > bounds[n-1] {
			// A gap between buckets (never in HdrHistogram's layout, but
			// keep the bins contiguous if it happens): an empty bin.
			bounds = append(bounds, float64(b.From))
			counts = append(counts, 0)
		} else if n == 0 {
			bounds = append(bounds, float64(b.From))
		}
		bounds = append(bounds, float64(b.To+1))
		counts = append(counts, b.Count)
	}
	return bounds, counts
}
