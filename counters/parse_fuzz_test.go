package counters

import (
	"bytes"
	"encoding/binary"
	"encoding/hex"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// checkError checks that err is one line starting with "counters: ",
// at most limit bytes long.
func checkError(t *testing.T, err error, limit int) {
	t.Helper()
	if msg := err.Error(); !strings.HasPrefix(msg, "counters: ") || strings.ContainsAny(msg, "\n\r") || len(msg) > limit {
		t.Fatalf("error is not one line under %d bytes starting with \"counters: \" (%d bytes): %.2000q", limit, len(msg), msg)
	}
}

// FuzzParseEvents: ParseEvents (--counters, chrono stat -e) never panics;
// an error is one line that quotes at most a short prefix of the list
// (the unknown-event error lists the known events, hence the limit); the
// events are distinct, and each one's name looks up to the same event,
// so that the names joined by commas parse to the same list.
func FuzzParseEvents(f *testing.F) {
	for _, s := range []string{"cycles,instructions", "cpu-cycles, cs ,faults", "task-clock:u,task-clock:k", "cyclez", "cycles,,instructions",
		"", "cycles,cpu-cycles", "cycles:x", "cycles:", ":u", strings.Join(DefaultEventNames, ","), strings.Join(KnownEventNames(), ","),
		"L1-dcache-loads,L1-dcache-load-misses,LLC-loads,LLC-load-misses", strings.Repeat("x", 300) + ":u"} {
		f.Add(s)
	}
	// The event lists of the recorded group reads.
	files, _ := filepath.Glob("testdata/groupread/*.hex")
	for _, file := range files {
		if b, err := os.ReadFile(file); err == nil {
			head, _, _ := strings.Cut(string(b), "\n")
			f.Add(head)
		}
	}
	f.Fuzz(func(t *testing.T, list string) {
		evs, err := ParseEvents(list)
		if err != nil {
			checkError(t, err, 1000)
			return
		}
		names := make([]string, len(evs))
		seen := map[string]bool{}
		for i, ev := range evs {
			if seen[ev.Name] || ev.Name == "" || ev.Unit == "" {
				t.Fatalf("ParseEvents(%q) = %+v", list, evs)
			}
			seen[ev.Name] = true
			back, err := LookupEvent(ev.Name)
			if err != nil || back != ev {
				t.Fatalf("LookupEvent(%q) = %+v, %v; want %+v", ev.Name, back, err, ev)
			}
			names[i] = ev.Name
		}
		back, err := ParseEvents(strings.Join(names, ","))
		if err != nil || !reflect.DeepEqual(back, evs) {
			t.Fatalf("ParseEvents(%q) = %+v, %v; want %+v", strings.Join(names, ","), back, err, evs)
		}
	})
}

// FuzzParseCachegrind: ParseCachegrind never panics on any file; an
// error is one short line; a reading has one count per event of the
// "events:" line, counted, with the value of its total.
func FuzzParseCachegrind(f *testing.F) {
	if b, err := os.ReadFile("testdata/cachegrind.out"); err == nil {
		f.Add(b)
		f.Add(b[:len(b)/2])
	}
	f.Add([]byte("events: Ir Dr\nsummary: 1,000 2\n"))
	f.Add([]byte("events: Ir\ntotals: 18446744073709551616\n"))
	f.Add([]byte("events: Ir Dr Dw\nsummary: 5\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		r, err := ParseCachegrind(bytes.NewReader(data))
		if err != nil {
			checkError(t, err, 600)
			return
		}
		if r.Source != SourceCachegrind || len(r.Counts) == 0 {
			t.Fatalf("reading %+v", r)
		}
		for _, c := range r.Counts {
			if !c.IsCounted() || c.Event.Kind != Simulated || c.Value != float64(c.Raw) || c.Event.Name == "" {
				t.Fatalf("count %+v", c)
			}
		}
	})
}

// FuzzGroupRead: the decoder of perf's group read buffers never panics
// on a buffer of any length and contents; it accepts exactly the buffers
// whose length matches their header, and then every value; scaling
// gives counts that are never negative or NaN, and NotCounted (not 0)
// for an event that never ran.
func FuzzGroupRead(f *testing.F) {
	files, _ := filepath.Glob("testdata/groupread/*.hex")
	for _, file := range files {
		if b, err := os.ReadFile(file); err == nil {
			_, hx, _ := strings.Cut(string(b), "\n")
			if buf, err := hex.DecodeString(strings.Join(strings.Fields(hx), "")); err == nil {
				f.Add(buf)
			}
		}
	}
	f.Add(make([]byte, 24))
	f.Add(bytes.Repeat([]byte{0xff}, 40))
	f.Fuzz(func(t *testing.T, buf []byte) {
		var rd groupRead
		err := parseGroupReadOrder(buf, binary.LittleEndian, &rd)
		nr := uint64(0)
		if len(buf) >= 8 {
			nr = binary.LittleEndian.Uint64(buf)
		}
		ok := len(buf) >= 24 && nr <= uint64(len(buf)) && uint64(len(buf)) == 24+16*nr
		if (err == nil) != ok {
			t.Fatalf("%d-byte buffer announcing %d events: error %v", len(buf), nr, err)
		}
		if err != nil {
			checkError(t, err, 300)
			return
		}
		if uint64(len(rd.Values)) != nr {
			t.Fatalf("%d values for %d events", len(rd.Values), nr)
		}
		for i, v := range rd.Values {
			if v.Value != binary.LittleEndian.Uint64(buf[24+16*i:]) || v.ID != binary.LittleEndian.Uint64(buf[32+16*i:]) {
				t.Fatalf("value %d = %+v", i, v)
			}
			var c Count
			scale(&c, v.Value, rd.Enabled, rd.Running)
			if math.IsNaN(c.Value) || c.Value < 0 || rd.Running == 0 && c.State != NotCounted || rd.Running > 0 && !c.IsCounted() {
				t.Fatalf("scale(%d, %d, %d) = %+v", v.Value, rd.Enabled, rd.Running, c)
			}
		}
	})
}
