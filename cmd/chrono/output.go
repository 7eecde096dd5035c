package main

import (
	"bytes"
	"context"
	"errors"
	"io"
	"os"
	"slices"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/chronograph/chronograph/internal/outfile"
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
// benchmark, and so are two outputs to one file and an empty path.
// Every FILE is written by package outfile: a regular file atomically, a
// link's target, a FIFO, device or /dev/fd/N in place.
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
		markPaths(fl, fileOrStdout, "export-csv")
	}
	fl.StringVar(&o.exportMarkdown, "export-markdown", "", "also write the Markdown rendering to FILE (- = standard output)")
	markPaths(fl, fileOrStdout, "export-json", "export-markdown")
	fl.StringVar(&o.history, "history", "", "also add the result document to the history (chrono history): the default store, or --history=DSN (a SQLite FILE or postgres://...)")
	fl.Lookup("history").NoOptDefVal = historyDefault
	fl.BoolVar(&o.redact, "redact", false, "replace the host name, user names, home paths and kernel command line in the document by placeholders, for sharing")
}

// file is a FILE a subcommand writes, with the flag that names it.
type file struct{ flag, path string }

// export is an export flag that was given, with its format.
type export struct {
	file
	format report.Format
}

// pathAnnotation marks the flags that name a file or a directory
// (markPaths); its value says what to give instead of "".
const pathAnnotation = "chrono-path"

// fileOrStdout is what to give a FILE flag that takes - too.
const fileOrStdout = "a FILE, or - for standard output"

// markPaths marks the flags names of fl as naming a path, so that one
// given as the empty string (--export-json "$UNSET") is refused before
// anything runs (checkPaths), rather than read as not given. want says
// what to give, as in "give a FILE, or - for standard output".
func markPaths(fl *pflag.FlagSet, want string, names ...string) {
	for _, name := range names {
		if err := fl.SetAnnotation(name, pathAnnotation, []string{want}); err != nil {
			panic(err) // a flag of that name is not registered
		}
	}
}

// checkPaths refuses a path flag of cmd given as "" (markPaths), which
// would otherwise be ignored as if it were not given: an export that
// silently is not written.
func checkPaths(cmd *cobra.Command) error {
	var err error
	cmd.Flags().Visit(func(f *pflag.Flag) {
		want, ok := f.Annotations[pathAnnotation]
		if !ok || err != nil {
			return
		}
		empty := f.Value.String() == ""
		if sv, ok := f.Value.(pflag.SliceValue); ok {
			empty = slices.Contains(sv.GetSlice(), "")
		}
		if empty {
			err = usagef("--%s '': an empty path names no file (an unset variable?): give %s", f.Name, want[0])
		}
	})
	return err
}

// exports lists the export flags that were given, with their format.
func (o *output) exports() []export {
	var out []export
	for _, e := range []export{{file{"--export-json", o.exportJSON}, report.JSON}, {file{"--export-csv", o.exportCSV}, report.CSV}, {file{"--export-markdown", o.exportMarkdown}, report.Markdown}} {
		if e.path != "" {
			out = append(out, e)
		}
	}
	return out
}

// check validates the flags before anything is measured: one writer of
// standard output at most, every FILE writable (the exports, and extra:
// the subcommand's other files, such as trace's --html), and no two of
// them the same file. It returns a usage error that names the flag and
// the fix.
func (o *output) check(extra ...file) error {
	stdout := ""
	if o.json {
		stdout = "--json"
	}
	if err := checkFiles(stdout, o.files(extra...)); err != nil {
		return err
	}
	return o.checkHistory()
}

// checkFiles checks the FILEs a subcommand will write, before it
// measures: one writer of standard output at most (stdout, when not "",
// names the flag that already writes there), every FILE given (not "")
// writable (outfile.Check: a missing directory, a directory, a socket
// fail; a FIFO or /dev/stdout pass), and no two of them the same file.
func checkFiles(stdout string, files []file) error {
	files = slices.DeleteFunc(slices.Clone(files), func(e file) bool { return e.path == "" })
	for _, e := range files {
		if e.path == "-" {
			if stdout != "" {
				return usagef("%s and %s - both write to standard output: give %s a FILE", stdout, e.flag, e.flag)
			}
			stdout = e.flag + " -"
			continue
		}
		if err := outfile.Check(e.path); err != nil {
			return usagef("%s: %v", e.flag, err)
		}
	}
	return distinct(files)
}

// files lists the FILEs of the exports that were given, then those of
// extra that were given (not "").
func (o *output) files(extra ...file) []file {
	var files []file
	for _, e := range o.exports() {
		files = append(files, e.file)
	}
	for _, e := range extra {
		if e.path != "" {
			files = append(files, e)
		}
	}
	return files
}

// notInputs refuses a FILE that names a file the subcommand reads
// (chrono report a.json --html a.json): writing it would replace the
// input.
func notInputs(files []file, inputs []string) error {
	for _, f := range files {
		for _, in := range inputs {
			if f.path != "-" && in != "-" && outfile.Collide(f.path, in) {
				return usagef("%s %s would replace the input %s: give another FILE", f.flag, f.path, in)
			}
		}
	}
	return nil
}

// distinct refuses two FILEs that name the same file (a.json and
// ./a.json, a link and its target): the second would replace the first,
// as two writers of standard output are refused. One character device
// may take several (two exports to /dev/null): it replaces nothing.
func distinct(files []file) error {
	for i, b := range files {
		for _, a := range files[:i] {
			if a.path != "-" && b.path != "-" && outfile.Collide(a.path, b.path) {
				return usagef("%s %s and %s %s write the same file, the second replacing the first: give each its own FILE", a.flag, a.path, b.flag, b.path)
			}
		}
	}
	return nil
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
		err = report.Render(stdout, report.Subject{Docs: []*result.Document{d}}, report.Text, ro)
	}
	return errors.Join(err, o.writeExports(stdout, d, ro), o.addHistory(cmd, d))
}

// writeExports writes the exports of d (subcommands that export after
// every measured item, as hyperfine does, call it more than once).
func (o *output) writeExports(stdout io.Writer, d *result.Document, ro report.Options) error {
	var errs []error
	for _, e := range o.exports() {
		errs = append(errs, writeFile(e.path, stdout, func(w io.Writer) error {
			return report.Render(w, report.Subject{Docs: []*result.Document{d}}, e.format, ro)
		}))
	}
	return errors.Join(errs...)
}

// writeFile writes what render produces to path through the one writer
// of files (package outfile: a regular file atomically, a link's target,
// a device, FIFO or /dev/fd/N in place), or to stdout when path is "-".
func writeFile(path string, stdout io.Writer, render func(io.Writer) error) error {
	if path == "-" {
		return render(stdout)
	}
	return outfile.Write(path, render)
}

// renderFiles renders the exports of d that go to files (not "-"),
// redacted with --redact, for writeRendered: subcommands that export
// what they measured so far after every measured item, as hyperfine
// does, call them then (rendering apart from writing, so that the
// rendering need not hold up the final write). Standard output, and a
// FIFO, device or /dev/fd/N, which a second write would add to rather
// than replace, get their one document or table from emit at the end.
func (o *output) renderFiles(d *result.Document, ro report.Options) ([]rendered, error) {
	if !o.hasFileExports() {
		return nil, nil
	}
	if o.redact {
		result.Redact(d)
	}
	var files []rendered
	var errs []error
	for _, e := range o.exports() {
		if e.path == "-" || outfile.InPlace(e.path) {
			continue
		}
		r, err := renderFile(e.path, func(w io.Writer) error {
			return report.Render(w, report.Subject{Docs: []*result.Document{d}}, e.format, ro)
		})
		files, errs = append(files, r), append(errs, err)
	}
	return files, errors.Join(errs...)
}

// rendered is the content of a FILE, rendered before it is written.
type rendered struct {
	path string
	data []byte
}

// renderFile renders what render produces for path into memory.
func renderFile(path string, render func(io.Writer) error) (rendered, error) {
	var b bytes.Buffer
	err := render(&b)
	return rendered{path, b.Bytes()}, err
}

// writeRendered writes the files (through package outfile).
func writeRendered(files []rendered) error {
	var errs []error
	for _, r := range files {
		errs = append(errs, outfile.Write(r.path, func(w io.Writer) error {
			_, err := w.Write(r.data)
			return err
		}))
	}
	return errors.Join(errs...)
}

// hasFileExports reports whether exportFiles has a file to write.
func (o *output) hasFileExports() bool {
	for _, e := range o.exports() {
		if e.path != "-" && !outfile.InPlace(e.path) {
			return true
		}
	}
	return false
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
