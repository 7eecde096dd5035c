package result

import (
	"fmt"
	"slices"
	"strings"

	"github.com/chronograph/chronograph/capture"
	"github.com/chronograph/chronograph/internal/excerpt"
)

// KindPulses is the kind of a pulses document (chrono pulses): the pulse
// widths, periods, duty cycles, frequencies and latencies read from a
// logic-analyzer or simulator capture.
const KindPulses = "pulses"

// The figures of a pulses document, each one measurement "CHANNEL FIGURE"
// (a latency: "FROM:EDGE->TO:EDGE") whose one metric, its primary, is
// named after the figure.
const (
	PulseHigh       = "high"        // widths of the high pulses, ns
	PulseLow        = "low"         // widths of the low pulses, ns
	PulseRisePeriod = "rise_period" // from each rising edge to the next, ns
	PulseFallPeriod = "fall_period" // from each falling edge to the next, ns
	PulseDuty       = "duty"        // time high over each rise-to-rise period, 1
	PulseFrequency  = "frequency"   // of each rise-to-rise period, Hz
	PulseLatency    = "latency"     // from each From edge to its To edge, ns
)

// PulsesRun holds what a pulses document read and how: the capture's
// description, the rules applied, and the counts per channel and per
// latency that are not samples.
type PulsesRun struct {
	// Source is the capture file's name.
	Source string `json:"source"`
	// Capture describes the capture as its reader found it: format, tick,
	// sample rate, signals, date, writer (device or simulator), trigger.
	Capture capture.Info `json:"capture"`
	// ResolutionNs is the finest step the capture can show, in ns (the
	// sample period, or the VCD timescale): the digits rule of every
	// duration; 0 when the capture has no timescale.
	ResolutionNs float64 `json:"resolution_ns"`
	// StartNs and EndNs are the times of the first change and of the
	// capture's end, in ns from its time zero; Changes counts the value
	// changes read.
	StartNs float64 `json:"start_ns"`
	EndNs   float64 `json:"end_ns"`
	Changes uint64  `json:"changes"`
	// MinWidthNs is the shortest pulse (--min-width), in ns: a shorter
	// one is a glitch, listed apart; 0 when not given (only pulses of
	// zero length are glitches).
	MinWidthNs float64 `json:"min_width_ns,omitempty"`
	// Keep is the most values a metric holds (--keep): a figure of more
	// values is binned (Metric.Histogram), its count, min and max exact,
	// its mean and standard deviation computed from every value.
	Keep int `json:"keep"`
	// Exactness says in words what is exact and what is binned.
	Exactness string `json:"exactness"`
	// Channels are the channels measured, in the order asked.
	Channels []PulsesChannel `json:"channels"`
	// Between are the latencies asked for (--between), in order.
	Between []PulsesBetween `json:"between,omitempty"`
	// Window is a representative stretch of the capture for a waveform
	// strip: the changes of the measured channels from WindowStartNs to
	// WindowEndNs.
	Window *PulsesWindow `json:"window,omitempty"`
	// ElapsedNs is how long the analysis took (wall clock, monotonic), and
	// EdgesPerSecond the confirmed edges of the measured channels per
	// second of it.
	ElapsedNs      int64   `json:"elapsed_ns"`
	EdgesPerSecond float64 `json:"edges_per_second"`
}

// PulsesChannel holds the counts of one channel that are not samples.
type PulsesChannel struct {
	Name string `json:"name"`
	// Rises and Falls count the confirmed edges.
	Rises int `json:"rises"`
	Falls int `json:"falls"`
	// Unknown counts the runs cut by an x or z, Open those cut by the
	// capture's start or end: they have no width.
	Unknown int `json:"unknown"`
	Open    int `json:"open"`
	// GlitchCount counts the pulses shorter than MinWidthNs (removed from
	// the widths, periods and latencies); Glitches lists the first of
	// them (at most Keep).
	GlitchCount int           `json:"glitch_count"`
	Glitches    []PulseGlitch `json:"glitches,omitempty"`
}

// PulseGlitch is one glitch: when it started (ns), how long it was (ns)
// and its level ("high": a spike on a low line).
type PulseGlitch struct {
	StartNs float64 `json:"start_ns"`
	WidthNs float64 `json:"width_ns"`
	Level   string  `json:"level"`
}

// PulsesBetween holds the edges of one --between left unpaired.
type PulsesBetween struct {
	// From and To are the edges, "CHANNEL:rise" or "CHANNEL:fall";
	// WithinNs pairs only latencies up to it (0: no limit).
	From     string  `json:"from"`
	To       string  `json:"to"`
	WithinNs float64 `json:"within_ns,omitempty"`
	// Unmatched counts From edges with no To edge (within WithinNs, or
	// before the end), Extra From edges while one was pending, Unprompted
	// To edges with no From edge pending, Unknown From edges cut by an x
	// or z.
	Unmatched  int `json:"unmatched"`
	Extra      int `json:"extra"`
	Unprompted int `json:"unprompted"`
	Unknown    int `json:"unknown"`
}

// PulsesWindow is a stretch of a capture: per channel (PulsesRun.Channels'
// order) its level at WindowStartNs and its changes up to WindowEndNs.
type PulsesWindow struct {
	StartNs float64       `json:"start_ns"`
	EndNs   float64       `json:"end_ns"`
	Traces  []PulsesTrace `json:"traces"`
}

// PulsesTrace is one channel's levels in a window: Levels[i] ("0", "1",
// "x", "z") holds from TimesNs[i] on.
type PulsesTrace struct {
	Name    string    `json:"name"`
	TimesNs []float64 `json:"times_ns"`
	Levels  string    `json:"levels"`
}

// PulsesDetail names what one measurement of a pulses document is: the
// channel and figure, or the latency's edges.
type PulsesDetail struct {
	// Channel is the channel of a width, period, duty cycle or frequency;
	// absent for a latency.
	Channel string `json:"channel,omitempty"`
	// Figure is one of high, low, rise_period, fall_period, duty,
	// frequency, latency.
	Figure string `json:"figure"`
	// From and To are a latency's edges; absent otherwise.
	From string `json:"from,omitempty"`
	To   string `json:"to,omitempty"`
}

// pulseFigures lists the figures a pulses measurement may be.
var pulseFigures = []string{PulseHigh, PulseLow, PulseRisePeriod, PulseFallPeriod, PulseDuty, PulseFrequency, PulseLatency}

// validate checks one measurement m of a pulses document: its detail
// names a figure, its primary metric is that figure's, a latency names
// its edges and a channel's figure its channel.
func (d *PulsesDetail) validate(m *Measurement) error {
	q := excerpt.Quote(m.Name)
	switch {
	case d == nil:
		return fmt.Errorf(`result: pulses measurement %s has no "detail.pulses": pass the whole document chrono pulses wrote`, q)
	case !slices.Contains(pulseFigures, d.Figure):
		return fmt.Errorf("result: pulses measurement %s: figure %s is not one of %s", q, excerpt.Quote(d.Figure), strings.Join(pulseFigures, ", "))
	case m.Primary != d.Figure:
		return fmt.Errorf("result: pulses measurement %s: its primary metric is %s, not its figure %s", q, excerpt.Quote(m.Primary), d.Figure)
	case d.Figure == PulseLatency && (d.From == "" || d.To == ""):
		return fmt.Errorf("result: pulses measurement %s: a latency names its edges (from, to)", q)
	case d.Figure != PulseLatency && d.Channel == "":
		return fmt.Errorf("result: pulses measurement %s: a %s names its channel", q, d.Figure)
	}
	return nil
}
