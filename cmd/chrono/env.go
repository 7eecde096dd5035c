package main

import (
	"os"
	"time"

	"github.com/chronograph/chronograph/counters"
	"github.com/chronograph/chronograph/env"
	"github.com/chronograph/chronograph/result"
	"github.com/spf13/cobra"
)

func init() { register(newEnvCmd) }

func newEnvCmd() *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "env",
		Short: "Show the measurement conditions of this host and their warnings",
		Long: `env shows the conditions that decide how far measurements on this host can
be trusted: CPU and topology, frequency governor and turbo, hypervisor,
clocksource, kernel and OS, CPU isolation, timer slack, Go build settings,
CPU affinity and cgroup quota. Conditions that spoil measurements are listed
as warnings that say what to do. What cannot be read is shown as unknown,
with the reason.`,
		Example: `  chrono env            # the table and its warnings
  chrono env --json     # a result document with the environment`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			h := captureEnv()
			if !asJSON {
				return h.WriteText(cmd.OutOrStdout())
			}
			d := result.New("env", toolInfo())
			d.Args = os.Args
			d.Environment = h
			d.Measurements = []result.Measurement{}
			d.End = time.Now()
			return result.Encode(cmd.OutOrStdout(), d)
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "write a result document (JSON) with the environment instead of the table")
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
