// layout.js: the layout rules of a report page (TestHTMLInBrowser), run
// in headless Chromium on the loaded page. It returns the list of broken
// rules, each naming the plot (its figure's id) or the page element and
// the offending mark or text; [] when the page keeps every rule.
(function () {
  const out = [];
  const tol = 1.5; // CSS px
  document.querySelectorAll("details").forEach((d) => { d.open = true; });
  const inter = (a, b) => Math.min(a.right, b.right) - Math.max(a.left, b.left) > tol && Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top) > tol;
  const union = (rs) => rs.reduce((u, r) => ({ left: Math.min(u.left, r.left), top: Math.min(u.top, r.top), right: Math.max(u.right, r.right), bottom: Math.max(u.bottom, r.bottom) }),
    { left: Infinity, top: Infinity, right: -Infinity, bottom: -Infinity });
  const desc = (el) => el.tagName === "text" ? "text \"" + el.textContent + "\"" : "<" + el.tagName + " d=\"" + (el.getAttribute("d") || "").slice(0, 40) + "…\">";
  const empty = (el) => { const b = el.getBBox(); return b.width === 0 && b.height === 0; };
  // hits reports whether element el paints a point of screen rectangle r
  // (sampled every 1.5 px).
  function hits(el, r) {
    const m = el.getScreenCTM().inverse(), svg = el.ownerSVGElement, p = svg.createSVGPoint();
    const st = getComputedStyle(el), fill = st.fill !== "none", stroke = st.stroke !== "none";
    for (let x = r.left; x <= r.right; x += 1.5) for (let y = r.top; y <= r.bottom; y += 1.5) {
      p.x = x; p.y = y;
      const q = p.matrixTransform(m);
      if ((fill && el.isPointInFill(q)) || (stroke && el.isPointInStroke(q))) return true;
    }
    return false;
  }
  // painted reports whether a colour (computed style) shows on the
  // page's white: not none, not transparent, not white.
  function painted(c, opacity) {
    if (!c || c === "none" || parseFloat(opacity) < 0.05) return false;
    const m = /rgba?\(([\d.]+), ([\d.]+), ([\d.]+)(?:, ([\d.]+))?\)/.exec(c);
    if (!m) return true;
    if (m[4] !== undefined && parseFloat(m[4]) < 0.05) return false;
    return !(+m[1] > 245 && +m[2] > 245 && +m[3] > 245);
  }
  // markArea is the area (px²) that element el paints inside rectangle
  // r, counted on a 1 px grid and given up once it reaches enough:
  // the filled area for a filled shape; for a stroked shape (a ring, a
  // cross, a line), its stroke's when the shape spans both directions
  // (a line across one direction alone is a whisker, not a mark) or
  // when lines count (a legend's series drawn as a line).
  function markArea(el, r, enough, lines) {
    const st = getComputedStyle(el);
    const fill = painted(st.fill, st.fillOpacity), stroke = painted(st.stroke, st.strokeOpacity) && parseFloat(st.strokeWidth) > 0;
    const b = el.getBoundingClientRect();
    const c = { left: Math.max(b.left, r.left), top: Math.max(b.top, r.top), right: Math.min(b.right, r.right), bottom: Math.min(b.bottom, r.bottom) };
    const sw = stroke ? parseFloat(st.strokeWidth) * (el.getScreenCTM().a || 1) : 0;
    // A stroke reaches half its width beyond the geometry's box.
    const g = { left: c.left - sw / 2, top: c.top - sw / 2, right: c.right + sw / 2, bottom: c.bottom + sw / 2 };
    if (!(g.right > g.left && g.bottom > g.top)) return 0;
    const useStroke = stroke && (lines || (b.right - b.left >= 3 && b.bottom - b.top >= 3));
    if (!fill && !useStroke) return 0;
    const m = el.getScreenCTM().inverse(), p = el.ownerSVGElement.createSVGPoint();
    let n = 0;
    for (let x = Math.max(g.left, r.left) + 0.5; x < Math.min(g.right, r.right); x += 1) for (let y = Math.max(g.top, r.top) + 0.5; y < Math.min(g.bottom, r.bottom); y += 1) {
      p.x = x; p.y = y;
      const q = p.matrixTransform(m);
      if ((fill && el.isPointInFill(q)) || (useStroke && el.isPointInStroke(q))) if (++n >= enough) return n;
    }
    return n;
  }
  // visibleMarks: every row (a y-axis name, rows) and every legend
  // entry's series (keys) of a plot has a data mark that paints at least
  // the area of a dot of radius 1.5 px (7 px²) inside the axes (area);
  // a plot with neither has some mark so.
  const dotArea = Math.floor(Math.PI * 1.5 * 1.5);
  function visibleMarks(name, area, data, rows, keys, out) {
    const r = { left: area.left - tol, top: area.top - tol, right: area.right + tol, bottom: area.bottom + tol };
    if (rows.length > 0) {
      const ys = rows.map((t) => { const b = t.getBoundingClientRect(); return { name: t.textContent, y: (b.top + b.bottom) / 2 }; }).sort((a, b) => a.y - b.y);
      ys.forEach((row, i) => {
        const top = i > 0 ? (ys[i - 1].y + row.y) / 2 : area.top, bottom = i + 1 < ys.length ? (row.y + ys[i + 1].y) / 2 : area.bottom;
        const band = { left: r.left, right: r.right, top: Math.max(r.top, top), bottom: Math.min(r.bottom, bottom) };
        if (!data.some((el) => markArea(el, band, dotArea, false) >= dotArea)) out.push(name + ": the row \"" + row.name + "\" has no visible data mark (nothing of area >= a dot of radius 1.5 px inside the axes)");
      });
    }
    keys.forEach((k) => {
      const f = k.els.map((el) => el.getAttribute("data-for")).find((v) => v);
      if (!f) { out.push(name + ": the legend entry \"" + k.text + "\" stands for no plotted series"); return; }
      const ps = new Set(f.split(" "));
      const mine = data.filter((el) => ps.has(el.getAttribute("data-p")));
      if (!mine.some((el) => markArea(el, r, dotArea, true) >= dotArea)) out.push(name + ": the legend entry \"" + k.text + "\" names a series with no visible data mark inside the axes");
    });
    if (rows.length === 0 && keys.size === 0 && !data.some((el) => markArea(el, r, dotArea, true) >= dotArea)) out.push(name + ": the plot has no visible data mark inside its axes");
  }
  function kind(label) {
    if (/\de[+-]?\d/i.test(label)) return "scientific";
    if (/^-?[\d.]+ ?(ns|µs|ms|s)(\/op)?$/.test(label)) return "duration";
    if (/%$/.test(label)) return "percent";
    if (/^[-−]?[\d.,]+[kMG]?×?$/.test(label)) return "plain";
    return "name";
  }
  document.querySelectorAll("figure.plot").forEach((fig) => {
    const name = fig.id, svg = fig.querySelector("svg"), H = JSON.parse(fig.getAttribute("data-hover"));
    const m = svg.getScreenCTM(), at = (x, y) => { const p = svg.createSVGPoint(); p.x = x; p.y = y; return p.matrixTransform(m); };
    const a0 = at(H.f[0], H.f[1]), a1 = at(H.f[2], H.f[3]);
    const area = { left: a0.x, top: a0.y, right: a1.x, bottom: a1.y };
    const data = [...svg.querySelectorAll(".p-data")].filter((el) => !empty(el));
    // Legend entries: apart from each other and from every data mark.
    const keys = new Map();
    svg.querySelectorAll(".p-legend").forEach((el) => {
      const k = el.getAttribute("data-key");
      if (!keys.has(k)) keys.set(k, { els: [], text: "" });
      keys.get(k).els.push(el);
      if (el.tagName === "text") keys.get(k).text = el.textContent;
    });
    const entries = [...keys.values()].map((e) => ({ text: e.text, r: union(e.els.map((el) => el.getBoundingClientRect())) }));
    entries.forEach((e, i) => {
      entries.slice(i + 1).forEach((f) => { if (inter(e.r, f.r)) out.push(name + ": the legend entries \"" + e.text + "\" and \"" + f.text + "\" overlap"); });
      for (const el of data) {
        const b = el.getBoundingClientRect();
        if (!inter(e.r, b)) continue;
        const r = { left: Math.max(e.r.left, b.left), top: Math.max(e.r.top, b.top), right: Math.min(e.r.right, b.right), bottom: Math.min(e.r.bottom, b.bottom) };
        if (hits(el, r)) { out.push(name + ": the legend entry \"" + e.text + "\" covers a data mark " + desc(el)); break; }
      }
    });
    // Data marks inside the axes, filling at least half of each axis.
    const slack = 6; // a glyph's radius
    let outside = 0;
    for (const el of data) {
      const b = el.getBoundingClientRect();
      if (b.left < area.left - slack || b.right > area.right + slack || b.top < area.top - slack || b.bottom > area.bottom + slack) {
        if (outside++ < 3) out.push(name + ": a data mark lies outside its axes: " + desc(el) + " at " + [b.left, b.top, b.right, b.bottom].map(Math.round).join(","));
      }
    }
    if (data.length > 0) {
      // A reference line (the ratio 1, a zero line, the kernel's figure)
      // is part of what an axis must show: a vertical one counts on the
      // x axis, a horizontal one on the y axis, never across.
      const refs = [...svg.querySelectorAll(".p-ref")].map((el) => el.getBoundingClientRect());
      const ux = union(data.map((el) => el.getBoundingClientRect()).concat(refs.filter((b) => b.width < 2)));
      const uy = union(data.map((el) => el.getBoundingClientRect()).concat(refs.filter((b) => b.height < 2)));
      const w = Math.min(ux.right, area.right) - Math.max(ux.left, area.left), h = Math.min(uy.bottom, area.bottom) - Math.max(uy.top, area.top);
      const say = (i) => /\blog\b/.test(H.l[i]);
      if (w < (area.right - area.left) / 2 && !(H.f[8] && say(0))) out.push(name + ": the data fill " + Math.round(100 * w / (area.right - area.left)) + "% of the x axis (\"" + H.l[0] + "\")");
      if (!(H.n & 1) && h < (area.bottom - area.top) / 2 && !(H.f[9] && say(1))) out.push(name + ": the data fill " + Math.round(100 * h / (area.bottom - area.top)) + "% of the y axis (\"" + H.l[1] + "\")");
    }
    for (const i of [0, 1]) if (H.f[8 + i] && !/\blog\b/.test(H.l[i])) out.push(name + ": the " + "xy"[i] + " axis is logarithmic and its label (\"" + H.l[i] + "\") does not say so");
    // One notation per axis; a linear axis of durations in a unit that fits.
    const texts = [...svg.querySelectorAll("text.p-axes")].filter((t) => t.textContent !== H.l[0] && t.textContent !== H.l[1] && t.textContent !== "");
    const axes = [[], []];
    for (const t of texts) {
      const b = t.getBoundingClientRect();
      if (b.top >= area.bottom - tol) axes[0].push(t.textContent);
      else if (b.right <= area.left + tol) axes[1].push(t.textContent);
    }
    axes.forEach((ls, i) => {
      // An axis of names (rows, commits) has one notation: names, even
      // a commit of digits only.
      const kinds = H.n & (i === 0 ? 2 : 1) ? (ls.length ? ["name"] : []) : [...new Set(ls.map(kind))];
      if (kinds.length > 1) out.push(name + ": the " + "xy"[i] + " axis mixes tick-label notations: " + kinds.map((k) => k + " (" + ls.find((l) => kind(l) === k) + ")").join(", "));
      const u = /\((ns|µs|ms|s)(\/op)?\)$/.exec(H.l[i]);
      if (u && !H.f[8 + i] && kinds.length === 1 && kinds[0] === "plain") {
        const top = Math.max(...ls.map((l) => Math.abs(parseFloat(l))));
        if (!(top >= 1 && top < 1000)) out.push(name + ": the " + "xy"[i] + " axis is in " + u[1] + " but its largest tick label is " + top + ": choose the unit that fits");
      }
    });
    // No text cut off: every text of the plot inside its SVG.
    const sr = svg.getBoundingClientRect();
    for (const t of svg.querySelectorAll("text")) {
      const b = t.getBoundingClientRect();
      if (b.left < sr.left - tol || b.right > sr.right + tol || b.top < sr.top - tol || b.bottom > sr.bottom + tol) out.push(name + ": the text \"" + t.textContent + "\" reaches past the plot's edge");
    }
    // Every series has a visible mark inside its axes: each row named on
    // a y axis of names and each legend entry's series (its plotters'
    // marks, data-p in the entry's data-for).
    const rows = H.n & 1 ? [...svg.querySelectorAll("text.p-axes")].filter((t) => t.textContent !== H.l[0] && t.textContent !== H.l[1] && t.textContent !== "" && t.getBoundingClientRect().right <= area.left + tol) : [];
    visibleMarks(name, area, data, rows, keys, out);
    // Headings name what the plot covers: the nearest heading before the
    // plot is its document's (h2) or one its title contains.
    const title = (fig.querySelector("figcaption b") || {}).textContent || "";
    const hs = [...document.querySelectorAll("h2, h3")].filter((h) => h.compareDocumentPosition(fig) & Node.DOCUMENT_POSITION_FOLLOWING);
    const h = hs[hs.length - 1];
    if (h && h.tagName === "H3" && !title.includes(h.textContent.trim())) out.push(name + " (\"" + title + "\") sits under the heading \"" + h.textContent.trim() + "\", which is not what it covers");
  });
  // No text of the page cut off: boxes that scroll hide their text.
  const heading = (el) => { const hs = [...document.querySelectorAll("h2, h3")].filter((h) => h.compareDocumentPosition(el) & Node.DOCUMENT_POSITION_FOLLOWING); return hs.length ? hs[hs.length - 1].textContent.trim() : "the page"; };
  document.querySelectorAll("div, td, th, p, li, pre, code").forEach((el) => {
    const st = getComputedStyle(el);
    if (st.overflowX !== "visible" && el.scrollWidth > el.clientWidth + 1) out.push("text cut off: a " + el.tagName.toLowerCase() + (el.className ? "." + el.className : "") + " under \"" + heading(el) + "\" is " + (el.scrollWidth - el.clientWidth) + " px wider than its box");
  });
  const W = document.documentElement.clientWidth;
  document.querySelectorAll("td, th, p, li, h1, h2, h3, figcaption, summary").forEach((el) => {
    const r = el.getBoundingClientRect();
    if (r.right > W + 1) out.push("text cut off: a " + el.tagName.toLowerCase() + " under \"" + heading(el) + "\" reaches past the page's edge: " + el.textContent.slice(0, 60));
  });
  return out;
})()
