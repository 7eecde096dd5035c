package stats

import (
	"math"
	"sort"

	"github.com/chronograph/chronograph/internal/radix"
)

// Outliers classifies the values of a sample by Tukey's fences. The index
// slices hold indexes into the caller's slice, in increasing order; nothing
// is dropped. Q1, Q3 and IQR are linear (H&F type 7) quartiles.
type Outliers struct {
	LowSevere  []int `json:"low_severe,omitempty"`  // x < Q1 - 3 IQR
	LowMild    []int `json:"low_mild,omitempty"`    // Q1 - 3 IQR <= x < Q1 - 1.5 IQR
	HighMild   []int `json:"high_mild,omitempty"`   // Q3 + 1.5 IQR < x <= Q3 + 3 IQR
	HighSevere []int `json:"high_severe,omitempty"` // x > Q3 + 3 IQR

	Q1  float64 `json:"q1"`
	Q3  float64 `json:"q3"`
	IQR float64 `json:"iqr"`

	LowSevereFence  float64 `json:"low_severe_fence"`  // Q1 - 3 IQR
	LowMildFence    float64 `json:"low_mild_fence"`    // Q1 - 1.5 IQR
	HighMildFence   float64 `json:"high_mild_fence"`   // Q3 + 1.5 IQR
	HighSevereFence float64 `json:"high_severe_fence"` // Q3 + 3 IQR
}

// Count returns the number of outliers of every class.
func (o Outliers) Count() int {
	return len(o.LowSevere) + len(o.LowMild) + len(o.HighMild) + len(o.HighSevere)
}

// low returns the number of low outliers (mild and severe).
func (o Outliers) low() int { return len(o.LowSevere) + len(o.LowMild) }

// high returns the number of high outliers (mild and severe).
func (o Outliers) high() int { return len(o.HighSevere) + len(o.HighMild) }

// Severe returns the number of severe outliers (low and high).
func (o Outliers) Severe() int { return len(o.LowSevere) + len(o.HighSevere) }

func tukeyFences(q1, q3 float64) Outliers {
	iqr := q3 - q1
	return Outliers{
		Q1: q1, Q3: q3, IQR: iqr,
		LowSevereFence:  q1 - float64(3*iqr),
		LowMildFence:    q1 - float64(1.5*iqr),
		HighMildFence:   q3 + float64(1.5*iqr),
		HighSevereFence: q3 + float64(3*iqr),
	}
}

// Tukey flags the outliers of xs by Tukey's fences: mild beyond 1.5 IQR
// from the quartiles, severe beyond 3 IQR. NaN values are neither used for
// the quartiles nor flagged. xs is not modified. A sample with fewer than
// 4 values (or only NaNs) gets NaN fences and no outliers. It sorts a copy
// of xs; TukeySorted takes one sorted already.
func Tukey(xs []float64) Outliers { return TukeySorted(xs, radix.Numbers(xs)) }

// TukeySorted is Tukey with the values of xs already sorted in increasing
// order (as slices.Sort sorts them, NaNs first): the fences come from
// sorted, the indexes are into xs. sorted must hold the values of xs; it
// costs one pass over xs and allocates only the index slices.
func TukeySorted(xs, sorted []float64) Outliers {
	sorted = withoutNaN(sorted)
	if len(sorted) < 4 {
		nan := math.NaN()
		return tukeyFences(nan, nan)
	}
	o := tukeyFences(linearQuantile(sorted, 0.25), linearQuantile(sorted, 0.75))
	// Room for each class, counted on sorted: one allocation each.
	ls, lm := countBelow(sorted, o.LowSevereFence), countBelow(sorted, o.LowMildFence)
	hs, hm := countAbove(sorted, o.HighSevereFence), countAbove(sorted, o.HighMildFence)
	o.LowSevere, o.LowMild, o.HighSevere, o.HighMild = room(ls), room(lm-ls), room(hs), room(hm-hs)
	for i, x := range xs {
		switch {
		case x < o.LowSevereFence:
			o.LowSevere = append(o.LowSevere, i)
		case x < o.LowMildFence:
			o.LowMild = append(o.LowMild, i)
		case x > o.HighSevereFence:
			o.HighSevere = append(o.HighSevere, i)
		case x > o.HighMildFence:
			o.HighMild = append(o.HighMild, i)
		}
	}
	return o
}

// countBelow returns how many values of sorted (increasing, no NaN) are
// below f, and countAbove how many are above it, by bisection (0 for a
// NaN f, as a comparison with it is false).
func countBelow(sorted []float64, f float64) int {
	return sort.Search(len(sorted), func(i int) bool { return !(sorted[i] < f) })
}

func countAbove(sorted []float64, f float64) int {
	return len(sorted) - sort.Search(len(sorted), func(i int) bool { return sorted[i] > f })
}

// room returns an empty slice with room for n indexes, nil for none (or
// a count below 0, which fences that are not numbers give).
func room(n int) []int {
	if n <= 0 {
		return nil
	}
	return make([]int, 0, n)
}

// withoutNaN returns sorted without the NaNs that slices.Sort puts first.
func withoutNaN(sorted []float64) []float64 {
	nan := 0
	for nan < len(sorted) && math.IsNaN(sorted[nan]) {
		nan++
	}
	return sorted[nan:]
}

// modifiedZScoreFactor is Iglewicz and Hoaglin's 0.6745 (Φ⁻¹(3/4)), which
// makes the modified z-score comparable to a standard score for normal data.
const modifiedZScoreFactor = 0.6745

// DefaultModifiedZThreshold is Iglewicz and Hoaglin's recommended cut-off.
const DefaultModifiedZThreshold = 3.5

// ModifiedZ returns, in increasing order, the indexes into xs of the values
// whose modified z-score |0.6745 (x - median) / MAD| exceeds threshold
// (3.5 is usual; see Iglewicz and Hoaglin, "How to Detect and Handle
// Outliers", 1993). MAD is the raw median absolute deviation. When the MAD
// is zero (more than half the values equal) the score is undefined and no
// value is flagged. NaN values are ignored. xs is not modified. It sorts a
// copy of xs; ModifiedZSorted takes one sorted already.
func ModifiedZ(xs []float64, threshold float64) []int {
	return ModifiedZSorted(xs, radix.Numbers(xs), threshold)
}

// ModifiedZSorted is ModifiedZ with the values of xs already sorted in
// increasing order (as slices.Sort sorts them, NaNs first): the median and
// the MAD come from sorted, the indexes are into xs. sorted must hold the
// values of xs; it costs one pass over xs and allocates only the result.
func ModifiedZSorted(xs, sorted []float64, threshold float64) []int {
	sorted = withoutNaN(sorted)
	if len(sorted) == 0 {
		return nil
	}
	med := linearQuantile(sorted, 0.5)
	mad := madSorted(sorted, med)
	if !(mad > 0) || math.IsInf(mad, 0) {
		return nil
	}
	out := func(x float64) bool { return math.Abs(modifiedZScoreFactor*(x-med)/mad) > threshold }
	// The score grows with the distance from the median (each rounded
	// step of it is monotonic), so the outliers are a prefix and a suffix
	// of sorted, whose ends are found by bisection; equal values score
	// alike, so a value of xs is an outlier exactly when it lies at or
	// beyond an end: two comparisons per value instead of a score.
	k := sort.SearchFloat64s(sorted, med)
	low := sort.Search(k, func(i int) bool { return !out(sorted[i]) })
	high := k + sort.Search(len(sorted)-k, func(i int) bool { return out(sorted[k+i]) })
	lowEnd, highEnd := math.Inf(-1), math.Inf(1) // beyond every value: none
	if low > 0 {
		lowEnd = sorted[low-1]
	}
	if high < len(sorted) {
		highEnd = sorted[high]
	}
	flagged := room(low + len(sorted) - high)
	for i, x := range xs {
		if x <= lowEnd && low > 0 || x >= highEnd && high < len(sorted) {
			flagged = append(flagged, i)
		}
	}
	return flagged
}
