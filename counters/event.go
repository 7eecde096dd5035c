package counters

import (
	"fmt"
	"strings"

	"github.com/chronograph/chronograph/internal/excerpt"
)

// Kind classifies an event by where its count comes from.
type Kind int

const (
	// Hardware events are counted by the CPU's performance monitoring unit
	// (PERF_TYPE_HARDWARE); they need a PMU, which most virtual machines
	// do not expose.
	Hardware Kind = iota
	// Cache events are hardware cache events (PERF_TYPE_HW_CACHE); they
	// need a PMU too.
	Cache
	// Software events are counted by the kernel (PERF_TYPE_SOFTWARE) and
	// work everywhere perf_event_open does.
	Software
	// Simulated events come from valgrind's cachegrind: deterministic
	// counts of a simulated CPU, not of this machine's.
	Simulated
)

// String returns the kind's name.
func (k Kind) String() string {
	switch k {
	case Hardware:
		return "hardware"
	case Cache:
		return "cache"
	case Software:
		return "software"
	case Simulated:
		return "simulated"
	}
	return fmt.Sprintf("kind(%d)", int(k))
}

// Event is one countable event. Events are usually obtained by name with
// ParseEvents or LookupEvent; the zero Event is not valid.
type Event struct {
	// Name is perf's name of the event (e.g. "cycles", "task-clock"),
	// followed by ":u" or ":k" when a modifier restricts it to user or
	// kernel space.
	Name string
	// Kind says where the count comes from.
	Kind Kind
	// Type and Config are the perf_event_attr type and config fields.
	Type   uint32
	Config uint64
	// Unit is the unit of the count: "ns" for the clocks (task-clock,
	// cpu-clock), "count" otherwise.
	Unit string
	// ExcludeUser and ExcludeKernel restrict counting to kernel space or
	// to user space (the perf modifiers ":k" and ":u").
	ExcludeUser, ExcludeKernel bool
}

// perf_event_attr types and configs, as in linux/perf_event.h. They are
// spelled out here (rather than taken from x/sys/unix) so that the event
// table builds on every platform.
const (
	typeHardware = 0
	typeSoftware = 1
	typeHWCache  = 3
)

// Hardware configs (enum perf_hw_id).
const (
	hwCPUCycles             = 0
	hwInstructions          = 1
	hwCacheReferences       = 2
	hwCacheMisses           = 3
	hwBranchInstructions    = 4
	hwBranchMisses          = 5
	hwBusCycles             = 6
	hwStalledCyclesFrontend = 7
	hwStalledCyclesBackend  = 8
	hwRefCPUCycles          = 9
)

// Software configs (enum perf_sw_ids).
const (
	swCPUClock        = 0
	swTaskClock       = 1
	swPageFaults      = 2
	swContextSwitches = 3
	swCPUMigrations   = 4
	swPageFaultsMin   = 5
	swPageFaultsMaj   = 6
	swAlignmentFaults = 7
	swEmulationFaults = 8
)

// Hardware cache ids, operations and results (enum perf_hw_cache_id,
// perf_hw_cache_op_id, perf_hw_cache_op_result_id). A cache event's
// config is id | op<<8 | result<<16.
const (
	cacheL1D  = 0
	cacheL1I  = 1
	cacheLL   = 2
	cacheDTLB = 3
	cacheITLB = 4
	cacheBPU  = 5

	opRead  = 0
	opWrite = 1

	resultAccess = 0
	resultMiss   = 1
)

func cacheConfig(id, op, result uint64) uint64 { return id | op<<8 | result<<16 }

// eventDef is a row of the event table.
type eventDef struct {
	name    string
	aliases []string
	kind    Kind
	config  uint64
	unit    string
	desc    string
}

// eventTable lists the events known by name, with perf's names.
var eventTable = []eventDef{
	{"cycles", []string{"cpu-cycles"}, Hardware, hwCPUCycles, "count", "CPU cycles"},
	{"instructions", nil, Hardware, hwInstructions, "count", "instructions retired"},
	{"ref-cycles", nil, Hardware, hwRefCPUCycles, "count", "reference cycles (not affected by frequency scaling)"},
	{"bus-cycles", nil, Hardware, hwBusCycles, "count", "bus cycles"},
	{"branches", []string{"branch-instructions"}, Hardware, hwBranchInstructions, "count", "branch instructions retired"},
	{"branch-misses", nil, Hardware, hwBranchMisses, "count", "mispredicted branches"},
	{"cache-references", nil, Hardware, hwCacheReferences, "count", "last-level cache references"},
	{"cache-misses", nil, Hardware, hwCacheMisses, "count", "last-level cache misses"},
	{"stalled-cycles-frontend", []string{"idle-cycles-frontend"}, Hardware, hwStalledCyclesFrontend, "count", "cycles stalled in the front end"},
	{"stalled-cycles-backend", []string{"idle-cycles-backend"}, Hardware, hwStalledCyclesBackend, "count", "cycles stalled in the back end"},

	{"L1-dcache-loads", nil, Cache, cacheConfig(cacheL1D, opRead, resultAccess), "count", "L1 data cache loads"},
	{"L1-dcache-load-misses", nil, Cache, cacheConfig(cacheL1D, opRead, resultMiss), "count", "L1 data cache load misses"},
	{"L1-dcache-stores", nil, Cache, cacheConfig(cacheL1D, opWrite, resultAccess), "count", "L1 data cache stores"},
	{"L1-icache-load-misses", nil, Cache, cacheConfig(cacheL1I, opRead, resultMiss), "count", "L1 instruction cache load misses"},
	{"LLC-loads", nil, Cache, cacheConfig(cacheLL, opRead, resultAccess), "count", "last-level cache loads"},
	{"LLC-load-misses", nil, Cache, cacheConfig(cacheLL, opRead, resultMiss), "count", "last-level cache load misses"},
	{"LLC-stores", nil, Cache, cacheConfig(cacheLL, opWrite, resultAccess), "count", "last-level cache stores"},
	{"LLC-store-misses", nil, Cache, cacheConfig(cacheLL, opWrite, resultMiss), "count", "last-level cache store misses"},
	{"dTLB-loads", nil, Cache, cacheConfig(cacheDTLB, opRead, resultAccess), "count", "data TLB loads"},
	{"dTLB-load-misses", nil, Cache, cacheConfig(cacheDTLB, opRead, resultMiss), "count", "data TLB load misses"},
	{"iTLB-load-misses", nil, Cache, cacheConfig(cacheITLB, opRead, resultMiss), "count", "instruction TLB load misses"},
	{"branch-loads", nil, Cache, cacheConfig(cacheBPU, opRead, resultAccess), "count", "branch prediction unit loads"},
	{"branch-load-misses", nil, Cache, cacheConfig(cacheBPU, opRead, resultMiss), "count", "branch prediction unit load misses"},

	{"task-clock", nil, Software, swTaskClock, "ns", "CPU time of the task (ns)"},
	{"cpu-clock", nil, Software, swCPUClock, "ns", "CPU clock (ns, per-CPU high-resolution timer)"},
	{"context-switches", []string{"cs"}, Software, swContextSwitches, "count", "context switches"},
	{"cpu-migrations", []string{"migrations"}, Software, swCPUMigrations, "count", "migrations to another CPU"},
	{"page-faults", []string{"faults"}, Software, swPageFaults, "count", "page faults"},
	{"minor-faults", nil, Software, swPageFaultsMin, "count", "minor page faults (no I/O)"},
	{"major-faults", nil, Software, swPageFaultsMaj, "count", "major page faults (with I/O)"},
	{"alignment-faults", nil, Software, swAlignmentFaults, "count", "alignment faults"},
	{"emulation-faults", nil, Software, swEmulationFaults, "count", "emulation faults"},
}

// DefaultEventNames are the events counted when none are named: perf
// stat's default set.
var DefaultEventNames = []string{
	"task-clock", "context-switches", "cpu-migrations", "page-faults",
	"cycles", "instructions", "branches", "branch-misses",
}

// DefaultEvents returns the events of DefaultEventNames.
func DefaultEvents() []Event {
	evs, err := ParseEvents(strings.Join(DefaultEventNames, ","))
	if err != nil {
		// The default names are in the table; a test guards this.
		return nil
	}
	return evs
}

// describe returns a one-line description of the event named name
// (without modifier): perf's event, else cachegrind's simulated one, or ""
// if it is not known.
func describe(name string) string {
	base, _, _ := strings.Cut(name, ":")
	for _, d := range eventTable {
		if d.name == base {
			return d.desc
		}
	}
	return cachegrindDesc[base]
}

// KnownEventNames returns the names of every event known by name:
// hardware, then cache, then software events.
func KnownEventNames() []string {
	names := make([]string, 0, len(eventTable))
	for _, d := range eventTable {
		names = append(names, d.name)
	}
	return names
}

// LookupEvent returns the event with perf's name name (or an alias such as
// "cpu-cycles" or "cs"), optionally followed by the modifier ":u" (user
// space only) or ":k" (kernel only).
func LookupEvent(name string) (Event, error) {
	base, mod, hasMod := strings.Cut(strings.TrimSpace(name), ":")
	for _, d := range eventTable {
		if d.name != base && !contains(d.aliases, base) {
			continue
		}
		ev := Event{Name: d.name, Kind: d.kind, Config: d.config, Unit: d.unit}
		switch d.kind {
		case Hardware:
			ev.Type = typeHardware
		case Cache:
			ev.Type = typeHWCache
		case Software:
			ev.Type = typeSoftware
		}
		if hasMod {
			switch mod {
			case "u":
				ev.ExcludeKernel = true
			case "k":
				ev.ExcludeUser = true
			default:
				return Event{}, fmt.Errorf("counters: unknown modifier %s in event %s (use :u for user space only or :k for kernel only)", excerpt.Quote(mod), excerpt.Quote(strings.TrimSpace(name)))
			}
			ev.Name += ":" + mod
		}
		return ev, nil
	}
	return Event{}, fmt.Errorf("counters: unknown event %s; known events: %s", excerpt.Quote(base), strings.Join(KnownEventNames(), ", "))
}

// ParseEvents parses a comma-separated list of event names, as perf stat's
// -e option takes them ("cycles,instructions,task-clock:u"). It rejects
// unknown names (listing the known ones), empty names and duplicates.
func ParseEvents(list string) ([]Event, error) {
	if strings.TrimSpace(list) == "" {
		return nil, fmt.Errorf("counters: empty event list; name events separated by commas, e.g. %q", strings.Join(DefaultEventNames, ","))
	}
	var evs []Event
	seen := map[string]bool{}
	for _, name := range strings.Split(list, ",") {
		if strings.TrimSpace(name) == "" {
			return nil, fmt.Errorf("counters: empty event name in %s", excerpt.Quote(list))
		}
		ev, err := LookupEvent(name)
		if err != nil {
			return nil, err
		}
		if seen[ev.Name] {
			return nil, fmt.Errorf("counters: event %q named twice in %s", ev.Name, excerpt.Quote(list))
		}
		seen[ev.Name] = true
		evs = append(evs, ev)
	}
	return evs, nil
}

func contains(xs []string, s string) bool {
	for _, x := range xs {
		if x == s {
			return true
		}
	}
	return false
}
