// Package delay provides precise waits: sleeps accurate to about a
// microsecond, drift-free periodic tickers, helpers to run a function at a
// precise time or pace a loop at a rate, a study of the accuracy of every
// waiting mechanism (Study) and a cyclictest-style wake-up latency test
// (LatencyTest). Their results become result documents of kind "sleep"
// and "latency" (StudyResult.Document, LatencyResult.Document; see
// docs/result-schema.md), which package report renders.
//
// # Why time.Sleep is not enough
//
// On Linux time.Sleep goes through the Go netpoller, whose epoll timeout has
// millisecond granularity: a 100 µs time.Sleep takes about 1 ms. The kernel
// also adds each thread's timer slack (50 µs by default) to every sleep.
//
// # How Sleep works on Linux
//
// Sleep and SleepUntil compute an absolute deadline on CLOCK_MONOTONIC (the
// clock the Go runtime's monotonic readings come from on Linux, read here
// through runtime.nanotime's vDSO call, ~25 ns, instead of the ~400 ns
// unix.ClockGettime system call). The waiting goroutine arms a timerfd
// (CLOCK_MONOTONIC, TFD_TIMER_ABSTIME) for deadline-margin and reads it
// through the Go netpoller, then spins on the monotonic clock for the rest
// of the way to the deadline. timerfds come from a small pool (one per
// concurrent waiter, idle ones kept up to a limit).
//
// A timerfd ignores the thread's timer slack (the kernel arms it with zero
// slack), so no thread setting is changed at all: nothing can leak to other
// goroutines. Reading it through the netpoller parks the goroutine without
// holding a P or a thread: the kernel wakes the thread blocked in
// epoll_wait, which runs the goroutine at once (one thread wake-up, no
// handoff between threads), and the runtime's sysmon thread is not kept
// polling as it is while a thread sits in a blocking system call (measured
// on a 2-vCPU VM: ~2 ms of process CPU per 100 ms wait with a blocking
// call, ~0.15 ms through the netpoller). If no timerfd can be created the
// wait falls back to clock_nanosleep on the caller's thread (default slack,
// absorbed by the margin).
//
// This replaces an earlier design that locked the waiting goroutine to its
// thread, set that thread's timer slack to 1 ns and blocked in
// clock_nanosleep(TIMER_ABSTIME) (still measured, as
// "clock_nanosleep(ABS)+slack1ns", by Study and chrono sleep): on a noisy
// 2-vCPU VM the two woke about equally late (their medians within tens of
// µs of each other, either one ahead from run to run), and the timerfd wait
// cost far less process CPU (figures above). The price is
// that the wake-up goes through the Go scheduler: the resumed goroutine
// needs a P, so in a process whose GOMAXPROCS Ps are all busy running
// other goroutines it waits its turn (up to the scheduler's 10 ms
// preemption slice) - as a goroutine returning from a blocking system call
// would. Keep a P free (GOMAXPROCS above the number of busy goroutines)
// where waits must be precise.
//
// The margin adapts: every wait records how late the caller actually resumed
// relative to its planned wake-up time, and the margin is a high quantile
// (Options.Quantile, p99 by default) of the recent lateness, tracked by a
// small log-bucketed histogram with exponential forgetting. Options bound
// the spinning: MaxSpin caps the margin (the CPU spent per wait) and NoSpin
// disables spinning (the wait then ends when the kernel wakes the thread).
//
// # Limits of the final spin
//
// A spinning thread still takes interrupts and can be preempted: the
// overshoot of a wait is the length of whatever interruption straddles its
// deadline. On a quiet 2-vCPU nested VM a spinning thread lost 3.9 % of its
// time in gaps over 2 µs (about 1000 per second, the 250 Hz scheduler tick
// costing 50-220 µs each), so any wait that ends in a spin there has a p99
// overshoot of tens of µs; Study's busy-spin mechanism measures that floor.
// Wake-ups later than MaxSpin (the kernel's own tail) also end late.
//
// The Go runtime preempts a goroutine that ran 10 ms without rescheduling
// with a signal, wherever it is: back-to-back waits that only spin would
// take that hit (~10-15 µs here) in the middle of a spin about every
// 20 ms. A spin-only wait therefore yields (runtime.Gosched) at its start
// when the Sleeper's waits have not parked or yielded for 5 ms; for a
// goroutine locked to its thread a yield hands the thread's P to another
// thread and back, so such a wait costs more there (tens of µs, more on a
// saturated machine).
//
// # Other platforms
//
// Elsewhere Sleep is a portable fallback: time.Sleep until the margin before
// the deadline, then the same spin on Go's monotonic clock. Its accuracy is
// that of the spin when the margin covers the platform's sleep granularity
// (which MaxSpin may prevent); the timer-thread machinery, timer slack,
// SCHED_FIFO and the latency test are Linux-only and report themselves as
// unavailable elsewhere.
//
// delay waits and measures how well it waits: it does not choose the
// figures to print or render them (package report), and it changes no
// system setting beyond the thread settings, memory lock and PM-QoS
// request a caller asks for (Acquire), which it undoes (Held.Release).
package delay
