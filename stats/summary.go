package stats

import (
	"math"
	"slices"
)

// Summary describes one sample. All figures are in the unit of the sample,
// except CV, which is a fraction (0.05 = 5 %).
type Summary struct {
	N    int     `json:"n"`
	Min  float64 `json:"min"`
	Max  float64 `json:"max"`
	Mean float64 `json:"mean"`
	// Median is the 50th percentile (all Hyndman-Fan definitions agree on it
	// except inverted_cdf/closest_observation; this is the average of the two
	// middle values for even N).
	Median float64 `json:"median"`
	// StdDevSample is the sample standard deviation (divisor n-1); zero for N < 2.
	StdDevSample float64 `json:"stddev_sample"`
	// StdDevPopulation is the population standard deviation (divisor n).
	StdDevPopulation float64 `json:"stddev_population"`
	// MAD is the raw median absolute deviation from the median;
	// MADScaled is MAD*1.4826, a consistent estimator of the standard
	// deviation for normal data.
	MAD       float64 `json:"mad"`
	MADScaled float64 `json:"mad_scaled"`
	// Q1 and Q3 are the 25th and 75th percentiles by the linear (R type 7)
	// definition, and IQR = Q3 - Q1.
	Q1  float64 `json:"q1"`
	Q3  float64 `json:"q3"`
	IQR float64 `json:"iqr"`
	// CV is the coefficient of variation StdDevSample/Mean (0 when Mean is 0).
	CV float64 `json:"cv"`
}

// MADScale makes the MAD a consistent estimator of the standard deviation
// of normally distributed data (1/Φ⁻¹(3/4)).
const MADScale = 1.4826

// Summarize computes the summary of xs. It does not modify xs. An empty
// sample gives the zero Summary.
func Summarize(xs []float64) Summary {
	n := len(xs)
	if n == 0 {
		return Summary{}
	}
	sorted := slices.Clone(xs)
	slices.Sort(sorted)
	return SummarizeSorted(sorted)
}

// SummarizeSorted is Summarize for a sample already sorted in increasing
// order; it avoids the copy and the sort.
func SummarizeSorted(sorted []float64) Summary {
	n := len(sorted)
	if n == 0 {
		return Summary{}
	}
	s := Summary{N: n, Min: sorted[0], Max: sorted[n-1]}
	// Mean by compensated (Kahan-Babuska) summation, so long samples of
	// similar values do not lose precision.
	s.Mean = kahanSum(sorted) / float64(n)
	var ss, c float64
	for _, x := range sorted {
		d := x - s.Mean
		y := d*d - c
		t := ss + y
		c = (t - ss) - y
		ss = t
	}
	s.StdDevPopulation = math.Sqrt(ss / float64(n))
	if n > 1 {
		s.StdDevSample = math.Sqrt(ss / float64(n-1))
	}
	s.Median = linearQuantile(sorted, 0.5)
	s.Q1 = linearQuantile(sorted, 0.25)
	s.Q3 = linearQuantile(sorted, 0.75)
	s.IQR = s.Q3 - s.Q1
	dev := make([]float64, n)
	for i, x := range sorted {
		dev[i] = math.Abs(x - s.Median)
	}
	slices.Sort(dev)
	s.MAD = linearQuantile(dev, 0.5)
	s.MADScaled = s.MAD * MADScale
	if s.Mean != 0 {
		s.CV = s.StdDevSample / math.Abs(s.Mean)
	}
	return s
}

// kahanSum adds xs with Neumaier's compensated summation.
func kahanSum(xs []float64) float64 {
	var sum, c float64
	for _, x := range xs {
		t := sum + x
		if math.Abs(sum) >= math.Abs(x) {
			c += (sum - t) + x
		} else {
			c += (x - t) + sum
		}
		sum = t
	}
	return sum + c
}

// linearQuantile is the linear (Hyndman-Fan type 7) quantile of a sorted,
// non-empty sample, q in [0, 1].
func linearQuantile(sorted []float64, q float64) float64 {
	n := len(sorted)
	h := q * float64(n-1)
	lo := math.Floor(h)
	i := int(lo)
	if i >= n-1 {
		return sorted[n-1]
	}
	return sorted[i] + (h-lo)*(sorted[i+1]-sorted[i])
}
