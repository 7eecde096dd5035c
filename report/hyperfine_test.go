package report

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/chronograph/chronograph/result"
)

// constDoc is a command document of commands whose runs all took the
// given seconds (n runs each), as chrono run --debug-mode records them.
func constDoc(n int, style, sort, ref string, cmds ...struct {
	name string
	sec  float64
}) *result.Document {
	d := result.New(result.KindCommand, result.Meta{Tool: result.Tool{Name: "chrono", Version: "test"}})
	d.Run.Command = &result.CommandRun{Order: "sequential", Seed: 7, Style: style, Sort: sort, Reference: ref}
	for _, c := range cmds {
		var w, z, e []float64
		for range n {
			w, z, e = append(w, c.sec*1e9), append(z, 0), append(e, 0)
		}
		d.Measurements = append(d.Measurements, result.Measurement{Name: c.name, Primary: "wall",
			Metrics: []result.Metric{{Name: "wall", Unit: result.UnitNs, Values: w, Resolution: 1},
				{Name: "user", Unit: result.UnitNs, Values: z, Resolution: 1000}, {Name: "sys", Unit: result.UnitNs, Values: z, Resolution: 1000},
				{Name: "exit_code", Unit: result.UnitOne, Values: e, Resolution: 1}},
			Detail: result.KindDetail{Command: &result.CommandDetail{CommandLine: c.name, Complete: true}}})
	}
	return d
}

type cmdSec = struct {
	name string
	sec  float64
}

// TestHyperfineSummary: with style hyperfine the text adds hyperfine's
// summary, in its words, layout and digits, after chrono's comparison.
func TestHyperfineSummary(t *testing.T) {
	tests := []struct {
		name, sort, ref string
		cmds            []cmdSec
		want            []string
	}{
		{"fastest", "auto", "", []cmdSec{{"sleep 2", 2}, {"sleep 1", 1}},
			[]string{"Summary\n  sleep 1 ran\n    2.00 ± 0.00 times faster than sleep 2\n"}},
		{"mean-time", "mean-time", "", []cmdSec{{"sleep 2", 2}, {"sleep 1", 1}},
			[]string{"  sleep 1 ran\n    2.00 ± 0.00 times faster than sleep 2\n"}},
		{"command", "command", "", []cmdSec{{"sleep 2", 2}, {"sleep 1", 1}},
			[]string{"Relative speed comparison\n        2.00 ±  0.00  sleep 2\n        1.00          sleep 1\n"}},
		{"reference", "auto", "sleep 2.0", []cmdSec{{"sleep 2.0", 2}, {"sleep 1.0", 1}, {"sleep 3.0", 3}},
			[]string{"  sleep 2.0 ran\n    2.00 ± 0.00 times slower than sleep 1.0\n    1.50 ± 0.00 times faster than sleep 3.0\n"}},
		{"same time", "auto", "", []cmdSec{{"A", 1}, {"B", 1}, {"sleep 2.0", 2}, {"sleep 1000.0", 1000}},
			[]string{"  A ran\n    As fast (1.00 ± 0.00) as B\n    2.00 ± 0.00 times faster than sleep 2.0\n 1000.00 ± 0.00 times faster than sleep 1000.0\n"}},
	}
	for _, tt := range tests {
		d := constDoc(10, "hyperfine", tt.sort, tt.ref, tt.cmds...)
		out := renderAll(t, d)
		for _, w := range tt.want {
			if !strings.Contains(out[Text], w) {
				t.Errorf("%s: text lacks %q:\n%s", tt.name, w, out[Text])
			}
		}
		if strings.Contains(out[Markdown], "times faster") {
			t.Errorf("%s: the summary is in the Markdown:\n%s", tt.name, out[Markdown])
		}
	}
	// Without the style: chrono's comparison only.
	d := constDoc(10, "", "auto", "", cmdSec{"a", 1}, cmdSec{"b", 2})
	if out := renderAll(t, d)[Text]; strings.Contains(out, "times faster") || !strings.Contains(out, `"b" is 2.00x as slow as "a"`) {
		t.Errorf("default style:\n%s", out)
	}
	// One run each: hyperfine has no standard deviation and prints none.
	d = constDoc(1, "hyperfine", "auto", "", cmdSec{"a", 1}, cmdSec{"b", 2})
	if out := renderAll(t, d)[Text]; !strings.Contains(out, "    2.00 times faster than b\n") {
		t.Errorf("one run:\n%s", out)
	}
}

// TestSortOrders: as in hyperfine, --sort orders the comparison and the
// Markdown table (auto: comparison by time, table as run; command: both as
// run; mean-time: both by mean); the commands' blocks stay in run order.
func TestSortOrders(t *testing.T) {
	cmds := []cmdSec{{"c3", 3}, {"c1", 1}, {"c2", 2}}
	tests := []struct{ sort, cmp, table string }{
		{"auto", "c2,c3", "c3,c1,c2"},
		{"command", "c3,c2", "c3,c1,c2"},
		{"mean-time", "c2,c3", "c1,c2,c3"},
		{"median", "c2,c3", "c1,c2,c3"},
	}
	for _, tt := range tests {
		out := renderAll(t, constDoc(10, "", tt.sort, "", cmds...))
		if i, j := strings.Index(out[Text], "Command 1: c3"), strings.Index(out[Text], "Command 3: c2"); i < 0 || j < i {
			t.Errorf("--sort %s: the blocks are not in run order:\n%s", tt.sort, out[Text])
		}
		var cmp, table []string
		for _, l := range strings.Split(out[Text], "\n") {
			if f := strings.Fields(l); len(f) > 1 && strings.HasSuffix(f[1], "x") && strings.HasPrefix(f[0], `"c`) {
				cmp = append(cmp, strings.Trim(f[0], `"`))
			}
		}
		for _, l := range strings.Split(out[Markdown], "\n") {
			if strings.HasPrefix(l, "| `c") {
				table = append(table, strings.Trim(strings.Fields(l)[1], "`"))
			}
		}
		if strings.Join(cmp, ",") != tt.cmp || strings.Join(table, ",") != tt.table {
			t.Errorf("--sort %s: comparison %v (want %s), table %v (want %s)", tt.sort, cmp, tt.cmp, table, tt.table)
		}
	}
}

// TestMarkdownColumnOrder: hyperfine's columns first, in its order, then
// chrono's.
func TestMarkdownColumnOrder(t *testing.T) {
	out := renderAll(t, constDoc(10, "", "", "", cmdSec{"a", 0.1}, cmdSec{"b", 0.2}))[Markdown]
	if !strings.HasPrefix(out, "| Command | Mean [ms] | Min [ms] | Max [ms] | Relative | Median [ms] |\n") {
		t.Errorf("Markdown header:\n%s", out)
	}
}

// TestHyperfineJSONRoundTrip: the hyperfine export of a document, read
// back by package result as a hyperfine export, has the same times;
// hyperfine's types are kept (2.0, not 2); the name drops the values of
// unused parameters, as hyperfine's export does.
func TestHyperfineJSONRoundTrip(t *testing.T) {
	d := constDoc(3, "", "", "", cmdSec{"make (branch = main)", 2}, cmdSec{"make (branch = dev)", 0.5})
	for i, b := range []string{"main", "dev"} {
		m := &d.Measurements[i]
		m.Parameters = map[string]string{"branch": b}
		m.Detail.Command.CommandLine = "make"
		m.Detail.Command.UnusedParameters = []string{"branch"}
	}
	m := &d.Measurements[1]
	m.Metrics = append(m.Metrics, result.Metric{Name: "signal", Unit: result.UnitOne, Values: []float64{0, 9, 0}})
	m.Metric("exit_code").Values[1] = -1
	var b bytes.Buffer
	if err := Render(&b, Subject{Docs: []*result.Document{d}}, Hyperfine, Options{}); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`"command": "make",`, `"mean": 2.0,`, `"stddev": 0.0,`, `"times": [`, `"exit_codes": [`, "137", `"branch": "dev"`} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("export lacks %s:\n%s", want, b.String())
		}
	}
	var h result.HyperfineExport
	dec := json.NewDecoder(bytes.NewReader(b.Bytes()))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&h); err != nil {
		t.Fatal(err)
	}
	back, err := result.Unmarshal(b.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	if len(back.Measurements) != 2 || back.Measurements[0].Name != "make (branch = main)" || back.Measurements[1].Metric("wall").Values[2] != 0.5e9 ||
		back.Measurements[1].Metric("exit_code").Values[1] != 137 {
		t.Errorf("read back %+v", back.Measurements)
	}
	if err := Render(&b, Subject{Docs: []*result.Document{{Kind: "function"}}}, Hyperfine, Options{}); err == nil {
		t.Error("a function document exported as hyperfine's")
	}
}

// TestCSVCommandName: as in hyperfine's CSV, the command column holds the
// name without the values of unused parameters, which have their own
// parameter_NAME columns.
func TestCSVCommandName(t *testing.T) {
	d := constDoc(3, "", "", "", cmdSec{"make (branch = main)", 2})
	m := &d.Measurements[0]
	m.Parameters = map[string]string{"branch": "main"}
	m.Detail.Command.UnusedParameters = []string{"branch"}
	if out := renderAll(t, d)[CSV]; !strings.Contains(out, "\nmake,2,0,2,") || !strings.Contains(out, ",parameter_branch,") {
		t.Errorf("CSV:\n%s", out)
	}
}
