// Package counters counts hardware and software events with Linux
// perf_event_open: cycles, instructions, cache and branch misses,
// task-clock, context switches, page faults. Where the host cannot count
// an event (no PMU in a virtual machine, perf_event_paranoid too high, an
// event the CPU lacks) it says so, with the reason and the fix, and never
// reports 0 for something that was not counted. Without a PMU, instruction
// counts of a command can be simulated with valgrind's cachegrind (chrono
// stat --valgrind, package run), whose output ParseCachegrind reads as a
// Reading labelled SourceCachegrind; its instruction count is named
// "instructions", as perf names it.
//
// # Events and groups
//
// Events are named as perf names them (ParseEvents("cycles,instructions"),
// KnownEventNames, DefaultEvents), with the modifiers ":u" (user space
// only) and ":k" (kernel only). A Group opens them as kernel event groups
// read with PERF_FORMAT_GROUP | TOTAL_TIME_ENABLED | TOTAL_TIME_RUNNING |
// ID: software events form one group, hardware and cache events groups of
// at most Options.MaxGroupSize. When the kernel multiplexes a group, its
// counts are scaled by enabled/running time and the running fraction is
// kept (Count.Scaled, Count.RunningFraction). Events that cannot be opened
// stay in the Group as NotSupported with a reason (Group.Unavailable);
// when kernel counting is denied, an event is reopened for user space only
// and its Count says so (UserOnly, Note).
//
// # Scopes and the hooks for other packages
//
// Thread scope counts the calling OS thread. The caller locks its
// goroutine to its thread (runtime.LockOSThread) for the life of the
// group, or uses CountThread, which locks:
//
//	runtime.LockOSThread()
//	defer runtime.UnlockOSThread()
//	g, err := counters.OpenThread(events, counters.Options{})
//	// err != nil only if no event opened; g still reports them all.
//	defer g.Close()
//	var r counters.Reading
//	for each sample {
//		g.Enable()   // reset + enable: two ioctls per kernel group
//		... work ...
//		g.Disable()  // one ioctl per kernel group
//		g.ReadTo(&r) // one read(2) per kernel group, no allocation
//	}
//
// Enabling and disabling a task's counters is costly in a VM (the kernel
// reschedules the task's events: about 6-8 us per sample for a 4-event
// software group here, against 1.4-2 us for one read). The cheaper hook
// for per-sample counts keeps the group enabled and reads it once per
// sample boundary; Diff turns two readings into the sample's counts,
// scaled by the interval's own enabled and running times:
//
//	g.Enable()
//	var prev, cur, sample counters.Reading
//	g.ReadTo(&prev)
//	for each sample {
//		... work ...
//		g.ReadTo(&cur)
//		counters.Diff(cur, prev, &sample)
//		prev, cur = cur, prev
//	}
//
// Either way the counts include part of the read or ioctl system calls
// (in task-clock, context-switches, ...): measure an empty sample and
// subtract it, as nanobench does.
//
// Child scope counts a child process and its descendants, from its execve
// to its exit, and not the parent. OpenForChild must be called on a
// goroutine locked to its OS thread, and that goroutine must start the
// child: Go forks from the calling thread, and the counters, opened on
// that thread with inherit and enable_on_exec, are inherited by the child
// and enabled by its exec. The hook for a command runner is:
//
//	runtime.LockOSThread()
//	defer runtime.UnlockOSThread()
//	g, _ := counters.OpenForChild(events, opts) // on the locked thread
//	defer g.Close()
//	p, _ := os.StartProcess(...) // from this same goroutine
//	p.Wait()
//	r, err := g.Read()           // after Wait: the child's totals
//
// Open one group per child. What the parent does while the child runs
// competes with the child and shows in its counts (a Go program that waits
// in a blocking system call keeps its runtime's sysmon thread waking up):
// package run (run.Run, run.Count: chrono run and chrono stat) starts
// the child with a run.Probe doing the above and waits without waking up.
//
// Derive computes IPC, miss rates, GHz and CPUs utilized from events'
// means, with their uncertainty. Stat is a measurement in the manner of
// perf stat (a command run N times, counted: run.Count makes it); its
// Document summarizes the runs (mean, stddev, perf's ± standard error,
// running fractions, the derived figures) into the result document of
// kind "counters" that chrono stat writes and package report renders.
//
// # Reading cost and user-space reads
//
// Counts are read with read(2) (ProbeRead measures its cost). Where the
// CPU allows user-space reads (cap_user_rdpmc in the perf mmap page),
// ProbeRead and Available report it, but the user-space read path is not
// implemented: it could not be tested on a host with a PMU.
//
// Available reports what this host can count, for chrono clocks and
// chrono env. On systems other than Linux every event is NotSupported.
//
// counters counts and summarizes counts: it does not start commands
// (package run does, through the hooks above), does not compare
// measurements or render them (package report), and opens no file but
// the perf events and cachegrind's output.
package counters
