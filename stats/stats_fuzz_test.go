package stats

import (
	"encoding/binary"
	"math"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// fuzzFloats decodes a sample from fuzzed bytes. The first byte picks how:
//
//	0: raw float64 bits, 8 bytes each (NaN, ±Inf, subnormals, ±MaxFloat64);
//	1: small integers, one byte each (ties);
//	2: extremes: each byte picks one of a few awkward values;
//	3: one value (the next 8 bytes) repeated as many times as the two
//	   bytes after it say, up to 65535 (huge counts of equal values).
//
// Anything else is read as mode 0.
func fuzzFloats(data []byte) []float64 {
	if len(data) == 0 {
		return nil
	}
	mode, data := data[0], data[1:]
	var xs []float64
	switch mode {
	case 1:
		for _, b := range data {
			xs = append(xs, float64(int8(b)))
		}
	case 2:
		awkward := []float64{0, math.Copysign(0, -1), 1, -1, math.MaxFloat64, -math.MaxFloat64, math.SmallestNonzeroFloat64,
			-math.SmallestNonzeroFloat64, 1e308, -1e308, math.Inf(1), math.Inf(-1), math.NaN(), 0.1, 1 << 53, 1<<53 + 1}
		for _, b := range data {
			xs = append(xs, awkward[int(b)%len(awkward)])
		}
	case 3:
		if len(data) >= 10 {
			v := math.Float64frombits(binary.LittleEndian.Uint64(data))
			n := int(binary.LittleEndian.Uint16(data[8:]))
			xs = make([]float64, n)
			for i := range xs {
				xs[i] = v
			}
			xs = append(xs, fuzzFloats(append([]byte{0}, data[10:]...))...)
		}
	default:
		for ; len(data) >= 8; data = data[8:] {
			xs = append(xs, math.Float64frombits(binary.LittleEndian.Uint64(data)))
		}
	}
	return xs
}

// seedFloats adds the samples every stats target starts from: the issue's
// -1e308/1e308, the extremes, ties, a long run of one value, and the
// cases of the package's golden files.
func seedFloats(f *testing.F) {
	enc := func(xs ...float64) []byte {
		b := []byte{0}
		for _, x := range xs {
			b = binary.LittleEndian.AppendUint64(b, math.Float64bits(x))
		}
		return b
	}
	f.Add(enc(-1e308, 1e308))
	f.Add(enc(math.MaxFloat64, -math.MaxFloat64, 0))
	f.Add(enc(1, 2, 3, 4, 5, 6, 7, 8, 9, 10))
	f.Add(enc(5e-324, 1e-320, 0, -5e-324))
	f.Add(enc(math.NaN(), 1, 2, math.Inf(1)))
	f.Add(enc(12.5e6, 800e3, 12.5e6, 3e9, 42))
	f.Add([]byte{1, 1, 1, 1, 2, 2, 3, 255, 255, 0, 7})
	f.Add([]byte{2, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15})
	f.Add(append([]byte{3}, enc(1.5, 0, 0)[1:11]...)) // 1.5 repeated 0 times...
	f.Add([]byte{3, 0, 0, 0, 0, 0, 0, 0xf8, 0x3f, 0xff, 0xff})
}

// FuzzSummarize: Summarize never panics; N counts the values that are not
// NaN; the median, the quartiles, the MAD and the spread stay where they
// must (min <= q1 <= median <= q3 <= max, the mean within [min, max] when
// every value is finite, non-negative spreads); it does not modify its
// input and SummarizeSorted of the sorted sample is the same; Tukey's
// outliers are values of the sample.
func FuzzSummarize(f *testing.F) {
	seedFloats(f)
	f.Fuzz(func(t *testing.T, data []byte) {
		xs := fuzzFloats(data)
		orig := slices.Clone(xs)
		s := Summarize(xs)
		if !slices.EqualFunc(xs, orig, func(a, b float64) bool { return math.Float64bits(a) == math.Float64bits(b) }) {
			t.Fatal("Summarize modified its input")
		}
		sorted := slices.Clone(xs)
		slices.Sort(sorted)
		if s2 := SummarizeSorted(sorted); !sameSummary(s, s2) {
			t.Fatalf("Summarize = %+v, SummarizeSorted = %+v", s, s2)
		}
		finite := sorted[:0:0]
		nan := 0
		for _, x := range sorted {
			switch {
			case math.IsNaN(x):
				nan++
			case !math.IsInf(x, 0):
				finite = append(finite, x)
			}
		}
		if s.N != len(xs)-nan {
			t.Fatalf("N = %d for %d values, %d NaN", s.N, len(xs), nan)
		}
		if s.N == 0 {
			return
		}
		within := func(name string, v float64) {
			if math.IsNaN(v) && opposedInfinities(sorted) {
				return // between -Inf and +Inf there is no value (see lerp)
			}
			if !(s.Min <= v && v <= s.Max) {
				t.Fatalf("%s %g is outside [min, max] = [%g, %g] (sample %g)", name, v, s.Min, s.Max, xs)
			}
		}
		within("median", s.Median)
		within("q1", s.Q1)
		within("q3", s.Q3)
		if !(s.Q1 <= s.Median && s.Median <= s.Q3) && !opposedInfinities(sorted) {
			t.Fatalf("q1 %g, median %g, q3 %g are not in order", s.Q1, s.Median, s.Q3)
		}
		if len(finite) == s.N {
			within("mean", s.Mean)
			for name, v := range map[string]float64{"MAD": s.MAD, "IQR": s.IQR, "stddev": s.StdDevPopulation, "sample stddev": s.StdDevSample} {
				if !(v >= 0) {
					t.Fatalf("%s = %g for finite values %g", name, v, xs)
				}
			}
		}
		if len(finite) == s.N && s.Min < s.Max {
			// Different values have a spread, whatever their scale (the
			// squares of values near 1e-170 underflow unscaled), unless
			// it is below the smallest float64: the population stddev
			// is at least range/√(2n).
			if floor := (s.Max - s.Min) / math.Sqrt(2*float64(s.N)); floor > 1e-323 && (!(s.StdDevPopulation > 0) || s.Mean != 0 && !(s.CV > 0)) {
				t.Fatalf("values %g of different magnitudes have stddev %g, CV %g", xs, s.StdDevPopulation, s.CV)
			}
			// Scaled by a power of two that keeps every value a normal
			// float64, the standard deviations scale exactly.
			for _, k := range []int{-500, 500} {
				scaled, ok := make([]float64, 0, len(finite)), true
				for _, x := range finite {
					y := math.Ldexp(x, k)
					ok = ok && !math.IsInf(y, 0) && (x == 0 || math.Abs(x) >= minNormal && math.Abs(y) >= minNormal)
					scaled = append(scaled, y)
				}
				if !ok {
					continue
				}
				ss := Summarize(scaled)
				for _, f := range [][2]float64{{s.StdDevPopulation, ss.StdDevPopulation}, {s.StdDevSample, ss.StdDevSample}} {
					if want := math.Ldexp(f[0], k); f[0] >= minNormal && !math.IsInf(want, 0) && math.Abs(want) >= minNormal && f[1] != want {
						t.Fatalf("values %g scaled by 2^%d: stddev %g, want %g", finite, k, f[1], want)
					}
				}
			}
		}
		o := Tukey(xs)
		for _, idx := range [][]int{o.LowSevere, o.LowMild, o.HighMild, o.HighSevere} {
			for _, i := range idx {
				if i < 0 || i >= len(xs) {
					t.Fatalf("Tukey outlier index %d of %d values", i, len(xs))
				}
			}
		}
		if o.Count() > len(xs) {
			t.Fatalf("Tukey found %d outliers in %d values", o.Count(), len(xs))
		}
	})
}

// minNormal is the smallest positive normal float64.
const minNormal = 0x1p-1022

// sameSummary compares two summaries, NaN equal to NaN.
func sameSummary(a, b Summary) bool {
	same := func(x, y float64) bool { return x == y || math.IsNaN(x) && math.IsNaN(y) }
	return a.N == b.N && same(a.Min, b.Min) && same(a.Max, b.Max) && same(a.Mean, b.Mean) && same(a.Median, b.Median) &&
		same(a.StdDevSample, b.StdDevSample) && same(a.StdDevPopulation, b.StdDevPopulation) && same(a.MAD, b.MAD) &&
		same(a.Q1, b.Q1) && same(a.Q3, b.Q3) && same(a.CV, b.CV) && len(a.Warnings) == len(b.Warnings)
}

// FuzzQuantile: for every one of the nine methods, Quantile never panics,
// is monotone in q (q1 <= q2 gives Quantile(q1) <= Quantile(q2)) and
// stays within [min, max] of a sample without NaN; percentilesOf agrees
// with Percentile; a sample with NaN gives NaN, and so does q outside
// [0, 1].
func FuzzQuantile(f *testing.F) {
	seedFloats(f)
	f.Fuzz(func(t *testing.T, data []byte) {
		xs := fuzzFloats(data)
		if len(xs) < 2 {
			return
		}
		// The two last values are the probabilities, folded into [0, 1].
		fold := func(x float64) float64 {
			if math.IsNaN(x) || math.IsInf(x, 0) {
				return 0.5
			}
			return math.Abs(x - math.Trunc(x))
		}
		q1, q2 := fold(xs[len(xs)-2]), fold(xs[len(xs)-1])
		if q1 > q2 {
			q1, q2 = q2, q1
		}
		xs = xs[:len(xs)-2]
		if len(xs) == 0 {
			return
		}
		sorted := slices.Clone(xs)
		slices.Sort(sorted)
		hasNaN := math.IsNaN(sorted[0])
		for _, m := range Methods {
			a, b := Quantile(sorted, q1, m), Quantile(sorted, q2, m)
			if hasNaN {
				if !math.IsNaN(a) || !math.IsNaN(b) {
					t.Fatalf("%s: a sample with NaN has quantiles %g, %g", m, a, b)
				}
				continue
			}
			if (math.IsNaN(a) || math.IsNaN(b)) && opposedInfinities(sorted) {
				// Between -Inf and +Inf there is no value (see lerp):
				// NaN there, and only there.
				for _, v := range []float64{a, b} {
					if !math.IsNaN(v) && !math.IsInf(v, 0) {
						t.Fatalf("%s: quantile %g of %g", m, v, sorted)
					}
				}
				continue
			}
			if !(a <= b) {
				t.Fatalf("%s: Quantile(%v) = %g > Quantile(%v) = %g for %g", m, q1, a, q2, b, sorted)
			}
			for _, v := range []float64{a, b} {
				if !(sorted[0] <= v && v <= sorted[len(sorted)-1]) {
					t.Fatalf("%s: quantile %g outside [%g, %g] (q %v, %v; sample %g)", m, v, sorted[0], sorted[len(sorted)-1], q1, q2, sorted)
				}
			}
			ps := percentilesOf(xs, []float64{q1 * 100, q2 * 100, -1, 101}, m)
			if math.Float64bits(ps[0]) != math.Float64bits(Percentile(xs, q1*100, m)) || !math.IsNaN(ps[2]) || !math.IsNaN(ps[3]) {
				t.Fatalf("%s: Percentiles = %g", m, ps)
			}
		}
	})
}

// FuzzMedianCI: MedianCI never panics; with enough values its interval is
// two order statistics lo <= hi of the sample (so within [min, max]) that
// hold the median, with a coverage of at least the confidence; too few
// values or a bad confidence give a one-line error.
func FuzzMedianCI(f *testing.F) {
	seedFloats(f)
	f.Fuzz(func(t *testing.T, data []byte) {
		xs := fuzzFloats(data)
		conf := 0.95
		if len(xs) > 0 {
			conf, xs = xs[0], xs[1:]
		}
		iv, err := MedianCI(xs, conf)
		if err != nil {
			if msg := err.Error(); !strings.HasPrefix(msg, "stats: ") || strings.Contains(msg, "\n") {
				t.Fatalf("error %q", msg)
			}
			return
		}
		var clean []float64
		for _, x := range xs {
			if !math.IsNaN(x) {
				clean = append(clean, x)
			}
		}
		med := Median(clean)
		if math.IsNaN(med) && opposedInfinities(clean) {
			med = iv.Lo // the median has no value; the interval's ends are still checked
		}
		if !(iv.Lo <= iv.Hi) || !slices.Contains(clean, iv.Lo) || !slices.Contains(clean, iv.Hi) ||
			!(iv.Lo <= med && med <= iv.Hi) || !(iv.Coverage >= conf) || iv.Coverage > 1 {
			t.Fatalf("MedianCI(%g, %v) = %+v (median %g)", clean, conf, iv, med)
		}
	})
}

// FuzzLinearBins: LinearBins never panics (it did with -1e308 and 1e308,
// and with a range of a few subnormals: testdata/fuzz/FuzzLinearBins);
// its bins are contiguous, strictly increasing, span [min, max] of the
// finite values and hold each of them once; there are at most n (fewer
// only where the range holds fewer distinct float64 values; one bin for
// one distinct value, none for none).
func FuzzLinearBins(f *testing.F) {
	seedFloats(f)
	f.Fuzz(func(t *testing.T, data []byte) {
		xs := fuzzFloats(data)
		n := 1
		if len(data) > 0 {
			n = int(data[len(data)-1])%64 - 1 // -1 to 62
		}
		var finite []float64
		for _, x := range xs {
			if !math.IsNaN(x) && !math.IsInf(x, 0) {
				finite = append(finite, x)
			}
		}
		bins := LinearBins(xs, n)
		switch {
		case n < 1 || len(finite) == 0:
			if len(bins) != 0 {
				t.Fatalf("LinearBins(n=%d) of %d finite values = %d bins", n, len(finite), len(bins))
			}
			return
		case slices.Min(finite) == slices.Max(finite):
			if len(bins) != 1 {
				t.Fatalf("one distinct value: %d bins", len(bins))
			}
		case len(bins) < 1 || len(bins) > n:
			// (Fewer than n where the range holds fewer than n+1
			// distinct float64 values: a few subnormals.)
			t.Fatalf("LinearBins(n=%d) = %d bins", n, len(bins))
		}
		total := 0
		for i, b := range bins {
			total += b.Count
			if b.Count < 0 || !(b.Lo < b.Hi || len(bins) == 1) || i > 0 && b.Lo != bins[i-1].Hi {
				t.Fatalf("bin %d of %d is %+v (previous %+v)", i, len(bins), b, bins[max(i-1, 0)])
			}
		}
		if total != len(finite) || bins[0].Lo != slices.Min(finite) || bins[len(bins)-1].Hi != slices.Max(finite) {
			t.Fatalf("bins hold %d of %d values and span [%g, %g], want [%g, %g]", total, len(finite),
				bins[0].Lo, bins[len(bins)-1].Hi, slices.Min(finite), slices.Max(finite))
		}
	})
}

// FuzzMannWhitney: MannWhitneyU never panics; its p-value is within
// [MinPValue(na, nb), 1] and the same with the samples swapped (the test
// is two-sided); U is within [0, na·nb]; an empty sample or NaN is an
// error. CompareMedians (bootstrap interval plus the test) never panics
// and calls a difference significant only when p <= alpha and the
// interval excludes 1.
func FuzzMannWhitney(f *testing.F) {
	seedFloats(f)
	f.Add([]byte{1, 10, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12}) // first byte after the mode splits
	f.Fuzz(func(t *testing.T, data []byte) {
		xs := fuzzFloats(data)
		if len(xs) > 600 {
			xs = xs[:600] // the exact test costs up to na²·nb²/3 steps
		}
		split := 0
		if len(data) > 1 && len(xs) > 0 {
			split = int(data[1]) % (len(xs) + 1)
		}
		a, b := xs[:split], xs[split:]
		r, err := MannWhitneyU(a, b)
		if err != nil {
			if len(a) > 0 && len(b) > 0 && !slices.ContainsFunc(xs, math.IsNaN) {
				t.Fatalf("MannWhitneyU(%g, %g): %v", a, b, err)
			}
			return
		}
		if !(r.P >= MinPValue(len(a), len(b)) && r.P <= 1) || !(r.U >= 0 && r.U <= float64(len(a))*float64(len(b))) {
			t.Fatalf("MannWhitneyU(%g, %g) = %+v (MinPValue %g)", a, b, r, MinPValue(len(a), len(b)))
		}
		r2, err := MannWhitneyU(b, a)
		if err != nil || math.Abs(r2.P-r.P) > 1e-9*r.P {
			t.Fatalf("p-value %g, %g with the samples swapped (%v)", r.P, r2.P, err)
		}
		if len(xs) <= 64 { // the bootstrap takes 1000 resamples at least
			mr, err := CompareMedians(a, b, Confidence, Alpha, 1)
			if mr.Significant && (err != nil || mr.MannWhitney.P > Alpha || mr.CI.Contains(1)) {
				t.Fatalf("CompareMedians(%g, %g) = %+v, %v: significant without p <= alpha and 1 outside the interval", a, b, mr, err)
			}
		}
	})
}

// FuzzHistogram: an HDR histogram of any geometry NewHistogram accepts
// records any values without panicking; Count counts them, Min and Max
// are the exact extremes, quantiles are monotone and within [Min, Max];
// merging two histograms adds their counts and keeps the extremes; Bins
// are contiguous and hold the recorded values; the JSON form reads back
// to the same histogram. A geometry NewHistogram refuses gets an error,
// not the library's panic.
func FuzzHistogram(f *testing.F) {
	f.Add(int64(1), int64(3_600_000_000_000), uint8(3), []byte{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16})
	f.Add(int64(1), int64(10000), uint8(2), []byte{0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0, 0, 0, 0, 0, 0, 0, 0x80})
	f.Add(int64(1000), int64(2000), uint8(5), []byte{1})
	f.Add(int64(1<<40), int64(1<<62), uint8(5), []byte{})
	f.Add(int64(0), int64(-1), uint8(0), []byte{})
	f.Fuzz(func(t *testing.T, lowest, highest int64, sigfigs uint8, data []byte) {
		if sigfigs > 3 && highest/max(lowest, 1) > 1<<24 {
			return // tens of MB per histogram: too slow to fuzz, and not what is tested here
		}
		h, err := NewHistogram(lowest, highest, int(sigfigs))
		if err != nil {
			if msg := err.Error(); !strings.HasPrefix(msg, "stats: ") || strings.Contains(msg, "\n") {
				t.Fatalf("error %q", msg)
			}
			return
		}
		other, _ := NewHistogram(1, 1<<30, 2)
		var vals []int64
		for i := 0; i+8 <= len(data); i += 8 {
			v := int64(binary.LittleEndian.Uint64(data[i:]))
			if data[i]%4 == 0 {
				v %= 1 << 20 // mostly in range, some not
			}
			vals = append(vals, v)
			h.Record(v)
			other.Record(v / 3)
		}
		checkHDR(t, h, vals)
		var both []int64
		for _, v := range vals {
			both = append(both, v, v/3)
		}
		h.Merge(other)
		checkHDR(t, h, both)
		b, err := h.MarshalJSON()
		if err != nil {
			t.Fatalf("MarshalJSON: %v", err)
		}
		var back Histogram
		if err := back.UnmarshalJSON(b); err != nil {
			t.Fatalf("UnmarshalJSON(MarshalJSON()): %v\n%s", err, b)
		}
		b2, _ := back.MarshalJSON()
		if string(b) != string(b2) {
			t.Fatalf("JSON round trip:\n%s\n%s", b, b2)
		}
	})
}

// checkHDR checks h against the values recorded into it.
func checkHDR(t *testing.T, h *Histogram, vals []int64) {
	t.Helper()
	if h.Count() != int64(len(vals)) {
		t.Fatalf("Count = %d after %d values", h.Count(), len(vals))
	}
	if len(vals) == 0 {
		return
	}
	if h.Min() != slices.Min(vals) || h.Max() != slices.Max(vals) {
		t.Fatalf("Min, Max = %d, %d; want %d, %d", h.Min(), h.Max(), slices.Min(vals), slices.Max(vals))
	}
	prev := h.Quantile(0)
	for _, q := range []float64{0, 0.001, 0.25, 0.5, 0.9, 0.99, 0.999999, 1} {
		v := h.Quantile(q)
		if v < prev || v < h.Min() || v > h.Max() {
			t.Fatalf("Quantile(%v) = %d (previous %d, min %d, max %d)", q, v, prev, h.Min(), h.Max())
		}
		prev = v
	}
	bounds, counts := h.Bins()
	if len(bounds) != len(counts)+1 {
		t.Fatalf("Bins: %d bounds for %d counts", len(bounds), len(counts))
	}
	var total int64
	for i, c := range counts {
		total += c
		if c < 0 || !(bounds[i+1] > bounds[i]) {
			t.Fatalf("Bins: bin %d is [%g, %g) with %d values", i, bounds[i], bounds[i+1], c)
		}
	}
	// Bins' doc says under- and overflows are not in the bins, but
	// Record keeps them at 0 and at the highest trackable value, where
	// Bins counts them: accept either until that is settled.
	if total > h.Count() || total < h.Count()-h.Underflows()-h.Overflows() {
		t.Fatalf("Bins hold %d values of %d (%d under-, %d overflows)", total, h.Count(), h.Underflows(), h.Overflows())
	}
}

// FuzzHistogramJSON: reading any JSON as an HDR histogram never panics;
// what it accepts writes back to JSON that reads the same.
func FuzzHistogramJSON(f *testing.F) {
	if b, err := os.ReadFile("testdata/histogram.golden.json"); err == nil {
		f.Add(b)
	}
	f.Add([]byte(`{"lowest":1,"highest":1000,"sigfigs":2,"count":1,"min":5,"max":5,"counts":[[5,1]]}`))
	f.Add([]byte(`{"lowest":1,"highest":9223372036854775807,"sigfigs":1,"count":0,"min":0,"max":0,"counts":[]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		var h Histogram
		if err := h.UnmarshalJSON(data); err != nil {
			return
		}
		b, err := h.MarshalJSON()
		if err != nil {
			t.Fatalf("MarshalJSON of an accepted histogram: %v", err)
		}
		var back Histogram
		if err := back.UnmarshalJSON(b); err != nil {
			t.Fatalf("UnmarshalJSON(MarshalJSON()): %v\n%s", err, b)
		}
		if b2, _ := back.MarshalJSON(); string(b) != string(b2) {
			t.Fatalf("JSON round trip:\n%s\n%s", b, b2)
		}
	})
}

// FuzzParsePercentiles: ParsePercentiles (-p/--percentiles) never
// panics; an error is one short line starting with "stats: "; every
// percentile is within [0, 100], there are no more than there are
// commas plus one, and their labels (PercentileLabel) parse back to them.
func FuzzParsePercentiles(f *testing.F) {
	for _, s := range []string{"50,90,99,99.9", "p50, P99", "50,,90", "", ",", "101", "-1", "NaN", "1e2", "0x1p6",
		strings.Repeat("9", 500), "50," + strings.Repeat("x", 500)} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		ps, err := ParsePercentiles(s)
		if err != nil {
			if msg := err.Error(); !strings.HasPrefix(msg, "stats: ") || strings.ContainsAny(msg, "\n\r") || len(msg) > 300 {
				t.Fatalf("error is not one short line starting with \"stats: \" (%d bytes): %.1000q", len(msg), msg)
			}
			return
		}
		if len(ps) == 0 || len(ps) > strings.Count(s, ",")+1 {
			t.Fatalf("ParsePercentiles(%q) = %v", s, ps)
		}
		labels := make([]string, len(ps))
		for i, p := range ps {
			if !(p >= 0 && p <= 100) {
				t.Fatalf("ParsePercentiles(%q) = %v", s, ps)
			}
			labels[i] = PercentileLabel(p)
		}
		back, err := ParsePercentiles(strings.Join(labels, ","))
		if err != nil || !slices.Equal(back, ps) {
			t.Fatalf("labels %q parse to %v, %v; want %v", labels, back, err, ps)
		}
	})
}

// FuzzParseMethod: ParseMethod (--percentile-method) never panics; it
// accepts the nine methods (case-insensitive, '-' for '_') and gives
// back a valid one, and its error is one short line.
func FuzzParseMethod(f *testing.F) {
	for _, m := range Methods {
		f.Add(string(m))
	}
	for _, s := range []string{"", "Median-Unbiased", " linear ", "type7", "7", strings.Repeat("x", 500)} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		m, err := ParseMethod(s)
		if err != nil {
			if msg := err.Error(); !strings.HasPrefix(msg, "stats: ") || strings.ContainsAny(msg, "\n\r") || len(msg) > 500 {
				t.Fatalf("error is not one short line starting with \"stats: \" (%d bytes): %.1000q", len(msg), msg)
			}
			return
		}
		if !m.valid() || s != "" && !strings.EqualFold(strings.ReplaceAll(strings.TrimSpace(s), "-", "_"), string(m)) {
			t.Fatalf("ParseMethod(%q) = %q", s, m)
		}
		if n := m.hyndmanFanType(); n < 1 || n > 9 || strconv.Itoa(n) == "" {
			t.Fatalf("%s has type %d", m, n)
		}
	})
}

// opposedInfinities reports whether the values of sorted that are not NaN
// are all infinite, with both signs: the one kind of sample whose median
// (and the quantiles interpolated between its -Inf and +Inf) have no
// value, so Quantile gives NaN there by definition (see lerp).
func opposedInfinities(sorted []float64) bool {
	neg, pos := false, false
	for _, x := range sorted {
		switch {
		case math.IsNaN(x):
		case math.IsInf(x, -1):
			neg = true
		case math.IsInf(x, 1):
			pos = true
		default:
			return false
		}
	}
	return neg && pos
}
