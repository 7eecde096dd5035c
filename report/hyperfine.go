package report

import (
	"encoding/json"
	"fmt"
	"io"
	"math"

	"github.com/chronograph/chronograph/report/internal/view"
	"github.com/chronograph/chronograph/result"
	"github.com/chronograph/chronograph/stats"
)

// hyperfineRenderer writes a command document as hyperfine 1.20's JSON
// export (chrono run --export-hyperfine-json), for the tools that read
// hyperfine's: its plot and statistics scripts, CI setups. Every field is
// hyperfine's, with its name, order and unit (seconds):
//
//   - command: the command's name as hyperfine gives it (the -n name or
//     the command line, without the values of parameters it does not
//     use);
//   - mean, stddev (sample, n-1; null with one run), median, min, max of
//     times; user, system: the means of the runs' CPU times, corrected
//     for the shell like the wall times, as hyperfine corrects them;
//   - times: every run's wall time (chrono's "wall" metric: the shell's
//     median start-up subtracted; hyperfine subtracts its mean);
//   - memory_usage_byte: every run's own peak RSS (hyperfine reports the
//     largest peak of all the processes it waited for so far); absent
//     where not measured;
//   - exit_codes: every run's exit code, 128+N for a run killed by
//     signal N, as hyperfine records it;
//   - parameters: the parameter values, when there are any.
//
// A command without a timed run (every run timed out) is left out, since
// hyperfine's schema has no place for it; chrono's own document keeps it.
type hyperfineRenderer struct{}

func (hyperfineRenderer) Render(w io.Writer, s Subject, _ Options) error {
	d := s.Docs[0]
	out := result.HyperfineExport{Results: []result.HyperfineResult{}}
	for i := range d.Measurements {
		m := &d.Measurements[i]
		wall := m.Metric("wall")
		if wall == nil || len(wall.Values) == 0 {
			continue
		}
		user, sys := m.Metric("user"), m.Metric("sys")
		if user == nil || sys == nil || len(user.Values) == 0 || len(sys.Values) == 0 {
			return fmt.Errorf("report: %q has no user and system times, which hyperfine's export needs", m.Name)
		}
		sum := stats.Summarize(wall.Values)
		sec := func(ns float64) result.Float { return result.Float(ns / 1e9) }
		r := result.HyperfineResult{Command: view.HyperfineName(m), Mean: sec(sum.Mean), Median: sec(sum.Median), Min: sec(sum.Min), Max: sec(sum.Max),
			User: sec(stats.Summarize(user.Values).Mean), System: sec(stats.Summarize(sys.Values).Mean), Parameters: m.Parameters}
		if sum.N >= 2 {
			sd := sec(sum.StdDevSample)
			r.Stddev = &sd
		}
		for _, v := range wall.Values {
			r.Times = append(r.Times, sec(v))
		}
		if rss := m.Metric("max_rss"); rss != nil && len(rss.Values) == len(wall.Values) {
			for _, v := range rss.Values {
				r.MemoryUsageByte = append(r.MemoryUsageByte, uint64(math.Max(v, 0)))
			}
		}
		codes, signals := m.Metric("exit_code"), m.Metric("signal")
		for j := range wall.Values {
			var c *int
			if codes != nil && j < len(codes.Values) {
				v := int(codes.Values[j])
				if signals != nil && j < len(signals.Values) && signals.Values[j] > 0 {
					v = 128 + int(signals.Values[j])
				}
				c = &v
			}
			r.ExitCodes = append(r.ExitCodes, c)
		}
		out.Results = append(out.Results, r)
	}
	b, err := json.MarshalIndent(out, "", "  ")
	if err != nil {
		return fmt.Errorf("report: hyperfine JSON: %w", err)
	}
	_, err = w.Write(append(b, '\n'))
	return err
}
