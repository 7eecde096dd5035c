package valgrind

// EstimatedCycles is the name of the cycle estimate Result.EstimatedCycles
// returns.
const EstimatedCycles = "estimated-cycles"

// The cycle model of Itamar Turner-Trauring's "CI for performance"
// (pythonspeed.com/articles/consistent-benchmarking-in-ci/), which iai and
// iai-callgrind (now Gungraun) compute as "Estimated Cycles": an access
// served by L1 costs 1 cycle, one served by the last-level cache 5, one
// that goes to memory 35. Accesses are instruction fetches and data reads
// and writes; L1 hits are accesses less L1 misses, LL hits L1 misses less
// LL misses, memory accesses the LL misses. (Gungraun's documentation
// shows 1734 instructions, 270 reads, 358 writes, 3 L1 and 3 LL misses:
// 2359 + 5·0 + 35·3 = 2464 estimated cycles.) The weights are not this
// machine's: the figure ranks cache behaviour, it does not predict time.
const (
	cyclesL1  = 1
	cyclesLL  = 5
	cyclesRAM = 35
)

// estimateCycles applies the model to the counts named as Result's
// regions name them; ok is false unless all nine were counted (the cache
// simulation was on).
func estimateCycles(value func(event string) (float64, bool)) (cycles float64, ok bool) {
	sum := func(names ...string) float64 {
		var s float64
		for _, n := range names {
			v, found := value(n)
			ok = ok && found
			s += v
		}
		return s
	}
	ok = true
	accesses := sum("instructions", "Dr", "Dw")
	l1Misses := sum("I1mr", "D1mr", "D1mw")
	llMisses := sum("ILmr", "DLmr", "DLmw")
	if !ok {
		return 0, false
	}
	l1Hits, llHits := accesses-l1Misses, l1Misses-llMisses
	return float64(cyclesL1*l1Hits) + float64(cyclesLL*llHits) + float64(cyclesRAM*llMisses), true
}

// EstimatedCycles returns the estimated cycles per iteration (the model
// above applied to PerOp's counts, which is the same as the difference of
// the regions' estimates, the model being linear), named
// EstimatedCycles; ok is false without the cache simulation. Like the
// misses it is built on, it depends on where code and data lie in memory.
func (r *Result) EstimatedCycles() (p PerOp, ok bool, err error) {
	ps, err := r.PerOp()
	if err != nil {
		return PerOp{}, false, err
	}
	byName := map[string]PerOp{}
	for _, p := range ps {
		byName[p.Event] = p
	}
	exact := true
	get := func(field func(PerOp) float64) func(string) (float64, bool) {
		return func(e string) (float64, bool) {
			p, ok := byName[e]
			exact = exact && p.Exact
			return field(p), ok
		}
	}
	per, ok := estimateCycles(get(func(p PerOp) float64 { return p.PerOp }))
	if !ok {
		return PerOp{}, false, nil
	}
	fixed, _ := estimateCycles(get(func(p PerOp) float64 { return p.Fixed }))
	return PerOp{Event: EstimatedCycles, PerOp: per, Fixed: fixed, Exact: exact}, true, nil
}

// CycleModel describes the model of the cycle estimate, for documents
// and reports.
const CycleModel = "estimated cycles = L1 hits + 5 × last-level hits + 35 × memory accesses (iai-callgrind's model, over instruction fetches and data reads and writes); it ranks cache behaviour, it is not this machine's timing"

// Caches describes the simulated caches (cacheGeometry), for documents
// and reports.
const Caches = "I1 and D1 32 KiB 8-way, LL 8 MiB 16-way, 64-byte lines (fixed, not this machine's)"

// The names of the figures that chronograph's documents give a simulated
// count (Figures).
const (
	FigureInstructions    = "instructions"
	FigureL1Misses        = "l1_misses"
	FigureLLMisses        = "ll_misses"
	FigureEstimatedCycles = "estimated_cycles"
)

// Figure is one figure of a simulated count.
type Figure struct {
	Name  string
	Value float64
}

// Figures returns the figures that documents report of a simulated count,
// from its events as counters.ParseCachegrind names them (value returns
// an event's count, per iteration or in all): the instructions and, when
// the caches were simulated (all nine events present), the first-level
// misses (I1mr + D1mr + D1mw), the last-level misses (ILmr + DLmr + DLmw)
// and the estimated cycles (CycleModel). It returns nil without an
// instruction count.
func Figures(value func(event string) (float64, bool)) []Figure {
	ir, ok := value("instructions")
	if !ok {
		return nil
	}
	out := []Figure{{FigureInstructions, ir}}
	cycles, ok := estimateCycles(value)
	if !ok {
		return out
	}
	sum := func(names ...string) float64 {
		var s float64
		for _, n := range names {
			v, _ := value(n)
			s += v
		}
		return s
	}
	return append(out, Figure{FigureL1Misses, sum("I1mr", "D1mr", "D1mw")},
		Figure{FigureLLMisses, sum("ILmr", "DLmr", "DLmw")}, Figure{FigureEstimatedCycles, cycles})
}
