package profiles

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/google/pprof/profile"
)

// Weighted is a profile and its weight in a merge.
type Weighted struct {
	Profile *profile.Profile
	// Weight is positive and finite; what it means depends on the
	// Weighting.
	Weight float64
}

// Weighting says what a Weighted's weight means.
type Weighting int

const (
	// ByShare: each profile's share of the merged profile's CPU time is
	// its weight divided by the sum of the weights, whatever the length
	// of the run it came from. Equal weights give every workload the same
	// say; weights 3 and 1 give the first three quarters of the merged
	// time. This is the PGO guide's "merge profiles across workloads,
	// weighted by total footprint", with the footprint as the weight.
	ByShare Weighting = iota
	// ByFactor: each profile's values are multiplied by its weight before
	// the sum, as llvm-profdata merge -weighted-input=W does; weights of
	// 1 are `go tool pprof -proto a b`. A weight of 1/iterations puts
	// runs of different lengths on a per-iteration footing, so that each
	// workload counts by what one of its iterations costs.
	ByFactor
)

// String names the weighting as the CLI spells it.
func (w Weighting) String() string {
	switch w {
	case ByShare:
		return "share"
	case ByFactor:
		return "factor"
	}
	return "Weighting(" + strconv.Itoa(int(w)) + ")"
}

// MinScaledFactor is the smallest factor Merge scales a profile's values
// by when some factor is not a whole number: pprof's values are
// integers, so each scaled value is rounded, and a factor of at least
// 100 keeps that rounding within 0.5 % of every value (a count of 1
// scaled by 0.3 would otherwise round to 0, and the sample would be
// dropped). All factors are then multiplied by one constant, so their
// ratios, all that guides a build, are kept.
const MinScaledFactor = 100

// Merged is the outcome of Merge.
type Merged struct {
	// Profile is the weighted sum. Its "samples"/"count" values are
	// weighted too, so they count samples only when every factor is 1:
	// check the inputs (Check) before merging, not the merged profile.
	Profile *profile.Profile
	// Factors are what each input's values were multiplied by, in order.
	Factors []float64
}

// Merge returns the weighted sum of the profiles in in, as the Weighting
// says, without changing them. The profiles must be CPU profiles with
// the same sample types (runtime/pprof's and FromPerfScript's of
// cpu-clock are alike). When all factors are whole numbers the values
// are scaled exactly; otherwise the factors are all multiplied by one
// constant so that the smallest is MinScaledFactor.
func Merge(in []Weighted, how Weighting) (*Merged, error) {
	if len(in) == 0 {
		return nil, fmt.Errorf("profiles: no profiles to merge")
	}
	if how != ByShare && how != ByFactor {
		return nil, fmt.Errorf("profiles: unknown weighting %v: use ByShare or ByFactor", how)
	}
	idx := -1
	for i, w := range in {
		if w.Profile == nil {
			return nil, fmt.Errorf("profiles: merge input %d has no profile", i+1)
		}
		if !(w.Weight > 0) || math.IsInf(w.Weight, 0) {
			return nil, fmt.Errorf("profiles: merge input %d has weight %v: weights must be positive and finite", i+1, w.Weight)
		}
		j := valueIndex(w.Profile)
		if j < 0 {
			return nil, fmt.Errorf("profiles: merge input %d is not a CPU profile (sample types %s)", i+1, sampleTypes(w.Profile))
		}
		if i == 0 {
			idx = j
		} else if a, b := sampleTypes(in[0].Profile), sampleTypes(w.Profile); a != b {
			return nil, fmt.Errorf("profiles: merge input %d has sample types %s, input 1 has %s: merge profiles of one kind", i+1, b, a)
		}
	}
	factors, err := weightFactors(in, how, idx)
	if err != nil {
		return nil, err
	}
	scaled := make([]*profile.Profile, len(in))
	for i, w := range in {
		c := w.Profile.Copy()
		ratios := make([]float64, len(c.SampleType))
		for k := range ratios {
			ratios[k] = factors[i]
		}
		if err := c.ScaleN(ratios); err != nil {
			return nil, fmt.Errorf("profiles: scaling merge input %d: %w", i+1, err)
		}
		scaled[i] = c
	}
	p, err := profile.Merge(scaled)
	if err != nil {
		return nil, fmt.Errorf("profiles: merging: %w", err)
	}
	if !allOne(factors) {
		p.Comments = append(p.Comments, mergeComment(how, in, factors))
	}
	return &Merged{Profile: p, Factors: factors}, nil
}

// weightFactors returns what each input's values are multiplied by.
func weightFactors(in []Weighted, how Weighting, idx int) ([]float64, error) {
	f := make([]float64, len(in))
	switch how {
	case ByFactor:
		for i, w := range in {
			f[i] = w.Weight
		}
	case ByShare:
		// Input i's time T_i becomes w_i/W of the merged time T = ΣT_i:
		// f_i = (w_i/W)·T/T_i.
		var sumW, sumT float64
		times := make([]float64, len(in))
		for i, w := range in {
			times[i] = float64(total(w.Profile, idx))
			if times[i] <= 0 {
				return nil, fmt.Errorf("profiles: merge input %d holds no CPU time, so it has no share to weight", i+1)
			}
			sumW += w.Weight
			sumT += times[i]
		}
		for i, w := range in {
			f[i] = w.Weight / sumW * sumT / times[i]
		}
	}
	if whole(f) {
		return f, nil
	}
	smallest := math.Inf(1)
	for _, x := range f {
		smallest = math.Min(smallest, x)
	}
	if c := MinScaledFactor / smallest; c > 1 {
		for i := range f {
			f[i] *= c
		}
	}
	return f, nil
}

// whole reports whether every factor is a whole number.
func whole(f []float64) bool {
	for _, x := range f {
		if x != math.Trunc(x) {
			return false
		}
	}
	return true
}

// allOne reports whether every factor is 1.
func allOne(f []float64) bool {
	for _, x := range f {
		if x != 1 {
			return false
		}
	}
	return true
}

// mergeComment says in the merged profile how it was weighted, for
// whoever reads it with pprof later.
func mergeComment(how Weighting, in []Weighted, f []float64) string {
	parts := make([]string, len(in))
	for i := range in {
		parts[i] = strconv.FormatFloat(in[i].Weight, 'g', -1, 64) + " (values ×" + strconv.FormatFloat(f[i], 'g', 6, 64) + ")"
	}
	return "chronograph: merged by " + how.String() + " with weights " + strings.Join(parts, ", ")
}
