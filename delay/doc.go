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
// unix.ClockGettime system call). A wait then parks and spins, and holds in between when asked
// (Options.MaxHold > 0):
//
//  1. Park: the goroutine arms a timerfd (CLOCK_MONOTONIC,
//     TFD_TIMER_ABSTIME) for deadline - margin (- lead, when it holds) and reads it through
//     the Go netpoller. timerfds come from a small pool (one per
//     concurrent waiter, idle ones kept up to a limit).
//  2. Hold (only with Options.MaxHold > 0): for the last lead before the spin it arms a second timerfd
//     and waits for it in ppoll, an ordinary blocking system call, on its
//     own thread. The lead is a high quantile of how late the parks
//     resumed (so that the park ends before the hold is due), at most
//     Options.MaxHold; a wait shorter than
//     lead + margin only holds.
//  3. Spin on the monotonic clock for the rest of the way to the deadline.
//
// A timerfd ignores the thread's timer slack (the kernel arms it with zero
// slack), so no thread setting is changed at all: nothing can leak to other
// goroutines. Reading it through the netpoller parks the goroutine without
// holding a P or a thread: the kernel wakes the thread blocked in
// epoll_wait, which runs the goroutine at once, and the runtime's sysmon
// thread is not kept polling as it is while a thread sits in a blocking
// system call (measured on a 2-vCPU VM: ~2 ms of process CPU per 100 ms
// wait with a blocking call, ~0.15 ms through the netpoller). So the long
// part of a wait parks.
//
// The hold is there because the wake-up the spin follows decides the
// margin, and the one through the netpoller came late: the thread returns
// from epoll_wait, takes a P, runs the goroutine, which finishes its read
// of the timerfd. In a hold the thread the kernel wakes returns straight
// into the wait, still holding the goroutine's P (the runtime's
// exitsyscall takes it back at once unless it was given away, see below),
// and it wakes from a sleep of at most MaxHold, whose thread was running
// just before. Measured with scripts/delay-sleep.sh (10 ms waits, 8 ABBA
// rounds of 400 against its C anchor, clock_nanosleep with 1 ns of timer
// slack then the same spin) on a 2-vCPU VM whose other jobs kept the load
// average at 6 to 15: with both programs at SCHED_FIFO 10, so that what
// shows is each one's own path from the kernel's wake-up, the p99
// overshoot was a median 1.6x the C anchor's holding (0.35x to 15x over
// the rounds) and 3.6x parking until the spin (0.003x to 148x), and the
// largest 1.2x and 4.0x (parks 5 rounds of 8 with a wait milliseconds
// late); at normal priority every wait's tail was the machine's
// (milliseconds, C's too) and the two were alike (p99 0.68x and 0.64x
// idle, 1.25x and 1.06x with a yes per CPU).
//
// The price of the hold is the P. While a goroutine holds, as while it
// spins, its P stays with its thread, and no other goroutine runs on it:
// each wait keeps its P for up to lead + margin (MaxHold + MaxSpin, 1 ms
// by default) instead of margin, which matters when GOMAXPROCS Ps are all
// wanted (with GOMAXPROCS 1, the whole program waits). The hold is an
// ordinary system call, so the runtime can take the P back: sysmon hands
// it to another thread once it has seen the call last one of its ticks
// (20 µs to 10 ms, by how idle the program is) when work is queued on it
// or no other P is idle, and then the wait resumes, after the hold, only
// when it gets a P again (at once from an idle one, after the runnable
// goroutines otherwise); a stop-the-world (the garbage collector's)
// takes the P at once, so a hold never delays a collection. A hold made
// as a raw system call (no entersyscall) would keep the P for certain, but
// then every stop-the-world that comes during one must signal the holding
// thread and wait until the kernel runs it again (one more thread
// wake-up: milliseconds on a loaded machine). The hold is off by default:
// at normal priority it bought nothing measurable on the shared machine
// (the machine's queue decided every tail) while its cost to the rest of
// the program was, if anything, larger (scripts/delay-hold-cost.sh at load
// 16-20: a neighbour goroutine's p99 lateness 21 ms holding vs 5.8 ms
// parking at GOMAXPROCS 1, the collector's stop-the-world p99 50 ms vs
// 3.1 ms at GOMAXPROCS 8, ranges overlapping widely); so it is for a
// program at a real-time priority that wants the shorter tail and can
// spare the P (Options{MaxHold: 500 * time.Microsecond}; measured by Study
// and chrono sleep as "delay.Sleep(hold)"). scripts/delay-hold-cost.sh measures both sides' cost to a
// neighbouring goroutine and to the collector's stops at GOMAXPROCS 1, 2
// and 8.
//
// If no timerfd can be created the park and the hold fall back to
// clock_nanosleep on the caller's thread (default slack, absorbed by the
// margin).
//
// This replaces an earlier design that locked the waiting goroutine to its
// thread, set that thread's timer slack to 1 ns and blocked in
// clock_nanosleep(TIMER_ABSTIME) for the whole wait (still measured, as
// "clock_nanosleep(ABS)+slack1ns", by Study and chrono sleep): on a noisy
// 2-vCPU VM the two woke about equally late (their medians within tens of
// µs of each other, either one ahead from run to run), and the timerfd wait
// cost far less process CPU (figures above). The price of parking is
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
// small log-bucketed histogram with exponential forgetting; the lead of
// the hold is the same quantile of the parks' lateness, tracked alike. Options bound
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
// 20 ms. A wait that does not park (it only spins, or only holds and
// spins) therefore yields (runtime.Gosched) at its start when the
// Sleeper's waits have not parked or yielded for 5 ms; for a
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
