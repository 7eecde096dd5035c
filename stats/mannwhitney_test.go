package stats

import (
	"fmt"
	"math"
	"math/bits"
	"math/rand/v2"
	"slices"
	"testing"
)

// bruteTails enumerates every split of the pooled values (groups of equal
// values, increasing) into m sample values and the rest, and returns the
// exact P(W <= w) and P(W >= w) for W = 2U of the sample, for every w.
func bruteTails(groups []int, m int) (le, ge []float64) {
	var label []int // group index of each pooled value
	for g, t := range groups {
		for range t {
			label = append(label, g)
		}
	}
	n := len(label)
	counts := make([]float64, 2*m*(n-m)+1)
	total := 0.0
	for mask := uint32(0); mask < 1<<n; mask++ {
		if bits.OnesCount32(mask) != m {
			continue
		}
		w := 0
		for i := range n {
			if mask&(1<<i) == 0 {
				continue
			}
			for j := range n {
				if mask&(1<<j) != 0 {
					continue
				}
				switch {
				case label[i] > label[j]:
					w += 2
				case label[i] == label[j]:
					w++
				}
			}
		}
		counts[w]++
		total++
	}
	le = make([]float64, len(counts))
	ge = make([]float64, len(counts))
	acc := 0.0
	for w, c := range counts {
		acc += c
		le[w] = acc / total
	}
	acc = 0
	for w := len(counts) - 1; w >= 0; w-- {
		acc += counts[w]
		ge[w] = acc / total
	}
	return le, ge
}

// The exact tails must equal a brute-force enumeration of every split, for
// random tie patterns, every sample size and every value of W.
func TestMWUExactAgainstEnumeration(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 12))
	patterns := [][]int{{1}, {2}, {1, 1}, {3, 3}, {1, 1, 1, 1, 1, 1, 1, 1}, {2, 1, 1}, {1, 1, 4}, {5, 1, 1, 1, 5}}
	for range 40 {
		var g []int
		n := 0
		for n < 14 {
			t := 1 + r.IntN(4)
			if r.IntN(3) > 0 {
				t = 1
			}
			g = append(g, min(t, 14-n))
			n += g[len(g)-1]
		}
		patterns = append(patterns, g)
	}
	for _, g := range patterns {
		n := 0
		for _, t := range g {
			n += t
		}
		for m := 1; m < n; m++ {
			le, ge := bruteTails(g, m)
			for w := range le {
				lo, up := mwuExactTails(g, m, w)
				if !close(lo, le[w], 1e-13) || !close(up, ge[w], 1e-13) {
					t.Fatalf("groups %v m=%d W=%d: tails %v %v, enumeration %v %v", g, m, w, lo, up, le[w], ge[w])
				}
			}
		}
	}
}

// tieGroups returns the sizes of the groups of equal values of a ∪ b, in
// increasing order of value.
func tieGroups(a, b []float64) []int {
	all := slices.Sorted(slices.Values(append(slices.Clone(a), b...)))
	var g []int
	for i := 0; i < len(all); {
		j := i + 1
		for j < len(all) && all[j] == all[i] {
			j++
		}
		g = append(g, j-i)
		i = j
	}
	return g
}

// x/perf's own test vectors for the Mann-Whitney test: go-moremath's
// stats/utest_test.go (two-sided p of check3) and benchmath's
// assumption_test.go (TestCompareNone). Where ours differs the reason is
// given and checked: x/perf's two-sided p with ties uses the lower tail of
// the first sample's distribution at min(U1, U2), which is wrong when
// U1 > U2 and that distribution is not symmetric.
func TestMannWhitneyXPerfVectors(t *testing.T) {
	s1 := []float64{2, 1, 3, 5}
	s2 := []float64{12, 11, 13, 15}
	s3 := []float64{0, 4, 6, 7}
	s4 := []float64{2, 2, 2, 2}
	s5 := []float64{1, 1, 1, 1, 1}
	l1 := make([]float64, 500)
	for i := range l1 {
		l1[i] = float64(i * 2)
	}
	l2 := make([]float64, 600)
	for i := range l2 {
		l2[i] = float64(i*2 - 41)
	}
	l3 := slices.Clone(l2)
	copy(l3[:30], l1)
	for _, c := range []struct {
		name    string
		a, b    []float64
		u       float64
		xperf   float64 // x/perf's two-sided p; NaN: an error (ErrSamplesEqual), shown as P=1
		want    float64 // ours, when it differs
		exact   bool
		tieNote string
	}{
		{"s1 s2", s1, s2, 0, 0.028571428571428577, 0, true, ""},
		{"s2 s1", s2, s1, 16, 0.028571428571428577, 0, true, ""},
		{"s1 s3", s1, s3, 5, 0.48571428571428577, 0, true, ""},
		{"s1 s1", s1, s1, 8, 1, 0, true, ""},
		{"s1 s4", s1, s4, 10, 0.7142857142857143, 0, true, ""},
		// U1 = 17.5 > U2 = 2.5: x/perf evaluates the lower tail at 2.5
		// where the first sample's U cannot go (its one-sided "greater"
		// p is 0.0476, so the two-sided one cannot be 0).
		{"s1 s5", s1, s5, 17.5, 0, 2 * 0.04761904761904767, true, "x/perf 0: wrong tail"},
		{"s4 s4", s4, s4, 8, math.NaN(), 0, true, ""},
		{"l1 l2", l1, l2, 135250, 0.0049335360814172224, 0, false, ""},
		{"l1 l1", l1, l1, 125000, 1, 0, false, ""},
		{"l1 l3", l1, l3, 134845, 0.0038703814239617884, 0, false, ""},
		{"benchmath 3v3 tied", []float64{-1, -1, -1}, []float64{1, 1, 1}, 0, 0.1, 0, true, ""},
		{"benchmath 4v4 tied", []float64{-1, -1, -1, -1}, []float64{1, 1, 1, 1}, 0, 0.02857142857142857, 0, true, ""},
		{"benchmath 4v4 mixed", []float64{1, -1, -1, -1}, []float64{-1, 1, 1, 1}, 4, 0.4857142857142857, 0, true, ""},
		{"benchmath all equal", []float64{1, 1, 1, 1}, []float64{1, 1, 1, 1}, 8, math.NaN(), 0, true, ""},
	} {
		r, err := MannWhitneyU(c.a, c.b)
		if err != nil {
			t.Errorf("%s: %v", c.name, err)
			continue
		}
		want := c.xperf
		if c.tieNote != "" {
			want = c.want
		} else if math.IsNaN(want) {
			want = 1 // benchstat reports P=1, "all samples are equal"
		}
		if r.U != c.u || r.Exact != c.exact || !close(r.P, want, 1e-14) {
			t.Errorf("%s: U=%v p=%v exact=%v; want U=%v p=%v exact=%v (x/perf p=%v %s)", c.name, r.U, r.P, r.Exact, c.u, want, c.exact, c.xperf, c.tieNote)
		}
		if c.tieNote != "" {
			// x/perf's figure is the lower tail of the first sample at
			// min(U1, U2), doubled: the same distribution, the wrong tail.
			m := len(c.a)
			u2 := float64(len(c.a)*len(c.b)) - r.U
			lo, _ := mwuExactTails(tieGroups(c.a, c.b), m, int(2*u2))
			if !close(2*lo, c.xperf, 1e-14) {
				t.Errorf("%s: x/perf's formula gives %v from our distribution, x/perf %v", c.name, 2*lo, c.xperf)
			}
		}
	}
}

// Tables of the null distribution of U from x/perf's tests (go-moremath
// stats/udist_test.go): Mann and Whitney (1947) without ties, Klotz (1966)
// with ties. They list P(U <= u) to 6 digits.
func TestMWUExactTables(t *testing.T) {
	// P(U <= u) for m values against n = 3 and 5, u = 0..5.
	mw := map[int][][]float64{
		3: {
			{0.250000, 0.100000, 0.050000},
			{0.500000, 0.200000, 0.100000},
			{0.750000, 0.400000, 0.200000},
			{1.000000, 0.600000, 0.350000},
			{1.000000, 0.800000, 0.500000},
			{1.000000, 0.900000, 0.650000},
		},
		5: {
			{0.166667, 0.047619, 0.017857, 0.007937, 0.003968},
			{0.333333, 0.095238, 0.035714, 0.015873, 0.007937},
			{0.500000, 0.190476, 0.071429, 0.031746, 0.015873},
			{0.666667, 0.285714, 0.125000, 0.055556, 0.027778},
			{0.833333, 0.428571, 0.196429, 0.095238, 0.047619},
			{1.000000, 0.571429, 0.285714, 0.142857, 0.075397},
		},
	}
	for n, table := range mw {
		for u, row := range table {
			for i, want := range row {
				m := i + 1
				g := slices.Repeat([]int{1}, m+n)
				got, _ := mwuExactTails(g, m, 2*u)
				if u >= m*n {
					got = 1
				}
				if math.Abs(got-want) > 1e-6 {
					t.Errorf("Mann-Whitney table n=%d m=%d U=%d: %v, table %v", n, m, u, got, want)
				}
			}
		}
	}
	// Klotz's tables: sample size m of N values with tie vector t; x is
	// his statistic, U = x - m²/2.
	for _, k := range []struct {
		m, n int
		t    []int
		rows [][2]float64 // x, P(U <= x - m²/2)
	}{
		{5, 10, []int{1, 1, 2, 1, 1, 2, 1, 1}, [][2]float64{
			{12.5, 0.003968}, {13.5, 0.007937}, {15.0, 0.023810}, {16.5, 0.047619},
			{17.5, 0.071429}, {18.0, 0.087302}, {19.0, 0.134921}, {19.5, 0.138889}}},
		{10, 21, []int{6, 5, 4, 3, 2, 1}, [][2]float64{
			{52.0, 0.000014}, {56.5, 0.000128}, {57.5, 0.000145}, {60.0, 0.000230},
			{61.0, 0.000400}, {62.0, 0.000740}, {62.5, 0.000797}, {64.0, 0.000825},
			{64.5, 0.001165}, {65.5, 0.001477}, {66.5, 0.002498}, {67.0, 0.002725},
			{67.5, 0.002895}, {68.0, 0.003150}, {68.5, 0.003263}, {69.0, 0.003518},
			{69.5, 0.003603}, {70.0, 0.005648}, {70.5, 0.005818}, {71.0, 0.006626},
			{71.5, 0.006796}, {72.0, 0.008157}, {72.5, 0.009688}, {73.0, 0.009801},
			{73.5, 0.010430}, {74.0, 0.011111}, {74.5, 0.014230}, {75.0, 0.014612},
			{75.5, 0.017249}, {76.0, 0.018307}, {76.5, 0.020178}, {77.0, 0.022270},
			{77.5, 0.023189}, {78.0, 0.026931}, {78.5, 0.028207}, {79.0, 0.029979},
			{79.5, 0.030931}, {80.0, 0.038969}, {80.5, 0.043063}, {81.0, 0.044262},
			{81.5, 0.046389}, {82.0, 0.049581}, {82.5, 0.056300}, {83.0, 0.058027},
			{83.5, 0.063669}, {84.0, 0.067454}, {84.5, 0.074122}, {85.0, 0.077425},
			{85.5, 0.083498}, {86.0, 0.094079}, {86.5, 0.096693}, {87.0, 0.101132}}},
		{8, 16, []int{2, 2, 2, 2, 2, 2, 2, 2}, [][2]float64{
			{32.0, 0.000078}, {34.0, 0.000389}, {36.0, 0.001088}, {38.0, 0.002642},
			{40.0, 0.005905}, {42.0, 0.011500}, {44.0, 0.021057}, {46.0, 0.035664},
			{48.0, 0.057187}, {50.0, 0.086713}, {52.0, 0.126263}, {54.0, 0.175369}}},
	} {
		for _, row := range k.rows {
			w := int(2*row[0]) - k.m*k.m // 2U
			got, _ := mwuExactTails(k.t, k.m, w)
			if math.Abs(got-row[1]) > 1e-6 {
				t.Errorf("Klotz m=%d t=%v x=%v: P(U <= %v) = %v, table %v", k.m, k.t, row[0], float64(w)/2, got, row[1])
			}
		}
	}
}

// MannWhitneyU must give x/perf's p-value wherever both use the same
// method (go-moremath: exact without ties up to 50 values per sample,
// with ties up to 25; the normal approximation beyond), except for x/perf's
// errors with ties, which are reproduced from our distribution to show
// that the distributions agree (but for go-moremath's own CDF error with
// two groups of ties, which the enumeration test rules out here).
func TestMannWhitneyAgainstXPerf(t *testing.T) {
	var ref struct {
		MannWhitney []struct {
			Name string
			A, B []float64
			U, P float64
			Err  string
		} `json:"mann_whitney"`
	}
	readJSON(t, "xperf.json", &ref)
	var cmp struct {
		Cases []struct {
			Name string
			A, B []float64
		}
	}
	readJSON(t, "compare.json", &cmp)
	byName := map[string][2][]float64{}
	for _, c := range cmp.Cases {
		byName[c.Name] = [2][]float64{c.A, c.B}
	}
	if len(ref.MannWhitney) < 200 {
		t.Fatalf("%d cases", len(ref.MannWhitney))
	}
	var same, sameTies, tailBug, cdfBug, methods int
	worst, worstName := 1.0, "" // x/perf's approximation most below the exact p
	for _, c := range ref.MannWhitney {
		a, b := c.A, c.B
		if a == nil {
			ab, ok := byName[c.Name]
			if !ok {
				t.Fatalf("%s: not in compare.json (regenerate xperf.json)", c.Name)
			}
			a, b = ab[0], ab[1]
		}
		r, err := MannWhitneyU(a, b)
		if err != nil {
			t.Errorf("%s: %v", c.Name, err)
			continue
		}
		na, nb := len(a), len(b)
		groups := tieGroups(a, b)
		xpExact := !r.Ties && na <= 50 && nb <= 50 || r.Ties && na <= 25 && nb <= 25
		if c.Err != "" {
			// x/perf: ErrSamplesEqual when all values are equal;
			// benchstat shows P=1.
			if len(groups) != 1 || r.P != 1 {
				t.Errorf("%s: x/perf error %q, ours %+v", c.Name, c.Err, r)
			}
			continue
		}
		if r.U != c.U {
			t.Errorf("%s: U = %v, x/perf %v", c.Name, r.U, c.U)
		}
		switch {
		case xpExact != r.Exact:
			methods++ // x/perf approximates where this is exact
			if xpExact {
				t.Errorf("%s: x/perf exact, ours not", c.Name)
			}
			if ratio := c.P / r.P; ratio < worst {
				worst, worstName = ratio, fmt.Sprintf("%s (%dx%d, ties %v): exact %.3g, x/perf %.3g", c.Name, na, nb, r.Ties, r.P, c.P)
			}
		case !r.Ties || !r.Exact:
			same++
			want := max(c.P, MinPValue(na, nb))
			if !close(r.P, want, 1e-12) {
				t.Errorf("%s (%dx%d, exact %v): p = %v, x/perf %v", c.Name, na, nb, r.Exact, r.P, c.P)
			}
		default:
			// Exact with ties: x/perf's p is 2·P(U1 <= min(U1, U2))
			// under the distribution of the first sample's U (1 when
			// U1 = U2); ours is min(1, 2·min(P(U1 <= u), P(U1 >= u))).
			u2 := float64(na*nb) - r.U
			lo, _ := mwuExactTails(groups, na, int(math.Round(2*min(r.U, u2))))
			xp := 2 * lo
			if r.U == u2 {
				xp = 1
			}
			if !close(xp, c.P, 1e-12) {
				// go-moremath's UDist.CDF with two groups of ties is
				// not 0 below the smallest attainable U (its integer
				// division truncates a negative bound towards 0):
				// UDist{1, 2, [2 1]}.CDF(0) = 2/3, enumeration 0.
				if len(groups) != 2 || lo != 0 {
					t.Errorf("%s: x/perf's formula on our distribution gives %v, x/perf %v", c.Name, xp, c.P)
				}
				cdfBug++
			}
			if close(r.P, c.P, 1e-12) {
				sameTies++
			} else {
				tailBug++
				t.Logf("%s (%dx%d, U1 %v, U2 %v): p = %v, x/perf %v", c.Name, na, nb, r.U, u2, r.P, c.P)
			}
		}
	}
	t.Logf("equal to x/perf: %d without ties or approximated, %d exact with ties; differ by x/perf's tie errors: %d (%d of them its two-group CDF); x/perf approximates where this is exact: %d",
		same, sameTies, tailBug, cdfBug, methods)
	t.Logf("x/perf's approximation furthest below the exact p: %s", worstName)
}

// P is never below MinPValue, so significanceWarning never contradicts
// the test: when it warns, no data of those sizes is significant.
func TestSignificanceFloor(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 9))
	sizes := [][2]int{{1, 1}, {1, 2}, {2, 2}, {3, 3}, {1, 30}, {1, 39}, {1, 40}, {2, 6}, {2, 7}, {3, 4},
		{4, 4}, {1, 2500}, {1, 2501}, {1, 3000}, {2, 1251}, {50, 51}}
	for _, nn := range sizes {
		na, nb := nn[0], nn[1]
		floor := MinPValue(na, nb)
		for trial := range 6 {
			// Separated samples reach the floor (exact) or go below it
			// (approximation); ties make the approximation worse.
			a, b := make([]float64, na), make([]float64, nb)
			for i := range a {
				a[i] = float64(r.IntN(1 + trial))
			}
			for i := range b {
				b[i] = 100 + float64(r.IntN(1+trial))
			}
			res, err := MannWhitneyU(a, b)
			if err != nil {
				t.Fatal(err)
			}
			if res.P < floor {
				t.Errorf("%dx%d: p = %v below the floor %v", na, nb, res.P, floor)
			}
			if res.Exact && res.P != floor && trial == 0 {
				t.Errorf("%dx%d separated, exact: p = %v, want the floor %v", na, nb, res.P, floor)
			}
			for _, alpha := range []float64{1e-9, 1e-4, 0.001, 0.01, 0.05, 0.1, floor} {
				if _, warns := significanceWarning(na, nb, alpha); warns && res.Significant(alpha) {
					t.Errorf("%dx%d alpha %v: significant (p = %v) while SignificanceWarning says p >= %v", na, nb, alpha, res.P, floor)
				}
			}
			if _, warns := significanceWarning(na, nb, 0.05); warns {
				if cm, err := CompareMedians(a, b, 0.95, 0.05, 1); err != nil || cm.Significant {
					t.Errorf("%dx%d: CompareMedians significant (%+v, %v) while SignificanceWarning warns", na, nb, cm, err)
				}
			}
		}
	}
	// The cases: {1,1,1} vs {2,2,2} gave p = 0.047 and was called
	// significant; 4 vs 4 all tied gave 0.013 below the floor 0.029.
	for _, c := range []struct {
		a, b []float64
		p    float64
		sig  bool
	}{
		{[]float64{1, 1, 1}, []float64{2, 2, 2}, 0.1, false},
		{[]float64{1, 1, 1, 1}, []float64{2, 2, 2, 2}, 2.0 / 70, true},
	} {
		res, _ := MannWhitneyU(c.a, c.b)
		cm, _ := CompareMedians(c.a, c.b, 0.95, 0.05, 1)
		_, warns := significanceWarning(len(c.a), len(c.b), 0.05)
		if res.P != c.p || res.P != MinPValue(len(c.a), len(c.b)) || res.Significant(0.05) != c.sig || warns == c.sig || cm.MannWhitney.P != c.p {
			t.Errorf("%v vs %v: p = %v (want %v, the floor), significant %v, warning %v", c.a, c.b, res.P, c.p, res.Significant(0.05), warns)
		}
	}
	// Significant is P <= alpha: the floor itself is significant.
	if !(MannWhitneyResult{P: 0.1}).Significant(0.1) || (MannWhitneyResult{P: 0.1}).Significant(0.0999) {
		t.Error("Significant is not P <= alpha")
	}
}

// The exact test stays exact at the limit and costs little there; the
// approximation takes over above it.
func TestMannWhitneyExactLimit(t *testing.T) {
	for _, c := range []struct {
		na, nb int
		exact  bool
	}{{50, 50, true}, {1, 2500, true}, {2500, 1, true}, {10, 250, true}, {51, 50, false}, {1, 2501, false}, {8, 400, false}, {100000, 1, false}} {
		a, b := benchSample(c.na), benchSample(c.nb)
		r, err := MannWhitneyU(a, b)
		if err != nil || r.Exact != c.exact || !(r.P > 0 && r.P <= 1) {
			t.Errorf("%dx%d: %+v %v, want exact=%v", c.na, c.nb, r, err, c.exact)
		}
	}
}

// TestMannWhitneyUSorted: of sorted copies it gives MannWhitneyU's
// result, with ties and on both sides of the exact limit, and its errors
// for an empty sample or NaN.
func TestMannWhitneyUSorted(t *testing.T) {
	for _, tt := range []struct{ a, b []float64 }{
		{[]float64{3, 1, 2, 2, 5}, []float64{4, 4, 0, 6}},
		{[]float64{1, 1, 1}, []float64{1, 1}},
		{spreadOf(200, 3), spreadOf(300, 5)},
	} {
		want, werr := MannWhitneyU(tt.a, tt.b)
		got, err := MannWhitneyUSorted(slices.Sorted(slices.Values(tt.a)), slices.Sorted(slices.Values(tt.b)))
		if got != want || (err == nil) != (werr == nil) {
			t.Errorf("%v %v: %+v, %v; MannWhitneyU %+v, %v", tt.a, tt.b, got, err, want, werr)
		}
	}
	for _, tt := range []struct{ a, b []float64 }{{nil, []float64{1}}, {[]float64{math.NaN(), 1}, []float64{2}}, {[]float64{1}, []float64{2, math.NaN()}}} {
		_, werr := MannWhitneyU(tt.a, tt.b)
		if _, err := MannWhitneyUSorted(tt.a, tt.b); err == nil || werr == nil || err.Error() != werr.Error() {
			t.Errorf("%v %v: error %v, MannWhitneyU's %v", tt.a, tt.b, err, werr)
		}
	}
}

// spreadOf is n values from 0 to k-1 and beyond, in a scrambled order.
func spreadOf(n, k int) []float64 {
	xs := make([]float64, n)
	for i := range xs {
		xs[i] = float64((i*7919)%(n+k)) / float64(k)
	}
	return xs
}
