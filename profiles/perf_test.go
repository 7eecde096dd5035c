package profiles

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/pprof/profile"

	"github.com/chronograph/chronograph/internal/crosstest"
)

// TestFromPerfScriptRecording reads a real recording: `perf record -e
// cpu-clock -g -- interp -n 100000 -r 3` of examples/interp, its perf
// script output with the binary's path replaced by /redacted/interp.
// The figures were counted in the text itself: 85 samples of 250000 ns,
// 54 of them with main.eval on the stack, 13 with kernel frames,
// 16 whose leaf is main.(*lexer).readByte.
func TestFromPerfScriptRecording(t *testing.T) {
	f, err := os.Open("testdata/interp.perf.txt")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	p, err := FromPerfScript(f)
	if err != nil {
		t.Fatal(err)
	}
	if err := p.CheckValid(); err != nil {
		t.Fatal(err)
	}
	if n, err := Samples(p); err != nil || n != 85 {
		t.Errorf("Samples = %d, %v; want 85", n, err)
	}
	if got := total(p, 1); got != 85*250000 {
		t.Errorf("cpu time %d ns, want 85 × 250000", got)
	}
	if p.Period != 250000 || p.PeriodType.Type != "cpu" || p.PeriodType.Unit != "nanoseconds" {
		t.Errorf("period %d %v", p.Period, p.PeriodType)
	}
	if p.Mapping[0].File != "/redacted/interp" {
		t.Errorf("first mapping %q, want the profiled binary", p.Mapping[0].File)
	}
	var files []string
	for _, m := range p.Mapping {
		files = append(files, m.File)
	}
	slices.Sort(files)
	if want := []string{"/redacted/interp", "[kernel.kallsyms]", "[vdso]"}; !slices.Equal(files, want) {
		t.Errorf("mappings %v, want %v", files, want)
	}
	flat, cum, _ := byFunction(p, 0)
	if flat["main.(*lexer).readByte"] != 16 || cum["main.eval"] != 54 {
		t.Errorf("flat readByte %d (want 16), cum eval %d (want 54)", flat["main.(*lexer).readByte"], cum["main.eval"])
	}
	kernel := 0
	for _, s := range p.Sample {
		if !slices.Equal(s.Label["comm"], []string{"interp"}) {
			t.Errorf("sample labels %v, want comm interp", s.Label)
		}
		for _, l := range s.Location {
			if l.Mapping.File == "[kernel.kallsyms]" {
				kernel += int(s.Value[0])
				break
			}
		}
	}
	if kernel != 13 {
		t.Errorf("%d samples with kernel frames, want 13", kernel)
	}
	for _, fn := range p.Function {
		if strings.Contains(fn.Name, "+0x") {
			t.Errorf("function %q keeps perf's offset", fn.Name)
		}
	}
	// Names but no lines: fit for a diff, not for a Go build.
	if ws := Check(p, CheckOptions{MinSamples: 1}); !slices.Equal(codes(ws), []string{"warning profile-no-start-lines"}) {
		t.Errorf("Check: %v", ws)
	}
}

func TestFromPerfScriptForms(t *testing.T) {
	tests := []struct {
		name   string
		in     string
		leaves []string // each sample's leaf function, in order
		values [][]int64
		types  string
	}{
		{"default fields", "prog 12 100.000001: 250000 cpu-clock: \n\t 401000 hot+0x10 (/bin/prog)\n\t 401100 main+0x2 (/bin/prog)\n\n" +
			"prog 12 100.000251: 250000 cpu-clock: \n\t 401000 hot+0x10 (/bin/prog)\n\t 401100 main+0x2 (/bin/prog)\n",
			[]string{"hot"}, [][]int64{{2, 500000}}, "samples/count, cpu/nanoseconds"},
		{"pid/tid, cpu, modifiers, command with a space", "Web Content 12/13 [001] 5.5: 1000000 cpu-clock:ppp: \n\t 10 f (/lib/x.so)\n",
			[]string{"f"}, [][]int64{{1, 1000000}}, "samples/count, cpu/nanoseconds"},
		{"without -g: the frame on the sample line", "prog 12 1.0: 250000 task-clock:  401000 hot+0x10 (/bin/prog)\n",
			[]string{"hot"}, [][]int64{{1, 250000}}, "samples/count, cpu/nanoseconds"},
		{"unknown symbols", "prog 12 1.0: 250000 cpu-clock: \n\t dec4 [unknown] (/usr/bin/dash)\n\t 0 [unknown] ([unknown])\n",
			[]string{"[unknown] (dash)"}, [][]int64{{1, 250000}}, "samples/count, cpu/nanoseconds"},
		{"srcline lines are skipped", "prog 12 1.0: 250000 cpu-clock: \n\t 401000 hot+0x10 (/bin/prog)\n  prog.c:12\n",
			[]string{"hot"}, [][]int64{{1, 250000}}, "samples/count, cpu/nanoseconds"},
		{"another event counts", "prog 12 1.0: 100003 instructions: \n\t 401000 hot+0x10 (/bin/prog)\n",
			[]string{"hot"}, [][]int64{{1, 100003}}, "samples/count, instructions/count"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, err := FromPerfScript(strings.NewReader(tt.in))
			if err != nil {
				t.Fatal(err)
			}
			if err := p.CheckValid(); err != nil {
				t.Fatal(err)
			}
			var leaves []string
			var values [][]int64
			for _, s := range p.Sample {
				leaves = append(leaves, s.Location[0].Line[0].Function.Name)
				values = append(values, s.Value)
			}
			if !slices.Equal(leaves, tt.leaves) || !slices.EqualFunc(values, tt.values, slices.Equal) {
				t.Errorf("leaves %v values %v, want %v %v", leaves, values, tt.leaves, tt.values)
			}
			if got := sampleTypes(p); got != tt.types {
				t.Errorf("sample types %s, want %s", got, tt.types)
			}
		})
	}
}

func TestFromPerfScriptErrors(t *testing.T) {
	for _, tt := range []struct{ name, in, want string }{
		{"empty", "", "no samples in the perf script output"},
		{"frame first", "\t 401000 hot (/bin/prog)\n", "line 1: a stack frame outside a sample"},
		{"no time", "prog 12 250000 cpu-clock:\n", "line 1: no time in the sample line"},
		{"no period", "prog 12 1.0: cpu-clock:\n", "line 1: no period"},
		{"no pid", "1.0: 250000 cpu-clock:\n", "line 1: no command and pid"},
		{"two events", "prog 1 1.0: 1 cpu-clock:\n\t 1 f (x)\n\nprog 1 1.1: 1 page-faults:\n", "line 4: event page-faults after cpu-clock: record one event"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			_, err := FromPerfScript(strings.NewReader(tt.in))
			if err == nil || !strings.Contains(err.Error(), tt.want) || !strings.HasPrefix(err.Error(), "profiles: ") {
				t.Errorf("error %v, want %q", err, tt.want)
			}
		})
	}
}

// TestWriteRead: a profile written and read back is the same profile,
// for a converted recording and a constructed one; a file that is not a
// profile is a clear error.
func TestWriteRead(t *testing.T) {
	f, err := os.Open("testdata/interp.perf.txt")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	perf, err := FromPerfScript(f)
	if err != nil {
		t.Fatal(err)
	}
	dir := crosstest.TempDir(t)
	for i, p := range []*profile.Profile{perf, build([]stack{{[]string{"main.f", "main.main"}, 7}})} {
		path := filepath.Join(dir, "p.pprof")
		if err := Write(path, p); err != nil {
			t.Fatal(err)
		}
		back, err := Read(path)
		if err != nil {
			t.Fatal(err)
		}
		if back.String() != p.String() {
			t.Errorf("profile %d differs after a round trip:\n%s\nwant\n%s", i, back, p)
		}
	}
	bad := filepath.Join(dir, "bad")
	if err := os.WriteFile(bad, []byte("not a profile"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := Read(bad); err == nil || !strings.Contains(err.Error(), "is not a profile pprof can read") {
		t.Errorf("Read of a text file: %v", err)
	}
	if _, err := Read(filepath.Join(dir, "missing")); err == nil || !strings.HasPrefix(err.Error(), "profiles: ") {
		t.Errorf("Read of a missing file: %v", err)
	}
	invalid := build([]stack{{[]string{"f"}, 1}})
	invalid.Sample[0].Value = nil
	if err := Write(filepath.Join(dir, "invalid"), invalid); err == nil || !strings.Contains(err.Error(), "not writing an invalid profile") {
		t.Errorf("Write of an invalid profile: %v", err)
	}
}
