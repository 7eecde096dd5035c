package clock

import (
	"math"
	"math/bits"
	"time"
)

// nominaler is implemented by sources that state their own nominal
// resolution (Measured.NominalNs and NominalFrom).
type nominaler interface {
	nominal() (ns float64, from string)
}

// Read paths of the Windows clocks.
const (
	// PathAPI: a call of a Windows API function (kernel32, ntdll) through
	// syscall.SyscallN; whether it enters the kernel is the DLL's
	// business, not inspected.
	PathAPI = "api"
	// PathSharedData: a user-space read of KUSER_SHARED_DATA, the page the
	// Windows kernel updates at each clock interrupt.
	PathSharedData = "shared-data"
)

// Windows is what a survey says of Windows's timers and of
// QueryPerformanceCounter, beside the clocks (Host.Windows; nil on other
// systems). A figure Windows (or Wine) cannot give is nil, and the field
// named after it with Unavailable says why. Under Wine the timer figures
// are Wine's answers, not a Windows kernel's: they are given as
// unavailable, with what Wine answered in the reason.
type Windows struct {
	// Wine is Wine's version when the survey ran under Wine ("8.0"),
	// empty on Windows.
	Wine string `json:"wine,omitempty"`
	// QPCHz is QueryPerformanceFrequency: QueryPerformanceCounter's ticks
	// per second (0 when unknown, QPCUnavailable says why).
	QPCHz          int64  `json:"qpc_hz,omitempty"`
	QPCUnavailable string `json:"qpc_unavailable,omitempty"`
	// Timer is the system timer resolution (NtQueryTimerResolution).
	Timer            *TimerResolution `json:"timer_resolution,omitempty"`
	TimerUnavailable string           `json:"timer_resolution_unavailable,omitempty"`
	// Adjustment is GetSystemTimeAdjustment's answer.
	Adjustment            *TimeAdjustment `json:"time_adjustment,omitempty"`
	AdjustmentUnavailable string          `json:"time_adjustment_unavailable,omitempty"`
	// QPCvsTSC relates QueryPerformanceCounter to the timestamp counter.
	QPCvsTSC            *QPCvsTSC `json:"qpc_vs_tsc,omitempty"`
	QPCvsTSCUnavailable string    `json:"qpc_vs_tsc_unavailable,omitempty"`
}

// TimerResolution is the period of the Windows clock interrupt, as
// NtQueryTimerResolution states it (in 100 ns units, converted): the
// coarsest and finest periods the system allows and the current one
// (the finest any process asked for with timeBeginPeriod or
// NtSetTimerResolution; Sleep, waits and GetTickCount advance by it).
// NtQueryTimerResolution names them "maximum", "minimum" and "current";
// the maximum is the coarsest.
type TimerResolution struct {
	Coarsest time.Duration `json:"coarsest_ns"`
	Finest   time.Duration `json:"finest_ns"`
	Current  time.Duration `json:"current_ns"`
}

// TimeAdjustment is GetSystemTimeAdjustment's answer: the time added to
// the system time at each clock interrupt while adjustment is enabled
// (Adjustment), the nominal period between those interrupts (Increment),
// and whether adjustment is disabled (the system time then follows the
// hardware clock and time synchronization).
type TimeAdjustment struct {
	Adjustment time.Duration `json:"adjustment_ns"`
	Increment  time.Duration `json:"increment_ns"`
	Disabled   bool          `json:"disabled"`
}

// QPCvsTSC relates QueryPerformanceCounter to the timestamp counter: the
// TSC's ticks per QPC tick, from the TSC frequency measured against QPC
// (TSCHz, Info.Source) and its error bound, whether the TSC is invariant, and what the QPC
// frequency suggests of its source (Reading).
type QPCvsTSC struct {
	QPCHz     int64   `json:"qpc_hz"`
	TSCHz     uint64  `json:"tsc_hz"`
	TSCSource string  `json:"tsc_source"`
	Ratio     float64 `json:"tsc_per_qpc_tick"`
	// ErrorPPM bounds Ratio's relative error: the TSC frequency's
	// (Info.ErrorPPM; QueryPerformanceFrequency is exact).
	ErrorPPM  float64 `json:"error_ppm"`
	Invariant *bool   `json:"invariant,omitempty"`
	Reading   string  `json:"reading"`
}

// qpcReading says what a QPC frequency suggests of the counter QPC reads,
// given the TSC's frequency and invariance: Windows 10 (1607 and later)
// reports a fixed 10 MHz when QPC reads the invariant TSC (scaled),
// Windows 7 and 8 the TSC's frequency divided by 1024; 3.579545 MHz is
// the ACPI PM timer and 14.31818 MHz the HPET. Under Wine the frequency
// is Wine's fixed 10 MHz whatever the host.
func qpcReading(qpcHz int64, tscHz uint64, invariant *bool, wine string) string {
	inv := invariant != nil && *invariant
	near := func(a, b float64) bool { return a > 0 && b > 0 && a/b > 0.999 && a/b < 1.001 }
	switch {
	case wine != "":
		return "under Wine " + wine + " QueryPerformanceCounter counts a clock of the Linux host at Wine's fixed 10 MHz: the relation is Wine's, not Windows's"
	case qpcHz == 10_000_000 && inv:
		return "10 MHz with an invariant TSC: the fixed frequency Windows 10 (1607 and later) reports when QPC reads the TSC, scaled"
	case qpcHz == 10_000_000:
		return "10 MHz, but the TSC is not known to be invariant: Windows reports 10 MHz for other sources too (a hypervisor's reference counter)"
	case near(float64(qpcHz)*1024, float64(tscHz)):
		return "the TSC's frequency divided by 1024: QPC reads the TSC (Windows 7 and 8)"
	case qpcHz == 3_579_545:
		return "3.579545 MHz: the ACPI PM timer (a read costs an I/O port access, about 1 µs)"
	case qpcHz == 14_318_180:
		return "14.31818 MHz: the HPET (a read costs a memory-mapped device access)"
	}
	return "a frequency that names no known source"
}

// QPC returns QueryPerformanceCounter in nanoseconds (converted exactly
// at QueryPerformanceFrequency: 100 ns steps at the 10 MHz of current
// Windows), the elapsed-time clock to use on Windows, where Mono
// advances at clock interrupts (every 0.5 to 15.6 ms). Elsewhere it
// returns an error wrapping ErrUnavailable.
func QPC() (time.Duration, error) { return qpc() }

// ThreadCycles returns QueryThreadCycleTime of the calling thread: the
// CPU cycles Windows charged to it (precise, unlike ThreadCPU's
// GetThreadTimes, but in cycles, which Microsoft documents as not
// convertible to time). Lock the goroutine to its thread first. It fails
// where Windows (or Wine, which does not implement it) cannot say, and
// off Windows, with an error wrapping ErrUnavailable.
func ThreadCycles() (uint64, error) { return threadCycles() }

// qpcToNanos converts QPC ticks (non-negative) at hz ticks per second to
// ns, rounding down, exactly: 128-bit arithmetic, as Info.ToNanos (at
// 10 MHz a tick is 100 ns).
func qpcToNanos(ticks, hz int64) int64 {
	if hz == 10_000_000 {
		return ticks * 100
	}
	hi, lo := bits.Mul64(uint64(ticks), 1e9)
	if hi >= uint64(hz) { // centuries of ticks: the quotient would overflow
		return math.MaxInt64
	}
	q, _ := bits.Div64(hi, lo, uint64(hz))
	return int64(min(q, math.MaxInt64))
}

// fileTimeUnixOffset is the Unix epoch as a FILETIME (100 ns units since
// 1601-01-01).
const fileTimeUnixOffset = 116444736000000000

// fileTimeUnixNanos converts a FILETIME count of 100 ns units since 1601
// to ns since the Unix epoch.
func fileTimeUnixNanos(ft int64) int64 { return (ft - fileTimeUnixOffset) * 100 }
