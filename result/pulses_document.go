package result

import (
	"fmt"
	"math"
	"time"

	"github.com/chronograph/chronograph/capture"
	"github.com/chronograph/chronograph/stats"
	"github.com/chronograph/chronograph/unit"
	"github.com/chronograph/chronograph/warn"
)

// PulsesPercentiles are the percentiles a pulses document records for
// each figure.
var PulsesPercentiles = []float64{1, 5, 50, 95, 99}

// PulsesInput is what PulsesDocument needs besides the analysis: the
// capture's name and description, the rules it was analysed with and how
// long the analysis took.
type PulsesInput struct {
	Source   string
	Info     *capture.Info
	Spec     capture.Spec
	Elapsed  time.Duration
	Analysis *capture.Analysis
}

// PulsesDocument is the pulses document of an analysis (see KindPulses):
// per channel its high and low widths, its rise and fall periods, duty
// cycles and frequencies, then each latency, every duration in ns.
func PulsesDocument(in PulsesInput, m Meta) *Document {
	a := in.Analysis
	d := New(KindPulses, m)
	d.End = d.Start
	d.Start = d.End.Add(-in.Elapsed)
	tick := a.Tick
	ns := func(t uint64) float64 { return tick.Nanoseconds(t) }
	resNs := a.Resolution.Nanoseconds(1)
	if math.IsNaN(resNs) {
		resNs = 0
	}
	run := &PulsesRun{Source: in.Source, Capture: *in.Info, ResolutionNs: resNs, StartNs: zeroNaN(ns(a.Start)), EndNs: zeroNaN(ns(a.End)),
		Changes: a.Changes, MinWidthNs: zeroNaN(ns(in.Spec.MinWidth)), Keep: in.Spec.Keep, ElapsedNs: in.Elapsed.Nanoseconds()}
	run.Exactness = fmt.Sprintf("every figure of at most %d values holds them all (exact, in ticks of %s); a figure of more is binned: "+
		"its count, min and max exact, its mean and standard deviation computed from every value, its bins exact below 2048 ticks "+
		"and at most 1/1024 of their value wide above (duty cycles: bins of 1/65536), its percentiles read from the bins", in.Spec.Keep, tick)
	if in.Spec.Keep == 0 {
		run.Exactness = fmt.Sprintf("every figure holds every value (exact, in ticks of %s)", tick)
	}
	edges := 0
	d.Measurements = []Measurement{}
	for _, p := range a.Channels {
		name := p.Channel.Name
		ch := PulsesChannel{Name: name, Rises: p.Rises, Falls: p.Falls, Unknown: p.Unknown, Open: p.Open, GlitchCount: p.GlitchCount}
		for _, g := range p.Glitches {
			ch.Glitches = append(ch.Glitches, PulseGlitch{StartNs: ns(g.Start), WidthNs: ns(g.Width), Level: map[capture.Level]string{capture.High: "high", capture.Low: "low"}[g.Level]})
		}
		edges += p.Rises + p.Falls
		run.Channels = append(run.Channels, ch)
		for _, f := range []struct {
			fig string
			s   *capture.Sample[uint64]
		}{{PulseHigh, &p.High}, {PulseLow, &p.Low}, {PulseRisePeriod, &p.RisePeriods}, {PulseFallPeriod, &p.FallPeriods}} {
			d.Measurements = append(d.Measurements, pulseMeasurement(name+" "+f.fig, &PulsesDetail{Channel: name, Figure: f.fig},
				ticksMetric(f.fig, f.s, tick, resNs)))
		}
		d.Measurements = append(d.Measurements, pulseMeasurement(name+" "+PulseDuty, &PulsesDetail{Channel: name, Figure: PulseDuty}, dutyMetric(&p.Duty)))
		if tick.Known() { // a frequency needs a time: none without a timescale
			d.Measurements = append(d.Measurements,
				pulseMeasurement(name+" "+PulseFrequency, &PulsesDetail{Channel: name, Figure: PulseFrequency}, frequencyMetric(&p.RisePeriods, tick)))
		}
	}
	for _, l := range a.Between {
		from, to := l.Between.From.String(), l.Between.To.String()
		run.Between = append(run.Between, PulsesBetween{From: from, To: to, WithinNs: zeroNaN(ns(l.Between.Within)),
			Unmatched: l.Unmatched, Extra: l.Extra, Unprompted: l.Unprompted, Unknown: l.Unknown})
		d.Measurements = append(d.Measurements, pulseMeasurement(from+"->"+to, &PulsesDetail{Figure: PulseLatency, From: from, To: to},
			ticksMetric(PulseLatency, &l.Ticks, tick, resNs)))
	}
	if len(a.Window) > 0 {
		w := &PulsesWindow{StartNs: ns(a.Window[0].Time), EndNs: ns(a.Window[len(a.Window)-1].Time), Traces: make([]PulsesTrace, len(a.Channels))}
		levels := make([][]byte, len(a.Channels))
		for i, p := range a.Channels {
			w.Traces[i] = PulsesTrace{Name: p.Channel.Name, TimesNs: []float64{}}
		}
		for _, c := range a.Window {
			w.Traces[c.Channel].TimesNs = append(w.Traces[c.Channel].TimesNs, ns(c.Time))
			levels[c.Channel] = append(levels[c.Channel], levelByte(c.Level))
		}
		for i := range w.Traces {
			w.Traces[i].Levels = string(levels[i])
		}
		if !math.IsNaN(w.StartNs) {
			run.Window = w
		}
	}
	if s := in.Elapsed.Seconds(); s > 0 {
		run.EdgesPerSecond = float64(edges) / s
	}
	d.Run.Pulses = run
	if a.Interrupted {
		at := fmt.Sprintf("tick %d", a.End)
		if e := ns(a.End); !math.IsNaN(e) {
			at = unit.Duration(e, unit.Exactly(e, ns(1)))
		}
		d.Warnings = append(d.Warnings, warn.New("interrupted",
			fmt.Sprintf("interrupted: the capture was read up to %s (%d changes); every figure covers that part only", at, a.Changes),
			"let the reading finish, or give a shorter capture"))
	}
	return d
}

func levelByte(l capture.Level) byte {
	switch l {
	case capture.Low:
		return '0'
	case capture.High:
		return '1'
	case capture.HighZ:
		return 'z'
	}
	return 'x'
}

func zeroNaN(x float64) float64 {
	if math.IsNaN(x) {
		return 0
	}
	return x
}

func pulseMeasurement(name string, det *PulsesDetail, met Metric) Measurement {
	return Measurement{Name: name, Primary: det.Figure, Metrics: []Metric{met}, Detail: KindDetail{Pulses: det}}
}

// ticksMetric is the metric of a sample of tick counts, in ns: its values,
// or its bins (each widened by half a tick on either side, so that a
// value read from a bin of one tick count rounds to it).
func ticksMetric(name string, s *capture.Sample[uint64], tick capture.Resolution, resNs float64) Metric {
	if !s.Binned() {
		xs := []float64{}
		for _, v := range s.Values {
			xs = append(xs, tick.Nanoseconds(v))
		}
		return SampleMetric(name, UnitNs, resNs, xs, PulsesPercentiles...)
	}
	h := &Histogram{Min: tick.Nanoseconds(s.Min), Max: tick.Nanoseconds(s.Max), Mean: float64(s.Mean * tick.Nanoseconds(1))}
	sd := float64(s.StdDev() * tick.Nanoseconds(1))
	h.StdDev = &sd
	for _, b := range s.Bins {
		lo, hi := float64(float64(b.Lo)-0.5)*tick.Nanoseconds(1), float64(float64(b.Hi)+0.5)*tick.Nanoseconds(1)
		appendBin(h, lo, hi, int64(b.Count))
	}
	return binnedMetric(name, UnitNs, resNs, h)
}

// appendBin adds the bin [lo, hi) of count values to h, with an empty bin
// before it when it does not start where the last one ended.
func appendBin(h *Histogram, lo, hi float64, count int64) {
	switch n := len(h.Bounds); {
	case n == 0:
		h.Bounds = append(h.Bounds, lo)
	case lo > h.Bounds[n-1]:
		h.Bounds = append(h.Bounds, lo)
		h.Counts = append(h.Counts, 0)
	}
	h.Bounds = append(h.Bounds, hi)
	h.Counts = append(h.Counts, count)
}

func binnedMetric(name, unit string, res float64, h *Histogram) Metric {
	m := Metric{Name: name, Unit: unit, Values: []float64{}, Histogram: h, Resolution: res,
		Percentiles: map[string]float64{}, PercentileMethod: "linear-binned"}
	for _, p := range PulsesPercentiles {
		m.Percentiles[stats.PercentileLabel(p)] = h.Quantile(p / 100)
	}
	return m
}

func dutyMetric(s *capture.Sample[float64]) Metric {
	if !s.Binned() {
		xs := append([]float64{}, s.Values...)
		return SampleMetric(PulseDuty, UnitOne, 0, xs, PulsesPercentiles...)
	}
	sd := s.StdDev()
	h := &Histogram{Min: s.Min, Max: s.Max, Mean: s.Mean, StdDev: &sd}
	for _, b := range s.Bins {
		appendBin(h, b.Lo, b.Hi, int64(b.Count))
	}
	return binnedMetric(PulseDuty, UnitOne, 0, h)
}

// frequencyMetric is the metric of the frequencies of the rise-to-rise
// periods p: 1/period each, or the period's bins inverted (the mean and
// standard deviation then read from the bins' middles).
func frequencyMetric(p *capture.Sample[uint64], tick capture.Resolution) Metric {
	hz := func(t float64) float64 { return 1 / float64(t*tick.Seconds(1)) }
	if !p.Binned() {
		xs := []float64{}
		for _, v := range p.Values {
			xs = append(xs, hz(float64(v)))
		}
		return SampleMetric(PulseFrequency, UnitHz, 0, xs, PulsesPercentiles...)
	}
	h := &Histogram{Min: hz(float64(p.Max)), Max: hz(float64(p.Min))}
	var sum, sum2 float64
	for i := len(p.Bins) - 1; i >= 0; i-- {
		b := p.Bins[i]
		lo, hi := hz(float64(b.Hi)+0.5), hz(float64(b.Lo)-0.5)
		appendBin(h, lo, hi, int64(b.Count))
		mid := hz((float64(b.Lo) + float64(b.Hi)) / 2)
		sum += float64(float64(b.Count) * mid)
		sum2 += float64(float64(b.Count) * float64(mid*mid))
	}
	n := float64(p.N)
	h.Mean = sum / n
	sd := math.Sqrt(math.Max(0, sum2/n-float64(h.Mean*h.Mean)))
	h.StdDev = &sd
	return binnedMetric(PulseFrequency, UnitHz, 0, h)
}
