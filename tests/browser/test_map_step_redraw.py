"""The map widget redraws only the traces a step changes (medviz/apps/map_redraw.js in plotly's widget bundle):
what it draws must be what plotly draws from scratch for the same figure, and the figure it holds must be the
kernel's, after walking a ReplayViewer through the Vespers war event by event and by jumps back and forth.

The widget's own browser code (``quiet_widget_esm(step_redraw=True)``, plotly's bundle with the patch) runs in chromium through
its anywidget interface: a small model holds the widget's state as the kernel sent it and passes on each
``_py2js_update`` message the kernel's figure sends (captured from ``MapFigureWidget._send``). The fresh drawing
is a second view of the same model, drawn by plotly's ``newPlot`` from the figure the live view holds (which
is checked against the kernel's figure).
"""

from __future__ import annotations

import gzip
import json
import os
from typing import Any

import pytest
from conftest import OfflinePage
from helpers_sample import ROOT

from medviz.engine import History

ORIGIN = "http://localhost:9"

#: An anywidget model over the widget's state (get, set with change events, on, save_changes) and one view of it.
HOST_HTML = """<html><body style="margin:0"><div id="live" style="width:1100px"></div><div id="fresh" style="width:1100px"></div>
<script type="module">
import factory from "./bundle.mjs";
window.openMap = async (state) => {
  const widget = typeof factory === "function" ? factory() : factory;
  const on = {};
  const model = {get: (k) => state[k], on: (e, f) => (on[e] = on[e] || []).push(f), save_changes: () => {},
                 set: (k, v) => { state[k] = v; (on["change:" + k] || []).forEach((f) => f()); }};
  widget.initialize({model});
  widget.render({model, el: document.getElementById("live")});
  window.mapModel = model;
  window.renderFresh = () => {  // a fresh newPlot, in a new element, of the figure the live view holds
    const live = document.getElementById("live");
    state._widget_data = JSON.parse(JSON.stringify(live.data));
    state._widget_layout = JSON.parse(JSON.stringify(live.layout));
    const el = document.createElement("div");
    el.style.width = "1100px";
    document.getElementById("fresh").replaceChildren(el);
    widget.render({model, el});
  };
};
window.ready = true;
</script></body></html>"""

#: Wait until the live view has drawn every message it was given; draw the model's figure afresh in a second
#: view; return both drawings' traces, annotations and title (ids and number rounding normalised) and data.
COMPARE_JS = """
async () => {
  const sleep = (ms) => new Promise(r => setTimeout(r, ms));
  const gdOf = (id) => { const el = document.getElementById(id); return el.classList.contains('js-plotly-plot') ? el : el.querySelector('.js-plotly-plot'); };
  for (let i = 0; i < 200 && !(gdOf('live') && gdOf('live')._fullData); i++) await sleep(25);
  await sleep(200);
  window.renderFresh();
  for (let i = 0; i < 200 && !(gdOf('fresh') && gdOf('fresh')._fullData); i++) await sleep(25);
  await sleep(300);
  const style = (h) => h.replace(/style="([^"]*)"/g, (all, s) => 'style="' + s.split(';').map(x => x.trim()).filter(Boolean).sort().join(';') + '"');
  const norm = (h) => style(h).replace(/#p[0-9a-f]{6}-/g, '#P-').replace(/ id="p[0-9a-f]{6}-/g, ' id="P-')
      .replace(/clip[0-9a-f]{6}/g, 'clip').replace(/ pattern_filled/g, '')
      .replace(/-?\\d+\\.\\d+/g, (x) => (Math.round(parseFloat(x) * 10) / 10).toFixed(1));  // 1e-12 px apart: the same
  // A text point without a text draws nothing (plotly's own update keeps or drops its empty group, and the
  // offset of an earlier text, where a drawing from scratch has a bare one): left out on both sides.
  const bare = (h) => h.replace(/<g class="textpoint"[^>]*><\\/g>/g, '');
  const drawn = (gd) => ({
    traces: Array.from(gd.querySelectorAll('.scatterlayer > .trace')).map(t => bare(norm(t.outerHTML))),
    notes: Array.from(gd.querySelectorAll('g.annotation')).map(a => norm(a.outerHTML)),
    title: norm((gd.querySelector('.g-gtitle') || {outerHTML: ''}).outerHTML),
    patterns: (() => {
      const used = new Set(Array.from(gd.querySelector('.scatterlayer').innerHTML.matchAll(/url\\(&quot;#([^&]+)&quot;\\)/g)).map(m => m[1]));
      return Array.from(gd.querySelectorAll('defs pattern')).filter(p => used.has(p.id)).map(p => norm(p.outerHTML)).sort();
    })(),
  });
  const a = gdOf('live'), b = gdOf('fresh');
  return {live: drawn(a), fresh: drawn(b), data: JSON.parse(JSON.stringify(a.data)),
          words: {title: a.layout.title.text, notes: (a.layout.annotations || []).map(n => n.text)},
          counts: a._medvizRedraw || null};
}
"""


#: Give the live view a message changing only one panel box's words; how many whole redraws (plotly_afterplot) it
#: made, what it reported to the kernel (a model key ``_js2py_*`` set), and whether the words were drawn.
PANEL_WORDS_JS = """
async () => {
  const live = document.getElementById('live');
  const gd = live.classList.contains('js-plotly-plot') ? live : live.querySelector('.js-plotly-plot');
  const i = gd.layout.annotations.findIndex(a => a.xref === 'paper' && a.yref === 'paper' && a.text);
  let plots = 0;
  gd.on('plotly_afterplot', () => plots++);
  const model = window.mapModel, set = model.set, reports = [];
  model.set = (k, v) => { if (k.startsWith('_js2py_') && v) reports.push(k); return set(k, v); };
  set('_py2js_update', {style_data: {}, layout_data: {['annotations[' + i + '].text']: 'Words of the bench'}, style_traces: null});
  set('_py2js_update', null);
  await new Promise(r => setTimeout(r, 500));
  model.set = set;
  const drawn = Array.from(gd.querySelectorAll('g.annotation')).some(g => g.textContent.includes('Words of the bench'));
  return {i, plots, reports, drawn};
}
"""


def _plain(trace: dict[str, Any]) -> dict[str, Any]:
    """A trace's JSON without its uid, the containers a property unset by a step leaves empty, and the mark
    plotly's widget puts on the traces its own update restyles (``_doNotReportToPy``: not a figure property)."""
    out = {}
    for k, v in trace.items():
        if k in ("uid", "_doNotReportToPy"):
            continue
        if isinstance(v, dict):
            v = _plain(v)
            if not v:
                continue
        out[k] = v
    return out


@pytest.fixture(scope="module")
def walk() -> tuple[dict[str, Any], list[tuple[str, list[dict[str, Any]], list[dict[str, Any]], dict[str, Any]]]]:
    """A ReplayViewer of the Vespers war (the golden history) laid out as in a 1280x720 window: its map widget's
    first state, and stops of a walk through it, each with the update messages its map sent and its figure's data."""
    import medviz.rules.medempires.game  # noqa: F401  (registers the whole-game scenarios)
    from plotly.io.json import to_json_plotly

    from medviz.apps import ReplayViewer
    from medviz.rules.medempires.view import history_view

    golden = ROOT / "tests" / "golden" / "vespers-1282-seed-1.json.gz"
    h = History.from_json(gzip.decompress(golden.read_bytes()).decode("utf-8"), golden.name)
    viewer = ReplayViewer(h, view_at=history_view, start=1)
    assert viewer.map is not None
    viewer.map.resize(560, 1100)
    fig = viewer.map.figure
    first = json.loads(to_json_plotly(fig.get_state()))
    sent: list[dict[str, Any]] = []

    def capture(msg: dict[str, Any], buffers: Any = None) -> None:
        state = msg.get("state", {})
        if "_py2js_update" in state:
            assert not buffers, "the map's messages carry no binary buffers"
            sent.append(json.loads(to_json_plotly(state["_py2js_update"])))

    fig._send = capture
    stops: list[tuple[str, list[dict[str, Any]], list[dict[str, Any]], dict[str, Any]]] = []

    def stop(what: str) -> None:
        msgs = list(sent)
        sent.clear()
        layout = fig.to_plotly_json()["layout"]
        words = {"title": layout["title"]["text"], "notes": [note.get("text") for note in layout.get("annotations", [])]}
        stops.append((what, msgs, json.loads(to_json_plotly(fig.to_plotly_json()["data"])), words))

    entries = [value for _label, value in viewer.jump.options][1:]
    for n in (25, 40):  # event by event: badges move, areas change hands, traces empty and fill again
        for _ in range(n):
            viewer.forward.click()
        stop(f"{n} steps to event {viewer.model.cursor}")
    for k in (len(entries) // 2, len(entries) - 1, 3, len(entries) // 3):  # jumps forward and back
        viewer.jump.value = entries[k]
        stop(f"jump to {entries[k]}")
        for _ in range(12):
            viewer.forward.click()
        stop(f"12 steps to event {viewer.model.cursor}")
    for k in (5, len(entries) // 2 + 3):  # jumps straight from one jump to another (the title's words drawn alone)
        viewer.jump.value = entries[k]
        stop(f"jump to {entries[k]}")
    viewer.slider.value = viewer.slider.max  # the slider released at the end, then back
    stop("slider to the end")
    viewer.back.click()
    stop("one step back")
    return first, stops


@pytest.mark.skipif(not os.environ.get("MEDVIZ_SLOW"), reason="about 45 s; CI runs it (MEDVIZ_SLOW=1)")
def test_a_step_draws_what_plotly_draws_from_scratch(browser: Any, walk: Any) -> None:
    from medviz.apps.common import quiet_widget_esm

    first, stops = walk
    esm = quiet_widget_esm(step_redraw=True)
    assert esm is not None and "_medvizRedraw" in esm
    p = OfflinePage(browser, 1280, 720)
    console: list[str] = []
    try:
        page = p.page
        page.on("console", lambda m: console.append(m.text) if m.type == "error" else None)
        files = {f"{ORIGIN}/index.html": ("text/html", HOST_HTML), f"{ORIGIN}/bundle.mjs": ("text/javascript", esm)}
        page.route(f"{ORIGIN}/**", lambda route: route.fulfill(status=200, content_type=files[route.request.url][0],
                                                              body=files[route.request.url][1]))
        page.goto(f"{ORIGIN}/index.html")
        page.wait_for_function("window.ready === true", timeout=60_000)
        page.evaluate("(state) => window.openMap(state)", first)
        total = 0
        for what, msgs, expected, words in stops:
            for msg in msgs:  # as the kernel sends them: the message, then None
                page.evaluate("(m) => { window.mapModel.set('_py2js_update', m); window.mapModel.set('_py2js_update', null); }", msg)
            total += len(msgs)
            out = page.evaluate(COMPARE_JS)
            live, fresh = out["live"], out["fresh"]
            assert len(live["traces"]) == len(fresh["traces"]), (what, len(live["traces"]), len(fresh["traces"]))
            for i, (a, b) in enumerate(zip(live["traces"], fresh["traces"])):
                assert a == b, (what, i, a[:400], b[:400])
            assert live["patterns"] == fresh["patterns"], what
            assert live["notes"] == fresh["notes"], what
            assert live["title"] == fresh["title"], what
            # The figure the browser holds is the kernel's.
            assert [_plain(t) for t in out["data"]] == [_plain(t) for t in expected], what
            assert out["words"] == words, what
        counts = out["counts"]
        assert total > 20 and counts is not None, (total, counts)
        # Nearly every step took the partial path (what is checked above is not plotly's whole redraw).
        assert counts["alone"] >= 0.8 * (counts["alone"] + counts["whole"]), counts
        # A one-line title that replaced a one-line title was drawn alone (no relayout of the whole frame), checked
        # above against a fresh drawing; the game's end has a title of two lines, which relayout draws.
        titles = [first["_widget_layout"]["title"]["text"]] + [words["title"] for *_, words in stops]
        one_line = sum(a != b and "<br>" not in a + b for a, b in zip(titles, titles[1:]))
        assert one_line >= 4 and counts["titles"] >= one_line, (counts, one_line)
        # A step that changes only the panel's words draws that box, not the whole figure (plotly.js's relayout
        # given the widget's "not for the kernel" mark as a layout key drew it all: 99 ms), and reports nothing.
        words = page.evaluate(PANEL_WORDS_JS)
        assert words["i"] >= 0 and words["drawn"], words
        assert words["plots"] == 0 and words["reports"] == [], words
        assert not p.errors and not console and not p.blocked, (p.errors, console, p.blocked)
    finally:
        p.close()
