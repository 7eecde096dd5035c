package report

import (
	"encoding/json"
	"fmt"
	"html/template"
	"io"
	"sync"
)

// Timeline is what TimelineHTML draws: lanes (threads, goroutines, Ps)
// holding spans, instants and counter values, with times in ns from a
// common origin.
type Timeline struct {
	// Title heads the page; Clock names the stamp source.
	Title, Clock string
	Lanes        []string
	Spans        []TimelineSpan
	Instants     []TimelineInstant
	Counters     []TimelineCounter
}

// TimelineSpan is a timed region of lane Lane (an index into Lanes).
type TimelineSpan struct {
	Lane       int
	Name       string
	Start, Dur int64
	Flow       uint64
}

// TimelineInstant is a point event with a payload.
type TimelineInstant struct {
	Lane    int
	Name    string
	At      int64
	Payload uint64
	Flow    uint64
}

// TimelineCounter is a counter's value from At on.
type TimelineCounter struct {
	Name  string
	At    int64
	Value float64
}

// timelineData is the compact JSON the page's script reads: names are
// indexes into Names; spans are [lane, name, start, dur, flow], instants
// [lane, name, at, payload, flow], counters [name, at, value]. Flow ids
// and payloads are strings (JavaScript numbers lose integers above 2^53).
type timelineData struct {
	Title    string   `json:"title"`
	Clock    string   `json:"clock"`
	Lanes    []string `json:"lanes"`
	Names    []string `json:"names"`
	Spans    [][5]any `json:"spans"`
	Instants [][5]any `json:"instants"`
	Counters [][3]any `json:"counters"`
}

// TimelineHTML writes tl as one self-contained HTML page: no network
// request, no external script, style sheet or font. It shows one lane per
// Timeline lane with spans nested by containment, instants as ticks and
// counters as step lines; the mouse wheel zooms around the pointer,
// dragging pans, hovering shows an event's details and links the events
// of its flow, and the keys +, -, arrows and 0 (reset) work too. A URL
// fragment #view=FROM,TO (ns from the first event) opens on that stretch.
func TimelineHTML(w io.Writer, tl Timeline) error {
	d := timelineData{Title: tl.Title, Clock: tl.Clock, Lanes: tl.Lanes, Spans: [][5]any{}, Instants: [][5]any{}, Counters: [][3]any{}}
	if d.Lanes == nil {
		d.Lanes = []string{}
	}
	idx := map[string]int{}
	name := func(s string) int {
		if i, ok := idx[s]; ok {
			return i
		}
		idx[s] = len(d.Names)
		d.Names = append(d.Names, s)
		return idx[s]
	}
	flow := func(f uint64) string {
		if f == 0 {
			return ""
		}
		return fmt.Sprintf("%#x", f)
	}
	for i, s := range tl.Spans {
		if s.Lane < 0 || s.Lane >= len(tl.Lanes) {
			return fmt.Errorf("report: timeline span %d (%q) has lane %d of %d", i, s.Name, s.Lane, len(tl.Lanes))
		}
		d.Spans = append(d.Spans, [5]any{s.Lane, name(s.Name), s.Start, s.Dur, flow(s.Flow)})
	}
	for i, e := range tl.Instants {
		if e.Lane < 0 || e.Lane >= len(tl.Lanes) {
			return fmt.Errorf("report: timeline instant %d (%q) has lane %d of %d", i, e.Name, e.Lane, len(tl.Lanes))
		}
		d.Instants = append(d.Instants, [5]any{e.Lane, name(e.Name), e.At, fmt.Sprint(e.Payload), flow(e.Flow)})
	}
	for _, c := range tl.Counters {
		d.Counters = append(d.Counters, [3]any{name(c.Name), c.At, c.Value})
	}
	if d.Names == nil {
		d.Names = []string{}
	}
	data, err := json.Marshal(d) // escapes <, > and &: safe inside <script>
	if err != nil {
		return fmt.Errorf("report: encoding the timeline: %w", err)
	}
	return timelinePage().Execute(w, struct {
		Title string
		Data  template.JS
	}{tl.Title, template.JS(data)})
}

// timelinePage is parsed on first use, not when the program starts.
var timelinePage = sync.OnceValue(func() *template.Template { return template.Must(template.New("timeline").Parse(timelineHTML)) })

const timelineHTML = `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="icon" href="data:,">
<title>{{.Title}}</title>
<style>
html, body { margin: 0; height: 100%; background: #fff; color: #222; font: 12px system-ui, sans-serif; }
body { display: flex; flex-direction: column; }
header { padding: 6px 10px; border-bottom: 1px solid #ccc; display: flex; gap: 16px; align-items: baseline; flex-wrap: wrap; }
header h1 { font-size: 14px; margin: 0; }
header .meta { color: #555; }
header .help { color: #777; margin-left: auto; }
#wrap { position: relative; flex: 1; overflow-y: auto; overflow-x: hidden; }
canvas { display: block; cursor: grab; }
canvas.drag { cursor: grabbing; }
#tip { position: fixed; pointer-events: none; background: rgba(255,255,255,0.97); border: 1px solid #888; padding: 4px 6px; font: 12px ui-monospace, monospace; white-space: pre; display: none; z-index: 2; box-shadow: 1px 1px 4px rgba(0,0,0,0.2); }
</style>
</head>
<body>
<header><h1 id="title"></h1><span class="meta" id="meta"></span><span class="help">wheel: zoom · drag: pan · hover: details · + − ← → · 0: reset</span></header>
<div id="wrap"><canvas id="c"></canvas></div>
<div id="tip"></div>
<script id="data" type="application/json">{{.Data}}</script>
<script>
"use strict";
(function () {
  const D = JSON.parse(document.getElementById("data").textContent);
  const gutter = 160, axisH = 22, rowH = 16, laneGap = 6, counterH = 36;
  const canvas = document.getElementById("c"), wrap = document.getElementById("wrap"), tip = document.getElementById("tip");
  const ctx = canvas.getContext("2d");
  document.getElementById("title").textContent = D.title || "timeline";
  function fmt(ns) {
    const a = Math.abs(ns);
    if (a < 1e3) return ns.toFixed(0) + " ns";
    if (a < 1e6) return (ns / 1e3).toPrecision(4) + " µs";
    if (a < 1e9) return (ns / 1e6).toPrecision(4) + " ms";
    return (ns / 1e9).toPrecision(4) + " s";
  }
  // Lanes: spans nested by containment (a stack of open ends per lane).
  const all = D.lanes.map((name) => ({ name: name, spans: [], instants: [], depth: 1 }));
  for (const s of D.spans) all[s[0]].spans.push({ name: D.names[s[1]], start: s[2], dur: s[3], flow: s[4], kind: "span" });
  for (const e of D.instants) all[e[0]].instants.push({ name: D.names[e[1]], start: e[2], dur: 0, payload: e[3], flow: e[4], kind: "instant" });
  // Lanes that hold only counter values (drawn in the counter rows) are not shown.
  const lanes = all.filter((l) => l.spans.length + l.instants.length > 0);
  lanes.forEach((l, i) => { for (const e of l.spans.concat(l.instants)) e.lane = i; });
  let t0 = Infinity, t1 = -Infinity;
  for (const l of lanes) {
    l.spans.sort((a, b) => a.start - b.start || b.dur - a.dur);
    const stack = [];
    for (const s of l.spans) {
      while (stack.length && stack[stack.length - 1] <= s.start) stack.pop();
      s.depth = stack.length;
      stack.push(s.start + s.dur);
      l.depth = Math.max(l.depth, s.depth + 1);
      t0 = Math.min(t0, s.start); t1 = Math.max(t1, s.start + s.dur);
    }
    for (const e of l.instants) { t0 = Math.min(t0, e.start); t1 = Math.max(t1, e.start); }
  }
  const counters = new Map();
  for (const c of D.counters) {
    const n = D.names[c[0]];
    if (!counters.has(n)) counters.set(n, []);
    counters.get(n).push({ name: n, start: c[1], value: c[2], kind: "counter" });
    t0 = Math.min(t0, c[1]); t1 = Math.max(t1, c[1]);
  }
  for (const pts of counters.values()) pts.sort((a, b) => a.start - b.start);
  if (!isFinite(t0)) { t0 = 0; t1 = 1; }
  if (t1 <= t0) t1 = t0 + 1;
  const full = [t0, t1];
  let view = [t0 - (t1 - t0) * 0.01, t1 + (t1 - t0) * 0.01];
  // #view=FROM,TO (ns from the first event) opens on that stretch.
  const hv = /^#view=(-?[0-9.]+),(-?[0-9.]+)$/.exec(location.hash);
  if (hv && +hv[2] > +hv[1]) view = [t0 + +hv[1], t0 + +hv[2]];
  const flows = new Map();
  for (const l of lanes) for (const e of l.spans.concat(l.instants)) if (e.flow) { if (!flows.has(e.flow)) flows.set(e.flow, []); flows.get(e.flow).push(e); }
  for (const f of flows.values()) f.sort((a, b) => a.start - b.start);
  document.getElementById("meta").textContent = D.spans.length + " spans, " + D.instants.length + " instants, " + D.counters.length + " counter values on " + lanes.length + " lanes over " + fmt(t1 - t0) + (D.clock ? " · clock: " + D.clock : "");
  // Vertical layout.
  let y = axisH;
  for (const l of lanes) { l.y = y; l.h = l.depth * rowH + 8; y += l.h + laneGap; }
  const counterRows = [];
  for (const [n, pts] of counters) { counterRows.push({ name: n, pts: pts, y: y }); y += counterH + laneGap; }
  const height = y + 4;
  const color = (name) => { let h = 0; for (let i = 0; i < name.length; i++) h = (h * 31 + name.charCodeAt(i)) >>> 0; return "hsl(" + (h % 360) + ",55%,62%)"; };
  let width = 0, hover = null;
  const X = (t) => gutter + (t - view[0]) / (view[1] - view[0]) * (width - gutter);
  const T = (x) => view[0] + (x - gutter) / (width - gutter) * (view[1] - view[0]);
  function resize() {
    width = wrap.clientWidth;
    const dpr = window.devicePixelRatio || 1;
    canvas.width = width * dpr; canvas.height = height * dpr;
    canvas.style.width = width + "px"; canvas.style.height = height + "px";
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    draw();
  }
  function pos(e) {
    if (e.kind === "counter") return null;
    const l = lanes[e.lane];
    return e.kind === "span" ? { x: X(e.start), y: l.y + 4 + e.depth * rowH + rowH / 2 } : { x: X(e.start), y: l.y + l.h - 5 };
  }
  function draw() {
    ctx.clearRect(0, 0, width, height);
    ctx.font = "11px system-ui, sans-serif";
    ctx.textBaseline = "middle";
    // Time axis.
    const span = view[1] - view[0];
    let step = Math.pow(10, Math.floor(Math.log10(span / 8)));
    if (span / step > 16) step *= 5; else if (span / step > 8) step *= 2;
    ctx.strokeStyle = "#eee"; ctx.fillStyle = "#555";
    for (let r = Math.ceil((view[0] - full[0]) / step) * step; full[0] + r <= view[1]; r += step) {
      const x = X(full[0] + r);
      ctx.beginPath(); ctx.moveTo(x, axisH - 4); ctx.lineTo(x, height); ctx.stroke();
      ctx.fillText(fmt(Math.abs(r) < step / 2 ? 0 : r), x + 2, axisH / 2);
    }
    for (const l of lanes) {
      ctx.fillStyle = "#f6f6f6"; ctx.fillRect(gutter, l.y, width - gutter, l.h);
      ctx.save(); ctx.beginPath(); ctx.rect(gutter, l.y, width - gutter, l.h); ctx.clip();
      for (const s of l.spans) {
        const x0 = X(s.start), x1 = X(s.start + s.dur);
        if (x1 < gutter || x0 > width) continue;
        const yy = l.y + 4 + s.depth * rowH, w = Math.max(x1 - x0, 1);
        ctx.fillStyle = hover === s ? "#333" : color(s.name);
        ctx.fillRect(x0, yy, w, rowH - 2);
        if (w > 30) {
          ctx.fillStyle = hover === s ? "#fff" : "#111";
          const cx = Math.max(x0, gutter) + 3;
          ctx.save(); ctx.beginPath(); ctx.rect(cx - 1, yy, Math.min(x1, width) - cx, rowH); ctx.clip();
          ctx.fillText(s.name + " " + fmt(s.dur), cx, yy + rowH / 2 - 1); ctx.restore();
        }
      }
      for (const e of l.instants) {
        const x = X(e.start);
        if (x < gutter || x > width) continue;
        ctx.fillStyle = hover === e ? "#000" : color(e.name);
        ctx.beginPath(); ctx.moveTo(x, l.y + l.h - 9); ctx.lineTo(x - 4, l.y + l.h - 1); ctx.lineTo(x + 4, l.y + l.h - 1); ctx.fill();
      }
      ctx.restore();
      ctx.fillStyle = "#222"; ctx.fillText(l.name, 6, l.y + Math.min(l.h, rowH + 4) / 2);
    }
    for (const r of counterRows) {
      ctx.fillStyle = "#f6f6f6"; ctx.fillRect(gutter, r.y, width - gutter, counterH);
      let lo = Infinity, hi = -Infinity;
      for (const p of r.pts) { lo = Math.min(lo, p.value); hi = Math.max(hi, p.value); }
      if (hi === lo) { hi = lo + 1; }
      const Y = (v) => r.y + counterH - 3 - (v - lo) / (hi - lo) * (counterH - 6);
      ctx.save(); ctx.beginPath(); ctx.rect(gutter, r.y, width - gutter, counterH); ctx.clip();
      ctx.strokeStyle = color(r.name); ctx.lineWidth = 1.5; ctx.beginPath();
      r.pts.forEach((p, i) => { const x = X(p.start); if (i === 0) ctx.moveTo(x, Y(p.value)); else { ctx.lineTo(x, Y(r.pts[i - 1].value)); ctx.lineTo(x, Y(p.value)); } });
      ctx.lineTo(width, Y(r.pts[r.pts.length - 1].value)); ctx.stroke(); ctx.lineWidth = 1;
      ctx.restore();
      ctx.fillStyle = "#222"; ctx.fillText(r.name + " (counter)", 6, r.y + counterH / 2);
    }
    // The flow of the hovered event.
    if (hover && hover.flow && flows.has(hover.flow)) {
      const f = flows.get(hover.flow);
      ctx.save(); ctx.beginPath(); ctx.rect(gutter, 0, width - gutter, height); ctx.clip();
      ctx.strokeStyle = "#c00"; ctx.lineWidth = 1.5; ctx.beginPath();
      f.forEach((e, i) => { const p = pos(e); if (i === 0) ctx.moveTo(p.x, p.y); else ctx.lineTo(p.x, p.y); });
      ctx.stroke(); ctx.restore();
    }
  }
  function find(mx, my) {
    for (const l of lanes) {
      if (my < l.y || my > l.y + l.h) continue;
      let best = null, bd = 6;
      for (const e of l.instants) { const d = Math.abs(X(e.start) - mx); if (my > l.y + l.h - 11 && d < bd) { bd = d; best = e; } }
      if (best) return best;
      const depth = Math.floor((my - l.y - 4) / rowH);
      for (const s of l.spans) if (s.depth === depth && X(s.start) - 1 <= mx && mx <= X(s.start + s.dur) + 1) best = s;
      return best;
    }
    for (const r of counterRows) {
      if (my < r.y || my > r.y + counterH) continue;
      const t = T(mx);
      let best = null;
      for (const p of r.pts) { if (p.start <= t) best = p; else break; }
      return best;
    }
    return null;
  }
  function details(e) {
    const rel = (t) => fmt(t - full[0]);
    if (e.kind === "span") return e.name + "\nlane   " + lanes[e.lane].name + "\nstart  " + rel(e.start) + "\ndur    " + fmt(e.dur) + "\ndepth  " + e.depth + (e.flow ? "\nflow   " + e.flow : "");
    if (e.kind === "instant") return e.name + " (instant)\nlane     " + lanes[e.lane].name + "\nat       " + rel(e.start) + "\npayload  " + e.payload + (e.flow ? "\nflow     " + e.flow : "");
    return e.name + " (counter)\nat     " + rel(e.start) + "\nvalue  " + e.value;
  }
  canvas.addEventListener("mousemove", (ev) => {
    const r = canvas.getBoundingClientRect();
    const mx = ev.clientX - r.left, my = ev.clientY - r.top;
    if (drag) {
      const dt = (drag.x - mx) / (width - gutter) * (drag.view[1] - drag.view[0]);
      view = [drag.view[0] + dt, drag.view[1] + dt];
      draw(); return;
    }
    const h = find(mx, my);
    if (h !== hover) { hover = h; draw(); }
    if (h) {
      tip.textContent = details(h); tip.style.display = "block";
      tip.style.left = Math.min(ev.clientX + 12, window.innerWidth - tip.offsetWidth - 4) + "px";
      tip.style.top = (ev.clientY + 14) + "px";
    } else tip.style.display = "none";
  });
  canvas.addEventListener("mouseleave", () => { tip.style.display = "none"; if (hover) { hover = null; draw(); } });
  function zoom(f, at) {
    const t = at === undefined ? (view[0] + view[1]) / 2 : at;
    const s = Math.max((view[1] - view[0]) * f, 10);
    const k = (t - view[0]) / (view[1] - view[0]);
    view = [t - k * s, t - k * s + s];
    draw();
  }
  canvas.addEventListener("wheel", (ev) => {
    ev.preventDefault();
    const r = canvas.getBoundingClientRect();
    zoom(Math.exp(ev.deltaY * 0.002), T(ev.clientX - r.left));
  }, { passive: false });
  let drag = null;
  canvas.addEventListener("mousedown", (ev) => { const r = canvas.getBoundingClientRect(); drag = { x: ev.clientX - r.left, view: view.slice() }; canvas.classList.add("drag"); });
  window.addEventListener("mouseup", () => { drag = null; canvas.classList.remove("drag"); });
  window.addEventListener("keydown", (ev) => {
    const s = view[1] - view[0];
    if (ev.key === "+" || ev.key === "=") zoom(0.7);
    else if (ev.key === "-") zoom(1 / 0.7);
    else if (ev.key === "ArrowLeft") { view = [view[0] - s * 0.1, view[1] - s * 0.1]; draw(); }
    else if (ev.key === "ArrowRight") { view = [view[0] + s * 0.1, view[1] + s * 0.1]; draw(); }
    else if (ev.key === "0") { view = [full[0] - (full[1] - full[0]) * 0.01, full[1] + (full[1] - full[0]) * 0.01]; draw(); }
  });
  window.addEventListener("resize", resize);
  resize();
})();
</script>
</body>
</html>
`
