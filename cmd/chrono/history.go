package main

import (
	"bytes"
	"context"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"

	"github.com/chronograph/chronograph/history"
	"github.com/chronograph/chronograph/internal/plural"
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
	csv, json      string
	tags           []string
	allowDuplicate bool
	allRows        bool
	permutation    int
	minSegment     int
	seed           uint64
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
--history=DSN).`,
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
		Args:  cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			tags, err := history.ParseTags(f.tags)
			if err != nil {
				return usageError{err}
			}
			type in struct {
				path string
				doc  *result.Document
			}
			var docs []in
			for _, p := range args {
				data, err := os.ReadFile(p)
				if err != nil {
					return fmt.Errorf("history add: %w", err)
				}
				d, err := input.Read(data, p)
				if err != nil {
					return fmt.Errorf("history add: %s: %w", p, err)
				}
				docs = append(docs, in{p, d})
			}
			ctx := cmd.Context()
			s, err := openHistory(ctx, f.db)
			if err != nil {
				return err
			}
			defer s.Close()
			g := history.ReadGit(ctx, ".")
			for _, d := range docs {
				if err := addToHistory(ctx, cmd, s, d.doc, history.Meta{Git: g, Tags: tags, Source: d.path, AllowDuplicate: f.allowDuplicate}, d.path); err != nil {
					return err
				}
			}
			return nil
		},
	}
	cmd.Flags().StringArrayVar(&f.tags, "tag", nil, "a key=value label stored with the documents (repeatable)")
	cmd.Flags().BoolVar(&f.allowDuplicate, "allow-duplicate", false, "store a document even when the history holds one of the same content (by default it is skipped with a note)")
	return cmd
}

// addToHistory adds d to s and says so on standard error.
func addToHistory(ctx context.Context, cmd *cobra.Command, s *history.Store, d *result.Document, meta history.Meta, what string) error {
	a, err := s.Add(ctx, d, meta)
	if err != nil {
		return err
	}
	w := cmd.ErrOrStderr()
	if dup := a.Duplicate; dup != nil {
		fmt.Fprintf(w, "history: not added: %s is already in %s as run %d (the same content, added %s); pass --allow-duplicate to store it again\n",
			what, s.Where(), dup.Run, stamp(dup.Added))
		return nil
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
	fmt.Fprintf(w, "history: added %s to %s as run %d: %d metric series, commit %s\n", what, s.Where(), a.Run, a.Points, git)
	for _, sk := range a.Skipped {
		fmt.Fprintf(w, "history: not stored: %s\n", sk)
	}
	return nil
}

func historyListCmd(f *historyFlags) *cobra.Command {
	return &cobra.Command{
		Use:   "list",
		Short: "List the measurements in the history",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			s, err := readHistory(cmd.Context(), f.db)
			if err != nil {
				return err
			}
			defer s.Close()
			ls, err := s.List(cmd.Context())
			if err != nil {
				return err
			}
			w := cmd.OutOrStdout()
			if len(ls) == 0 {
				fmt.Fprintf(w, "%s holds no results yet: add some with chrono history add FILE or --history\n", s.Where())
				return nil
			}
			tw := newTable(w)
			fmt.Fprintln(tw, "measurement\tmetric\tunit\truns\tmachines\tfirst\tlast")
			for _, x := range ls {
				fmt.Fprintf(tw, "%s\t%s\t%s\t%d\t%d\t%s\t%s\n", x.Name, x.Metric, x.Unit, x.Runs, x.Machines, stamp(x.First), stamp(x.Last))
			}
			return tw.Flush()
		},
	}
}

// table is a tabwriter whose lines lose their trailing blanks (an empty
// last column pads them) when flushed.
type table struct {
	*tabwriter.Writer
	buf *bytes.Buffer
	w   io.Writer
}

func newTable(w io.Writer) *table {
	b := &bytes.Buffer{}
	return &table{Writer: tabwriter.NewWriter(b, 0, 0, 2, ' ', 0), buf: b, w: w}
}

// Flush writes the table to its writer.
func (t *table) Flush() error {
	if err := t.Writer.Flush(); err != nil {
		return err
	}
	lines := strings.SplitAfter(t.buf.String(), "\n")
	for i, l := range lines {
		if strings.HasSuffix(l, "\n") {
			lines[i] = strings.TrimRight(l[:len(l)-1], " ") + "\n"
		}
	}
	t.buf.Reset()
	_, err := io.WriteString(t.w, strings.Join(lines, ""))
	return err
}

func stamp(t time.Time) string { return t.UTC().Format("2006-01-02 15:04:05Z") }

func short(commit string) string {
	if commit == "" {
		return "-"
	}
	if len(commit) > 10 {
		return commit[:10]
	}
	return commit
}

// series is one measurement's metric on one machine.
type series struct {
	name, metric string
	machine      history.Machine
	merged       bool // the runs of every machine
	points       []history.Point
}

// loadSeries reads the series of name: of metric (default: "wall" when
// stored, else every metric), on the newest run's machine or the machine
// given, or on every machine (each its own series unless merged).
func loadSeries(ctx context.Context, s *history.Store, f *historyFlags, name string, merge bool) ([]series, error) {
	ls, err := s.List(ctx)
	if err != nil {
		return nil, err
	}
	var metrics []string
	for _, x := range ls {
		if x.Name == name {
			metrics = append(metrics, x.Metric)
		}
	}
	if len(metrics) == 0 {
		return nil, fmt.Errorf("history: no measurement named %q in %s: see chrono history list", name, s.Where())
	}
	switch {
	case f.metric != "":
		if !slices.Contains(metrics, f.metric) {
			return nil, usagef("history: %q has no metric %q: it has %s", name, f.metric, strings.Join(metrics, ", "))
		}
		metrics = []string{f.metric}
	case slices.Contains(metrics, "wall"):
		metrics = []string{"wall"}
	}
	var since time.Time
	if f.since != "" {
		if since, err = parseSince(f.since, time.Now()); err != nil {
			return nil, err
		}
	}
	var out []series
	for _, m := range metrics {
		ms, err := s.Machines(ctx, name, m)
		if err != nil {
			return nil, err
		}
		var pick []history.Machine
		switch {
		case merge:
			pick = []history.Machine{{}}
		case f.machine != "":
			for _, mc := range ms {
				if strings.HasPrefix(mc.Hash, f.machine) {
					pick = append(pick, mc)
				}
			}
			if len(pick) == 0 {
				var hs []string
				for _, mc := range ms {
					hs = append(hs, mc.Hash)
				}
				return nil, usagef("history: no run of %q on machine %q: its machines are %s", name, f.machine, strings.Join(hs, ", "))
			}
		case f.anyMachine:
			pick = ms
		default:
			pick = ms[:1] // the newest run's machine
		}
		for _, mc := range pick {
			filter := history.Filter{Since: since, Machine: mc.Hash, ExactMachine: true}
			if merge {
				filter.Machine, filter.ExactMachine = "", false
			}
			pts, err := s.Series(ctx, name, m, filter)
			if err != nil {
				return nil, err
			}
			out = append(out, series{name: name, metric: m, machine: mc, merged: merge, points: pts})
		}
	}
	return out, nil
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

// formatValue formats v, a run's median in unit u, by the digits rule
// with nothing known of its precision (at most unit.MaxSignificant
// digits, none it does not know).
func formatValue(v float64, u string) string {
	base, per, _ := strings.Cut(u, "/")
	suffix := ""
	if per != "" {
		suffix = "/" + per
	}
	switch base {
	case result.UnitNs:
		return unit.Duration(v, unit.Precision{}) + suffix
	case result.UnitBytes:
		return unit.FormatBytes(v) + suffix
	}
	if u == "" || u == "1" {
		return unit.Plain(v, unit.Precision{})
	}
	return unit.Plain(v, unit.Precision{}) + " " + u
}

// significance is the level of the permutation test of each change.
const significance = 0.05

func detector(f *historyFlags) stats.EDivisiveOptions {
	return stats.EDivisiveOptions{Permutations: f.permutation, MinSegment: f.minSegment, Seed: f.seed, Significance: significance}
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
	fl.StringVar(&f.metric, "metric", "", "the metric (default wall when stored, else every metric)")
	fl.StringVar(&f.since, "since", "", "only runs since a date (2026-11-30), an RFC 3339 time or an age (72h, 30d)")
	fl.StringVar(&f.machine, "machine", "", "only runs on the machine whose fingerprint starts with F (default: the newest run's machine)")
	fl.BoolVar(&f.anyMachine, "any-machine", false, "compare runs of every machine (each machine its own series with check; one series with trend)")
}

func historyShowCmd(f *historyFlags) *cobra.Command {
	return &cobra.Command{
		Use:   "show NAME",
		Short: "Show every stored run of a measurement, all metrics, all machines",
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			s, err := readHistory(cmd.Context(), f.db)
			if err != nil {
				return err
			}
			defer s.Close()
			all := &historyFlags{metric: "-"}
			ls, err := s.List(cmd.Context())
			if err != nil {
				return err
			}
			w := cmd.OutOrStdout()
			found := false
			for _, x := range ls {
				if x.Name != args[0] {
					continue
				}
				found = true
				all.metric = x.Metric
				ss, err := loadSeries(cmd.Context(), s, all, x.Name, true)
				if err != nil {
					return err
				}
				fmt.Fprintf(w, "%s, %s (%s): %s\n", x.Name, x.Metric, x.Unit, plural.Count(x.Runs, "run"))
				tw := newTable(w)
				fmt.Fprintln(tw, "  run\ttime\tcommit\tbranch\tmachine\tmedian\tn\ttags")
				for _, p := range ss[0].points {
					fmt.Fprintf(tw, "  %d\t%s\t%s\t%s\t%s\t%s\t%d\t%s\n", p.Run, stamp(p.Time), commitText(p), orDash(p.Branch), orDash(p.Machine), formatValue(p.Median, p.Unit), p.N, tagsText(p.Tags))
				}
				tw.Flush()
				fmt.Fprintln(w)
			}
			if !found {
				return fmt.Errorf("history: no measurement named %q in %s: see chrono history list", args[0], s.Where())
			}
			return nil
		},
	}
}

func commitText(p history.Point) string {
	c := short(p.Commit)
	if p.Dirty != nil && *p.Dirty {
		c += "+dirty"
	}
	return c
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

func tagsText(t map[string]string) string {
	var kv []string
	for k, v := range t {
		kv = append(kv, k+"="+v)
	}
	slices.Sort(kv)
	if len(kv) == 0 {
		return "-"
	}
	return strings.Join(kv, ",")
}

func historyTrendCmd(f *historyFlags) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "trend NAME",
		Short: "A measurement over time: a table with a sparkline, the change points marked",
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := checkFiles("", []file{{"--html", f.html}}); err != nil {
				return err
			}
			if err := checkDetector(f); err != nil {
				return err
			}
			s, err := readHistory(cmd.Context(), f.db)
			if err != nil {
				return err
			}
			defer s.Close()
			ss, err := loadSeries(cmd.Context(), s, f, args[0], f.anyMachine && f.machine == "")
			if err != nil {
				return err
			}
			w := cmd.OutOrStdout()
			var plots []report.HistoryPlot
			for _, se := range ss {
				chs, err := history.Changes(se.points, history.CheckOptions{Detector: detector(f)})
				if err != nil {
					return err
				}
				writeTrend(w, se, chs, f.allRows)
				hp := report.HistoryPlot{Title: se.name + ", " + se.metric + machineTitle(se)}
				for _, p := range se.points {
					hp.Times = append(hp.Times, p.Time)
					hp.Medians = append(hp.Medians, p.Median)
					hp.Labels = append(hp.Labels, short(p.Commit))
					hp.Unit = p.Unit
				}
				for _, c := range chs {
					hp.Changes = append(hp.Changes, c.Index)
				}
				plots = append(plots, hp)
			}
			if f.html != "" {
				return report.WriteFile(f.html, w, func(out io.Writer) error { return report.WriteHistoryHTML(out, plots) })
			}
			return nil
		},
	}
	addSeriesFlags(cmd, f)
	addDetectorFlags(cmd, f)
	cmd.Flags().StringVar(&f.html, "html", "", "also write the trend as an HTML page with a plot to FILE")
	markPaths(cmd.Flags(), fileOrStdout, "html")
	cmd.Flags().BoolVar(&f.allRows, "all", false, "a row for every run (by default, beyond "+strconv.Itoa(trendRows)+" runs, only the runs around each change and the newest)")
	return cmd
}

func machineTitle(se series) string {
	switch {
	case se.merged:
		return " (every machine)"
	case se.machine.Hash == "":
		return " on an unknown machine"
	}
	return " on " + se.machine.Hash
}

// trendRows is how many runs trend shows in full before it shortens the
// table to the runs around each change and the newest ones.
const trendRows = 40

// rowsToShow picks the rows of a trend table: all of n when they are few
// (or all is set), else the first run, the two runs on either side of
// each change and the newest runs.
func rowsToShow(n int, chs []history.Change, all bool) []bool {
	show := make([]bool, n)
	if all || n <= trendRows {
		for i := range show {
			show[i] = true
		}
		return show
	}
	show[0] = true
	for _, c := range chs {
		for i := max(0, c.Index-2); i < min(n, c.Index+2); i++ {
			show[i] = true
		}
	}
	for i := max(0, n-10); i < n; i++ {
		show[i] = true
	}
	return show
}

// writeTrend prints a series: a header, its sparkline, one row per run
// (changes marked; only the runs around the changes and the newest when
// there are many, unless allRows) and the changes.
func writeTrend(w io.Writer, se series, chs []history.Change, allRows bool) {
	fmt.Fprintf(w, "%s, %s: %s on %s\n", se.name, se.metric, plural.Count(len(se.points), "run"), machineText(se))
	if len(se.points) == 0 {
		fmt.Fprintln(w, "  no runs (check --since and --machine)")
		return
	}
	meds := make([]float64, len(se.points))
	for i, p := range se.points {
		meds[i] = p.Median
	}
	u := se.points[0].Unit
	fmt.Fprintf(w, "  %s  %s … %s (run medians in time order)\n", report.Sparkline(meds, 60, report.Options{}), formatValue(slices.Min(meds), u), formatValue(slices.Max(meds), u))
	at := map[int]history.Change{}
	for _, c := range chs {
		at[c.Index] = c
	}
	tw := newTable(w)
	fmt.Fprintln(tw, "  \ttime\tcommit\tmedian\tn\t")
	show := rowsToShow(len(se.points), chs, allRows)
	for i, p := range se.points {
		if !show[i] {
			if i == 0 || show[i-1] {
				fmt.Fprintf(tw, "  \t…\t\t\t\t\n")
			}
			continue
		}
		mark, note := " ", ""
		if c, ok := at[i]; ok {
			mark, note = "▶", fmt.Sprintf("change: %s× (p = %s)", unit.Sig(c.Ratio, 3), report.PValue(c.P))
		}
		fmt.Fprintf(tw, "  %s\t%s\t%s\t%s\t%d\t%s\n", mark, stamp(p.Time), commitText(p), formatValue(p.Median, p.Unit), p.N, note)
	}
	tw.Flush()
	if len(chs) == 0 {
		fmt.Fprintln(w, "  no change point (E-divisive means, permutation test at p ≤ 0.05)")
	}
	fmt.Fprintln(w)
}

func machineText(se series) string {
	switch {
	case se.merged:
		return "every machine"
	case se.machine.Hash == "":
		return "an unknown machine (no environment recorded)"
	}
	return "machine " + se.machine.String()
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
by more than --threshold and the interval excludes 1. With --fail-on regression
chrono exits 1 when the newest change of some series is a regression.

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
			if f.failOn != "" && f.failOn != "regression" {
				return usagef("--fail-on %q: the only value is regression", f.failOn)
			}
			s, err := readHistory(cmd.Context(), f.db)
			if err != nil {
				return err
			}
			defer s.Close()
			names := args
			if len(names) == 0 {
				ls, err := s.List(cmd.Context())
				if err != nil {
					return err
				}
				for _, x := range ls {
					if !slices.Contains(names, x.Name) {
						names = append(names, x.Name)
					}
				}
			}
			local := *f
			local.anyMachine = f.machine == "" // each machine its own series
			w := cmd.OutOrStdout()
			var regressed []string
			checked, changed := 0, 0
			for _, name := range names {
				ss, err := loadSeries(cmd.Context(), s, &local, name, f.anyMachine && f.machine == "")
				if err != nil {
					return err
				}
				for _, se := range ss {
					checked++
					chs, err := history.Changes(se.points, history.CheckOptions{Threshold: threshold, Detector: detector(f)})
					if err != nil {
						return err
					}
					if len(chs) == 0 {
						continue
					}
					changed++
					fmt.Fprintf(w, "%s, %s on %s: %s, %s\n", se.name, se.metric, machineText(se), plural.Count(len(se.points), "run"), plural.Count(len(chs), "change"))
					tw := newTable(w)
					fmt.Fprintln(tw, "  commits\tbefore\tafter\tratio\t95% CI\tp\tverdict")
					for _, c := range chs {
						fmt.Fprintf(tw, "  %s..%s\t%s (%s)\t%s (%s)\t%s\t[%s, %s]\t%s\t%s\n",
							short(c.Before.Commit), short(c.After.Commit), formatValue(c.MedianBefore, c.Before.Unit), plural.Count(c.NBefore, "run"),
							formatValue(c.MedianAfter, c.After.Unit), plural.Count(c.NAfter, "run"), unit.Sig(c.Ratio, 3), unit.Sig(c.Lo, 3), unit.Sig(c.Hi, 3), report.PValue(c.P), c.Verdict)
					}
					tw.Flush()
					if last := chs[len(chs)-1]; last.Verdict == history.Regression {
						regressed = append(regressed, fmt.Sprintf("%s %s (%s..%s, %s×)", se.name, se.metric, short(last.Before.Commit), short(last.After.Commit), unit.Sig(last.Ratio, 3)))
					}
				}
			}
			fmt.Fprintf(w, "%d series checked, %d with changes, %d whose newest change is a regression beyond %s%% (E-divisive means, permutation test at p ≤ %g, %d permutations, segments of at least %d runs)\n",
				checked, changed, len(regressed), strconv.FormatFloat(threshold*100, 'g', -1, 64), significance, f.permutation, f.minSegment)
			if f.failOn == "regression" && len(regressed) > 0 {
				return exitError{code: exitFailure, err: errors.New("history check: regression: " + strings.Join(regressed, "; "))}
			}
			return nil
		},
	}
	fl := cmd.Flags()
	fl.StringVar(&f.metric, "metric", "", "the metric (default wall when stored, else every metric)")
	fl.StringVar(&f.since, "since", "", "only runs since a date (2026-11-30), an RFC 3339 time or an age (72h, 30d)")
	fl.StringVar(&f.machine, "machine", "", "only the machine whose fingerprint starts with F (default: every machine, each its own series)")
	fl.BoolVar(&f.anyMachine, "any-machine", false, "one series of the runs of every machine (compares results across machines)")
	fl.StringVar(&f.threshold, "threshold", "5%", "the smallest change that counts as a regression or an improvement, in percent")
	fl.StringVar(&f.failOn, "fail-on", "", "regression: exit 1 when the newest change of some series is a regression")
	addDetectorFlags(cmd, f)
	return cmd
}

func historyExportCmd(f *historyFlags) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "export NAME (--csv FILE | --json FILE)",
		Short: "Write a measurement's series as CSV or as a result document",
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if f.csv == "" && f.json == "" {
				return usagef("history export: give --csv FILE or --json FILE (- = standard output)")
			}
			if err := checkFiles("", []file{{"--csv", f.csv}, {"--json", f.json}}); err != nil {
				return err
			}
			s, err := readHistory(cmd.Context(), f.db)
			if err != nil {
				return err
			}
			defer s.Close()
			ss, err := loadSeries(cmd.Context(), s, f, args[0], f.anyMachine && f.machine == "")
			if err != nil {
				return err
			}
			w := cmd.OutOrStdout()
			if f.csv != "" {
				if err := report.WriteFile(f.csv, w, func(out io.Writer) error { return writeSeriesCSV(out, ss) }); err != nil {
					return err
				}
			}
			if f.json != "" {
				d := seriesDocument(ss, invocation(cmd))
				if err := report.WriteFile(f.json, w, func(out io.Writer) error { return result.Encode(out, d) }); err != nil {
					return err
				}
			}
			return nil
		},
	}
	addSeriesFlags(cmd, f)
	cmd.Flags().StringVar(&f.csv, "csv", "", "write the series as CSV to FILE (- = standard output)")
	cmd.Flags().StringVar(&f.json, "json", "", "write the series as a result document to FILE (- = standard output)")
	markPaths(cmd.Flags(), fileOrStdout, "csv", "json")
	return cmd
}

func writeSeriesCSV(w io.Writer, ss []series) error {
	cw := csv.NewWriter(w)
	cw.Write([]string{"measurement", "metric", "unit", "run", "time", "commit", "branch", "dirty", "machine", "median", "n"})
	for _, se := range ss {
		for _, p := range se.points {
			dirty := ""
			if p.Dirty != nil {
				dirty = strconv.FormatBool(*p.Dirty)
			}
			cw.Write([]string{se.name, se.metric, p.Unit, strconv.FormatInt(p.Run, 10), p.Time.UTC().Format(time.RFC3339Nano), p.Commit, p.Branch, dirty, p.Machine,
				strconv.FormatFloat(p.Median, 'g', -1, 64), strconv.Itoa(p.N)})
		}
	}
	cw.Flush()
	return cw.Error()
}

// seriesDocument is a series as a result document of kind numbers: one
// measurement per series whose metric's values are the runs' medians in
// time order.
func seriesDocument(ss []series, args []string) *result.Document {
	d := result.New("numbers", result.Tool{Name: "chrono", Version: readBuildInfo().Version})
	d.Args = args[1:]
	d.End = d.Start
	for _, se := range ss {
		m := result.Measurement{Name: se.name, Primary: se.metric, Parameters: map[string]string{"series": "run medians in time order"}}
		if se.machine.Hash != "" {
			m.Parameters["machine"] = se.machine.Hash
		}
		mt := result.Metric{Name: se.metric, Values: []float64{}}
		for _, p := range se.points {
			mt.Values = append(mt.Values, p.Median)
			mt.Unit = p.Unit
		}
		if len(mt.Values) > 0 {
			sm := stats.Summarize(mt.Values)
			mt.Summary = &sm
		}
		m.Metrics = []result.Metric{mt}
		d.Measurements = append(d.Measurements, m)
	}
	return d
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
	s, err := openHistory(ctx, dsn)
	if err != nil {
		return err
	}
	defer s.Close()
	return addToHistory(ctx, cmd, s, d, history.Meta{Git: history.ReadGit(ctx, "."), Source: strings.Join(invocation(cmd), " ")}, "the "+d.Kind+" document")
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
