package report

import (
	"bytes"
	_ "embed"
	"encoding/json"
	"flag"
	"fmt"
	"html"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/chronograph/chronograph/internal/browser"
	"github.com/chronograph/chronograph/internal/crosstest"
	"github.com/chronograph/chronograph/result"
	"github.com/chronograph/chronograph/tracer"
)

var screenshotDir = flag.String("html.screenshots", "", "TestHTMLInBrowser: save each kind's screenshot (KIND.png) in this directory")

// htmlExample writes the HTML report of a kind's example documents;
// kind "history" is the trend page of docs/examples/history.db.
func htmlExample(t testing.TB, kind string) []byte {
	t.Helper()
	var s Subject
	if kind == "history" {
		s.Docs = []*result.Document{exampleHistory(t)[result.HistoryViewTrend]}
	} else {
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
		"function":  {"distribution-linear", "violin", "sequence", "comparison", "per-cpu"},
		"sleep":     {"sleep-error", "sleep-cpu"},
		"latency":   {"latency-histogram", "latency-percentiles"},
		"clocks":    {"read-cost", "clocks-tick", "tsc-calibration"},
		"numbers":   {"numbers-distribution", "numbers-sequence"},
		"trace":     {"trace-distribution"},
		"hyperfine": {"command-distribution", "command-comparison"},
		"gobench":   {"function-distribution-linear-2", "compare-2-ratios"},
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
			if kind != "latency" && kind != "trace" && kind != "gobench" && kind != "hyperfine" && !strings.Contains(page, "environment") {
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
// that fill less than half of an axis that is not logarithmic and
// labelled so, tick labels of two notations on one axis or durations in a
// unit that does not fit, text cut off, a plot under a heading that does
// not name what it covers. It saves a screenshot of each at 1300×2400
// (-html.screenshots DIR: the README's images are made with
// scripts/report-screenshots.sh).
func TestHTMLInBrowser(t *testing.T) {
	chrome, err := browser.Find()
	if err != nil {
		t.Skipf("skipped: %v; CI installs Debian's chromium so that this runs", err)
	}
	dir := crosstest.TempDir(t)
	for _, kind := range append(exampleKinds, "history") {
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
			if res.Probes[2] == "0" && kind != "history" {
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
