package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"time"

	"github.com/spf13/cobra"

	"github.com/chronograph/chronograph/delay"
	"github.com/chronograph/chronograph/report"
	"github.com/chronograph/chronograph/unit"
)

func init() { register(newLatencyCmd) }

type latencyFlags struct {
	interval   int
	loops      int64
	duration   string
	priority   int
	threads    int
	pin        string
	mlockall   bool
	dmaLatency int
	histogram  int
	quiet      bool
	live       bool
	bestEffort bool
	out        output

	// defaultSystem holds no /dev/cpu_dma_latency request (cyclictest's
	// --default-system).
	defaultSystem bool
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
cyclictest's display (only when standard error is a terminal, unless --live;
never with -q). At the end: per-thread and overall count, min,
p50/p90/p99/p99.9/p99.99, max and mean, overflows (latencies at or above the
-h limit, or beyond the histogram's range) and overruns (wake-ups so late that
whole intervals were skipped), and the histogram (per microsecond up to MAXUS
with -h, else a compact log-scale view). Threads that are not pinned (-a) also
record the CPU each wake-up ran on; when one woke on several CPUs, its
latencies are split by CPU.

The result is a document of kind "latency" (per thread, every latency binned
as the HDR histogram kept it, with the exact min, max, mean and standard
deviation): --json prints it instead of the summary,
--export-json/--export-csv/--export-markdown FILE write it too, and chrono
report FILE prints the same summary again.

Ctrl-C (SIGINT) or SIGTERM stops the test at once, without waiting for the
current interval; what was measured is printed and exported (marked
incomplete), and chrono exits with 130 (SIGINT) or 143 (SIGTERM). A thread
whose sleep fails stops; the report says why, and chrono exits with 1.

As cyclictest does, chrono holds /dev/cpu_dma_latency at 0 µs while it
measures (the CPUs stay out of deep idle states); --dma-latency N (or
cyclictest's --latency N) holds N µs instead, --default-system none. When
that default request cannot be held (the device is root-only), chrono says
so in a warning and in the header and measures without it, as cyclictest
does. SCHED_FIFO (-p), mlockall (-m) and an explicit --dma-latency need
privileges too: when one is refused chrono stops before measuring and says
how to get it; with --best-effort it measures without it and says so. The
header names every setting the threads ran with. Flags follow cyclictest's
names (-a is --pin here, as in every chrono subcommand; --affinity is
accepted too); --help is the help (-h is the histogram, as in cyclictest).
The README's "Coming from cyclictest" lists every difference.`,
		Example: `  chrono latency -i 1000 -l 10000
  chrono latency -m -p 80 -i 200 -D 10m -q --export-json latency.json
  chrono latency -t 2 -a 0,1 -h 200 -l 100000`,
		Args: noArgsOrFileHint,
		RunE: func(cmd *cobra.Command, _ []string) error { return runLatency(cmd, &f) },
	}
	fl := cmd.Flags()
	fl.IntVarP(&f.interval, "interval", "i", 1000, "interval between deadlines in µs")
	fl.Int64VarP(&f.loops, "loops", "l", 0, "loops per thread (0: until --duration or interrupted)")
	fl.StringVarP(&f.duration, "duration", "D", "", "stop after this long (e.g. 30s, 10m; a bare number is seconds)")
	fl.IntVarP(&f.priority, "priority", "p", 0, "SCHED_FIFO priority of the threads (1-99; 0: normal scheduling)")
	fl.IntVarP(&f.threads, "threads", "t", 1, "number of measuring threads")
	fl.StringVarP(&f.pin, "pin", "a", "", "pin the threads to these CPUs, thread i to the i-th in turn (a CPU list: 0,1 or 0-3)")
	fl.StringVar(&f.pin, "affinity", "", "cyclictest's name of --pin")
	_ = fl.MarkHidden("affinity")
	fl.BoolVarP(&f.mlockall, "mlockall", "m", false, "lock current and future memory (mlockall)")
	fl.IntVar(&f.dmaLatency, "dma-latency", 0, "hold /dev/cpu_dma_latency at this many µs while measuring (0, as cyclictest: no deep idle states)")
	fl.IntVar(&f.dmaLatency, "latency", 0, "cyclictest's name of --dma-latency")
	_ = fl.MarkHidden("latency")
	fl.BoolVar(&f.defaultSystem, "default-system", false, "hold no /dev/cpu_dma_latency request (cyclictest's --default-system)")
	fl.IntVarP(&f.histogram, "histogram", "h", 0, "print a per-µs histogram up to MAXUS; latencies of MAXUS µs or more count as overflows")
	fl.BoolVarP(&f.quiet, "quiet", "q", false, "no live display or notes on standard error, only the summary at the end")
	fl.BoolVar(&f.live, "live", false, "show the live display even when standard error is not a terminal")
	// -h is the histogram, as in cyclictest: declare --help without a
	// shorthand so cobra does not claim -h.
	fl.Bool("help", false, "help for latency")
	fl.BoolVar(&f.bestEffort, "best-effort", false, "measure without settings that are refused (default: stop before measuring)")
	f.out.register(fl)
	return cmd
}

func runLatency(cmd *cobra.Command, f *latencyFlags) error {
	errw := cmd.ErrOrStderr()
	if err := f.out.check(); err != nil {
		return err
	}
	explicitDMA := cmd.Flags().Changed("dma-latency") || cmd.Flags().Changed("latency")
	switch {
	case f.interval < 1:
		return usagef("--interval must be at least 1 µs")
	case f.loops < 0:
		return usagef("--loops must not be negative")
	case f.priority < 0 || f.priority > 99:
		return usagef("--priority %d out of range (1-99 for SCHED_FIFO, 0 for normal scheduling)", f.priority)
	case f.threads < 1 || f.threads > 1024:
		return usagef("--threads %d out of range (1-1024)", f.threads)
	case f.histogram < 0 || (f.histogram == 0 && cmd.Flags().Changed("histogram")):
		return usagef("--histogram %d: give the top of the per-µs histogram, at least 1 µs (e.g. -h 200), or leave -h out for the compact histogram", f.histogram)
	case f.dmaLatency < 0:
		name := "--dma-latency"
		if cmd.Flags().Changed("latency") {
			name = "--latency"
		}
		return usagef("%s %d: give at least 0 µs, or --default-system to hold no request", name, f.dmaLatency)
	case f.defaultSystem && explicitDMA:
		return usagef("--default-system holds no /dev/cpu_dma_latency request and --dma-latency asks for one: drop one")
	case f.quiet && f.live:
		return usagef("--quiet and --live contradict each other: drop one")
	}
	var dur time.Duration
	if cmd.Flags().Changed("duration") {
		v, hasUnit, err := unit.ParseValue(f.duration)
		if err != nil {
			return usagef("--duration: %v", err)
		}
		if !hasUnit {
			v *= 1e9
		}
		if v < 1 {
			return usagef("--duration must be positive (e.g. 30s)")
		}
		dur = time.Duration(v)
	}
	flag := "--pin"
	if cmd.Flags().Changed("affinity") {
		flag = "--affinity"
	}
	cpus, err := parsePin(flag, f.pin, cmd.Flags().Changed("pin") || cmd.Flags().Changed("affinity"))
	if err != nil {
		return err
	}
	if f.loops == 0 && dur == 0 && !isTerminal(os.Stdin) && !f.live && !f.quiet {
		// Endless runs are fine interactively (Ctrl-C ends them); from a
		// script they are almost always a mistake.
		fmt.Fprintln(errw, "chrono: note: no --loops or --duration: measuring until interrupted")
	}
	// cyclictest's default request is held when it can be; one asked for
	// is a setting like the others (refused: stop, unless --best-effort).
	dma := f.dmaLatency
	if f.defaultSystem {
		dma = -1
	}
	held, err := delay.Acquire(delay.Conditions{MLock: f.mlockall, DMALatency: dma, DMALatencyOptional: !explicitDMA,
		Settings: delay.ThreadSettings{Priority: f.priority, CPUs: cpus}, BestEffort: f.bestEffort})
	if err != nil {
		return bestEffortHint(err)
	}
	defer held.Release()
	if !f.quiet {
		for _, x := range held.Warnings {
			fmt.Fprintf(errw, "chrono: warning: %s\n", x)
		}
	}
	opts := delay.LatencyOptions{
		Interval: time.Duration(f.interval) * time.Microsecond, Loops: f.loops, Duration: dur,
		Threads: f.threads, Priority: held.Settings.Priority, Affinity: held.Settings.CPUs,
	}
	if f.histogram > 0 {
		opts.HistogramMax = time.Duration(f.histogram) * time.Microsecond
	}
	test, err := delay.NewLatencyTest(opts)
	if err != nil {
		return usagef("%v", err)
	}
	host := captureEnv() // before measuring, so that an interruption exits at once
	ctx, stop := interruptContext(context.Background())
	defer stop()
	stopLive := func() {}
	if !f.quiet && (f.live || (errw == os.Stderr && isTerminal(os.Stderr))) {
		stopLive = report.LiveLatency(errw, test.Snapshot)
	}
	res, runErr := test.Run(ctx)
	stopLive()
	if res == nil {
		return runErr
	}
	res.Held = held
	doc := res.Document(meta(cmd, host))
	if err := f.out.emit(cmd, doc, report.Options{}); err != nil {
		return errors.Join(runErr, err)
	}
	if runErr != nil {
		// A thread's sleep failed: the figures cover what it measured
		// before (the report says so per thread).
		return fmt.Errorf("latency: %w", runErr)
	}
	if res.Interrupted {
		return exitError{code: interruptExitCode(ctx), err: fmt.Errorf("latency: %v; the figures cover what was measured", context.Cause(ctx))}
	}
	return nil
}
