// The map widget's step redraw (issue 15): a step that changes only some scatter traces' properties has
// plotly.js draw those traces alone, as the exported page does (medviz/export/page.js drawTraces); any other
// step takes plotly's own whole redraw (Plotly.update). One expression: a function of plotly.js's Plotly
// object giving ``step(gd, style, layout, traces)`` (a Plotly.update's arguments, ``style`` one value per
// trace) that returns a promise of the step drawn. medviz.apps.common.quiet_widget_esm puts it into plotly's
// widget bundle; benchmarks/bench_redraw.py and tests/browser/test_map_step_redraw.py run it on plotly.min.js.
//
// plotly.js's restyle of a trace's data or text recomputes every trace and draws them all again (55-60 ms a
// step for the map's 96 traces at a loaded machine). Its animation path with ``redraw: false`` (what
// Plotly.animate runs for a frame) recomputes the figure's data but draws only the traces it is given. The
// traces' properties are set first exactly as restyle sets them (a null unsets, an undefined leaves alone),
// so the figure's data is restyle's. Those traces' old drawings are taken away first (plotly's update of a drawn
// trace keeps some of its old attributes), and a trace drawn anew is put back in the figure's order after it.
// The layout's part of such a step is drawn alone too: the panel's words by an annotation's own redraw, a
// one-line title's words by writing them into its SVG text as plotly.js would (titleAlone); a jump, which
// changes the title, then costs one pass of plotly's defaults and data over the figure instead of two.
(function (Plotly) {
  "use strict";
  // The properties a step may change and still be drawn alone: restyle sets them as they are (none changes
  // another property with it, an axis, the legend, a colour bar or how traces fill to each other).
  var ALONE = new RegExp("^(x|y|text|hovertext|textposition|customdata|visible|mode|opacity|fillcolor|hoverinfo|" +
    "hovertemplate|texttemplate|meta|marker\\.(size|color|opacity|symbol|angle|line\\.(color|width))|" +
    "line\\.(color|width|dash)|textfont\\.(color|size|family|weight|style)|" +
    "fillpattern\\.(shape|size|solidity|bgcolor|fgcolor|fillmode))$");

  // Whether the step (``style`` on ``traces``) can be drawn by redrawing those traces alone.
  function drawsAlone(gd, style, traces) {
    var full = gd._fullData, fl = gd._fullLayout, data = gd.data;
    if (!full || !fl || !data || !gd._transitionData || typeof Plotly.animate !== "function") return false;
    if (!Array.isArray(traces) || !traces.length || full.length !== data.length) return false;
    var keys = Object.keys(style).filter(function (k) { return k !== "_doNotReportToPy"; });
    if (!keys.length) return false;
    for (var k = 0; k < keys.length; k++) {
      var values = style[keys[k]];
      if (!ALONE.test(keys[k]) || !Array.isArray(values) || values.length !== traces.length) return false;
    }
    var plots = Object.keys(fl._plots || {});
    if (plots.length !== 1 || (fl._colorAxes && Object.keys(fl._colorAxes).length)) return false;
    var plot = fl._plots[plots[0]];
    if (plot.xaxis.autorange || plot.yaxis.autorange) return false;  // the axes keep their ranges
    for (var i = 0; i < full.length; i++) {
      if (full[i].type !== "scatter" || /^tonext/.test(full[i].fill || "") || full[i].stackgroup) return false;
    }
    var seen = {};
    for (var j = 0; j < traces.length; j++) {
      var t = traces[j];
      if (typeof t !== "number" || t % 1 !== 0 || t < 0 || t >= full.length || seen[t]) return false;
      seen[t] = true;
      if (data[t].type !== undefined && data[t].type !== "scatter") return false;
      if (fl.showlegend && data[t].showlegend !== false) return false;  // its legend entry may change with it
      if (full[t].marker && full[t].marker.showscale) return false;
    }
    return true;
  }

  // Set ``path`` of ``trace`` to ``value`` as restyle does: null unsets (an emptied container stays), undefined
  // leaves the property alone.
  function restyled(trace, path, value) {
    if (value === undefined) return;
    var parts = path.split("."), o = trace;
    for (var i = 0; i < parts.length - 1; i++) {
      var next = o[parts[i]];
      if (next === null || typeof next !== "object" || Array.isArray(next)) {
        if (value === null) return;
        next = o[parts[i]] = {};
      }
      o = next;
    }
    if (value === null) delete o[parts[parts.length - 1]];
    else o[parts[parts.length - 1]] = value;
  }

  function traceIndex(g) {
    var d = g.__data__;
    return d && d[0] && d[0].trace ? d[0].trace.index : -1;
  }

  // A trace the step made invisible is not drawn at all in a partial drawing: its old drawing goes, as a
  // whole redraw takes it away.
  function dropEmptied(gd, traces) {
    var full = gd._fullData || [], gone = {}, any = false;
    traces.forEach(function (t) { if (!full[t] || full[t].visible !== true) { gone[t] = true; any = true; } });
    if (!any) return;
    gd.querySelectorAll(".scatterlayer > .trace").forEach(function (g) { if (gone[traceIndex(g)]) g.remove(); });
  }

  // The traces drawn alone are ordered among themselves only: put every trace back in figure order (what
  // a whole redraw draws), moving only those out of place, so names and badges stay above or below each
  // other as the figure says.
  function keepOrder(gd) {
    gd.querySelectorAll(".scatterlayer").forEach(function (layer) {
      var kids = Array.prototype.slice.call(layer.children), sorted = true;
      for (var i = 1; i < kids.length && sorted; i++) sorted = traceIndex(kids[i]) >= traceIndex(kids[i - 1]);
      if (sorted) return;
      var ref = layer.firstChild;
      kids.sort(function (a, b) { return traceIndex(a) - traceIndex(b); }).forEach(function (k) {
        if (k === ref) ref = ref.nextSibling; else layer.insertBefore(k, ref);
      });
    });
  }

  // What plotly's style pass (which a partial drawing skips) gives a trace's fill besides its colour: no outline.
  function styleFills(gd, traces) {
    var redrawn = {};
    traces.forEach(function (t) { redrawn[t] = true; });
    gd.querySelectorAll(".scatterlayer > .trace").forEach(function (g) {
      if (!redrawn[traceIndex(g)]) return;
      g.querySelectorAll(".js-fill").forEach(function (p) { if (p.style.strokeWidth !== "0") p.style.strokeWidth = "0"; });
    });
  }

  // Take away the old drawings of ``traces`` (each is then drawn anew as from scratch: plotly's update of a
  // drawn trace keeps some attributes of the old one, a text's offset for a position it no longer has).
  function dropDrawings(gd, traces) {
    var redrawn = {};
    traces.forEach(function (t) { redrawn[t] = true; });
    gd.querySelectorAll(".scatterlayer > .trace").forEach(function (g) { if (redrawn[traceIndex(g)]) g.remove(); });
  }

  // Draw ``traces`` alone; resolves once they are drawn and repaired (plotly draws them in a microtask after the
  // call, the repairs follow before the browser paints; its transition then ends on a timer, which the next
  // step need not wait for: a new one ends it).
  function drawAlone(gd, traces) {
    dropDrawings(gd, traces);
    return new Promise(function (resolve) {
      var done = false;
      var repaired = function () { dropEmptied(gd, traces); styleFills(gd, traces); keepOrder(gd); resolve(); };
      var repair = function () { gd.removeListener("plotly_transitioning", repair); Promise.resolve().then(repaired); };
      var finish = function () {
        if (done) return;
        done = true;
        gd.removeListener("plotly_transitioning", repair);
        gd.removeListener("plotly_transitioned", finish);
        gd.removeListener("plotly_transitioninterrupted", finish);
        repaired();  // (changes nothing if the repairs were made)
      };
      gd.on("plotly_transitioning", repair);  // plotly draws right after it says so
      gd.on("plotly_transitioned", finish);
      gd.on("plotly_transitioninterrupted", finish);
      Plotly.animate(gd, { data: traces.map(function () { return {}; }), traces: traces, layout: {} },
                     { transition: { duration: 0, easing: "linear" }, frame: { duration: 0, redraw: false },
                       mode: "immediate" }).then(finish, finish);
    });
  }

  // A one-line title of plain words and bold or italic runs, drawn as plotly.js draws it (svg_text_utils'
  // convertToTspans): its words as text, each run a tspan styled so. Null for any other title (a line break,
  // an entity, a link, a formula, other markup, nothing at all), which relayout draws.
  var RUN = /<(b|i)>([^<>&$\r\n]+)<\/\1>|([^<>&$\r\n]+)/g;
  function titleTspans(text) {
    if (typeof text !== "string" || !text.length || !/^(?:<(b|i)>[^<>&$\r\n]+<\/\1>|[^<>&$\r\n])+$/.test(text)) return null;
    var out = [], m;
    RUN.lastIndex = 0;
    while ((m = RUN.exec(text)) !== null) {
      if (m[3] !== undefined) out.push({ text: m[3] });
      else out.push({ text: m[2], style: m[1] === "b" ? "font-weight:bold" : "font-style:italic" });
    }
    return out;
  }

  // The title's words drawn alone (relayout of the title lays out the whole figure's frame and supplies every
  // trace's defaults again: about half of a jump's drawing): only where the title is left-anchored words on one
  // line (its place then does not depend on its words) and the drawn title is exactly what this would draw for
  // the old words; the figure's title is set as relayout sets it. False where relayout must draw it.
  function titleAlone(gd, text) {
    var fl = gd._fullLayout, title = fl && fl.title, el = gd.querySelector(".g-gtitle > text.gtitle");
    var runs = titleTspans(text);
    if (!runs || !title || !el || title.automargin || el.getAttribute("text-anchor") !== "start") return false;
    var old = titleTspans(title.text);
    if (!old || el.getAttribute("data-unformatted") !== title.text || !drawnAs(el, old)) return false;
    restyled(gd.layout, "title.text", text);
    title.text = text;
    gd._medvizRedraw.titles = (gd._medvizRedraw.titles || 0) + 1;
    el.setAttribute("data-unformatted", text);
    el.textContent = "";
    runs.forEach(function (r) {
      if (!r.style) { el.appendChild(document.createTextNode(r.text)); return; }
      var span = document.createElementNS("http://www.w3.org/2000/svg", "tspan");
      span.setAttribute("style", r.style);
      span.textContent = r.text;
      el.appendChild(span);
    });
    return true;
  }

  // Whether ``el`` holds exactly ``runs`` (a text node per plain run, a styled tspan per bold or italic one; plotly
  // leaves empty text nodes between them, which draw nothing).
  function drawnAs(el, runs) {
    var kids = Array.prototype.filter.call(el.childNodes, function (k) { return k.nodeType !== 3 || k.nodeValue !== ""; });
    if (kids.length !== runs.length) return false;
    for (var i = 0; i < runs.length; i++) {
      var k = kids[i], r = runs[i];
      if (r.style ? (k.nodeName !== "tspan" || k.getAttribute("style") !== r.style || k.attributes.length !== 1 ||
                     k.childNodes.length !== 1 || k.firstChild.nodeType !== 3)
                  : k.nodeType !== 3) return false;
      if (k.textContent !== r.text) return false;
    }
    return true;
  }

  // The panel's words (a paper-placed annotation's text) are set as relayout sets them and that annotation alone
  // drawn again: relayout of a text draws every trace again (an annotation's text may move an autoranged
  // axis), where an edit of its opacity, here to the value it has, draws only the annotation. The title's words
  // are drawn alone where they can be (titleAlone).
  var ANNOTATION_TEXT = /^annotations\[(\d+)\]\.text$/;
  function relayoutAlone(gd, layout, reportless) {
    var rest = {}, texts = 0, notes = gd.layout.annotations, full = gd._fullLayout.annotations || [];
    var titled = "title.text" in layout && !Object.keys(layout).some(function (k) { return /^title\./.test(k) && k !== "title.text"; }) &&
      titleAlone(gd, layout["title.text"]);
    Object.keys(layout).forEach(function (key) {
      var m = ANNOTATION_TEXT.exec(key), i = m ? +m[1] : -1;
      if (titled && key === "title.text") return;
      if (m && notes && notes[i] && full[i] && full[i].xref === "paper" && full[i].yref === "paper") {
        restyled(notes[i], "text", layout[key]);
        rest["annotations[" + i + "].opacity"] = notes[i].opacity === undefined ? null : notes[i].opacity;
        texts++;
      } else {
        rest[key] = layout[key];
      }
    });
    if (!Object.keys(rest).some(function (k) { return k !== "_doNotReportToPy"; })) return Promise.resolve();
    var done = reportless ? quietRelayout(gd, rest) : Promise.resolve(Plotly.relayout(gd, rest));
    if (texts) keepAnnotationOrder(gd);  // drawn again, each annotation went last among them
    return done.then(function () { if (texts) keepAnnotationOrder(gd); });
  }

  // Plotly.relayout(gd, rest) whose plotly_relayout event carries plotly's widget's "not for the kernel" mark
  // (``_doNotReportToPy``). The mark is not given to relayout itself: there it is a layout key plotly.js does
  // not know, and relayout then lays out and draws the whole figure again (99 ms for the map where an
  // annotation's opacity takes 2 ms; profiled in JupyterLab by benchmarks/bench_click.py --profile).
  function quietRelayout(gd, rest) {
    if (typeof gd.emit === "function" && !gd.emit._medvizQuiet) {
      var emit = gd.emit;
      gd.emit = function (name, data) {
        if (name === "plotly_relayout" && gd._medvizQuiet > 0 && data && typeof data === "object") {
          data = Object.assign({ _doNotReportToPy: true }, data);
        }
        return emit.apply(this, [name, data].concat(Array.prototype.slice.call(arguments, 2)));
      };
      gd.emit._medvizQuiet = true;
    }
    gd._medvizQuiet = (gd._medvizQuiet || 0) + 1;
    var quiet = function () { gd._medvizQuiet--; };
    var done;
    try {
      done = Promise.resolve(Plotly.relayout(gd, rest));
    } catch (e) {
      quiet();
      throw e;
    }
    return done.then(function (r) { quiet(); return r; }, function (e) { quiet(); throw e; });
  }

  function keepAnnotationOrder(gd) {
    var first = gd.querySelector("g.annotation");
    if (!first) return;
    var layer = first.parentNode, at = function (g) { return +g.getAttribute("data-index"); };
    var kids = Array.prototype.filter.call(layer.children, function (g) { return g.classList.contains("annotation"); });
    var sorted = kids.slice().sort(function (a, b) { return at(a) - at(b); });
    if (sorted.every(function (g, i) { return g === kids[i]; })) return;
    sorted.forEach(function (g) { layer.appendChild(g); });
  }

  // The layout's part of a step that plotly draws without drawing the traces again: the panel's words, the title.
  var LAYOUT_ALONE = /^(annotations\[\d+\]\.text|title\.text|title\.font\.(size|color|family|weight|style))$/;

  return function step(gd, style, layout, traces) {
    var counts = gd._medvizRedraw = gd._medvizRedraw || { alone: 0, whole: 0, titles: 0 };
    layout = layout || {};
    var restyles = Object.keys(style).some(function (k) { return k !== "_doNotReportToPy"; });
    var relayouts = Object.keys(layout).filter(function (k) { return k !== "_doNotReportToPy"; });
    var ready = gd._fullData && gd._fullLayout && gd.layout && typeof Plotly.animate === "function";
    if (!ready || (!restyles && !relayouts.length) || (restyles && !drawsAlone(gd, style, traces))) {
      counts.whole++;
      return Promise.resolve(Plotly.update(gd, style, layout, traces));
    }
    counts.alone++;
    var reportless = !!style._doNotReportToPy;
    var setData = function () {
      Object.keys(style).forEach(function (key) {
        if (key === "_doNotReportToPy") return;
        traces.forEach(function (t, j) { restyled(gd.data[t], key, style[key][j]); });
      });
    };
    if (!relayouts.every(function (k) { return LAYOUT_ALONE.test(k); })) {
      // Another part of the layout (the map's frame): plotly's whole update, the step's traces' old drawings
      // taken away first so that it draws them from scratch; one it did not draw again is drawn alone after it.
      if (!restyles) return Promise.resolve(Plotly.update(gd, style, layout, traces));
      dropDrawings(gd, traces);
      return Promise.resolve(Plotly.update(gd, style, layout, traces)).then(function () {
        var full = gd._fullData, drawn = {};
        gd.querySelectorAll(".scatterlayer > .trace").forEach(function (g) { drawn[traceIndex(g)] = true; });
        var missing = traces.filter(function (t) { return full[t] && full[t].visible === true && !drawn[t]; });
        return missing.length ? drawAlone(gd, missing) : undefined;
      });
    }
    // The layout first (its drawing is done when relayout returns), then the traces (plotly draws them in a
    // microtask after the call): both before the browser paints, none waiting for the other's timer.
    var laid = relayouts.length ? relayoutAlone(gd, layout, reportless) : Promise.resolve();
    if (!restyles) return laid;
    setData();
    return Promise.all([laid, drawAlone(gd, traces)]);
  };
})
