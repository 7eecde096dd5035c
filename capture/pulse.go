package capture

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
)

// Edge is a transition between the two known levels of a channel.
type Edge uint8

const (
	// Rise is a change from Low to High.
	Rise Edge = 1
	// Fall is a change from High to Low.
	Fall Edge = 2
)

func (e Edge) String() string {
	switch e {
	case Rise:
		return "rise"
	case Fall:
		return "fall"
	}
	return "?"
}

// EdgeRef names one kind of edge of one channel: "irq:rise".
type EdgeRef struct {
	Channel string
	Edge    Edge
}

func (e EdgeRef) String() string { return e.Channel + ":" + e.Edge.String() }

// ParseEdgeRef reads CHANNEL:rise or CHANNEL:fall.
func ParseEdgeRef(s string) (EdgeRef, error) {
	i := strings.LastIndexByte(s, ':')
	if i <= 0 {
		return EdgeRef{}, fmt.Errorf("capture: edge %q is not CHANNEL:rise or CHANNEL:fall", s)
	}
	ref := EdgeRef{Channel: s[:i]}
	switch s[i+1:] {
	case "rise":
		ref.Edge = Rise
	case "fall":
		ref.Edge = Fall
	default:
		return EdgeRef{}, fmt.Errorf("capture: edge %q: %q is not rise or fall", s, s[i+1:])
	}
	return ref, nil
}

// Between asks for the latency from each From edge to the To edge that
// answers it. Pairing, in time order (a To edge at the same time as a
// From edge of another channel answers it, latency 0; an edge never
// answers itself):
//   - a From edge is pending until a To edge answers it; the latency is
//     the time from it to that To edge;
//   - a From edge that comes while an earlier one is pending is Extra: it
//     is not paired (the To edge answers the first one, so the latency
//     measured is the longest; an interrupt that fires again before its
//     task starts is an overrun, not a second response);
//   - with Within > 0, a pending From edge that no To edge answers within
//     Within ticks is Unmatched (missed), and so is one pending when the
//     capture ends;
//   - a To edge with no pending From edge is Unprompted;
//   - an unknown level (x or z) of either channel while a From edge is
//     pending makes that From edge Unknown: a To edge may have been
//     hidden.
type Between struct {
	From, To EdgeRef
	// Within is the longest latency paired, in ticks; 0 for no limit.
	Within uint64
}

// Spec says what Analyze measures.
type Spec struct {
	// Channels are the channels to measure pulses of (see Info.Lookup
	// for names); empty for every signal.
	Channels []string
	// MinWidth is the shortest pulse, in ticks (Resolution.CeilTicks
	// converts a duration): a shorter one is a glitch (see Pulses). A
	// pulse of zero length (two changes at one time, a simulator's delta
	// cycle) is always a glitch.
	MinWidth uint64
	// Between are the latencies to measure.
	Between []Between
	// Keep bounds the memory of the analysis: each figure (Sample) keeps
	// at most Keep values and bins every value beyond (see Sample), and
	// each channel lists at most Keep glitches (it counts them all). 0
	// keeps everything.
	Keep int
	// Window is the number of level changes of the measured channels to
	// keep from the capture's start (Analysis.Window), for a waveform
	// strip; 0 keeps none.
	Window int
}

// LevelChange is one change of a measured channel's level, for a
// waveform strip.
type LevelChange struct {
	Time uint64
	// Channel indexes Analysis.Channels.
	Channel int
	Level   Level
}

// Glitch is a pulse shorter than Spec.MinWidth, removed from the pulses
// (see Pulses).
type Glitch struct {
	// Start is the time of the glitch's first edge, in ticks.
	Start uint64
	// Width is its length in ticks (0 for a delta-cycle glitch).
	Width uint64
	// Level is the level of the glitch (High: a spike on a low line).
	Level Level
}

// Pulses are the pulses of one channel. Every run of one level between
// two changes is counted once, in exactly one of: High or Low (a width),
// Glitches, Unknown, Open.
//
//   - A run of a known level bounded by edges to the other known level on
//     both sides has a width: High or Low, in ticks, never 0.
//   - A run shorter than Spec.MinWidth (or of zero length) bounded so is
//     a glitch: reported in Glitches and removed, the two runs around it
//     (both of the other level) and itself joined into one run, as a
//     logic analyzer's glitch filter does (a spike on a line does not cut
//     the pulse it rides on). Its edges are not edges: they count in no
//     period, duty cycle or latency. Runs are read in time order, so of
//     a burst of glitches each is removed in turn.
//   - An edge is only confirmed by the run after it: that run lasts at
//     least MinWidth, or ends at a confirmed edge. A run that ends at an
//     edge that is not confirmed (the run after it is cut by an x or z,
//     or by the capture's end, before MinWidth) has no width either.
//   - A run that an unknown level (x or z) cuts on either side has no
//     width: it counts in Unknown. The unknown runs themselves are not
//     pulses.
//   - A run that the capture's start or end cuts has no width: it counts
//     in Open (the first and last run of every channel, at least).
//
// A vector's level is its reduction OR (see Change.Level): its pulses
// are its nonzero stretches; name a bit ("bus[3]") to measure one bit.
type Pulses struct {
	Channel Channel
	// High and Low are the widths of the high and low pulses, in ticks,
	// in time order.
	High, Low Sample[uint64]
	// RisePeriods are the times from each rising edge to the next,
	// FallPeriods from each falling edge to the next, in ticks; an unknown
	// level between two edges breaks the chain (no period across it).
	RisePeriods, FallPeriods Sample[uint64]
	// Duty is the duty cycle of each rise-to-rise period: the time high
	// over the period, from 0 to 1 (exclusive), one per RisePeriods.
	Duty Sample[float64]
	// Rises and Falls count the confirmed edges.
	Rises, Falls int
	// Glitches are the removed pulses, in time order: the first
	// Spec.Keep of them (all with Keep 0); GlitchCount counts them all.
	Glitches    []Glitch
	GlitchCount int
	// Unknown counts the runs cut by an x or z; Open those cut by the
	// capture's start or end.
	Unknown, Open int
}

// Frequencies are the frequencies of the rise-to-rise periods kept
// (RisePeriods.Values), in hertz (NaN when tick is unknown). A binned
// period's frequencies are its bins' inverses.
func (p *Pulses) Frequencies(tick Resolution) []float64 {
	out := make([]float64, len(p.RisePeriods.Values))
	for i, t := range p.RisePeriods.Values {
		out[i] = 1 / tick.Seconds(t)
	}
	return out
}

func (p *Pulses) init(keep int) {
	for _, s := range []*Sample[uint64]{&p.High, &p.Low, &p.RisePeriods, &p.FallPeriods} {
		s.keep = keep
	}
	p.Duty.keep = keep
}

func (p *Pulses) finish() {
	for _, s := range []*Sample[uint64]{&p.High, &p.Low, &p.RisePeriods, &p.FallPeriods} {
		s.finish()
	}
	p.Duty.finish()
}

// Latencies are the latencies of one Between.
type Latencies struct {
	Between  Between
	From, To Channel
	// Ticks are the latencies, in ticks, in time order (0 when the two
	// edges are at one time).
	Ticks Sample[uint64]
	// Unmatched, Extra, Unprompted and Unknown count the edges left
	// unpaired (see Between).
	Unmatched, Extra, Unprompted, Unknown int
}

// Analysis is what Analyze measured.
type Analysis struct {
	// Tick is the capture's tick (every figure is in ticks of it), and
	// Resolution the finest step it can show (Info.Resolution).
	Tick, Resolution Resolution
	// Start and End are the times of the first change and of the end of
	// the capture (Reader.End), in ticks.
	Start, End uint64
	// Changes counts the value changes read.
	Changes uint64
	// Interrupted says that the reading stopped before the end of the
	// capture (AnalyzeContext's context ended): End is then the time of
	// the last change read, and every figure covers the capture up to it.
	Interrupted bool
	Channels    []Pulses
	Between     []Latencies
	// Window holds the first Spec.Window level changes of the measured
	// channels (each channel's first level included), in time order.
	Window []LevelChange
}

// Analyze reads every change of r (to io.EOF) and measures the pulses of
// the channels spec names and the latencies it asks for, as it reads: the
// latencies are paired on the way (an edge waits only until the other
// channel of its Between can no longer give an earlier one: at most
// Spec.MinWidth ticks). It keeps the figures of those channels and no
// more of the capture: every value (8 bytes each) with Spec.Keep 0, at
// most Keep values per figure and bins beyond (see Sample) otherwise,
// which bounds its memory whatever the capture's length. The reader
// itself streams in constant memory.
func Analyze(r *Reader, spec Spec) (*Analysis, error) {
	return AnalyzeContext(context.Background(), r, spec)
}

// checkEvery is how many changes AnalyzeContext reads between looks at
// its context: a few µs of reading, so that a signal is honoured at once.
const checkEvery = 1 << 12

// AnalyzeContext is Analyze, stopping when ctx ends: it then returns the
// analysis of what it read (Interrupted set, End the last change's time)
// with ctx's error, so that an interrupted reading keeps what it
// measured.
func AnalyzeContext(ctx context.Context, r *Reader, spec Spec) (*Analysis, error) {
	a, err := newAnalyzer(r.Info(), spec)
	if err != nil {
		return nil, err
	}
	for n := 1; ; n++ {
		if n%checkEvery == 0 && ctx.Err() != nil {
			res := a.finish(a.last)
			res.Interrupted = true
			return res, context.Cause(ctx)
		}
		c, err := r.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, err
		}
		a.add(c)
	}
	return a.finish(r.End()), nil
}

type analyzer struct {
	in       *Info
	spec     Spec
	bySignal [][]*tracker
	reported []*tracker
	paired   []*tracker // the trackers a Between reads, each once
	pairers  []*pairer
	res      *Analysis
	started  bool
	last     uint64
}

func newAnalyzer(in *Info, spec Spec) (*analyzer, error) {
	if spec.Keep < 0 {
		return nil, fmt.Errorf("capture: keep %d is negative: give 0 (keep every value) or a bound", spec.Keep)
	}
	a := &analyzer{in: in, spec: spec, bySignal: make([][]*tracker, len(in.Signals)),
		res: &Analysis{Tick: in.Tick, Resolution: in.Resolution()}}
	m := max(spec.MinWidth, 1)
	byName := map[string]*tracker{}
	get := func(name string) (*tracker, error) {
		ch, err := in.Lookup(name)
		if err != nil {
			return nil, err
		}
		if k, ok := byName[ch.Name]; ok {
			return k, nil
		}
		k := &tracker{out: &Pulses{Channel: ch}, m: m, keep: spec.Keep}
		k.out.init(spec.Keep)
		byName[ch.Name] = k
		a.bySignal[ch.Signal] = append(a.bySignal[ch.Signal], k)
		return k, nil
	}
	names := spec.Channels
	if len(names) == 0 {
		for _, s := range in.Signals {
			names = append(names, s.Name)
		}
	}
	for _, n := range names {
		k, err := get(n)
		if err != nil {
			return nil, err
		}
		if k.reported {
			return nil, fmt.Errorf("capture: channel %s asked for twice", k.out.Channel.Name)
		}
		k.reported, k.index = true, len(a.reported)
		a.reported = append(a.reported, k)
	}
	for _, b := range spec.Between {
		if b.From.Edge != Rise && b.From.Edge != Fall || b.To.Edge != Rise && b.To.Edge != Fall {
			return nil, fmt.Errorf("capture: between %s and %s: an edge is rise or fall", b.From, b.To)
		}
		from, err := get(b.From.Channel)
		if err != nil {
			return nil, err
		}
		to, err := get(b.To.Channel)
		if err != nil {
			return nil, err
		}
		p := &pairer{b: b, from: from, to: to}
		p.out.Between, p.out.Ticks.keep = b, spec.Keep
		for _, k := range []*tracker{from, to} {
			if len(k.pairers) == 0 {
				a.paired = append(a.paired, k)
			}
			if len(k.pairers) == 0 || k.pairers[len(k.pairers)-1] != p {
				k.pairers = append(k.pairers, p)
			}
		}
		a.pairers = append(a.pairers, p)
	}
	return a, nil
}

func (a *analyzer) add(c Change) {
	if !a.started {
		a.started, a.res.Start = true, c.Time
	}
	a.last = c.Time
	a.res.Changes++
	// A candidate edge that has lasted MinWidth is confirmed now rather
	// than at its channel's next change (the same outcome: see change),
	// so that the latencies waiting on it can be paired.
	for _, k := range a.paired {
		if k.pending && c.Time-k.pt >= k.m {
			k.confirm()
		}
	}
	for _, k := range a.bySignal[c.Signal] {
		l := c.Level
		if k.out.Channel.Bit >= 0 {
			l = c.Bit(k.out.Channel.Bit)
		}
		if l == HighZ {
			l = Unknown
		}
		if k.reported && len(a.res.Window) < a.spec.Window && (!k.started || l != k.raw) {
			a.res.Window = append(a.res.Window, LevelChange{Time: c.Time, Channel: k.index, Level: l})
		}
		k.change(c.Time, l)
	}
	for _, p := range a.pairers {
		p.release(c.Time, false)
	}
}

func (a *analyzer) finish(end uint64) *Analysis {
	end = max(end, a.last)
	a.res.End = end
	for _, ks := range a.bySignal {
		for _, k := range ks {
			k.finish(end)
		}
	}
	for _, k := range a.reported {
		k.out.finish()
		a.res.Channels = append(a.res.Channels, *k.out)
	}
	for _, p := range a.pairers {
		p.release(end, true)
		if p.pending {
			p.out.Unmatched++
		}
		p.out.Ticks.finish()
		p.out.From, p.out.To = p.from.out.Channel, p.to.out.Channel
		a.res.Between = append(a.res.Between, p.out)
	}
	return a.res
}

type startKind uint8

const (
	startClean   startKind = iota // at a confirmed edge
	startCapture                  // at the capture's start
	startUnknown                  // after an x or z
)

// event is a confirmed edge, or (edge 0) an unknown level, of a channel.
type event struct {
	t    uint64
	edge Edge
}

// tracker turns the levels of one channel into pulses (see Pulses).
type tracker struct {
	out      *Pulses
	m        uint64 // the shortest pulse, >= 1
	keep     int
	index    int // in Analysis.Channels, when reported
	reported bool
	started  bool
	raw      Level     // the level now
	com      Level     // the level of the committed run (Low, High or Unknown)
	cs       uint64    // when the committed run began
	start    startKind // how it began
	pending  bool      // raw is the other known level since pt, not yet confirmed
	pt       uint64
	// the chain of edges for periods and duty cycles
	lastRise, lastFall, fallT   uint64
	haveRise, haveFall, fallSet bool
	pairers                     []*pairer // the Betweens that read this channel's edges
}

// horizon is the earliest time of an event the tracker may still give,
// now being the time of the change read last: its candidate edge, or now.
func (k *tracker) horizon(now uint64) uint64 {
	if k.pending {
		return k.pt
	}
	return now
}

func (k *tracker) emit(e event) {
	for _, p := range k.pairers {
		p.event(k, e)
	}
}

func (k *tracker) change(t uint64, l Level) {
	if l == HighZ {
		l = Unknown
	}
	if !k.started {
		k.started, k.raw, k.com, k.cs, k.start = true, l, l, t, startCapture
		return
	}
	if l == k.raw {
		return
	}
	k.raw = l
	switch {
	case k.com == Unknown: // l is known
		k.com, k.cs, k.start = l, t, startUnknown
	case !k.pending && l == Unknown:
		k.cut(false)
		k.toUnknown(t)
	case !k.pending: // l is the other known level
		k.pending, k.pt = true, t
	case l == k.com: // back before the candidate run was confirmed
		if w := t - k.pt; w < k.m {
			k.out.GlitchCount++
			if k.keep == 0 || len(k.out.Glitches) < k.keep {
				k.out.Glitches = append(k.out.Glitches, Glitch{Start: k.pt, Width: w, Level: 1 - k.com})
			}
			k.pending = false
			return
		}
		k.confirm()
		k.pending, k.pt = true, t
	default: // the candidate run ends in an unknown level
		if t-k.pt >= k.m {
			k.confirm()
			k.cut(false)
		} else {
			k.cut(false)
			k.out.Unknown++
		}
		k.pending = false
		k.toUnknown(t)
	}
}

// confirm ends the committed run at the candidate edge pt.
func (k *tracker) confirm() {
	switch k.start {
	case startClean:
		if k.com == High {
			k.out.High.add(k.pt - k.cs)
		} else {
			k.out.Low.add(k.pt - k.cs)
		}
	case startCapture:
		k.out.Open++
	default:
		k.out.Unknown++
	}
	if k.com == Low {
		k.edge(Rise, k.pt)
	} else {
		k.edge(Fall, k.pt)
	}
	k.com, k.cs, k.start, k.pending = 1-k.com, k.pt, startClean, false
}

// cut counts the committed run, cut by an unknown level or (atEnd) the
// capture's end.
func (k *tracker) cut(atEnd bool) {
	if atEnd || k.start == startCapture {
		k.out.Open++
	} else {
		k.out.Unknown++
	}
}

func (k *tracker) toUnknown(t uint64) {
	k.com = Unknown
	k.haveRise, k.haveFall, k.fallSet = false, false, false
	k.emit(event{t: t})
}

func (k *tracker) edge(e Edge, t uint64) {
	k.emit(event{t, e})
	if e == Rise {
		k.out.Rises++
		if k.haveRise {
			p := t - k.lastRise
			k.out.RisePeriods.add(p)
			if k.fallSet {
				k.out.Duty.add(float64(k.fallT-k.lastRise) / float64(p))
			}
		}
		k.lastRise, k.haveRise, k.fallSet = t, true, false
		return
	}
	k.out.Falls++
	if k.haveFall {
		k.out.FallPeriods.add(t - k.lastFall)
	}
	k.lastFall, k.haveFall = t, true
	if k.haveRise {
		k.fallT, k.fallSet = t, true
	}
}

func (k *tracker) finish(end uint64) {
	if !k.started || k.com == Unknown {
		return
	}
	if k.pending {
		if end-k.pt >= k.m {
			k.confirm()
		} else {
			k.out.Open++ // the candidate run
		}
	}
	k.cut(true)
}

// pairer pairs the edges of one Between (see Between) as they come. The
// edges of the two channels are confirmed out of time order (an edge only
// when the run after it has lasted MinWidth), so each waits in its
// channel's queue until the other channel can no longer give an earlier
// edge (its horizon); edges at one time are taken From first, so that a
// To edge at the same time answers the From edge.
type pairer struct {
	b        Between
	from, to *tracker
	as, bs   []event // the edges of From and of To waiting
	pending  bool    // a From edge waits for its To edge, since pt
	pt       uint64
	out      Latencies
}

// event takes an event of tracker k.
func (p *pairer) event(k *tracker, e event) {
	if p.from == p.to {
		// One channel: its events come in time order.
		switch {
		case e.edge == 0:
			p.unknown()
			return
		case e.edge == p.b.To.Edge:
			p.onB(e.t)
		}
		if e.edge == p.b.From.Edge {
			p.onA(e.t)
		}
		return
	}
	if k == p.from {
		p.as = append(p.as, e)
	} else {
		p.bs = append(p.bs, e)
	}
}

// release pairs the waiting edges that no edge still to come can precede
// (all of them when final), now being the time of the change read last.
func (p *pairer) release(now uint64, final bool) {
	for len(p.as) > 0 || len(p.bs) > 0 {
		if len(p.as) > 0 && (len(p.bs) == 0 || p.as[0].t <= p.bs[0].t) {
			e := p.as[0]
			if !final && len(p.bs) == 0 && e.t > p.to.horizon(now) {
				return
			}
			p.as = p.as[1:]
			p.take(e, p.b.From.Edge, p.onA)
			continue
		}
		e := p.bs[0]
		if !final && len(p.as) == 0 && e.t >= p.from.horizon(now) {
			return
		}
		p.bs = p.bs[1:]
		p.take(e, p.b.To.Edge, p.onB)
	}
}

func (p *pairer) take(e event, edge Edge, on func(uint64)) {
	if e.edge == 0 {
		p.unknown()
	} else if e.edge == edge {
		on(e.t)
	}
}

func (p *pairer) expire(t uint64) {
	if p.pending && p.b.Within > 0 && t-p.pt > p.b.Within {
		p.out.Unmatched++
		p.pending = false
	}
}

func (p *pairer) unknown() {
	if p.pending {
		p.out.Unknown++
		p.pending = false
	}
}

func (p *pairer) onA(t uint64) {
	p.expire(t)
	if p.pending {
		p.out.Extra++
		return
	}
	p.pending, p.pt = true, t
}

func (p *pairer) onB(t uint64) {
	p.expire(t)
	if !p.pending {
		p.out.Unprompted++
		return
	}
	p.out.Ticks.add(t - p.pt)
	p.pending = false
}
