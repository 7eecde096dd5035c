package tracer

import (
	"bufio"
	"cmp"
	"container/heap"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/chronograph/chronograph/internal/excerpt"
	"github.com/chronograph/chronograph/internal/outfile"
	"github.com/chronograph/chronograph/internal/plural"
)

// The Chrome trace-event JSON format (the "JSON Object Format" of the
// Trace Event Format document) is what ui.perfetto.dev, chrome://tracing
// and `chrono trace` read. WriteChrome maps a Trace onto it as follows:
//
//   - spans are complete events, ph "X", with ts and dur;
//   - instants are ph "i" with scope "t" (thread) and args.payload;
//   - counters are ph "C" with args.value;
//   - a lane is a thread: tid = LaneInfo.ID, named by a "thread_name"
//     metadata event (ph "M"); pid is the process id at the dump;
//   - an event's flow id is in args.flow (a "0x..." string), and the
//     events of one flow are linked by flow events ph "s" (first), "t"
//     and "f" (last, bp "e") at the same ts and tid, so that Perfetto
//     draws arrows between them;
//   - ts and dur are microseconds with exactly three decimals (the
//     recorded nanoseconds, unrounded);
//   - otherData holds the clock source, the wall-clock start, the ring
//     size and the number of events overwritten.
type chromeEvent struct {
	Name string         `json:"name"`
	Cat  string         `json:"cat,omitempty"`
	Ph   string         `json:"ph"`
	TS   json.Number    `json:"ts"`
	Dur  json.Number    `json:"dur,omitempty"`
	PID  int            `json:"pid"`
	TID  json.Number    `json:"tid"`
	S    string         `json:"s,omitempty"`
	ID   any            `json:"id,omitempty"`
	BP   string         `json:"bp,omitempty"`
	Args map[string]any `json:"args,omitempty"`
}

// micros formats ns as microseconds with three decimals, exactly.
func micros(ns int64) json.Number {
	sign := ""
	u := uint64(ns)
	if ns < 0 {
		sign, u = "-", uint64(-ns)
	}
	return json.Number(fmt.Sprintf("%s%d.%03d", sign, u/1000, u%1000))
}

// flowID formats a flow id for JSON (hex string: ids above 2^53 do not
// survive JavaScript's numbers).
func flowID(f uint64) string { return "0x" + strconv.FormatUint(f, 16) }

// payloadJSON keeps a payload exact: a number up to 2^53, else a string.
func payloadJSON(p uint64) any {
	if p <= 1<<53 {
		return p
	}
	return strconv.FormatUint(p, 10)
}

// WriteChrome writes tr as Chrome trace-event JSON to w.
func WriteChrome(w io.Writer, tr *Trace) error {
	bw := bufio.NewWriter(w)
	pid := os.Getpid()
	first := true
	emit := func(e chromeEvent) error {
		b, err := json.Marshal(e)
		if err != nil {
			return fmt.Errorf("tracer: encoding event %q: %w", e.Name, err)
		}
		if !first {
			bw.WriteString(",\n")
		}
		first = false
		_, err = bw.Write(b)
		return err
	}
	bw.WriteString(`{"traceEvents":[` + "\n")
	if err := emit(chromeEvent{Name: "process_name", Ph: "M", TS: "0", PID: pid, TID: "0", Args: map[string]any{"name": "chronograph tracer"}}); err != nil {
		return err
	}
	for i, l := range tr.Lanes {
		tid := json.Number(strconv.Itoa(l.ID))
		if err := emit(chromeEvent{Name: "thread_name", Ph: "M", TS: "0", PID: pid, TID: tid, Args: map[string]any{"name": l.Name}}); err != nil {
			return err
		}
		if err := emit(chromeEvent{Name: "thread_sort_index", Ph: "M", TS: "0", PID: pid, TID: tid, Args: map[string]any{"sort_index": i}}); err != nil {
			return err
		}
	}
	// Flow phases: the position of each event within its flow.
	flowPos := flowPositions(tr.Events)
	for i, e := range tr.Events {
		if e.Lane < 0 || e.Lane >= len(tr.Lanes) {
			return fmt.Errorf("tracer: event %d (%q) has lane %d, but the trace has %s", i, e.Name, e.Lane, plural.Count(len(tr.Lanes), "lane"))
		}
		ce := chromeEvent{Name: e.Name, Cat: string(e.Kind), TS: micros(e.TS), PID: pid, TID: json.Number(strconv.Itoa(tr.Lanes[e.Lane].ID))}
		args := map[string]any{}
		switch e.Kind {
		case KindSpan:
			ce.Ph, ce.Dur = "X", micros(e.Dur)
			if e.Dur == 0 {
				ce.Dur = "0.000"
			}
		case KindInstant:
			ce.Ph, ce.S = "i", "t"
			args["payload"] = payloadJSON(e.Payload)
		case KindCounter:
			ce.Ph = "C"
			if math.IsNaN(e.Value) || math.IsInf(e.Value, 0) {
				args["value"] = strconv.FormatFloat(e.Value, 'g', -1, 64)
			} else {
				args["value"] = e.Value
			}
		default:
			return fmt.Errorf("tracer: event %d (%q) has unknown kind %q", i, e.Name, e.Kind)
		}
		if e.Flow != 0 {
			args["flow"] = flowID(e.Flow)
		}
		if len(args) > 0 {
			ce.Args = args
		}
		if err := emit(ce); err != nil {
			return err
		}
		if ph, ok := flowPos[i]; ok {
			fe := chromeEvent{Name: "flow", Cat: "flow", Ph: ph, TS: ce.TS, PID: pid, TID: ce.TID, ID: flowID(e.Flow)}
			if ph == "f" {
				fe.BP = "e"
			}
			if err := emit(fe); err != nil {
				return err
			}
		}
	}
	bw.WriteString("\n],\n")
	other := map[string]any{
		"writer":      "chronograph tracer",
		"clock":       tr.Clock,
		"ring_events": tr.RingEvents,
		"overwritten": tr.Overwritten,
	}
	if !tr.Start.IsZero() {
		other["start"] = tr.Start.Format(time.RFC3339Nano)
	}
	ob, err := json.Marshal(other)
	if err != nil {
		return fmt.Errorf("tracer: encoding otherData: %w", err)
	}
	fmt.Fprintf(bw, "\"displayTimeUnit\":\"ns\",\n\"otherData\":%s}\n", ob)
	if err := bw.Flush(); err != nil {
		return fmt.Errorf("tracer: writing trace: %w", err)
	}
	return nil
}

// flowPositions maps the index of every event that belongs to a flow of
// two or more events to its flow phase: "s" for the first (by time), "f"
// for the last, "t" between.
func flowPositions(es []Event) map[int]string {
	byFlow := map[uint64][]int{}
	for i, e := range es {
		if e.Flow != 0 && e.Kind != KindCounter {
			byFlow[e.Flow] = append(byFlow[e.Flow], i)
		}
	}
	pos := map[int]string{}
	for _, idx := range byFlow {
		if len(idx) < 2 {
			continue
		}
		for k, i := range idx {
			switch k {
			case 0:
				pos[i] = "s"
			case len(idx) - 1:
				pos[i] = "f"
			default:
				pos[i] = "t"
			}
		}
	}
	return pos
}

// WriteChromeFile writes tr to path through the one writer of files: a
// regular file atomically (a temporary file renamed over path), a
// symbolic link's target, a device, FIFO or /dev/fd/N in place.
func WriteChromeFile(path string, tr *Trace) error {
	return outfile.Write(path, func(w io.Writer) error { return WriteChrome(w, tr) })
}

// rawEvent is an event as ReadChrome decodes it (any writer's). ts and
// dur are kept as written, so that WriteChrome's exact microseconds with
// three decimals read back as the nanoseconds they were.
type rawEvent struct {
	Name string          `json:"name"`
	Ph   string          `json:"ph"`
	TS   *json.Number    `json:"ts"`
	Dur  *json.Number    `json:"dur"`
	PID  json.RawMessage `json:"pid"`
	TID  json.RawMessage `json:"tid"`
	ID   json.RawMessage `json:"id"`
	BP   string          `json:"bp"`
	Args map[string]any  `json:"args"`
}

// chromeInput is the top-level object as ReadChrome decodes it: the
// otherData fields it reads are kept raw, so that the counts read back
// exactly (WriteChrome writes them as integers).
type chromeInput struct {
	TraceEvents []json.RawMessage          `json:"traceEvents"`
	OtherData   map[string]json.RawMessage `json:"otherData,omitempty"`
}

// ReadChrome reads Chrome trace-event JSON (the object form with
// "traceEvents", or a bare array) written by WriteChrome or by another
// tool. It understands complete events (X), begin/end pairs (B/E, matched
// per thread), instants (i, I, n), counters (C: one event per numeric
// argument, named "name" for a single argument or "name.arg"), thread
// names (M) and flow events (s, t, f: the flow id is given to the
// innermost span of that thread enclosing the flow event, unless an event
// of that thread at that time already carries the flow in args.flow, as
// WriteChrome's do). Lanes are threads (pid, tid); a lane's ID is its tid
// when that is an integer no other lane has, else a free number above
// them. Other phases are skipped; an unmatched E or a B without an E is
// an error naming the event.
//
// WriteChrome's output reads back to the same trace (events, lanes by ID
// and name, clock, start, counts). Errors are one line and quote at most
// a short prefix of the input. Memory is proportional to the input, time
// O(n log n) for n events.
func ReadChrome(r io.Reader) (*Trace, error) {
	data, err := io.ReadAll(r)
	if err != nil {
		return nil, fmt.Errorf("tracer: reading trace: %w", err)
	}
	var file chromeInput
	trimmed := strings.TrimLeft(string(data[:min(len(data), 64)]), " \t\r\n")
	if strings.HasPrefix(trimmed, "[") {
		if err := json.Unmarshal(data, &file.TraceEvents); err != nil {
			return nil, fmt.Errorf("tracer: not trace-event JSON: %w", clipped{err})
		}
	} else if err := json.Unmarshal(data, &file); err != nil {
		return nil, fmt.Errorf("tracer: not trace-event JSON (want {\"traceEvents\": [...]}): %w", clipped{err})
	} else if file.TraceEvents == nil {
		return nil, errors.New(`tracer: no "traceEvents" array: is this a Chrome/Perfetto trace-event JSON file?`)
	}
	tr := &Trace{}
	readOtherData(tr, file.OtherData)
	type laneKey struct{ pid, tid string }
	laneIdx := map[laneKey]int{}
	names := map[laneKey]string{}
	var keys []laneKey
	lane := func(k laneKey) int {
		if i, ok := laneIdx[k]; ok {
			return i
		}
		laneIdx[k] = len(keys)
		keys = append(keys, k)
		return len(keys) - 1
	}
	type open struct {
		ev  rawEvent
		idx int
	}
	stacks := map[int][]open{}
	var marks []flowMark
	// Counter events with several arguments get one name per argument,
	// each a copy of the event's name: a budget keeps a long name with
	// many arguments from taking memory quadratic in the input.
	nameBudget := 2*len(data) + 1<<20
	for i, raw := range file.TraceEvents {
		var ev rawEvent
		if err := json.Unmarshal(raw, &ev); err != nil {
			return nil, fmt.Errorf("tracer: trace event %d: %w", i, clipped{err})
		}
		k := laneKey{strings.Trim(string(ev.PID), `"`), strings.Trim(string(ev.TID), `"`)}
		if ev.Ph == "M" {
			if ev.Name == "thread_name" {
				if s, ok := ev.Args["name"].(string); ok {
					names[k] = s
				}
			}
			continue
		}
		switch ev.Ph {
		case "X", "B", "E", "i", "I", "n", "C", "s", "t", "f":
		default:
			continue
		}
		if ev.TS == nil {
			return nil, fmt.Errorf("tracer: trace event %d (%s, ph %s) has no ts", i, excerpt.Quote(ev.Name), excerpt.Quote(ev.Ph))
		}
		ts, err := micros2ns(*ev.TS)
		if err != nil {
			return nil, fmt.Errorf("tracer: trace event %d (%s): ts %w", i, excerpt.Quote(ev.Name), err)
		}
		flow, err := argFlow(ev.Args)
		if err != nil {
			return nil, fmt.Errorf("tracer: trace event %d (%s): %w", i, excerpt.Quote(ev.Name), err)
		}
		switch ev.Ph {
		case "X":
			d := int64(0)
			if ev.Dur != nil {
				if d, err = micros2ns(*ev.Dur); err != nil {
					return nil, fmt.Errorf("tracer: trace event %d (%s): dur %w", i, excerpt.Quote(ev.Name), err)
				}
			}
			if d < 0 {
				return nil, fmt.Errorf("tracer: trace event %d (%s) has a negative dur", i, excerpt.Quote(ev.Name))
			}
			tr.Events = append(tr.Events, Event{Kind: KindSpan, Name: ev.Name, Lane: lane(k), TS: ts, Dur: d, Flow: flow})
		case "B":
			l := lane(k)
			tr.Events = append(tr.Events, Event{Kind: KindSpan, Name: ev.Name, Lane: l, TS: ts, Flow: flow})
			stacks[l] = append(stacks[l], open{ev, len(tr.Events) - 1})
		case "E":
			l := lane(k)
			st := stacks[l]
			if len(st) == 0 {
				return nil, fmt.Errorf("tracer: trace event %d: end (E) of %s at %s µs without a begin (B) on that thread", i, excerpt.Quote(ev.Name), excerpt.Quote(string(*ev.TS)))
			}
			o := st[len(st)-1]
			stacks[l] = st[:len(st)-1]
			b := &tr.Events[o.idx]
			b.Dur = max(ts-b.TS, 0)
			if b.Flow == 0 {
				b.Flow = flow
			}
		case "i", "I", "n":
			p, err := argPayload(ev.Args)
			if err != nil {
				return nil, fmt.Errorf("tracer: trace event %d (%s): %w", i, excerpt.Quote(ev.Name), err)
			}
			tr.Events = append(tr.Events, Event{Kind: KindInstant, Name: ev.Name, Lane: lane(k), TS: ts, Flow: flow, Payload: p})
		case "C":
			argNames := make([]string, 0, len(ev.Args))
			for a := range ev.Args {
				argNames = append(argNames, a)
			}
			slices.Sort(argNames)
			for _, a := range argNames {
				v, ok := numberArg(ev.Args[a])
				if !ok {
					continue
				}
				name := ev.Name
				if len(argNames) > 1 {
					if nameBudget -= len(name) + 1 + len(a); nameBudget < 0 {
						return nil, fmt.Errorf("tracer: trace event %d: counter %s has %d arguments, and its name is repeated in each: too large a trace to read", i, excerpt.Quote(ev.Name), len(argNames))
					}
					name += "." + a
				}
				tr.Events = append(tr.Events, Event{Kind: KindCounter, Name: name, Lane: lane(k), TS: ts, Value: v})
			}
		case "s", "t", "f":
			id, err := parseFlowID(ev.ID)
			if err != nil {
				return nil, fmt.Errorf("tracer: flow event %d: %w", i, err)
			}
			marks = append(marks, flowMark{lane(k), ts, id})
		}
	}
	for l, st := range stacks {
		if len(st) > 0 {
			o := st[len(st)-1]
			return nil, fmt.Errorf("tracer: begin (B) of %s on thread %s has no end (E): the trace was cut off", excerpt.Quote(o.ev.Name), excerpt.Quote(keys[l].tid))
		}
	}
	bindFlows(tr.Events, marks)
	pids := map[string]bool{}
	for _, k := range keys {
		pids[k.pid] = true
	}
	// Lane IDs: the tid where it is an integer not taken yet, else a
	// free number above every tid, so that WriteChrome keeps the lanes
	// apart (two processes' tid 1, a tid written as a string or 1.5).
	ids := make([]int, len(keys))
	fresh := make([]bool, len(keys))
	taken := map[int]bool{}
	next := 0
	for i, k := range keys {
		id, err := strconv.Atoi(k.tid)
		if err != nil || taken[id] {
			fresh[i] = true
			continue
		}
		ids[i], taken[id] = id, true
		next = max(next, id+1)
	}
	for i, k := range keys {
		if fresh[i] {
			for taken[next] {
				next++
			}
			ids[i], taken[next] = next, true
		}
		info := LaneInfo{ID: ids[i], Name: names[k]}
		if info.Name == "" {
			info.Name = "tid " + k.tid
		}
		if len(pids) > 1 {
			info.Name = "pid " + k.pid + ": " + info.Name
		}
		tr.Lanes = append(tr.Lanes, info)
	}
	sortEvents(tr.Events)
	return tr, nil
}

// flowMark is a flow event (s, t, f) of ReadChrome: the flow id at a
// time on a lane.
type flowMark struct {
	lane int
	ts   int64
	id   uint64
}

// bindFlows gives each flow mark's id to the innermost span of its lane
// that encloses it (TS <= ts <= End, the shortest, the first of equals),
// when that span has no flow yet, in the order of the marks. A mark that
// an event of its lane at its time already carries (WriteChrome writes
// args.flow and a mark for each event of a flow) binds nothing. It sweeps
// the marks in time order with a heap of the open spans: O((n+m) log n)
// for n events and m marks.
func bindFlows(es []Event, marks []flowMark) {
	if len(marks) == 0 {
		return
	}
	type at = flowMark // a flow id at a time on a lane
	carried := map[at]bool{}
	spans := map[int][]int{} // lane -> indexes of its spans, by TS
	for i, e := range es {
		if e.Flow != 0 {
			carried[at{e.Lane, e.TS, e.Flow}] = true
		}
		if e.Kind == KindSpan {
			spans[e.Lane] = append(spans[e.Lane], i)
		}
	}
	order := make([]int, len(marks)) // indexes of marks by lane, then ts
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int {
		return cmp.Or(cmp.Compare(marks[a].lane, marks[b].lane), cmp.Compare(marks[a].ts, marks[b].ts))
	})
	best := make([]int, len(marks))
	for i := 0; i < len(order); {
		l := marks[order[i]].lane
		sp := spans[l]
		slices.SortStableFunc(sp, func(a, b int) int { return cmp.Compare(es[a].TS, es[b].TS) })
		h := &spanHeap{es: es}
		next := 0
		for ; i < len(order) && marks[order[i]].lane == l; i++ {
			m := marks[order[i]]
			for next < len(sp) && es[sp[next]].TS <= m.ts {
				heap.Push(h, sp[next])
				next++
			}
			// Spans that end before this mark end before every later one.
			for h.Len() > 0 && es[h.idx[0]].End() < m.ts {
				heap.Pop(h)
			}
			best[order[i]] = -1
			if h.Len() > 0 {
				best[order[i]] = h.idx[0]
			}
		}
	}
	for i, m := range marks {
		if b := best[i]; b >= 0 && !carried[m] && es[b].Flow == 0 {
			es[b].Flow = m.id
		}
	}
}

// spanHeap orders span indexes by duration, then index: its top is the
// innermost (shortest) span, the first of equals.
type spanHeap struct {
	es  []Event
	idx []int
}

func (h *spanHeap) Len() int { return len(h.idx) }
func (h *spanHeap) Less(a, b int) bool {
	x, y := h.es[h.idx[a]], h.es[h.idx[b]]
	return x.Dur < y.Dur || x.Dur == y.Dur && h.idx[a] < h.idx[b]
}
func (h *spanHeap) Swap(a, b int) { h.idx[a], h.idx[b] = h.idx[b], h.idx[a] }
func (h *spanHeap) Push(x any)    { h.idx = append(h.idx, x.(int)) }
func (h *spanHeap) Pop() any {
	x := h.idx[len(h.idx)-1]
	h.idx = h.idx[:len(h.idx)-1]
	return x
}

// readOtherData reads the fields of otherData that WriteChrome writes;
// others, and values of another type, are left out.
func readOtherData(tr *Trace, od map[string]json.RawMessage) {
	var s string
	if json.Unmarshal(od["clock"], &s) == nil {
		tr.Clock = s
	}
	if json.Unmarshal(od["start"], &s) == nil {
		if t, err := time.Parse(time.RFC3339Nano, s); err == nil {
			tr.Start = t
		}
	}
	if n, ok := wholeNumber(od["overwritten"], math.MaxUint64); ok {
		tr.Overwritten = n
	}
	if n, ok := wholeNumber(od["ring_events"], math.MaxInt); ok {
		tr.RingEvents = int(n)
	}
}

// wholeNumber reads a JSON number that is a whole number in [0, limit]:
// exactly when written as an integer, else through float64.
func wholeNumber(raw json.RawMessage, limit uint64) (uint64, bool) {
	if len(raw) == 0 {
		return 0, false
	}
	if n, err := strconv.ParseUint(string(raw), 10, 64); err == nil {
		return n, n <= limit
	}
	f, err := strconv.ParseFloat(string(raw), 64)
	if err != nil || !(f >= 0 && f < float64(limit)) || f != math.Trunc(f) {
		return 0, false
	}
	return uint64(f), true
}

// micros2ns converts a ts or dur in microseconds to nanoseconds, rounded
// to the nearest (halves away from zero). A plain decimal ("12.345", as
// WriteChrome writes it) is converted exactly; other forms ("1.5e3") go
// through float64. A value beyond ±292 years (int64 nanoseconds) is an
// error: converting it would give a meaningless time.
func micros2ns(num json.Number) (int64, error) {
	s := string(num)
	neg := strings.HasPrefix(s, "-")
	whole, frac, _ := strings.Cut(strings.TrimPrefix(s, "-"), ".")
	if whole != "" && strings.Trim(whole, "0123456789") == "" && strings.Trim(frac, "0123456789") == "" {
		whole = strings.TrimLeft(whole, "0")
		if len(whole) <= 16 { // below 10^16 µs: the nanoseconds fit in int64 but for the last one
			w, _ := strconv.ParseInt("0"+whole, 10, 64)
			f3 := (frac + "000")[:3]
			f, _ := strconv.ParseInt(f3, 10, 64)
			ns := uint64(w)*1000 + uint64(f)
			if len(frac) > 3 && frac[3] >= '5' {
				ns++
			}
			if ns <= math.MaxInt64 {
				if neg {
					return -int64(ns), nil
				}
				return int64(ns), nil
			}
			if neg && ns == math.MaxInt64+1 {
				return math.MinInt64, nil
			}
		}
		return 0, fmt.Errorf("%s µs is out of range (more than 292 years)", excerpt.Quote(s))
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil && !errors.Is(err, strconv.ErrRange) {
		return 0, fmt.Errorf("%s is not a number: %w", excerpt.Quote(s), numError(err))
	}
	v := math.Round(f * 1000)
	if err != nil || !(v >= math.MinInt64 && v < math.MaxInt64) {
		return 0, fmt.Errorf("%s µs is out of range (more than 292 years)", excerpt.Quote(s))
	}
	return int64(v), nil
}

// numError is the cause of a strconv error (ErrSyntax, ErrRange), whose
// own text would quote the whole input again.
func numError(err error) error {
	var ne *strconv.NumError
	if errors.As(err, &ne) {
		return ne.Err
	}
	return err
}

// clipped is an error of encoding/json, whose text can quote the input at
// any length: its text is clipped to one short line (excerpt.Clip).
type clipped struct{ err error }

func (e clipped) Error() string { return excerpt.Clip(e.err.Error()) }
func (e clipped) Unwrap() error { return e.err }

// ReadChromeFile reads a trace-event JSON file.
func ReadChromeFile(path string) (*Trace, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("tracer: %w", err)
	}
	defer f.Close()
	tr, err := ReadChrome(f)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return tr, nil
}

func numberArg(v any) (float64, bool) {
	switch x := v.(type) {
	case float64:
		return x, true
	case string:
		f, err := strconv.ParseFloat(x, 64)
		return f, err == nil
	}
	return 0, false
}

// argFlow reads args.flow: a "0x..." string, a decimal string or a number.
func argFlow(args map[string]any) (uint64, error) {
	v, ok := args["flow"]
	if !ok {
		return 0, nil
	}
	switch x := v.(type) {
	case string:
		f, err := strconv.ParseUint(x, 0, 64)
		if err != nil {
			return 0, fmt.Errorf("args.flow %s is not a flow id: %w", excerpt.Quote(x), numError(err))
		}
		return f, nil
	case float64:
		if !(x >= 0 && x < 1<<64) || x != math.Trunc(x) {
			return 0, fmt.Errorf("args.flow %v is not a flow id", x)
		}
		return uint64(x), nil
	}
	return 0, fmt.Errorf("args.flow has type %T, want a string or a number", v)
}

func argPayload(args map[string]any) (uint64, error) {
	v, ok := args["payload"]
	if !ok {
		return 0, nil
	}
	switch x := v.(type) {
	case string:
		p, err := strconv.ParseUint(x, 0, 64)
		if err != nil {
			return 0, fmt.Errorf("args.payload %s is not an unsigned integer: %w", excerpt.Quote(x), numError(err))
		}
		return p, nil
	case float64:
		if x >= 0 && x == math.Trunc(x) && x < 1<<64 {
			return uint64(x), nil
		}
	}
	return 0, nil // a payload of another writer's type: not ours, keep 0
}

func parseFlowID(raw json.RawMessage) (uint64, error) {
	if len(raw) == 0 {
		return 0, errors.New("no id")
	}
	s := strings.Trim(string(raw), `"`)
	id, err := strconv.ParseUint(s, 0, 64)
	if err != nil {
		return 0, fmt.Errorf("id %s is not a flow id: %w", excerpt.Quote(string(raw)), numError(err))
	}
	return id, nil
}
