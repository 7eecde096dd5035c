package report

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
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
	"github.com/chronograph/chronograph/warn"
)

var (
	timelinePageFlag = flag.String("timeline.html", "", "TestTimelineInBrowser: load this timeline page instead of the test fixture")
	screenshotFlag   = flag.String("timeline.screenshot", "", "TestTimelineInBrowser: save the screenshot here (PNG)")
	viewFlag         = flag.String("timeline.view", "", "TestTimelineInBrowser: open the page on FROM,TO (ns from the first event)")
	hoverFlag        = flag.String("timeline.hover", "", "TestTimelineInBrowser: hover the mouse at X,Y (CSS pixels) before the screenshot")
)

// fixture is a small trace: two lanes with nested spans, a flow across
// them, instants and a counter.
func fixture() *tracer.Trace {
	return &tracer.Trace{
		Clock: "tsc: test",
		Lanes: []tracer.LaneInfo{{ID: 1, Name: "reader"}, {ID: 2, Name: "worker <1>"}},
		Events: []tracer.Event{
			{Kind: tracer.KindSpan, Lane: 0, Name: "read", TS: 0, Dur: 400_000, Flow: 1},
			{Kind: tracer.KindSpan, Lane: 0, Name: "decode", TS: 50_000, Dur: 200_000},
			{Kind: tracer.KindSpan, Lane: 0, Name: "inner", TS: 60_000, Dur: 100_000},
			{Kind: tracer.KindSpan, Lane: 1, Name: "work", TS: 450_000, Dur: 500_000, Flow: 1},
			{Kind: tracer.KindSpan, Lane: 1, Name: "work", TS: 1_000_000, Dur: 300_000, Flow: 1<<60 + 1},
			{Kind: tracer.KindInstant, Lane: 0, Name: "queued", TS: 420_000, Payload: 1<<63 + 5, Flow: 1},
			{Kind: tracer.KindCounter, Name: "backlog", TS: 0, Value: 1},
			{Kind: tracer.KindCounter, Name: "backlog", TS: 500_000, Value: 3},
			{Kind: tracer.KindCounter, Name: "backlog", TS: 900_000, Value: 0},
		},
	}
}

// renderTimeline renders the timeline page of tr, titled by its name.
func renderTimeline(w *bytes.Buffer, tr *tracer.Trace) error {
	return Render(w, Subject{Traces: []*tracer.Trace{tr}, TraceNames: []string{"fixture </script><b>"}}, HTML, Options{})
}

func TestTimelineHTML(t *testing.T) {
	var buf bytes.Buffer
	if err := renderTimeline(&buf, fixture()); err != nil {
		t.Fatal(err)
	}
	page := buf.String()
	// Self-contained: nothing that would load from elsewhere.
	for _, bad := range []string{"http://", "https://", " src=", "@import", "url("} {
		if strings.Contains(page, bad) {
			t.Errorf("the page contains %q: it must load nothing", bad)
		}
	}
	if strings.Contains(page, "</script><b>") {
		t.Error("the title was not escaped")
	}
	m := regexp.MustCompile(`(?s)<script id="data" type="application/json">(.*?)</script>`).FindStringSubmatch(page)
	if m == nil {
		t.Fatal("no data block")
	}
	var d timelineData
	if err := json.Unmarshal([]byte(m[1]), &d); err != nil {
		t.Fatalf("data block: %v", err)
	}
	if d.Title != "fixture </script><b>" || d.Clock != "tsc: test" || strings.Join(d.Lanes, "|") != "reader|worker <1>" {
		t.Errorf("header %+v", d)
	}
	if strings.Join(d.Names, ",") != "read,decode,inner,work,queued,backlog" {
		t.Errorf("names %v", d.Names)
	}
	span := func(i int) string { b, _ := json.Marshal(d.Spans[i]); return string(b) }
	if span(0) != `[0,0,0,400000,"0x1"]` || span(4) != `[1,3,1000000,300000,"0x1000000000000001"]` || span(1) != `[0,1,50000,200000,""]` {
		t.Errorf("spans %v", d.Spans)
	}
	if b, _ := json.Marshal(d.Instants[0]); string(b) != `[0,4,420000,"9223372036854775813","0x1"]` {
		t.Errorf("instant %s", b)
	}
	if b, _ := json.Marshal(d.Counters); string(b) != `[[0,5,0,1],[0,5,500000,3],[0,5,900000,0]]` {
		t.Errorf("counters %s", b)
	}
	bad := fixture()
	bad.Events[0].Lane = 5
	if err := renderTimeline(&buf, bad); err == nil || !strings.HasPrefix(err.Error(), "report: ") {
		t.Errorf("a span on a missing lane: %v", err)
	}
}

// TestTimelineInBrowser loads the timeline in headless Chromium, hovers a
// span and zooms, and fails on any console error, uncaught exception or
// network request. It saves a screenshot (-timeline.screenshot FILE; the
// README's image is made with scripts/trace-screenshot.sh).
func TestTimelineInBrowser(t *testing.T) {
	chrome, err := browser.Find()
	if err != nil {
		t.Skipf("skipped: %v; CI installs Debian's chromium so that this runs", err)
	}
	page := *timelinePageFlag
	if page == "" {
		page = filepath.Join(crosstest.TempDir(t), "timeline.html")
		var buf bytes.Buffer
		if err := renderTimeline(&buf, fixture()); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(page, buf.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	o := browser.Options{
		Width: 1200, Height: 560,
		Probes: []string{
			`document.getElementById("meta").textContent.length > 0`,
			`document.getElementById("c").width > 0`,
			`document.getElementById("tip").style.display`,
		},
	}
	if *timelinePageFlag == "" {
		// The fixture's "read" span fills lane 0, depth 0, from x = 160
		// (the gutter) over about a third of the width: hover its middle,
		// then wheel-zoom there.
		o.Mouse = []browser.Mouse{{Type: "mouseMoved", X: 300, Y: 62}, {Type: "mouseWheel", X: 300, Y: 62, DeltaY: -200}, {Type: "mouseMoved", X: 300, Y: 63}}
	}
	if *viewFlag != "" {
		o.Fragment = "view=" + *viewFlag
	}
	if *hoverFlag != "" {
		var x, y float64
		if _, err := fmt.Sscanf(*hoverFlag, "%g,%g", &x, &y); err != nil {
			t.Fatalf("-timeline.hover %q: want X,Y", *hoverFlag)
		}
		o.Mouse = append(o.Mouse, browser.Mouse{Type: "mouseMoved", X: x, Y: y})
	}
	res, err := browser.Load(chrome, page, o)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range res.ConsoleErrors {
		t.Errorf("console: %s", e)
	}
	for _, r := range res.Requests {
		t.Errorf("network request: %s", r)
	}
	if res.Probes[0] != "true" || res.Probes[1] != "true" {
		t.Errorf("the page did not draw: probes %v", res.Probes)
	}
	if *timelinePageFlag == "" && res.Probes[2] != `"block"` {
		t.Errorf("hovering a span showed no details: tip display %s", res.Probes[2])
	}
	out := *screenshotFlag
	if out == "" {
		out = filepath.Join(crosstest.TempDir(t), "timeline.png")
	}
	if err := os.WriteFile(out, res.PNG, 0o644); err != nil {
		t.Fatal(err)
	}
	if !bytes.HasPrefix(res.PNG, []byte("\x89PNG")) {
		t.Error("the screenshot is not a PNG")
	}
	t.Logf("screenshot: %s (%d bytes)", out, len(res.PNG))
}

// TestTimelineExampleInBrowser loads the timeline of
// docs/examples/pipeline-trace.json and checks its layout: every span
// label drawn whole within its span, the time axis in one unit, and the
// header counting every lane (counters' too, as chrono trace does).
func TestTimelineExampleInBrowser(t *testing.T) {
	chrome, err := browser.Find()
	if err != nil {
		t.Skipf("skipped: %v; CI installs Debian's chromium so that this runs", err)
	}
	page := filepath.Join(crosstest.TempDir(t), "timeline.html")
	var buf bytes.Buffer
	if err := writeTimelinePage(&buf, exampleTrace(t), "pipeline-trace.json"); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(page, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	res, err := browser.Load(chrome, page, browser.Options{Width: 1300, Height: 700, Probes: []string{
		`JSON.stringify(timelineLabels().filter((l) => l[1] > l[2]))`,
		`timelineLabels().length`,
		`JSON.stringify(timelineTicks())`,
		`document.getElementById("meta").textContent`,
	}})
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range res.ConsoleErrors {
		t.Errorf("console: %s", e)
	}
	if res.Probes[0] != `"[]"` {
		t.Errorf("span labels wider than their spans: %s", res.Probes[0])
	}
	if res.Probes[1] == "0" {
		t.Error("no span label drawn")
	}
	var ticks []string
	if err := json.Unmarshal([]byte(strings.Trim(res.Probes[2], `"`)), &ticks); err != nil {
		s, _ := strconv.Unquote(res.Probes[2])
		if err := json.Unmarshal([]byte(s), &ticks); err != nil {
			t.Fatalf("ticks %s: %v", res.Probes[2], err)
		}
	}
	units := map[string]bool{}
	for _, tk := range ticks {
		units[tk[strings.LastIndex(tk, " ")+1:]] = true
	}
	if len(ticks) < 3 || len(units) != 1 {
		t.Errorf("the time axis's labels are not in one unit: %v", ticks)
	}
	if !strings.Contains(res.Probes[3], "on 7 lanes (2 of counters)") {
		t.Errorf("the header does not count the 7 lanes chrono trace counts: %s", res.Probes[3])
	}
}

// traceDocument is a trace summary document as tracer.Document writes it.
func traceDocument() *result.Document {
	d := &result.Document{Schema: result.Schema, Version: result.Version, Kind: result.KindTrace}
	d.Run.Trace = &result.TraceRun{Clock: "tsc: test", Lanes: 2, FromNs: 0, ToNs: 2000, Events: 8, Overwritten: 3, RingEvents: 8}
	tr := func(td result.TraceDetail) result.KindDetail { return result.KindDetail{Trace: &td} }
	d.Measurements = []result.Measurement{
		{Name: "span task", Primary: "duration", Metrics: []result.Metric{{Name: "duration", Unit: "ns", Resolution: 1, Values: []float64{10, 1, 1000}}},
			Detail: tr(result.TraceDetail{Role: "span", Span: "task", TotalNs: 1011, WallShare: 0.5055})},
		{Name: "irq → task (same flow)", Primary: "interval", Metrics: []result.Metric{{Name: "interval", Unit: "ns", Resolution: 1, Values: []float64{2, 5}}},
			Detail: tr(result.TraceDetail{Role: "between", A: "irq", B: "task", PerFlow: true, Unmatched: 2})},
		{Name: "irq → nothing", Detail: tr(result.TraceDetail{Role: "between", A: "irq", B: "nothing", Unmatched: 4}),
			Warnings: []warn.Warning{warn.New("no-pairs", "no irq event is followed by a nothing event", "check the names (and the flow ids with per-flow pairing)")}},
		{Name: "gaps reader", Primary: "gap", Metrics: []result.Metric{{Name: "gap", Unit: "ns", Resolution: 1, Values: []float64{1980, 10}}},
			Detail: tr(result.TraceDetail{Role: "gaps", Lane: "reader", GapFromNs: []int64{20, 0}})},
	}
	d.Warnings = []warn.Warning{warn.New("trace-overwritten", "the rings overwrote their oldest events before the dump", "give Options.RingEvents more room")}
	return d
}

func TestTraceView(t *testing.T) {
	var buf bytes.Buffer
	if err := Render(&buf, Subject{Docs: []*result.Document{traceDocument()}}, Text, Options{}); err != nil {
		t.Fatal(err)
	}
	golden(t, "trace.txt", buf.Bytes())
	// The same after a JSON round trip.
	var enc bytes.Buffer
	if err := result.Encode(&enc, traceDocument()); err != nil {
		t.Fatal(err)
	}
	d, err := result.Decode(&enc)
	if err != nil {
		t.Fatal(err)
	}
	var buf2 bytes.Buffer
	if err := Render(&buf2, Subject{Docs: []*result.Document{d}}, Text, Options{}); err != nil {
		t.Fatal(err)
	}
	if buf2.String() != buf.String() {
		t.Errorf("after a JSON round trip:\n%s\nbefore:\n%s", buf2.String(), buf.String())
	}
	var csvb bytes.Buffer
	if err := Render(&csvb, Subject{Docs: []*result.Document{traceDocument()}}, CSV, Options{}); err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(csvb.String(), "span,count,p50_ns,p90_ns,p99_ns,max_ns,total_ns,wall_share\ntask,3,") {
		t.Errorf("csv:\n%s", csvb.String())
	}
}
