package main

import (
	"strings"

	"github.com/spf13/cobra"

	"github.com/chronograph/chronograph/report"
	"github.com/chronograph/chronograph/result"
	"github.com/chronograph/chronograph/stats"
)

func init() { register(newReportCmd) }

func newReportCmd() *cobra.Command {
	var (
		format, baseline, pcts string
		all                    bool
	)
	cmd := &cobra.Command{
		Use:   "report [FILE|-]",
		Short: "Render a result document, or compare it with a baseline",
		Long: `Read a result document written by chrono (run --export-json, stats --json,
clocks --json, sleep --json, latency --json, stat --json, env --json) or by the
bench package, and render it: for every measurement its primary metric (all
metrics with --all), with n, the median and its distribution-free 95%
confidence interval, mean ± sample standard deviation, min … max and
percentiles, recomputed from the raw samples; then the comparisons and
warnings the document holds.

With --baseline OLD, compare the document with an older one: every
measurement present in both (same name and metric) gets the ratio of medians
new/old with a 95% bootstrap interval and a Mann-Whitney U test, and a plain
verdict: faster, slower, or no significant change. The document is read from
standard input when FILE is omitted or "-".`,
		Example: `  chrono run --export-json today.json 'make -s' && chrono report today.json
  chrono report --all --format markdown bench.json
  chrono report --baseline yesterday.json today.json`,
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			var o report.Options
			o.All = all
			if pcts != "" {
				ps, err := stats.ParsePercentiles(pcts)
				if err != nil {
					return usageError{err}
				}
				o.Percentiles = ps
			}
			f, err := report.ParseFormat(format)
			if err != nil {
				return usageError{err}
			}
			if baseline != "" && f == report.JSON {
				return usagef("--baseline writes text, markdown or csv, not json: drop --format json")
			}
			path := "-"
			if len(args) == 1 {
				path = args[0]
			}
			d, err := readDocument(cmd, path)
			if err != nil {
				return err
			}
			w := cmd.OutOrStdout()
			if baseline != "" {
				old, err := result.ReadFile(baseline)
				if err != nil {
					return err
				}
				return report.RenderDiff(w, old, d, f, o)
			}
			return report.Render(w, d, f, o)
		},
	}
	fl := cmd.Flags()
	fl.StringVar(&format, "format", "text", "output format: "+strings.Join(report.FormatNames(), ", "))
	fl.StringVar(&baseline, "baseline", "", "compare with this older result document")
	fl.BoolVar(&all, "all", false, "render every metric, not only each measurement's primary one")
	fl.StringVarP(&pcts, "percentiles", "p", "50,99", "percentiles to show (linear definition)")
	return cmd
}

// readDocument reads a result document from path, or from the command's
// standard input for "-".
func readDocument(cmd *cobra.Command, path string) (*result.Document, error) {
	if path == "-" {
		return result.Decode(cmd.InOrStdin())
	}
	return result.ReadFile(path)
}
