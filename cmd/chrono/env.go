package main

import (
	"time"

	"github.com/spf13/cobra"

	"github.com/chronograph/chronograph/counters"
	"github.com/chronograph/chronograph/env"
	"github.com/chronograph/chronograph/report"
	"github.com/chronograph/chronograph/result"
)

func init() { register(newEnvCmd) }

func newEnvCmd() *cobra.Command {
	out := output{noCSV: true}
	cmd := &cobra.Command{
		Use:   "env",
		Short: "Show the measurement conditions of this host and their warnings",
		Long: `env shows the conditions that decide how far measurements on this host can
be trusted: CPU and topology, the relative speed of the CPUs, frequency
governor and turbo, hypervisor, clocksource, kernel and OS, CPU isolation,
timer slack, Go build settings, CPU affinity and cgroup quota. Conditions that
spoil measurements are listed as warnings that say what to do. What cannot be
read is shown as unknown, with the reason.`,
		Example: `  chrono env                 # the table and its warnings
  chrono env --json          # a result document with the environment
  chrono env --json --redact # the same, fit to paste into an issue`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := out.check(); err != nil {
				return err
			}
			d := result.New(result.KindEnv, meta(cmd, captureEnv()))
			d.Measurements = []result.Measurement{}
			d.End = time.Now()
			return out.emit(cmd, d, report.Options{})
		},
	}
	out.register(cmd.Flags())
	return cmd
}

// captureEnv captures the environment together with the availability of
// performance counters (which env, standing alone, does not probe).
func captureEnv() *env.Host {
	h := env.Capture()
	a := counters.Available()
	h.Counters = &env.Counters{Hardware: a.Hardware, Software: a.Software, Summary: a.Summary()}
	return h
}
