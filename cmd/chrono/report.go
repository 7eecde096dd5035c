package main

import (
	"errors"
	"io"
	"os"
	"strings"

	"github.com/spf13/cobra"

	"github.com/chronograph/chronograph/report"
	"github.com/chronograph/chronograph/result"
	"github.com/chronograph/chronograph/stats"
)

func init() { register(newReportCmd) }

// stdinIsTerminal reports whether r, chrono's standard input, is a
// terminal (a test replaces it).
var stdinIsTerminal = func(r io.Reader) bool {
	f, ok := r.(*os.File)
	return ok && isTerminal(f)
}

func newReportCmd() *cobra.Command {
	var (
		format, baseline, pcts string
		all                    bool
		out                    output
	)
	cmd := &cobra.Command{
		Use:   "report [FILE|-]",
		Short: "Render a result document, or compare it with a baseline",
		Long: `Read a result document written by chrono (--json or --export-json of every
subcommand) or by the bench package, and render it as the subcommand that
wrote it did: chrono clocks, stats, env and trace documents in their own
layout; other kinds as a table of every measurement's primary metric (all
metrics with --all), with n, the median and its distribution-free 95%
confidence interval, mean ± sample standard deviation, min … max and
percentiles, recomputed from the raw samples; then the warnings the
document holds.

--format converts the document: text (the default), markdown, csv or json;
--export-json, --export-csv and --export-markdown FILE write other formats
too, and --redact replaces the host name, user names, home paths and kernel
command line first, for sharing.

With --baseline OLD, compare the document with an older one: every
measurement present in both (same name and metric) gets the ratio of medians
new/old with a 95% bootstrap interval and a Mann-Whitney U test, and a plain
verdict: faster, slower, or no significant change. The document is read from
standard input when FILE is omitted or "-".`,
		Example: `  chrono run --export-json today.json 'make -s' && chrono report today.json
  chrono report --all --format markdown bench.json
  chrono stats --json < latencies.txt | chrono report --export-csv latencies.csv
  chrono report --baseline yesterday.json today.json`,
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			fl := cmd.Flags()
			var o report.Options
			o.All = all
			if fl.Changed("percentiles") {
				ps, err := stats.ParsePercentiles(pcts)
				if err != nil {
					return usagef("--percentiles: %w", err)
				}
				o.Percentiles = ps
			}
			f, err := report.ParseFormat(format)
			if err != nil {
				return usageError{err}
			}
			switch {
			case out.json && fl.Changed("format") && f != report.JSON:
				return usagef("--json writes the document, --format %s a rendering of it: give one of them", format)
			case out.json:
				f = report.JSON
			}
			if err := out.check(); err != nil {
				return err
			}
			if fl.Changed("format") && !out.textToStdout() {
				return usagef("--format %s and an export to - both write to standard output: give the export a FILE", format)
			}
			if baseline != "" {
				switch {
				case f == report.JSON:
					return usagef("--baseline writes text, markdown or csv, not json: drop --format json (or --json)")
				case out.exportJSON != "":
					return usagef("--baseline writes text, markdown or csv: a comparison has no JSON document, so drop --export-json")
				}
			}
			path := "-"
			if len(args) == 1 {
				path = args[0]
			}
			if path == "-" && stdinIsTerminal(cmd.InOrStdin()) {
				return usagef("chrono report reads a result document: give FILE (e.g. chrono report clocks.json), or pipe one in (chrono stats --json < numbers.txt | chrono report)")
			}
			d, err := readDocument(cmd, path)
			if err != nil {
				return err
			}
			w := cmd.OutOrStdout()
			if baseline == "" {
				if out.redact {
					result.Redact(d)
				}
				var err error
				if out.textToStdout() || out.json {
					err = report.Render(w, d, f, o)
				}
				return errors.Join(err, out.writeExports(w, d, o))
			}
			old, err := result.ReadFile(baseline)
			if err != nil {
				return err
			}
			if out.redact {
				result.Redact(old)
				result.Redact(d)
			}
			var errs []error
			if out.textToStdout() {
				errs = append(errs, report.RenderDiff(w, old, d, f, o))
			}
			for _, e := range out.exports() {
				errs = append(errs, report.WriteFile(e.path, w, func(fw io.Writer) error {
					return report.RenderDiff(fw, old, d, e.format, o)
				}))
			}
			return errors.Join(errs...)
		},
	}
	fl := cmd.Flags()
	fl.StringVar(&format, "format", "text", "output format: "+strings.Join(report.FormatNames(), ", "))
	fl.StringVar(&baseline, "baseline", "", "compare with this older result document")
	fl.BoolVar(&all, "all", false, "render every metric, not only each measurement's primary one")
	fl.StringVar(&pcts, "percentiles", "", "percentiles to show (default: the document's, or 50,99)")
	out.register(fl)
	cmd.RegisterFlagCompletionFunc("format", func(*cobra.Command, []string, string) ([]string, cobra.ShellCompDirective) {
		return report.FormatNames(), cobra.ShellCompDirectiveNoFileComp
	})
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
