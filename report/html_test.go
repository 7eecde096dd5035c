package report

import (
	"bytes"
	_ "embed"
	"encoding/json"
	"flag"
	"fmt"
	"html"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/chronograph/chronograph/internal/browser"
	"github.com/chronograph/chronograph/internal/crosstest"
	"github.com/chronograph/chronograph/result"
	"github.com/chronograph/chronograph/tracer"
)

var screenshotDir = flag.String("html.screenshots", "", "TestHTMLInBrowser: save each kind's screenshot (KIND.png) in this directory")

// htmlExample writes the HTML report of a kind's example documents;
// kind "history" is the trend page of docs/examples/history.db,
// "history-traced" that of docs/examples/traced-history.db, whose
// regression is traced to its functions.
func htmlExample(t testing.TB, kind string) []byte {
	t.Helper()
	var s Subject
	switch kind {
	case "history":
		s.Docs = []*result.Document{exampleHistory(t)[result.HistoryViewTrend]}
	case "history-traced":
		s.Docs = []*result.Document{exampleTracedTrend(t)}
	default:
		s.Docs = exampleDocs(t, kind)
	}
	o := Options{Title: "chrono report: " + kind, Version: "test", CommandLine: "chrono report --html " + kind + ".html"}
	if kind == "trace" {
		s.Traces, s.TraceNames = []*tracer.Trace{exampleTrace(t)}, []string{"pipeline-trace.json"}
	}
	var b bytes.Buffer
	if err := Render(&b, s, HTML, o); err != nil {
		t.Fatalf("%s: %v", kind, err)
	}
	return b.Bytes()
}

// TestHTMLSelfContained: every kind's report loads nothing from
// elsewhere, escapes what documents hold, and has the plots and tables
// of its kind.
func TestHTMLSelfContained(t *testing.T) {
	wantPlots := map[string][]string{
		"command":   {"distribution", "violin", "sequence", "comparison", "metric-max-rss"},
		"function":  {"distribution-linear", "sequence", "comparison", "per-cpu"}, // no shared violin: sortsearch's medians are more than 10x apart,
		"sleep":     {"sleep-error", "sleep-cpu"},
		"latency":   {"latency-histogram", "latency-percentiles"},
		"clocks":    {"read-cost", "clocks-tick", "tsc-calibration"},
		"numbers":   {"numbers-distribution", "numbers-sequence"},
		"trace":     {"trace-distribution"},
		"hyperfine": {"command-distribution", "command-comparison"},
		"gobench":   {"function-distribution-linear-2", "compare-2-ratios"},
		"pulses":    {"pulses-waveform", "pulses-distribution-irq-rise-task-rise", "pulses-distribution-top-irq-rise-period"},
	}
	for _, kind := range exampleKinds {
		t.Run(kind, func(t *testing.T) {
			page := string(htmlExample(t, kind))
			scrub := regexp.MustCompile(`xmlns(:xlink)?="http://www.w3.org/[^"]*"`).ReplaceAllString(page, "")
			for _, bad := range []string{"http://", "https://", " src=", "@import", "url(", "<link rel=\"stylesheet\""} {
				if strings.Contains(scrub, bad) {
					t.Errorf("the page contains %q: it must load nothing", bad)
				}
			}
			for _, w := range wantPlots[kind] {
				if !strings.Contains(page, `id="plot-`) || !regexp.MustCompile(`id="plot-[^"]*`+regexp.QuoteMeta(w)).MatchString(page) {
					t.Errorf("no plot %q", w)
				}
			}
			if !strings.Contains(page, "<table>") {
				t.Error("no table")
			}
			// Markdown's code spans (in warnings, table cells) are code,
			// never literal backticks.
			text := regexp.MustCompile(`(?s)<script>.*?</script>|<style>.*?</style>|srcdoc="[^"]*"`).ReplaceAllString(page, "")
			if i := strings.Index(text, "`"); i >= 0 {
				t.Errorf("a literal backtick on the page: %q", text[max(0, i-60):min(len(text), i+20)])
			}
			if kind != "latency" && kind != "trace" && kind != "gobench" && kind != "hyperfine" && kind != "pulses" && !strings.Contains(page, "environment") {
				t.Error("no environment")
			}
		})
	}
	// Names from documents are escaped, in text and in the plots.
	d := &result.Document{Schema: result.Schema, Version: result.Version, Kind: result.KindCommand,
		Measurements: []result.Measurement{{Name: "<script>alert(1)</script>", Primary: "wall", Metrics: []result.Metric{{Name: "wall", Unit: "ns", Values: []float64{1, 2, 3, 4, 5}}}}}}
	var b bytes.Buffer
	if err := Render(&b, Subject{Docs: []*result.Document{d}}, HTML, Options{Title: "</title><b>"}); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(b.String(), "<script>alert") || strings.Contains(b.String(), "</title><b>") {
		t.Error("a name from the document was not escaped")
	}
}

// TestHTMLPulsesWaveform: the waveform strip of a pulses document has a
// lane per channel with its levels and their lengths under the pointer,
// the --between edges marked, and no distribution of a figure whose
// values are all equal (top.clk's).
func TestHTMLPulsesWaveform(t *testing.T) {
	page := string(htmlExample(t, "pulses"))
	i := strings.Index(page, `id="plot-1-pulses-waveform"`)
	if i < 0 {
		t.Fatal("no waveform plot")
	}
	fig := page[i:]
	fig = fig[:strings.Index(fig, "</figure>")]
	for _, want := range []string{
		"top.clk: low at 0 ns, for 100 ns", "top.clk: high at 100 ns, for 40 ns",
		"top.irq: high at 120 ns, for 20 ns", // the first irq pulse (capture/pulse_test.go)
		"top.cpu.noisy: high at 100 ns",
		"irq:rise at 120 ns (from of irq:rise → task:rise)", "task:rise at 170 ns (to of irq:rise → task:rise)",
		"time (ns)", "the first 43 level changes of the measured channels (0 ns to 580 ns)",
	} {
		if !strings.Contains(html.UnescapeString(fig), want) {
			t.Errorf("the waveform lacks %q", want)
		}
	}
	// Each lane's label stands beside its own levels: the labels and the
	// lanes' first levels (hover points, in SVG coordinates) go down the
	// plot in the channels' order, and each label is nearest its lane.
	var hover struct {
		P [][3]any `json:"p"`
	}
	m := regexp.MustCompile(`data-hover="([^"]*)"`).FindStringSubmatch(fig)
	if m == nil || json.Unmarshal([]byte(html.UnescapeString(m[1])), &hover) != nil {
		t.Fatal("the waveform has no hover data")
	}
	// The SVG draws text flipped (scale(1, -1)) in a frame whose y goes
	// up from the bottom: a label's y from the top is the height less -y.
	vb := regexp.MustCompile(`viewBox="0 0 [0-9.]+ ([0-9.]+)"`).FindStringSubmatch(fig)
	if vb == nil {
		t.Fatal("the waveform's SVG has no viewBox")
	}
	height, _ := strconv.ParseFloat(vb[1], 64)
	lanes := []string{"top.clk", "top.irq", "top.task", "top.cpu.noisy"}
	var labelY, levelY []float64
	for _, lane := range lanes {
		lm := regexp.MustCompile(`y="(-?[0-9.]+)"[^>]*transform="scale\(1, -1\)"[^>]*>` + regexp.QuoteMeta(lane) + `<`).FindStringSubmatch(fig)
		if lm == nil {
			t.Fatalf("no lane label %s", lane)
		}
		y, _ := strconv.ParseFloat(lm[1], 64)
		labelY = append(labelY, height+y)
		found := false
		for _, q := range hover.P {
			if text, _ := q[2].(string); strings.HasPrefix(text, lane+": low at 0 ns") {
				levelY, found = append(levelY, q[1].(float64)), true
				break
			}
		}
		if !found {
			t.Fatalf("no hover point of %s's first level", lane)
		}
	}
	for i := range lanes {
		for j := range lanes {
			if j != i && math.Abs(labelY[i]-levelY[j]) < math.Abs(labelY[i]-levelY[i]) {
				t.Errorf("the label %s (y %.1f) is nearer the lane of %s (%.1f) than its own (%.1f)", lanes[i], labelY[i], lanes[j], levelY[j], levelY[i])
			}
		}
		if i > 0 && !(levelY[i] > levelY[i-1]) {
			t.Errorf("lane %s (y %.1f) is not below %s (%.1f)", lanes[i], levelY[i], lanes[i-1], levelY[i-1])
		}
	}
	if strings.Contains(page, `id="plot-1-pulses-distribution-top-clk-high"`) {
		t.Error("a distribution of equal values (top.clk high: 40 ns each) is drawn")
	}
}

// layoutProbe checks a loaded report page against the layout rules (see
// testdata/browser/layout.js) and returns the broken ones.
//
//go:embed testdata/browser/layout.js
var layoutProbe string

// TestHTMLInBrowser loads the report of every kind (every example
// document of docs/examples, the history store's trend among them) in
// headless Chromium, hovers a plot, clicks it and zooms it with the
// wheel, and fails on any console error, uncaught exception or network
// request, and on every broken layout rule (layoutProbe): a legend entry
// over a data mark or another entry, a data mark outside its axes or data
// (with reference lines) that fill less than half of an axis that is not
// logarithmic and labelled so, a row of names or a legend's series
// without a visible mark inside the axes (TestLayoutProbeMarks), tick
// labels of two notations on one axis or durations in a unit that does
// not fit, text cut off, a plot under a heading that does not name what
// it covers. It saves a screenshot of each at 1300×2400
// (-html.screenshots DIR: the README's images are made with
// scripts/report-screenshots.sh).
func TestHTMLInBrowser(t *testing.T) {
	chrome, err := browser.Find()
	if err != nil {
		t.Skipf("skipped: %v; CI installs Debian's chromium so that this runs", err)
	}
	dir := crosstest.TempDir(t)
	for _, kind := range append(exampleKinds, "history", "history-traced") {
		t.Run(kind, func(t *testing.T) {
			page := filepath.Join(dir, kind+".html")
			if err := os.WriteFile(page, htmlExample(t, kind), 0o644); err != nil {
				t.Fatal(err)
			}
			res, err := browser.Load(chrome, page, browser.Options{
				Width: 1300, Height: 2400,
				Mouse: []browser.Mouse{{Type: "mouseMoved", X: 200, Y: 300}},
				Probes: []string{
					`document.querySelectorAll("figure.plot svg").length`,
					// Hover the first plot's first hover point: the tip shows its text.
					`(function () {
					  const fig = document.querySelector("figure.plot");
					  if (!fig) return "no plot";
					  const svg = fig.querySelector("svg"), H = JSON.parse(fig.getAttribute("data-hover"));
					  const r = svg.getBoundingClientRect(), vb = svg.viewBox.baseVal;
					  const p = H.p.length ? H.p[0] : [(H.f[0] + H.f[2]) / 2, (H.f[1] + H.f[3]) / 2];
					  const x = r.left + (p[0] - vb.x) / vb.width * r.width, y = r.top + (p[1] - vb.y) / vb.height * r.height;
					  svg.dispatchEvent(new MouseEvent("mousemove", { clientX: x, clientY: y, bubbles: true }));
					  const tip = document.getElementById("tip");
					  const shown = tip.style.display + ":" + tip.textContent;
					  fig.dispatchEvent(new MouseEvent("click", { bubbles: true }));
					  svg.dispatchEvent(new WheelEvent("wheel", { clientX: x, clientY: y, deltaY: -100, bubbles: true, cancelable: true }));
					  const zoomed = svg.getAttribute("viewBox");
					  document.dispatchEvent(new KeyboardEvent("keydown", { key: "Escape" }));
					  return shown + "|" + (zoomed !== svg.getAttribute("viewBox") ? "zoomed" : "not zoomed");
					})()`,
					`document.querySelectorAll("table").length`,
					layoutProbe,
				},
			})
			if err != nil {
				t.Fatal(err)
			}
			for _, e := range res.ConsoleErrors {
				t.Errorf("console: %s", e)
			}
			for _, r := range res.Requests {
				t.Errorf("network request: %s", r)
			}
			if res.Probes[0] == "0" && kind != "env" {
				t.Errorf("no plot drawn")
			}
			if kind != "env" && (!strings.HasPrefix(res.Probes[1], `"block:`) || !strings.HasSuffix(res.Probes[1], `|zoomed"`)) {
				t.Errorf("hover and zoom: %s", res.Probes[1])
			}
			if res.Probes[2] == "0" && kind != "history" && kind != "history-traced" {
				t.Errorf("no table")
			}
			var broken []string
			if err := json.Unmarshal([]byte(res.Probes[3]), &broken); err != nil {
				t.Fatalf("the layout probe: %v (%s)", err, res.Probes[3])
			}
			for _, b := range broken {
				t.Errorf("layout: %s", b)
			}
			if !bytes.HasPrefix(res.PNG, []byte("\x89PNG")) {
				t.Error("the screenshot is not a PNG")
			}
			out := filepath.Join(dir, kind+".png")
			if *screenshotDir != "" {
				out = filepath.Join(*screenshotDir, kind+".png")
			}
			if err := os.WriteFile(out, res.PNG, 0o644); err != nil {
				t.Fatal(err)
			}
			t.Logf("%s: %s plots, %s tables; screenshot %s (%d bytes)", kind, res.Probes[0], res.Probes[2], out, len(res.PNG))
		})
	}
}

// htmlSkeleton is what the HTML golden files hold: the plots' names,
// titles and captions, and the page's text without markup, so that a
// change of layout or figures shows in review without the SVG's
// coordinates.
func htmlSkeleton(page []byte) []byte {
	s := string(page)
	s = regexp.MustCompile(`(?s)<svg.*?</svg>`).ReplaceAllString(s, "[plot]")
	s = regexp.MustCompile(`(?s)<style>.*?</style>|<script>.*?</script>`).ReplaceAllString(s, "")
	s = regexp.MustCompile(`srcdoc="[^"]*"`).ReplaceAllString(s, `srcdoc="[timeline page]"`)
	s = regexp.MustCompile(`data-hover="[^"]*"`).ReplaceAllString(s, "")
	s = regexp.MustCompile(`<(figure|section|iframe)[^>]*id="([^"]*)"[^>]*>`).ReplaceAllString(s, "\n[$1 $2]\n")
	s = regexp.MustCompile(`</(tr|h1|h2|h3|p|li|figcaption|div|summary)>`).ReplaceAllString(s, "\n")
	s = regexp.MustCompile(`</t[dh]>`).ReplaceAllString(s, " | ")
	s = strings.ReplaceAll(s, "<br>", "\n")
	s = html.UnescapeString(regexp.MustCompile(`<[^>]+>`).ReplaceAllString(s, ""))
	var lines []string
	for _, l := range strings.Split(s, "\n") {
		if l = strings.TrimSpace(l); l != "" {
			lines = append(lines, l)
		}
	}
	return []byte(strings.Join(lines, "\n") + "\n")
}

// TestHTMLGolden checks each kind's report against its skeleton.
func TestHTMLGolden(t *testing.T) {
	for _, kind := range exampleKinds {
		t.Run(kind, func(t *testing.T) {
			golden(t, fmt.Sprintf("html/%s.txt", kind), htmlSkeleton(htmlExample(t, kind)))
		})
	}
}

// layoutTestPage is a constructed plot for TestLayoutProbeMarks: a y axis
// of names whose rows hold a box ("box"), a sliver 0.3 px wide with a
// whisker ("sliver"), a white dot ("white"), a box drawn outside the axes
// ("outside"), and a legend of three series: one with a dot inside the
// axes ("kept"), one whose only mark lies outside them ("gone") and one
// that stands for no plotted series ("orphan").
const layoutTestPage = `<!DOCTYPE html><html><head><meta charset="utf-8"><style>body{margin:0}</style></head><body>
<figure class="plot" id="plot-test" data-hover='{"f":[80,30,380,230,0,1,0,1,0,0],"n":1,"l":["x (ns)",""],"p":[]}'>
<svg viewBox="0 0 400 260" width="400" height="260" style="font:10px sans-serif">
<path class="p-legend" data-key="0" data-for="7" d="M10,8L20,8L20,16L10,16Z" style="fill:#4e79a7"/><text class="p-legend" data-key="0" data-for="7" x="24" y="16">kept</text>
<path class="p-legend" data-key="1" data-for="8" d="M70,8L80,8L80,16L70,16Z" style="fill:#f28e2b"/><text class="p-legend" data-key="1" data-for="8" x="84" y="16">gone</text>
<path class="p-legend" data-key="2" d="M130,8L140,8L140,16L130,16Z" style="fill:#e15759"/><text class="p-legend" data-key="2" x="144" y="16">orphan</text>
<text class="p-axes" x="75" y="58" text-anchor="end">box</text>
<text class="p-axes" x="75" y="108" text-anchor="end">sliver</text>
<text class="p-axes" x="75" y="158" text-anchor="end">white</text>
<text class="p-axes" x="75" y="208" text-anchor="end">outside</text>
<path class="p-data" data-p="0" d="M120,48L180,48L180,62L120,62Z" style="fill:#4e79a7"/>
<path class="p-data" data-p="1" d="M200,90L200.3,90L200.3,115L200,115Z" style="fill:#f28e2b"/>
<path class="p-data" data-p="1" d="M120,104L260,104" style="fill:none;stroke:#333333;stroke-width:1"/>
<path class="p-data" data-p="2" d="M197,154A3,3 0 1 1 203,154A3,3 0 1 1 197,154Z" style="fill:#ffffff"/>
<path class="p-data" data-p="3" d="M384,198L396,198L396,212L384,212Z" style="fill:#59a14f"/>
<path class="p-data" data-p="7" d="M297,74A3,3 0 1 1 303,74A3,3 0 1 1 297,74Z" style="fill:#4e79a7"/>
<path class="p-data" data-p="8" d="M1,240L8,240L8,250L1,250Z" style="fill:#f28e2b"/>
</svg><figcaption><b>test</b></figcaption></figure></body></html>`

// TestLayoutProbeMarks: layoutProbe's rule that every series has a
// visible mark inside its axes finds, on a constructed plot, the rows
// and legend series that draw nothing a reader sees (a sliver, a white
// dot, a mark outside the axes, an entry for no series) and passes the
// ones that do.
func TestLayoutProbeMarks(t *testing.T) {
	chrome, err := browser.Find()
	if err != nil {
		t.Skipf("skipped: %v; CI installs Debian's chromium so that this runs", err)
	}
	page := filepath.Join(crosstest.TempDir(t), "layout.html")
	if err := os.WriteFile(page, []byte(layoutTestPage), 0o644); err != nil {
		t.Fatal(err)
	}
	res, err := browser.Load(chrome, page, browser.Options{Width: 600, Height: 400, Probes: []string{layoutProbe}})
	if err != nil {
		t.Fatal(err)
	}
	var broken []string
	if err := json.Unmarshal([]byte(res.Probes[0]), &broken); err != nil {
		t.Fatalf("the layout probe: %v (%s)", err, res.Probes[0])
	}
	all := strings.Join(broken, "\n")
	t.Logf("the probe says:\n%s", all)
	for _, want := range []string{
		`plot-test: the row "sliver" has no visible data mark`,
		`plot-test: the row "white" has no visible data mark`,
		`plot-test: the row "outside" has no visible data mark`,
		`plot-test: the legend entry "gone" names a series with no visible data mark inside the axes`,
		`plot-test: the legend entry "orphan" stands for no plotted series`,
	} {
		if !strings.Contains(all, want) {
			t.Errorf("the probe did not say %q; it said:\n%s", want, all)
		}
	}
	for _, fine := range []string{`"box"`, `"kept"`} {
		if strings.Contains(all, fine) {
			t.Errorf("the probe faults %s, which has a visible mark:\n%s", fine, all)
		}
	}
}
