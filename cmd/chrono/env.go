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

// captureEnv captures the environment of a document that measures on
// this host: all of it, the CPU speed and the availability of performance
// counters (which env, standing alone, does not probe) included.
func captureEnv() *env.Host { return captureMeasured() }

// recordedEnv captures the environment of a document of what was measured
// elsewhere (chrono numbers of a file, chrono trace of a dump): what files
// and cheap system calls tell (the history's machine fingerprint among
// it), without the CPU-speed loop and the counters' probe, whose figures
// are nothing to such a document.
func recordedEnv(cmd *cobra.Command) *env.Host {
	return captureRecorded("not measured: chrono " + cmd.Name() + " measures nothing on this host")
}

// The captures of chrono's documents; tests replace them to count them.
// Commands that only read documents (report, history) or print what the
// binary knows (version) call neither.
var (
	captureMeasured = func() *env.Host {
		h := env.Capture()
		a := counters.Available()
		h.Counters = &env.Counters{Hardware: a.Hardware, Software: a.Software, Summary: a.Summary()}
		return h
	}
	captureRecorded = func(reason string) *env.Host {
		return env.CaptureWith(env.Options{NoCPUSpeed: true, Reason: reason})
	}
)
