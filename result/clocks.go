package result

import "fmt"

// ClocksRun holds what a clocks document (chrono clocks,
// clock.Survey.Document) says of the host as a whole: the timestamp
// counter, the kernel's figure for its frequency and their agreement, the
// kernel clocksource, how vDSO read paths were checked, the clock to use
// for elapsed time, and what the probe itself took. (Whether performance
// counters work is in the document's environment.)
type ClocksRun struct {
	// TSC holds the timestamp counter's facts; absent when the counter
	// cannot be read or its frequency is unknown (TSCUnavailable says why).
	TSC            *TSC   `json:"tsc,omitempty"`
	TSCUnavailable string `json:"tsc_unavailable,omitempty"`
	// KernelTSC is the counter frequency the kernel reports; absent when
	// it cannot be read (KernelTSCUnavailable says why).
	KernelTSC            *KernelTSC `json:"kernel_tsc,omitempty"`
	KernelTSCUnavailable string     `json:"kernel_tsc_unavailable,omitempty"`
	// Agreement compares TSC.Hz with KernelTSC.Hz; absent unless both are
	// known.
	Agreement *TSCAgreement `json:"agreement,omitempty"`
	// Clocksource is the kernel's clocksource; absent when it cannot be
	// read (ClocksourceUnavailable says why).
	Clocksource            *Clocksource `json:"clocksource,omitempty"`
	ClocksourceUnavailable string       `json:"clocksource_unavailable,omitempty"`
	// PathCheck says how the vDSO read paths were checked: "counted" (the
	// system calls of 1000 reads were counted), "inferred" (from the cost
	// of a read against the system call's) or "none".
	PathCheck string `json:"path_check"`
	// Recommendation names the clock to use for elapsed time here.
	Recommendation ClockRecommendation `json:"recommendation"`
	// Reads is the number of back-to-back reads asked for per clock
	// (--reads); CalibrateNs the TSC calibration window asked for
	// (--calibrate), absent when the cached calibration was used.
	Reads       int   `json:"reads"`
	CalibrateNs int64 `json:"calibrate_ns,omitempty"`
	// ElapsedNs is how long the probe took, in ns.
	ElapsedNs int64 `json:"elapsed_ns"`
}

// TSC holds the facts of the timestamp counter (TSC on amd64, CNTVCT_EL0
// on arm64).
type TSC struct {
	// Hz is the counter frequency in ticks per second, as the clock
	// package converts ticks with it.
	Hz uint64 `json:"hz"`
	// Source says where Hz came from: "cpuid-15h", "cpuid-16h",
	// "cntfrq_el0" or "calibrated".
	Source string `json:"source"`
	// ErrorPPM bounds the relative error of Hz in parts per million: 0 for
	// an exact hardware figure.
	ErrorPPM float64 `json:"error_ppm"`
	// Invariant is the invariant-TSC bit (a constant rate in every P-, C-
	// and T-state); absent where it cannot be read.
	Invariant *bool `json:"invariant,omitempty"`
	// CPUID16hMHz is the base frequency CPUID leaf 0x16 reports, in whole
	// MHz (a cross-check only); absent when the leaf is missing.
	CPUID16hMHz uint32 `json:"cpuid_16h_mhz,omitempty"`
	// Calibration says how a calibrated Hz was measured; absent for a
	// hardware figure.
	Calibration *TSCCalibration `json:"calibration,omitempty"`
}

// TSCCalibration describes a calibration of the counter against a
// reference clock.
type TSCCalibration struct {
	// Reference is the clock the counter was compared with.
	Reference string `json:"reference"`
	// WindowNs is the reference time between the first and last bracket.
	WindowNs int64 `json:"window_ns"`
	// Segments is the number of sub-windows; SegmentHz the frequency
	// measured over each (Hz), in order; SpreadPPM their (max - min)/Hz
	// in ppm.
	Segments  int       `json:"segments"`
	SegmentHz []float64 `json:"segment_hz"`
	SpreadPPM float64   `json:"spread_ppm"`
	// BracketNs holds the width of the reference bracket around each
	// counter read used (segment boundaries, in order), in ns.
	BracketNs []float64 `json:"bracket_ns"`
}

// KernelTSC is the counter frequency the kernel reports.
type KernelTSC struct {
	// Hz is the frequency in ticks per second.
	Hz float64 `json:"hz"`
	// From says where it was read; Line is the text it was parsed from.
	From string `json:"from"`
	Line string `json:"line"`
	// ResolutionPPM is half a unit of the last printed digit, relative to
	// Hz, in ppm.
	ResolutionPPM float64 `json:"resolution_ppm"`
}

// TSCAgreement compares the counter frequency with the kernel's.
type TSCAgreement struct {
	// Verdict is "agrees" (the difference plus both error bounds is
	// within LimitPPM), "disagrees" (the difference less both bounds
	// exceeds it) or "inconclusive".
	Verdict string `json:"verdict"`
	// DiffPPM is (TSC - kernel)/kernel in ppm; BoundPPM bounds its error
	// (both figures' bounds); LimitPPM is the limit of agreement (100).
	DiffPPM  float64 `json:"diff_ppm"`
	BoundPPM float64 `json:"bound_ppm"`
	LimitPPM float64 `json:"limit_ppm"`
	// SettleWindowNs, for an inconclusive calibrated figure, is a
	// calibration window that would decide, in ns; absent when none can
	// (Reason says why).
	SettleWindowNs int64 `json:"settle_window_ns,omitempty"`
	// Reason explains an inconclusive verdict.
	Reason string `json:"reason,omitempty"`
}

// Clocksource is the kernel's clock source for timekeeping.
type Clocksource struct {
	// Current is the clocksource in use ("tsc", "kvm-clock", "hpet", ...);
	// Available the ones the kernel could switch to.
	Current   string   `json:"current"`
	Available []string `json:"available"`
}

// ClockRecommendation names the clock to use for elapsed time.
type ClockRecommendation struct {
	// Clock is the measurement name of the recommended clock; absent when
	// no clock passed the checks (Reason says why).
	Clock string `json:"clock,omitempty"`
	// Reason says why, with the costs of the alternatives.
	Reason string `json:"reason"`
	// Counter is a note on the timestamp counter for intervals so short
	// that the recommended clock's read cost matters; absent when no
	// ordered counter read passed the checks.
	Counter string `json:"counter,omitempty"`
}

// ClockDetail holds the facts of one clock of a clocks document (the
// measurement named after the clock). An available clock has the metric
// "read_cost" (ns per read, one value per timed batch); an unavailable
// one has no metrics, and Unavailable says why.
type ClockDetail struct {
	// Kind is what the clock measures: "elapsed", "wall", "cpu" or
	// "counter".
	Kind string `json:"kind"`
	// Description says in a few words what is read and how.
	Description string `json:"description"`
	// Unit is the unit of the clock's own readings: "ns", or "ticks" for
	// counters (every figure here is converted to ns).
	Unit string `json:"unit"`
	// Path is how a read reaches the clock ("vdso", "syscall",
	// "instruction", ...), and PathBasis how that was told (by
	// construction, measured or inferred, with the evidence).
	Path      string `json:"path"`
	PathBasis string `json:"path_basis"`
	// Coarse: the clock advances in timer ticks. PerThread: its value
	// depends on the calling thread. Ordered: a counter read that waits
	// for earlier instructions.
	Coarse    bool `json:"coarse,omitempty"`
	PerThread bool `json:"per_thread,omitempty"`
	Ordered   bool `json:"ordered,omitempty"`
	// Unavailable says why the clock cannot be read here; absent when it
	// was measured.
	Unavailable string `json:"unavailable,omitempty"`
	// NominalNs is the resolution the system states (clock_getres, or
	// 1/frequency for counters), in ns, and NominalFrom which; absent when
	// unknown.
	NominalNs   float64 `json:"nominal_ns,omitempty"`
	NominalFrom string  `json:"nominal_from,omitempty"`
	// Steps holds the back-to-back reads for the tick and monotonicity;
	// absent for an unavailable clock.
	Steps *ClockSteps `json:"steps,omitempty"`
	// BatchReads is the number of reads per timed batch of the read_cost
	// metric; absent for an unavailable clock.
	BatchReads int `json:"batch_reads,omitempty"`
	// Cross is the monotonicity check across threads; absent when not run
	// (wall clocks, unavailable clocks).
	Cross *ClockCross `json:"cross_thread,omitempty"`
}

// Values of ClockSteps.TickBasis.
const (
	// TickObserved: the clock held its value between changes (or stepped
	// by one unit of its own), so the smallest step is its tick.
	TickObserved = "observed"
	// TickUpperBound: the clock changed at every read by more than its
	// unit: its tick is finer than a read, and the smallest step (about
	// one read) bounds it from above.
	TickUpperBound = "upper-bound"
	// TickUncertain: too few changes were seen to take a tick from (a
	// loaded machine preempting the reader of a coarse clock).
	TickUncertain = "uncertain"
)

// TickUncertainText is what is shown instead of a tick taken from too
// few changes: "uncertain (1 change seen)".
func TickUncertainText(changes int) string {
	s := "s"
	if changes == 1 {
		s = ""
	}
	return fmt.Sprintf("uncertain (%d change%s seen)", changes, s)
}

// ClockSteps is what back-to-back reads of a clock showed.
type ClockSteps struct {
	// Reads is the number of reads; Changes how many were greater than
	// the read before.
	Reads   int `json:"reads"`
	Changes int `json:"changes"`
	// TickChanges counts the changes the tick was taken from: on a
	// coarse clock read past the first reads, only those that no
	// preemption can have lengthened (the reads around them were less
	// than half their step apart). Absent in documents written before
	// chrono said it.
	TickChanges int `json:"tick_changes,omitempty"`
	// TickNs is the smallest step between changes, in ns, and TickBasis
	// what it is: TickObserved, TickUpperBound or TickUncertain (then
	// TickNs is absent). TickBasis is absent in documents written before
	// chrono said it (their TickNs is the smallest step, from however
	// many changes).
	TickNs    float64 `json:"tick_ns,omitempty"`
	TickBasis string  `json:"tick_basis,omitempty"`
	// BackwardSteps counts reads smaller than the one before, and
	// MaxBackwardNs is the largest such step in ns (absent when none).
	BackwardSteps int     `json:"backward_steps"`
	MaxBackwardNs float64 `json:"max_backward_ns,omitempty"`
}

// ClockCross is a monotonicity check across threads (or CPUs).
type ClockCross struct {
	// Mode is "shared-atomic" (threads on different CPUs publish their
	// readings through a shared maximum) or "migrating-thread" (one
	// thread moved between CPUs, for per-thread clocks).
	Mode    string `json:"mode"`
	Threads int    `json:"threads"`
	// CPUs lists the CPUs used; Pinned says whether the threads were
	// bound to them (PinError says why not).
	CPUs     []int  `json:"cpus,omitempty"`
	Pinned   bool   `json:"pinned"`
	PinError string `json:"pin_error,omitempty"`
	// Comparisons is the number of ordered pairs checked, BackwardSteps
	// how many stepped back, MaxBackwardNs the largest step in ns (absent
	// when none).
	Comparisons   int     `json:"comparisons"`
	BackwardSteps int     `json:"backward_steps"`
	MaxBackwardNs float64 `json:"max_backward_ns,omitempty"`
}
