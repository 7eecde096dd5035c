package counters

import (
	"errors"
	"fmt"
	"runtime"
	"strings"
	"time"
)

// Options control how a group counts.
type Options struct {
	// ExcludeKernel counts user space only (every event, as perf's ":u").
	ExcludeKernel bool
	// ExcludeUser counts kernel space only (as perf's ":k").
	ExcludeUser bool
	// ExcludeHypervisor does not count in the hypervisor.
	ExcludeHypervisor bool
	// MaxGroupSize is the largest number of hardware and cache events
	// scheduled together in one kernel group (default 4, the number of
	// general-purpose counters of most x86 cores per hyperthread). Larger
	// sets are split into several kernel groups that the kernel
	// multiplexes; software events always form a group of their own.
	MaxGroupSize int
}

// attrSpec is the platform-neutral part of a perf_event_attr.
type attrSpec struct {
	typ           uint32
	config        uint64
	excludeUser   bool
	excludeKernel bool
	excludeHV     bool
	disabled      bool
	inherit       bool
	enableOnExec  bool
}

// member is one opened event of a kernel group.
type member struct {
	idx      int // index into Group.events
	fd       int
	id       uint64
	userOnly bool
	note     string
}

// kgroup is one kernel event group: a leader (members[0]) and the events
// read with it in one read(2).
type kgroup struct {
	members []member
	kind    Kind // Software, or Hardware for hardware and cache events
	buf     []byte
	rd      groupRead
}

// Group is a set of events counted together. Create it with OpenThread or
// OpenForChild. A Group is not safe for concurrent use.
type Group struct {
	events []Event
	sets   []*kgroup
	failed map[int]Count // events that could not be opened, by index
	child  bool
	closed bool
}

// errNoEvents is returned when a group is opened with no events.
var errNoEvents = errors.New("counters: no events to count; name at least one (see KnownEventNames)")

// OpenThread opens events for counting the calling thread, disabled.
//
// The caller must have locked its goroutine to its OS thread
// (runtime.LockOSThread) and keep it locked until Close: the counters
// count the thread, not the goroutine, and a goroutine that moves to
// another thread is no longer counted. CountThread does the locking.
//
// Events that cannot be opened (no PMU, no permission, unknown to this
// CPU) are kept in the group and read as NotSupported with the reason.
// The returned Group is never nil when the event list is not empty; the
// error is non-nil when not one event could be opened (it lists the
// reasons), and the Group then still reports every event as unavailable.
func OpenThread(events []Event, opts Options) (*Group, error) {
	return open(events, opts, false)
}

// OpenForChild opens events for counting the next child process that the
// calling thread starts. It must be called on a goroutine locked to its OS
// thread (runtime.LockOSThread), and that same goroutine must then start
// the child (os.StartProcess and os/exec fork from the calling thread).
// The counters are opened disabled with inherit and enable_on_exec: they
// start counting when the child calls execve, count the child and every
// thread and process it creates, and stop when they exit. After the child
// has been waited for, Read returns its totals; then Close the group. The
// parent's own work is not counted. Open a new group for every child: the
// totals of children accumulate in the group.
//
// Unavailable events are handled as in OpenThread.
func OpenForChild(events []Event, opts Options) (*Group, error) {
	return open(events, opts, true)
}

func open(events []Event, opts Options, child bool) (*Group, error) {
	if len(events) == 0 {
		return nil, errNoEvents
	}
	maxHW := opts.MaxGroupSize
	if maxHW <= 0 {
		maxHW = 4
	}
	g := &Group{events: events, failed: map[int]Count{}, child: child}
	var sw, hw []int
	for i, ev := range events {
		switch ev.Kind {
		case Software:
			sw = append(sw, i)
		case Hardware, Cache:
			hw = append(hw, i)
		default:
			g.failed[i] = Count{Event: ev, State: NotSupported, Reason: fmt.Sprintf("%s events are not counted by perf_event_open (use the cachegrind mode)", ev.Kind)}
		}
	}
	g.openSet(sw, Software, opts)
	for len(hw) > 0 {
		n := min(maxHW, len(hw))
		g.openSet(hw[:n], Hardware, opts)
		hw = hw[n:]
	}
	if len(g.sets) == 0 {
		var reasons []string
		for i := range events {
			c := g.failed[i]
			reasons = append(reasons, c.Event.Name+": "+c.Reason)
		}
		return g, fmt.Errorf("counters: no event could be opened (%s)", strings.Join(dedupReasons(reasons), "; "))
	}
	return g, nil
}

// dedupReasons shortens a list of "name: reason" by grouping the names
// that share a reason.
func dedupReasons(items []string) []string {
	var order []string
	names := map[string][]string{}
	for _, it := range items {
		name, reason, _ := strings.Cut(it, ": ")
		if _, ok := names[reason]; !ok {
			order = append(order, reason)
		}
		names[reason] = append(names[reason], name)
	}
	out := make([]string, 0, len(order))
	for _, r := range order {
		out = append(out, strings.Join(names[r], ", ")+": "+r)
	}
	return out
}

// openSet opens the events with indexes idxs as one kernel group: the
// first event that opens becomes the leader.
func (g *Group) openSet(idxs []int, kind Kind, opts Options) {
	var ks *kgroup
	for _, i := range idxs {
		ev := g.events[i]
		spec := attrSpec{
			typ:           ev.Type,
			config:        ev.Config,
			excludeUser:   opts.ExcludeUser || ev.ExcludeUser,
			excludeKernel: opts.ExcludeKernel || ev.ExcludeKernel,
			excludeHV:     opts.ExcludeHypervisor,
		}
		leaderFD := -1
		if ks == nil {
			// The leader starts disabled and enables the group; in child
			// scope, exec enables it.
			spec.disabled = true
			spec.enableOnExec = g.child
		} else {
			leaderFD = ks.members[0].fd
		}
		spec.inherit = g.child
		m, err := openMember(ev, spec, leaderFD)
		if err != nil {
			g.failed[i] = Count{Event: ev, State: NotSupported, Reason: err.Error()}
			continue
		}
		m.idx = i
		if ev.Kind == Software && (ev.Config == swTaskClock || ev.Config == swCPUClock) && (spec.excludeUser || spec.excludeKernel) {
			m.note = "the kernel does not split " + ev.Name + " by user/kernel mode: this is the total CPU time"
		}
		if ks == nil {
			ks = &kgroup{kind: kind}
			g.sets = append(g.sets, ks)
		}
		ks.members = append(ks.members, m)
	}
	if ks != nil {
		ks.buf = make([]byte, groupReadSize(len(ks.members)))
		ks.rd.Values = make([]groupValue, 0, len(ks.members))
	}
}

// openMember opens one event. When the kernel denies counting kernel
// space (perf_event_paranoid), it retries with exclude_kernel and says so
// in the member's note.
func openMember(ev Event, spec attrSpec, leaderFD int) (member, error) {
	fd, id, err := sysOpen(spec, leaderFD)
	if err == nil {
		return member{fd: fd, id: id}, nil
	}
	reason := openErrorReason(ev, err)
	if isPermissionError(err) && !spec.excludeKernel && !spec.excludeUser {
		spec.excludeKernel = true
		spec.excludeHV = true
		if fd, id, err2 := sysOpen(spec, leaderFD); err2 == nil {
			return member{fd: fd, id: id, userOnly: true, note: "user space only: " + reason}, nil
		}
	}
	return member{}, errors.New(reason)
}

// Events returns the events of the group, in the order given at open.
func (g *Group) Events() []Event { return g.events }

// Unavailable returns the events that could not be opened, each with
// State NotSupported and the reason.
func (g *Group) Unavailable() []Count {
	var out []Count
	for i := range g.events {
		if c, ok := g.failed[i]; ok {
			out = append(out, c)
		}
	}
	return out
}

// Opened reports how many events were opened.
func (g *Group) Opened() int {
	n := 0
	for _, ks := range g.sets {
		n += len(ks.members)
	}
	return n
}

// Enable resets the counts to zero and starts counting.
func (g *Group) Enable() error {
	if err := g.ioctlAll(ioctlReset); err != nil {
		return err
	}
	return g.ioctlAll(ioctlEnable)
}

// Disable stops counting; the counts are kept for Read.
func (g *Group) Disable() error { return g.ioctlAll(ioctlDisable) }

func (g *Group) ioctlAll(op ioctlOp) error {
	if g.closed {
		return errors.New("counters: group used after Close")
	}
	for _, ks := range g.sets {
		if err := sysGroupIoctl(ks.members[0].fd, op); err != nil {
			return fmt.Errorf("counters: %s of event group led by %s: %w", op, g.events[ks.members[0].idx].Name, err)
		}
	}
	return nil
}

// Read reads every event of the group (one read(2) per kernel group).
func (g *Group) Read() (Reading, error) {
	var r Reading
	err := g.ReadTo(&r)
	return r, err
}

// ReadTo is Read into r, reusing r.Counts: after the first call it does
// not allocate, for reading in a measurement loop.
func (g *Group) ReadTo(r *Reading) error {
	if g.closed {
		return errors.New("counters: group used after Close")
	}
	r.Source = SourcePerf
	if cap(r.Counts) < len(g.events) {
		r.Counts = make([]Count, len(g.events))
	}
	r.Counts = r.Counts[:len(g.events)]
	for i, ev := range g.events {
		if c, ok := g.failed[i]; ok {
			r.Counts[i] = c
		} else {
			r.Counts[i] = Count{Event: ev, State: NotCounted, Reason: "not in the group read"}
		}
	}
	for _, ks := range g.sets {
		n, err := sysRead(ks.members[0].fd, ks.buf)
		if err != nil {
			return fmt.Errorf("counters: reading event group led by %s: %w", g.events[ks.members[0].idx].Name, err)
		}
		if err := parseGroupRead(ks.buf[:n], &ks.rd); err != nil {
			return err
		}
		for _, v := range ks.rd.Values {
			for _, m := range ks.members {
				if m.id != v.ID {
					continue
				}
				c := &r.Counts[m.idx]
				c.Reason = ""
				scale(c, v.Value, ks.rd.Enabled, ks.rd.Running)
				c.UserOnly = m.userOnly
				c.Note = m.note
			}
		}
	}
	return nil
}

// Close releases the group's file descriptors. It is safe to call twice.
func (g *Group) Close() error {
	if g == nil || g.closed {
		return nil
	}
	g.closed = true
	var first error
	for _, ks := range g.sets {
		for j := len(ks.members) - 1; j >= 0; j-- {
			if err := sysClose(ks.members[j].fd); err != nil && first == nil {
				first = fmt.Errorf("counters: closing %s: %w", g.events[ks.members[j].idx].Name, err)
			}
		}
	}
	return first
}

// userRead reports whether the CPU allows reading the group's hardware
// counters from user space (cap_user_rdpmc in the perf mmap page), and
// why not. chronograph always reads with read(2): the user-space path is
// not implemented because it could not be tested on a host with a PMU.
func (g *Group) userRead() (available bool, reason string) {
	for _, ks := range g.sets {
		if ks.kind == Hardware {
			return rdpmcStatus(ks.members[0].fd)
		}
	}
	return false, "no hardware counter is open (cap_user_rdpmc applies to hardware counters only)"
}

// readCost measures the mean cost of one Read of the group over n reads
// (n <= 0 means 1000), with the monotonic clock.
func (g *Group) readCost(n int) (time.Duration, error) {
	if n <= 0 {
		n = 1000
	}
	var r Reading
	if err := g.ReadTo(&r); err != nil {
		return 0, err
	}
	start := time.Now()
	for i := 0; i < n; i++ {
		if err := g.ReadTo(&r); err != nil {
			return 0, err
		}
	}
	return time.Since(start) / time.Duration(n), nil
}

// CountThread counts events while fn runs on the calling goroutine,
// locked to its OS thread for the duration. Work that fn hands to other
// goroutines is not counted.
func CountThread(events []Event, opts Options, fn func()) (Reading, error) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	g, err := OpenThread(events, opts)
	if g == nil {
		return Reading{}, err
	}
	defer g.Close()
	if g.Opened() == 0 {
		r, rerr := g.Read()
		if rerr != nil {
			return r, rerr
		}
		return r, err
	}
	if err := g.Enable(); err != nil {
		return Reading{}, err
	}
	fn()
	if err := g.Disable(); err != nil {
		return Reading{}, err
	}
	return g.Read()
}

// ioctlOp is a group-wide perf ioctl.
type ioctlOp int

const (
	ioctlEnable ioctlOp = iota
	ioctlDisable
	ioctlReset
)

func (op ioctlOp) String() string {
	switch op {
	case ioctlEnable:
		return "enabling"
	case ioctlDisable:
		return "disabling"
	case ioctlReset:
		return "resetting"
	}
	return "ioctl"
}

// ReadInfo describes how counts are read on this host.
type ReadInfo struct {
	// Cost is the mean cost of one group read (read(2)) of the events.
	Cost time.Duration
	// UserRead says whether the CPU allows user-space counter reads
	// (cap_user_rdpmc in the perf mmap page of a hardware event), and
	// UserReadReason why or why not.
	UserRead       bool
	UserReadReason string
}

// ProbeRead opens events on a locked thread, measures the cost of n reads
// (n <= 0: 1000) and the user-space read capability, and closes them.
func ProbeRead(events []Event, opts Options, n int) (ReadInfo, error) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	g, err := OpenThread(events, opts)
	if err != nil {
		if g != nil {
			g.Close()
		}
		return ReadInfo{}, err
	}
	defer g.Close()
	var ri ReadInfo
	ri.UserRead, ri.UserReadReason = g.userRead()
	if err := g.Enable(); err != nil {
		return ri, err
	}
	ri.Cost, err = g.readCost(n)
	return ri, err
}
