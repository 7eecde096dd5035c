package capture

import (
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
	High, Low []uint64
	// RisePeriods are the times from each rising edge to the next,
	// FallPeriods from each falling edge to the next, in ticks; an unknown
	// level between two edges breaks the chain (no period across it).
	RisePeriods, FallPeriods []uint64
	// Duty is the duty cycle of each rise-to-rise period: the time high
	// over the period, from 0 to 1 (exclusive), one per RisePeriods.
	Duty []float64
	// Rises and Falls count the confirmed edges.
	Rises, Falls int
	// Glitches are the removed pulses, in time order.
	Glitches []Glitch
	// Unknown counts the runs cut by an x or z; Open those cut by the
	// capture's start or end.
	Unknown, Open int
}

// Frequencies are the frequencies of the rise-to-rise periods, in hertz
// (NaN when tick is unknown).
func (p *Pulses) Frequencies(tick Resolution) []float64 {
	out := make([]float64, len(p.RisePeriods))
	for i, t := range p.RisePeriods {
		out[i] = 1 / tick.Seconds(t)
	}
	return out
}

// Latencies are the latencies of one Between.
type Latencies struct {
	Between  Between
	From, To Channel
	// Ticks are the latencies, in ticks, in time order (0 when the two
	// edges are at one time).
	Ticks []uint64
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
	Changes  uint64
	Channels []Pulses
	Between  []Latencies
}

// Analyze reads every change of r (to io.EOF) and measures the pulses of
// the channels spec names and the latencies it asks for. It keeps the
// widths, periods, duty cycles and latencies (8 bytes each) of those
// channels and no more of the capture: about 20 bytes per edge of a
// measured channel (a width, a period, a duty cycle every other edge),
// and 16 more per edge of a channel a Between names; a process holds
// about twice that, with the garbage collector's headroom. The reader
// itself streams in constant memory.
func Analyze(r *Reader, spec Spec) (*Analysis, error) {
	a, err := newAnalyzer(r.Info(), spec)
	if err != nil {
		return nil, err
	}
	for {
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
	between  []*tracker // From and To trackers, two per Between
	res      *Analysis
	started  bool
	last     uint64
}

func newAnalyzer(in *Info, spec Spec) (*analyzer, error) {
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
		k := &tracker{out: &Pulses{Channel: ch}, m: m}
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
		k.reported = true
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
		from.keepEdges, to.keepEdges = true, true
		a.between = append(a.between, from, to)
	}
	return a, nil
}

func (a *analyzer) add(c Change) {
	if !a.started {
		a.started, a.res.Start = true, c.Time
	}
	a.last = c.Time
	a.res.Changes++
	for _, k := range a.bySignal[c.Signal] {
		l := c.Level
		if k.out.Channel.Bit >= 0 {
			l = c.Bit(k.out.Channel.Bit)
		}
		k.change(c.Time, l)
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
		a.res.Channels = append(a.res.Channels, *k.out)
	}
	for i, b := range a.spec.Between {
		from, to := a.between[2*i], a.between[2*i+1]
		l := pair(b, from, to)
		l.From, l.To = from.out.Channel, to.out.Channel
		a.res.Between = append(a.res.Between, l)
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
	keepEdges                   bool
	events                      []event
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
			k.out.Glitches = append(k.out.Glitches, Glitch{Start: k.pt, Width: w, Level: 1 - k.com})
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
			k.out.High = append(k.out.High, k.pt-k.cs)
		} else {
			k.out.Low = append(k.out.Low, k.pt-k.cs)
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
	if k.keepEdges {
		k.events = append(k.events, event{t: t})
	}
}

func (k *tracker) edge(e Edge, t uint64) {
	if k.keepEdges {
		k.events = append(k.events, event{t, e})
	}
	if e == Rise {
		k.out.Rises++
		if k.haveRise {
			p := t - k.lastRise
			k.out.RisePeriods = append(k.out.RisePeriods, p)
			if k.fallSet {
				k.out.Duty = append(k.out.Duty, float64(k.fallT-k.lastRise)/float64(p))
			}
		}
		k.lastRise, k.haveRise, k.fallSet = t, true, false
		return
	}
	k.out.Falls++
	if k.haveFall {
		k.out.FallPeriods = append(k.out.FallPeriods, t-k.lastFall)
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

// pair pairs the edges of b (see Between).
func pair(b Between, from, to *tracker) Latencies {
	l := Latencies{Between: b}
	pending, pt := false, uint64(0)
	expire := func(t uint64) {
		if pending && b.Within > 0 && t-pt > b.Within {
			l.Unmatched++
			pending = false
		}
	}
	unknown := func() {
		if pending {
			l.Unknown++
			pending = false
		}
	}
	onA := func(t uint64) {
		expire(t)
		if pending {
			l.Extra++
			return
		}
		pending, pt = true, t
	}
	onB := func(t uint64) {
		expire(t)
		if !pending {
			l.Unprompted++
			return
		}
		l.Ticks = append(l.Ticks, t-pt)
		pending = false
	}
	if from == to {
		for _, e := range from.events {
			switch {
			case e.edge == 0:
				unknown()
				continue
			case e.edge == b.To.Edge:
				onB(e.t)
			}
			if e.edge == b.From.Edge {
				onA(e.t)
			}
		}
	} else {
		take := func(e event, edge Edge, on func(uint64)) {
			if e.edge == 0 {
				unknown()
			} else if e.edge == edge {
				on(e.t)
			}
		}
		as, bs := from.events, to.events
		for len(as) > 0 || len(bs) > 0 {
			// At one time, the From edge first: a To edge at the same time
			// answers it.
			if len(bs) == 0 || len(as) > 0 && as[0].t <= bs[0].t {
				take(as[0], b.From.Edge, onA)
				as = as[1:]
			} else {
				take(bs[0], b.To.Edge, onB)
				bs = bs[1:]
			}
		}
	}
	if pending {
		l.Unmatched++
	}
	return l
}
