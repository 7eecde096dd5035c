package main

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/spf13/cobra"

	"github.com/chronograph/chronograph/compare"
	"github.com/chronograph/chronograph/internal/outfile"
	"github.com/chronograph/chronograph/internal/plural"
	"github.com/chronograph/chronograph/report"
	"github.com/chronograph/chronograph/result"
	"github.com/chronograph/chronograph/result/input"
	"github.com/chronograph/chronograph/stats"
	"github.com/chronograph/chronograph/tracer"
)

func init() { register(newReportCmd) }

// stdinIsTerminal reports whether r, chrono's standard input, is a
// terminal (a test replaces it).
var stdinIsTerminal = func(r io.Reader) bool {
	f, ok := r.(*os.File)
	return ok && isTerminal(f)
}

// reportFlags are chrono report's flags.
type reportFlags struct {
	format, baseline, pcts, html, svg, title, failOn, threshold, style string
	all, allowEnvMismatch                                              bool
	out                                                                output
}

func newReportCmd() *cobra.Command {
	var f reportFlags
	cmd := &cobra.Command{
		Use:   "report [FILE...]",
		Short: "Render result documents, compare them, gate CI on regressions, write HTML reports",
		Long: `Read result documents written by chrono (--json or --export-json of every
subcommand) or by the bench package, and render each as the subcommand that
wrote it did: chrono clocks, stats, env and trace documents in their own
layout; other kinds as a table of every measurement's primary metric (all
metrics with --all), with n, the median and its distribution-free 95%
confidence interval, mean ± sample standard deviation, min … max and
percentiles, recomputed from the raw samples, then a histogram line and a
sparkline of the samples in run order (ASCII with --style basic, or on a
terminal whose locale is not UTF-8); then the warnings the document holds.

chrono report also reads what users already have: hyperfine JSON exports
(hyperfine --export-json) as command documents, and Go benchmark output
(go test -bench, -count runs, several files) as function documents.

With several FILEs, the first is the baseline of the others, as in benchstat:
chrono report old.txt new.txt compares every benchmark in both, with the ratio
of medians new/old, a 95% bootstrap interval, a Mann-Whitney U test and a plain
verdict: faster, slower, or no significant change. --baseline OLD NEW does the
same.

--fail-on regression makes that comparison a gate for CI: exit 1 when a
measurement got significantly slower (its ratio's interval lies beyond
--threshold, default 5%, and its p-value after Holm's correction across all
compared measurements is at most 0.05), else 0; 2 for bad usage. It refuses
documents from different machines (CPU model, kernel, GOMAXPROCS, CPU speed
profile) unless --allow-env-mismatch, and then says so on every line.
--export-markdown FILE writes the verdict as a pull-request comment.

--html FILE writes one self-contained HTML page of every FILE (plots as
inline SVG, tables, environment, warnings; no network); trace dumps (chrono
trace's input) become timelines there. --svg DIR writes each plot as its own
SVG file.

--format converts a document: text (the default), markdown, csv or json;
--export-json, --export-csv and --export-markdown FILE write other formats
too, and --redact replaces the host name, user names, home paths and kernel
command line first, for sharing. The document is read from standard input
when FILE is omitted or "-".`,
		Example: `  chrono run --export-json today.json 'make -s' && chrono report today.json
  chrono report --all --format markdown bench.json
  chrono report old.txt new.txt                     # go test -bench outputs, like benchstat
  chrono report --baseline main.json pr.json --fail-on regression --export-markdown comment.md
  chrono report --html report.html run.json bench.json latency.json`,
		RunE: func(cmd *cobra.Command, args []string) error { return runReport(cmd, args, f) },
	}
	fl := cmd.Flags()
	fl.StringVar(&f.format, "format", "text", "output format: "+strings.Join(report.FormatNames(), ", "))
	fl.StringVar(&f.baseline, "baseline", "", "compare with this older result document")
	fl.BoolVar(&f.all, "all", false, "render every metric, not only each measurement's primary one")
	fl.StringVar(&f.pcts, "percentiles", "", "percentiles to show (default: the document's, or 50,99)")
	fl.StringVar(&f.html, "html", "", "write a self-contained HTML report of every FILE to this file (- = standard output)")
	fl.StringVar(&f.svg, "svg", "", "write every plot as its own SVG file into this directory")
	fl.StringVar(&f.title, "title", "", "title of the HTML report (default: chrono report)")
	fl.StringVar(&f.failOn, "fail-on", "", "with a baseline: exit 1 on a significant regression (the only value: regression)")
	fl.StringVar(&f.threshold, "threshold", "5%", "with --fail-on: the smallest change that counts, in percent")
	fl.BoolVar(&f.allowEnvMismatch, "allow-env-mismatch", false, "with --fail-on: compare documents from different machines or configurations")
	fl.StringVar(&f.style, "style", "auto", "text charts: auto (Unicode unless a terminal's locale is not UTF-8) or basic (ASCII)")
	f.out.register(fl)
	cmd.RegisterFlagCompletionFunc("format", func(*cobra.Command, []string, string) ([]string, cobra.ShellCompDirective) {
		return report.FormatNames(), cobra.ShellCompDirectiveNoFileComp
	})
	cmd.RegisterFlagCompletionFunc("fail-on", func(*cobra.Command, []string, string) ([]string, cobra.ShellCompDirective) {
		return []string{"regression"}, cobra.ShellCompDirectiveNoFileComp
	})
	cmd.RegisterFlagCompletionFunc("style", func(*cobra.Command, []string, string) ([]string, cobra.ShellCompDirective) {
		return []string{"auto", "basic"}, cobra.ShellCompDirectiveNoFileComp
	})
	cmd.MarkFlagDirname("svg")
	markPaths(fl, fileOrStdout, "html")
	markPaths(fl, "a directory", "svg")
	markPaths(fl, "the older result document's FILE", "baseline")
	return cmd
}

// parseThreshold reads --threshold: a percentage ("5%", "5", "0.5%").
func parseThreshold(s string) (float64, error) {
	t := strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(s), "%"))
	v, err := strconv.ParseFloat(t, 64)
	if err != nil || !(v >= 0) || v > 1000 {
		return 0, usagef("--threshold %q: give a percentage from 0%% to 1000%%, e.g. 5%%", s)
	}
	return v / 100, nil
}

// reportInput is one FILE of chrono report: a document, or a trace dump.
type reportInput struct {
	path  string
	doc   *result.Document
	trace *tracer.Trace
}

func runReport(cmd *cobra.Command, args []string, f reportFlags) error {
	fl := cmd.Flags()
	var o report.Options
	o.All = f.all
	if fl.Changed("percentiles") {
		ps, err := stats.ParsePercentiles(f.pcts)
		if err != nil {
			return usagef("--percentiles: %w", err)
		}
		o.Percentiles = ps
	}
	format, err := report.ParseFormat(f.format)
	if err != nil {
		return usageError{err}
	}
	switch f.style {
	case "auto":
		if isTerminalWriter(cmd.OutOrStdout()) {
			o.Style = report.TerminalStyle(os.Getenv)
		}
	case "basic":
		o.Style = "basic"
	default:
		return usagef("--style %q: use auto or basic", f.style)
	}
	out := &f.out
	switch {
	case out.json && fl.Changed("format") && format != report.JSON:
		return usagef("--json writes the document, --format %s a rendering of it: give one of them", f.format)
	case out.json:
		format = report.JSON
	}
	if err := out.check(); err != nil {
		return err
	}
	if fl.Changed("format") && !out.textToStdout() {
		return usagef("--format %s and an export to - both write to standard output: give the export a FILE", f.format)
	}
	visual := f.html != "" || f.svg != ""
	// The baseline: --baseline, or the first of several FILEs.
	paths := args
	if len(paths) == 0 {
		paths = []string{"-"}
	}
	comparing := f.baseline != "" || (len(paths) > 1 && !visual)
	gate := f.failOn != ""
	var threshold float64
	switch {
	case gate && f.failOn != "regression":
		return usagef("--fail-on %q: the only value is regression", f.failOn)
	case gate && !comparing:
		return usagef("--fail-on regression needs a baseline: chrono report --baseline OLD NEW --fail-on regression (or OLD NEW)")
	case gate && visual:
		return usagef("--fail-on gates a comparison in text, markdown or csv; write the HTML report (--html, --svg) in another call")
	case !gate && fl.Changed("threshold"):
		return usagef("--threshold applies to --fail-on regression")
	case !gate && f.allowEnvMismatch:
		return usagef("--allow-env-mismatch applies to --fail-on regression")
	case f.title != "" && f.html == "":
		return usagef("--title applies to --html")
	}
	if gate {
		if threshold, err = parseThreshold(f.threshold); err != nil {
			return err
		}
	}
	if comparing {
		switch {
		case format == report.JSON:
			return usagef("--baseline writes text, markdown or csv, not json: drop --format json (or --json)")
		case out.exportJSON != "":
			return usagef("--baseline writes text, markdown or csv: a comparison has no JSON document, so drop --export-json")
		case f.baseline != "" && len(args) > 1:
			return usagef("--baseline OLD compares one document: give one FILE after it (or drop --baseline: the first of several FILEs is the baseline)")
		}
	}
	if visual && (out.json || len(out.exports()) > 0 || fl.Changed("format")) {
		return usagef("--html and --svg write the report alone: give --json, --format and the exports in another call")
	}
	if f.html != "" && f.html != "-" {
		if err := outfile.Check(f.html); err != nil {
			return usagef("--html: %v", err)
		}
	}
	if f.html == "-" && !out.textToStdout() {
		return usagef("--html - and another output both write to standard output: give --html a FILE")
	}
	if f.baseline != "" {
		paths = append([]string{f.baseline}, paths...)
	}
	if err := notInputs(out.files(file{"--html", f.html}), paths); err != nil {
		return err
	}
	stdin := 0
	for _, p := range paths {
		if p == "-" {
			stdin++
		}
	}
	switch {
	case stdin > 1:
		return usagef("standard input (-) can be read once: give the other documents as FILEs")
	case stdin == 1 && stdinIsTerminal(cmd.InOrStdin()):
		return usagef("chrono report reads a result document: give FILE (e.g. chrono report clocks.json), or pipe one in (chrono numbers --json < numbers.txt | chrono report)")
	}
	var ins []reportInput
	for _, p := range paths {
		in, err := readInput(cmd, p, visual)
		if err != nil {
			return err
		}
		if out.redact && in.doc != nil {
			result.Redact(in.doc)
		}
		ins = append(ins, in)
	}
	w := cmd.OutOrStdout()
	if visual && f.baseline != "" && f.svg == "" {
		// --baseline OLD NEW --html: the comparison's page, with the
		// differential profiles of what got slower.
		diff := compare.Documents(ins[0].doc, ins[1].doc, o.All)
		traceProfiles(cmd.ErrOrStderr(), diff, ins[0], ins[1])
		ho := o
		ho.Title, ho.Version, ho.CommandLine = f.title, readBuildInfo().Version, shellQuote(invocation(cmd))
		return writeFile(f.html, w, func(fw io.Writer) error { return report.Render(fw, report.Subject{Diff: diff}, report.HTML, ho) })
	}
	if visual {
		return writeVisual(cmd, ins, f, o)
	}
	docs := make([]*result.Document, len(ins))
	for i, in := range ins {
		docs[i] = in.doc
	}
	if !comparing {
		d := docs[0]
		var err error
		if out.textToStdout() || out.json {
			err = report.Render(w, report.Subject{Docs: []*result.Document{d}}, format, o)
		}
		return errors.Join(err, out.writeExports(w, d, o))
	}
	if gate {
		g, err := compare.GateDocuments(docs[0], docs[1], compare.GateOptions{All: o.All, Threshold: threshold, AllowEnvMismatch: f.allowEnvMismatch})
		var em *compare.EnvMismatchError
		if errors.As(err, &em) {
			return exitError{code: exitUsage, err: err}
		}
		if err != nil {
			return err
		}
		traceProfiles(cmd.ErrOrStderr(), &g.Diff, ins[0], ins[1])
		var errs []error
		if out.textToStdout() {
			errs = append(errs, report.Render(w, report.Subject{Gate: g}, format, o))
		}
		for _, e := range out.exports() {
			errs = append(errs, writeFile(e.path, w, func(fw io.Writer) error {
				return report.Render(fw, report.Subject{Gate: g}, e.format, o)
			}))
		}
		if err := errors.Join(errs...); err != nil {
			return err
		}
		if g.Regressed() {
			return exitError{code: exitFailure}
		}
		return nil
	}
	var diffs []report.Subject
	for i, d := range docs[1:] {
		diff := compare.Documents(docs[0], d, o.All)
		traceProfiles(cmd.ErrOrStderr(), diff, ins[0], ins[i+1])
		diffs = append(diffs, report.Subject{Diff: diff})
	}
	var errs []error
	for i, s := range diffs {
		if out.textToStdout() {
			if i > 0 {
				fmt.Fprintln(w)
			}
			errs = append(errs, report.Render(w, s, format, o))
		}
	}
	for _, e := range out.exports() {
		errs = append(errs, writeFile(e.path, w, func(fw io.Writer) error {
			var errs []error
			for i, s := range diffs {
				if i > 0 {
					fmt.Fprintln(fw)
				}
				errs = append(errs, report.Render(fw, s, e.format, o))
			}
			return errors.Join(errs...)
		}))
	}
	return errors.Join(errs...)
}

// readInput reads one FILE (or standard input for "-"): a result
// document, a hyperfine export, Go benchmark output, or, for the HTML
// report (visual), a trace dump.
func readInput(cmd *cobra.Command, path string, visual bool) (reportInput, error) {
	var data []byte
	var err error
	name := path
	if path == "-" {
		data, err = io.ReadAll(cmd.InOrStdin())
		name = "standard input"
	} else {
		data, err = os.ReadFile(path)
	}
	if err != nil {
		return reportInput{}, fmt.Errorf("report: reading %s: %w", path, err)
	}
	if input.Detect(data) == input.TraceEvents {
		if !visual {
			return reportInput{}, fmt.Errorf("report: %s is a trace dump: chrono trace %s summarizes it, and chrono report --html draws its timeline", name, path)
		}
		tr, err := tracer.ReadChrome(bytes.NewReader(data))
		if err != nil {
			return reportInput{}, err
		}
		return reportInput{path: path, trace: tr}, nil
	}
	d, err := input.Read(data, filepath.Base(name))
	if err != nil {
		return reportInput{}, err
	}
	return reportInput{path: path, doc: d}, nil
}

// writeVisual writes the HTML report (--html) and the SVG files (--svg).
func writeVisual(cmd *cobra.Command, ins []reportInput, f reportFlags, o report.Options) error {
	var s report.Subject
	for _, in := range ins {
		if in.doc != nil {
			s.Docs = append(s.Docs, in.doc)
		} else {
			s.Traces, s.TraceNames = append(s.Traces, in.trace), append(s.TraceNames, filepath.Base(in.path))
		}
	}
	w, errw := cmd.OutOrStdout(), cmd.ErrOrStderr()
	if f.html != "" {
		ho := o
		ho.Title, ho.Version, ho.CommandLine = f.title, readBuildInfo().Version, shellQuote(invocation(cmd))
		if err := writeFile(f.html, w, func(fw io.Writer) error { return report.Render(fw, s, report.HTML, ho) }); err != nil {
			return err
		}
		if f.html != "-" {
			fmt.Fprintf(errw, "chrono: wrote %s\n", f.html)
		}
	}
	if f.svg != "" {
		svg := report.Subject{Docs: s.Docs}
		var names []string
		if len(svg.Docs) > 0 {
			var err error
			if names, err = report.PlotNames(svg, o); err != nil {
				return err
			}
		}
		if err := os.MkdirAll(f.svg, 0o755); err != nil {
			return fmt.Errorf("report: --svg %s: %w", f.svg, err)
		}
		for _, name := range names {
			po := o
			po.Plot = name
			if err := outfile.Write(filepath.Join(f.svg, name+".svg"), func(fw io.Writer) error { return report.Render(fw, svg, report.SVG, po) }); err != nil {
				return err
			}
		}
		fmt.Fprintf(errw, "chrono: wrote %s into %s\n", plural.Count(len(names), "plot"), f.svg)
	}
	return nil
}

// shellQuote joins a command line, quoting the words a shell would split.
func shellQuote(args []string) string {
	out := make([]string, len(args))
	for i, a := range args {
		if a != "" && !strings.ContainsAny(a, " \t\n'\"\\$`*?[]{}()<>|&;#~!") {
			out[i] = a
		} else {
			out[i] = "'" + strings.ReplaceAll(a, "'", `'\''`) + "'"
		}
	}
	return strings.Join(out, " ")
}

// traceProfiles adds to d the differential profiles of the measurements
// that got slower, from the profiles the two documents refer to; a
// profile that cannot be read is reported on stderr and left out.
func traceProfiles(stderr io.Writer, d *compare.Diff, base, next reportInput) {
	bp, berrs := docProfiles(base.path, base.doc)
	np, nerrs := docProfiles(next.path, next.doc)
	for _, errs := range []map[string]error{berrs, nerrs} {
		for name, err := range errs {
			fmt.Fprintf(stderr, "chrono: the profile of %s: %v\n", name, err)
		}
	}
	d.TraceSlower(bp, np)
}
