package result

// SleepRun holds the details of a sleep document as a whole (chrono
// sleep, delay.Study): what was asked, the conditions the waits ran under
// and delay.Sleep's learned spin margin. Each measurement is one
// mechanism at one requested duration (see SleepDetail).
type SleepRun struct {
	// DurationsNs are the requested durations in ns, in the order they
	// were studied (a measurement's Name is MECHANISM@DURATION).
	DurationsNs []int64 `json:"durations_ns"`
	// Mechanisms are the mechanisms studied, in the order they were
	// measured at each duration.
	Mechanisms []string `json:"mechanisms"`
	// BudgetNs is the study's total time budget in ns, split evenly
	// between the cells (mechanism × duration), each taking at least one
	// sample; MaxSamples caps the samples of one cell.
	BudgetNs   int64 `json:"budget_ns"`
	MaxSamples int   `json:"max_samples"`
	// Conditions are the conditions in force. Priority and pinning apply
	// to the mechanisms that wait on a thread of their own
	// (SleepDetail.OwnThread); the Go runtime's waits and delay.Sleep run
	// on ordinary goroutines, as programs call them.
	Conditions WaitConditions `json:"conditions"`
	// SpinMarginNs is delay.Sleep's learned spin margin at the end of the
	// study, in ns; absent when no delay.Sleep wait was measured.
	SpinMarginNs *int64 `json:"spin_margin_ns,omitempty"`
	// ReadCostNs is the cost of one read of the clock the waits were
	// timed with, in ns (the median over batches of back-to-back reads);
	// with the metrics' resolution it is busy-spin's floor. Absent when
	// not measured.
	ReadCostNs float64 `json:"read_cost_ns,omitempty"`
}

// SleepDetail holds the details of one measurement of a sleep document:
// one mechanism at one requested duration. Its metrics are "achieved"
// (primary: the duration each wait lasted), "overshoot" (achieved minus
// requested) and, when the CPU clock could be read, "cpu" (the CPU time
// of each wait), all in ns, one value per wait in the order taken. A
// mechanism that could not be measured has no metrics and says why in
// Unavailable.
type SleepDetail struct {
	// Mechanism names the way of waiting ("time.Sleep", "delay.Sleep",
	// "clock_nanosleep(ABS)+slack1ns", ...); RequestedNs is the requested
	// duration in ns.
	Mechanism   string `json:"mechanism"`
	RequestedNs int64  `json:"requested_ns"`
	// OwnThread is set for the mechanisms that wait on a thread of their
	// own, locked for the cell, with the run's priority and pinning (the
	// system calls and busy-spin); the others run on an ordinary
	// goroutine.
	OwnThread bool `json:"own_thread,omitempty"`
	// TimerSlackNs is the timer slack the waits ran with, in ns: read on
	// the own thread, or the 1 ns set on every thread of the process for
	// the "+slack1ns" variants of the Go runtime's waits; absent for the
	// Go runtime's threads left as they were (see the environment's
	// scheduler.timer_slack_ns). The kernel applies no slack to SCHED_FIFO
	// threads, and timerfd timers ignore it.
	TimerSlackNs *int64 `json:"timer_slack_ns,omitempty"`
	// TimerResolutionNs is the system timer resolution in force while
	// the waits ran, in ns (windows: NtQueryTimerResolution's current
	// value after the mechanism's setup, so the resolution that
	// timeBeginPeriod(1) or NtSetTimerResolution held for it, or the
	// finest any process asked for); absent where there is none (Linux).
	TimerResolutionNs *int64 `json:"timer_resolution_ns,omitempty"`
	// CPUClock names the clock of the "cpu" metric: "thread" (the own
	// thread's CPU time) or "process" (the whole process's, for waits on
	// ordinary goroutines); CPUReadCostNs is the cost of the two clock
	// reads around a wait, in ns, subtracted from every value (the median
	// of 15 empty pairs). Both are absent with the metric.
	CPUClock      string   `json:"cpu_clock,omitempty"`
	CPUReadCostNs *float64 `json:"cpu_read_cost_ns,omitempty"`
	// Unavailable says why the mechanism could not be measured (then it
	// has no metrics).
	Unavailable string `json:"unavailable,omitempty"`
	// FailedWaits counts the waits whose system call failed: they are not
	// samples and no metric holds them. FailedError is the first one's
	// error.
	FailedWaits int    `json:"failed_waits,omitempty"`
	FailedError string `json:"failed_error,omitempty"`
}

// WaitConditions are the conditions a sleep or latency run measured
// under, as they were in force: a setting refused and dropped under best
// effort is absent here and named in Refused.
type WaitConditions struct {
	// Priority is the SCHED_FIFO priority of the measuring threads (1-99);
	// absent: the normal scheduler (SCHED_OTHER).
	Priority int `json:"priority,omitempty"`
	// Pin lists the CPUs the measuring threads were pinned to (sleep: the
	// set every own thread may run on; latency: thread i on
	// Pin[i mod len(Pin)], as cyclictest's -a); absent: not pinned.
	Pin []int `json:"pin,omitempty"`
	// MLocked is set when all memory was locked (mlockall).
	MLocked bool `json:"mlocked,omitempty"`
	// DMALatencyUs is the /dev/cpu_dma_latency request held during the
	// run, in µs; absent when none was held.
	DMALatencyUs *int `json:"dma_latency_us,omitempty"`
	// BestEffort is set when refused settings were to be dropped rather
	// than end the run; Refused names those dropped (e.g. "SCHED_FIFO
	// priority 80", "mlockall"), each with a warning in the document.
	BestEffort bool     `json:"best_effort,omitempty"`
	Refused    []string `json:"refused,omitempty"`
}
