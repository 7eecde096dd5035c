package profiles

import (
	"fmt"
	"sort"
	"strings"

	"github.com/google/pprof/profile"

	"github.com/chronograph/chronograph/internal/plural"
	"github.com/chronograph/chronograph/warn"
)

// DefaultMinSamples is the fewest samples Check accepts in a profile
// that guides a build: 3000, what the Go PGO guide's example collects
// (a 30 s profile, /debug/pprof/profile?seconds=30, of one busy CPU at
// runtime/pprof's 100 Hz). The compiler acts on the hottest call edges
// (those that hold 99 % of the edge weight for inlining, the hottest
// callee of an indirect call for devirtualization); at 3000 samples an
// edge with 1 % of the time holds about 30, a Poisson count known to
// ±18 %, enough to rank it against edges of half or twice its weight. At
// 300 samples (3 s) it holds 3 (±58 %), and which edges count as hot is
// left to chance.
const DefaultMinSamples = 3000

// DefaultMaxStale is the share of a profile's call-edge weight, in the
// profiled binary's own code, that may name functions gone from the
// current build before Check calls the profile stale: a tenth. The
// compiler degrades gracefully (an edge it cannot match is merely not
// optimized, the PGO guide's "source stability"), so a few renamed
// functions are normal between a profile and the next build; beyond a
// tenth, the profile describes a program the build no longer is.
const DefaultMaxStale = 0.10

// CheckOptions say what Check compares a profile with.
type CheckOptions struct {
	// MinSamples is the fewest samples that guide a build; 0 means
	// DefaultMinSamples.
	MinSamples int64
	// Build holds the function names of the current build (BinaryNames);
	// nil skips the stale check.
	Build *Names
	// MaxStale is the share of call-edge weight in gone functions
	// beyond which the profile is stale; 0 means DefaultMaxStale.
	MaxStale float64
}

// Warning codes of Check.
const (
	CodeNotCPU        = "profile-not-cpu"
	CodeEmpty         = "profile-empty"
	CodeShort         = "profile-short"
	CodeUnsymbolized  = "profile-unsymbolized"
	CodeNoStartLines  = "profile-no-start-lines"
	CodeStale         = "profile-stale"
	CodeNoInlinedInfo = "profile-build-no-inlined"
)

// Check returns what makes p unfit to guide a profile-guided build of
// the current program, as warnings (severity Warn; a Note for what only
// weakens the check itself): not a CPU profile, no samples, fewer than
// MinSamples, functions without names, functions without start lines,
// or stale against o.Build. A profile Check finds nothing wrong with
// returns no warnings.
func Check(p *profile.Profile, o CheckOptions) []warn.Warning {
	if o.MinSamples == 0 {
		o.MinSamples = DefaultMinSamples
	}
	if o.MaxStale == 0 {
		o.MaxStale = DefaultMaxStale
	}
	idx := valueIndex(p)
	if idx < 0 {
		return []warn.Warning{warn.New(CodeNotCPU,
			fmt.Sprintf("the profile has no samples/count or cpu/nanoseconds values (sample types %s), the only ones go build -pgo reads", sampleTypes(p)),
			"collect a CPU profile: runtime/pprof.StartCPUProfile, go test -cpuprofile, or /debug/pprof/profile")}
	}
	n, err := Samples(p)
	if err != nil {
		return []warn.Warning{warn.New(CodeNotCPU, strings.TrimPrefix(err.Error(), "profiles: "), "collect a CPU profile with runtime/pprof")}
	}
	if n == 0 || total(p, idx) == 0 {
		return []warn.Warning{warn.New(CodeEmpty, "the profile holds no samples",
			"profile while the program works: it may have exited before the profiler's first tick (10 ms)")}
	}
	var ws []warn.Warning
	if n < o.MinSamples {
		ws = append(ws, warn.New(CodeShort,
			fmt.Sprintf("the profile holds %s, fewer than the %d that rank its hot call edges", plural.Count(int(n), "sample"), o.MinSamples),
			"profile a longer run, or several runs merged (the go pgo guide profiles 30 s of a busy program)"))
	}
	ws = append(ws, checkSymbols(p, idx)...)
	if o.Build != nil {
		ws = append(ws, checkStale(p, idx, o)...)
	}
	return ws
}

// checkSymbols warns of functions without names and without start
// lines in the profiled binary's code (its first mapping), counted by
// the share of the CPU time whose leaf they are. A few functions without
// start lines (assembly, cgo) are normal; a hundredth of the time is
// not.
func checkSymbols(p *profile.Profile, idx int) []warn.Warning {
	var all, unnamed, noStart int64
	for _, s := range p.Sample {
		v := s.Value[idx]
		all += v
		if len(s.Location) == 0 {
			continue
		}
		loc := s.Location[0]
		if len(p.Mapping) > 0 && loc.Mapping != nil && loc.Mapping != p.Mapping[0] {
			continue
		}
		if len(loc.Line) == 0 || loc.Line[0].Function == nil || loc.Line[0].Function.Name == "" {
			unnamed += v
			continue
		}
		if loc.Line[0].Function.StartLine == 0 {
			noStart += v
		}
	}
	var ws []warn.Warning
	if unnamed > 0 {
		ws = append(ws, warn.New(CodeUnsymbolized,
			fmt.Sprintf("%s of the profile's time is in locations without a function name", percent(unnamed, all)),
			"symbolize the profile (go tool pprof -symbolize=local, with the binary it came from)"))
	}
	if noStart > 0 && float64(noStart) >= 0.01*float64(all) {
		ws = append(ws, warn.New(CodeNoStartLines,
			fmt.Sprintf("%s of the profile's time is in functions without a start line, and go build -pgo matches samples by their line offset from it", percent(noStart, all)),
			"profile the go program with runtime/pprof (a perf recording has names but no lines)"))
	}
	return ws
}

// checkStale measures how much of p's call-edge weight names functions
// that o.Build does not have. The compiler's PGO acts on call edges (a
// hot call is inlined, a hot indirect call devirtualized), so an edge
// whose caller or callee is gone guides nothing. Only frames in the
// profiled binary count: the kernel's and shared libraries' are not in
// it.
func checkStale(p *profile.Profile, idx int, o CheckOptions) []warn.Warning {
	var all, gone float64
	goneBy := map[string]float64{}
	var names []string
	var inMain []bool
	for _, s := range p.Sample {
		v := float64(s.Value[idx])
		names, inMain = frames(p, s, names, inMain)
		for k := 0; k+1 < len(names); k++ {
			if !inMain[k] || !inMain[k+1] {
				continue
			}
			all += v
			callee, caller := names[k], names[k+1]
			missing := false
			for _, f := range [2]string{caller, callee} {
				if !o.Build.Has(f) {
					goneBy[f] += v
					missing = true
				}
			}
			if missing {
				gone += v
			}
		}
	}
	var ws []warn.Warning
	if !o.Build.Inlined {
		ws = append(ws, warn.NewNote(CodeNoInlinedInfo,
			fmt.Sprintf("the build's names come from %s, which does not name functions inlined everywhere, so such functions count as gone", o.Build.Source),
			"check against a binary built with its DWARF (no -ldflags=-w)"))
	}
	if all == 0 || gone/all < o.MaxStale {
		return ws
	}
	top := make([]string, 0, len(goneBy))
	for f := range goneBy {
		top = append(top, f)
	}
	sort.Slice(top, func(i, j int) bool {
		if goneBy[top[i]] != goneBy[top[j]] {
			return goneBy[top[i]] > goneBy[top[j]]
		}
		return top[i] < top[j]
	})
	more := ""
	if len(top) > 3 {
		more = fmt.Sprintf(" and %d more", len(top)-3)
		top = top[:3]
	}
	return append(ws, warn.New(CodeStale,
		fmt.Sprintf("%s of the profile's call-edge weight is in functions gone from the build (%s%s)", percentF(gone, all), strings.Join(top, ", "), more),
		"collect a new profile from the current build: these functions were renamed, moved or removed"))
}

// percent writes part/whole as a percentage with two significant digits
// at most, never 0 % for a part that is not zero.
func percent(part, whole int64) string { return percentF(float64(part), float64(whole)) }

func percentF(part, whole float64) string {
	q := 100 * part / whole
	switch {
	case q >= 10:
		return fmt.Sprintf("%.0f %%", q)
	case q >= 1:
		return fmt.Sprintf("%.1f %%", q)
	case q > 0 && q < 0.1:
		return "< 0.1 %"
	}
	return fmt.Sprintf("%.1f %%", q)
}
