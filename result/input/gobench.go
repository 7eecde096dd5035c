package input

import (
	"bytes"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"golang.org/x/perf/benchfmt"

	"github.com/chronograph/chronograph/env"
	"github.com/chronograph/chronograph/internal/plural"
	"github.com/chronograph/chronograph/result"
	"github.com/chronograph/chronograph/warn"
)

// ReadGoBench reads Go benchmark output (what go test -bench prints, as
// golang.org/x/perf/benchfmt parses it: configuration lines and one line
// per run, -count runs of a benchmark in several lines) from r, the file
// name, into a function document: one measurement per benchmark (its
// full name without "Benchmark", with the -GOMAXPROCS suffix as
// benchstat shows it), one sample per line, so that every statistic is
// recomputed from the runs as benchstat does. The metrics:
//
//   - "wall" (ns/op, primary) from ns/op (sec/op);
//   - "iterations" (count) from the run's iteration count;
//   - "bytes" (bytes/op) from B/op, "allocs" (count/op) from allocs/op;
//   - "cpu_time" (ns/op) from cpu-ns/op (chrono's own benchfmt output);
//   - every other unit as a metric of that name and unit, in benchfmt's
//     tidy form (MB/s as "B/s", other -ns units in ns).
//
// The configuration goos, goarch and cpu, and the GOMAXPROCS suffix,
// become the document's environment (nothing else of it is known); a pkg
// that varies within the file prefixes the names. A metric missing from
// some runs of a benchmark is left out of it, with a warning; lines
// benchfmt cannot parse are warnings too. It fails when the input holds
// no benchmark line.
func ReadGoBench(r io.Reader, name string) (*result.Document, error) {
	br := benchfmt.NewReader(r, name)
	type bench struct {
		name    string
		iters   []float64
		metrics []*result.Metric
		lines   int
		procs   string
	}
	var (
		order    []*bench
		byName   = map[string]*bench{}
		warns    []warn.Warning
		cfg      = map[string]string{}
		pkgs     []string
		resultsN int
	)
	type rec struct {
		pkg, name string
		res       *benchfmt.Result
	}
	var recs []rec
	for br.Scan() {
		switch x := br.Result().(type) {
		case *benchfmt.SyntaxError:
			warns = append(warns, warn.New("benchfmt-syntax", fmt.Sprintf("%s: %s", name, x.Error()), "the line is skipped; fix or remove it"))
		case *benchfmt.Result:
			resultsN++
			for _, c := range x.Config {
				if c.File {
					cfg[c.Key] = string(c.Value)
				}
			}
			pkg := x.GetConfig("pkg")
			if !slices.Contains(pkgs, pkg) {
				pkgs = append(pkgs, pkg)
			}
			recs = append(recs, rec{pkg: pkg, name: string(x.Name.Full()), res: x.Clone()})
		}
	}
	if err := br.Err(); err != nil {
		return nil, fmt.Errorf("input: reading Go benchmark output %s: %w", name, err)
	}
	if resultsN == 0 {
		return nil, fmt.Errorf("input: %s holds no Go benchmark line (BenchmarkName  N  value unit ...): pass the output of go test -bench, a result document or a hyperfine JSON export", name)
	}
	procsSeen := map[string]int{}
	for _, rc := range recs {
		key := strings.TrimPrefix(rc.name, "Benchmark")
		if len(pkgs) > 1 && rc.pkg != "" {
			key = rc.pkg + "." + key
		}
		b := byName[key]
		if b == nil {
			b = &bench{name: key}
			if _, p := splitProcs(rc.name); p != "" {
				b.procs = p
				procsSeen[p]++
			}
			byName[key] = b
			order = append(order, b)
		}
		b.iters = append(b.iters, float64(rc.res.Iters))
		for _, v := range rc.res.Values {
			mname, munit, val := goBenchMetric(v)
			var met *result.Metric
			for _, m := range b.metrics {
				if m.Name == mname {
					met = m
				}
			}
			if met == nil {
				met = &result.Metric{Name: mname, Unit: munit}
				b.metrics = append(b.metrics, met)
			}
			met.Values = append(met.Values, val)
		}
		b.lines++
	}
	d := &result.Document{Schema: result.Schema, Version: result.Version, Kind: result.KindFunction,
		Tool: result.Tool{Name: "go test -bench"}, Warnings: warns}
	for _, b := range order {
		m := result.Measurement{Name: b.name, Metrics: []result.Metric{}}
		for _, met := range b.metrics {
			if len(met.Values) != b.lines {
				d.Warnings = append(d.Warnings, warn.New("benchfmt-partial-metric",
					fmt.Sprintf("%s: %s is in %d of its %s, so it is left out", b.name, met.Name, len(met.Values), plural.Count(b.lines, "run")),
					"give every run of a benchmark the same units"))
				continue
			}
			m.Metrics = append(m.Metrics, *met)
		}
		m.Metrics = append(m.Metrics, result.Metric{Name: "iterations", Unit: result.UnitCount, Resolution: 1, Values: b.iters})
		if m.Metric("wall") != nil {
			m.Primary = "wall"
		} else if len(b.metrics) > 0 {
			m.Primary = m.Metrics[0].Name
		}
		d.Measurements = append(d.Measurements, m)
	}
	h := &env.Host{}
	known := false
	if v := cfg["goos"]; v != "" {
		h.Go.GOOS, known = v, true
	}
	if v := cfg["goarch"]; v != "" {
		h.Go.GOARCH, known = v, true
	}
	if v := cfg["cpu"]; v != "" {
		h.CPU.Model, known = v, true
	}
	if len(procsSeen) == 1 {
		for p := range procsSeen {
			h.Go.GOMAXPROCS, _ = strconv.Atoi(p)
			known = true
		}
	}
	if known {
		d.Environment = h
	}
	return d, nil
}

// splitProcs splits a benchmark name's -GOMAXPROCS suffix.
func splitProcs(full string) (string, string) {
	i := strings.LastIndexByte(full, '-')
	if i < 0 {
		return full, ""
	}
	if _, err := strconv.Atoi(full[i+1:]); err != nil {
		return full, ""
	}
	return full[:i], full[i+1:]
}

// goBenchMetric maps a benchfmt value to a metric's name, unit and value.
func goBenchMetric(v benchfmt.Value) (name, unit string, val float64) {
	switch {
	case v.OrigUnit == "ns/op":
		return "wall", result.UnitNsPerOp, v.OrigValue
	case v.Unit == "sec/op":
		return "wall", result.UnitNsPerOp, v.Value * 1e9
	case v.Unit == "B/op":
		return "bytes", result.UnitBytesPerOp, v.Value
	case v.Unit == "allocs/op":
		return "allocs", result.UnitCountPerOp, v.Value
	case v.OrigUnit == "cpu-ns/op":
		return "cpu_time", result.UnitNsPerOp, v.OrigValue
	case strings.HasSuffix(v.Unit, "-sec/op"):
		return strings.TrimSuffix(v.Unit, "-sec/op") + "-ns/op", result.UnitNsPerOp, v.Value * 1e9
	}
	return v.Unit, v.Unit, v.Value
}

// looksLikeGoBench reports whether data holds a Go benchmark line: a
// line that starts with "Benchmark" followed by a name, an iteration
// count and a value with its unit.
func looksLikeGoBench(data []byte) bool {
	for _, line := range bytes.Split(data, []byte("\n")) {
		f := bytes.Fields(line)
		if len(f) >= 4 && bytes.HasPrefix(f[0], []byte("Benchmark")) {
			if _, err := strconv.Atoi(string(f[1])); err == nil {
				return true
			}
		}
	}
	return false
}
