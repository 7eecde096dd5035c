package main

import (
	"encoding/json"
	"fmt"
	"github.com/chronograph/chronograph/warn"
	"io"
	"os"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"

	"github.com/chronograph/chronograph/clock"
	"github.com/chronograph/chronograph/counters"
	"github.com/chronograph/chronograph/result"
	"github.com/chronograph/chronograph/stats"
	"github.com/chronograph/chronograph/unit"
)

func init() { register(newClocksCmd) }

func newClocksCmd() *cobra.Command {
	var (
		asJSON    bool
		reads     int
		calibrate time.Duration
	)
	cmd := &cobra.Command{
		Use:   "clocks",
		Short: "Characterize every clock of this host: resolution, tick, read cost, monotonicity, TSC",
		Long: `clocks probes every clock this host has: Go's monotonic clock (time.Since),
time.Now, each POSIX clock (through the kernel's vDSO where it serves the
clock, as C's clock_gettime reads it; the CPU-time clocks with the system
call), and the CPU timestamp counter (RDTSC, LFENCE;RDTSC, RDTSCP on amd64;
CNTVCT_EL0 on arm64). For each it shows the nominal resolution (clock_getres
or 1/frequency), the observed tick (smallest non-zero step between
back-to-back reads), the read cost per read (median and p99 over batches of
reads, numpy 'linear' percentiles), backward steps on one thread and across
threads, and whether a read goes through the vDSO, a system call or an
instruction. A vDSO read is checked: where the vDSO cannot read the
clocksource it makes the system call itself, and the clock is labelled
syscall (the system calls of 1000 reads are counted where tracefs allows,
else the costs are compared).

It also shows the TSC frequency (from CPUID, or calibrated against
CLOCK_MONOTONIC_RAW) next to the kernel's figure, the invariant-TSC bit,
the kernel clocksource, and which clock to use for elapsed time, and why.`,
		Example: `  chrono clocks                    # the table, TSC facts and recommendation
  chrono clocks --reads 100000     # more reads per clock for tick and monotonicity
  chrono clocks --calibrate 1s     # calibrate the TSC over a longer window
  chrono clocks --json > clocks.json`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if reads <= 0 {
				return usagef("--reads must be positive, got %d", reads)
			}
			if cmd.Flags().Changed("calibrate") && calibrate < 10*time.Millisecond {
				return usagef("--calibrate must be at least 10ms, got %v", calibrate)
			}
			start := time.Now()
			rep := clock.Probe(clock.ProbeOptions{Reads: reads, Calibrate: calibrate})
			if asJSON {
				return writeClocksJSON(cmd.OutOrStdout(), rep, start)
			}
			return writeClocksText(cmd.OutOrStdout(), rep)
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "write a result document (JSON) instead of the table")
	cmd.Flags().IntVarP(&reads, "reads", "n", 20000, "back-to-back reads per clock for the tick and monotonicity checks")
	cmd.Flags().DurationVar(&calibrate, "calibrate", 0, "recalibrate the TSC over this window (default: the cached 100ms calibration)")
	return cmd
}

// costRes is the display resolution of a read cost: costs are averages
// over batches of thousands of reads, so tenths of a ns are meaningful
// below 10 ns, whole ns above.
func costRes(ns float64) float64 {
	if ns < 10 {
		return 0.1
	}
	return 1
}

func writeClocksText(w io.Writer, rep clock.Report) error {
	ew := &errWriter{w: w}
	tw := tabwriter.NewWriter(ew, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "CLOCK\tKIND\tPATH\tRESOLUTION\tTICK\tCOST\tP99\tBACK\tACROSS THREADS")
	var unavailable []string
	for _, r := range rep.Results {
		p := r.Props
		if p.Err != nil {
			unavailable = append(unavailable, fmt.Sprintf("  %s: %s", p.Name, p.Unavailable))
			continue
		}
		res := "?"
		if r.NominalNs > 0 {
			res = unit.FormatDuration(r.NominalNs, r.NominalNs)
		}
		tick := "none seen"
		if r.TickNs > 0 {
			// Digits bounded by the clock's resolution.
			tick = unit.FormatDuration(r.TickNs, max(r.NominalNs, 0.1))
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%s\t%d\t%s\n", p.Name, p.Kind, p.Path, res, tick,
			unit.FormatDuration(r.CostMedianNs, costRes(r.CostMedianNs)),
			unit.FormatDuration(r.CostP99Ns, costRes(r.CostP99Ns)),
			r.BackwardSteps, crossText(r.Cross))
	}
	tw.Flush()
	fmt.Fprintf(ew, "\nTick: smallest non-zero step of back-to-back reads (bounded below by the read cost). Cost: per read,\n"+
		"median and p99 (numpy 'linear') over batches of ~20 µs timed with Go's monotonic clock. BACK: backward\n"+
		"steps on one thread. PATH: vdso = read in user space through the kernel's vDSO; syscall = a system\n"+
		"call per read; instruction = a CPU instruction. vDSO reads are checked for a fallback to the system\n"+
		"call: %s.\n", pathCheckText(rep))
	if len(unavailable) > 0 {
		fmt.Fprintf(ew, "\nUnavailable:\n%s\n", strings.Join(unavailable, "\n"))
	}

	fmt.Fprintf(ew, "\nTimestamp counter\n")
	if rep.TSC == nil {
		fmt.Fprintf(ew, "  unavailable: %s\n", rep.TSCError)
	} else {
		t := rep.TSC
		fmt.Fprintf(ew, "  frequency   %s (%s)\n", hz(float64(t.Hz)), tscSourceText(t))
		if c := t.Calibration; c != nil {
			fmt.Fprintf(ew, "  calibration %d segments: spread %s ppm; brackets %s\n",
				c.Segments, unit.Sig(c.SpreadPPM, 2), bracketsText(c.BracketNs))
		}
		if t.CPUID16hMHz != 0 {
			fmt.Fprintf(ew, "  CPUID 16h   %d MHz base frequency (whole MHz: a cross-check only)\n", t.CPUID16hMHz)
		}
		switch {
		case rep.Kernel != nil:
			fmt.Fprintf(ew, "  kernel      %s (±%s ppm as printed), from %s: %q\n",
				hz(rep.Kernel.Hz), unit.Sig(rep.Kernel.ResolutionPPM, 2), rep.Kernel.From, strings.TrimSpace(rep.Kernel.Line))
			if a := rep.Agreement; a != nil {
				fmt.Fprintf(ew, "  difference  %s\n", agreementText(a))
			}
		default:
			fmt.Fprintf(ew, "  kernel      unknown: %s\n", rep.KernelError)
		}
		inv := "unknown (CPUID 0x80000007 not readable)"
		if t.InvariantKnown {
			inv = "no: the rate follows the CPU frequency"
			if t.Invariant {
				inv = "yes"
			}
		}
		fmt.Fprintf(ew, "  invariant   %s\n", inv)
	}

	if cs := rep.Clocksource; cs != nil {
		fmt.Fprintf(ew, "\nClocksource   %s (available: %s)\n", cs.Current, strings.Join(cs.Available, ", "))
	} else {
		fmt.Fprintf(ew, "\nClocksource   unknown: %s\n", rep.ClocksourceError)
	}

	fmt.Fprintf(ew, "\nPerformance counters  %s\n", counters.Available().Summary())

	rec := rep.Recommendation
	if rec.Source != "" {
		fmt.Fprintf(ew, "\nRecommended for elapsed time: %s\n  %s\n", rec.Source, rec.Reason)
	} else {
		fmt.Fprintf(ew, "\nNo recommendation: %s\n", rec.Reason)
	}
	if rec.Counter != "" {
		fmt.Fprintf(ew, "  Counter: %s\n", rec.Counter)
	}
	if len(rep.Notes) > 0 {
		fmt.Fprintf(ew, "\nNotes\n")
		for _, n := range rep.Notes {
			fmt.Fprintf(ew, "  %s\n", n)
		}
	}
	if len(rep.Warnings) > 0 {
		fmt.Fprintf(ew, "\nWarnings\n")
		for _, w := range rep.Warnings {
			fmt.Fprintf(ew, "  %s\n", w)
		}
	}
	fmt.Fprintf(ew, "\nProbe took %s.\n", unit.FormatDuration(float64(rep.Elapsed), 1e6))
	return ew.err
}

func hz(v float64) string { return unit.Number(v/1e6, 6) + " MHz" }

// agreementText states the TSC-vs-kernel difference with its error bound
// and what it shows: agreement within the limit only when the difference
// plus the bound is within it, and otherwise what a calibration would
// need to decide.
func agreementText(a *clock.Agreement) string {
	head := fmt.Sprintf("%+.3f ppm ± %s ppm", a.DiffPPM, unit.Sig(a.BoundPPM, 2))
	switch a.Verdict {
	case clock.Agree:
		return fmt.Sprintf("%s: agrees within 1e-4 (%.0f ppm)", head, a.LimitPPM)
	case clock.Disagree:
		return fmt.Sprintf("%s: DISAGREES by more than 1e-4 (%.0f ppm)", head, a.LimitPPM)
	}
	s := fmt.Sprintf("%s: cannot tell whether it is within %.0f ppm: %s", head, a.LimitPPM, a.Reason)
	if a.SettleWindow > 0 {
		s += fmt.Sprintf(" (chrono clocks --calibrate %v)", a.SettleWindow)
	}
	return s
}

// pathCheckText says how the vDSO paths of this report were checked.
func pathCheckText(rep clock.Report) string {
	for _, r := range rep.Results {
		b := r.Props.PathBasis
		switch {
		case strings.HasPrefix(b, "measured"):
			return "the system calls of 1000 reads were counted"
		case strings.HasPrefix(b, "inferred"):
			return "system calls could not be counted, so the path was inferred from the costs"
		}
	}
	return "none was checked"
}

func tscSourceText(t *clock.Info) string {
	switch {
	case t.Calibration != nil:
		return fmt.Sprintf("calibrated against %s over %s; error ≤ %s ppm",
			t.Calibration.Reference, unit.FormatDuration(float64(t.Calibration.Window), 1e3), unit.Sig(t.ErrorPPM, 2))
	case t.ErrorPPM > 0:
		return fmt.Sprintf("%s; error ≤ %s ppm", t.Source, unit.Sig(t.ErrorPPM, 2))
	default:
		return t.Source + ", exact"
	}
}

func bracketsText(ns []float64) string {
	if len(ns) == 0 {
		return "none"
	}
	lo, hi := ns[0], ns[0]
	for _, v := range ns {
		lo, hi = min(lo, v), max(hi, v)
	}
	return fmt.Sprintf("%s to %s wide", unit.FormatDuration(lo, 1), unit.FormatDuration(hi, 1))
}

func crossText(c *clock.Cross) string {
	if c == nil {
		return "-"
	}
	s := fmt.Sprintf("%d back of %d", c.BackwardSteps, c.Comparisons)
	if c.BackwardSteps > 0 {
		s += fmt.Sprintf(" (max %s)", unit.FormatDuration(c.MaxBackwardNs, 1))
	}
	where := fmt.Sprintf("%d threads", c.Threads)
	if c.Mode == clock.CrossMigrating {
		where = "1 thread migrating"
	}
	if c.Pinned {
		where += fmt.Sprintf(", CPUs %s", intsText(c.CPUs))
	} else {
		where += ", not pinned"
	}
	return s + ", " + where
}

func intsText(xs []int) string {
	s := make([]string, len(xs))
	for i, x := range xs {
		s[i] = fmt.Sprint(x)
	}
	return strings.Join(s, ",")
}

// errWriter remembers the first write error.
type errWriter struct {
	w   io.Writer
	err error
}

func (e *errWriter) Write(p []byte) (int, error) {
	if e.err != nil {
		return len(p), nil
	}
	n, err := e.w.Write(p)
	e.err = err
	return n, nil
}

// writeClocksJSON writes the probe as a result document of kind "clocks":
//
//   - one measurement per clock, named after it, with the metric
//     "read_cost" (unit "ns"): the per-read cost of every timed batch, in
//     order, with its summary and p50/p99 (numpy "linear"); Details holds
//     the rest of clock.Result (props, nominal resolution, observed tick,
//     backward steps, the cross-thread check). Unavailable clocks have no
//     metrics, and their reason in Details.props.unavailable.
//   - a measurement "tsc" whose metric "segment_frequency" (unit "Hz")
//     holds the calibration's per-segment frequencies (none when the
//     frequency came from the hardware); Details holds clock.Info, the
//     kernel's figure, the difference in ppm and the verdict with its
//     error bound (kernel_agreement).
//   - a measurement "probe" without metrics; Details holds the
//     clocksource, the recommendation, the notes and the probe's duration.
//
// The probe's warnings are the document's warnings.
func writeClocksJSON(w io.Writer, rep clock.Report, start time.Time) error {
	d := result.New("clocks", toolInfo())
	d.Start = start
	d.Args = os.Args
	for _, r := range rep.Results {
		m := result.Measurement{Name: r.Props.Name, Metrics: []result.Metric{}}
		costs := r.CostNs
		r.CostNs = nil
		details, err := toDetails(r)
		if err != nil {
			return err
		}
		m.Details = details
		if r.Props.Err == nil && len(costs) > 0 {
			s := stats.Summarize(costs)
			m.Primary = "read_cost"
			m.Metrics = append(m.Metrics, result.Metric{
				Name: "read_cost", Unit: "ns", Values: costs, Summary: &s,
				Percentiles:      map[string]float64{"p50": r.CostMedianNs, "p99": r.CostP99Ns},
				PercentileMethod: "linear",
			})
		}
		d.Measurements = append(d.Measurements, m)
	}

	tsc := result.Measurement{Name: "tsc", Metrics: []result.Metric{}}
	tscDetails := map[string]any{}
	if rep.TSC != nil {
		tscDetails["tsc"] = rep.TSC
		if c := rep.TSC.Calibration; c != nil && len(c.SegmentHz) > 0 {
			s := stats.Summarize(c.SegmentHz)
			tsc.Primary = "segment_frequency"
			tsc.Metrics = append(tsc.Metrics, result.Metric{Name: "segment_frequency", Unit: "Hz", Values: c.SegmentHz, Summary: &s})
		}
	} else {
		tscDetails["tsc_error"] = rep.TSCError
	}
	if rep.Kernel != nil {
		tscDetails["kernel_tsc"] = rep.Kernel
	} else {
		tscDetails["kernel_tsc_error"] = rep.KernelError
	}
	if rep.DiffPPM != nil {
		tscDetails["diff_ppm"] = *rep.DiffPPM
	}
	if rep.Agreement != nil {
		tscDetails["kernel_agreement"] = rep.Agreement
	}
	tsc.Details = tscDetails
	d.Measurements = append(d.Measurements, tsc)

	probe := map[string]any{"recommendation": rep.Recommendation, "elapsed_ns": rep.Elapsed, "notes": rep.Notes, "counters": counters.Available()}
	if rep.Clocksource != nil {
		probe["clocksource"] = rep.Clocksource
	} else {
		probe["clocksource_error"] = rep.ClocksourceError
	}
	d.Measurements = append(d.Measurements, result.Measurement{Name: "probe", Metrics: []result.Metric{}, Details: probe})
	d.Warnings = warn.LegacyAll("clocks", rep.Warnings)
	d.End = time.Now()
	return result.Encode(w, d)
}

// toDetails turns a struct into the JSON object of Measurement.Details.
func toDetails(v any) (map[string]any, error) {
	b, err := json.Marshal(v)
	if err != nil {
		return nil, fmt.Errorf("encoding clock details: %w", err)
	}
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		return nil, fmt.Errorf("encoding clock details: %w", err)
	}
	return m, nil
}
