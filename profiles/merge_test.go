package profiles

import (
	"maps"
	"strings"
	"testing"

	"github.com/google/pprof/profile"
)

func TestMergeWeights(t *testing.T) {
	// a holds 100 samples in f, b 300 in g (and both 1 sample in h, the
	// tail that rounding must not drop).
	mk := func() (*profile.Profile, *profile.Profile) {
		a := build([]stack{{[]string{"f", "main"}, 99}, {[]string{"h", "main"}, 1}})
		b := build([]stack{{[]string{"g", "main"}, 299}, {[]string{"h", "main"}, 1}})
		return a, b
	}
	tests := []struct {
		name        string
		how         Weighting
		wa, wb      float64
		wantFactors []float64
		want        map[string]int64 // samples/count per leaf
	}{
		{"factor 1 and 1 is a plain merge", ByFactor, 1, 1, []float64{1, 1},
			map[string]int64{"f": 99, "g": 299, "h": 2}},
		{"factor 2 and 3 multiplies exactly", ByFactor, 2, 3, []float64{2, 3},
			map[string]int64{"f": 198, "g": 897, "h": 5}},
		// 0.5 and 1 are scaled by 200 so that the smallest is 100.
		{"factor 0.5 and 1 keeps count-1 samples", ByFactor, 0.5, 1, []float64{100, 200},
			map[string]int64{"f": 9900, "g": 59800, "h": 300}},
		// Equal shares: f_a = ½·400/100 = 2, f_b = ½·400/300 = ⅔, scaled
		// by 150: 300 and 100; each side then holds 30000.
		{"share 1 and 1 gives each half", ByShare, 1, 1, []float64{300, 100},
			map[string]int64{"f": 29700, "g": 29900, "h": 400}},
		// Shares 3:1: f_a = ¾·400/100 = 3, f_b = ¼·400/300 = ⅓, scaled
		// by 300: 900 and 100; a holds 90000, b 30000.
		{"share 3 and 1 gives three quarters", ByShare, 3, 1, []float64{900, 100},
			map[string]int64{"f": 89100, "g": 29900, "h": 1000}},
		// Shares proportional to the lengths: no scaling at all.
		{"share 1 and 3 keeps the counts", ByShare, 1, 3, []float64{1, 1},
			map[string]int64{"f": 99, "g": 299, "h": 2}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a, b := mk()
			before := a.String() + b.String()
			m, err := Merge([]Weighted{{a, tt.wa}, {b, tt.wb}}, tt.how)
			if err != nil {
				t.Fatal(err)
			}
			if a.String()+b.String() != before {
				t.Error("Merge changed its inputs")
			}
			for i, f := range tt.wantFactors {
				if d := m.Factors[i] - f; d > 1e-9*f || d < -1e-9*f {
					t.Errorf("factor %d = %v, want %v", i, m.Factors[i], f)
				}
			}
			if got := flatCounts(m.Profile); !maps.Equal(got, tt.want) {
				t.Errorf("samples per function = %v, want %v", got, tt.want)
			}
			// The CPU time is scaled as the counts are: count × period.
			for _, s := range m.Profile.Sample {
				if s.Value[1] != s.Value[0]*periodNs {
					t.Errorf("sample %v: cpu %d ns is not its count × %d ns", s.Value, s.Value[1], periodNs)
				}
			}
			if err := m.Profile.CheckValid(); err != nil {
				t.Error(err)
			}
			hasComment := false
			for _, c := range m.Profile.Comments {
				hasComment = hasComment || strings.HasPrefix(c, "chronograph: merged by "+tt.how.String())
			}
			if allOne(tt.wantFactors) == hasComment {
				t.Errorf("comments %q: want one about the weights exactly when a factor is not 1", m.Profile.Comments)
			}
		})
	}
}

func TestMergeErrors(t *testing.T) {
	cpu := build([]stack{{[]string{"f"}, 10}})
	heap := &profile.Profile{SampleType: []*profile.ValueType{{Type: "alloc_space", Unit: "bytes"}}}
	empty := build(nil)
	other := build([]stack{{[]string{"f"}, 10}})
	other.SampleType = other.SampleType[1:]
	for _, s := range other.Sample {
		s.Value = s.Value[1:]
	}
	tests := []struct {
		name string
		in   []Weighted
		how  Weighting
		want string
	}{
		{"none", nil, ByShare, "no profiles to merge"},
		{"nil profile", []Weighted{{nil, 1}}, ByShare, "input 1 has no profile"},
		{"zero weight", []Weighted{{cpu, 1}, {cpu, 0}}, ByFactor, "input 2 has weight 0: weights must be positive and finite"},
		{"negative weight", []Weighted{{cpu, -1}}, ByFactor, "weight -1"},
		{"not cpu", []Weighted{{heap, 1}}, ByFactor, "input 1 is not a CPU profile (sample types alloc_space/bytes)"},
		{"other types", []Weighted{{cpu, 1}, {other, 1}}, ByFactor, "input 2 has sample types cpu/nanoseconds, input 1 has samples/count, cpu/nanoseconds"},
		{"share of nothing", []Weighted{{cpu, 1}, {empty, 1}}, ByShare, "input 2 holds no CPU time"},
		{"bad weighting", []Weighted{{cpu, 1}}, Weighting(7), "unknown weighting Weighting(7)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Merge(tt.in, tt.how)
			if err == nil || !strings.Contains(err.Error(), tt.want) || !strings.HasPrefix(err.Error(), "profiles: ") {
				t.Errorf("error %v, want one with %q", err, tt.want)
			}
		})
	}
}
