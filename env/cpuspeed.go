package env

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"
)

// CPUSpeed is the relative speed of the CPUs the process may run on:
// the same short loop (a sum of 1024 integers, repeated; it fits in the
// L1 cache, so it measures the core, not memory) is timed on a thread
// pinned to each CPU, in rounds that visit every CPU in turn (so that a
// drift of the machine hits all CPUs alike), and the best trial of each
// CPU counts (robust to a preemption or an interrupt in a trial). CPUs
// differ when one is busy with an SMT sibling's work, when the host of a
// virtual machine runs other guests on some of them, or on hybrid
// processors (performance and efficiency cores); a benchmark that lands
// on another CPU then reports another figure.
type CPUSpeed struct {
	// CPUs holds one entry per measured CPU, in CPU order.
	CPUs []CPUSpeedOf `json:"cpus"`
	// Spread is how much longer the slowest CPU took than the fastest
	// (0.35: 35 % longer), and Differ is set when it exceeds 0.05 (5 %
	// longer).
	Spread float64 `json:"spread"`
	Differ bool    `json:"differ"`
	// Method says what was timed and how: loop, trials, time bound.
	Method string `json:"method"`
	// ElapsedNs is how long the measurement took.
	ElapsedNs int64 `json:"elapsed_ns"`
	// Unmeasured maps CPUs that could not be measured (as decimal
	// strings) to the reason, e.g. the time bound ran out or pinning
	// failed.
	Unmeasured map[string]string `json:"unmeasured,omitempty"`
}

// CPUSpeedOf is the speed of one CPU.
type CPUSpeedOf struct {
	CPU int `json:"cpu"`
	// LoopNs is the best time of the loop on this CPU over Trials trials.
	LoopNs float64 `json:"loop_ns"`
	Trials int     `json:"trials"`
	// Relative is the fastest CPU's LoopNs over this CPU's: 1 for the
	// fastest, 0.74 for a CPU that takes 35 % longer.
	Relative float64 `json:"relative"`
}

// cpuSpeedThreshold is the spread above which CPUs are said to differ
// (0.05: the slowest takes more than 5 % longer than the fastest).
const cpuSpeedThreshold = 0.05

// analyzeCPUSpeed derives the speeds from the trial times (ns) of each
// CPU; unmeasured lists the CPUs without a trial and why. It is the
// decision logic of the CPU speed probe, apart from the measuring.
func analyzeCPUSpeed(trials map[int][]float64, unmeasured map[int]string, method string, elapsed time.Duration) *CPUSpeed {
	s := &CPUSpeed{Method: method, ElapsedNs: elapsed.Nanoseconds()}
	fastest, slowest := math.Inf(1), 0.0
	for _, cpu := range slices.Sorted(mapKeys(trials)) {
		ts := trials[cpu]
		if len(ts) == 0 {
			continue
		}
		best := slices.Min(ts)
		if !(best > 0) {
			continue
		}
		s.CPUs = append(s.CPUs, CPUSpeedOf{CPU: cpu, LoopNs: best, Trials: len(ts)})
		fastest, slowest = min(fastest, best), max(slowest, best)
	}
	for i := range s.CPUs {
		s.CPUs[i].Relative = fastest / s.CPUs[i].LoopNs
	}
	if len(s.CPUs) > 0 {
		s.Spread = slowest/fastest - 1
		s.Differ = s.Spread > cpuSpeedThreshold
	}
	for cpu, why := range unmeasured {
		if s.Unmeasured == nil {
			s.Unmeasured = map[string]string{}
		}
		s.Unmeasured[strconv.Itoa(cpu)] = why
	}
	return s
}

func mapKeys[K comparable, V any](m map[K]V) func(func(K) bool) {
	return func(yield func(K) bool) {
		for k := range m {
			if !yield(k) {
				return
			}
		}
	}
}

// speedClass is CPUs of about the same speed: each within 3 % of the
// class's fastest.
type speedClass struct {
	cpus   []int
	lo, hi float64 // relative speeds
}

// speedClasses groups the CPUs by speed, fastest class first.
func speedClasses(cs []CPUSpeedOf) []speedClass {
	sorted := slices.Clone(cs)
	slices.SortStableFunc(sorted, func(a, b CPUSpeedOf) int {
		switch {
		case a.Relative > b.Relative:
			return -1
		case a.Relative < b.Relative:
			return 1
		}
		return a.CPU - b.CPU
	})
	var out []speedClass
	for _, c := range sorted {
		if n := len(out); n > 0 && c.Relative >= out[n-1].hi*0.97 {
			out[n-1].cpus = append(out[n-1].cpus, c.CPU)
			out[n-1].lo = c.Relative
			continue
		}
		out = append(out, speedClass{cpus: []int{c.CPU}, lo: c.Relative, hi: c.Relative})
	}
	for i := range out {
		slices.Sort(out[i].cpus)
	}
	return out
}

// classesText describes the speed classes: "CPU 0 1.00, CPU 1 0.74" or
// "CPUs 0-7 0.98-1.00, CPUs 8-15 0.61-0.63".
func classesText(cs []CPUSpeedOf) string {
	var parts []string
	for _, k := range speedClasses(cs) {
		name := "CPU " + FormatCPUList(k.cpus)
		if len(k.cpus) > 1 {
			name = "CPUs " + FormatCPUList(k.cpus)
		}
		rel := fmt.Sprintf("%.2f", k.hi)
		if fmt.Sprintf("%.2f", k.lo) != rel {
			rel = fmt.Sprintf("%.2f-%.2f", k.lo, k.hi)
		}
		parts = append(parts, name+" "+rel)
	}
	return strings.Join(parts, ", ")
}

// String says how the CPUs' speeds compare, for people: "alike: CPUs 0-3
// within 1.2% (METHOD; 2ms)", "differ: the slowest takes 36% longer;
// relative speed CPU 0 1.00, CPU 1 0.74 (...)" or "only CPU 0 measured:
// nothing to compare", then the CPUs not measured and why. It is "" for
// a nil CPUSpeed or one without CPUs.
func (s *CPUSpeed) String() string {
	if s == nil || len(s.CPUs) == 0 {
		return ""
	}
	var b strings.Builder
	all := make([]int, 0, len(s.CPUs))
	for _, c := range s.CPUs {
		all = append(all, c.CPU)
	}
	switch {
	case len(s.CPUs) == 1:
		fmt.Fprintf(&b, "only CPU %d measured: nothing to compare", s.CPUs[0].CPU)
	case s.Differ:
		fmt.Fprintf(&b, "differ: the slowest takes %.0f%% longer; relative speed %s", 100*s.Spread, classesText(s.CPUs))
	default:
		fmt.Fprintf(&b, "alike: CPUs %s within %.1f%%", FormatCPUList(all), 100*s.Spread)
	}
	fmt.Fprintf(&b, " (%s; %s)", s.Method, time.Duration(s.ElapsedNs).Round(100*time.Microsecond))
	if n := len(s.Unmeasured); n > 0 {
		var cpus []int
		reasons := map[string]bool{}
		var rs []string
		for k, why := range s.Unmeasured {
			c, _ := strconv.Atoi(k)
			cpus = append(cpus, c)
			if !reasons[why] {
				reasons[why] = true
				rs = append(rs, why)
			}
		}
		slices.Sort(cpus)
		slices.Sort(rs)
		fmt.Fprintf(&b, "; not measured: CPUs %s (%s)", FormatCPUList(cpus), strings.Join(rs, "; "))
	}
	return b.String()
}

// speedWarning returns the warning for CPUs that differ, or "".
func speedWarning(s *CPUSpeed) string {
	if s == nil || !s.Differ {
		return ""
	}
	ks := speedClasses(s.CPUs)
	fast := ks[0].cpus[0]
	return fmt.Sprintf("the CPUs differ in speed: at capture the same loop took up to %.0f%% longer on some (relative speed %s): a benchmark's figure depends on the CPU it lands on >> pin measurements to one CPU and compare only results from the same one (e.g. `taskset -c %d`, `chrono run --pin %d`, bench Options.Pin); look for what slows the others (a busy SMT sibling, other guests on the host, efficiency cores of a hybrid CPU)",
		100*s.Spread, classesText(s.CPUs), fast, fast)
}
