package counters

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/chronograph/chronograph/internal/plural"
	"github.com/chronograph/chronograph/result"
	"github.com/chronograph/chronograph/unit"
	"github.com/chronograph/chronograph/warn"
)

// Stat is a measurement in the manner of perf stat: a command run one or
// more times with its events counted (chrono stat). Its Document is the
// result document of kind "counters".
type Stat struct {
	// Argv is the command.
	Argv []string
	// Source is where the counts come from (SourcePerf or
	// SourceCachegrind); Events the events asked for (CachegrindEvents
	// for the simulation).
	Source string
	Events []string
	// Asked is the number of runs asked for; Runs the runs made, in order.
	Asked int
	Runs  []CommandRun
	// CPUTimeResolution is the step of the runs' User and Sys times (a
	// microsecond for rusage on Unix).
	CPUTimeResolution time.Duration
	// Read is the cost of a counter read and the user-space read
	// capability of this host (nil: not measured).
	Read *ReadInfo
	// Interrupted is set when the runs were interrupted.
	Interrupted bool
	// Start and End stamp the runs (wall clock).
	Start, End time.Time
}

// quoteArgs renders argv as one line, quoting the arguments that hold
// blanks, quotes or other characters a shell would read specially.
func quoteArgs(argv []string) string {
	q := make([]string, len(argv))
	for i, a := range argv {
		if a == "" || strings.ContainsAny(a, " \t\n'\"\\$") {
			a = strconv.Quote(a)
		}
		q[i] = a
	}
	return strings.Join(q, " ")
}

// Document returns the result document of s, with m's tool, arguments
// and environment: one measurement, the command, with a metric per event
// counted in every run (and its running fractions when the kernel
// multiplexed it), the elapsed and CPU times and exit codes of the runs,
// what became of every event asked for, the derived figures and the
// warnings.
func (s *Stat) Document(m result.Meta) *result.Document {
	d := result.New(result.KindCounters, m)
	d.Start, d.End = s.Start, s.End
	d.Incomplete = s.Interrupted || len(s.Runs) < s.Asked
	run := &result.CountersRun{Source: s.Source, Events: s.Events, Runs: s.Asked, Interrupted: s.Interrupted}
	if s.Read != nil {
		run.ReadCostNs = float64(s.Read.Cost.Nanoseconds())
		run.UserRead, run.UserReadReason = s.Read.UserRead, s.Read.UserReadReason
	}
	d.Run.Counters = run
	if s.Interrupted {
		d.Warnings = append(d.Warnings, warn.New("interrupted",
			fmt.Sprintf("interrupted after %d of %s: the figures are of the runs that finished", len(s.Runs), plural.Count(s.Asked, "run")),
			"run again without interrupting for all the runs"))
	}
	ms := result.Measurement{Name: quoteArgs(s.Argv), Incomplete: d.Incomplete}
	detail := &result.CountersDetail{Argv: s.Argv}
	sum := summarizeRuns(s.Runs)
	readings := make([]Reading, len(s.Runs))
	for i, r := range s.Runs {
		readings[i] = r.Reading
	}
	for i, e := range sum.Events {
		ev := result.CounterEvent{Name: e.Event.Name, CountedRuns: e.Counted, Reason: e.Reason, UserOnly: e.UserOnly}
		if s.Source == SourceCachegrind {
			ev.Description = cachegrindDesc[e.Event.Name]
		}
		switch {
		case e.allCounted():
			ev.State = result.CounterCounted
		case e.Counted > 0:
			ev.State = result.CounterPartly
			ms.Warnings = append(ms.Warnings, warn.New("counter-partly-counted",
				fmt.Sprintf("%s was counted in %d of %s and is left out", e.Event.Name, e.Counted, plural.Count(e.Runs, "run")),
				"count fewer events at once, so that the kernel need not multiplex them"))
		case e.State == NotCounted:
			ev.State = result.CounterNotCounted
		default:
			ev.State = result.CounterNotSupported
		}
		detail.Events = append(detail.Events, ev)
		if !e.allCounted() {
			continue
		}
		ms.Metrics = append(ms.Metrics, result.SampleMetric(e.Event.Name, e.Event.Unit, 1, e.Values))
		if ms.Primary == "" {
			ms.Primary = e.Event.Name
		}
		if e.Scaled {
			fr := make([]float64, len(readings))
			for j, r := range readings {
				fr[j] = r.Counts[i].RunningFraction()
			}
			ms.Metrics = append(ms.Metrics, result.SampleMetric(e.Event.Name+"_running", result.UnitOne, 0, fr))
			ms.Warnings = append(ms.Warnings, warn.New("counter-multiplexed",
				fmt.Sprintf("%s was multiplexed: counted %s%% of each run on average, and scaled up to the whole run", e.Event.Name,
					unit.Plain(100*e.MeanRunningFraction, unit.Precision{Resolution: 0.1})),
				"count fewer events at once for exact counts"))
		}
		if e.Note != "" {
			ms.Warnings = append(ms.Warnings, noteWarning(e))
		}
	}
	cpuRes := float64(s.CPUTimeResolution.Nanoseconds())
	for _, t := range []struct {
		name   string
		values []float64
		res    float64
	}{{"wall", sum.WallNs, 1}, {"user", sum.UserNs, cpuRes}, {"sys", sum.SysNs, cpuRes}} {
		ms.Metrics = append(ms.Metrics, result.SampleMetric(t.name, result.UnitNs, t.res, t.values))
	}
	codes := make([]float64, len(s.Runs))
	for i, r := range s.Runs {
		codes[i] = float64(r.ExitCode)
	}
	ms.Metrics = append(ms.Metrics, result.Metric{Name: "exit_code", Unit: result.UnitOne, Values: codes, Resolution: 1})
	if ms.Primary == "" {
		ms.Primary = "wall"
	}
	detail.Derived = sum.Derived
	if sum.Failed > 0 {
		ms.Warnings = append(ms.Warnings, warn.New("failed-runs",
			fmt.Sprintf("the command exited non-zero or was killed in %d of %s", sum.Failed, plural.Count(sum.Runs, "run")),
			"check that the command runs cleanly on its own (its output: --show-output)"))
	}
	ms.Detail.Counters = detail
	d.Measurements = []result.Measurement{ms}
	return d
}

// noteWarning turns the qualification of an event's counts into a
// warning: the condition, and the fix the note gives after ": run ".
func noteWarning(e eventSummary) warn.Warning {
	msg, fix, ok := strings.Cut(e.Note, ": run ")
	if !ok {
		return warn.NewNote("counter-note", e.Event.Name+": "+e.Note, "")
	}
	code := "counter-note"
	if e.UserOnly {
		code = "counter-user-only"
	}
	return warn.New(code, e.Event.Name+": "+msg, "run "+fix)
}
