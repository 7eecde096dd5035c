package main

import (
	"context"
	"encoding/csv"
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
	"github.com/chronograph/chronograph/unit"
)

func init() { register(newSleepCmd) }

type sleepFlags struct {
	durations  string
	mechanisms string
	budget     time.Duration
	maxSamples int
	priority   int
	pin        int
	mlock      bool
	dmaLatency int
	bestEffort bool
	json       string
	csv        string
	quiet      bool
	list       bool
}

func newSleepCmd() *cobra.Command {
	var f sleepFlags
	cmd := &cobra.Command{
		Use:   "sleep",
		Short: "Measure how accurately every waiting mechanism waits on this machine",
		Long: `Measure the accuracy of every way a Go program can wait: time.Sleep,
time.Timer, time.Ticker, nanosleep (relative), clock_nanosleep (absolute), a
timerfd, each also with the timer slack set to 1 ns ("+slack1ns"), a pure
busy-spin, and delay.Sleep (this project's precise sleep, with and without its
final spin).

For every mechanism and requested duration it reports the achieved duration
(median), the overshoot beyond the request (median, p99 by the linear
definition, max), the relative error of the median, and the CPU time per wait
(thread CPU time for the mechanisms run on their own locked thread, process CPU
time for the Go runtime's waits and delay.Sleep; minus the cost of reading the
clock). "*" marks the most accurate mechanism per duration, "+" the most
accurate of those spending at most 10 % of the wait in CPU.

Samples per cell fit a time budget (--budget, split evenly between the cells,
at least one sample per cell): the default run (7 durations up to 1 s,
16 mechanisms) takes about 45 s, most of it in the 1 s row. --priority and --pin
apply to the threads that block in the kernel themselves (system calls,
busy-spin); the Go runtime's waits and delay.Sleep run on ordinary goroutines,
as programs call them. The machine should be idle: other load shows up as
overshoot.

A wait that fails (its system call returns an error) is not a sample: it is
counted and reported with its error, and left out of every figure. Ctrl-C
(SIGINT) or SIGTERM stops at once, without waiting for the wait in progress;
the cells measured so far are printed and exported (marked incomplete), and
chrono exits with 130 (SIGINT) or 143 (SIGTERM).`,
		Example: `  chrono sleep
  chrono sleep --durations 100us,1ms --budget 5s
  chrono sleep --mechanisms time.Sleep,delay.Sleep --durations 100us --json sleep.json
  chrono sleep --priority 80 --mlock --dma-latency 0 --csv sleep.csv`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error { return runSleep(cmd, f) },
	}
	fl := cmd.Flags()
	fl.StringVar(&f.durations, "durations", "1us,10us,100us,1ms,10ms,100ms,1s", "comma-separated requested durations, each with a unit, up to 10s")
	fl.StringVar(&f.mechanisms, "mechanisms", "", "comma-separated mechanisms to measure (default all; see --list; case and parentheses optional: clock_nanosleep, delay.sleep-nospin)")
	fl.DurationVar(&f.budget, "budget", delay.DefaultStudyBudget, "total time budget, split evenly between cells (each cell takes at least one sample)")
	fl.IntVar(&f.maxSamples, "max-samples", delay.DefaultMaxSamples, "maximum samples per cell")
	fl.IntVar(&f.priority, "priority", 0, "run the kernel-waiting threads SCHED_FIFO at this priority (1-99)")
	fl.IntVar(&f.pin, "pin", -1, "pin the kernel-waiting threads to this CPU")
	fl.BoolVar(&f.mlock, "mlock", false, "lock all memory (mlockall) for the run")
	fl.IntVar(&f.dmaLatency, "dma-latency", -1, "hold /dev/cpu_dma_latency at this many µs for the run (0: no deep C-states)")
	fl.BoolVar(&f.bestEffort, "best-effort", false, "continue without settings that are refused (default: stop before measuring)")
	fl.StringVar(&f.json, "json", "", "write the result document (kind \"sleep\", raw samples) to FILE")
	fl.StringVar(&f.csv, "csv", "", "write the table as CSV to FILE (\"-\" for standard output, instead of the table)")
	fl.BoolVarP(&f.quiet, "quiet", "q", false, "no progress on standard error")
	fl.BoolVar(&f.list, "list", false, "list the mechanisms available on this platform and exit")
	return cmd
}

// parseDurations parses a comma-separated list of durations with units.
func parseDurations(s string, max time.Duration) ([]time.Duration, error) {
	var out []time.Duration
	for _, tok := range strings.Split(s, ",") {
		tok = strings.TrimSpace(tok)
		if tok == "" {
			continue
		}
		v, hasUnit, err := unit.ParseValue(tok)
		if err != nil {
			return nil, usagef("--durations: %v", err)
		}
		if !hasUnit {
			return nil, usagef("--durations: %q needs a unit (e.g. 100us, 1ms)", tok)
		}
		d := time.Duration(math.Round(v))
		if d <= 0 || d > max {
			return nil, usagef("--durations: %s out of range (use more than 0, up to %v)", tok, max)
		}
		out = append(out, d)
	}
	if len(out) == 0 {
		return nil, usagef("--durations: no duration given (e.g. --durations 100us,1ms)")
	}
	return out, nil
}

func runSleep(cmd *cobra.Command, f sleepFlags) error {
	w := cmd.OutOrStdout()
	if f.list {
		for _, m := range delay.Mechanisms() {
			fmt.Fprintln(w, m)
		}
		return nil
	}
	durs, err := parseDurations(f.durations, delay.MaxStudyDuration)
	if err != nil {
		return err
	}
	var mechs []string
	if f.mechanisms != "" {
		known := delay.Mechanisms()
		for _, m := range strings.Split(f.mechanisms, ",") {
			name, ok := resolveMechanism(known, strings.TrimSpace(m))
			if !ok {
				return usagef("--mechanisms: unknown mechanism %q (available: %s)", strings.TrimSpace(m), strings.Join(known, ", "))
			}
			mechs = append(mechs, name)
		}
	}
	if f.budget <= 0 {
		return usagef("--budget must be positive (e.g. 30s)")
	}
	if f.maxSamples < 1 {
		return usagef("--max-samples must be at least 1")
	}
	if f.priority < 0 || f.priority > 99 {
		return usagef("--priority %d out of range (1-99, SCHED_FIFO)", f.priority)
	}
	if f.dmaLatency < -1 {
		return usagef("--dma-latency must be at least 0 µs")
	}
	set := delay.ThreadSettings{Priority: f.priority}
	if f.pin >= 0 {
		set.Pin, set.CPU = true, f.pin
	} else if f.pin != -1 {
		return usagef("--pin %d out of range (use a CPU number ≥ 0)", f.pin)
	}
	held, err := delay.Acquire(delay.Conditions{MLock: f.mlock, DMALatency: f.dmaLatency, Settings: set, BestEffort: f.bestEffort})
	if err != nil {
		return bestEffortHint(err)
	}
	defer held.Release()
	errw := cmd.ErrOrStderr()
	for _, warn := range held.Warnings {
		fmt.Fprintf(errw, "chrono: warning: %s\n", warn)
	}
	ctx, stop := interruptContext(context.Background())
	defer stop()
	opts := delay.StudyOptions{Durations: durs, Mechanisms: mechs, Budget: f.budget, MaxSamples: f.maxSamples, Settings: held.Settings}
	if !f.quiet && isTerminal(os.Stderr) && errw == os.Stderr {
		opts.Progress = func(m string, d time.Duration) {
			fmt.Fprintf(errw, "\r\033[Kmeasuring %s for %v ...", m, d)
		}
	}
	doc := result.New("sleep", toolInfo())
	doc.Args = append([]string{"chrono"}, os.Args[1:]...)
	if f.json != "" {
		// Before measuring, so that an interruption exits at once.
		doc.Environment = env.Capture()
	}
	res, err := delay.Study(ctx, opts)
	if opts.Progress != nil {
		fmt.Fprint(errw, "\r\033[K")
	}
	if err != nil {
		return err
	}
	doc.End = time.Now()
	if f.json != "" {
		doc.Incomplete = res.Interrupted
		doc.Warnings = warn.LegacyAll("conditions", held.Warnings)
		doc.Measurements = []result.Measurement{}
		for _, c := range res.Cells {
			doc.Measurements = append(doc.Measurements, c.Measurement())
		}
		if err := result.WriteFile(f.json, doc); err != nil {
			return err
		}
	}
	switch f.csv {
	case "":
		writeSleepTable(w, res, held)
	case "-":
		if err := writeSleepCSV(w, res); err != nil {
			return err
		}
	default:
		file, err := os.Create(f.csv)
		if err != nil {
			return fmt.Errorf("sleep: %w", err)
		}
		if err := writeSleepCSV(file, res); err != nil {
			file.Close()
			return err
		}
		if err := file.Close(); err != nil {
			return fmt.Errorf("sleep: %w", err)
		}
		writeSleepTable(w, res, held)
	}
	if res.Interrupted {
		return exitError{code: interruptExitCode(ctx), err: fmt.Errorf("sleep: %v; the figures above cover what was measured", context.Cause(ctx))}
	}
	return nil
}

func containsString(xs []string, s string) bool {
	for _, x := range xs {
		if x == s {
			return true
		}
	}
	return false
}

// fmtNs formats ns for the table ("-" when unavailable).
func fmtNs(ns float64) string {
	if math.IsNaN(ns) {
		return "-"
	}
	return unit.FormatDuration(ns, 1)
}

func writeSleepTable(w io.Writer, res *delay.StudyResult, held *delay.Held) {
	conds := []string{}
	if held.Settings.Priority > 0 {
		conds = append(conds, fmt.Sprintf("SCHED_FIFO %d", held.Settings.Priority))
	}
	if held.Settings.Pin {
		conds = append(conds, fmt.Sprintf("pinned to CPU %d", held.Settings.CPU))
	}
	if held.MLocked {
		conds = append(conds, "mlockall")
	}
	if held.DMALatency >= 0 {
		conds = append(conds, fmt.Sprintf("cpu_dma_latency %d µs", held.DMALatency))
	}
	if len(conds) == 0 {
		conds = append(conds, "default scheduling, no pinning, no mlock, no PM-QoS request")
	}
	fmt.Fprintf(w, "Sleep accuracy (%s)\n", strings.Join(conds, ", "))
	i := 0
	for _, d := range res.Durations {
		if i >= len(res.Cells) {
			break
		}
		fmt.Fprintf(w, "\nrequested %s\n", formatExact(d))
		rows := [][]string{{"", "mechanism", "n", "achieved", "over med", "over p99", "over max", "error", "CPU/wait"}}
		for ; i < len(res.Cells) && res.Cells[i].Requested == d; i++ {
			c := res.Cells[i]
			mark := ""
			if c.Best {
				mark += "*"
			}
			if c.BestFrugal {
				mark += "+"
			}
			if c.Unavailable != "" {
				rows = append(rows, []string{mark, c.Mechanism, "-", "-", "-", "-", "-", "-", "-"})
				continue
			}
			errPct := "-"
			if !math.IsNaN(c.ErrorPct) {
				errPct = unit.Sig(c.ErrorPct, 3) + " %"
			}
			rows = append(rows, []string{mark, c.Mechanism, strconv.Itoa(len(c.Achieved)),
				fmtNs(c.AchievedMedian), fmtNs(c.OvershootMedian), fmtNs(c.OvershootP99), fmtNs(c.OvershootMax), errPct, fmtNs(c.CPUPerWait)})
		}
		writeColumns(w, rows, 2)
	}
	fmt.Fprintf(w, "\n* most accurate (smallest median overshoot)   + most accurate with CPU/wait ≤ 10 %% of the request\n")
	fmt.Fprintf(w, "over p99: linear percentile of the overshoot; CPU/wait: median, thread CPU (own-thread mechanisms) or process CPU\n")
	if res.SpinMargin > 0 {
		fmt.Fprintf(w, "delay.Sleep spin margin at the end: %s\n", formatExact(res.SpinMargin))
	}
	for _, c := range res.Cells {
		if c.Unavailable != "" {
			fmt.Fprintf(w, "unavailable: %s at %v: %s\n", c.Mechanism, c.Requested, c.Unavailable)
		}
		if c.Failed > 0 {
			fmt.Fprintf(w, "failed: %d of %d waits of %s at %v (not in its figures): %v\n", c.Failed, c.Failed+len(c.Achieved), c.Mechanism, c.Requested, c.Err)
		}
	}
	if res.Interrupted {
		fmt.Fprintln(w, "interrupted: some cells have fewer samples than the budget allowed, or are missing")
	}
}

func writeSleepCSV(w io.Writer, res *delay.StudyResult) error {
	cw := csv.NewWriter(w)
	_ = cw.Write([]string{"mechanism", "requested_ns", "n", "achieved_median_ns", "overshoot_median_ns", "overshoot_p99_ns", "overshoot_max_ns", "error_pct", "cpu_per_wait_ns", "cpu_clock", "best", "best_frugal", "unavailable", "failed", "failure"})
	num := func(v float64) string {
		if math.IsNaN(v) {
			return ""
		}
		return strconv.FormatFloat(v, 'f', -1, 64)
	}
	for _, c := range res.Cells {
		failure := ""
		if c.Err != nil {
			failure = c.Err.Error()
		}
		_ = cw.Write([]string{c.Mechanism, strconv.FormatInt(int64(c.Requested), 10), strconv.Itoa(len(c.Achieved)),
			num(c.AchievedMedian), num(c.OvershootMedian), num(c.OvershootP99), num(c.OvershootMax), num(c.ErrorPct),
			num(c.CPUPerWait), c.CPUClock, strconv.FormatBool(c.Best), strconv.FormatBool(c.BestFrugal), c.Unavailable,
			strconv.Itoa(c.Failed), failure})
	}
	cw.Flush()
	if err := cw.Error(); err != nil {
		return fmt.Errorf("sleep: writing CSV: %w", err)
	}
	return nil
}

// writeColumns prints rows as aligned columns: the first left columns
// left-aligned, the others right-aligned, two spaces apart.
func writeColumns(w io.Writer, rows [][]string, left int) {
	width := map[int]int{}
	for _, r := range rows {
		for j, cell := range r {
			width[j] = max(width[j], utf8.RuneCountInString(cell))
		}
	}
	for _, r := range rows {
		var b strings.Builder
		for j, cell := range r {
			pad := strings.Repeat(" ", width[j]-utf8.RuneCountInString(cell))
			if j > 0 {
				b.WriteString("  ")
			}
			if j < left {
				b.WriteString(cell + pad)
			} else {
				b.WriteString(pad + cell)
			}
		}
		fmt.Fprintln(w, strings.TrimRight(b.String(), " "))
	}
}

// bestEffortHint adds the other way out to a refused setting: measuring
// without it.
func bestEffortHint(err error) error {
	var pe *delay.PermissionError
	if errors.As(err, &pe) {
		return fmt.Errorf("%w; or pass --best-effort to measure without it", err)
	}
	return err
}

// resolveMechanism finds the mechanism the user means by m: its exact
// name, or the same name typed without the shell-hostile parentheses, in
// any case, with or without '-' (clock_nanosleep, delay.sleep-nospin,
// busyspin).
func resolveMechanism(known []string, m string) (string, bool) {
	if containsString(known, m) {
		return m, true
	}
	key := func(s string) string {
		s = strings.ToLower(s)
		s = strings.ReplaceAll(s, "(abs)", "")
		return strings.NewReplacer("(", "", ")", "", "-", "", " ", "").Replace(s)
	}
	for _, k := range known {
		if key(k) == key(m) {
			return k, true
		}
	}
	return "", false
}

// formatExact formats d with the digits it has and no trailing zeros:
// 100µs is "100 µs", 1.5ms "1.5 ms", 123456ns "123.456 µs".
func formatExact(d time.Duration) string {
	res := 1.0
	for n := int64(d); n != 0 && n%10 == 0 && res < 1e9; n /= 10 {
		res *= 10
	}
	return unit.FormatDuration(float64(d), res)
}
