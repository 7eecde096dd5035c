package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"

	"github.com/chronograph/chronograph/internal/crosstest"
	"github.com/chronograph/chronograph/result"
)

// pulsesVCD writes a VCD of 1 ns ticks: one channel "a" with n high
// pulses of width high (+1 every third) and low gaps of 50 ns.
func pulsesVCD(t *testing.T, path string, n int, high uint64) {
	t.Helper()
	var b strings.Builder
	b.WriteString("$timescale 1 ns $end\n$var wire 1 ! a $end\n$enddefinitions $end\n#0\n0!\n")
	tm := uint64(10)
	for i := 0; i < n; i++ {
		w := high + uint64(i%3/2)
		fmt.Fprintf(&b, "#%d\n1!\n#%d\n0!\n", tm, tm+w)
		tm += w + 50
	}
	fmt.Fprintf(&b, "#%d\n", tm)
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestPulsesCLI: chrono pulses reads the committed capture of the
// README's worked example, its --json document reads back and validates,
// and the figures are those of the capture (pulses.vcd's known widths).
func TestPulsesCLI(t *testing.T) {
	out, errOut, code := runChrono(t, "", "pulses", "../../capture/testdata/pulses.vcd", "--channels", "irq,task",
		"--between", "irq:rise", "task:rise", "--min-width", "20ns", "--json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	d, err := result.Unmarshal([]byte(out))
	if err != nil {
		t.Fatal(err)
	}
	if d.Kind != result.KindPulses || d.Run.Pulses == nil || d.Run.Pulses.ResolutionNs != 10 || d.Run.Pulses.MinWidthNs != 20 {
		t.Fatalf("kind %s, run %+v", d.Kind, d.Run.Pulses)
	}
	want := map[string][]float64{
		"top.irq high":        {20, 50, 20, 20},
		"irq:rise->task:rise": {50, 60, 0, 80},
	}
	for _, m := range d.Measurements {
		if w, ok := want[m.Name]; ok {
			if got := m.Metrics[0].Values; fmt.Sprint(got) != fmt.Sprint(w) {
				t.Errorf("%s = %v, want %v", m.Name, got, w)
			}
			delete(want, m.Name)
		}
	}
	if len(want) > 0 {
		t.Errorf("missing measurements %v", want)
	}
	if g := d.Run.Pulses.Channels[0]; g.GlitchCount != 1 || len(g.Glitches) != 1 || g.Glitches[0] != (result.PulseGlitch{StartNs: 270, WidthNs: 10, Level: "low"}) {
		t.Errorf("irq glitches %+v", g)
	}
	// The text: the capture's description, and no figure finer than the
	// 1 MHz capture's microsecond (a deviation below it is not rounded to
	// zero: "± 400 ns").
	out, _, code = runChrono(t, "", "pulses", "../../docs/examples/demo-pulses.vcd")
	if code != 0 || !strings.Contains(out, "resolution 1 µs") || !strings.Contains(out, "libsigrok 0.5.2") ||
		regexp.MustCompile(`\d\.\d+ µs|[^±] \d+ ns`).MatchString(out) || !strings.Contains(out, "5 µs ± 2 µs") {
		t.Errorf("exit %d:\n%s", code, out)
	}
}

// TestPulsesBadCaptures: a bad capture is one line naming the line, exit
// 1; a bad flag exit 2.
func TestPulsesBadCaptures(t *testing.T) {
	dir := crosstest.TempDir(t)
	write := func(name, text string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	demo, err := os.ReadFile("../../docs/examples/demo-pulses.vcd")
	if err != nil {
		t.Fatal(err)
	}
	head := "$timescale 1 ns $end\n$var wire 1 ! a $end\n$enddefinitions $end\n"
	tests := []struct {
		name, text string
		args       []string
		code       int
		want       string
	}{
		{"truncated", string(demo[:100]), nil, 1, "capture: line 4: truncated: the file ends inside $comment"},
		{"timescale", "$timescale 3 ns $end\n", nil, 1, `capture: line 1: timescale "3 ns" is not 1, 10 or 100`},
		{"non-monotonic", head + "#0\n0!\n#5\n1!\n#3\n0!\n", nil, 1, "capture: line 8: time #3 comes after #5"},
		{"junk", "\x1d\x00\x01\x02binary", nil, 1, "capture: line 1: binary data"},
		{"one byte", "$", nil, 1, "capture: line 1: truncated"},
		{"named twice", "$timescale 1 ns $end\n$var wire 1 ! a $end\n$var wire 1 \" a $end\n$enddefinitions $end\n", nil, 1, "capture: line 3: signal a declared twice"},
		{"no such channel", head + "#0\n0!\n", []string{"--channels", "b"}, 2, "capture:"},
		{"one edge", head + "#0\n0!\n", []string{"--between", "a:rise"}, 2, "--between"},
		{"bad edge", head + "#0\n0!\n", []string{"--between", "a:up", "a:rise"}, 2, "is not rise or fall"},
		{"within alone", head + "#0\n0!\n", []string{"--within", "1ms"}, 2, "--within applies to --between"},
		{"bad min width", head + "#0\n0!\n", []string{"--min-width", "-1ns"}, 2, "--min-width"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := write(strings.ReplaceAll(tt.name, " ", "-")+".vcd", tt.text)
			out, errOut, code := runChrono(t, "", append([]string{"pulses", p}, tt.args...)...)
			if code != tt.code || !strings.Contains(errOut, tt.want) || strings.Count(strings.TrimSpace(errOut), "\n") > 0 || out != "" {
				t.Errorf("exit %d, stdout %q, stderr %q; want exit %d and one line holding %q", code, out, errOut, tt.code, tt.want)
			}
		})
	}
}

// TestPulsesDownstream: pulses documents go through chrono report's
// regression gate and into chrono history.
func TestPulsesDownstream(t *testing.T) {
	dir := crosstest.TempDir(t)
	t.Chdir(dir)
	pulsesVCD(t, "old.vcd", 40, 10)
	pulsesVCD(t, "new.vcd", 40, 20)
	for _, n := range []string{"old", "new"} {
		if _, errOut, code := runChrono(t, "", "pulses", n+".vcd", "--export-json", n+".json"); code != 0 {
			t.Fatalf("pulses %s: %s", n, errOut)
		}
	}
	if out, errOut, code := runChrono(t, "", "report", "--baseline", "old.json", "old.json", "--fail-on", "regression"); code != 0 {
		t.Errorf("gate of a document against itself: exit %d\n%s%s", code, out, errOut)
	}
	out, errOut, code := runChrono(t, "", "report", "--baseline", "old.json", "new.json", "--fail-on", "regression")
	if code != 1 || !strings.Contains(out+errOut, "a high") {
		t.Errorf("gate of doubled widths: exit %d, want 1\n%s%s", code, out, errOut)
	}
	if _, errOut, code := runChrono(t, "", "history", "add", "old.json", "new.json"); code != 0 || strings.Count(errOut, "history: added") != 2 {
		t.Errorf("history add: exit %d: %s", code, errOut)
	}
	data, _ := os.ReadFile("new.json")
	var raw map[string]any
	if err := json.Unmarshal(data, &raw); err != nil || raw["kind"] != "pulses" {
		t.Errorf("new.json: %v, kind %v", err, raw["kind"])
	}
}

// TestPulsesInterrupted: SIGINT or SIGTERM during the reading of a long
// capture prints and exports the figures of what was read, with the
// interrupted warning, and exits 128 + the signal's number.
func TestPulsesInterrupted(t *testing.T) {
	dir := crosstest.TempDir(t)
	p := filepath.Join(dir, "long.vcd")
	pulsesVCD(t, p, 20000, 5)
	for sig, want := range map[os.Signal]int{os.Interrupt: 130, syscall.SIGTERM: 143} {
		// The reading looks at its context every 4096 changes: the
		// second look ends it, after 8191 changes.
		injectCountdown(t, sig, 1)
		jsonPath := filepath.Join(dir, "p.json")
		out, errb, code := runChrono(t, "", "pulses", p, "--export-json", jsonPath)
		if code != want || !strings.Contains(errb, "interrupted by SIG") || !strings.Contains(out, "read up to 226.55 µs (8191 changes)") {
			t.Errorf("%v: exit %d (want %d), stderr %q, stdout:\n%s", sig, code, want, errb, out)
		}
		b, err := os.ReadFile(jsonPath)
		if err != nil {
			t.Fatal(err)
		}
		d, err := result.Unmarshal(b)
		if err != nil {
			t.Fatal(err)
		}
		found := false
		for _, w := range d.Warnings {
			found = found || w.Code == "interrupted"
		}
		var highs int
		for _, m := range d.Measurements {
			if m.Name == "a high" {
				highs = len(m.Metrics[0].Values)
			}
		}
		if !found || highs != 4094 {
			t.Errorf("%v: interrupted warning %v, %d high widths (want 4094: the pulses read before the interruption)", sig, found, highs)
		}
	}
}
