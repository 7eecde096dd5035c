package result

// LatencyRun holds the details of a latency document as a whole (chrono
// latency, delay.LatencyTest: cyclictest's measurement). Each measurement
// is one thread ("thread N") or, with several threads, their merge ("all
// threads"); its metric "latency" (ns, primary) holds every wake-up
// latency binned as the HDR histogram kept them (Metric.Histogram, with
// the exact min, max, mean and standard deviation), and its percentiles
// are the histogram's ("hdr-upper").
type LatencyRun struct {
	// Wait is how each thread waits for its deadlines:
	// "clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME)".
	Wait string `json:"wait"`
	// IntervalNs is the interval between a thread's deadlines, in ns.
	IntervalNs int64 `json:"interval_ns"`
	// Threads is the number of measuring threads.
	Threads int `json:"threads"`
	// Loops bounds the wake-ups of each thread and DurationNs the run, in
	// ns; each is absent when not given (the run then ended otherwise:
	// the other bound, or an interruption).
	Loops      int64 `json:"loops,omitempty"`
	DurationNs int64 `json:"duration_ns,omitempty"`
	// OverflowNs is the limit at or above which a latency counts as an
	// overflow (LatencyDetail.Overflows), in ns: cyclictest's -h limit
	// when given (HistogramUs), else the top of the histograms' range.
	// It does not clip the histograms.
	OverflowNs int64 `json:"overflow_ns"`
	// HistogramUs is cyclictest's -h, in µs, when it was given: the text
	// then shows the per-µs histogram up to it. Absent otherwise.
	HistogramUs int `json:"histogram_us,omitempty"`
	// SignificantDigits is the precision of the HDR histograms: every
	// latency is kept to this many significant decimal digits (its bin's
	// width is at most 10^-digits of its value).
	SignificantDigits int `json:"significant_digits"`
	// Conditions are the conditions in force for the measuring threads.
	Conditions WaitConditions `json:"conditions"`
}

// LatencyDetail holds the details of one measurement of a latency
// document: one thread, or all threads merged.
type LatencyDetail struct {
	// Thread is the thread's number (0 to threads-1); absent for the merge
	// of all threads.
	Thread *int `json:"thread,omitempty"`
	// TID is the thread's operating-system thread id (absent for the
	// merge, or when the thread never started).
	TID int `json:"tid,omitempty"`
	// CPU is the CPU the thread was pinned to; absent when not pinned.
	CPU *int `json:"cpu,omitempty"`
	// Priority is the thread's SCHED_FIFO priority; absent: SCHED_OTHER.
	Priority int `json:"priority,omitempty"`
	// TimerSlackNs is the thread's timer slack while it measured, in ns
	// (prctl PR_GET_TIMERSLACK; the kernel applies none to SCHED_FIFO
	// threads); absent when unknown.
	TimerSlackNs *int64 `json:"timer_slack_ns,omitempty"`
	// LastNs is the last latency measured, in ns (cyclictest's "Act");
	// absent when none was.
	LastNs *int64 `json:"last_ns,omitempty"`
	// Overflows counts latencies at or above LatencyRun.OverflowNs (exact,
	// from the raw values).
	Overflows int64 `json:"overflows"`
	// Overruns counts wake-ups so late that whole intervals were skipped.
	Overruns int64 `json:"overruns"`
	// RuntimeYields counts the thread's yields to the Go scheduler (made
	// when the runtime asked for one) and RuntimeYieldMaxNs is the longest,
	// in ns (absent without yields); both absent for the merge.
	RuntimeYields     *int64 `json:"runtime_yields,omitempty"`
	RuntimeYieldMaxNs *int64 `json:"runtime_yield_max_ns,omitempty"`
	// PerCPU splits the latencies of a thread that was not pinned by the
	// CPU each wake-up ran on, in CPU order; absent for pinned threads,
	// the merge, and where the CPU cannot be read.
	PerCPU []LatencyCPU `json:"per_cpu,omitempty"`
	// Error says why the thread stopped before the run ended (its sleep
	// failed); its latencies up to then are kept.
	Error string `json:"error,omitempty"`
}

// LatencyCPU summarizes the latencies of one thread measured on one CPU:
// their count and exact min, max, mean and population standard
// deviation, in ns.
type LatencyCPU struct {
	CPU      int     `json:"cpu"`
	Count    int64   `json:"count"`
	MinNs    int64   `json:"min_ns"`
	MaxNs    int64   `json:"max_ns"`
	MeanNs   float64 `json:"mean_ns"`
	StdDevNs float64 `json:"stddev_ns"`
}
