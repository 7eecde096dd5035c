package run

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/chronograph/chronograph/counters"
	"github.com/chronograph/chronograph/internal/valgrind"
	"github.com/chronograph/chronograph/result"
	"github.com/chronograph/chronograph/stats"
	"github.com/chronograph/chronograph/unit"
	"github.com/chronograph/chronograph/warn"
)

// simulation runs a benchmark's commands under valgrind's cachegrind
// (Options.Instructions): one valgrind.Command per command, and one for
// the overhead runs, made when they are first run; native holds each
// command's native run, made to measure valgrind's slowdown.
type simulation struct {
	cmds     []*valgrind.Command
	overhead *valgrind.Command
	native   []time.Duration
}

// newSimulation prepares the commands' runs under cachegrind.
func newSimulation(cmds []Command) (*simulation, error) {
	s := &simulation{native: make([]time.Duration, len(cmds))}
	for _, c := range cmds {
		vc, err := valgrind.NewCommand(c.Argv)
		if err != nil {
			s.close()
			return nil, fmt.Errorf("run: --instructions: %w", err)
		}
		s.cmds = append(s.cmds, vc)
	}
	return s, nil
}

func (s *simulation) close() {
	for _, c := range append(slices.Clip(s.cmds), s.overhead) {
		if c != nil {
			c.Close()
		}
	}
}

// read records the simulated counts of the run s just made under vc as
// s's figures (valgrind.Figures: instructions, l1_misses, ll_misses,
// estimated_cycles). A run killed by the timeout has none.
func (sim *simulation) read(vc *valgrind.Command, s *Sample) error {
	cc, err := vc.Read(s.ExitCode)
	if s.TimedOut {
		return nil
	}
	if err != nil {
		return fmt.Errorf("run: --instructions: %w", err)
	}
	for _, f := range valgrind.Figures(cc.Reading.Value) {
		if s.Extra == nil {
			s.Extra = map[string]float64{}
		}
		s.Extra[f.Name] = f.Value
	}
	return nil
}

// simulatedNames are the figures of a simulated run, in their order.
var simulatedNames = []string{valgrind.FigureInstructions, valgrind.FigureL1Misses, valgrind.FigureLLMisses, valgrind.FigureEstimatedCycles}

// nativeRuns is the number of runs of each command outside valgrind
// that measure its slowdown: their median is the native time.
const nativeRuns = 3

// nativeRun makes nativeRuns runs of command i outside valgrind, not
// recorded, to measure valgrind's slowdown (before its first run under
// valgrind, after its setup command).
func (b *bench) nativeRun(i int) error {
	c := &b.cmds[i]
	var walls []float64
	for k := range nativeRuns {
		spec := b.spec(c, c.Argv, c.Path, "native", "")
		spec.noProbe = true
		s, _, err := b.exec.run(spec)
		if err != nil {
			return err
		}
		if k == 0 || s.ExitCode == 0 {
			walls = append(walls, float64(s.Wall))
		}
	}
	b.sim.native[i] = time.Duration(stats.Median(walls))
	return nil
}

// simulationSource describes the simulated counts of a command document.
func simulationSource() string {
	return counters.SourceCachegrind + " (--trace-children=yes: the command and every process it starts; caches " + valgrind.Caches + "; " + valgrind.CycleModel + ")"
}

// simulationNotes say what the simulated counts of r are, what valgrind
// cost, and what they do not model.
func (r *Benchmark) simulationNotes(native []time.Duration) []warn.Warning {
	var slow []string
	for i, res := range r.Results {
		if i >= len(native) || native[i] <= 0 || len(res.Samples) == 0 {
			continue
		}
		var walls []float64
		for _, s := range res.Samples {
			walls = append(walls, float64(s.Wall))
		}
		x := stats.Median(walls) / float64(native[i])
		slow = append(slow, fmt.Sprintf("%q ×%s", res.Command.Name, unit.Plain(x, unit.Precision{Resolution: 1})))
	}
	cost := "valgrind's slowdown could not be measured"
	if len(slow) > 0 {
		cost = "valgrind slowed the runs down " + strings.Join(slow, ", ") + fmt.Sprintf(" (the median raw time of a run under cachegrind against the median of %d native runs)", nativeRuns)
	}
	return []warn.Warning{
		warn.NewNote("instructions-simulated",
			"every run ran under valgrind's cachegrind, which counted the instructions, the simulated cache misses and the estimated cycles of the command and every process it starts, the same from run to run for a program that does the same work: they rank the commands by instructions; the times (wall, user, sys) are under valgrind, "+cost+"; cachegrind does not model the clock frequency, memory latency, the pipeline or other programs, and the cache figures depend on where code and data lie",
			"time the commands without --instructions to know how fast they run"),
		warn.NewNote("instructions-go-runtime",
			"a Go program's whole-process count includes its runtime's background threads (the garbage collector, sysmon), whose work depends on time: it varies from run to run by a fraction of a percent",
			"count a Go function's instructions exactly with package bench's instruction mode (bench/benchtest: CHRONO_BENCH=instructions)"),
	}
}

// simulatedCounters is the counters' description of a document whose
// runs were simulated.
func simulatedCounters() *result.CommandCounters {
	return &result.CommandCounters{Source: simulationSource(), Events: simulatedNames}
}
