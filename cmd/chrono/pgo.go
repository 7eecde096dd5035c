package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/google/pprof/profile"
	"github.com/spf13/cobra"

	"github.com/chronograph/chronograph/compare"
	"github.com/chronograph/chronograph/counters"
	"github.com/chronograph/chronograph/internal/plural"
	"github.com/chronograph/chronograph/profiles"
	"github.com/chronograph/chronograph/report"
	"github.com/chronograph/chronograph/result"
	"github.com/chronograph/chronograph/run"
	"github.com/chronograph/chronograph/unit"
	"github.com/chronograph/chronograph/warn"
)

func init() { register(newPGOCmd) }

type pgoFlags struct {
	workload, bench, merge, keep string
	runs, warmup, profileRuns    int
	write                        bool
	out                          output
}

// binPlaceholder stands for the built program in --workload.
const binPlaceholder = "{bin}"

// collectedName names the profile collected from the workload (or the
// benchmarks) in --merge.
const collectedName = "workload"

func newPGOCmd() *cobra.Command {
	var f pgoFlags
	cmd := &cobra.Command{
		Use:   "pgo PKG --workload 'CMD' [--bench PATTERN] [--merge FILE=W,...] [--write]",
		Short: "Measure what a profile-guided build (go build -pgo) gains on a workload",
		Long: `chrono pgo builds the Go main package PKG twice and measures the difference:

 1. go build -pgo=off: the plain build;
 2. a CPU profile of the plain build running the workload: --profile-runs runs
    of it (default 3), each writing its own profile through $CHRONO_CPUPROFILE
    (the program must honour it: defer cpuprof.Start()() of package
    github.com/chronograph/chronograph/profiles/cpuprof, first in main), merged;
    or, with --bench PATTERN, go test -bench PATTERN -cpuprofile of PKG's
    benchmarks;
 3. the profile's fitness: a warning when it holds fewer than 3000 samples
    (too few to rank its hot call edges) or is stale (more than a tenth of its
    weight in functions the plain build no longer has);
 4. go build -pgo=PROFILE: the profile-guided build;
 5. both builds running the workload, interleaved (plain, pgo, plain, ...) as
    chrono run measures commands, after --warmup runs each.

It prints chrono run's report of the two builds, then the gain: the ratio of
medians pgo/plain of wall time, user and system CPU time (and instructions
where the machine counts them) with its 95% bootstrap interval and the
Mann-Whitney p-value, and both binaries' sizes. A ratio below 1 is a gain.

The workload is a command line split into words (no shell; write sh -c '...'
for pipes), with {bin} standing for the built program; without {bin} it is
the program's arguments. --merge FILE=W,... builds with the weighted merge of
profiles instead (each profile's share of the merged CPU time proportional to
its weight; "workload" names the collected one). --write puts the profile
where go build -pgo=auto finds it, PKG's default.pgo; nothing is written into
PKG otherwise. --keep DIR keeps the builds and profiles.`,
		Example: `  chrono pgo ./examples/interp --workload '{bin} -r 300'
  chrono pgo ./cmd/server --workload './loadtest.sh {bin}' --merge workload=1,prod.pprof=3 --write
  chrono pgo ./cmd/tool --bench 'BenchmarkParse' --workload '{bin} testdata/big.json'`,
		Args: func(cmd *cobra.Command, args []string) error {
			if len(args) != 1 {
				return usagef("pgo: name one Go main package, e.g. chrono pgo ./cmd/app --workload '{bin} input.txt'")
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error { return runPGO(cmd, args[0], f) },
	}
	fl := cmd.Flags()
	fl.StringVar(&f.workload, "workload", "", "the command line to profile and measure; {bin} stands for the built program")
	fl.StringVar(&f.bench, "bench", "", "profile PKG's benchmarks matching PATTERN (go test -bench) instead of the workload")
	fl.StringVar(&f.merge, "merge", "", "build with the weighted merge of these profiles (FILE=W,...; \"workload\" is the collected one)")
	fl.BoolVar(&f.write, "write", false, "write the profile to PKG's default.pgo, where go build -pgo=auto finds it")
	fl.StringVar(&f.keep, "keep", "", "keep the builds and profiles in DIR (default: a temporary directory, removed)")
	fl.IntVarP(&f.runs, "runs", "r", 20, "timing runs of each build")
	fl.IntVarP(&f.warmup, "warmup", "w", 1, "warm-up runs of each build")
	fl.IntVar(&f.profileRuns, "profile-runs", 3, "profiled runs of the workload")
	f.out.register(fl)
	markPaths(fl, "a directory", "keep")
	return cmd
}

// weightedFile is one entry of --merge.
type weightedFile struct {
	name   string
	weight float64
}

// parseMerge reads --merge: FILE=W entries, comma-separated.
func parseMerge(s string) ([]weightedFile, error) {
	var out []weightedFile
	for _, part := range strings.Split(s, ",") {
		name, w, ok := strings.Cut(strings.TrimSpace(part), "=")
		v, err := strconv.ParseFloat(w, 64)
		if !ok || name == "" || err != nil || !(v > 0) || v > 1e9 {
			return nil, usagef("pgo: --merge %q: give FILE=WEIGHT entries with positive weights, e.g. --merge workload=2,prod.pprof=1", part)
		}
		out = append(out, weightedFile{name, v})
	}
	return out, nil
}

func runPGO(cmd *cobra.Command, pkg string, f pgoFlags) (err error) {
	switch {
	case f.workload == "":
		return usagef("pgo: --workload 'CMD' is what both builds are measured on (and profiled on, without --bench): e.g. --workload '{bin} -r 300'")
	case f.runs < 2:
		return usagef("pgo: --runs %d: give 2 or more (an interval needs several runs)", f.runs)
	case f.profileRuns < 1:
		return usagef("pgo: --profile-runs %d: give 1 or more", f.profileRuns)
	case f.warmup < 0:
		return usagef("pgo: --warmup %d: give 0 or more", f.warmup)
	}
	if err := f.out.check(); err != nil {
		return err
	}
	var merge []weightedFile
	collect := true
	if f.merge != "" {
		var err error
		if merge, err = parseMerge(f.merge); err != nil {
			return err
		}
		collect = false
		for _, m := range merge {
			if m.name == collectedName {
				collect = true
			} else if _, err := os.Stat(m.name); err != nil {
				return usagef("pgo: --merge: %v", err)
			}
		}
	}
	if _, err := exec.LookPath("go"); err != nil {
		return fmt.Errorf("pgo: the go command is not in PATH: %w", err)
	}
	dir := f.keep
	if dir == "" {
		tmp, err := os.MkdirTemp("", "chrono-pgo-")
		if err != nil {
			return fmt.Errorf("pgo: %w", err)
		}
		defer os.RemoveAll(tmp)
		dir = tmp
	} else if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("pgo: --keep: %w", err)
	}
	stderr := cmd.ErrOrStderr()
	ctx, stop := interruptContext(cmd.Context())
	defer stop()
	defer func() {
		// A step a signal cut short (go build or go test killed with
		// what they started, a profiled or timed run killed) fails
		// with its own error: the signal is the cause.
		if err != nil && ctx.Err() != nil {
			err = exitError{code: interruptExitCode(ctx), err: errors.New("pgo: interrupted: no report, export or default.pgo written")}
		}
	}()

	plain, pgoBin := filepath.Join(dir, "plain"+exeSuffix()), filepath.Join(dir, "pgo"+exeSuffix())
	fmt.Fprintf(stderr, "chrono: go build -pgo=off %s\n", pkg)
	if err := goCmd(ctx, "build", "-pgo=off", "-o", plain, pkg); err != nil {
		return err
	}
	var ins []profiles.Weighted
	var names []string
	if collect {
		p, err := collectPGOProfile(ctx, stderr, pkg, plain, dir, f)
		if err != nil {
			return err
		}
		w := 1.0
		for _, m := range merge {
			if m.name == collectedName {
				w = m.weight
			}
		}
		ins, names = append(ins, profiles.Weighted{Profile: p, Weight: w}), append(names, collectedName)
	}
	for _, m := range merge {
		if m.name == collectedName {
			continue
		}
		p, err := profiles.Read(m.name)
		if err != nil {
			return err
		}
		ins, names = append(ins, profiles.Weighted{Profile: p, Weight: m.weight}), append(names, m.name)
	}
	build, err := profiles.BinaryNames(plain)
	if err != nil {
		return fmt.Errorf("pgo: reading the plain build's functions: %w", err)
	}
	var warnings []warn.Warning
	for i, in := range ins {
		for _, w := range profiles.Check(in.Profile, profiles.CheckOptions{Build: build}) {
			if len(ins) > 1 {
				w.Message = names[i] + ": " + w.Message
			}
			warnings = append(warnings, w)
		}
	}
	guide := ins[0].Profile
	if len(ins) > 1 {
		m, err := profiles.Merge(ins, profiles.ByShare)
		if err != nil {
			return err
		}
		guide = m.Profile
	}
	profPath := filepath.Join(dir, "default.pgo")
	if err := profiles.Write(profPath, guide); err != nil {
		return err
	}
	for _, w := range warnings {
		fmt.Fprintln(stderr, "chrono: warning: "+w.String())
	}
	fmt.Fprintf(stderr, "chrono: go build -pgo=%s %s\n", profPath, pkg)
	if err := goCmd(ctx, "build", "-pgo="+profPath, "-o", pgoBin, pkg); err != nil {
		return err
	}

	lines := []string{workloadLine(f.workload, plain), workloadLine(f.workload, pgoBin)}
	opts := run.Options{NoShell: true, Runs: f.runs, Warmup: f.warmup, Order: run.Interleaved, Reference: "plain"}
	if evs, err := counters.ParseEvents("instructions"); err == nil {
		opts.Counters = evs
	}
	cmds, err := run.Commands(lines, []string{"plain", "pgo"}, nil, opts)
	if err != nil {
		return runError(err)
	}
	fmt.Fprintf(stderr, "chrono: measuring both builds, %d interleaved runs each\n", f.runs)
	rep, err := run.Run(ctx, cmds, opts)
	if err != nil {
		return runError(err)
	}
	if rep.Interrupted {
		return ctx.Err() // the deferred function makes it the interruption
	}
	if rep.Err != nil {
		return rep.Err
	}
	d := rep.Document(meta(cmd, captureEnv()))
	d.Warnings = append(d.Warnings, warnings...)
	sizes := map[string]int64{}
	for i := range d.Measurements {
		m := &d.Measurements[i]
		path := plain
		if m.Name == "pgo" {
			path = pgoBin
		}
		if st, err := os.Stat(path); err == nil {
			sizes[m.Name] = st.Size()
			m.Parameters = map[string]string{"binary_bytes": strconv.FormatInt(st.Size(), 10)}
		}
	}
	if f.write {
		pkgDir, err := goList(ctx, pkg)
		if err != nil {
			return err
		}
		target := filepath.Join(pkgDir, "default.pgo")
		if err := profiles.Write(target, guide); err != nil {
			return err
		}
		fmt.Fprintf(stderr, "chrono: wrote %s (go build -pgo=auto, the default, uses it)\n", target)
	}
	if err := f.out.emit(cmd, d, report.Options{}); err != nil {
		return err
	}
	if f.out.json {
		return nil
	}
	w := cmd.OutOrStdout()
	fmt.Fprintln(w)
	writeGain(w, d, sizes, guide, len(ins))
	return nil
}

// collectPGOProfile profiles the plain build on the workload
// (cpuprof, --profile-runs runs merged) or, with --bench, on PKG's
// benchmarks (go test -cpuprofile).
func collectPGOProfile(ctx context.Context, stderr io.Writer, pkg, plain, dir string, f pgoFlags) (*profile.Profile, error) {
	if f.bench != "" {
		path := filepath.Join(dir, "bench.pprof")
		fmt.Fprintf(stderr, "chrono: go test -pgo=off -run '^$' -bench %s -cpuprofile %s %s\n", f.bench, path, pkg)
		if err := goCmd(ctx, "test", "-pgo=off", "-run", "^$", "-bench", f.bench, "-cpuprofile", path, pkg); err != nil {
			return nil, err
		}
		return profiles.Read(path)
	}
	pdir := filepath.Join(dir, "profiles")
	if err := os.MkdirAll(pdir, 0o755); err != nil {
		return nil, fmt.Errorf("pgo: %w", err)
	}
	cmds, err := run.Commands([]string{workloadLine(f.workload, plain)}, []string{"plain"}, nil, run.Options{NoShell: true})
	if err != nil {
		return nil, runError(err)
	}
	fmt.Fprintf(stderr, "chrono: profiling the plain build: %s of the workload\n", plural.Count(f.profileRuns, "run"))
	cps, err := run.Profile(ctx, cmds, run.Options{NoShell: true}, run.ProfileOptions{Dir: pdir, Runs: f.profileRuns, Profiler: run.ProfilerGo})
	if err != nil {
		return nil, runError(err)
	}
	return cps[0].Profile, nil
}

// workloadLine is the workload with the program at bin.
func workloadLine(workload, bin string) string {
	q := "'" + strings.ReplaceAll(bin, "'", `'\''`) + "'" // one word to run's splitter
	if strings.Contains(workload, binPlaceholder) {
		return strings.ReplaceAll(workload, binPlaceholder, q)
	}
	return q + " " + workload
}

// goCmd runs the go command, killed with what it started when ctx is
// done; its output goes to the error when it fails.
func goCmd(ctx context.Context, args ...string) error {
	var out bytes.Buffer
	c := run.ToolCommand(ctx, "go", args...)
	c.Stdout, c.Stderr = &out, &out
	if err := c.Run(); err != nil {
		return fmt.Errorf("pgo: go %s: %v\n%s", strings.Join(args, " "), err, strings.TrimSpace(out.String()))
	}
	return nil
}

// goList returns the directory of package pkg.
func goList(ctx context.Context, pkg string) (string, error) {
	out, err := run.ToolCommand(ctx, "go", "list", "-f", "{{.Dir}}", pkg).Output()
	if err != nil {
		return "", fmt.Errorf("pgo: go list %s: %w", pkg, err)
	}
	return strings.TrimSpace(string(out)), nil
}

// exeSuffix is what go build names an executable with on this platform.
func exeSuffix() string {
	if filepath.Separator == '\\' {
		return ".exe"
	}
	return ""
}

// writeGain prints the gain of the pgo build over the plain one: per
// metric the ratio of medians pgo/plain with its interval and p-value
// (compare.Measurements, bootstrapped with the document's seed, as the
// run report's comparison above it is, so that the two print the same
// intervals), the binaries' sizes and the profile's samples.
func writeGain(w io.Writer, d *result.Document, sizes map[string]int64, guide *profile.Profile, inputs int) {
	var base, next *result.Measurement
	for i := range d.Measurements {
		switch d.Measurements[i].Name {
		case "plain":
			base = &d.Measurements[i]
		case "pgo":
			next = &d.Measurements[i]
		}
	}
	if base == nil || next == nil {
		fmt.Fprintln(w, "pgo: no gain to report: a build has no timed run")
		return
	}
	fmt.Fprintln(w, "profile-guided build against the plain build (pgo/plain, ratio of medians, 95% bootstrap interval, Mann-Whitney p):")
	metrics := []string{"wall", "user", "sys", "instructions"}
	changes := compare.Measurements(base, next, compare.DocumentSeed(d), metrics...)
	shown := map[string]bool{}
	for _, c := range changes {
		shown[c.Metric] = true
		switch {
		case c.Err != nil:
			fmt.Fprintf(w, "  %-12s %s\n", c.Metric, c.Conclusion())
		case c.NoCI != "":
			fmt.Fprintf(w, "  %-12s %s (no interval: %s)\n", c.Metric, unit.Ratio(c.Ratio, c.Ratio, c.Ratio), c.NoCI)
		default:
			gain := "no significant change"
			if c.Significant {
				gain = unit.Plain(100*(1-c.Ratio), unit.Precision{Resolution: 0.1}) + "% less"
				if c.Ratio > 1 {
					gain = unit.Plain(100*(c.Ratio-1), unit.Precision{Resolution: 0.1}) + "% more"
				}
			}
			fmt.Fprintf(w, "  %-12s %sx [%s, %s], p = %s: %s\n", c.Metric, unit.Ratio(c.Ratio, c.CI.Lo, c.CI.Hi),
				unit.Ratio(c.CI.Lo, c.CI.Lo, c.CI.Hi), unit.Ratio(c.CI.Hi, c.CI.Lo, c.CI.Hi), unit.PValue(c.MannWhitney.P), gain)
		}
	}
	if !shown["instructions"] {
		reason := "not counted"
		if cc := d.Run.Command; cc != nil {
			for _, u := range cc.Unavailable {
				if u.Name == "instructions" {
					reason = "not counted: " + u.Reason
				}
			}
		}
		fmt.Fprintf(w, "  %-12s %s\n", "instructions", reason)
	}
	if p, g := sizes["plain"], sizes["pgo"]; p > 0 && g > 0 {
		fmt.Fprintf(w, "  %-12s plain %d B, pgo %d B (%+d B)\n", "binary size", p, g, g-p)
	}
	n, _ := profiles.Samples(guide)
	from := "the workload's profile"
	if inputs > 1 {
		from = fmt.Sprintf("a merge of %d profiles", inputs)
	}
	fmt.Fprintf(w, "  %-12s %s, %s\n", "profile", from, plural.Count(int(n), "sample"))
}
