package profiles

import (
	"github.com/google/pprof/profile"
)

// periodNs is the sampling period of the constructed profiles:
// runtime/pprof's 100 Hz.
const periodNs = 10_000_000

// stack is a constructed sample: its functions, the leaf first, and how
// many samples it stands for.
type stack struct {
	funcs []string
	n     int64
}

// build returns a CPU profile as runtime/pprof writes it (samples/count,
// cpu/nanoseconds, a 10 ms period, one mapping), with the given samples.
// Every function has start line 1 unless its name is in noStart.
func build(stacks []stack, noStart ...string) *profile.Profile {
	p := &profile.Profile{
		SampleType: []*profile.ValueType{{Type: "samples", Unit: "count"}, {Type: "cpu", Unit: "nanoseconds"}},
		PeriodType: &profile.ValueType{Type: "cpu", Unit: "nanoseconds"},
		Period:     periodNs,
		Mapping:    []*profile.Mapping{{ID: 1, File: "/bin/prog", HasFunctions: true}},
	}
	skip := map[string]bool{}
	for _, n := range noStart {
		skip[n] = true
	}
	funcs := map[string]*profile.Function{}
	locs := map[string]*profile.Location{}
	for _, st := range stacks {
		s := &profile.Sample{Value: []int64{st.n, st.n * periodNs}}
		for _, name := range st.funcs {
			loc, ok := locs[name]
			if !ok {
				fn := &profile.Function{ID: uint64(len(funcs) + 1), Name: name, SystemName: name, Filename: "prog.go"}
				if !skip[name] {
					fn.StartLine = 1
				}
				funcs[name] = fn
				p.Function = append(p.Function, fn)
				loc = &profile.Location{ID: uint64(len(locs) + 1), Mapping: p.Mapping[0], Address: 0x1000 + uint64(len(locs))*16,
					Line: []profile.Line{{Function: fn, Line: 2}}}
				locs[name] = loc
				p.Location = append(p.Location, loc)
			}
			s.Location = append(s.Location, loc)
		}
		p.Sample = append(p.Sample, s)
	}
	return p
}

// flatCounts returns the samples/count value per leaf function.
func flatCounts(p *profile.Profile) map[string]int64 {
	m := map[string]int64{}
	for _, s := range p.Sample {
		m[s.Location[0].Line[0].Function.Name] += s.Value[0]
	}
	return m
}
