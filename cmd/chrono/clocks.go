package main

import (
	"time"

	"github.com/spf13/cobra"

	"github.com/chronograph/chronograph/clock"
	"github.com/chronograph/chronograph/env"
	"github.com/chronograph/chronograph/report"
	"github.com/chronograph/chronograph/result"
)

func init() { register(newClocksCmd) }

// The probe and the environment of chrono clocks (tests put fakes here,
// so that no test depends on this host's clocks).
var (
	clocksProbe = clock.Probe
	clocksEnv   = func() *env.Host { return captureEnv() }
)

func newClocksCmd() *cobra.Command {
	var (
		reads     int
		calibrate time.Duration
		out       output
	)
	cmd := &cobra.Command{
		Use:   "clocks",
		Short: "Characterize every clock of this host: resolution, tick, read cost, monotonicity, TSC",
		Long: `clocks probes every clock this host has: Go's monotonic clock (time.Since),
time.Now, each POSIX clock (through the kernel's vDSO where it serves the
clock, as C's clock_gettime reads it; the CPU-time clocks with the system
call), and the CPU timestamp counter (RDTSC, LFENCE;RDTSC, RDTSCP on amd64;
CNTVCT_EL0 on arm64). For each it shows the nominal resolution (clock_getres
or 1/frequency), the observed tick (the smallest step between changes
of back-to-back reads, read until the value changed 5 times or 250 ms
passed: "≤" when the clock changed at every read, so that its tick is
finer than a read; "uncertain" when too few changes were seen), the read
cost per read (median and p99 over batches of
reads, numpy 'linear' percentiles), backward steps on one thread and across
threads, and whether a read goes through the vDSO, a system call or an
instruction. A vDSO read is checked: where the vDSO cannot read the
clocksource it makes the system call itself, and the clock is labelled
syscall (the system calls of 1000 reads are counted where tracefs allows,
else the costs are compared).

It also shows the TSC frequency (from CPUID, or calibrated against
CLOCK_MONOTONIC_RAW) next to the kernel's figure, the invariant-TSC bit,
the kernel clocksource, and which clock to use for elapsed time, and why.

--json prints the result document instead of the text; --export-json,
--export-csv (the table) and --export-markdown FILE write it too.`,
		Example: `  chrono clocks                    # the table, TSC facts and recommendation
  chrono clocks --reads 100000     # more reads per clock for tick and monotonicity
  chrono clocks --calibrate 1s     # calibrate the TSC over a longer window
  chrono clocks --json --redact > clocks.json`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if reads < clock.MinReads {
				return usagef("--reads %d: give at least %d (the tick is taken from %d changes of the value, which need %d reads)",
					reads, clock.MinReads, clock.MinTickChanges, clock.MinReads)
			}
			if cmd.Flags().Changed("calibrate") && calibrate < 10*time.Millisecond {
				return usagef("--calibrate must be at least 10ms, got %v", calibrate)
			}
			if err := out.check(); err != nil {
				return err
			}
			opts := clock.ProbeOptions{Reads: reads, Calibrate: calibrate}
			s := clocksProbe(opts)
			d := result.ClocksDocument(&s, meta(cmd, clocksEnv()))
			return out.emit(cmd, d, report.Options{})
		},
	}
	fl := cmd.Flags()
	fl.IntVar(&reads, "reads", 20000, "back-to-back reads per clock for the tick and monotonicity checks")
	fl.DurationVar(&calibrate, "calibrate", 0, "recalibrate the TSC over this window (default: the cached 100ms calibration)")
	out.register(fl)
	return cmd
}
