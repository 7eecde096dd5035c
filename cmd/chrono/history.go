package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/chronograph/chronograph/compare"
	"github.com/chronograph/chronograph/history"
	"github.com/chronograph/chronograph/internal/plural"
	"github.com/chronograph/chronograph/profiles"
	"github.com/chronograph/chronograph/report"
	"github.com/chronograph/chronograph/result"
	"github.com/chronograph/chronograph/result/input"
	"github.com/chronograph/chronograph/stats"
	"github.com/chronograph/chronograph/unit"
)

func init() { register(newHistoryCmd) }

// historyFlags are the flags shared by chrono history's subcommands.
type historyFlags struct {
	db             string
	metric         string
	since          string
	machine        string
	anyMachine     bool
	html           string
	threshold      string
	failOn         string
	csv            string // history export --csv FILE, the old --export-csv
	out            output
	tags           []string
	allowDuplicate bool
	allRows        bool
	permutation    int
	minSegment     int
	seed           uint64
	noProfiles     bool
	maxProfile     int64
}

func newHistoryCmd() *cobra.Command {
	f := &historyFlags{}
	cmd := &cobra.Command{
		Use:   "history",
		Short: "Keep results over time and find when a measurement changed",
		Long: `chrono history keeps result documents in a store with their metadata (time,
git commit, branch and dirty flag of the working directory, --tag labels, the
machine's fingerprint) and finds the changes of each measurement over time with
E-divisive means change-point detection (a permutation test; as Apache Otava and
MongoDB's performance CI do).

The store is a SQLite file, .chrono/history.db in the working directory, unless
--db or $CHRONO_HISTORY_DB names another file or a PostgreSQL server
(postgres://USER:PASSWORD@HOST:5432/DATABASE) for a fleet of CI runners.
Subcommands that write a result document add it with --history (or
--history=DSN).

list, show, trend, check and export print text, or with --json their result
document (kind history: the series' run medians, runs and change points),
which --export-json, --export-csv and --export-markdown FILE write too and
chrono report renders again.`,
		Example: `  chrono run --history 'sleep 0.01'
  chrono history add results.json --tag ci=github
  chrono history trend 'sleep 0.01'
  chrono history check --fail-on regression`,
	}
	cmd.PersistentFlags().StringVar(&f.db, "db", "", "the store: a SQLite FILE or postgres://... (default $"+history.EnvDSN+", else "+history.DefaultPath+")")
	cmd.AddCommand(historyAddCmd(f), historyListCmd(f), historyShowCmd(f), historyTrendCmd(f), historyCheckCmd(f), historyExportCmd(f))
	return cmd
}

// openHistory opens the store named by --db, creating it when needed.
func openHistory(ctx context.Context, dsn string) (*history.Store, error) {
	return storeError(history.Open(ctx, dsn))
}

// readHistory opens the existing store named by --db, for the subcommands
// that only read.
func readHistory(ctx context.Context, dsn string) (*history.Store, error) {
	return storeError(history.OpenExisting(ctx, dsn))
}

// storeError makes an address that cannot name a store (an unsupported
// scheme, a directory) bad usage.
func storeError(s *history.Store, err error) (*history.Store, error) {
	var ae *history.AddressError
	if errors.As(err, &ae) {
		return nil, usageError{err}
	}
	return s, err
}

func historyAddCmd(f *historyFlags) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "add DOC...",
		Short: "Add result documents, hyperfine JSON exports or Go benchmark output to the history",
		Long: `chrono history add stores result documents, hyperfine JSON exports and Go
benchmark output with the git commit, branch and dirty flag of the working
directory, the --tag labels and the machine's fingerprint. The files are added
in one transaction: every one is stored, or (when one cannot be) none is. A
file whose content the store already holds is skipped with a note, unless
--allow-duplicate.

The CPU profiles a document refers to (chrono run --profile DIR, bench's
profiles: files beside the document) are stored with it, their bytes, not
their paths: the files of a CI job are gone when it ends, and chrono history
check traces a later regression to its functions from them. --no-profiles
keeps none; a profile larger than --max-profile-bytes, or one that cannot be
read, is not kept (with a note), and the document is stored all the same.`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			tags, err := history.ParseTags(f.tags)
			if err != nil {
				return usageError{err}
			}
			// git runs while the documents are read and the store is
			// opened.
			ctx := cmd.Context()
			readGit := startReadGit(ctx, ".")
			defer readGit()
			var entries []history.Entry
			for _, p := range args {
				data, err := os.ReadFile(p)
				if err != nil {
					return fmt.Errorf("history add: %w", err)
				}
				d, err := input.Read(data, p)
				if err != nil {
					return fmt.Errorf("history add: %s: %w", p, err)
				}
				e := history.Entry{Doc: d, Meta: history.Meta{Tags: tags, Source: p, AllowDuplicate: f.allowDuplicate}}
				if !f.noProfiles {
					e.Meta.Profiles = keepProfiles(cmd.ErrOrStderr(), p, d, f.maxProfile)
				}
				entries = append(entries, e)
			}
			s, err := openHistory(ctx, f.db)
			if err != nil {
				return err
			}
			defer s.Close()
			g := readGit()
			for i := range entries {
				entries[i].Meta.Git = g
			}
			// One transaction: every document is added, or none.
			added, err := s.AddAll(ctx, entries)
			if err != nil {
				return err
			}
			for i, a := range added {
				sayAdded(cmd, s, a, entries[i].Meta, entries[i].Meta.Source)
			}
			return nil
		},
	}
	cmd.Flags().StringArrayVar(&f.tags, "tag", nil, "a key=value label stored with the documents (repeatable)")
	cmd.Flags().BoolVar(&f.allowDuplicate, "allow-duplicate", false, "store a document even when the history holds one of the same content (by default it is skipped with a note)")
	cmd.Flags().BoolVar(&f.noProfiles, "no-profiles", false, "do not store the CPU profiles the documents refer to")
	cmd.Flags().Int64Var(&f.maxProfile, "max-profile-bytes", defaultMaxProfile, "the largest profile stored, in bytes (a larger one is left out with a note; default 8 MiB)")
	return cmd
}

// defaultMaxProfile is the largest profile history add stores by
// default: 8 MiB, hundreds of times a typical one (tens of KB).
const defaultMaxProfile = 8 << 20

// keepProfiles reads the CPU profiles that document d, read from
// docPath, refers to, for the store: their bytes, checked to be
// profiles pprof reads. One that is missing, unreadable or larger than
// max bytes is left out with a note on w.
func keepProfiles(w io.Writer, docPath string, d *result.Document, max int64) []history.Profile {
	var out []history.Profile
	for _, m := range d.Measurements {
		ref := m.Profile
		if ref == nil || ref.File == "" {
			continue
		}
		path := profiles.Resolve(docPath, ref.File)
		skip := func(why string) {
			fmt.Fprintf(w, "history: not keeping the profile of %s (%s): %s\n", m.Name, path, why)
		}
		fi, err := os.Stat(path)
		switch {
		case err != nil:
			skip(err.Error())
			continue
		case fi.Size() > max:
			skip(fmt.Sprintf("%d bytes, more than --max-profile-bytes %d", fi.Size(), max))
			continue
		}
		data, err := os.ReadFile(path)
		if err == nil {
			_, err = profiles.Parse(bytes.NewReader(data))
		}
		if err != nil {
			skip(err.Error())
			continue
		}
		out = append(out, history.Profile{Measurement: m.Name, Data: data})
	}
	return out
}

// startReadGit starts history.ReadGit of dir and returns a function that
// waits for its answer (and returns it again when called again).
func startReadGit(ctx context.Context, dir string) func() history.Git {
	c := make(chan history.Git, 1)
	go func() { c <- history.ReadGit(ctx, dir) }()
	return sync.OnceValue(func() history.Git { return <-c })
}

// addToHistory adds d to s and says so on standard error.
func addToHistory(ctx context.Context, cmd *cobra.Command, s *history.Store, d *result.Document, meta history.Meta, what string) error {
	a, err := s.Add(ctx, d, meta)
	if err != nil {
		return err
	}
	sayAdded(cmd, s, a, meta, what)
	return nil
}

// sayAdded says on standard error that the document what was added to s
// as a, with meta, or was not because s holds it already.
func sayAdded(cmd *cobra.Command, s *history.Store, a history.Added, meta history.Meta, what string) {
	w := cmd.ErrOrStderr()
	if dup := a.Duplicate; dup != nil {
		fmt.Fprintf(w, "history: not added: %s is already in %s as run %d (the same content, added %s); pass --allow-duplicate to store it again\n",
			what, s.Where(), dup.Run, dup.Added.UTC().Format("2006-01-02 15:04:05Z"))
		return
	}
	git := meta.Git.Commit
	if len(git) > 12 {
		git = git[:12]
	}
	if git == "" {
		git = "unknown: " + meta.Git.Note
	} else if meta.Git.Dirty != nil && *meta.Git.Dirty {
		git += " (dirty)"
	}
	kept := ""
	if a.Profiles > 0 {
		kept = ", " + plural.Count(a.Profiles, "profile")
	}
	fmt.Fprintf(w, "history: added %s to %s as run %d: %d metric series%s, commit %s\n", what, s.Where(), a.Run, a.Points, kept, git)
	for _, sk := range a.Skipped {
		fmt.Fprintf(w, "history: not stored: %s\n", sk)
	}
}

func historyListCmd(f *historyFlags) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "list",
		Short: "List the measurements in the history",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return historyView(cmd, f, func(ctx context.Context, s *history.Store) (*result.Document, error) {
				return s.ListDocument(ctx, meta(cmd, nil))
			})
		},
	}
	addOutputFlags(cmd, f)
	return cmd
}

// historyView writes the document of a history view that build reads
// from the store of --db (opened after the output flags are checked): the
// text, or the document with --json, and the exports.
func historyView(cmd *cobra.Command, f *historyFlags, build func(context.Context, *history.Store) (*result.Document, error), extra ...file) error {
	if err := f.out.check(extra...); err != nil {
		return err
	}
	s, err := readHistory(cmd.Context(), f.db)
	if err != nil {
		return err
	}
	defer s.Close()
	d, err := build(cmd.Context(), s)
	var qe *history.QueryError
	if errors.As(err, &qe) {
		return usageError{err}
	}
	if err != nil {
		return err
	}
	return f.out.emit(cmd, d, report.Options{})
}

// addOutputFlags gives a history view the output grammar of every
// subcommand (--json, --export-json, --export-csv, --export-markdown,
// --redact), but not --history: a history document is not added to a
// history.
func addOutputFlags(cmd *cobra.Command, f *historyFlags) {
	var all pflag.FlagSet
	f.out.register(&all)
	for _, name := range []string{"json", "export-json", "export-csv", "export-markdown", "redact"} {
		cmd.Flags().AddFlag(all.Lookup(name))
	}
}

// query is the selection of NAME by the series flags: the newest run's
// machine, the machines --machine names, or with --any-machine the runs
// of every machine as one series (each machine its own series instead,
// with each).
func (f *historyFlags) query(name string, each bool) (history.Query, error) {
	q := history.Query{Name: name, Metric: f.metric, Machine: f.machine, EachMachine: each && f.machine == "", Merged: f.anyMachine && f.machine == ""}
	if f.since != "" {
		since, err := parseSince(f.since, time.Now())
		if err != nil {
			return q, err
		}
		q.Since = since
	}
	return q, nil
}

// parseSince reads --since: a date (2006-01-02), an RFC 3339 time, or an
// age such as 72h or 30d.
func parseSince(s string, now time.Time) (time.Time, error) {
	if t, err := time.Parse(time.RFC3339, s); err == nil {
		return t, nil
	}
	if t, err := time.ParseInLocation("2006-01-02", s, time.Local); err == nil {
		return t, nil
	}
	if d, ok := strings.CutSuffix(s, "d"); ok {
		if n, err := strconv.ParseFloat(d, 64); err == nil && n >= 0 {
			return now.Add(-time.Duration(n * 24 * float64(time.Hour))), nil
		}
	}
	if d, err := time.ParseDuration(s); err == nil && d >= 0 {
		return now.Add(-d), nil
	}
	return time.Time{}, usagef("--since %q: give a date (2026-11-30), an RFC 3339 time or an age (72h, 30d)", s)
}

// significance is the level of the permutation test of each change.
const significance = 0.05

// checkOptions are the detector flags (and the threshold) as history
// takes them.
func (f *historyFlags) checkOptions(threshold float64) history.CheckOptions {
	return history.CheckOptions{Threshold: threshold,
		Detector: stats.EDivisiveOptions{Permutations: f.permutation, MinSegment: f.minSegment, Seed: f.seed, Significance: significance}}
}

// checkDetector refuses --permutations and --min-segment that cannot
// work, before the store is read: a count of permutations whose smallest
// p-value, 1/(n+1), is above the level could never find a change (and 0
// would be taken as the default), and a segment needs two runs for a
// spread.
func checkDetector(f *historyFlags) error {
	if need := stats.MinPermutations(significance); f.permutation < need {
		return usagef("history: --permutations %d can never find a change: the permutation test's p-value is (k + 1)/(n + 1) for k of n permutations, at least 1/(n + 1), so reaching p ≤ %g takes n ≥ 1/%g − 1 = %d: give --permutations %d or more (199 is the default)",
			f.permutation, significance, significance, need, need)
	}
	if f.minSegment < 2 {
		return usagef("history: --min-segment %d is below 2: a segment needs two runs or more to have a spread; give at least 2 (5 is the default)", f.minSegment)
	}
	return nil
}

func addDetectorFlags(cmd *cobra.Command, f *historyFlags) {
	fl := cmd.Flags()
	fl.IntVar(&f.permutation, "permutations", 199, "permutations of the significance test of each change (at least 19: the p-value is (k+1)/(n+1))")
	fl.IntVar(&f.minSegment, "min-segment", 5, "the fewest runs between two changes (at least 2)")
	fl.Uint64Var(&f.seed, "seed", 1, "seed of the permutations (the same seed gives the same answer)")
}

func addSeriesFlags(cmd *cobra.Command, f *historyFlags) {
	fl := cmd.Flags()
	fl.StringVar(&f.metric, "metric", "", "the metric (default wall when stored, else every metric but iterations)")
	fl.StringVar(&f.since, "since", "", "only runs since a date (2026-11-30), an RFC 3339 time or an age (72h, 30d)")
	fl.StringVar(&f.machine, "machine", "", "only runs on the machine whose fingerprint starts with F (default: the newest run's machine)")
	fl.BoolVar(&f.anyMachine, "any-machine", false, "compare runs of every machine (each machine its own series with check; one series with trend)")
}

func historyShowCmd(f *historyFlags) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "show NAME",
		Short: "Show every stored run of a measurement, all metrics, all machines",
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return historyView(cmd, f, func(ctx context.Context, s *history.Store) (*result.Document, error) {
				return s.ShowDocument(ctx, args[0], meta(cmd, nil))
			})
		},
	}
	addOutputFlags(cmd, f)
	return cmd
}

func historyTrendCmd(f *historyFlags) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "trend NAME",
		Short: "A measurement over time: a table with a sparkline, the change points marked",
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := checkDetector(f); err != nil {
				return err
			}
			q, err := f.query(args[0], false)
			if err != nil {
				return err
			}
			var doc *result.Document
			err = historyView(cmd, f, func(ctx context.Context, s *history.Store) (*result.Document, error) {
				doc, err = s.TrendDocument(ctx, q, f.checkOptions(0), f.allRows, meta(cmd, nil))
				return doc, err
			}, file{"--html", f.html})
			if err != nil || f.html == "" {
				return err
			}
			return writeFile(f.html, cmd.OutOrStdout(), func(out io.Writer) error {
				return report.Render(out, report.Subject{Docs: []*result.Document{doc}}, report.HTML, report.Options{})
			})
		},
	}
	addSeriesFlags(cmd, f)
	addDetectorFlags(cmd, f)
	cmd.Flags().StringVar(&f.html, "html", "", "also write the trend as an HTML page with a plot to FILE")
	markPaths(cmd.Flags(), fileOrStdout, "html")
	cmd.Flags().BoolVar(&f.allRows, "all", false, "a row for every run (by default, beyond 40 runs, only the runs around each change and the newest)")
	addOutputFlags(cmd, f)
	return cmd
}

func historyCheckCmd(f *historyFlags) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "check [NAME...]",
		Short: "Find the changes of every series; exit 1 when the newest is a regression (--fail-on regression)",
		Long: `chrono history check finds the change points of each measurement's series
(every measurement, or the NAMEs given) with E-divisive means over the runs'
medians, and reports each change with its commit range, the ratio of the
medians of the segments on either side with a 95% bootstrap interval, and the
permutation test's p-value. A change is a regression when the metric got worse
by more than --threshold and the interval excludes 1, an improvement when it got
better likewise, else no change (the verdicts of chrono report --baseline's
gate). With --fail-on regression chrono exits 1 when the newest change of some
series is a regression.

Under each regression, where its time went: when the store keeps profiles of
the measurement (history add stores those a document refers to, as made by
chrono run --profile DIR or bench's profiles) on both sides of the change,
the functions whose flat and cumulative CPU time per run (per iteration for
benchmarks) changed most, as chrono report --baseline prints them: the
profiles of up to 3 runs nearest the change on each side, merged with every
run weighted equally. Without profiles on a side, one line says so.

Only runs of one machine fingerprint are compared: each machine's runs form
their own series (--machine keeps one machine).`,
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := checkDetector(f); err != nil {
				return err
			}
			threshold, err := parseThreshold(f.threshold)
			if err != nil {
				return err
			}
			gate := f.failOn != ""
			if gate && compare.Verdict(f.failOn) != compare.Regression {
				return usagef("--fail-on %q: the only value is %s", f.failOn, compare.Regression)
			}
			q, err := f.query("", true)
			if err != nil {
				return err
			}
			var doc *result.Document
			err = historyView(cmd, f, func(ctx context.Context, s *history.Store) (*result.Document, error) {
				doc, err = s.CheckDocument(ctx, args, q, f.checkOptions(threshold), meta(cmd, nil))
				return doc, err
			})
			if err != nil || !gate {
				return err
			}
			if regressed := regressions(doc); len(regressed) > 0 {
				return exitError{code: exitFailure, err: errors.New("history check: regression: " + strings.Join(regressed, "; "))}
			}
			return nil
		},
	}
	fl := cmd.Flags()
	fl.StringVar(&f.metric, "metric", "", "the metric (default wall when stored, else every metric but iterations)")
	fl.StringVar(&f.since, "since", "", "only runs since a date (2026-11-30), an RFC 3339 time or an age (72h, 30d)")
	fl.StringVar(&f.machine, "machine", "", "only the machine whose fingerprint starts with F (default: every machine, each its own series)")
	fl.BoolVar(&f.anyMachine, "any-machine", false, "one series of the runs of every machine (compares results across machines)")
	fl.StringVar(&f.threshold, "threshold", "5%", "the smallest change that counts as a regression or an improvement, in percent")
	fl.StringVar(&f.failOn, "fail-on", "", "regression: exit 1 when the newest change of some series is a regression")
	cmd.RegisterFlagCompletionFunc("fail-on", func(*cobra.Command, []string, string) ([]string, cobra.ShellCompDirective) {
		return []string{string(compare.Regression)}, cobra.ShellCompDirectiveNoFileComp
	})
	addDetectorFlags(cmd, f)
	addOutputFlags(cmd, f)
	return cmd
}

// regressions names the series of a check document whose newest change
// is a regression (compare.Regression, the verdict chrono report's gate
// fails on), with its commit range and ratio.
func regressions(d *result.Document) []string {
	var out []string
	for _, m := range d.Measurements {
		det := m.Detail.History
		if c := det.Newest(); c != nil && compare.Verdict(c.Verdict) == compare.Regression {
			out = append(out, fmt.Sprintf("%s %s (%s..%s, %s×)", m.Name, det.Metric, shortCommit(c.BeforeCommit), shortCommit(c.AfterCommit), unit.Ratio(c.Ratio, c.Lo, c.Hi)))
		}
	}
	return out
}

// shortCommit is a commit's first 10 hex digits, "-" when unknown.
func shortCommit(c string) string {
	if c == "" {
		return "-"
	}
	return c[:min(len(c), 10)]
}

// csvNote is what history export --csv FILE, the old spelling of
// --export-csv FILE, says on standard error.
const csvNote = "chrono: note: history export --csv FILE is now --export-csv FILE (as in every subcommand); the old flag will be removed in a later release"

func historyExportCmd(f *historyFlags) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "export NAME",
		Short: "A measurement's series: its runs as text, CSV (--export-csv) or a result document (--json, --export-json)",
		Long: `chrono history export prints a measurement's series (the runs of its metric on
the newest run's machine, or as --metric, --since, --machine and --any-machine
select): every run with its time, commit, branch, machine, median and sample
count. --json prints the history document instead, --export-json,
--export-csv and --export-markdown FILE write it too; the CSV has one record
per run: measurement, metric, unit, run, time, commit, branch, dirty,
machine, median, n.`,
		Example: `  chrono history export 'sleep 0.01'
  chrono history export 'sleep 0.01' --export-csv series.csv
  chrono history export 'sleep 0.01' --json > series.json`,
		Args: func(cmd *cobra.Command, args []string) error {
			if len(args) > 1 && f.out.json {
				return usagef("history export: --json prints the document on standard output and takes no FILE (%q was read as a second NAME): write it to a file with --export-json FILE", args[1])
			}
			return cobra.ExactArgs(1)(cmd, args)
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			if cmd.Flags().Changed("csv") {
				fmt.Fprintln(cmd.ErrOrStderr(), csvNote)
				if f.out.exportCSV != "" {
					return usagef("history export: --csv is the old name of --export-csv: give one of them")
				}
				f.out.exportCSV = f.csv
			}
			q, err := f.query(args[0], false)
			if err != nil {
				return err
			}
			return historyView(cmd, f, func(ctx context.Context, s *history.Store) (*result.Document, error) {
				return s.ExportDocument(ctx, q, meta(cmd, nil))
			})
		},
	}
	addSeriesFlags(cmd, f)
	addOutputFlags(cmd, f)
	cmd.Flags().StringVar(&f.csv, "csv", "", "the old name of --export-csv")
	markPaths(cmd.Flags(), fileOrStdout, "csv")
	cmd.Flags().MarkHidden("csv")
	return cmd
}

// addHistory adds d to the store of --history (see output), with the git
// state of the working directory. An incomplete document (interrupted) is
// not added: a partial run would read as a change.
func (o *output) addHistory(cmd *cobra.Command, d *result.Document) error {
	if o.history == "" {
		return nil
	}
	if d.Incomplete {
		fmt.Fprintln(cmd.ErrOrStderr(), "history: not added: the run is incomplete (interrupted); add a complete run")
		return nil
	}
	dsn := o.history
	if dsn == historyDefault {
		dsn = ""
	}
	ctx := cmd.Context()
	readGit := startReadGit(ctx, ".") // while the store is opened
	defer readGit()
	s, err := openHistory(ctx, dsn)
	if err != nil {
		return err
	}
	defer s.Close()
	hm := history.Meta{Git: readGit(), Source: strings.Join(invocation(cmd), " ")}
	// The profiles the document refers to (chrono run --profile), named
	// relative to the file it is exported to.
	hm.Profiles = keepProfiles(cmd.ErrOrStderr(), o.exportJSON, d, defaultMaxProfile)
	return addToHistory(ctx, cmd, s, d, hm, "the "+d.Kind+" document")
}

// checkHistory opens the store of --history before anything is measured,
// so that a bad address or file fails at once, not after the benchmark.
func (o *output) checkHistory() error {
	if o.history == "" {
		return nil
	}
	dsn := o.history
	if dsn == historyDefault {
		dsn = ""
	}
	s, err := openHistory(context.Background(), dsn)
	var ue usageError
	if errors.As(err, &ue) {
		return usageError{fmt.Errorf("--history: %w", ue.err)}
	}
	if err != nil {
		return fmt.Errorf("--history: %w", err)
	}
	return s.Close()
}
