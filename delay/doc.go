// Package delay provides precise waits: sleeps accurate to about a
// microsecond, drift-free periodic tickers, helpers to run a function at a
// precise time or pace a loop at a rate, a study of the accuracy of every
// waiting mechanism (Study) and a cyclictest-style wake-up latency test
// (LatencyTest).
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
// unix.ClockGettime system call). A waiting goroutine hands the wake-up time
// deadline-margin to a "timer thread": a goroutine locked to its own OS thread
// for its whole life, whose timer slack was set to 1 ns with
// prctl(PR_SET_TIMERSLACK). The timer thread blocks in
// clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME) (retrying on EINTR) and
// then wakes the caller over a channel; the caller spins on the monotonic
// clock for the rest of the way to the deadline.
//
// The margin adapts: every wait records how late the caller actually resumed
// relative to its planned wake-up time (kernel wake-up lateness plus the
// channel handoff), and the margin is a high quantile (Options.Quantile,
// p99 by default) of the recent lateness, tracked by a small log-bucketed
// histogram with exponential forgetting. Options bound the spinning: MaxSpin
// caps the margin (the CPU spent per wait) and NoSpin disables spinning (the
// wait then ends when the kernel wakes the thread).
//
// # Why timer threads and not "lock, change, exit"
//
// Timer slack and scheduling settings are per thread, so the thread whose
// slack is changed must never return to the Go scheduler. Two designs keep
// that promise: (a) each wait starts a goroutine, locks it, changes the
// slack, sleeps and exits locked (the runtime then destroys the thread), or
// (b) long-lived locked timer threads serve wait requests over channels. Both
// need one channel handoff back to the waiting goroutine (a few µs, absorbed by
// the margin and the final spin), but (a) also creates and destroys an OS
// thread on every wait (tens of µs of CPU, and a cold thread). This package
// uses (b): a small pool of timer threads (one per concurrent waiter, idle
// ones kept up to a limit, extra ones exit locked). The final spin happens on
// the caller's own goroutine, whose thread settings are never touched, so the
// handoff latency never shows in the result as long as it is below the margin.
//
// # Other platforms
//
// Elsewhere Sleep is a portable fallback: time.Sleep until the margin before
// the deadline, then the same spin on Go's monotonic clock. Its accuracy is
// that of the spin when the margin covers the platform's sleep granularity
// (which MaxSpin may prevent); the timer-thread machinery, timer slack,
// SCHED_FIFO and the latency test are Linux-only and report themselves as
// unavailable elsewhere.
package delay
