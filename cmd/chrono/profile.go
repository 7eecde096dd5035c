package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"

	"github.com/chronograph/chronograph/compare"
	"github.com/chronograph/chronograph/profiles"
	"github.com/chronograph/chronograph/result"
	"github.com/chronograph/chronograph/run"
)

// profileFlags are chrono run's profiling flags.
type profileFlags struct {
	dir, profiler string
	runs          int
}

// collectProfiles makes the profiled runs of --profile DIR after the
// timing runs, writes each command's merged profile to DIR/C.pprof
// (the runs' own files are DIR/C.R.pprof) and says so on stderr.
func collectProfiles(ctx context.Context, stderr io.Writer, cmds []run.Command, opts run.Options, f profileFlags) ([]run.CommandProfile, error) {
	how, err := run.ParseProfiler(f.profiler)
	if err != nil {
		return nil, usageError{err}
	}
	if err := os.MkdirAll(f.dir, 0o755); err != nil {
		return nil, fmt.Errorf("run: --profile %s: %w", f.dir, err)
	}
	cps, err := run.Profile(ctx, cmds, opts, run.ProfileOptions{Dir: f.dir, Runs: f.runs, Profiler: how})
	if err != nil {
		return nil, runError(err)
	}
	for i, cp := range cps {
		path := filepath.Join(f.dir, strconv.Itoa(i)+".pprof")
		if err := profiles.Write(path, cp.Profile); err != nil {
			return nil, err
		}
		cps[i].Files = append([]string{path}, cp.Files...) // the merged file first
		n, _ := profiles.Samples(cp.Profile)
		fmt.Fprintf(stderr, "chrono: profile of %s: %s (%s, %d runs, %d samples)\n", cp.Command.Name, path, cp.Source, cp.Runs, n)
	}
	return cps, nil
}

// attachProfiles makes every measurement of d that has a profile in cps
// refer to its merged file, named relative to docPath (the document's
// file; "" or "-": absolute).
func attachProfiles(d *result.Document, cps []run.CommandProfile, docPath string) {
	for _, cp := range cps {
		for i := range d.Measurements {
			m := &d.Measurements[i]
			if m.Name != cp.Command.Name || len(cp.Files) == 0 {
				continue
			}
			n, _ := profiles.Samples(cp.Profile)
			m.Profile = &result.ProfileRef{File: profiles.RefName(docPath, cp.Files[0]), Source: cp.Source, Samples: n,
				Iterations: float64(cp.Runs), Per: "run"}
		}
	}
}

// docProfiles loads the profiles a document at docPath refers to, by
// measurement name, with how many iterations each covers; a profile
// that cannot be read is left out with the reason in errs.
func docProfiles(docPath string, d *result.Document) (map[string]compare.Profile, map[string]error) {
	out, errs := map[string]compare.Profile{}, map[string]error{}
	for _, m := range d.Measurements {
		ref := m.Profile
		if ref == nil || ref.File == "" {
			continue
		}
		p, err := profiles.Read(profiles.Resolve(docPath, ref.File))
		if err != nil {
			errs[m.Name] = err
			continue
		}
		out[m.Name] = compare.Profile{Profile: p, Iterations: ref.Iterations, Per: ref.Per}
	}
	return out, errs
}
