package bench

import (
	"bytes"
	"context"
	"fmt"
	"runtime/pprof"

	"github.com/google/pprof/profile"

	"github.com/chronograph/chronograph/profiles"
	"github.com/chronograph/chronograph/warn"
)

// ProfileLabel is the pprof label the benchmark's thread carries with
// Options.Profile: its value is the phase, one of the Phase constants.
const ProfileLabel = "chrono.bench"

// The phases of a benchmark's thread, the values of ProfileLabel.
const (
	PhaseSetup       = "setup" // the function's code around its loop, Options.Setup and Teardown
	PhaseCalibration = "calibration"
	PhaseWarmup      = "warmup"
	PhaseProbe       = "probe"
	PhaseSample      = "sample"
)

// phaseLabels holds the label set of each phase, made once: setting a
// goroutine's labels is then a pointer store (no allocation between
// samples).
var phaseLabels = func() map[string]context.Context {
	m := map[string]context.Context{}
	for _, ph := range []string{PhaseSetup, PhaseCalibration, PhaseWarmup, PhaseProbe, PhaseSample} {
		m[ph] = pprof.WithLabels(context.Background(), pprof.Labels(ProfileLabel, ph))
	}
	return m
}()

// setPhase labels the calling goroutine (the benchmark's thread) with
// phase ph, when profiling.
func (b *B) setPhase(ph string) {
	if !b.opts.Profile || ph == "" || ph == b.phase {
		return
	}
	b.phase = ph
	pprof.SetGoroutineLabels(phaseLabels[ph])
}

// profiler is a CPU profile in progress: the whole process's, into buf.
type profiler struct {
	buf bytes.Buffer
	on  bool
}

// startProfile starts the process's CPU profile when o.Profile is set;
// it returns a warning when another profile is already running.
func startProfile(o *Options) (*profiler, *warn.Warning) {
	if !o.Profile {
		return nil, nil
	}
	p := &profiler{}
	if err := pprof.StartCPUProfile(&p.buf); err != nil {
		w := warn.New(warnProfile,
			fmt.Sprintf("no CPU profile recorded: %v (another CPU profile, such as go test -cpuprofile, is running)", err),
			"drop -cpuprofile, or leave Options.Profile off and use that profile")
		return nil, &w
	}
	p.on = true
	return p, nil
}

// stop stops the profile and returns it whole (every phase and
// goroutine), or nil when it was not started.
func (p *profiler) stop() (*profile.Profile, error) {
	if p == nil || !p.on {
		return nil, nil
	}
	pprof.StopCPUProfile()
	p.on = false
	return profiles.Parse(&p.buf)
}

// measuredOnly returns the samples of p that carry ProfileLabel =
// PhaseSample (nil for a nil p).
func measuredOnly(p *profile.Profile) *profile.Profile {
	if p == nil {
		return nil
	}
	q := p.Copy()
	kept := q.Sample[:0]
	for _, s := range q.Sample {
		if v := s.Label[ProfileLabel]; len(v) == 1 && v[0] == PhaseSample {
			kept = append(kept, s)
		}
	}
	q.Sample = kept
	q.Comments = append(q.Comments, "chronograph bench: the measured samples only (pprof label "+ProfileLabel+"="+PhaseSample+")")
	return q.Compact()
}
