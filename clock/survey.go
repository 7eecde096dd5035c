package clock

import (
	"fmt"
	"time"

	"github.com/chronograph/chronograph/warn"
)

// The outcome of Probe. These types are the schema of a clocks document
// (docs/result-schema.md, kind "clocks"): package result holds Host as
// the document's run.clocks and each Measured as a measurement's
// detail.clock, with these JSON names in this order. Every duration is
// in nanoseconds; counter ticks are converted with the TSC frequency, as
// float64 because they are fractions of a nanosecond.

// Survey is the outcome of Probe: what was found of the host as a whole,
// every clock measured, and the conditions that weaken the figures.
// result.ClocksDocument records it as a document.
type Survey struct {
	Host
	// Clocks holds what was measured of each source of Sources, in order.
	Clocks []Measured
	// Warnings are conditions that weaken these figures, each with a
	// stable code (docs/result-schema.md lists them) and the step that
	// fixes it.
	Warnings []warn.Warning
	// Notes explain findings that are expected and need no action
	// (severity warn.Note).
	Notes []warn.Warning
}

// Host holds what a survey says of the host as a whole: the timestamp
// counter, the kernel's figure for its frequency and their agreement,
// the kernel clocksource, how vDSO read paths were checked, the clock to
// use for elapsed time, and what the probe was asked and took.
type Host struct {
	// TSC holds the timestamp counter's facts; nil when the counter
	// cannot be read or its frequency is unknown (TSCUnavailable says
	// why).
	TSC            *Info  `json:"tsc,omitempty"`
	TSCUnavailable string `json:"tsc_unavailable,omitempty"`
	// KernelTSC is the counter frequency the kernel reports; nil when it
	// cannot be read (KernelTSCUnavailable says why).
	KernelTSC            *KernelTSC `json:"kernel_tsc,omitempty"`
	KernelTSCUnavailable string     `json:"kernel_tsc_unavailable,omitempty"`
	// Agreement compares TSC.Hz with KernelTSC.Hz; nil unless both are
	// known.
	Agreement *Agreement `json:"agreement,omitempty"`
	// Clocksource is the kernel's clocksource; nil when it cannot be read
	// (ClocksourceUnavailable says why).
	Clocksource            *Clocksource `json:"clocksource,omitempty"`
	ClocksourceUnavailable string       `json:"clocksource_unavailable,omitempty"`
	// Windows holds what Windows says of its timers and of
	// QueryPerformanceCounter; nil on other systems.
	Windows *Windows `json:"windows,omitempty"`
	// PathCheck says how the vDSO read paths were checked: "counted" (the
	// system calls of 1000 reads were counted), "inferred" (from the cost
	// of a read against the system call's) or "none".
	PathCheck string `json:"path_check"`
	// Recommendation names the clock to use for elapsed time here.
	Recommendation Recommendation `json:"recommendation"`
	// Reads is the number of back-to-back reads asked for per clock
	// (ProbeOptions.Reads); Calibrate the TSC calibration window asked for
	// (ProbeOptions.Calibrate), 0 when the cached calibration was used.
	Reads     int           `json:"reads"`
	Calibrate time.Duration `json:"calibrate_ns,omitempty"`
	// Elapsed is how long the probe took.
	Elapsed time.Duration `json:"elapsed_ns"`
}

// Measured is what Probe measured of one source: its facts (Props, with
// Path and PathBasis as checked), the resolution the system states, what
// back-to-back reads showed, and the cost of a read.
type Measured struct {
	Props
	// NominalNs is the resolution the system states (clock_getres, or
	// 1/frequency for counters), and NominalFrom which; 0 and empty when
	// unknown.
	NominalNs   float64 `json:"nominal_ns,omitempty"`
	NominalFrom string  `json:"nominal_from,omitempty"`
	// Steps holds the back-to-back reads for the tick and monotonicity;
	// nil for a clock that cannot be read.
	Steps *Steps `json:"steps,omitempty"`
	// BatchReads is the number of reads per timed batch of CostNs; 0 for
	// a clock that cannot be read.
	BatchReads int `json:"batch_reads,omitempty"`
	// Cross is the monotonicity check across threads; nil when not run
	// (wall clocks, clocks that cannot be read).
	Cross *Cross `json:"cross_thread,omitempty"`
	// CostNs holds the cost per read of each timed batch (batch time /
	// BatchReads), in order; CostMedianNs, CostP99Ns its median and 99th
	// percentile (numpy's "linear" definition) and CostMinNs its minimum.
	// (A document holds them as the metric "read_cost".)
	CostNs       []float64 `json:"-"`
	CostMedianNs float64   `json:"-"`
	CostP99Ns    float64   `json:"-"`
	CostMinNs    float64   `json:"-"`
	// CostUnavailable says why the read cost could not be measured (then
	// CostNs is empty and the cost figures 0, never reported): the clock
	// that times the batches did not resolve them. (A document says it as
	// the clock's unavailable reason.)
	CostUnavailable string `json:"-"`
}

// backwardSteps is the number of backward steps m showed on one thread.
func (m *Measured) backwardSteps() int {
	if m.Steps == nil {
		return 0
	}
	return m.Steps.BackwardSteps
}

// Values of Steps.TickBasis.
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

// Steps is what back-to-back reads of a clock on one thread showed.
type Steps struct {
	// Reads is the number of reads; Changes how many were greater than
	// the read before.
	Reads   int `json:"reads"`
	Changes int `json:"changes"`
	// TickChanges counts the changes the tick was taken from: on a
	// coarse clock read past ProbeOptions.Reads, only those that no
	// preemption can have lengthened (the reads around them were less
	// than half their step apart). 0 in documents written before chrono
	// said it.
	TickChanges int `json:"tick_changes,omitempty"`
	// TickNs is the smallest step between changes, in ns, and TickBasis
	// what it is: TickObserved, TickUpperBound or TickUncertain (then
	// TickNs is 0). TickBasis is empty in documents written before chrono
	// said it (their TickNs is the smallest step, from however many
	// changes).
	TickNs    float64 `json:"tick_ns,omitempty"`
	TickBasis string  `json:"tick_basis,omitempty"`
	// BackwardSteps counts reads smaller than the one before, and
	// MaxBackwardNs is the largest such step in ns (0 when none).
	BackwardSteps int     `json:"backward_steps"`
	MaxBackwardNs float64 `json:"max_backward_ns,omitempty"`
}

// TickUncertainText is what is shown instead of a tick taken from too
// few changes: "uncertain (1 change seen)".
func TickUncertainText(changes int) string {
	s := "s"
	if changes == 1 {
		s = ""
	}
	return fmt.Sprintf("uncertain (%d change%s seen)", changes, s)
}

// Values of Cross.Mode.
const (
	// modeShared: threads on different CPUs publish their readings
	// through a shared atomic maximum; a thread that loads the maximum and
	// then reads a smaller value has seen the clock step back across
	// threads.
	modeShared = "shared-atomic"
	// modeMigrating: one thread, moved between CPUs every 256 reads,
	// checks its own readings (for per-thread clocks).
	modeMigrating = "migrating-thread"
)

// Cross is a monotonicity check across threads (or CPUs).
type Cross struct {
	// Mode is "shared-atomic" (threads on different CPUs publish their
	// readings through a shared maximum; a thread that loads it and then
	// reads a smaller value saw the clock step back) or
	// "migrating-thread" (one thread moved between CPUs every 256 reads
	// checks its own readings, for per-thread clocks).
	Mode    string `json:"mode"`
	Threads int    `json:"threads"`
	// CPUs lists the CPUs used; Pinned says whether the threads were
	// bound to them (PinError says why not).
	CPUs     []int  `json:"cpus,omitempty"`
	Pinned   bool   `json:"pinned"`
	PinError string `json:"pin_error,omitempty"`
	// Comparisons is the number of ordered pairs checked, BackwardSteps
	// how many stepped back, MaxBackwardNs the largest step in ns (0 when
	// none).
	Comparisons   int     `json:"comparisons"`
	BackwardSteps int     `json:"backward_steps"`
	MaxBackwardNs float64 `json:"max_backward_ns,omitempty"`
}

// Recommendation names the clock to use for elapsed time on this host.
type Recommendation struct {
	// Clock is the name of the recommended source; empty when no clock
	// passed the checks (Reason says why).
	Clock string `json:"clock,omitempty"`
	// Reason says why, with the costs of the alternatives and the Go
	// function that reads the clock.
	Reason string `json:"reason"`
	// Counter is a note on the timestamp counter for intervals so short
	// that the recommended clock's read cost matters; empty when no
	// ordered counter read passed the checks.
	Counter string `json:"counter,omitempty"`
}
