package view

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/chronograph/chronograph/internal/plural"
	"github.com/chronograph/chronograph/result"
	"github.com/chronograph/chronograph/unit"
)

func init() { register(result.KindPulses, pulsesView) }

// pulsesCell formats a figure of a pulses document: a duration no finer
// than the capture's resolution (a mean, a deviation, an interpolated
// percentile too: a 1 MHz capture prints no nanoseconds), a duty cycle as
// a percentage (Duty), a frequency with an SI prefix (Figure).
func pulsesCell(met *result.Metric, s *Series, x float64, p unit.Precision, u unit.Unit) Cell {
	switch met.Unit {
	case result.UnitNs:
		p.Resolution = max(p.Resolution, s.Resolution)
	case result.UnitOne:
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return Missing
		}
		return Cell{Text: Duty(x), Raw: ExactNum(x)}
	}
	return s.Cell(x, p, u)
}

// Duty formats a duty cycle (a fraction: 0.625) as a percentage, every
// one to 0.1 percentage point ("62.5%", "50.0%"), so that the figures of
// a row (median, interval, mean, deviation, extremes, percentiles) read
// alike: a duty cycle is a ratio of two exact tick counts, and its
// interval says how well its median is known. One below 0.1% keeps its
// first significant digit (never "0.0%" for a duty that is not 0).
func Duty(f float64) string {
	return unit.Plain(float64(f*100), unit.Precision{Resolution: 0.1}) + "%"
}

// pulsesView lays out a pulses document (chrono pulses): what the capture
// is (file, writer, sample rate, resolution, trigger), the generic table
// of every figure (n, median with its interval, mean ± σ, min … max,
// percentiles, each to the capture's resolution) and its terminal charts,
// then per channel the counts that are not samples (edges, cut runs,
// glitches, the glitches themselves) and per latency its unpaired edges,
// and what is exact and what is binned.
func pulsesView(d *result.Document, o Options) (*View, error) {
	v, err := genericViewWith(d, o, pulsesCell)
	if err != nil {
		return nil, err
	}
	run := d.Run.Pulses
	if run == nil {
		return v, nil
	}
	res := unit.Precision{Resolution: run.ResolutionNs}
	dur := func(ns float64) string { return unit.Duration(ns, res) }
	c := run.Capture
	lines := []string{fmt.Sprintf("capture: %s (%s, %s, %d changes over %s)", run.Source, c.Format, plural.Count(len(run.Channels), "channel")+" measured", run.Changes, dur(run.EndNs-run.StartNs))}
	var src []string
	if c.Device != "" {
		src = append(src, "device "+c.Device)
	}
	if c.Version != "" {
		src = append(src, "written by "+c.Version)
	}
	if c.Date != "" {
		src = append(src, "on "+c.Date)
	}
	if len(src) > 0 {
		lines = append(lines, "source: "+strings.Join(src, ", "))
	}
	rate := "no sample rate recorded"
	if c.SampleRate > 0 {
		rate = "sample rate " + unit.SI(float64(c.SampleRate), unit.Exactly(float64(c.SampleRate), 1), "Hz")
	}
	resText := "unknown (no timescale: figures in ticks)"
	if run.ResolutionNs > 0 {
		resText = dur(run.ResolutionNs)
	}
	lines = append(lines, fmt.Sprintf("time: tick %s, %s, resolution %s (no figure is printed finer)", c.Tick, rate, resText))
	if c.HasTrigger {
		lines = append(lines, "trigger at tick "+strconv.FormatUint(c.Trigger, 10))
	}
	if run.MinWidthNs > 0 {
		lines = append(lines, "glitches: pulses shorter than "+dur(run.MinWidthNs)+" (--min-width), listed apart")
	}
	head := []Block{{Lines: lines}}
	ct := &Table{Columns: []Column{{Name: "channel"}, {Name: "rises", Numeric: true}, {Name: "falls", Numeric: true},
		{Name: "cut by x/z", Numeric: true}, {Name: "cut by the ends", Numeric: true}, {Name: "glitches", Numeric: true}}}
	var glitchLines []string
	for _, ch := range run.Channels {
		ct.Rows = append(ct.Rows, []Cell{TextCell(ch.Name), TextCell(strconv.Itoa(ch.Rises)), TextCell(strconv.Itoa(ch.Falls)),
			TextCell(strconv.Itoa(ch.Unknown)), TextCell(strconv.Itoa(ch.Open)), TextCell(strconv.Itoa(ch.GlitchCount))})
		if ch.GlitchCount == 0 {
			continue
		}
		var gs []string
		for i, g := range ch.Glitches {
			if i == 10 {
				break
			}
			gs = append(gs, fmt.Sprintf("%s %s at %s", dur(g.WidthNs), g.Level, dur(g.StartNs)))
		}
		more := ""
		if n := ch.GlitchCount - len(gs); n > 0 {
			more = fmt.Sprintf(" and %d more", n)
		}
		glitchLines = append(glitchLines, fmt.Sprintf("%s: %s%s", ch.Name, strings.Join(gs, ", "), more))
	}
	tail := []Block{{Heading: "channels", Table: ct}}
	if len(glitchLines) > 0 {
		tail = append(tail, Block{Heading: "glitches (not in the widths, periods or latencies)", Lines: glitchLines})
	}
	if len(run.Between) > 0 {
		bt := &Table{Columns: []Column{{Name: "latency"}, {Name: "within"}, {Name: "unmatched", Numeric: true}, {Name: "extra", Numeric: true},
			{Name: "unprompted", Numeric: true}, {Name: "cut by x/z", Numeric: true}}}
		for _, b := range run.Between {
			w := "no limit"
			if b.WithinNs > 0 {
				w = dur(b.WithinNs)
			}
			bt.Rows = append(bt.Rows, []Cell{TextCell(b.From + " -> " + b.To), TextCell(w), TextCell(strconv.Itoa(b.Unmatched)),
				TextCell(strconv.Itoa(b.Extra)), TextCell(strconv.Itoa(b.Unprompted)), TextCell(strconv.Itoa(b.Unknown))})
		}
		tail = append(tail, Block{Heading: "edges left unpaired", Table: bt,
			Notes: []string{"unmatched: no answer (within the limit, or before the end); extra: came while one was pending; unprompted: an answer with none pending"}})
	}
	tail = append(tail, Block{Lines: []string{"exactness: " + run.Exactness}})
	if run.ElapsedNs > 0 {
		// Both figures to the percent (three digits at most): one reading
		// of a real clock, whose later digits another run would change.
		el := float64(run.ElapsedNs)
		tail = append(tail, Block{Lines: []string{fmt.Sprintf("analysed in %s: %s edges per second",
			unit.Duration(el, unit.Precision{Resolution: 1, Uncertainty: el / 100}),
			unit.SI(run.EdgesPerSecond, unit.Precision{Uncertainty: run.EdgesPerSecond / 100}, ""))}, In: InText})
	}
	blocks := append([]Block{}, head...)
	blocks = append(blocks, v.Blocks...)
	v.Blocks = append(blocks, tail...)
	return v, nil
}
