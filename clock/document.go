package clock

import (
	"slices"
	"strings"

	"github.com/chronograph/chronograph/result"
	"github.com/chronograph/chronograph/stats"
)

// MetricReadCost names the metric of a clock's read cost in a clocks
// document: ns per read, one value per timed batch, in order.
const MetricReadCost = "read_cost"

// Document turns the report into a result document of kind "clocks"
// (docs/result-schema.md), stamped as ending now and starting
// rep.Elapsed earlier: one measurement per clock, named after it, with
// its facts in Detail.Clock and, when it could be read, the metric
// read_cost (ns per read of every timed batch, with its resolution: the
// 1 ns unit of the timing clock spread over the batch); the counter, the
// kernel's figures, the recommendation and the probe's options in
// Run.Clocks; the warnings and notes of the probe as the document's.
// opts are the options the probe was given (for the document's record).
// Callers set Environment and Args.
func (rep Survey) Document(opts ProbeOptions, tool result.Tool) *result.Document {
	opts.defaults()
	d := result.New(result.KindClocks, tool)
	d.End = d.Start
	d.Start = d.End.Add(-rep.Elapsed)
	d.Measurements = []result.Measurement{}
	for _, r := range rep.Clocks {
		d.Measurements = append(d.Measurements, r.measurement())
	}
	run := &result.ClocksRun{
		PathCheck:   pathCheck(rep.Clocks),
		Reads:       opts.Reads,
		CalibrateNs: int64(opts.Calibrate),
		ElapsedNs:   int64(rep.Elapsed),
		Recommendation: result.ClockRecommendation{
			Clock: rep.Recommendation.Source, Reason: rep.Recommendation.Reason, Counter: rep.Recommendation.Counter,
		},
	}
	if t := rep.TSC; t != nil {
		run.TSC = &result.TSC{Hz: t.Hz, Source: t.Source, ErrorPPM: t.ErrorPPM, CPUID16hMHz: t.CPUID16hMHz}
		if t.InvariantKnown {
			inv := t.Invariant
			run.TSC.Invariant = &inv
		}
		if c := t.Calibration; c != nil {
			run.TSC.Calibration = &result.TSCCalibration{Reference: c.Reference, WindowNs: int64(c.Window), Segments: c.Segments,
				SegmentHz: slices.Clone(c.SegmentHz), SpreadPPM: c.SpreadPPM, BracketNs: slices.Clone(c.BracketNs)}
		}
	} else {
		run.TSCUnavailable = rep.TSCError
	}
	if k := rep.Kernel; k != nil {
		run.KernelTSC = &result.KernelTSC{Hz: k.Hz, From: k.From, Line: strings.TrimSpace(k.Line), ResolutionPPM: k.ResolutionPPM}
	} else {
		run.KernelTSCUnavailable = rep.KernelError
	}
	if a := rep.Agreement; a != nil {
		run.Agreement = &result.TSCAgreement{Verdict: a.Verdict, DiffPPM: a.DiffPPM, BoundPPM: a.BoundPPM, LimitPPM: a.LimitPPM,
			SettleWindowNs: int64(a.SettleWindow), Reason: a.Reason}
	}
	if cs := rep.Clocksource; cs != nil {
		run.Clocksource = &result.Clocksource{Current: cs.Current, Available: slices.Clone(cs.Available)}
	} else {
		run.ClocksourceUnavailable = rep.ClocksourceError
	}
	d.Run.Clocks = run
	d.Warnings = append(slices.Clone(rep.Warnings), rep.Notes...)
	return d
}

// measurement is one clock of a clocks document.
func (r Measured) measurement() result.Measurement {
	p := r.Props
	cd := &result.ClockDetail{Kind: string(p.Kind), Description: p.Description, Unit: p.Unit, Path: p.Path, PathBasis: p.PathBasis,
		Coarse: p.Coarse, PerThread: p.PerThread, Ordered: p.Ordered, NominalNs: r.NominalNs, NominalFrom: r.NominalFrom}
	m := result.Measurement{Name: p.Name, Metrics: []result.Metric{}, Detail: result.KindDetail{Clock: cd}}
	if p.Err != nil || len(r.CostNs) == 0 {
		cd.Unavailable = p.Unavailable
		if cd.Unavailable == "" && p.Err != nil {
			cd.Unavailable = p.Err.Error()
		}
		if cd.Unavailable == "" {
			cd.Unavailable = "clock: no read was timed"
		}
		return m
	}
	cd.Steps = &result.ClockSteps{Reads: r.Reads, Changes: r.Changes, TickChanges: r.TickChanges, TickNs: r.TickNs, TickBasis: r.TickBasis,
		BackwardSteps: r.BackwardSteps, MaxBackwardNs: r.MaxBackwardNs}
	cd.BatchReads = r.BatchSize
	if c := r.Cross; c != nil {
		cd.Cross = &result.ClockCross{Mode: c.Mode, Threads: c.Threads, CPUs: slices.Clone(c.CPUs), Pinned: c.Pinned, PinError: c.PinError,
			Comparisons: c.Comparisons, BackwardSteps: c.BackwardSteps, MaxBackwardNs: c.MaxBackwardNs}
	}
	costs := slices.Clone(r.CostNs)
	sum := stats.Summarize(costs)
	res := 1.0 // the timing clock's unit (Mono: 1 ns) over the batch
	if r.BatchSize > 0 {
		res /= float64(r.BatchSize)
	}
	m.Primary = MetricReadCost
	m.Metrics = append(m.Metrics, result.Metric{
		Name: MetricReadCost, Unit: result.UnitNs, Values: costs, Resolution: res, Summary: &sum,
		Percentiles:      map[string]float64{"p50": r.CostMedianNs, "p99": r.CostP99Ns},
		PercentileMethod: string(stats.Linear),
	})
	return m
}

// pathCheck says how the vDSO paths of rs were checked: "counted",
// "inferred" or "none".
func pathCheck(rs []Measured) string {
	for _, r := range rs {
		switch b := r.Props.PathBasis; {
		case strings.HasPrefix(b, "measured"):
			return "counted"
		case strings.HasPrefix(b, "inferred"):
			return "inferred"
		}
	}
	return "none"
}
