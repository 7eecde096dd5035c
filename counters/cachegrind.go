package counters

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/chronograph/chronograph/internal/excerpt"
	"github.com/chronograph/chronograph/internal/plural"
)

// SourceCachegrind labels counts simulated by valgrind's cachegrind.
const SourceCachegrind = "simulated (valgrind cachegrind)"

// CachegrindEvents are the totals cachegrind reports with --cache-sim=yes,
// by the names chronograph gives them: cachegrind's own, except "Ir"
// (instructions executed), which is "instructions" as perf calls it.
var CachegrindEvents = []string{"instructions", "I1mr", "ILmr", "Dr", "D1mr", "DLmr", "Dw", "D1mw", "DLmw"}

// cachegrindNames maps cachegrind's event names to chronograph's.
var cachegrindNames = map[string]string{"Ir": "instructions"}

var cachegrindDesc = map[string]string{
	"instructions": "instructions executed (simulated)",
	"I1mr":         "L1 instruction cache read misses (simulated)",
	"ILmr":         "last-level cache instruction read misses (simulated)",
	"Dr":           "memory reads (simulated)",
	"D1mr":         "L1 data cache read misses (simulated)",
	"DLmr":         "last-level cache data read misses (simulated)",
	"Dw":           "memory writes (simulated)",
	"D1mw":         "L1 data cache write misses (simulated)",
	"DLmw":         "last-level cache data write misses (simulated)",
}

// ParseCachegrind reads a cachegrind output file (--cachegrind-out-file)
// and returns its totals (the "summary:" line, named by the "events:"
// line) as a reading of Simulated events with Source SourceCachegrind.
// Cachegrind's "Ir" is named "instructions", as perf names it. It is the
// one parser of cachegrind's and callgrind's totals: package run's
// simulated counts (chrono stat --valgrind, chrono run --instructions)
// and bench's instruction mode read them with it.
func ParseCachegrind(r io.Reader) (Reading, error) {
	var events, totals []string
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64*1024), 16*1024*1024)
	for sc.Scan() {
		line := sc.Text()
		switch {
		case strings.HasPrefix(line, "events:"):
			events = strings.Fields(strings.TrimPrefix(line, "events:"))
		case strings.HasPrefix(line, "summary:"):
			totals = strings.Fields(strings.TrimPrefix(line, "summary:"))
		case strings.HasPrefix(line, "totals:"):
			totals = strings.Fields(strings.TrimPrefix(line, "totals:"))
		}
	}
	if err := sc.Err(); err != nil {
		return Reading{}, fmt.Errorf("counters: reading cachegrind output: %w", err)
	}
	if len(events) == 0 { // (an empty "events:" line named none: an empty reading said nothing)
		return Reading{}, errors.New(`counters: cachegrind output has no "events:" line naming events (not a cachegrind output file?)`)
	}
	if totals == nil {
		return Reading{}, errors.New(`counters: cachegrind output has no "summary:" line (did valgrind finish?)`)
	}
	if len(totals) > len(events) {
		return Reading{}, fmt.Errorf("counters: cachegrind summary has %s for %s", plural.Count(len(totals), "total"), plural.Count(len(events), "event"))
	}
	rd := Reading{Source: SourceCachegrind}
	for i, name := range events {
		if n, ok := cachegrindNames[name]; ok {
			name = n
		}
		c := Count{Event: Event{Name: name, Kind: Simulated, Unit: "count"}}
		if i >= len(totals) {
			// Cachegrind omits trailing zero totals.
			c.State = Counted
			rd.Counts = append(rd.Counts, c)
			continue
		}
		v, err := strconv.ParseUint(strings.ReplaceAll(totals[i], ",", ""), 10, 64)
		if err != nil {
			return Reading{}, fmt.Errorf("counters: cachegrind total %s for %s is not a count: %w", excerpt.Quote(totals[i]), excerpt.Quote(name), errors.Unwrap(err))
		}
		c.State, c.Raw, c.Value = Counted, v, float64(v)
		rd.Counts = append(rd.Counts, c)
	}
	return rd, nil
}
