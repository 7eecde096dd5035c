package history

import (
	"fmt"

	"github.com/chronograph/chronograph/compare"
	"github.com/chronograph/chronograph/result"
	"github.com/chronograph/chronograph/stats"
)

// defaultConfidence is the level of a change's ratio interval when
// CheckOptions.Confidence is 0.
const defaultConfidence = 0.95

// CheckOptions configures Changes.
type CheckOptions struct {
	// Threshold is the relative change beyond which a change counts as a
	// regression or an improvement (0.05 = 5 %).
	Threshold float64
	// Detector configures the change-point detection.
	Detector stats.EDivisiveOptions
	// Confidence is the level of the ratio's interval (default 0.95).
	Confidence float64
}

// ChangePoint is one change point of a series, with what changed.
type ChangePoint struct {
	// Index is the first point after the change; Before the last point
	// before it and After the first point after it (the commit range in
	// which it happened is Before.Commit..After.Commit).
	Index         int
	Before, After Point
	// MedianBefore and MedianAfter are the medians of the run medians of
	// the segments on either side (up to the neighbouring changes);
	// NBefore and NAfter their run counts.
	MedianBefore, MedianAfter float64
	NBefore, NAfter           int
	// Ratio is MedianAfter/MedianBefore with its bootstrap interval
	// [Lo, Hi] at CheckOptions.Confidence.
	Ratio, Lo, Hi float64
	// P is the permutation test's p-value; Q its energy statistic.
	P, Q float64
	// Verdict is in package compare's words: compare.Regression when the
	// metric got worse by more than the threshold (for rates, units where
	// compare.HigherIsBetter, worse is lower) and the ratio's interval
	// excludes 1; compare.Improvement likewise better; compare.Undecided
	// when the ratio is beyond the threshold but its interval reaches 1
	// (as the gate calls it); else compare.NoChange.
	Verdict compare.Verdict
	// Exact is set for a change of a deterministic series (every run's
	// samples identical, as exact instruction counts are): it is found
	// without a test, at the run where the value changed, and its ratio is
	// exact (Lo = Hi = Ratio; P and Q are 0).
	Exact bool
	// Trace is where a regression's time went, from the profiles the
	// store keeps of the runs on either side (the store's documents set
	// it, Changes does not): the differential profile, or a note saying
	// why there is none; nil for other verdicts.
	Trace *result.ProfileTrace
}

// Changes finds the change points of a series (stats.EDivisive over the
// runs' medians) and describes each. It needs points in time order, as
// Series returns them.
func Changes(points []Point, o CheckOptions) ([]ChangePoint, error) {
	if o.Confidence == 0 {
		o.Confidence = defaultConfidence
	}
	if o.Threshold < 0 {
		return nil, fmt.Errorf("history: negative threshold %v: give e.g. 5%%", o.Threshold)
	}
	meds := make([]float64, len(points))
	for i, p := range points {
		meds[i] = p.Median
	}
	if deterministic(points) {
		return exactChanges(points, o.Threshold), nil
	}
	cps, err := stats.EDivisive(meds, o.Detector)
	if err != nil {
		return nil, fmt.Errorf("history: %w", err)
	}
	var out []ChangePoint
	for k, cp := range cps {
		lo, hi := 0, len(meds)
		if k > 0 {
			lo = cps[k-1].Index
		}
		if k+1 < len(cps) {
			hi = cps[k+1].Index
		}
		before, after := meds[lo:cp.Index], meds[cp.Index:hi]
		c := ChangePoint{Index: cp.Index, Before: points[cp.Index-1], After: points[cp.Index], P: cp.P, Q: cp.Q,
			MedianBefore: stats.Median(before), MedianAfter: stats.Median(after), NBefore: len(before), NAfter: len(after)}
		c.Ratio = c.MedianAfter / c.MedianBefore
		ci := stats.BootstrapMedianRatioCI(after, before, o.Confidence, 0, o.Detector.Seed+uint64(k))
		c.Lo, c.Hi = ci.Lo, ci.Hi
		c.Verdict = pointVerdict(c, points[0].Unit, o.Threshold)
		out = append(out, c)
	}
	return out, nil
}

// pointVerdict is change point c's verdict, in a series of unit u.
func pointVerdict(c ChangePoint, u string, threshold float64) compare.Verdict {
	worse, lo95, hi95 := c.Ratio, c.Lo, c.Hi
	if compare.HigherIsBetter(u) {
		worse, lo95, hi95 = 1/c.Ratio, 1/c.Hi, 1/c.Lo
	}
	return verdict(worse, lo95, hi95, threshold)
}

// verdict is a change point's verdict from its ratio of medians worse
// (after/before, inverted for metrics where higher is better, so above 1
// is worse) and its interval [lo, hi]: beyond the threshold with the
// interval on the same side of 1, a regression or an improvement; beyond
// it with the interval reaching 1, undecided (as the gate says); else no
// change.
func verdict(worse, lo, hi, threshold float64) compare.Verdict {
	switch {
	case worse > 1+threshold && lo > 1:
		return compare.Regression
	case worse < 1/(1+threshold) && hi < 1:
		return compare.Improvement
	case worse > 1+threshold || worse < 1/(1+threshold):
		return compare.Undecided
	}
	return compare.NoChange
}

// deterministic reports whether every run of the series has at least two
// samples, all the same: then nothing varies but the code, and every
// change of value is a change.
func deterministic(points []Point) bool {
	for _, p := range points {
		if len(p.Values) < 2 {
			return false
		}
		for _, v := range p.Values {
			if v != p.Values[0] {
				return false
			}
		}
	}
	return len(points) >= 2
}

// exactChanges are the changes of a deterministic series: one at every
// run whose value differs from the run's before, each between the
// constant stretches on either side, with its exact ratio.
func exactChanges(points []Point, threshold float64) []ChangePoint {
	var at []int
	for i := 1; i < len(points); i++ {
		if points[i].Median != points[i-1].Median {
			at = append(at, i)
		}
	}
	var out []ChangePoint
	for k, i := range at {
		lo, hi := 0, len(points)
		if k > 0 {
			lo = at[k-1]
		}
		if k+1 < len(at) {
			hi = at[k+1]
		}
		c := ChangePoint{Index: i, Before: points[i-1], After: points[i], Exact: true,
			MedianBefore: points[i-1].Median, MedianAfter: points[i].Median, NBefore: i - lo, NAfter: hi - i}
		c.Ratio = c.MedianAfter / c.MedianBefore
		c.Lo, c.Hi = c.Ratio, c.Ratio
		c.Verdict = pointVerdict(c, points[0].Unit, threshold)
		out = append(out, c)
	}
	return out
}
