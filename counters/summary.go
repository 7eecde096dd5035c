package counters

import (
	"fmt"
	"math"

	"github.com/chronograph/chronograph/internal/plural"
	"github.com/chronograph/chronograph/result"
	"github.com/chronograph/chronograph/stats"
)

// eventSummary summarizes the counts of one event over several readings
// (e.g. the runs of a command).
type eventSummary struct {
	Event Event
	// Runs is the number of readings; Counted how many of them counted the
	// event. Only counted values are summarized: a reading that did not
	// count the event contributes nothing (never a 0).
	Runs, Counted int
	// Values are the counted values, in reading order, in Event.Unit.
	Values []float64
	// Summary summarizes Values (valid when Counted > 0).
	Summary stats.Summary
	// StdErrPercent is the standard error of the mean (sample stddev /
	// sqrt(n)) as a percentage of the mean: the "± x%" figure of perf stat
	// -r. Zero when Counted < 2 or the mean is 0.
	StdErrPercent float64
	// MinRunningFraction and MeanRunningFraction describe how much of the
	// enabled time the event was on a counter, over the counted readings
	// (1 = never multiplexed). Scaled is set when any value was scaled.
	MinRunningFraction, MeanRunningFraction float64
	Scaled                                  bool
	// State is Counted when the event was counted in at least one reading;
	// otherwise the state of the first reading, and Reason says why. When
	// Counted < Runs, Reason says why the other readings did not count.
	State  State
	Reason string
	// Note and UserOnly carry the qualification of the counts (e.g. user
	// space only).
	Note     string
	UserOnly bool
}

// allCounted reports whether every reading counted the event.
func (s eventSummary) allCounted() bool { return s.Runs > 0 && s.Counted == s.Runs }

// summarize summarizes each event over readings. Events are matched by
// position (every reading of a group has the same events in the same
// order); the result has one entry per event of the first reading.
func summarize(readings []Reading) []eventSummary {
	if len(readings) == 0 {
		return nil
	}
	out := make([]eventSummary, len(readings[0].Counts))
	for i := range out {
		s := &out[i]
		s.Event = readings[0].Counts[i].Event
		s.Runs = len(readings)
		s.MinRunningFraction = math.Inf(1)
		var fracSum float64
		var firstMiss *Count
		for _, r := range readings {
			if i >= len(r.Counts) {
				continue
			}
			c := r.Counts[i]
			if !c.IsCounted() {
				if firstMiss == nil {
					firstMiss = &c
				}
				continue
			}
			s.Counted++
			s.Values = append(s.Values, c.Value)
			f := c.RunningFraction()
			fracSum += f
			s.MinRunningFraction = min(s.MinRunningFraction, f)
			s.Scaled = s.Scaled || c.Scaled()
			s.UserOnly = s.UserOnly || c.UserOnly
			if s.Note == "" {
				s.Note = c.Note
			}
		}
		switch {
		case s.Counted == 0:
			s.MinRunningFraction = 0
			if firstMiss != nil {
				s.State, s.Reason = firstMiss.State, firstMiss.Reason
			} else {
				s.State, s.Reason = NotCounted, "missing from the readings"
			}
			continue
		case s.Counted < s.Runs:
			s.Reason = fmt.Sprintf("counted in %d of %s", s.Counted, plural.Count(s.Runs, "run"))
			if firstMiss != nil {
				s.Reason += " (" + firstMiss.Reason + ")"
			}
		}
		s.State = Counted
		s.MeanRunningFraction = fracSum / float64(s.Counted)
		s.Summary = stats.Summarize(s.Values)
		if s.Counted > 1 && s.Summary.Mean != 0 {
			s.StdErrPercent = 100 * s.Summary.StdDevSample / math.Sqrt(float64(s.Counted)) / math.Abs(s.Summary.Mean)
		}
	}
	return out
}

// runsSummary summarizes several runs of a command (CommandRun, counted
// with a child-scope Group or simulated by cachegrind).
type runsSummary struct {
	// Runs is the number of runs; Source is where the counts come from.
	Runs   int
	Source string
	// Events summarizes each event over the runs (see summarize).
	Events []eventSummary
	// Derived are figures derived from the mean counts and the mean wall
	// time (ratios of means, as perf stat prints them).
	Derived []result.Derived
	// Wall, User and Sys summarize the elapsed and CPU times (ns), and
	// WallStdErrPercent is perf's "± x%" of the wall time.
	Wall, User, Sys   stats.Summary
	WallStdErrPercent float64
	// WallNs, UserNs and SysNs are the per-run times, in run order.
	WallNs, UserNs, SysNs []float64
	// Failed counts the runs whose command exited non-zero or was killed.
	Failed int
}

// summarizeRuns summarizes runs (at least one).
func summarizeRuns(runs []CommandRun) runsSummary {
	s := runsSummary{Runs: len(runs)}
	if len(runs) == 0 {
		return s
	}
	readings := make([]Reading, len(runs))
	wall := make([]float64, len(runs))
	user := make([]float64, len(runs))
	sys := make([]float64, len(runs))
	for i, r := range runs {
		readings[i] = r.Reading
		wall[i], user[i], sys[i] = float64(r.Wall), float64(r.User), float64(r.Sys)
		if r.ExitCode != 0 {
			s.Failed++
		}
	}
	s.Source = runs[0].Reading.Source
	s.Events = summarize(readings)
	s.WallNs, s.UserNs, s.SysNs = wall, user, sys
	s.Wall, s.User, s.Sys = stats.Summarize(wall), stats.Summarize(user), stats.Summarize(sys)
	if s.Runs > 1 && s.Wall.Mean > 0 {
		s.WallStdErrPercent = 100 * s.Wall.StdDevSample / math.Sqrt(float64(s.Runs)) / s.Wall.Mean
	}
	s.Derived = deriveSummaries(s.Events, s.Wall)
	return s
}
