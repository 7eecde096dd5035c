package clock

import (
	"fmt"
	"math"
	"time"
)

// Verdicts of Agreement.
const (
	// agree: the difference plus both error bounds is within
	// maxKernelDiffPPM.
	agree = "agrees"
	// disagree: the difference less both error bounds exceeds it.
	disagree = "disagrees"
	// inconclusive: the error bounds straddle the limit.
	inconclusive = "inconclusive"
)

// Agreement compares the TSC frequency with the kernel's.
type Agreement struct {
	// Verdict is "agrees" (the difference plus both error bounds is
	// within LimitPPM), "disagrees" (the difference less both bounds
	// exceeds it) or "inconclusive" (the bounds straddle it).
	Verdict string `json:"verdict"`
	// DiffPPM is (TSC - kernel)/kernel in ppm; BoundPPM bounds its error:
	// the TSC figure's ErrorPPM (the calibration's bracket widths) plus
	// the kernel figure's printed resolution. LimitPPM is the limit of agreement, 100 ppm.
	DiffPPM  float64 `json:"diff_ppm"`
	BoundPPM float64 `json:"bound_ppm"`
	LimitPPM float64 `json:"limit_ppm"`
	// SettleWindow, for an inconclusive calibrated figure, is a
	// calibration window whose error bound would be small enough to
	// decide (assuming the error shrinks as 1/window, as bracket errors
	// do); 0 when no calibration can (Reason says why).
	SettleWindow time.Duration `json:"settle_window_ns,omitempty"`
	// Reason explains an inconclusive verdict.
	Reason string `json:"reason,omitempty"`
}

// kernelAgreement decides whether info's frequency agrees with the
// kernel's within maxKernelDiffPPM, given both error bounds.
func kernelAgreement(info Info, k KernelTSC) Agreement {
	a := Agreement{LimitPPM: maxKernelDiffPPM}
	a.DiffPPM = (float64(info.Hz) - k.Hz) / k.Hz * 1e6
	a.BoundPPM = info.ErrorPPM + k.ResolutionPPM
	d := math.Abs(a.DiffPPM)
	switch {
	case d+a.BoundPPM <= a.LimitPPM:
		a.Verdict = agree
		return a
	case d-a.BoundPPM > a.LimitPPM:
		a.Verdict = disagree
		return a
	}
	a.Verdict = inconclusive
	// The calibration error must shrink below the margin between the
	// difference and the limit, less the kernel figure's own resolution.
	room := math.Abs(a.LimitPPM-d) - k.ResolutionPPM
	c := info.Calibration
	switch {
	case c == nil || info.ErrorPPM == 0:
		a.Reason = fmt.Sprintf("the difference is within the kernel figure's resolution (±%.2g ppm) of the limit; no calibration can decide", k.ResolutionPPM)
	case room <= 0:
		a.Reason = fmt.Sprintf("the difference (%.1f ppm) is within the kernel figure's resolution (±%.2g ppm) of the %.0f ppm limit: no calibration can decide",
			a.DiffPPM, k.ResolutionPPM, a.LimitPPM)
	default:
		w := time.Duration(float64(c.Window) * info.ErrorPPM / room * 1.5)
		a.SettleWindow = niceDuration(w)
		a.Reason = fmt.Sprintf("the calibration over %v is good to ±%.2g ppm; over %v it would be good to about ±%.2g ppm, enough to decide",
			c.Window.Round(time.Millisecond), info.ErrorPPM, a.SettleWindow, info.ErrorPPM*float64(c.Window)/float64(a.SettleWindow))
	}
	return a
}

// niceDuration rounds d up to 1, 2 or 5 times a power of ten
// milliseconds (at least 10 ms, the shortest calibration).
func niceDuration(d time.Duration) time.Duration {
	for step := 10 * time.Millisecond; ; step *= 10 {
		for _, m := range []time.Duration{1, 2, 5} {
			if d <= m*step {
				return m * step
			}
		}
		if step > 1000*time.Hour {
			return d
		}
	}
}
