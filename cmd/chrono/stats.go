package main

import (
	"fmt"
	"io"
	"os"
	"time"

	"github.com/spf13/cobra"

	"github.com/chronograph/chronograph/internal/numbers"
	"github.com/chronograph/chronograph/report"
	"github.com/chronograph/chronograph/stats"
	"github.com/chronograph/chronograph/unit"
)

func init() {
	register(newNumbersCmd)
	register(newStatsCmd)
}

type numbersFlags struct {
	method      string
	percentiles string
	timeUnit    string
	histogram   bool
	bins        int
	skipInvalid bool
	confidence  float64
	out         output
}

// newNumbersCmd is chrono numbers, which summarizes numbers (its
// documents are of kind "numbers"; it was chrono stats, one letter from
// chrono stat, which counts events).
func newNumbersCmd() *cobra.Command {
	var f numbersFlags
	cmd := &cobra.Command{
		Use:   "numbers [FILE|-]",
		Short: "Summarize numbers: summary, percentiles, outliers, histogram",
		Long: `Read numbers from FILE (or standard input when FILE is omitted or "-") and print
their summary, percentiles, outliers and, with --histogram, a terminal histogram.

Numbers are separated by whitespace or commas, one or more per line. A number
may carry a duration suffix (ns, us, µs, ms, s, m, h): then all numbers are
durations, and bare numbers must be given a unit with -u/--time-unit. Without
suffixes and without a time unit the numbers are plain and printed as plain
numbers.

Percentiles are computed with one of the nine Hyndman-Fan definitions, named as
numpy names them (--method); every printed percentile says which one made it.
Figures are printed with the digits they are known to: no finer than the
input's own precision, and no finer than their uncertainty.

--json prints the result document instead of the text; --export-json,
--export-csv and --export-markdown FILE write it too.`,
		Example: `  seq 1 1000 | chrono numbers
  chrono numbers latencies.txt --percentiles 50,99,99.9 --method hazen
  chrono numbers -u us --histogram waits.txt
  printf '12.5ms\n13.1ms\n12.9ms\n' | chrono numbers --json > summary.json`,
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return runNumbers(cmd, args, f)
		},
	}
	fl := cmd.Flags()
	fl.StringVar(&f.method, "method", string(stats.DefaultMethod), "percentile definition (numpy name): "+methodNames())
	fl.StringVar(&f.percentiles, "percentiles", "50,90,99,99.9", "comma-separated percentiles to print, each in [0,100]")
	fl.StringVarP(&f.timeUnit, "time-unit", "u", "", "unit of bare numbers, and the display unit: ns, us, ms or s")
	fl.StringVar(&f.timeUnit, "unit", "", "alias of --time-unit")
	fl.MarkHidden("unit")
	fl.BoolVar(&f.histogram, "histogram", false, "print a terminal histogram")
	fl.IntVar(&f.bins, "bins", 20, fmt.Sprintf("number of histogram bins (1 to %d)", stats.MaxLinearBins))
	fl.BoolVar(&f.skipInvalid, "skip-invalid", false, "count and skip tokens that are not numbers instead of failing")
	fl.Float64Var(&f.confidence, "confidence", stats.Confidence, "confidence level of the median's interval, in (0,1)")
	f.out.register(fl)
	cmd.RegisterFlagCompletionFunc("method", func(*cobra.Command, []string, string) ([]string, cobra.ShellCompDirective) {
		names := make([]string, len(stats.Methods))
		for i, m := range stats.Methods {
			names[i] = string(m)
		}
		return names, cobra.ShellCompDirectiveNoFileComp
	})
	cmd.RegisterFlagCompletionFunc("time-unit", func(*cobra.Command, []string, string) ([]string, cobra.ShellCompDirective) {
		return []string{"ns", "us", "ms", "s"}, cobra.ShellCompDirectiveNoFileComp
	})
	return cmd
}

// statsNote is what chrono stats, the old name of chrono numbers, says
// first, on standard error (never on standard output, which --json keeps
// for the document alone).
const statsNote = `chrono: note: "chrono stats" is now "chrono numbers"; the old name will be removed in a later release`

// newStatsCmd is chrono numbers under its old name, chrono stats: hidden
// (help and completion show chrono numbers), and saying so on standard
// error before it runs. It is not cobra's Deprecated field, which cobra
// prints on the command's output writer, standard output.
func newStatsCmd() *cobra.Command {
	cmd := newNumbersCmd()
	cmd.Use = "stats [FILE|-]"
	cmd.Hidden = true
	cmd.PreRun = func(cmd *cobra.Command, _ []string) { fmt.Fprintln(cmd.ErrOrStderr(), statsNote) }
	return cmd
}

func methodNames() string {
	s := ""
	for i, m := range stats.Methods {
		if i > 0 {
			s += ", "
		}
		s += string(m)
	}
	return s
}

func runNumbers(cmd *cobra.Command, args []string, f numbersFlags) error {
	method, err := stats.ParseMethod(f.method)
	if err != nil {
		return usageError{err}
	}
	ps, err := stats.ParsePercentiles(f.percentiles)
	if err != nil {
		return usagef("--percentiles: %w", err)
	}
	fl := cmd.Flags()
	switch {
	case fl.Changed("bins") && !f.histogram:
		return usagef("--bins applies to --histogram: add --histogram")
	case f.bins < 1 || f.bins > stats.MaxLinearBins:
		return usagef("--bins must be between 1 and %d (a terminal histogram of more bins is not readable), got %d", stats.MaxLinearBins, f.bins)
	case !(f.confidence > 0 && f.confidence < 1):
		return usagef("--confidence must be between 0 and 1 (e.g. 0.95), got %g", f.confidence)
	case fl.Changed("unit") && fl.Changed("time-unit"):
		return usagef("--unit is the old name of -u/--time-unit: give one of them")
	}
	if err := f.out.check(); err != nil {
		return err
	}
	var opts numbers.Options
	sum := numbers.Summary{Source: "stdin", Method: method, Percentiles: ps, Confidence: f.confidence}
	if f.histogram {
		sum.Bins = f.bins
	}
	if f.timeUnit != "" {
		u, err := unit.ParseUnit(f.timeUnit)
		if err != nil {
			return usageError{err}
		}
		opts.BareUnit, sum.TimeUnit = &u, &u
	}
	opts.SkipInvalid = f.skipInvalid

	in := io.Reader(cmd.InOrStdin())
	if len(args) == 1 && args[0] != "-" {
		file, err := os.Open(args[0])
		if err != nil {
			return fmt.Errorf("cannot read numbers: %w", err)
		}
		defer file.Close()
		sum.Source, in = args[0], file
	}
	start := time.Now()
	data, err := numbers.Read(in, sum.Source, opts)
	if err != nil {
		return err
	}
	if len(data.Values) == 0 {
		return fmt.Errorf("%s: %w", sum.Source, numbers.ErrEmpty)
	}
	d := numbers.Document(data, sum, meta(cmd, recordedEnv(cmd)))
	d.Start = start
	return f.out.emit(cmd, d, report.Options{})
}
