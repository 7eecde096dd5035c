package counters

import (
	"encoding/binary"
	"fmt"
	"time"
)

// State says whether an event was counted.
type State int

const (
	// Counted: the event was counted (possibly scaled, see Count.Scaled).
	Counted State = iota
	// NotCounted: the event was opened but never ran (the kernel could not
	// schedule it on a counter, or counting was never enabled); perf
	// prints "<not counted>".
	NotCounted
	// NotSupported: the event could not be opened on this host; perf
	// prints "<not supported>". Count.Reason says why and what to do.
	NotSupported
)

// String returns perf's marker for the state.
func (s State) String() string {
	switch s {
	case Counted:
		return "counted"
	case NotCounted:
		return "<not counted>"
	case NotSupported:
		return "<not supported>"
	}
	return fmt.Sprintf("state(%d)", int(s))
}

// Count is the value of one event. Value is meaningful only when State is
// Counted: an event that was not counted is never reported as 0.
type Count struct {
	Event Event
	State State
	// Value is the count, scaled to the whole enabled time when the kernel
	// multiplexed the event (Raw * Enabled / Running), in Event.Unit.
	Value float64
	// Raw is the count as read, before scaling.
	Raw uint64
	// Enabled and Running are the times the event was enabled and
	// actually counting on a hardware or software counter.
	Enabled, Running time.Duration
	// Reason explains a State other than Counted, with the fix.
	Reason string
	// UserOnly is set when kernel counting was denied and the event was
	// opened with exclude_kernel as a fallback: the count is of user
	// space only. Note says which setting allows kernel counting.
	UserOnly bool
	// Note qualifies a count that is real but partial (e.g. user space
	// only); empty otherwise.
	Note string
}

// IsCounted reports whether c holds a real count.
func (c Count) IsCounted() bool { return c.State == Counted }

// Scaled reports whether Value was extrapolated from a part of the time
// (the event was multiplexed with others on the hardware counters).
func (c Count) Scaled() bool { return c.State == Counted && c.Running < c.Enabled }

// RunningFraction is Running/Enabled in [0, 1]: 1 when the event counted
// all the time it was enabled, less when the kernel multiplexed it; 0
// when it never ran or was never enabled.
func (c Count) RunningFraction() float64 {
	if c.Enabled <= 0 {
		return 0
	}
	return float64(c.Running) / float64(c.Enabled)
}

// Reading is one read of a group: a Count per event, in the order the
// events were given when the group was opened, including the events that
// could not be opened.
type Reading struct {
	Counts []Count
	// Source says where the counts come from: "perf_event_open" or
	// SourceCachegrind.
	Source string
}

// SourcePerf labels counts read from perf_event_open.
const SourcePerf = "perf_event_open"

// Get returns the count of the event named name (with its modifier, if
// any) and whether the reading has it.
func (r Reading) Get(name string) (Count, bool) {
	for _, c := range r.Counts {
		if c.Event.Name == name {
			return c, true
		}
	}
	return Count{}, false
}

// Value returns the count of the event named name if it was counted.
func (r Reading) Value(name string) (float64, bool) {
	c, ok := r.Get(name)
	if !ok || !c.IsCounted() {
		return 0, false
	}
	return c.Value, true
}

// groupValue is one counter of a group read: its value and kernel id.
type groupValue struct {
	Value uint64
	ID    uint64
}

// groupRead is the decoded result of read(2) on a group leader opened
// with PERF_FORMAT_GROUP | PERF_FORMAT_TOTAL_TIME_ENABLED |
// PERF_FORMAT_TOTAL_TIME_RUNNING | PERF_FORMAT_ID.
type groupRead struct {
	Enabled, Running uint64 // ns
	Values           []groupValue
}

// groupReadSize is the size in bytes of a group read of n events.
func groupReadSize(n int) int { return 8*3 + 16*n }

// parseGroupRead decodes a group read buffer, in the host's byte order.
// The layout (linux/perf_event.h, read_format) is:
//
//	u64 nr;            // number of events in the group
//	u64 time_enabled;  // PERF_FORMAT_TOTAL_TIME_ENABLED
//	u64 time_running;  // PERF_FORMAT_TOTAL_TIME_RUNNING
//	struct { u64 value; u64 id; } values[nr];  // PERF_FORMAT_ID
//
// dst.Values is reused if it has the capacity.
func parseGroupRead(buf []byte, dst *groupRead) error {
	return parseGroupReadOrder(buf, binary.NativeEndian, dst)
}

func parseGroupReadOrder(buf []byte, bo binary.ByteOrder, dst *groupRead) error {
	if len(buf) < groupReadSize(0) {
		return fmt.Errorf("counters: group read of %d bytes is shorter than its %d-byte header", len(buf), groupReadSize(0))
	}
	nr := bo.Uint64(buf[0:])
	if nr > uint64(len(buf)) || groupReadSize(int(nr)) != len(buf) {
		return fmt.Errorf("counters: group read of %d bytes does not hold the %d events its header announces (%d bytes expected)", len(buf), nr, groupReadSize(int(min(nr, 1<<20))))
	}
	dst.Enabled = bo.Uint64(buf[8:])
	dst.Running = bo.Uint64(buf[16:])
	dst.Values = dst.Values[:0]
	for i := 0; i < int(nr); i++ {
		off := 24 + 16*i
		dst.Values = append(dst.Values, groupValue{Value: bo.Uint64(buf[off:]), ID: bo.Uint64(buf[off+8:])})
	}
	return nil
}

// scale fills c from a raw count and the group's enabled and running
// times (ns). An event that never ran is NotCounted, never 0; one that ran
// part of the time is extrapolated to the enabled time, as perf does.
func scale(c *Count, raw, enabled, running uint64) {
	c.Raw = raw
	c.Enabled = time.Duration(enabled)
	c.Running = time.Duration(running)
	switch {
	case running == 0:
		c.State = NotCounted
		c.Value = 0
		if enabled == 0 {
			c.Reason = "never enabled (for a child process: the command did not start, so exec never enabled the counters)"
		} else {
			c.Reason = "never scheduled on a counter while enabled (the PMU was busy: too many events or another user); count fewer events"
		}
	case running < enabled:
		c.State = Counted
		c.Value = float64(raw) * (float64(enabled) / float64(running))
	default:
		c.State = Counted
		c.Value = float64(raw)
	}
}

// Diff sets out to the counts between two readings of the same group,
// before and after (raw counts and times subtracted, then scaled again
// by the enabled and running time of the interval). It lets a group stay
// enabled and be read once per sample boundary, which is cheaper than
// enabling and disabling it around every sample. An event counted in
// only one of the readings, or that did not run in the interval, is
// NotCounted in out. out.Counts is reused if it has the capacity.
func Diff(after, before Reading, out *Reading) {
	out.Source = after.Source
	n := len(after.Counts)
	if cap(out.Counts) < n {
		out.Counts = make([]Count, n)
	}
	out.Counts = out.Counts[:n]
	for i, a := range after.Counts {
		c := &out.Counts[i]
		*c = Count{Event: a.Event, State: a.State, Reason: a.Reason, UserOnly: a.UserOnly, Note: a.Note}
		if i >= len(before.Counts) {
			c.State, c.Reason = NotCounted, "not in the earlier reading"
			continue
		}
		b := before.Counts[i]
		if a.State == NotSupported {
			continue
		}
		if b.State == NotSupported || a.Raw < b.Raw || a.Enabled < b.Enabled || a.Running < b.Running {
			c.State, c.Reason = NotCounted, "the readings are not of the same counter (counts went backwards)"
			continue
		}
		c.Reason = ""
		scale(c, a.Raw-b.Raw, uint64(a.Enabled-b.Enabled), uint64(a.Running-b.Running))
	}
}
