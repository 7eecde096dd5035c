//go:build linux

package deps

import (
	"os/exec"
	"slices"
	"strings"
	"testing"
)

const module = "github.com/chronograph/chronograph"

// Module sets, besides the standard library and chronograph itself.
var (
	sys      = []string{"golang.org/x/sys"}
	statsMod = []string{"github.com/HdrHistogram/hdrhistogram-go", "gonum.org/v1/gonum"}
	measure  = append(slices.Clone(sys), statsMod...)
	// pprof is pprof's profile package (standard library only): bench
	// and run record CPU profiles, compare traces regressions with them.
	pprof        = "github.com/google/pprof"
	measureProfs = append(slices.Clone(measure), pprof)
	prom         = []string{"github.com/prometheus/client_golang", "github.com/beorn7/perks", "github.com/cespare/xxhash/v2",
		"github.com/munnerz/goautoneg", "github.com/prometheus/client_model", "github.com/prometheus/common",
		"github.com/prometheus/procfs", "google.golang.org/protobuf"}
)

// light lists every package a user imports to measure (or to read a
// document) with the modules it may link: unit and warn none, clock and
// env golang.org/x/sys (vDSO, perf, affinity), stats HdrHistogram and gonum
// (the HDR recorder; distuv.Beta in the seeded bootstrap of ratio
// intervals), the rest those through stats; scopeprom Prometheus' client
// (its only job), result/input x/perf's benchfmt, profiles pprof's
// profile package, and so do compare, run and bench (through package
// profiles: they record and compare CPU profiles). Where only is set it
// lists every package outside the standard library pkg may link besides
// itself (ours relative to the module): capture, which programs that read
// captures import, links warn alone; profiles, imported by the measuring
// packages, pprof's profile package and the file writer (which brings
// x/sys); cpuprof, imported by the programs being measured, nothing.
var light = []struct {
	pkg     string
	allowed []string
	only    []string
}{
	{"unit", nil, nil},
	{"warn", nil, nil},
	{"capture", nil, []string{"warn"}},
	{"clock", sys, nil},
	{"env", sys, nil},
	{"stats", statsMod, nil},
	{"result", measure, nil},
	{"compare", measureProfs, nil},
	{"counters", measure, nil},
	{"delay", measure, nil},
	{"run", measureProfs, nil},
	{"bench", measureProfs, nil},
	{"bench/benchtest", measureProfs, nil},
	{"tracer", measure, nil},
	{"scope", measure, nil},
	{"scope/scopeprom", append(slices.Clone(measure), prom...), nil},
	{"result/input", append(slices.Clone(measure), "golang.org/x/perf", "github.com/aclements/go-moremath"), nil},
	{"profiles", append(slices.Clone(sys), pprof), []string{"warn", "internal/outfile", "internal/plural",
		"github.com/google/pprof/profile", "golang.org/x/sys/unix", "golang.org/x/sys/windows"}},
	{"profiles/cpuprof", nil, []string{}},
}

// ours lists chronograph's packages no light package may import.
var ours = []string{"report", "history", "internal/browser", "cmd/"}

// heavy: report renders (no database), history stores (no plotting).
var heavy = []struct {
	pkg       string
	forbidden []string // module path prefixes
}{
	{"report", []string{"modernc.org/", "github.com/jackc/"}},
	{"history", []string{"gonum.org/v1/plot", "codeberg.org/", "git.sr.ht/", "github.com/ajstarks/svgo"}},
}

var targets = []string{"linux/amd64", "linux/arm64", "windows/amd64", "darwin/arm64"}

// dep is one package of a go list -deps listing.
type dep struct{ path, module string }

// list returns the packages pkg links on target (GOOS/GOARCH), and for
// each our package the packages it imports (to name the chain).
func list(t *testing.T, pkg, target string) ([]dep, map[string][]string) {
	t.Helper()
	goos, goarch, _ := strings.Cut(target, "/")
	gocmd, err := exec.LookPath("go")
	if err != nil {
		t.Fatalf("the go command is not on PATH: %v", err)
	}
	cmd := exec.Command(gocmd, "list", "-deps",
		"-f", "{{.ImportPath}}\t{{with .Module}}{{.Path}}{{end}}\t{{join .Imports \" \"}}", module+"/"+pkg)
	cmd.Env = append(cmd.Environ(), "GOOS="+goos, "GOARCH="+goarch, "CGO_ENABLED=0")
	out, err := cmd.Output()
	if err != nil {
		msg := ""
		if ee, ok := err.(*exec.ExitError); ok {
			msg = string(ee.Stderr)
		}
		t.Fatalf("go list -deps %s for %s: %v %s", pkg, target, err, msg)
	}
	var deps []dep
	imports := map[string][]string{}
	for line := range strings.Lines(string(out)) {
		f := strings.Split(strings.TrimRight(line, "\n"), "\t")
		if len(f) != 3 {
			t.Fatalf("go list: unexpected line %q", line)
		}
		deps = append(deps, dep{f[0], f[1]})
		imports[f[0]] = strings.Fields(f[2])
	}
	return deps, imports
}

// chain is the import path from root to target, as "a -> b -> c".
func chain(imports map[string][]string, root, target string) string {
	prev := map[string]string{root: ""}
	queue := []string{root}
	for len(queue) > 0 {
		p := queue[0]
		queue = queue[1:]
		if p == target {
			var path []string
			for q := p; q != ""; q = prev[q] {
				path = append(path, strings.TrimPrefix(q, module+"/"))
			}
			slices.Reverse(path)
			return strings.Join(path, " -> ")
		}
		for _, i := range imports[p] {
			if _, seen := prev[i]; !seen {
				prev[i] = p
				queue = append(queue, i)
			}
		}
	}
	return target
}

// violations returns, for pkg's listing, a line per module it may not
// link (allowed: the modules it may link besides ours and the standard
// library; forbidden: module prefixes it may not link, when allowed is
// nil and forbidden set) and per package of ours in ours it imports.
func violations(pkg string, deps []dep, imports map[string][]string, allowed, forbidden []string, checkAllowed bool) []string {
	root := module + "/" + pkg
	var bad []string
	seen := map[string]bool{}
	for _, d := range deps {
		switch {
		case d.module == module:
			rel := strings.TrimPrefix(d.path, module+"/")
			for _, o := range ours {
				if checkAllowed && (rel == o || strings.HasPrefix(rel, strings.TrimSuffix(o, "/")+"/")) && rel != pkg {
					bad = append(bad, "imports "+rel+": "+chain(imports, root, d.path))
				}
			}
		case d.module == "" || seen[d.module]:
		default:
			seen[d.module] = true
			no := false
			if checkAllowed {
				no = !slices.Contains(allowed, d.module)
			}
			for _, f := range forbidden {
				no = no || strings.HasPrefix(d.module, f)
			}
			if no {
				bad = append(bad, "links module "+d.module+": "+chain(imports, root, d.path))
			}
		}
	}
	return bad
}

// outside returns, for pkg's listing, a line per package outside the
// standard library, other than pkg, that only does not list (ours
// relative to the module).
func outside(pkg string, deps []dep, imports map[string][]string, only []string) []string {
	root := module + "/" + pkg
	var bad []string
	for _, d := range deps {
		rel := strings.TrimPrefix(d.path, module+"/")
		if d.module != "" && d.path != root && !slices.Contains(only, rel) {
			bad = append(bad, "links package "+rel+": "+chain(imports, root, d.path))
		}
	}
	return bad
}

// TestLightPackages: every package a program imports to measure links
// only the modules listed for it (and, where only is set, only the
// packages listed), on every supported platform, and none of report,
// history, internal/browser or the commands; a failure names the package,
// the platform, the module and the import chain that brings it in.
func TestLightPackages(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go list for every package and platform")
	}
	for _, target := range targets {
		for _, l := range light {
			deps, imports := list(t, l.pkg, target)
			for _, v := range violations(l.pkg, deps, imports, l.allowed, nil, true) {
				t.Errorf("%s on %s %s (allowed: %s)", l.pkg, target, v, strings.Join(append([]string{"the standard library", "chronograph"}, l.allowed...), ", "))
			}
			if l.only == nil {
				continue
			}
			for _, v := range outside(l.pkg, deps, imports, l.only) {
				t.Errorf("%s on %s %s (allowed: %s)", l.pkg, target, v, strings.Join(append([]string{"the standard library"}, l.only...), ", "))
			}
		}
	}
}

// TestLightPackagesNoCgo: no package a light package links outside the
// standard library has cgo files (listed with cgo enabled, where files
// that import "C" count), so a program that imports one to measure builds
// without a C toolchain.
func TestLightPackagesNoCgo(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go list")
	}
	gocmd, err := exec.LookPath("go")
	if err != nil {
		t.Fatalf("the go command is not on PATH: %v", err)
	}
	args := []string{"list", "-deps", "-f", "{{if not .Standard}}{{.ImportPath}}\t{{join .CgoFiles \" \"}}{{end}}"}
	for _, l := range light {
		args = append(args, module+"/"+l.pkg)
	}
	cmd := exec.Command(gocmd, args...)
	cmd.Env = append(cmd.Environ(), "CGO_ENABLED=1")
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list -deps: %v", err)
	}
	n := 0
	for line := range strings.Lines(string(out)) {
		p, cgo, _ := strings.Cut(strings.TrimRight(line, "\n"), "\t")
		n++
		if cgo != "" {
			t.Errorf("%s has cgo files: %s", strings.TrimPrefix(p, module+"/"), cgo)
		}
	}
	if n < len(light) {
		t.Fatalf("go list listed %d packages outside the standard library, fewer than the %d light ones", n, len(light))
	}
}

// TestHeavyPackagesKeepToTheirJobs: report links no database driver and
// history no plotting library.
func TestHeavyPackagesKeepToTheirJobs(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go list")
	}
	for _, h := range heavy {
		deps, imports := list(t, h.pkg, "linux/amd64")
		for _, v := range violations(h.pkg, deps, imports, nil, h.forbidden, false) {
			t.Errorf("%s %s", h.pkg, v)
		}
	}
}

// TestViolationsNamed: the check itself, on a made-up listing in which
// bench imports report, which links gonum/plot: both are named with the
// chain that brings them in; an allowed module is not.
func TestViolationsNamed(t *testing.T) {
	deps := []dep{
		{module + "/bench", module},
		{module + "/report", module},
		{"gonum.org/v1/plot", "gonum.org/v1/plot"},
		{"gonum.org/v1/plot/vg", "gonum.org/v1/plot"},
		{"golang.org/x/sys/unix", "golang.org/x/sys"},
		{"fmt", ""},
	}
	imports := map[string][]string{
		module + "/bench":  {"fmt", "golang.org/x/sys/unix", module + "/report"},
		module + "/report": {"gonum.org/v1/plot", "gonum.org/v1/plot/vg"},
	}
	got := violations("bench", deps, imports, sys, nil, true)
	want := []string{
		"imports report: bench -> report",
		"links module gonum.org/v1/plot: bench -> report -> gonum.org/v1/plot",
	}
	if !slices.Equal(got, want) {
		t.Fatalf("got %q\nwant %q", got, want)
	}
	if got := violations("report", deps[1:], imports, nil, []string{"modernc.org/"}, false); len(got) != 0 {
		t.Fatalf("report with no database: %q", got)
	}
	if got := violations("report", append(deps[1:], dep{"modernc.org/sqlite", "modernc.org/sqlite"}), imports, nil, []string{"modernc.org/"}, false); len(got) != 1 {
		t.Fatalf("report with sqlite: %q", got)
	}
	got = outside("bench", deps, imports, []string{"report", "golang.org/x/sys/unix"})
	want = []string{"links package gonum.org/v1/plot: bench -> report -> gonum.org/v1/plot", "links package gonum.org/v1/plot/vg: bench -> report -> gonum.org/v1/plot/vg"}
	if !slices.Equal(got, want) {
		t.Fatalf("outside: got %q\nwant %q", got, want)
	}
	if got := outside("bench", deps[:1], imports, []string{}); len(got) != 0 {
		t.Fatalf("outside, bench alone: %q", got)
	}
}
