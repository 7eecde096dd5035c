package profiles

import (
	"slices"
	"strings"
	"testing"

	"github.com/google/pprof/profile"

	"github.com/chronograph/chronograph/warn"
)

func codes(ws []warn.Warning) []string {
	var c []string
	for _, w := range ws {
		c = append(c, string(w.Severity)+" "+w.Code)
	}
	return c
}

func TestCheck(t *testing.T) {
	hot := func(n int64) *profile.Profile {
		return build([]stack{
			{[]string{"main.hot", "main.loop", "main.main"}, n * 9 / 10},
			{[]string{"main.cold", "main.main"}, n - n*9/10},
		})
	}
	all := NewNames("test build", true, "main.main", "main.loop", "main.hot", "main.cold")
	noHot := NewNames("test build", true, "main.main", "main.loop", "main.cold")
	noCold := NewNames("test build", true, "main.main", "main.loop", "main.hot")
	symbolsOnly := NewNames("test symbols", false, "main.main", "main.loop", "main.hot", "main.cold")
	unnamed := hot(5000)
	unnamed.Sample[0].Location[0].Line = nil
	heap := &profile.Profile{SampleType: []*profile.ValueType{{Type: "alloc_space", Unit: "bytes"}}}
	cpuOnly := hot(5000)
	cpuOnly.SampleType = cpuOnly.SampleType[1:]
	for _, s := range cpuOnly.Sample {
		s.Value = s.Value[1:]
	}
	noPeriod := cpuOnly.Copy()
	noPeriod.Period = 0
	tests := []struct {
		name string
		p    *profile.Profile
		o    CheckOptions
		want []string
		msg  string // part of the first warning's message
	}{
		{"fit", hot(3000), CheckOptions{Build: all}, nil, ""},
		{"no build given", hot(3000), CheckOptions{}, nil, ""},
		{"one short", hot(2999), CheckOptions{}, []string{"warning profile-short"}, "2999 samples, fewer than the 3000"},
		{"own minimum", hot(2999), CheckOptions{MinSamples: 1000}, nil, ""},
		{"one sample", hot(1), CheckOptions{}, []string{"warning profile-short"}, "holds 1 sample,"},
		{"empty", build(nil), CheckOptions{}, []string{"warning profile-empty"}, "no samples"},
		{"heap profile", heap, CheckOptions{}, []string{"warning profile-not-cpu"}, "sample types alloc_space/bytes"},
		{"cpu time counted by the period", cpuOnly, CheckOptions{}, nil, ""},
		{"cpu time without a period", noPeriod, CheckOptions{}, []string{"warning profile-not-cpu"}, "no sampling period"},
		{"unsymbolized", unnamed, CheckOptions{}, []string{"warning profile-unsymbolized"}, "90 % of the profile's time is in locations without a function name"},
		{"no start lines", build([]stack{{[]string{"main.hot", "main.main"}, 2970}, {[]string{"main.cold", "main.main"}, 30}}, "main.cold"),
			CheckOptions{}, []string{"warning profile-no-start-lines"}, "1.0 % of the profile's time is in functions without a start line"},
		{"few without start lines", build([]stack{{[]string{"main.hot", "main.main"}, 2971}, {[]string{"main.cold", "main.main"}, 29}}, "main.cold"),
			CheckOptions{}, nil, ""},
		// main.hot holds the edge loop→hot, 9/10 × ½ of the edge weight
		// (9/10 of the samples have two edges, 1/10 one): 47 %.
		{"hot function gone", hot(5000), CheckOptions{Build: noHot}, []string{"warning profile-stale"}, "47 % of the profile's call-edge weight is in functions gone from the build (main.hot)"},
		// main.cold: 500 of 9500 edge samples, 5.3 %: under a tenth.
		{"cold function gone", hot(5000), CheckOptions{Build: noCold}, nil, ""},
		{"cold function gone, strict", hot(5000), CheckOptions{Build: noCold, MaxStale: 0.05}, []string{"warning profile-stale"}, "5.3 %"},
		{"names without inlined functions", hot(5000), CheckOptions{Build: symbolsOnly}, []string{"note profile-build-no-inlined"}, "test symbols"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ws := Check(tt.p, tt.o)
			if got := codes(ws); !slices.Equal(got, tt.want) {
				t.Fatalf("warnings %v, want %v: %v", got, tt.want, ws)
			}
			if tt.msg != "" && !strings.Contains(ws[0].Message, tt.msg) {
				t.Errorf("message %q, want it to say %q", ws[0].Message, tt.msg)
			}
			for _, w := range ws {
				if w.Next == "" || w.Message == "" || strings.ToLower(w.Message[:1]) != w.Message[:1] {
					t.Errorf("warning %+v: want a lowercase message and a next step", w)
				}
			}
		})
	}
}

// TestCheckStaleNames: the stale check names the gone functions, the
// heaviest first, three at most, and counts only the profiled binary's
// frames.
func TestCheckStaleNames(t *testing.T) {
	p := build([]stack{
		{[]string{"main.a", "main.main"}, 400},
		{[]string{"main.b", "main.main"}, 300},
		{[]string{"main.c", "main.main"}, 200},
		{[]string{"main.d", "main.main"}, 100},
		{[]string{"libc_write", "main.main"}, 3000},
	})
	// libc_write is in another mapping: not the binary's code.
	lib := &profile.Mapping{ID: 2, File: "/lib/libc.so.6", HasFunctions: true}
	p.Mapping = append(p.Mapping, lib)
	for _, l := range p.Location {
		if l.Line[0].Function.Name == "libc_write" {
			l.Mapping = lib
		}
	}
	ws := Check(p, CheckOptions{Build: NewNames("b", true, "main.main")})
	if got := codes(ws); !slices.Equal(got, []string{"warning profile-stale"}) {
		t.Fatalf("warnings %v", ws)
	}
	want := "100 % of the profile's call-edge weight is in functions gone from the build (main.a, main.b, main.c and 1 more)"
	if ws[0].Message != want {
		t.Errorf("message\n%q, want\n%q", ws[0].Message, want)
	}
}

func TestCanonical(t *testing.T) {
	for _, tt := range []struct{ in, want string }{
		{"main.f", "main.f"},
		{"main.Map[go.shape.int,go.shape.string]", "main.Map[...]"},
		{"main.(*List[go.shape.struct { a [4]int }]).Push", "main.(*List[...]).Push"},
		{"main.(*List[...]).Push", "main.(*List[...]).Push"},
		{"runtime.open.abi0", "runtime.open"},
	} {
		if got := canonical(tt.in); got != tt.want {
			t.Errorf("canonical(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
	n := NewNames("b", true, "main.sum[go.shape.int]")
	if !n.Has("main.sum[...]") || n.Has("main.sum") {
		t.Errorf("Has: a generic function is found by its profile name and only by it")
	}
}

func TestPercent(t *testing.T) {
	for _, tt := range []struct {
		part, whole float64
		want        string
	}{
		{1, 1, "100 %"}, {473, 1000, "47 %"}, {53, 1000, "5.3 %"}, {5, 1000, "0.5 %"}, {1, 1e6, "< 0.1 %"}, {0, 1, "0.0 %"},
	} {
		if got := percentF(tt.part, tt.whole); got != tt.want {
			t.Errorf("percentF(%v, %v) = %q, want %q", tt.part, tt.whole, got, tt.want)
		}
	}
}
