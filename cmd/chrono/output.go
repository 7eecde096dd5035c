package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/chronograph/chronograph/report"
	"github.com/chronograph/chronograph/result"
)

// output is the one grammar for what a subcommand writes, the same in
// every subcommand that produces a result document:
//
//	--json                  the document on standard output, and nothing else
//	--export-json FILE      the document to FILE ("-" = standard output)
//	--export-csv FILE       the CSV rendering to FILE
//	--export-markdown FILE  the Markdown rendering to FILE
//	--redact                host name, user names, home paths and the kernel
//	                        command line replaced by placeholders
//
// Without --json the text rendering goes to standard output (progress and
// live displays go to standard error). Export paths are checked before
// anything is measured, so a typo fails in milliseconds, not after the
// benchmark.
type output struct {
	json                                  bool
	exportJSON, exportCSV, exportMarkdown string
	redact                                bool
	// noCSV is set by subcommands whose documents have no table for CSV
	// (their --export-csv is not registered).
	noCSV bool
	// noText suppresses the text rendering on standard output (chrono
	// run --style none): only --json and the exports are written.
	noText bool
	// history is --history: the store to add the document to
	// (historyDefault: the default store); "" when not given.
	history string
}

// historyDefault is --history without a value: the default store.
const historyDefault = "default"

// register adds the output flags to fl.
func (o *output) register(fl *pflag.FlagSet) {
	fl.BoolVar(&o.json, "json", false, "write the result document (JSON) to standard output instead of the text")
	fl.StringVar(&o.exportJSON, "export-json", "", "also write the result document to FILE (- = standard output)")
	if !o.noCSV {
		fl.StringVar(&o.exportCSV, "export-csv", "", "also write the CSV table to FILE (- = standard output)")
	}
	fl.StringVar(&o.exportMarkdown, "export-markdown", "", "also write the Markdown rendering to FILE (- = standard output)")
	fl.StringVar(&o.history, "history", "", "also add the result document to the history (chrono history): the default store, or --history=DSN (a SQLite FILE or postgres://...)")
	fl.Lookup("history").NoOptDefVal = historyDefault
	fl.BoolVar(&o.redact, "redact", false, "replace the host name, user names, home paths and kernel command line in the document by placeholders, for sharing")
}

// exports lists the export flags that were given, with their format.
func (o *output) exports() []struct {
	flag, path string
	format     report.Format
} {
	var out []struct {
		flag, path string
		format     report.Format
	}
	for _, e := range []struct {
		flag, path string
		format     report.Format
	}{{"--export-json", o.exportJSON, report.JSON}, {"--export-csv", o.exportCSV, report.CSV}, {"--export-markdown", o.exportMarkdown, report.Markdown}} {
		if e.path != "" {
			out = append(out, e)
		}
	}
	return out
}

// check validates the flags before anything is measured: one writer of
// standard output at most, and every export path writable. It returns a
// usage error that names the flag and the fix.
func (o *output) check() error {
	stdout := ""
	if o.json {
		stdout = "--json"
	}
	for _, e := range o.exports() {
		if e.path == "-" {
			if stdout != "" {
				return usagef("%s and %s - both write to standard output: give %s a FILE", stdout, e.flag, e.flag)
			}
			stdout = e.flag + " -"
			continue
		}
		if err := checkWritable(e.path); err != nil {
			return usagef("%s %s: %v", e.flag, e.path, err)
		}
	}
	return o.checkHistory()
}

// textToStdout reports whether the text rendering goes to standard output
// (no other writer claimed it).
func (o *output) textToStdout() bool {
	if o.json || o.noText {
		return false
	}
	for _, e := range o.exports() {
		if e.path == "-" {
			return false
		}
	}
	return true
}

// checkWritable says why a file cannot be written at path, without
// creating it: the path is a directory, its directory is missing, or the
// directory does not accept new files.
func checkWritable(path string) error {
	if fi, err := os.Stat(path); err == nil && fi.IsDir() {
		return errors.New("is a directory: give a file name")
	}
	dir := filepath.Dir(path)
	fi, err := os.Stat(dir)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return fmt.Errorf("directory %s does not exist: create it or choose another path", dir)
	case err != nil:
		return fmt.Errorf("cannot use directory %s: %w", dir, err)
	case !fi.IsDir():
		return fmt.Errorf("%s is not a directory", dir)
	}
	f, err := os.CreateTemp(dir, ".chrono-check-*")
	if err != nil {
		return fmt.Errorf("cannot create files in %s: %w", dir, errors.Unwrap(err))
	}
	f.Close()
	os.Remove(f.Name())
	return nil
}

// emit writes d: the text rendering (or the document with --json) to
// standard output, then every export. It redacts d first with --redact.
// Subcommands call it once at the end, also after an interrupt (d then
// says it is incomplete), so that what was measured is kept.
func (o *output) emit(cmd *cobra.Command, d *result.Document, ro report.Options) error {
	if o.redact {
		result.Redact(d)
	}
	stdout := cmd.OutOrStdout()
	var err error
	switch {
	case o.json:
		err = result.Encode(stdout, d)
	case o.textToStdout():
		if ro.Style == "" && isTerminalWriter(stdout) {
			// A terminal whose locale is not UTF-8 cannot show the
			// charts' blocks and typographic characters: ASCII then.
			ro.Style = report.TerminalStyle(os.Getenv)
		}
		err = report.Render(stdout, d, report.Text, ro)
	}
	return errors.Join(err, o.writeExports(stdout, d, ro), o.addHistory(cmd, d))
}

// writeExports writes the exports of d (subcommands that export after
// every measured item, as hyperfine does, call it more than once).
func (o *output) writeExports(stdout io.Writer, d *result.Document, ro report.Options) error {
	var errs []error
	for _, e := range o.exports() {
		errs = append(errs, report.WriteFile(e.path, stdout, func(w io.Writer) error {
			return report.Render(w, d, e.format, ro)
		}))
	}
	return errors.Join(errs...)
}

// exportFiles writes the exports of d that go to files (not "-"),
// redacted with --redact: subcommands that export what they measured so
// far after every measured item, as hyperfine does, call it then;
// standard output gets its one document or table from emit at the end.
func (o *output) exportFiles(d *result.Document, ro report.Options) error {
	if o.redact {
		result.Redact(d)
	}
	var errs []error
	for _, e := range o.exports() {
		if e.path == "-" {
			continue
		}
		errs = append(errs, report.WriteFile(e.path, nil, func(w io.Writer) error {
			return report.Render(w, d, e.format, ro)
		}))
	}
	return errors.Join(errs...)
}

// argsKey is the context key under which execute stores the arguments
// chrono received.
type argsKey struct{}

// withArgs returns ctx holding args.
func withArgs(ctx context.Context, args []string) context.Context {
	return context.WithValue(ctx, argsKey{}, append([]string(nil), args...))
}

// invocation returns the command line chrono received, as documents
// record it: "chrono" and the arguments (not os.Args, which under `go
// test` holds the test binary's flags).
func invocation(cmd *cobra.Command) []string {
	args, _ := cmd.Context().Value(argsKey{}).([]string)
	return append([]string{"chrono"}, args...)
}
