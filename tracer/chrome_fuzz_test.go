package tracer

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"math"
	"os"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"
)

// canonical is a trace as a comparable text: the header, and every
// event with its lane's ID and name instead of its lane's index, sorted
// (a trace's lanes are numbered in the order of their first event, which
// sorting the events may change). Lanes without events are left out:
// WriteChrome names every lane, but only events make one on reading.
func canonical(tr *Trace) string {
	var evs []string
	for _, e := range tr.Events {
		l := tr.Lanes[e.Lane]
		value := fmt.Sprintf("%x", math.Float64bits(e.Value)) // -0 is not 0
		if math.IsNaN(e.Value) {
			value = "NaN" // one NaN: the JSON holds no payload bits
		}
		evs = append(evs, fmt.Sprintf("%s %q lane %d %q ts %d dur %d flow %d payload %d value %s",
			e.Kind, e.Name, l.ID, l.Name, e.TS, e.Dur, e.Flow, e.Payload, value))
	}
	slices.Sort(evs)
	start := "none"
	if !tr.Start.IsZero() {
		start = tr.Start.UTC().Format(time.RFC3339Nano)
	}
	return fmt.Sprintf("clock %q start %s ring %d overwritten %d\n%s", tr.Clock, start, tr.RingEvents, tr.Overwritten, strings.Join(evs, "\n"))
}

// checkTrace checks the invariants of a Trace that WriteChrome relies on.
func checkTrace(t *testing.T, tr *Trace) {
	t.Helper()
	ids := map[int]bool{}
	for _, l := range tr.Lanes {
		if ids[l.ID] {
			t.Fatalf("two lanes have ID %d: %+v", l.ID, tr.Lanes)
		}
		ids[l.ID] = true
	}
	for i, e := range tr.Events {
		if e.Lane < 0 || e.Lane >= len(tr.Lanes) || e.Dur < 0 || e.Kind != KindSpan && e.Dur != 0 {
			t.Fatalf("event %d: %+v (%d lanes)", i, e, len(tr.Lanes))
		}
		if i > 0 && e.TS < tr.Events[i-1].TS {
			t.Fatalf("events are not in time order at %d", i)
		}
	}
}

// FuzzReadChrome feeds ReadChrome with trace-event JSON: the README's
// example trace (docs/examples/pipeline-trace.json), chrono trace's
// golden input, WriteChrome's output and other writers' forms, truncated
// and mutated. Properties: no panic; an error is one short line starting
// with "tracer: "; an accepted trace has lanes of distinct IDs and
// events in time order; written with WriteChrome and read back it is the
// same trace, and writing that again gives the same bytes.
func FuzzReadChrome(f *testing.F) {
	for _, path := range []string{"../docs/examples/pipeline-trace.json", "../cmd/chrono/testdata/trace-known.json"} {
		data, err := os.ReadFile(path)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
		f.Add(data[:len(data)/2])
	}
	var buf bytes.Buffer
	if err := WriteChrome(&buf, constructed()); err != nil {
		f.Fatal(err)
	}
	f.Add(buf.Bytes())
	for _, s := range []string{
		`[{"name":"thread_name","ph":"M","pid":1,"tid":7,"args":{"name":"main"}},{"name":"outer","ph":"B","pid":1,"tid":7,"ts":10},{"name":"inner","ph":"B","pid":1,"tid":7,"ts":11.5},{"name":"link","ph":"s","id":5,"pid":1,"tid":7,"ts":12},{"name":"inner","ph":"E","pid":1,"tid":7,"ts":13},{"name":"outer","ph":"E","pid":1,"tid":7,"ts":20},{"name":"mem","ph":"C","pid":1,"tid":7,"ts":21,"args":{"heap":3,"stack":"4"}},{"name":"other","ph":"X","pid":1,"tid":8,"ts":30,"dur":2},{"name":"link","ph":"f","bp":"e","id":"0x5","pid":1,"tid":8,"ts":31}]`,
		`[{"name":"a","ph":"X","pid":1,"tid":1,"ts":1e300,"dur":1},{"name":"b","ph":"X","pid":2,"tid":1,"ts":-9223372036854775.808}]`,
		`[{"name":"a","ph":"i","pid":"p","tid":"t","ts":0.0005,"args":{"payload":"18446744073709551615","flow":1.8446744073709552e19}}]`,
		`{"traceEvents":[{"name":"c","ph":"C","pid":1,"tid":1,"ts":1,"args":{"value":"NaN"}}],"otherData":{"clock":"tsc","start":"2026-01-02T03:04:05.123456789+01:00","overwritten":18446744073709551615,"ring_events":1e300}}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		tr, err := ReadChrome(bytes.NewReader(data))
		if err != nil {
			if msg := err.Error(); !strings.HasPrefix(msg, "tracer: ") || strings.ContainsAny(msg, "\n\r") || len(msg) > 1000 {
				t.Fatalf("error is not one short line starting with \"tracer: \" (%d bytes): %.2000q", len(msg), msg)
			}
			return
		}
		checkTrace(t, tr)
		var w1 bytes.Buffer
		if err := WriteChrome(&w1, tr); err != nil {
			t.Fatalf("WriteChrome of a trace read: %v", err)
		}
		back, err := ReadChrome(bytes.NewReader(w1.Bytes()))
		if err != nil {
			t.Fatalf("WriteChrome's output does not read back: %v\n%s", err, w1.Bytes())
		}
		if a, b := canonical(tr), canonical(back); a != b {
			t.Fatalf("round trip changed the trace:\n%s\n---\n%s", a, b)
		}
		var w2 bytes.Buffer
		if err := WriteChrome(&w2, back); err != nil || canonical(back) != canonical(mustRead(t, w2.Bytes())) {
			t.Fatalf("second round trip: %v", err)
		}
	})
}

func mustRead(t *testing.T, data []byte) *Trace {
	t.Helper()
	tr, err := ReadChrome(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	return tr
}

// FuzzChromeRoundTrip builds traces from fuzzed bytes (lanes, spans of
// any length, instants with any payload, counters with any value, NaN
// and infinities included, flows across lanes, times at the ends of the
// int64 range) and checks that WriteChrome then ReadChrome gives them
// back exactly.
func FuzzChromeRoundTrip(f *testing.F) {
	f.Add(uint8(3), []byte("\x00\x01\x02\x03\x04\x05\x06\x07\x08\x09\x0a\x0b\x0c\x0d\x0e\x0f\x10\x11\x12\x13\x14\x15\x16\x17\x18\x19\x1a\x1b\x1c\x1d\x1e\x1f"))
	f.Add(uint8(1), bytes.Repeat([]byte{0xff}, 64))
	f.Add(uint8(200), bytes.Repeat([]byte{0x80, 0, 0, 0, 0, 0, 0, 0x80, 1}, 20))
	f.Fuzz(func(t *testing.T, nlanes uint8, data []byte) {
		tr := &Trace{Clock: "tsc: fuzz", Start: time.Date(2026, 1, 2, 3, 4, 5, 6, time.UTC), RingEvents: len(data), Overwritten: uint64(nlanes) << 56}
		n := 1 + int(nlanes)%5
		for i := range n {
			tr.Lanes = append(tr.Lanes, LaneInfo{ID: 1 + i*(1+int(nlanes)/5), Name: fmt.Sprintf("lane %d %q", i, data[:min(i, len(data))])})
		}
		for len(data) >= 18 {
			kind, lane, a, b := data[0], int(data[1])%n, int64(binary.LittleEndian.Uint64(data[2:])), binary.LittleEndian.Uint64(data[10:])
			data = data[18:]
			e := Event{Lane: lane, TS: a, Name: fmt.Sprintf("e%d", kind%7)}
			switch kind % 3 {
			case 0:
				e.Kind, e.Dur = KindSpan, int64(b>>1)
				if e.TS > 0 && e.Dur > math.MaxInt64-e.TS {
					e.Dur = math.MaxInt64 - e.TS // End() must not overflow
				}
				e.Flow = uint64(kind>>4) % 4
			case 1:
				e.Kind, e.Payload, e.Flow = KindInstant, b, uint64(kind>>4)%4
			case 2:
				e.Kind, e.Value = KindCounter, math.Float64frombits(b)
			}
			tr.Events = append(tr.Events, e)
		}
		sortEvents(tr.Events)
		var w bytes.Buffer
		if err := WriteChrome(&w, tr); err != nil {
			t.Fatalf("WriteChrome: %v", err)
		}
		back, err := ReadChrome(bytes.NewReader(w.Bytes()))
		if err != nil {
			t.Fatalf("ReadChrome of WriteChrome's output: %v\n%s", err, w.Bytes())
		}
		checkTrace(t, back)
		if a, b := canonical(tr), canonical(back); a != b {
			t.Fatalf("round trip changed the trace:\n%s\n---\n%s\n%s", a, b, w.Bytes())
		}
	})
}

// TestReadChromeBounds: ReadChrome takes memory proportional to its
// input. A counter with a long name and many arguments (its name is
// repeated in each argument's series) is refused beyond a budget instead
// of taking memory quadratic in the input; times beyond int64
// nanoseconds are errors instead of wrapping; errors quote a short
// prefix of what they name.
func TestReadChromeBounds(t *testing.T) {
	name := strings.Repeat("n", 1<<16)
	var args []string
	for i := range 1 << 15 {
		args = append(args, fmt.Sprintf(`"a%d":1`, i))
	}
	in := `[{"name":"` + name + `","ph":"C","pid":1,"tid":1,"ts":1,"args":{` + strings.Join(args, ",") + `}}]`
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	_, err := ReadChrome(strings.NewReader(in))
	runtime.ReadMemStats(&after)
	if err == nil || !strings.Contains(err.Error(), "too large a trace") || len(err.Error()) > 300 {
		t.Errorf("counter of %d arguments with a %d-byte name: error %.300v", 1<<15, len(name), err)
	}
	// 2^15 copies of the name would be 2 GiB; the budget allows about
	// twice the input (0.6 MiB) plus 1 MiB.
	if grew := after.TotalAlloc - before.TotalAlloc; grew > 64<<20 {
		t.Errorf("reading %d bytes allocated %d MiB", len(in), grew>>20)
	}
	for _, tt := range []struct{ in, want string }{
		{`[{"name":"a","ph":"X","pid":1,"tid":1,"ts":1e300}]`, "out of range"},
		{`[{"name":"a","ph":"X","pid":1,"tid":1,"ts":9223372036854776}]`, "out of range"},
		{`[{"name":"a","ph":"X","pid":1,"tid":1,"ts":0,"dur":` + strings.Repeat("9", 1<<20) + `}]`, "out of range"},
		{`[{"name":"` + name + `","ph":"E","pid":1,"tid":1,"ts":1}]`, "without a begin"},
		{`[{"name":"a","ph":"s","pid":1,"tid":1,"ts":1,"id":"` + name + `"}]`, "not a flow id"},
		{`[{"name":"a","ph":"X","pid":1,"tid":1,"ts":1,"args":{"flow":1e30}}]`, "not a flow id"},
	} {
		_, err := ReadChrome(strings.NewReader(tt.in))
		if err == nil || !strings.Contains(err.Error(), tt.want) || len(err.Error()) > 300 {
			t.Errorf("%.60s...: error %.400v, want a short one containing %q", tt.in, err, tt.want)
		}
	}
	// The most negative time WriteChrome can write reads back.
	tr, err := ReadChrome(strings.NewReader(`[{"name":"a","ph":"X","pid":1,"tid":1,"ts":-9223372036854775.808}]`))
	if err != nil || tr.Events[0].TS != math.MinInt64 {
		t.Errorf("ts -9223372036854775.808: %v %v", tr, err)
	}
}

// TestReadChromeLanesAndFlows: lanes of two processes with the same tid,
// or a tid that is not an integer, get distinct IDs, so that WriteChrome
// keeps them apart; a flow that an event carries in args.flow is not
// given again to the span that encloses that event (WriteChrome writes a
// flow event next to every event of a flow: an instant's used to give
// its flow to the span around it, changing the trace on a round trip).
func TestReadChromeLanesAndFlows(t *testing.T) {
	in := `[{"name":"a","ph":"X","pid":1,"tid":1,"ts":0,"dur":10},
{"name":"b","ph":"X","pid":2,"tid":1,"ts":0,"dur":10},
{"name":"c","ph":"X","pid":2,"tid":"main","ts":0,"dur":10},
{"name":"d","ph":"X","pid":2,"tid":2,"ts":0,"dur":10},
{"name":"send","ph":"i","s":"t","pid":1,"tid":1,"ts":5,"args":{"flow":"0x7"}},
{"name":"parent","ph":"X","pid":1,"tid":1,"ts":4,"dur":5},
{"name":"flow","ph":"s","pid":1,"tid":1,"ts":5,"id":"0x7"}]`
	tr, err := ReadChrome(strings.NewReader(in))
	if err != nil {
		t.Fatal(err)
	}
	if got := fmt.Sprint(tr.Lanes); got != "[{1 pid 1: tid 1} {3 pid 2: tid 1} {4 pid 2: tid main} {2 pid 2: tid 2}]" {
		t.Errorf("lanes %s", got)
	}
	for _, e := range tr.Events {
		if e.Name == "parent" && e.Flow != 0 {
			t.Errorf("parent got flow %d, which the instant in it carries", e.Flow)
		}
	}
}
