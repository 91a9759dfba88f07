// medviz standalone replay: applies per-step channel deltas to a figure drawn once.
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

  function el(tag, text, cls) {
    var e = document.createElement(tag);
    if (text != null) e.textContent = text;
    if (cls) e.className = cls;
    return e;
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

  function renderNotes(s) {
    notesEl.replaceChildren();
    var hits = data.notes.filter(function (n) {
      return n.spans.some(function (sp) { return sp[0] <= s && s < sp[1]; });
    });
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
      if (ch[0] === LAYOUT) { layout = layout || {}; layout[ch[1]] = value; continue; }
      var g = groups[ch[1]] || (groups[ch[1]] = { idx: [], vals: [] });
      g.idx.push(ch[0]);
      g.vals.push(value);
    }
    if (tl.figure && window.Plotly) {
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
      if (traces.length || layout) Plotly.update(gd, upd, layout || {}, traces);
    }
    if (panel) renderPanel(panel);
  }

  function show(s) {
    s = Math.max(0, Math.min(nSteps - 1, s | 0));
    applyChannels(s);
    slider.value = String(s);
    var items = logEl.children;
    if (current >= 0 && items[current]) items[current].classList.remove("current");
    for (var i = 0; i < items.length; i++) items[i].classList.toggle("future", i > s);
    var li = items[s];
    li.classList.add("current");
    var top = li.offsetTop - logEl.offsetTop;
    if (top < logEl.scrollTop || top > logEl.scrollTop + logEl.clientHeight - li.offsetHeight) {
      logEl.scrollTop = Math.max(0, top - logEl.clientHeight / 3);
    }
    var p = phaseOf(s);
    whereEl.textContent = "event " + s + " of " + (nSteps - 1) +
      (p ? " · " + (p.words || ((p.turn ? "turn " + p.turn + ", " : "") + p.phase)) : "");
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
  function markStrip(s) {
    if (!stripReady) return;
    Plotly.relayout(stripEl, { "shapes[0].x0": s + 1, "shapes[0].x1": s + 1 });
    stripEl.dataset.current = String(s + 1);
  }

  function drawStrip() {
    if (!data.winprob || !window.Plotly) return Promise.resolve();
    stripEl.hidden = false;
    var config = { responsive: true, displaylogo: false, displayModeBar: false, showLink: false, typesetMath: false };
    return Plotly.newPlot(stripEl, data.winprob.figure.data, data.winprob.figure.layout, config).then(function () {
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
      var li = el("li", text, auto[i] ? "auto" : null);
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

  // The map's side panel is stacked in pixels (layout.meta.panel_px, see medviz.viz.state_map):
  // restack it at the size the page draws the figure, so the boxes never overlap on a small map.
  function fitPanel() {
    var meta = gd.layout && gd.layout.meta;
    if (!meta || !meta.panel_px || !window.Plotly || !gd.clientHeight) return Promise.resolve();
    var ph = Math.max(200, gd.clientHeight - (meta.vertical_margin || 50));
    var upd = {}, anns = gd.layout.annotations || [];
    for (var i = 0; i < anns.length; i++) {
      var top = meta.panel_px[anns[i].name];
      if (top === undefined) continue;
      upd["annotations[" + i + "].y"] = 1 - top / ph;
      if (anns[i].width) upd["annotations[" + i + "].width"] = Math.max(80, Math.round(gd.clientWidth * (1 - meta.map_domain) - 36));
    }
    if (meta.panel_px.legend !== undefined) {
      upd["legend.y"] = 1 - meta.panel_px.legend / ph;
      upd["legend.maxheight"] = Math.max(38, ph - meta.panel_px.legend);  // a taller legend scrolls
    }
    return Plotly.relayout(gd, upd);
  }

  // The map takes the height the screen has left under the controls (at most 16:10 of its width),
  // and the side column (this step's words, notes, log) the same, so nothing is below the fold.
  function fitScreen() {
    if (data.mode !== "map" || window.innerWidth <= 900) { document.body.classList.remove("fit"); return false; }
    document.body.classList.add("fit");
    var top = gd.getBoundingClientRect().top + window.scrollY;
    var room = window.innerHeight - top - 10;
    var h = Math.round(Math.max(300, Math.min(gd.clientWidth * 10 / 16, room)));
    gd.style.height = h + "px";
    side.style.maxHeight = Math.max(h, 300) + "px";
    return true;
  }

  // A legend taller than the room under the panel would run into the key under the map: shrink its
  // text until it clears the key and stays inside the figure.
  function fitLegend() {
    var leg = gd.querySelector(".legend"), key = null;
    if (!leg || !window.Plotly) return Promise.resolve();
    gd.querySelectorAll("g.annotation").forEach(function (g) { if (/This step|Units/.test(g.textContent)) key = g; });
    var size = (gd.layout.legend && gd.layout.legend.font && gd.layout.legend.font.size) || 12;
    var bottom = gd.getBoundingClientRect().bottom - 2;
    function clashes() {
      var l = leg.getBoundingClientRect();
      if (l.bottom > bottom) return true;
      if (!key) return false;
      var k = key.getBoundingClientRect();
      return l.left < k.right && k.left < l.right && l.top < k.bottom && k.top < l.bottom;
    }
    function step() {
      leg = gd.querySelector(".legend");
      if (!leg || !clashes() || size <= 8) return Promise.resolve();
      size -= 1;
      return Plotly.relayout(gd, { "legend.font.size": size, "legend.tracegroupgap": 0,
                                   "legend.title.font.size": size }).then(step);
    }
    return step();
  }

  function fitAll() {
    fitScreen();
    if (!window.Plotly || !gd.layout) return Promise.resolve();
    return Plotly.Plots.resize(gd).then(fitPanel).then(fitLegend);
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
      fitScreen();
      return Plotly.newPlot(gd, tl.figure.data, tl.figure.layout, config);
    }).then(fitPanel).then(fitLegend).then(drawStrip).then(function () {
      for (var c = 0; c < nCh; c++) if (tl.channels[c][0] === PANEL) renderPanel(shown[c]);
      show(0);
      statusEl.textContent = "";
      window.medviz = { show: show, data: data, ready: true, plot: gd, strip: stripReady ? stripEl : null };
    }).catch(function (err) {
      statusEl.textContent = "Cannot draw the map: " + err.message;
      show(0);
      window.medviz = { show: show, data: data, ready: false, error: String(err) };
    });
  }

  start();
})();
