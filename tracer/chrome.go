package tracer

import (
	"bufio"
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

// chromeFile is the top-level object.
type chromeFile struct {
	TraceEvents     []json.RawMessage `json:"traceEvents"`
	DisplayTimeUnit string            `json:"displayTimeUnit,omitempty"`
	OtherData       map[string]any    `json:"otherData,omitempty"`
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
			return fmt.Errorf("tracer: event %d (%q) has lane %d, but the trace has %d lanes", i, e.Name, e.Lane, len(tr.Lanes))
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

// WriteChromeFile writes tr to path atomically (a temporary file renamed
// over path).
func WriteChromeFile(path string, tr *Trace) error {
	return writeAtomic(path, func(w io.Writer) error { return WriteChrome(w, tr) })
}

// writeAtomic writes what write produces to path via a temporary file in
// the same directory, synced and renamed.
func writeAtomic(path string, write func(io.Writer) error) error {
	dir, base := ".", path
	if i := strings.LastIndexAny(path, `/\`); i >= 0 {
		dir, base = path[:i+1], path[i+1:]
	}
	f, err := os.CreateTemp(dir, "."+base+".tmp*")
	if err != nil {
		return fmt.Errorf("tracer: writing %s: %w", path, err)
	}
	defer os.Remove(f.Name())
	err = write(f)
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Chmod(f.Name(), 0o644)
	}
	if err == nil {
		err = os.Rename(f.Name(), path)
	}
	if err != nil {
		return fmt.Errorf("tracer: writing %s: %w", path, err)
	}
	return nil
}

// rawEvent is an event as ReadChrome decodes it (any writer's).
type rawEvent struct {
	Name string          `json:"name"`
	Ph   string          `json:"ph"`
	TS   *float64        `json:"ts"`
	Dur  *float64        `json:"dur"`
	PID  json.RawMessage `json:"pid"`
	TID  json.RawMessage `json:"tid"`
	ID   json.RawMessage `json:"id"`
	BP   string          `json:"bp"`
	Args map[string]any  `json:"args"`
}

// ReadChrome reads Chrome trace-event JSON (the object form with
// "traceEvents", or a bare array) written by WriteChrome or by another
// tool. It understands complete events (X), begin/end pairs (B/E, matched
// per thread), instants (i, I, n), counters (C: one event per numeric
// argument, named "name" for a single argument or "name.arg"), thread
// names (M) and flow events (s, t, f: the flow id is given to the
// innermost span of that thread enclosing the flow event). Lanes are
// threads (pid, tid). Other phases are skipped; an unmatched E or a B
// without an E is an error naming the event.
func ReadChrome(r io.Reader) (*Trace, error) {
	data, err := io.ReadAll(r)
	if err != nil {
		return nil, fmt.Errorf("tracer: reading trace: %w", err)
	}
	var file chromeFile
	trimmed := strings.TrimLeft(string(data[:min(len(data), 64)]), " \t\r\n")
	if strings.HasPrefix(trimmed, "[") {
		if err := json.Unmarshal(data, &file.TraceEvents); err != nil {
			return nil, fmt.Errorf("tracer: not trace-event JSON: %w", err)
		}
	} else if err := json.Unmarshal(data, &file); err != nil {
		return nil, fmt.Errorf("tracer: not trace-event JSON (want {\"traceEvents\": [...]}): %w", err)
	} else if file.TraceEvents == nil {
		return nil, errors.New(`tracer: no "traceEvents" array: is this a Chrome/Perfetto trace-event JSON file?`)
	}
	tr := &Trace{}
	if od := file.OtherData; od != nil {
		if s, ok := od["clock"].(string); ok {
			tr.Clock = s
		}
		if s, ok := od["start"].(string); ok {
			if t, err := time.Parse(time.RFC3339Nano, s); err == nil {
				tr.Start = t
			}
		}
		if n, ok := od["overwritten"].(float64); ok && n >= 0 {
			tr.Overwritten = uint64(n)
		}
		if n, ok := od["ring_events"].(float64); ok && n >= 0 {
			tr.RingEvents = int(n)
		}
	}
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
	type flowMark struct {
		lane int
		ts   int64
		id   uint64
	}
	var marks []flowMark
	ns := func(us float64) int64 { return int64(math.Round(us * 1000)) }
	for i, raw := range file.TraceEvents {
		var ev rawEvent
		if err := json.Unmarshal(raw, &ev); err != nil {
			return nil, fmt.Errorf("tracer: trace event %d: %w", i, err)
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
			return nil, fmt.Errorf("tracer: trace event %d (%q, ph %q) has no ts", i, ev.Name, ev.Ph)
		}
		ts := ns(*ev.TS)
		flow, err := argFlow(ev.Args)
		if err != nil {
			return nil, fmt.Errorf("tracer: trace event %d (%q): %w", i, ev.Name, err)
		}
		switch ev.Ph {
		case "X":
			d := int64(0)
			if ev.Dur != nil {
				d = ns(*ev.Dur)
			}
			if d < 0 {
				return nil, fmt.Errorf("tracer: trace event %d (%q) has a negative dur", i, ev.Name)
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
				return nil, fmt.Errorf("tracer: trace event %d: end (E) of %q at %.3f µs without a begin (B) on that thread", i, ev.Name, *ev.TS)
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
				return nil, fmt.Errorf("tracer: trace event %d (%q): %w", i, ev.Name, err)
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
			return nil, fmt.Errorf("tracer: begin (B) of %q on thread %s has no end (E): the trace was cut off", o.ev.Name, keys[l].tid)
		}
	}
	for _, m := range marks {
		best := -1
		for i, e := range tr.Events {
			if e.Lane == m.lane && e.Kind == KindSpan && e.TS <= m.ts && m.ts <= e.End() && (best < 0 || e.Dur < tr.Events[best].Dur) {
				best = i
			}
		}
		if best >= 0 && tr.Events[best].Flow == 0 {
			tr.Events[best].Flow = m.id
		}
	}
	pids := map[string]bool{}
	for _, k := range keys {
		pids[k.pid] = true
	}
	for _, k := range keys {
		info := LaneInfo{Name: names[k]}
		if id, err := strconv.Atoi(k.tid); err == nil {
			info.ID = id
		}
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
			return 0, fmt.Errorf("args.flow %q is not a flow id: %w", x, err)
		}
		return f, nil
	case float64:
		if x < 0 || x != math.Trunc(x) {
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
			return 0, fmt.Errorf("args.payload %q is not an unsigned integer: %w", x, err)
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
		return 0, fmt.Errorf("id %s is not a flow id: %w", raw, err)
	}
	return id, nil
}
