// medviz standalone replay: applies per-step channel deltas to a figure drawn once.
// A step redraws only the traces it changes (a plotly transition without a full redraw); the map's title and
// its side panel (turn line, player boxes) are page text beside the map, so words never redraw the map.
// Data: #medviz-data (JSON). plotly.js: inline, or gzip+base64 in #plotly-gz (unpacked here,
// in the browser, with DecompressionStream; no network).
(function () {
  "use strict";
  var NONCE = document.currentScript ? document.currentScript.nonce : "";
  var data = JSON.parse(document.getElementById("medviz-data").textContent);
  var tl = data.timeline;
  var nSteps = data.log.length;
  var LAYOUT = -1, PANEL = -2;
  var statusEl = document.getElementById("status");

  function loadPlotly() {
    if (window.Plotly) return Promise.resolve();
    var packed = document.getElementById("plotly-gz");
    if (!packed) return Promise.reject(new Error("plotly.js is missing from this page"));
    if (typeof DecompressionStream === "undefined") {
      return Promise.reject(new Error("this browser cannot unpack the embedded plotly.js (no DecompressionStream); " +
        "export again with --no-compress"));
    }
    var bin = atob(packed.textContent.trim());
    var bytes = new Uint8Array(bin.length);
    for (var i = 0; i < bin.length; i++) bytes[i] = bin.charCodeAt(i);
    var stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream("gzip"));
    return new Response(stream).text().then(function (js) {
      var s = document.createElement("script");
      s.nonce = NONCE;
      s.textContent = js;
      document.head.appendChild(s);
      if (!window.Plotly) throw new Error("plotly.js did not start");
    });
  }

  // Every channel's value at every step, decoded once from the deltas. Unchanged values are
  // shared between steps, so a step costs one array of references.
  var nCh = tl.channels.length;
  var states = new Array(nSteps);
  (function () {
    var cur = tl.init.map(function (v) { return tl.values[v]; });
    for (var s = 0; s < nSteps; s++) {
      var d = tl.steps[s] || [];
      var p = 0;
      while (p < d.length) {
        var ch = d[p];
        if (ch >= 0) { cur[ch] = tl.values[d[p + 1]]; p += 2; continue; }
        ch = -ch - 1;
        var k = d[p + 1], ops = [];
        p += 2;
        for (var j = 0; j < k; j++) {
          var n = d[p + 2];
          ops.push([d[p], d[p + 1], d.slice(p + 3, p + 3 + n)]);
          p += 3 + n;
        }
        var arr = (cur[ch] || []).slice();
        for (var o = ops.length - 1; o >= 0; o--) {  // last first: positions count in the old list
          var items = ops[o][2].map(function (x) { return tl.values[x]; });
          Array.prototype.splice.apply(arr, [ops[o][0], ops[o][1]].concat(items));
        }
        cur[ch] = arr;
      }
      states[s] = cur.slice();
    }
  })();
  var shown = tl.init.map(function (v) { return tl.values[v]; });

  var gd = document.getElementById("plot");
  var side = document.getElementById("side");
  var slider = document.getElementById("slider");
  var logEl = document.getElementById("log");
  var notesEl = document.getElementById("notes");
  var whereEl = document.getElementById("where");
  var playBtn = document.getElementById("play");
  var current = -1;
  var timer = null;
  var mainEl = document.querySelector("main");
  var stageEl = document.getElementById("stage");
  var titleEl = document.getElementById("maptitle");
  var boxesEl = document.getElementById("mapside");

  function el(tag, text, cls) {
    var e = document.createElement(tag);
    if (text != null) e.textContent = text;
    if (cls) e.className = cls;
    return e;
  }

  // plotly's text markup, the only markup medviz writes into a figure's texts (bold, italics, line breaks,
  // a coloured span) as page nodes; everything else stays text (entities decoded as plotly decodes them).
  var ENTITY = { lt: "<", gt: ">", amp: "&", quot: '"', "#39": "'", nbsp: "\u00a0" };
  function decode(t) {
    return t.replace(/&(#x[0-9a-fA-F]+|#[0-9]+|[a-z0-9]+);/g, function (all, k) {
      if (k in ENTITY) return ENTITY[k];
      if (k[0] !== "#") return all;
      var n = k[1] === "x" ? parseInt(k.slice(2), 16) : parseInt(k.slice(1), 10);
      return n > 0 && n < 0x110000 ? String.fromCodePoint(n) : all;
    });
  }
  function markup(node, text) {
    node.replaceChildren();
    text = text == null ? "" : String(text);
    var stack = [node], last = 0, m;
    var re = /<(\/?)(b|i|br|span)(?:\s+style=['"]color:\s*(#[0-9a-fA-F]{3,8})['"])?\s*\/?>/g;
    function put(t) { if (t) stack[stack.length - 1].appendChild(document.createTextNode(decode(t))); }
    while ((m = re.exec(text))) {
      put(text.slice(last, m.index));
      last = re.lastIndex;
      if (m[2] === "br") { stack[stack.length - 1].appendChild(document.createElement("br")); continue; }
      if (m[1]) { if (stack.length > 1) stack.pop(); continue; }
      var e = document.createElement(m[2]);
      if (m[3]) e.style.color = m[3];
      stack[stack.length - 1].appendChild(e);
      stack.push(e);
    }
    put(text.slice(last));
  }

  // The figure as the page draws it: the side panel's items (layout.meta.panel_px, see
  // medviz.viz.state_map) and the title become page text; the other annotations stay on the map.
  var boxOf = {}, annAt = {}, legendOf = null;
  function splitFigure(figure) {
    var layout = Object.assign({}, figure.layout);
    var meta = layout.meta || {};
    if (!meta.panel_px) return figure;
    var kept = [];
    (layout.annotations || []).forEach(function (a, i) {
      if (a.name && a.name !== "legend" && meta.panel_px[a.name] !== undefined) {
        var box = el("div", null, a.bgcolor ? "box" : "box plain");
        box.dataset.name = a.name;
        styleBox(box, a);
        markup(box, a.text);
        boxesEl.appendChild(box);
        boxOf[i] = box;
      } else {
        annAt[i] = kept.length;
        kept.push(a);
      }
    });
    layout.annotations = kept;
    if (layout.title) {
      markup(titleEl, layout.title.text);
      layout.title = Object.assign({}, layout.title, { text: "" });
    }
    layout.margin = Object.assign({}, layout.margin, { t: 6 });
    if (layout.showlegend !== false && layout.legend) {  // the legend, drawn by plotly beside the map (drawLegend)
      legendOf = { legend: layout.legend, data: figure.data.filter(function (t) { return t.showlegend; }).map(function (t) {
        var entry = Object.assign({}, t);
        delete entry.legendgroup;  // one entry per item (a group would stack its items even in rows)
        return entry;
      }) };
      layout.showlegend = false;
    }
    if (layout.xaxis) layout.xaxis = Object.assign({}, layout.xaxis, { domain: [0, 1] });  // the map, the figure's width
    return { data: figure.data, layout: layout };
  }
  function styleBox(box, a) {
    var font = a.font || {};
    box.style.background = a.bgcolor || "";
    box.style.borderColor = a.bordercolor || "transparent";
    if (font.color) box.style.color = font.color;
    if (font.size) box.style.fontSize = (font.size / 16) + "rem";
    box.hidden = a.visible === false;
  }
  function setBox(i, path, value) {
    var box = boxOf[i];
    if (path === "text") markup(box, value);
    else if (path === "bgcolor") box.style.background = value || "";
    else if (path === "bordercolor") box.style.borderColor = value || "transparent";
    else if (path === "font.color") box.style.color = value || "";
    else if (path === "visible") box.hidden = value === false;
  }

  function phaseOf(s) {
    for (var i = 0; i < data.phases.length; i++) {
      var p = data.phases[i];
      if (p.start <= s && s < p.end) return p;
    }
    return null;
  }

  function renderPanel(panel) {
    document.getElementById("panel-title").textContent = panel.title || "";
    var ul = document.getElementById("panel-lines");
    ul.replaceChildren();
    (panel.lines || []).forEach(function (line) { ul.appendChild(el("li", line)); });
  }

  // The log keeps the current event in view; read after the step is drawn (one layout, not two).
  var scrollTo = null;
  function scrollLog(li) {
    if (scrollTo === null) requestAnimationFrame(function () {
      var item = scrollTo;
      scrollTo = null;
      var top = item.offsetTop - logEl.offsetTop;
      if (top < logEl.scrollTop || top > logEl.scrollTop + logEl.clientHeight - item.offsetHeight) {
        logEl.scrollTop = Math.max(0, top - logEl.clientHeight / 3);
      }
    });
    scrollTo = li;
  }

  var notesShown = null;
  function renderNotes(s) {
    var hits = data.notes.filter(function (n) {
      return n.spans.some(function (sp) { return sp[0] <= s && s < sp[1]; });
    });
    var key = hits.map(function (n) { return data.notes.indexOf(n); }).join(",");
    if (key === notesShown) return;  // the same notes as the step before: nothing to redraw
    notesShown = key;
    notesEl.replaceChildren();
    hits.forEach(function (n) {
      var box = el("article", null, "note kind-" + n.kind);
      box.appendChild(el("h3", n.title));
      var meta = [n.date, n.kind, n.anchor].filter(Boolean).join(" · ");
      box.appendChild(el("p", meta, "meta"));
      var body = el("div", null, "body");
      body.innerHTML = n.html;  // sanitized at export (markdown-it, raw HTML off, then nh3)
      box.appendChild(body);
      if (n.source) box.appendChild(el("p", "Source: " + n.source, "source"));
      notesEl.appendChild(box);
    });
    notesEl.scrollTop = 0;
    sizeNotes();
  }

  // The notes give way to the log only down to their first note's whole first paragraph (title, date line
  // and that paragraph: what a class reads first), at most 45% of the screen; the rest scrolls in the notes.
  // Where the column is still too short for them (a projector's 720 px), the key of colours folds away while
  // a note shows (the map's own key of units and marks stays) and comes back with the next step without one.
  function sizeNotes() {
    notesEl.style.minHeight = "";
    side.classList.remove("note-first");
    var first = notesEl.querySelector(".note .body p") || notesEl.querySelector(".note");
    if (!first || !document.body.classList.contains("fit")) return;
    var need = first.getBoundingClientRect().bottom - notesEl.getBoundingClientRect().top + notesEl.scrollTop + 14;
    notesEl.style.minHeight = Math.ceil(Math.min(need, window.innerHeight * 0.45)) + "px";
    if (side.scrollHeight > side.clientHeight + 1) side.classList.add("note-first");
  }

  function applyChannels(s) {
    var groups = {}, layout = null, panel = null;
    var st = states[s];
    for (var c = 0; c < nCh; c++) {
      var value = st[c];
      if (value === shown[c]) continue;
      shown[c] = value;
      var ch = tl.channels[c];
      if (ch[0] === PANEL) { panel = value; continue; }
      if (ch[0] === LAYOUT) {
        var m = /^annotations\[(\d+)\]\.(.+)$/.exec(ch[1]);
        if (m && boxOf[m[1]]) { setBox(m[1], m[2], value); continue; }
        if (ch[1] === "title.text" && boxesEl.childElementCount) { markup(titleEl, value); continue; }
        layout = layout || {};
        layout[m && annAt[m[1]] !== undefined ? "annotations[" + annAt[m[1]] + "]." + m[2] : ch[1]] = value;
        continue;
      }
      var g = groups[ch[1]] || (groups[ch[1]] = { idx: [], vals: [] });
      g.idx.push(ch[0]);
      g.vals.push(value);
    }
    if (tl.figure && window.Plotly && !layout && canAnimate(groups)) {
      var changes = {};
      Object.keys(groups).forEach(function (path) {
        groups[path].idx.forEach(function (t, j) { (changes[t] = changes[t] || {})[path] = groups[path].vals[j]; });
      });
      drawTraces(changes);
    } else if (tl.figure && window.Plotly) {
      // One Plotly.update per step (one redraw): every changed attribute of every changed trace;
      // a trace that keeps an attribute gets undefined there, which plotly skips.
      var traces = [], at = {};
      Object.keys(groups).forEach(function (path) {
        groups[path].idx.forEach(function (t) { if (!(t in at)) { at[t] = traces.length; traces.push(t); } });
      });
      var upd = {};
      Object.keys(groups).forEach(function (path) {
        var vals = new Array(traces.length);
        groups[path].idx.forEach(function (t, j) { vals[at[t]] = groups[path].vals[j]; });
        upd[path] = vals;
      });
      dropText(groups.text ? groups.text.idx : []);
      if (traces.length || layout) Plotly.update(gd, upd, layout || {}, traces);
    }
    if (panel) renderPanel(panel);
  }

  // Changed traces are redrawn alone (a transition with redraw off, as Plotly.animate runs: plotly recomputes the figure's data
  // but draws only those traces). One redraw at a time: changes arriving meanwhile wait, merged, so
  // every change is drawn and the last one wins.
  var drawing = null, waiting = null;
  function canAnimate(groups) {
    var full = gd._fullData;
    if (!full || typeof Plotly.animate !== "function") return false;
    return Object.keys(groups).every(function (path) {
      return groups[path].idx.every(function (t) { return full[t] && full[t].type === "scatter"; });
    });
  }
  function nest(flat) {
    var out = {};
    Object.keys(flat).forEach(function (path) {
      var parts = path.split("."), o = out;
      for (var i = 0; i < parts.length - 1; i++) o = o[parts[i]] = o[parts[i]] || {};
      o[parts[parts.length - 1]] = flat[path];
    });
    return out;
  }
  // A trace redrawn alone is put last among its layer's traces: back in figure order (what a full
  // redraw draws), so names and badges stay above or below each other as the figure says.
  function keepOrder() {
    gd.querySelectorAll(".scatterlayer").forEach(function (layer) {
      var at = function (k) { return k.__data__ && k.__data__[0] && k.__data__[0].trace ? k.__data__[0].trace.index : -1; };
      var kids = Array.prototype.slice.call(layer.children), sorted = true;
      for (var i = 1; i < kids.length && sorted; i++) sorted = at(kids[i]) >= at(kids[i - 1]);
      if (sorted) return;
      var ref = layer.firstChild;  // move only the traces out of place (a re-drawn one: usually just it)
      kids.sort(function (a, b) { return at(a) - at(b); }).forEach(function (k) {
        if (k === ref) ref = ref.nextSibling; else layer.insertBefore(k, ref);
      });
    });
  }
  // A trace emptied by the step is not drawn by plotly at all (it is invisible without points), so its
  // old drawing would stay: take it away, as a full redraw does.
  function dropEmptied(traces) {
    var full = gd._fullData || [];
    traces.forEach(function (t) {
      if (full[t] && full[t].visible === true) return;
      gd.querySelectorAll(".scatterlayer > .trace").forEach(function (g) {
        if (g.__data__ && g.__data__[0] && g.__data__[0].trace && g.__data__[0].trace.index === t) g.remove();
      });
    });
  }
  // plotly keeps each text point's old drawing, in a transition and in Plotly.update alike: a name a step empties
  // (placed away from a badge) would stay drawn, a name that comes back would not be. Traces whose text a step
  // changes (a change plotly draws again, never a style-only one) are taken away first, so plotly draws them anew.
  function dropText(traces) {
    var full = gd._fullData || [], anew = {};
    traces.forEach(function (t) { if (full[t] && String(full[t].mode || "").indexOf("text") >= 0) anew[t] = true; });
    gd.querySelectorAll(".scatterlayer > .trace").forEach(function (g) {
      if (g.__data__ && g.__data__[0] && g.__data__[0].trace && anew[g.__data__[0].trace.index]) g.remove();
    });
  }
  function drawTraces(changes) {
    if (drawing) {
      waiting = waiting || {};
      Object.keys(changes).forEach(function (t) { waiting[t] = Object.assign(waiting[t] || {}, changes[t]); });
      return;
    }
    var traces = Object.keys(changes).map(Number);
    if (!traces.length) return;
    var after = function () {
      dropEmptied(traces);
      keepOrder();
      drawing = null;
      if (waiting) { var next = waiting; waiting = null; drawTraces(next); }
    };
    var data = traces.map(function (t) { return nest(changes[t]); });
    dropText(traces.filter(function (t) { return "text" in changes[t]; }));
    // Plotly.Plots.transition is what Plotly.animate runs for a frame, without waiting for the next animation
    // frame: the step is drawn before the browser paints, not one frame later.
    drawing = (typeof Plotly.Plots.transition === "function"
      ? Plotly.Plots.transition(gd, data, {}, traces, { redraw: false }, { duration: 0, easing: "linear", ordering: "layout first" })
      : Plotly.animate(gd, { data: data, traces: traces, layout: {} },
                       { transition: { duration: 0 }, frame: { duration: 0, redraw: false }, mode: "immediate" }))
      .then(after, after);
  }

  function show(s) {
    s = Math.max(0, Math.min(nSteps - 1, s | 0));
    applyChannels(s);
    slider.value = String(s);
    var items = logEl.children;
    if (current >= 0 && items[current]) items[current].classList.remove("current");
    // later events are greyed: only the lines between the old and the new step change class
    var from = current < 0 ? 0 : current;
    for (var i = Math.min(from, s) + 1; i <= Math.max(from, s) && i < items.length; i++) items[i].classList.toggle("future", i > s);
    var li = items[s];
    li.classList.add("current");
    scrollLog(li);
    var p = phaseOf(s);
    whereEl.textContent = "event " + s + " of " + (nSteps - 1) +
      (p ? " · " + (p.words || ((p.turn ? "turn " + p.turn + ", " : "") + p.phase)) : "");
    whereEl.title = whereEl.textContent;
    var jump = document.getElementById("jump");
    if (p) jump.value = String(p.start);
    renderNotes(s);
    markStrip(s);
    current = s;
    document.body.dataset.step = String(s);
    document.body.dataset.text = data.log[s];
  }

  // The win-probability strip (data.winprob): its dotted line at the events played after step s.
  var stripEl = document.getElementById("winprob");
  var stripReady = false;
  // Moved after the map's frame is painted (the map first), once per frame at most.
  var stripAt = null;
  function markStrip(s) {
    if (!stripReady) return;
    if (stripAt === null) requestAnimationFrame(function () {
      setTimeout(function () {
        var x = stripAt;
        stripAt = null;
        if (!moveStripLine(x)) Plotly.relayout(stripEl, { "shapes[0].x0": x, "shapes[0].x1": x });
        stripEl.dataset.current = String(x);
      }, 0);
    });
    stripAt = s + 1;
  }

  // The dotted line moved where its axis puts x, in the layout (for later redraws) and in the drawing:
  // no redraw of the strip. False when the drawing is not the one expected (then plotly redraws it).
  function moveStripLine(x) {
    var full = stripEl._fullLayout, path = stripEl.querySelector(".shapelayer path");
    var xa = full && full.xaxis, shape = full && full.shapes && full.shapes[0];
    var m = path && /^M[-\d.e]+,([-\d.e]+)L[-\d.e]+,([-\d.e]+)$/.exec(path.getAttribute("d") || "");
    if (!xa || !shape || shape.type !== "line" || !m) return false;
    var px = Math.round((xa._offset + xa.l2p(x)) * 100) / 100;
    stripEl.layout.shapes[0].x0 = stripEl.layout.shapes[0].x1 = x;
    shape.x0 = shape.x1 = x;
    if (shape._input) shape._input.x0 = shape._input.x1 = x;
    path.setAttribute("d", "M" + px + "," + m[1] + "L" + px + "," + m[2]);
    return true;
  }

  function drawStrip() {
    if (!data.winprob || !window.Plotly) return Promise.resolve();
    stripEl.hidden = false;
    var config = { responsive: true, displaylogo: false, displayModeBar: false, showLink: false, typesetMath: false };
    // Compact: as tall as the page makes its box, the legend on the title's line, the axis named in the title.
    var layout = Object.assign({}, data.winprob.figure.layout);
    delete layout.height;
    var title = Object.assign({}, layout.title);
    var xaxis = Object.assign({}, layout.xaxis);
    title = Object.assign(title, { x: 0, xanchor: "left", xref: "paper", y: 1, yref: "container", yanchor: "top", pad: { t: 3 } });
    xaxis.title = { text: "" };
    layout.title = title;
    layout.xaxis = xaxis;
    layout.margin = { l: 46, r: 8, t: 22, b: 20 };
    layout.legend = Object.assign({}, layout.legend, { orientation: "h", x: 1, xanchor: "right", y: 1, yanchor: "bottom",
                                                       font: { size: 11 }, bgcolor: "rgba(0,0,0,0)" });
    return Plotly.newPlot(stripEl, data.winprob.figure.data, layout, config).then(function () {
      stripReady = true;
      // A pivotal roll's flag moves the replay to that roll.
      stripEl.on("plotly_click", function (ev) {
        var pt = ev && ev.points && ev.points[0];
        if (pt && pt.data && pt.data.name === "pivotal rolls") { stop(); show(Number(pt.x) - 1); }
      });
    });
  }

  // Play skips bookkeeping steps: those whose delta changes nothing drawn and where no note starts
  // (unless "show every event" is ticked, or the page has no map to look at).
  var noteStarts = {};
  data.notes.forEach(function (n) { if (n.spans.length) noteStarts[n.spans[0][0]] = true; });
  function nextShown(s) {
    var every = document.getElementById("every").checked || !tl.figure;
    for (var t = s + 1; t < nSteps; t++) {
      if (every || noteStarts[t] || (tl.steps[t] && tl.steps[t].length)) return t;
    }
    return nSteps - 1;
  }

  function stop() {
    if (timer) clearInterval(timer);
    timer = null;
    playBtn.textContent = "Play";
    playBtn.setAttribute("aria-pressed", "false");
  }

  function play() {
    if (timer) { stop(); return; }
    if (current >= nSteps - 1) show(0);
    playBtn.textContent = "Pause";
    playBtn.setAttribute("aria-pressed", "true");
    timer = setInterval(function () {
      if (current >= nSteps - 1) { stop(); return; }
      show(nextShown(current));
    }, Number(document.getElementById("speed").value) || 500);
  }

  function buildControls() {
    document.getElementById("about").textContent = data.about.join(" · ");
    slider.max = String(nSteps - 1);
    var ticks = document.getElementById("phase-ticks");
    var jump = document.getElementById("jump");
    if (!data.phases.length) jump.appendChild(el("option", "start", null)).value = "0";
    data.phases.forEach(function (p) {
      var o = el("option", (p.words || ((p.turn ? "Turn " + p.turn + " · " : "") + p.phase)) + " (event " + p.start + ")");
      o.value = String(p.start);
      jump.appendChild(o);
      var t = document.createElement("option");
      t.value = String(p.start);
      t.label = p.words || p.phase;
      ticks.appendChild(t);
    });
    var marks = data.notes.filter(function (n) { return n.spans.length; });
    if (marks.length) {
      var group = document.createElement("optgroup");
      group.label = "Notes";
      marks.sort(function (a, b) { return a.spans[0][0] - b.spans[0][0]; }).forEach(function (n) {
        var o = el("option", "★ " + n.title + " (event " + n.spans[0][0] + ")");
        o.value = String(n.spans[0][0]);
        group.appendChild(o);
      });
      jump.appendChild(group);
    }
    var frag = document.createDocumentFragment();
    var auto = {};
    data.automatic.forEach(function (i) { auto[i] = true; });
    data.log.forEach(function (text, i) {
      var li = el("li", text, (auto[i] ? "auto" : "") + (i > 0 ? " future" : ""));
      li.value = i;
      li.dataset.seq = String(i);
      frag.appendChild(li);
    });
    logEl.appendChild(frag);
    logEl.addEventListener("click", function (ev) {
      var li = ev.target.closest("li");
      if (li) { stop(); show(Number(li.dataset.seq)); }
    });
    // Dragging fires many input events: draw at most once per frame, the latest position.
    var pending = null;
    slider.addEventListener("input", function () {
      stop();
      if (pending === null) requestAnimationFrame(function () { var s = pending; pending = null; show(s); });
      pending = Number(slider.value);
    });
    jump.addEventListener("change", function () { stop(); show(Number(jump.value)); });
    document.getElementById("first").addEventListener("click", function () { stop(); show(0); });
    document.getElementById("prev").addEventListener("click", function () { stop(); show(current - 1); });
    document.getElementById("next").addEventListener("click", function () { stop(); show(current + 1); });
    playBtn.addEventListener("click", play);
    document.addEventListener("keydown", function (ev) {
      if (ev.target === slider || ev.target.tagName === "SELECT") return;  // the slider has its own keys
      if (ev.key === "ArrowRight") { stop(); show(current + 1); ev.preventDefault(); }
      else if (ev.key === "ArrowLeft") { stop(); show(current - 1); ev.preventDefault(); }
      else if (ev.key === "Home") { stop(); show(0); ev.preventDefault(); }
      else if (ev.key === "End") { stop(); show(nSteps - 1); ev.preventDefault(); }
      else if (ev.key === " " && ev.target.tagName !== "BUTTON") { play(); ev.preventDefault(); }
    });
  }

  // The map's shape (width over height of its drawing area): from its axes (x range over y range times
  // the y axis' scale ratio), else 16:10.
  function mapAspect() {
    var L = (tl.figure && tl.figure.layout) || {}, xa = L.xaxis || {}, ya = L.yaxis || {};
    if (xa.range && ya.range && ya.scaleanchor === "x") {
      return Math.abs(xa.range[1] - xa.range[0]) / (Math.abs(ya.range[1] - ya.range[0]) * (ya.scaleratio || 1));
    }
    return 16 / 10;
  }

  // The map's legend (who controls an area) under the player boxes: the figure's own legend entries,
  // drawn by plotly alone (they draw nothing on a map); in two columns where the side is wide enough.
  var legendEl = document.getElementById("legend");
  function drawLegend() {
    if (!legendOf || !window.Plotly) return Promise.resolve();
    legendEl.hidden = false;
    var legend = Object.assign({}, legendOf.legend, { x: 0, xanchor: "left", y: 1, yanchor: "top", orientation: "v" });
    delete legend.maxheight;
    var layout = { showlegend: true, legend: legend, margin: { l: 0, r: 0, t: 0, b: 0 }, height: 400,
                   xaxis: { visible: false, fixedrange: true }, yaxis: { visible: false, fixedrange: true },
                   paper_bgcolor: "rgba(0,0,0,0)", plot_bgcolor: "rgba(0,0,0,0)", dragmode: false, hovermode: false,
                   font: (tl.figure.layout || {}).font };
    var config = { staticPlot: true, displayModeBar: false, responsive: false };
    return Plotly.newPlot(legendEl, legendOf.data, layout, config).then(fitLegendBox);
  }
  function fitLegendBox() {
    var room = legendEl.clientWidth, base = (legendOf.legend.font && legendOf.legend.font.size) || 12;
    var first = { "legend.orientation": "v", "legend.font.size": base, "legend.maxheight": 2000, width: room };
    if (legendOf.legend.title) first["legend.title.side"] = "top";
    return Plotly.relayout(legendEl, first).then(function () {
      var widest = 0;
      legendEl.querySelectorAll(".legend .traces").forEach(function (t) { widest = Math.max(widest, t.getBBox().width); });
      var size = base;
      if (2 * widest + 24 > room && 2 * widest * (base - 1) / base + 24 <= room) { size = base - 1; widest *= size / base; }
      if (widest && 2 * widest + 24 <= room) {
        return Plotly.relayout(legendEl, { "legend.orientation": "h", "legend.entrywidth": Math.floor((room - 8) / 2) - 40,
                                           "legend.entrywidthmode": "pixels", "legend.font.size": size,
                                           "legend.title.font.size": size });
      }
    }).then(function () {
      var l = legendEl.querySelector(".legend");
      var h = Math.ceil(l ? l.getBBox().height : 0) + 4;
      legendEl.style.height = h + "px";
      return Plotly.relayout(legendEl, { height: h, width: room });
    });
  }

  // The map takes the height the screen has left under the controls (the win-probability strip under
  // it), and the width its shape wants at that height plus its legend; the side column (the map's
  // title, the turn and player boxes, this step's words, notes, log) has the rest: one screen.
  function fitScreen() {
    var hasStrip = !!data.winprob;
    var stripH = hasStrip ? Math.round(Math.max(96, Math.min(150, window.innerHeight * 0.14))) : 0;
    if (hasStrip) stripEl.style.height = stripH + "px";
    if (data.mode !== "map" || window.innerWidth <= 900) {
      document.body.classList.remove("fit");
      mainEl.style.gridTemplateColumns = side.style.height = "";
      sizeNotes();
      return false;
    }
    document.body.classList.add("fit");
    document.body.classList.toggle("wide", window.innerWidth >= 1600);
    var top = stageEl.getBoundingClientRect().top + window.scrollY;
    var gap = hasStrip ? 4 : 0;
    var h = Math.round(Math.max(300, window.innerHeight - top - stripH - gap - 8));
    var L = (tl.figure && tl.figure.layout) || {}, m = L.margin || {}, yd = (L.yaxis && L.yaxis.domain) || [0, 1];
    var mapH = (h - 6 - (m.b || 0)) * (yd[1] - yd[0]);
    var want = Math.ceil(mapH * mapAspect() + (m.l || 0) + (m.r || 0) + 4);
    var cs = getComputedStyle(mainEl);
    var avail = mainEl.clientWidth - parseFloat(cs.paddingLeft) - parseFloat(cs.paddingRight) - parseFloat(cs.columnGap || 0);
    var w = Math.max(300, Math.min(want, avail - Math.min(avail * 0.3, 20 * 16)));  // the side keeps at least 20rem
    mainEl.style.gridTemplateColumns = w + "px minmax(0, 1fr)";
    if (w < want) {  // as wide as it may be: only as tall as the map's shape then needs (no blank band under it)
      var needH = (w - (m.l || 0) - (m.r || 0) - 4) / mapAspect() / (yd[1] - yd[0]) + 6 + (m.b || 0) + 2;
      h = Math.round(Math.max(300, Math.min(h, needH)));
    }
    gd.style.height = h + "px";
    side.style.maxHeight = side.style.height = (h + stripH + gap) + "px";  // the log fills what the rest leaves
    sizeNotes();
    return true;
  }

  function fitAll() {
    fitScreen();
    var strip = stripReady ? Plotly.Plots.resize(stripEl) : Promise.resolve();
    if (!window.Plotly || !gd.layout) return strip;
    return Promise.all([strip, Plotly.Plots.resize(gd), legendOf ? fitLegendBox() : null]);
  }

  var refit = null;
  window.addEventListener("resize", function () {
    clearTimeout(refit);
    refit = setTimeout(fitAll, 150);  // after plotly's own responsive resize
  });

  function start() {
    document.body.classList.add("mode-" + data.mode);
    buildControls();
    if (!tl.figure) {
      document.body.classList.add("log-only");
      show(0);
      statusEl.textContent = "";
      window.medviz = { show: show, data: data, ready: true };
      return;
    }
    loadPlotly().then(function () {
      // The mode bar would sit over the title: a class zooms with the wheel and drags without it.
      var config = { responsive: true, displaylogo: false, displayModeBar: false, scrollZoom: true, showLink: false,
                     showEditInChartStudio: false, typesetMath: false,
                     toImageButtonOptions: { format: "png", filename: "medviz-replay" } };
      var figure = splitFigure(tl.figure);
      fitScreen();
      return Plotly.newPlot(gd, figure.data, figure.layout, config);
    }).then(drawLegend).then(drawStrip).then(function () {
      for (var c = 0; c < nCh; c++) if (tl.channels[c][0] === PANEL) renderPanel(shown[c]);
      show(0);
      statusEl.textContent = "";
      window.medviz = { show: show, data: data, ready: true, plot: gd, strip: stripReady ? stripEl : null,
                        drawing: function () { return !!(drawing || waiting); } };
    }).catch(function (err) {
      statusEl.textContent = "Cannot draw the map: " + err.message;
      show(0);
      window.medviz = { show: show, data: data, ready: false, error: String(err) };
    });
  }

  start();
})();
