package main

import (
	"io"
	"path/filepath"

	"github.com/spf13/cobra"

	"github.com/chronograph/chronograph/report"
	"github.com/chronograph/chronograph/tracer"
)

func init() { register(newTraceCmd) }

type traceFlags struct {
	between bool
	perFlow bool
	gaps    int
	html    string
	title   string
	out     output
}

func newTraceCmd() *cobra.Command {
	var f traceFlags
	cmd := &cobra.Command{
		Use:   "trace FILE [--between A B [--per-flow]]",
		Short: "Summarize a trace dump: span distributions, A→B latencies, stalls, HTML timeline",
		Long: `Read a trace-event JSON file (written by package tracer, or by any tool that
writes the Chrome/Perfetto trace-event format) and print, per span name, the
count, percentiles, max, total and share of the wall time; the longest gaps
without events on each lane (stalls); and, with --between A B, the
distribution of the time from each event A to the next event B (an event's
time is its start; write NAME:end for a span's end). With --per-flow, A pairs
only with a B of the same flow id: the latency of each request through a
pipeline.

--html FILE writes a self-contained timeline page (no network: lanes, zoom and
pan, hover for details, nested spans); --json prints the summary as a result
document instead of text; --export-json/--export-csv/--export-markdown FILE
write it too.`,
		Example: `  chrono trace dump.json
  chrono trace dump.json --between irq task
  chrono trace dump.json --between request 'reply:end' --per-flow
  chrono trace dump.json --html timeline.html`,
		Args: func(cmd *cobra.Command, args []string) error {
			switch {
			case f.between && len(args) != 3:
				return usagef("--between takes two event names after FILE: chrono trace FILE --between A B")
			case !f.between && len(args) != 1:
				return usagef("chrono trace takes one FILE (and, with --between, two event names)")
			case f.perFlow && !f.between:
				return usagef("--per-flow applies to --between A B")
			case f.gaps < 0:
				return usagef("--gaps must be at least 0, got %d", f.gaps)
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error { return runTrace(cmd, args, f) },
	}
	fl := cmd.Flags()
	fl.BoolVar(&f.between, "between", false, "measure from each event A to the next event B (give A and B after FILE)")
	fl.BoolVar(&f.perFlow, "per-flow", false, "with --between: pair A only with a B of the same flow id")
	fl.IntVar(&f.gaps, "gaps", 3, "longest gaps to show per lane (0: none)")
	fl.StringVar(&f.html, "html", "", "write a self-contained HTML timeline to FILE (- for stdout)")
	markPaths(fl, fileOrStdout, "html")
	fl.StringVar(&f.title, "title", "", "title of the HTML timeline (default: the file name)")
	f.out.register(fl)
	return cmd
}

func runTrace(cmd *cobra.Command, args []string, f traceFlags) error {
	html := file{"--html", f.html}
	if err := f.out.check(html); err != nil {
		return err
	}
	if err := notInputs(f.out.files(html), args[:1]); err != nil {
		return err
	}
	tr, err := tracer.ReadChromeFile(args[0])
	if err != nil {
		return err
	}
	o := tracer.SummaryOptions{Gaps: f.gaps}
	if f.gaps == 0 {
		o.Gaps = -1
	}
	if f.between {
		a, err := tracer.ParseEndpoint(tr, args[1])
		if err != nil {
			return usageError{err}
		}
		b, err := tracer.ParseEndpoint(tr, args[2])
		if err != nil {
			return usageError{err}
		}
		o.Between = []tracer.Between{{A: a, B: b, PerFlow: f.perFlow}}
	}
	sum, err := tracer.Summarize(tr, o)
	if err != nil {
		return err
	}
	out := cmd.OutOrStdout()
	if f.html != "" {
		title := f.title
		if title == "" {
			title = filepath.Base(args[0])
		}
		s := report.Subject{Traces: []*tracer.Trace{tr}, TraceNames: []string{title}}
		if err := writeFile(f.html, out, func(w io.Writer) error { return report.Render(w, s, report.HTML, report.Options{}) }); err != nil {
			return err
		}
		// The page took standard output; the exports still go to their
		// FILEs.
		f.out.noText = f.html == "-"
	}
	d := sum.Document(meta(cmd, recordedEnv(cmd)))
	return f.out.emit(cmd, d, report.Options{})
}
