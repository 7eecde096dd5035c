package clock

import (
	"errors"
	"fmt"
	"math"
	"math/bits"
	"slices"
	"sync"
	"time"
)

// NoCPU is the CPU number TSCP returns when the platform does not say on
// which CPU the counter was read.
const NoCPU = ^uint32(0)

// TSC reads the timestamp counter (RDTSC on amd64, CNTVCT_EL0 on arm64)
// without ordering: the CPU may execute the read before earlier
// instructions complete. About 10 ns on amd64. It returns 0 where
// TSCAvailable reports false.
func TSC() uint64 { return tscRead() }

// TSCFenced reads the timestamp counter after all earlier instructions
// have completed (LFENCE;RDTSC on amd64, ISB;MRS on arm64): use it to
// start and stop a timed region.
func TSCFenced() uint64 { return tscReadFenced() }

// TSCP reads the timestamp counter with RDTSCP, which waits for earlier
// instructions, and returns the CPU it was read on (the low 12 bits of
// IA32_TSC_AUX, where Linux stores the CPU number), so that a migration
// between two reads can be detected. Where RDTSCP is missing (and on
// arm64) it returns an ordered read and NoCPU.
func TSCP() (ticks uint64, cpu uint32) { return tscReadP() }

// TSCAvailable reports whether the timestamp counter can be read on this
// platform and, if not, why.
func TSCAvailable() (bool, string) {
	if err := tscAvailable(); err != nil {
		return false, err.Error()
	}
	return true, ""
}

// Frequency sources of Info.Source.
const (
	// fromCPUID15h: CPUID leaf 0x15 (crystal clock times TSC/crystal ratio), exact.
	fromCPUID15h = "cpuid-15h"
	// fromCPUID16h: CPUID leaf 0x16 (base frequency in whole MHz).
	fromCPUID16h = "cpuid-16h"
	// fromCalibration: measured against a reference clock (Calibration.Reference).
	fromCalibration = "calibrated"
)

// Info holds the facts of the timestamp counter (TSC on amd64, CNTVCT_EL0
// on arm64).
type Info struct {
	// Hz is the counter frequency in ticks per second.
	Hz uint64 `json:"hz"`
	// Source says where Hz came from: "cpuid-15h" (CPUID leaf 0x15, the
	// crystal clock times the TSC/crystal ratio, exact), "cpuid-16h" (leaf
	// 0x16, the base frequency in whole MHz), "cntfrq_el0" (the arm64
	// register, exact) or "calibrated" (measured against a reference
	// clock: see Calibration).
	Source string `json:"source"`
	// ErrorPPM bounds the relative error of Hz in parts per million: zero
	// for an exact hardware figure; for a calibration, the worst case
	// implied by the widths of the reference brackets at both ends.
	ErrorPPM float64 `json:"error_ppm"`
	// Invariant reports the invariant-TSC bit (CPUID 0x80000007 EDX[8]):
	// the counter runs at a constant rate in every P-, C- and T-state.
	// It is nil where the bit cannot be read.
	Invariant *bool `json:"invariant,omitempty"`
	// CPUID16hMHz is the base frequency CPUID leaf 0x16 reports (0 when
	// absent). It is a whole number of MHz (up to 500 ppm off), so it is
	// kept as a cross-check and a calibration is preferred to it.
	CPUID16hMHz uint32 `json:"cpuid_16h_mhz,omitempty"`
	// Calibration holds the details of a calibration (nil otherwise).
	Calibration *Calibration `json:"calibration,omitempty"`
}

// Calibration describes how a calibrated frequency was measured.
type Calibration struct {
	// Reference is the clock the counter was compared with
	// ("CLOCK_MONOTONIC_RAW" on Linux).
	Reference string `json:"reference"`
	// Window is the reference time between the first and last bracket.
	Window time.Duration `json:"window_ns"`
	// Segments is the number of consecutive sub-windows whose
	// frequencies give SpreadPPM.
	Segments int `json:"segments"`
	// SegmentHz holds the frequency measured over each sub-window.
	SegmentHz []float64 `json:"segment_hz"`
	// SpreadPPM is (max-min)/Hz of SegmentHz in ppm: how much shorter
	// windows disagree (it shrinks roughly as 1/window).
	SpreadPPM float64 `json:"spread_ppm"`
	// BracketNs holds the width of the tightest reference bracket around
	// each counter read used (segment boundaries, in order), in ns.
	BracketNs []float64 `json:"bracket_ns"`
}

// ToNanos converts a number of ticks to nanoseconds, rounding down,
// exactly: ticks*1e9/Hz is computed in 128-bit integer arithmetic, so
// there is no float rounding and no overflow of the product. A result that
// does not fit in 64 bits saturates at math.MaxUint64. A zero Hz gives 0.
func (i Info) ToNanos(ticks uint64) uint64 {
	if i.Hz == 0 {
		return 0
	}
	hi, lo := bits.Mul64(ticks, 1e9)
	if hi >= i.Hz { // the quotient would not fit in 64 bits
		return math.MaxUint64
	}
	q, _ := bits.Div64(hi, lo, i.Hz)
	return q
}

// defaultCalibrationWindow is the calibration window TSCInfo uses.
const defaultCalibrationWindow = 100 * time.Millisecond

var tscInfoOnce = sync.OnceValues(func() (Info, error) {
	return calibrateTSC(defaultCalibrationWindow)
})

// TSCInfo returns the timestamp counter's frequency and invariance. The
// first call may calibrate (over 100 ms); the result
// is cached for every later call. It fails where TSCAvailable is false.
func TSCInfo() (Info, error) { return tscInfoOnce() }

// calibrateTSC returns the counter's facts like TSCInfo, but always
// measures afresh and, when the hardware does not state the frequency
// exactly, calibrates over the given window (at least 10 ms). It is not
// cached.
func calibrateTSC(window time.Duration) (Info, error) {
	if err := tscAvailable(); err != nil {
		return Info{}, err
	}
	if window < 10*time.Millisecond {
		return Info{}, fmt.Errorf("clock: calibration window %v is too short: use at least 10ms", window)
	}
	info := Info{}
	if inv, known := tscInvariant(); known {
		info.Invariant = &inv
	}
	info.CPUID16hMHz = cpuid16hMHz()
	if hz, src := tscHardwareHz(); hz != 0 {
		info.Hz, info.Source = hz, src
		return info, nil
	}
	c, hz, errPPM, err := calibrate(calibrationClocks{
		ref: refNanos, refName: refName, tsc: tscReadFenced, sleep: time.Sleep,
	}, window, calibrationSegments)
	if err != nil {
		if info.CPUID16hMHz != 0 {
			// Fall back to the nominal figure, with its rounding as error.
			info.Hz, info.Source = uint64(info.CPUID16hMHz)*1e6, fromCPUID16h
			info.ErrorPPM = 0.5 / float64(info.CPUID16hMHz) * 1e6
			return info, nil
		}
		return Info{}, err
	}
	info.Hz, info.Source, info.ErrorPPM, info.Calibration = hz, fromCalibration, errPPM, c
	return info, nil
}

// calibrationSegments is the number of sub-windows of a calibration.
const calibrationSegments = 5

// bracketTries is how many times each boundary is read; the tightest
// bracket is kept.
const bracketTries = 32

// calibrationClocks are the clocks a calibration reads, replaceable in
// tests by fakes.
type calibrationClocks struct {
	ref     func() (int64, error) // reference clock, ns
	refName string
	tsc     func() uint64
	sleep   func(time.Duration)
}

// point is one counter reading and the reference time it was taken at.
type point struct {
	ticks uint64
	mid   float64 // midpoint of the bracket, ns
	width int64   // bracket width, ns
}

// bracket reads the counter between two reference reads, bracketTries
// times, and keeps the tightest bracket: the counter was read somewhere
// between the two reference reads, so the midpoint is off by at most half
// the width. Preemption or an interrupt only widens a bracket, and the
// tightest of many is very likely an undisturbed one.
func bracket(c calibrationClocks) (point, error) {
	best := point{width: math.MaxInt64}
	for range bracketTries {
		r0, err := c.ref()
		if err != nil {
			return point{}, err
		}
		t := c.tsc()
		r1, err := c.ref()
		if err != nil {
			return point{}, err
		}
		if w := r1 - r0; w >= 0 && w < best.width {
			best = point{ticks: t, mid: float64(r0) + float64(float64(w)/2), width: w}
		}
	}
	if best.width == math.MaxInt64 {
		return point{}, errors.New("clock: reference clock stepped back during calibration")
	}
	return best, nil
}

// calibrate measures the counter frequency against the reference clock.
// It takes segments+1 bracketed points spread over window, and:
//
//   - Hz comes from the first and last point: ticks elapsed divided by
//     the reference time elapsed between the bracket midpoints. Using the
//     whole window makes the bracket error smallest relative to it.
//   - errPPM is the worst case of that: the two half widths over the
//     elapsed reference time (plus one tick of counter quantization).
//   - each consecutive pair of points gives a segment frequency; their
//     spread shows the noise of a window segments times shorter.
func calibrate(c calibrationClocks, window time.Duration, segments int) (*Calibration, uint64, float64, error) {
	pts := make([]point, 0, segments+1)
	for i := 0; i <= segments; i++ {
		if i > 0 {
			c.sleep(window / time.Duration(segments))
		}
		p, err := bracket(c)
		if err != nil {
			return nil, 0, 0, err
		}
		pts = append(pts, p)
	}
	first, last := pts[0], pts[len(pts)-1]
	elapsed := last.mid - first.mid
	if elapsed <= 0 || last.ticks <= first.ticks {
		return nil, 0, 0, fmt.Errorf("clock: calibration saw no progress (reference %.0f ns, counter %d ticks): the counter or %s does not advance",
			elapsed, last.ticks-first.ticks, c.refName)
	}
	hz := float64(last.ticks-first.ticks) / elapsed * 1e9
	cal := &Calibration{Reference: c.refName, Window: time.Duration(elapsed), Segments: segments}
	for i, p := range pts {
		cal.BracketNs = append(cal.BracketNs, float64(p.width))
		if i == 0 {
			continue
		}
		q := pts[i-1]
		if d := p.mid - q.mid; d > 0 {
			cal.SegmentHz = append(cal.SegmentHz, float64(p.ticks-q.ticks)/d*1e9)
		}
	}
	if len(cal.SegmentHz) > 0 {
		lo, hi := slices.Min(cal.SegmentHz), slices.Max(cal.SegmentHz)
		cal.SpreadPPM = (hi - lo) / hz * 1e6
	}
	errPPM := float64((float64(float64(first.width)/2)+float64(float64(last.width)/2))/elapsed*1e6) + float64(1/float64(last.ticks-first.ticks)*1e6)
	return cal, uint64(math.Round(hz)), errPPM, nil
}
