package main

import (
	"context"
	"errors"
	"fmt"
	"github.com/chronograph/chronograph/warn"
	"io"
	"math"
	"os"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/spf13/cobra"

	"github.com/chronograph/chronograph/delay"
	"github.com/chronograph/chronograph/env"
	"github.com/chronograph/chronograph/result"
	"github.com/chronograph/chronograph/stats"
	"github.com/chronograph/chronograph/unit"
)

func init() { register(newLatencyCmd) }

type latencyFlags struct {
	interval   int
	loops      int64
	duration   string
	priority   int
	threads    int
	affinity   string
	mlockall   bool
	dmaLatency int
	histogram  int
	quiet      bool
	live       bool
	json       string
	bestEffort bool
}

func newLatencyCmd() *cobra.Command {
	var f latencyFlags
	cmd := &cobra.Command{
		Use:   "latency",
		Short: "Measure timer wake-up latency like cyclictest",
		Long: `Measure wake-up latency the way cyclictest does: each thread sleeps with
clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME) to deadlines next += interval
and records now - next. Every latency goes into an HDR histogram (constant
memory, 3 significant digits), so runs of hours are fine.

While running, Min/Act/Avg/Max per thread are shown on standard error like
cyclictest's display (only when standard error is a terminal, unless --live).
At the end: per-thread and overall p50/p90/p99/p99.9/p99.99/max, overflows
(latencies above the histogram's range) and overruns (wake-ups so late that
whole intervals were skipped), and the histogram (per microsecond up to
MAXUS with -h, else a compact log-scale view). Threads that are not pinned
(-a) also record the CPU each wake-up ran on; when one woke on several
CPUs, its latencies are split by CPU.

Ctrl-C (SIGINT) or SIGTERM stops the test at once, without waiting for the
current interval; what was measured is printed and exported (marked
incomplete), and chrono exits with 130 (SIGINT) or 143 (SIGTERM). A thread
whose sleep fails stops; the report says why, and chrono exits with 1.

SCHED_FIFO (-p), mlockall (-m) and /dev/cpu_dma_latency need privileges. When
one is refused chrono stops before measuring and says how to get it; with
--best-effort it measures without it and says so. Note that cyclictest
holds /dev/cpu_dma_latency at 0 µs by default; use --dma-latency 0 to compare
like with like. Flags follow cyclictest's names; --help is the help (-h is
the histogram, as in cyclictest).`,
		Example: `  chrono latency -i 1000 -l 10000
  chrono latency -m -p 80 -i 200 -D 10m -q --json latency.json
  chrono latency -t 2 -a 0,1 -h 200 -l 100000`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error { return runLatency(cmd, f) },
	}
	fl := cmd.Flags()
	fl.IntVarP(&f.interval, "interval", "i", 1000, "interval between deadlines in µs")
	fl.Int64VarP(&f.loops, "loops", "l", 0, "loops per thread (0: until --duration or interrupted)")
	fl.StringVarP(&f.duration, "duration", "D", "", "stop after this long (e.g. 30s, 10m; a bare number is seconds)")
	fl.IntVarP(&f.priority, "priority", "p", 0, "SCHED_FIFO priority of the threads (1-99; 0: normal scheduling)")
	fl.IntVarP(&f.threads, "threads", "t", 1, "number of measuring threads")
	fl.StringVarP(&f.affinity, "affinity", "a", "", "pin threads to these CPUs, round robin (e.g. 0,1 or 0-3)")
	fl.BoolVarP(&f.mlockall, "mlockall", "m", false, "lock current and future memory (mlockall)")
	fl.IntVar(&f.dmaLatency, "dma-latency", -1, "hold /dev/cpu_dma_latency at this many µs during the run")
	fl.IntVarP(&f.histogram, "histogram", "h", 0, "print a per-µs histogram up to MAXUS; larger latencies count as overflows")
	fl.BoolVarP(&f.quiet, "quiet", "q", false, "no live display, only the summary at the end")
	fl.BoolVar(&f.live, "live", false, "show the live display even when standard error is not a terminal")
	fl.StringVar(&f.json, "json", "", "write the result document (kind \"latency\", histograms) to FILE")
	// -h is the histogram, as in cyclictest: declare --help without a
	// shorthand so cobra does not claim -h.
	fl.Bool("help", false, "help for latency")
	fl.BoolVar(&f.bestEffort, "best-effort", false, "measure without settings that are refused (default: stop before measuring)")
	return cmd
}

func runLatency(cmd *cobra.Command, f latencyFlags) error {
	w, errw := cmd.OutOrStdout(), cmd.ErrOrStderr()
	if f.interval < 1 {
		return usagef("--interval must be at least 1 µs")
	}
	if f.loops < 0 {
		return usagef("--loops must not be negative")
	}
	if f.priority < 0 || f.priority > 99 {
		return usagef("--priority %d out of range (1-99 for SCHED_FIFO, 0 for normal scheduling)", f.priority)
	}
	if f.threads < 1 || f.threads > 1024 {
		return usagef("--threads %d out of range (1-1024)", f.threads)
	}
	if f.histogram < 0 {
		return usagef("--histogram must be a positive number of µs")
	}
	if f.dmaLatency < -1 {
		return usagef("--dma-latency must be at least 0 µs")
	}
	var dur time.Duration
	if f.duration != "" {
		v, hasUnit, err := unit.ParseValue(f.duration)
		if err != nil {
			return usagef("--duration: %v", err)
		}
		if !hasUnit {
			v *= 1e9
		}
		if v <= 0 {
			return usagef("--duration must be positive")
		}
		dur = time.Duration(v)
	}
	if f.loops == 0 && dur == 0 && !isTerminal(os.Stdin) && !f.live {
		// Endless runs are fine interactively (Ctrl-C ends them); from a
		// script they are almost always a mistake.
		fmt.Fprintln(errw, "chrono: note: no --loops or --duration: measuring until interrupted")
	}
	var cpus []int
	if f.affinity != "" {
		var err error
		if cpus, err = env.ParseCPUList(f.affinity); err != nil || len(cpus) == 0 {
			return usagef("--affinity %q is not a CPU list: write CPUs like 0,1 or 0-3", f.affinity)
		}
	}
	opts := delay.LatencyOptions{
		Interval: time.Duration(f.interval) * time.Microsecond, Loops: f.loops, Duration: dur,
		Threads: f.threads, Priority: f.priority, Affinity: cpus,
	}
	if f.histogram > 0 {
		opts.HistogramMax = time.Duration(f.histogram) * time.Microsecond
	}
	set := delay.ThreadSettings{Priority: f.priority}
	held, err := delay.Acquire(delay.Conditions{MLock: f.mlockall, DMALatency: f.dmaLatency, Settings: set, BestEffort: f.bestEffort})
	if err != nil {
		return bestEffortHint(err)
	}
	defer held.Release()
	for _, warn := range held.Warnings {
		fmt.Fprintf(errw, "chrono: warning: %s\n", warn)
	}
	opts.Priority = held.Settings.Priority
	if len(cpus) > 0 {
		// Pinning is checked per CPU; a refused CPU is dropped with
		// --best-effort (all pinning is, to keep threads comparable).
		for _, c := range cpus {
			if err := (delay.ThreadSettings{Pin: true, CPU: c}).Check(); err != nil {
				if !f.bestEffort {
					return bestEffortHint(err)
				}
				fmt.Fprintf(errw, "chrono: warning: %v; continuing without pinning (--best-effort)\n", err)
				held.Warnings = append(held.Warnings, err.Error())
				opts.Affinity = nil
				break
			}
		}
	}
	test, err := delay.NewLatencyTest(opts)
	if err != nil {
		return usagef("%v", err)
	}
	ctx, stop := interruptContext(context.Background())
	defer stop()
	doc := result.New("latency", toolInfo())
	doc.Args = append([]string{"chrono"}, os.Args[1:]...)
	if f.json != "" {
		// Before measuring, so that an interruption exits at once.
		doc.Environment = env.Capture()
	}

	liveDone := make(chan struct{})
	liveStopped := make(chan struct{})
	live := !f.quiet && (f.live || (errw == os.Stderr && isTerminal(os.Stderr)))
	go func() {
		defer close(liveStopped)
		if !live {
			<-liveDone
			return
		}
		tick := time.NewTicker(100 * time.Millisecond)
		defer tick.Stop()
		lines := 0
		for {
			select {
			case <-liveDone:
				return
			case <-tick.C:
			}
			if lines > 0 {
				fmt.Fprintf(errw, "\033[%dA", lines)
			}
			snap := test.Snapshot()
			for _, s := range snap {
				fmt.Fprintf(errw, "\033[K%s\n", cyclictestLine(s))
			}
			lines = len(snap)
		}
	}()
	res, runErr := test.Run(ctx)
	close(liveDone)
	<-liveStopped
	if res == nil {
		return runErr
	}
	doc.End = time.Now()
	writeLatencyReport(w, res, held, opts, f.histogram)
	if f.json != "" {
		doc.Incomplete = res.Interrupted || runErr != nil
		doc.Warnings = warn.LegacyAll("conditions", held.Warnings)
		if runErr != nil {
			doc.Warnings = append(doc.Warnings, warn.New("sleep-failed", runErr.Error(),
				"the figures cover what the thread measured before; report the error if it persists"))
		}
		doc.Measurements = res.Measurements()
		if err := result.WriteFile(f.json, doc); err != nil {
			return errors.Join(runErr, err)
		}
	}
	if runErr != nil {
		// A thread's sleep failed: the figures cover what it measured
		// before (the report says so per thread).
		return fmt.Errorf("latency: %w", runErr)
	}
	if res.Interrupted {
		return exitError{code: interruptExitCode(ctx), err: fmt.Errorf("latency: %v; the figures above cover what was measured", context.Cause(ctx))}
	}
	return nil
}

// cyclictestLine formats a thread's live state as cyclictest does (µs).
func cyclictestLine(s delay.ThreadLatency) string {
	us := func(d time.Duration) int64 { return int64(d / time.Microsecond) }
	return fmt.Sprintf("T:%2d (%6d) P:%2d I:%d C:%8d Min:%7d Act:%7d Avg:%7d Max:%8d",
		s.Thread, s.TID, s.Priority, us(s.Interval), s.Count, us(s.Min), us(s.Act), us(s.Avg), us(s.Max))
}

func writeLatencyReport(w io.Writer, res *delay.LatencyResult, held *delay.Held, opts delay.LatencyOptions, histMaxUS int) {
	conds := []string{}
	if held.Settings.Priority > 0 {
		conds = append(conds, fmt.Sprintf("SCHED_FIFO %d", held.Settings.Priority))
	} else {
		conds = append(conds, "SCHED_OTHER")
	}
	if len(opts.Affinity) > 0 {
		conds = append(conds, fmt.Sprintf("affinity %v", opts.Affinity))
	}
	if held.MLocked {
		conds = append(conds, "mlockall")
	}
	if held.DMALatency >= 0 {
		conds = append(conds, fmt.Sprintf("cpu_dma_latency %d µs", held.DMALatency))
	}
	fmt.Fprintf(w, "Wake-up latency: %d thread(s), interval %s, clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME); %s\n",
		len(res.Threads), formatExact(opts.Interval), strings.Join(conds, ", "))
	for _, s := range res.Threads {
		fmt.Fprintln(w, cyclictestLine(s))
	}
	fmt.Fprintln(w)
	header := []string{"thread", "count"}
	for _, p := range append([]float64{0}, delay.LatencyPercentiles...) {
		if p == 0 {
			header = append(header, "min")
			continue
		}
		header = append(header, stats.PercentileLabel(p))
	}
	header = append(header, "max", "mean", "overflows", "overruns")
	rows := [][]string{header}
	row := func(name string, h *stats.Histogram, mean float64, overflows, overruns int64) {
		if h.Count() == 0 {
			rows = append(rows, []string{name, "0", "-", "-", "-", "-", "-", "-", "-", "-", "0", strconv.FormatInt(overruns, 10)})
			return
		}
		r := []string{name, strconv.FormatInt(h.Count(), 10), unit.FormatDuration(float64(h.Min()), 1)}
		for _, p := range delay.LatencyPercentiles {
			r = append(r, formatHDR(h.Quantile(p/100)))
		}
		r = append(r, unit.FormatDuration(float64(h.Max()), 1), unit.FormatDuration(math.Round(mean), 1),
			strconv.FormatInt(overflows, 10), strconv.FormatInt(overruns, 10))
		rows = append(rows, r)
	}
	var totalOverruns int64
	for i, h := range res.Histograms {
		th := res.Threads[i]
		totalOverruns += th.Overruns
		mean := math.NaN()
		if th.Count > 0 {
			mean = float64(th.Sum) / float64(th.Count)
		}
		row(strconv.Itoa(i), h, mean, th.Overflows, th.Overruns)
	}
	if len(res.Histograms) > 1 {
		row("all", res.All, res.Mean(), res.Overflows(), totalOverruns)
	}
	writeColumns(w, rows, 1)
	var yields []string
	for _, th := range res.Threads {
		if th.Err != nil {
			fmt.Fprintf(w, "thread %d stopped after %d latencies: %v\n", th.Thread, th.Count, th.Err)
		}
		if th.Yields > 0 {
			yields = append(yields, fmt.Sprintf("thread %d: %d, longest %s", th.Thread, th.Yields, unit.FormatDuration(float64(th.YieldMax), 1)))
		}
	}
	if len(yields) > 0 {
		fmt.Fprintf(w, "Go runtime yields (after a measurement, or at once when the deadline was far): %s\n", strings.Join(yields, "; "))
	}
	fmt.Fprintln(w, "percentiles: HdrHistogram value at quantile, to its 3 significant digits; min, max and mean exact")
	if histMaxUS > 0 {
		fmt.Fprintf(w, "overflows: latencies of %d µs or more (-h)\n", histMaxUS)
	} else {
		fmt.Fprintf(w, "overflows: latencies of %s or more (beyond the histogram's range)\n", unit.FormatDuration(float64(res.HistogramMax), 1e9))
	}
	writePerCPU(w, res)
	fmt.Fprintln(w)
	if histMaxUS > 0 {
		writeMicrosecondHistogram(w, res, histMaxUS)
	} else {
		writeLogHistogram(w, res.All)
	}
}

// writePerCPU splits the latencies of each thread that was not pinned and
// woke on more than one CPU by that CPU, since CPUs of one machine can
// differ (a busy sibling, other load, hybrid cores).
func writePerCPU(w io.Writer, res *delay.LatencyResult) {
	rows := [][]string{{"thread", "cpu", "count", "min", "mean", "max"}}
	for _, th := range res.Threads {
		if len(th.PerCPU) < 2 {
			continue
		}
		for _, c := range th.PerCPU {
			rows = append(rows, []string{strconv.Itoa(th.Thread), strconv.Itoa(c.CPU), strconv.FormatInt(c.Count, 10),
				unit.FormatDuration(float64(c.Min), 1), unit.FormatDuration(math.Round(c.Mean()), 1), unit.FormatDuration(float64(c.Max), 1)})
		}
	}
	if len(rows) == 1 {
		return
	}
	fmt.Fprintln(w)
	fmt.Fprintln(w, "per CPU (threads not pinned, by the CPU each wake-up ran on):")
	writeColumns(w, rows, 0)
}

// writeMicrosecondHistogram prints cyclictest's -h view: one line per µs
// below maxUS with a non-zero count, a column per thread, then the
// overflows (latencies of maxUS µs or more) per thread, as cyclictest does.
func writeMicrosecondHistogram(w io.Writer, res *delay.LatencyResult, maxUS int) {
	counts := make([][]int64, len(res.Histograms))
	for i, h := range res.Histograms {
		counts[i] = make([]int64, maxUS)
		for _, b := range h.Buckets() {
			if us := b.Lo / 1000; us < int64(maxUS) {
				counts[i][us] += b.Count
			}
		}
	}
	fmt.Fprintln(w, "# Histogram (µs, count per thread)")
	for us := 0; us < maxUS; us++ {
		var line strings.Builder
		nonzero := false
		fmt.Fprintf(&line, "%06d", us)
		for i := range counts {
			fmt.Fprintf(&line, " %06d", counts[i][us])
			nonzero = nonzero || counts[i][us] > 0
		}
		if nonzero {
			fmt.Fprintln(w, line.String())
		}
	}
	var line strings.Builder
	line.WriteString("# Histogram Overflows:")
	for _, th := range res.Threads {
		fmt.Fprintf(&line, " %05d", th.Overflows)
	}
	fmt.Fprintln(w, line.String())
}

// formatHDR formats a value read from an HDR histogram with its 3
// significant digits, no more.
func formatHDR(ns int64) string {
	return unit.FormatDuration(float64(ns), float64(ns)/1000)
}

// writeLogHistogram prints a compact histogram with power-of-two bins.
func writeLogHistogram(w io.Writer, h *stats.Histogram) {
	if h.Count() == 0 {
		return
	}
	type bin struct {
		hi    int64
		count int64
	}
	var bins []bin
	for _, b := range h.Buckets() {
		hi := int64(1)
		for hi <= b.Lo {
			hi *= 2
		}
		if len(bins) == 0 || bins[len(bins)-1].hi != hi {
			bins = append(bins, bin{hi: hi})
		}
		bins[len(bins)-1].count += b.Count
	}
	var maxC int64
	for _, b := range bins {
		maxC = max(maxC, b.count)
	}
	fmt.Fprintln(w, "histogram (all threads, power-of-two bins):")
	labels := make([]string, len(bins))
	lw, cw := 0, 0
	for i, b := range bins {
		labels[i] = "< " + unit.FormatDuration(float64(b.hi), 1)
		lw = max(lw, utf8.RuneCountInString(labels[i]))
		cw = max(cw, len(strconv.FormatInt(b.count, 10)))
	}
	for i, b := range bins {
		bar := strings.Repeat("█", int(math.Ceil(40*float64(b.count)/float64(maxC))))
		pad := strings.Repeat(" ", lw-utf8.RuneCountInString(labels[i]))
		fmt.Fprintf(w, "  %s%s  %*d  %s\n", labels[i], pad, cw, b.count, bar)
	}
}
