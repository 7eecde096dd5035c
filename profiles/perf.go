package profiles

import (
	"bufio"
	"fmt"
	"io"
	"path"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"github.com/google/pprof/profile"
)

// The events whose period is CPU time in nanoseconds: the kernel's
// software clocks, which work without a hardware PMU (in VMs too).
var clockEvents = map[string]bool{"cpu-clock": true, "task-clock": true}

var (
	timeToken   = regexp.MustCompile(`^[0-9]+\.[0-9]+:$`)
	pidToken    = regexp.MustCompile(`^[0-9]+(/[0-9]+)?$`)
	cpuToken    = regexp.MustCompile(`^\[[0-9]+\]$`)
	offsetToken = regexp.MustCompile(`\+0x[0-9a-fA-F]+$`)
)

// FromPerfScript converts the output of `perf script` for a recording of
// one event with call graphs (`perf record -e cpu-clock -g -- CMD`) to a
// CPU profile: one sample per recorded sample, its stack from the leaf
// out, functions named by perf's symbols (without the +0x offsets),
// unsymbolized frames as "[unknown] (dso)", one mapping per object file
// (the one named like the command first, the profiled binary), the
// command name as the "comm" label. perf script's default fields are
// read (command, pid[/tid], [cpu], time, period, event, then the frames
// on their own lines); -F may drop the cpu and add others after the
// event. Samples of cpu-clock and task-clock count CPU time, so the
// profile's values are samples/count and cpu/nanoseconds, as
// runtime/pprof's are, and the two merge and compare; another event's
// are samples/count and EVENT/count.
//
// perf gives no source lines, so the functions have no start lines and
// Check says such a profile cannot guide go build -pgo; for a
// differential profile (Diff) names are all that is needed.
func FromPerfScript(r io.Reader) (*profile.Profile, error) {
	c := newPerfConverter()
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64*1024), 4*1024*1024)
	lineNo := 0
	var cur *perfSample
	flush := func() {
		if cur != nil {
			c.add(cur)
			cur = nil
		}
	}
	for sc.Scan() {
		lineNo++
		line := sc.Text()
		if strings.TrimSpace(line) == "" {
			flush()
			continue
		}
		if line[0] == ' ' || line[0] == '\t' {
			if cur == nil {
				return nil, fmt.Errorf("profiles: perf script line %d: a stack frame outside a sample", lineNo)
			}
			if f, ok := parseFrame(strings.TrimSpace(line)); ok {
				cur.frames = append(cur.frames, f)
			}
			continue
		}
		flush()
		s, err := parseHeader(line)
		if err != nil {
			return nil, fmt.Errorf("profiles: perf script line %d: %w", lineNo, err)
		}
		if c.event == "" {
			c.event = s.event
		} else if s.event != c.event {
			return nil, fmt.Errorf("profiles: perf script line %d: event %s after %s: record one event (perf record -e cpu-clock -g)", lineNo, s.event, c.event)
		}
		cur = s
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("profiles: reading perf script output: %w", err)
	}
	flush()
	if c.n == 0 {
		return nil, fmt.Errorf("profiles: no samples in the perf script output: record with perf record -e cpu-clock -g -- CMD, then run perf script")
	}
	return c.profile(), nil
}

// perfSample is one sample of perf script's output.
type perfSample struct {
	comm   string
	event  string
	period int64
	timeNs int64
	frames []perfFrame
}

// perfFrame is one stack frame: "ADDR SYMBOL+0xOFF (DSO)".
type perfFrame struct {
	addr uint64
	sym  string
	dso  string
}

// parseHeader reads a sample's first line: COMM PID[/TID] [CPU] TIME:
// PERIOD EVENT: [frame].
func parseHeader(line string) (*perfSample, error) {
	tok := strings.Fields(line)
	t := -1
	for i, s := range tok {
		if timeToken.MatchString(s) {
			t = i
			break
		}
	}
	if t < 0 {
		return nil, fmt.Errorf("no time in the sample line %q: run perf script with its default fields (or -F +time)", line)
	}
	before, after := tok[:t], tok[t+1:]
	if len(before) > 0 && cpuToken.MatchString(before[len(before)-1]) {
		before = before[:len(before)-1]
	}
	if len(before) < 2 || !pidToken.MatchString(before[len(before)-1]) {
		return nil, fmt.Errorf("no command and pid before the time in %q", line)
	}
	s := &perfSample{comm: strings.Join(before[:len(before)-1], " ")}
	sec, frac, _ := strings.Cut(strings.TrimSuffix(tok[t], ":"), ".")
	secs, _ := strconv.ParseInt(sec, 10, 64)
	frac = (frac + "000000000")[:9]
	nanos, _ := strconv.ParseInt(frac, 10, 64)
	s.timeNs = secs*1e9 + nanos
	if len(after) == 0 {
		return nil, fmt.Errorf("no event after the time in %q", line)
	}
	if p, err := strconv.ParseInt(after[0], 10, 64); err == nil {
		s.period = p
		after = after[1:]
	} else {
		return nil, fmt.Errorf("no period in %q: run perf script with its default fields (or -F +period)", line)
	}
	if len(after) == 0 || !strings.HasSuffix(after[0], ":") {
		return nil, fmt.Errorf("no event after the period in %q", line)
	}
	s.event, _, _ = strings.Cut(after[0], ":") // cpu-clock:ppp: → cpu-clock
	if rest := strings.Join(after[1:], " "); rest != "" {
		// Without -g, the one frame follows the event on the same line.
		if f, ok := parseFrame(rest); ok {
			s.frames = append(s.frames, f)
		}
	}
	return s, nil
}

// parseFrame reads "ADDR SYMBOL[+0xOFF] (DSO)"; a line that does not
// start with a hexadecimal address (a source line of -F +srcline) is not
// a frame.
func parseFrame(s string) (perfFrame, bool) {
	a, rest, _ := strings.Cut(s, " ")
	addr, err := strconv.ParseUint(a, 16, 64)
	if err != nil {
		return perfFrame{}, false
	}
	rest = strings.TrimSpace(rest)
	f := perfFrame{addr: addr, sym: rest, dso: "[unknown]"}
	if strings.HasSuffix(rest, ")") {
		if i := strings.LastIndex(rest, " ("); i >= 0 {
			f.sym, f.dso = strings.TrimSpace(rest[:i]), rest[i+2:len(rest)-1]
		} else if strings.HasPrefix(rest, "(") {
			f.sym, f.dso = "", rest[1:len(rest)-1]
		}
	}
	f.sym = offsetToken.ReplaceAllString(f.sym, "")
	if f.sym == "" || f.sym == "[unknown]" {
		f.sym = "[unknown] (" + path.Base(f.dso) + ")"
		if f.dso == "[unknown]" {
			f.sym = "[unknown]"
		}
	}
	return f, true
}

// perfConverter builds a profile from samples, sharing locations,
// functions and mappings, and summing samples with the same stack.
type perfConverter struct {
	event        string
	n            int
	first, last  int64
	periods      map[int64]int
	samples      map[string]*profile.Sample
	order        []*profile.Sample
	locations    map[perfFrame]*profile.Location
	functions    map[[2]string]*profile.Function
	mappings     map[string]*profile.Mapping
	mappingOrder []*profile.Mapping
	frameCount   map[*profile.Mapping]int
	comms        map[string]int
}

func newPerfConverter() *perfConverter {
	return &perfConverter{
		periods:    map[int64]int{},
		samples:    map[string]*profile.Sample{},
		locations:  map[perfFrame]*profile.Location{},
		functions:  map[[2]string]*profile.Function{},
		mappings:   map[string]*profile.Mapping{},
		frameCount: map[*profile.Mapping]int{},
		comms:      map[string]int{},
	}
}

func (c *perfConverter) add(s *perfSample) {
	if c.n == 0 || s.timeNs < c.first {
		c.first = s.timeNs
	}
	if s.timeNs > c.last {
		c.last = s.timeNs
	}
	c.n++
	c.periods[s.period]++
	c.comms[s.comm]++
	var key strings.Builder
	key.WriteString(s.comm)
	locs := make([]*profile.Location, 0, len(s.frames))
	for _, f := range s.frames {
		loc := c.location(f)
		locs = append(locs, loc)
		fmt.Fprintf(&key, "\x00%d", loc.ID)
	}
	if ps, ok := c.samples[key.String()]; ok {
		ps.Value[0]++
		ps.Value[1] += s.period
		return
	}
	ps := &profile.Sample{
		Location: locs,
		Value:    []int64{1, s.period},
		Label:    map[string][]string{"comm": {s.comm}},
	}
	c.samples[key.String()] = ps
	c.order = append(c.order, ps)
}

func (c *perfConverter) location(f perfFrame) *profile.Location {
	if loc, ok := c.locations[f]; ok {
		c.frameCount[loc.Mapping]++
		return loc
	}
	m, ok := c.mappings[f.dso]
	if !ok {
		m = &profile.Mapping{File: f.dso, HasFunctions: true}
		c.mappings[f.dso] = m
		c.mappingOrder = append(c.mappingOrder, m)
	}
	c.frameCount[m]++
	fk := [2]string{f.sym, f.dso}
	fn, ok := c.functions[fk]
	if !ok {
		fn = &profile.Function{ID: uint64(len(c.functions) + 1), Name: f.sym, SystemName: f.sym}
		c.functions[fk] = fn
	}
	loc := &profile.Location{ID: uint64(len(c.locations) + 1), Mapping: m, Address: f.addr, Line: []profile.Line{{Function: fn}}}
	c.locations[f] = loc
	return loc
}

// profile assembles the profile: the mapping of the profiled binary
// first (pprof's convention), then the others by how many frames they
// hold.
func (c *perfConverter) profile() *profile.Profile {
	typ, unit := c.event, "count"
	if clockEvents[c.event] {
		typ, unit = typeCPU, unitNanos
	}
	p := &profile.Profile{
		SampleType:    []*profile.ValueType{{Type: typeSamples, Unit: unitCount}, {Type: typ, Unit: unit}},
		PeriodType:    &profile.ValueType{Type: typ, Unit: unit},
		Period:        mostCommon(c.periods),
		DurationNanos: c.last - c.first,
		Sample:        c.order,
	}
	main := c.mainMapping()
	ms := append([]*profile.Mapping(nil), c.mappingOrder...)
	sort.SliceStable(ms, func(i, j int) bool {
		if (ms[i] == main) != (ms[j] == main) {
			return ms[i] == main
		}
		return c.frameCount[ms[i]] > c.frameCount[ms[j]]
	})
	for i, m := range ms {
		m.ID = uint64(i + 1)
	}
	p.Mapping = ms
	p.Location = make([]*profile.Location, len(c.locations))
	for _, loc := range c.locations {
		p.Location[loc.ID-1] = loc
	}
	p.Function = make([]*profile.Function, len(c.functions))
	for _, fn := range c.functions {
		p.Function[fn.ID-1] = fn
	}
	return p
}

// mainMapping returns the mapping of the profiled binary: the object
// named like the command that has most samples (perf truncates command
// names to 15 bytes), else the user-space object with most frames.
func (c *perfConverter) mainMapping() *profile.Mapping {
	comm, best := "", 0
	for k, n := range c.comms {
		if n > best || (n == best && k < comm) {
			comm, best = k, n
		}
	}
	var byName, byFrames *profile.Mapping
	for _, m := range c.mappingOrder {
		base := path.Base(m.File)
		if comm != "" && strings.HasPrefix(base, comm) && (byName == nil || c.frameCount[m] > c.frameCount[byName]) {
			byName = m
		}
		if strings.HasPrefix(m.File, "[") {
			continue // [kernel.kallsyms], [vdso], [unknown]
		}
		if byFrames == nil || c.frameCount[m] > c.frameCount[byFrames] {
			byFrames = m
		}
	}
	if byName != nil {
		return byName
	}
	return byFrames
}

// mostCommon returns the most frequent key of counts (the smallest of
// equals).
func mostCommon(counts map[int64]int) int64 {
	var best int64
	n := -1
	for k, v := range counts {
		if v > n || (v == n && k < best) {
			best, n = k, v
		}
	}
	return best
}
