package main

import (
	"context"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/chronograph/chronograph/capture"
	"github.com/chronograph/chronograph/report"
	"github.com/chronograph/chronograph/result"
)

func init() { register(newPulsesCmd) }

type pulsesFlags struct {
	channels []string
	between  []string
	within   string
	minWidth string
	keep     int
	window   int
	out      output
}

func newPulsesCmd() *cobra.Command {
	var f pulsesFlags
	cmd := &cobra.Command{
		Use:   "pulses CAPTURE",
		Short: "Pulse widths, periods, duty cycles and latencies from a logic-analyzer or simulator capture",
		Long: `Read a capture (a VCD from sigrok-cli, PulseView, Verilator, Icarus or GHDL; sigrok's
CSV output; a sigrok session file .sr) and measure, per channel, the widths of its
high and low pulses, the periods between its rising and between its falling
edges, the duty cycle and the frequency of each period: each a sample with its
summary, percentiles and outliers, as chrono gives any sample.

--between FROM TO measures the latency from each FROM edge (CHANNEL:rise or
CHANNEL:fall) to the TO edge that answers it (an interrupt pin to its task pin);
--within DURATION pairs only latencies up to it. A pulse shorter than
--min-width is a glitch: counted and listed apart, never silently dropped.

Figures carry the capture's resolution (its sample period, or the VCD
timescale): a 1 MHz capture never prints nanoseconds. The capture is streamed:
each figure keeps at most --keep values and bins the rest (exact below 2048
ticks), so a capture of any size is analysed in bounded memory.

--json prints the result document instead of the text; --export-json,
--export-csv and --export-markdown FILE write it too; chrono report renders it
(--html), compares it with a baseline (--baseline OLD NEW --fail-on regression),
and chrono history add stores it.`,
		Example: `  sigrok-cli -d demo --config samplerate=1m --samples 20000 --channels D0,D1,D2 -O vcd -o demo.vcd
  chrono pulses demo.vcd
  chrono pulses gpio.sr --channels irq,task --between irq:rise task:rise --within 1ms
  chrono pulses sim.vcd --min-width 5ns --json > pulses.json`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return runPulses(cmd, args, f)
		},
	}
	fl := cmd.Flags()
	fl.StringSliceVar(&f.channels, "channels", nil, "comma-separated channels to measure (default: every channel)")
	fl.StringArrayVar(&f.between, "between", nil, "FROM TO: the latency from each FROM edge to the next TO edge (CHANNEL:rise or CHANNEL:fall; repeatable)")
	fl.StringVar(&f.within, "within", "", "with --between: pair only latencies up to DURATION (e.g. 1ms)")
	fl.StringVar(&f.minWidth, "min-width", "", "a pulse shorter than DURATION is a glitch, reported apart (e.g. 2us)")
	fl.IntVar(&f.keep, "keep", 100000, "the most values a figure keeps; beyond, it is binned (0: keep every value)")
	fl.IntVar(&f.window, "window", 400, "level changes kept from the start for the waveform strip")
	f.out.register(fl)
	return cmd
}

// pulsesBetween reads the --between values: "FROM TO" (or "FROM,TO") in
// one value, or FROM with TO the next argument after CAPTURE (cobra hands
// "--between A:rise B:rise" over as --between A:rise and an argument).
func pulsesBetween(values, args []string) ([]capture.Between, []string, error) {
	var out []capture.Between
	for _, v := range values {
		parts := strings.FieldsFunc(v, func(r rune) bool { return r == ' ' || r == ',' })
		if len(parts) == 1 && len(args) > 1 {
			parts, args = append(parts, args[1]), append(args[:1:1], args[2:]...)
		}
		if len(parts) != 2 {
			return nil, nil, usagef("--between %q: give two edges, FROM TO (e.g. --between irq:rise task:rise)", v)
		}
		from, err := capture.ParseEdgeRef(parts[0])
		if err != nil {
			return nil, nil, usagef("--between: %w", err)
		}
		to, err := capture.ParseEdgeRef(parts[1])
		if err != nil {
			return nil, nil, usagef("--between: %w", err)
		}
		out = append(out, capture.Between{From: from, To: to})
	}
	return out, args, nil
}

func parsePositiveDuration(flag, s string) (time.Duration, error) {
	if s == "" {
		return 0, nil
	}
	d, err := time.ParseDuration(s)
	if err != nil || d <= 0 {
		return 0, usagef("--%s %q: give a positive duration such as 2us, 500ns or 1ms", flag, s)
	}
	return d, nil
}

func runPulses(cmd *cobra.Command, args []string, f pulsesFlags) error {
	between, args, err := pulsesBetween(f.between, args)
	if err != nil {
		return err
	}
	if len(args) != 1 {
		return usagef("give one CAPTURE file, got %d arguments (%s)", len(args), strings.Join(args, " "))
	}
	within, err := parsePositiveDuration("within", f.within)
	if err != nil {
		return err
	}
	if within > 0 && len(between) == 0 {
		return usagef("--within applies to --between: add --between FROM TO")
	}
	minWidth, err := parsePositiveDuration("min-width", f.minWidth)
	if err != nil {
		return err
	}
	switch {
	case f.keep < 0:
		return usagef("--keep must be 0 (keep every value) or more, got %d", f.keep)
	case f.window < 0:
		return usagef("--window must be 0 or more, got %d", f.window)
	}
	if err := f.out.check(); err != nil {
		return err
	}
	if err := f.out.checkHistory(); err != nil {
		return err
	}
	path := args[0]
	if _, err := os.Stat(path); err != nil {
		return fmt.Errorf("cannot read the capture: %w", err)
	}
	start := time.Now()
	r, err := capture.Open(path)
	if err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	defer r.Close()
	in := r.Info()
	tick := in.Tick
	if (minWidth > 0 || within > 0) && !tick.Known() {
		return usagef("%s has no $timescale: --min-width and --within need a time; add a $timescale to the capture", path)
	}
	spec := capture.Spec{Channels: f.channels, MinWidth: tick.CeilTicks(minWidth), Keep: f.keep, Window: f.window}
	for _, b := range between {
		b.Within = tick.FloorTicks(within)
		spec.Between = append(spec.Between, b)
	}
	ctx, stop := interruptContext(context.Background())
	defer stop()
	a, err := capture.AnalyzeContext(ctx, r, spec)
	if err != nil && (a == nil || !a.Interrupted) {
		if strings.Contains(err.Error(), "line ") || strings.Contains(err.Error(), ".sr") {
			return fmt.Errorf("%s: %w", path, err)
		}
		return usageError{err}
	}
	elapsed := time.Since(start)
	d := result.PulsesDocument(result.PulsesInput{Source: path, Info: in, Spec: spec, Elapsed: elapsed, Analysis: a}, meta(cmd, recordedEnv(cmd)))
	if err := f.out.emit(cmd, d, report.Options{}); err != nil {
		return err
	}
	if a.Interrupted {
		return exitError{code: interruptExitCode(ctx), err: fmt.Errorf("pulses: %v; the figures cover what was read", context.Cause(ctx))}
	}
	return nil
}
