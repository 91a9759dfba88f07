"""An exported Vespers replay at a projector's 1280x720 and at 1920x1080: map, controls, this step's words,
the map's title and side panel and the win-probability strip on one screen without scrolling, the map as
large as the room leaves it, the end's long title inside its column, each note's first paragraph and the
log's line in view; and the map's names and badges apart
and inside the map as chromium draws them, in the exported page at both sizes and in a plain state map
(every text box of the names and badges read from the page)."""

from __future__ import annotations

import contextlib
import gzip
import itertools
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from conftest import OfflinePage
from helpers_sample import ROOT
from test_export_page import wait_until

from medviz.engine import History
from medviz.export.annotations import load_annotations
from medviz.export.html import export_html

SIZES = ((1280, 720), (1920, 1080))
#: Where the names and badges are checked: also a 1024x768 window (an older projector), where the page draws its map
#: smaller still (about 22 px per degree of longitude, 30 at 1280x720).
NAME_SIZES = ((1024, 768), *SIZES)


@pytest.fixture(scope="module")
def vespers_page(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The notebook's war (seed 1490, the historical players) with its notes and win-probability strip."""
    from medviz.analysis.winprob import load_win_probability, pivotal_flags
    from medviz.engine import play
    from medviz.rules.medempires.ruleset import RULESET

    historical = RULESET.policies["historical"]()
    h = play(RULESET, "vespers-1282", {}, seed=1490, players={"A": historical, "B": historical})
    notes = load_annotations(ROOT / "notebooks" / "annotations" / "vespers-1282.toml", h)
    analysis = ROOT / "notebooks" / "analysis"
    chart = load_win_probability(next(analysis.glob("winprob-*.json")), h)
    flags = pivotal_flags(next(analysis.glob("pivotal-*.json")), h)
    return export_html(h, tmp_path_factory.mktemp("fit") / "vespers.html", notes, win_probability=chart, pivotal=flags)


@contextlib.contextmanager
def _opened(browser: Any, path: Path, w: int, h: int, ready: str = "") -> Iterator[OfflinePage]:
    """The page at ``path`` in a ``w`` x ``h`` window, loaded and ready (and ``ready``, a JS condition, true)."""
    p = OfflinePage(browser, w, h)
    try:
        p.page.goto(path.as_uri())
        wait_until(p.page, "!!(window.medviz && window.medviz.ready" + (f" && {ready}" if ready else "") + ")", 60)
        yield p
    finally:
        p.close()


#: Boxes of the page's parts (viewport pixels). The map's drawing is the plot area plotly draws the areas in;
#: the title is the map's title wherever the page draws it (beside the map, or plotly's title in the figure).
BOXES_JS = """() => {
  const r = (el) => { if (!el || el.hidden) return null; const b = el.getBoundingClientRect();
                      return b.width || b.height ? {left: b.left, top: b.top, right: b.right, bottom: b.bottom} : null; };
  const key = [...document.querySelectorAll('#plot g.annotation')].find(g => /This step/.test(g.textContent));
  const title = document.querySelector('#maptitle:not(:empty)') || document.querySelector('#plot .gtitle');
  const holder = title && (title.closest('#side') || document.getElementById('plot'));
  return {legend: r(document.querySelector('#legend .legend') || document.querySelector('#plot .legend')), key: r(key),
          plot: r(document.getElementById('plot')), map: r(document.querySelector('#plot .bglayer .bg')),
          strip: r(document.getElementById('winprob')), side: r(document.getElementById('side')),
          panel: r(document.getElementById('panel')), controls: r(document.getElementById('controls')),
          boxes: [...document.querySelectorAll('#mapside .box')].map(r),
          title: r(title), holder: r(holder), titleText: title ? title.textContent : '',
          panelText: document.getElementById('panel').innerText, scrollY: window.scrollY,
          scrollH: document.documentElement.scrollHeight, scrollW: document.documentElement.scrollWidth};
}"""


def _boxes(page: Any) -> dict[str, Any]:
    return page.evaluate(BOXES_JS)  # type: ignore[no-any-return]


def _meets(a: dict[str, float], b: dict[str, float]) -> bool:
    return a["left"] < b["right"] and b["left"] < a["right"] and a["top"] < b["bottom"] and b["top"] < a["bottom"]


def _inside(a: dict[str, float], b: dict[str, float]) -> bool:
    return a["left"] >= b["left"] - 1 and a["right"] <= b["right"] + 1 and a["top"] >= b["top"] - 1 and a["bottom"] <= b["bottom"] + 1


@pytest.mark.parametrize("size", SIZES, ids=[f"{w}x{h}" for w, h in SIZES])
def test_map_controls_words_and_strip_fit_one_screen(browser: Any, vespers_page: Path, artifacts: Path,
                                                     size: tuple[int, int]) -> None:
    w, h = size
    screen = {"left": 0, "top": 0, "right": w, "bottom": h}
    with _opened(browser, vespers_page, w, h, ready="window.medviz.strip") as p:
        page = p.page
        # a battle step: the step panel has words to show
        seq = page.evaluate("""() => [...document.querySelectorAll('#log li')].findIndex(li => /battle/i.test(li.textContent))""")
        assert seq > 0
        page.evaluate(f"window.medviz.show({seq})")
        wait_until(page, f"document.body.dataset.step === '{seq}'", 20)
        page.wait_for_timeout(400)
        b = _boxes(page)
        page.screenshot(path=str(artifacts / f"export-vespers-fit-{w}x{h}.png"))
        assert b["scrollY"] == 0 and b["scrollH"] <= h and b["scrollW"] <= w, f"the page scrolls: {b}"
        for part in ("controls", "plot", "map", "strip", "side", "panel", "legend", "title"):
            assert b[part] is not None and _inside(b[part], screen), f"{part} is not (all) on the screen: {b}"
        assert b["panelText"].strip(), "the step panel is empty"
        assert b["controls"]["bottom"] <= b["plot"]["top"] and b["plot"]["bottom"] <= b["strip"]["top"] + 1, b
        assert b["key"] is not None and not _meets(b["legend"], b["key"]), f"the legend runs into the key: {b}"
        assert b["boxes"] and all(x is not None and _inside(x, screen) for x in b["boxes"]), b
        # The map as large as the room leaves it: at least 58% of the screen's width (a 1280 px screen drew
        # it 710 px wide beside its own legend and player boxes), and the map's drawing fills the figure's
        # height or its width.
        m, plot = b["map"], b["plot"]
        assert m["right"] - m["left"] >= 0.58 * w, f"the map is {m['right'] - m['left']:.0f} px wide: {b}"
        assert (plot["bottom"] - plot["top"]) - (m["bottom"] - m["top"]) <= 0.1 * h + 12 or \
            (plot["right"] - plot["left"]) - (m["right"] - m["left"]) <= 16, f"blank bands around the map: {b}"
        assert not p.errors and not p.blocked, (p.errors, p.blocked)


@pytest.mark.parametrize("size", SIZES, ids=[f"{w}x{h}" for w, h in SIZES])
def test_the_end_title_stays_inside_its_column(browser: Any, vespers_page: Path, artifacts: Path,
                                              size: tuple[int, int]) -> None:
    """The end's title ("Game over. Player A (France and Anjou) wins: … took …") is long: it must wrap where
    it is drawn, never run past the figure or the screen."""
    w, h = size
    with _opened(browser, vespers_page, w, h) as p:
        page = p.page
        page.keyboard.press("End")
        wait_until(page, "document.body.dataset.step === String(window.medviz.data.log.length - 1)", 20)
        page.wait_for_timeout(400)
        b = _boxes(page)
        page.screenshot(path=str(artifacts / f"export-vespers-end-title-{w}x{h}.png"))
        assert b["titleText"].startswith("Game over. Player "), b["titleText"]
        assert b["title"] is not None and b["holder"] is not None
        assert _inside(b["title"], b["holder"]), f"the title runs off: {b['title']} in {b['holder']}"
        assert b["title"]["right"] <= w and b["title"]["bottom"] <= h, b


#: Every drawn name's and badge's text box (viewport pixels; a badge with its 3 px outline), the map's drawn
#: edges, plotly's pixels per unit of longitude and the scale the figure's names were placed for (meta.frame).
PAGE_TEXTS_JS = """() => {
  const gd = document.getElementById('plot'), fl = gd._fullLayout, out = [];
  gd.querySelectorAll('.scatterlayer .trace').forEach((t) => {
    const d = t.__data__ && t.__data__[0] && t.__data__[0].trace; if (!d || d.visible === false) return;
    const badge = (d.name || '').startsWith('units-'), label = (d.name || '').startsWith('labels:');
    if (!badge && !label) return;
    const pad = badge ? 3 : 0;
    t.querySelectorAll('.textpoint text').forEach((tx) => {
      if (!tx.textContent) return;
      const r = tx.getBoundingClientRect();
      out.push([d.name + ' ' + tx.textContent, r.left - pad, r.top - pad, r.right + pad, r.bottom + pad]);
    });
  });
  const m = gd.querySelector('.bglayer .bg').getBoundingClientRect();
  return {boxes: out, map: [m.left, m.top, m.right, m.bottom], scale: fl.xaxis._m, placed: fl.meta.frame[4]};
}"""
#: Pixels two drawn boxes may share, or a box may run past the map's edge (chromium's sub-pixel text boxes).
OVERLAP_TOLERANCE = 1.0


@pytest.mark.parametrize("size", NAME_SIZES, ids=[f"{w}x{h}" for w, h in NAME_SIZES])
def test_the_pages_names_and_badges_never_overlap_nor_leave_the_map(browser: Any, vespers_page: Path, artifacts: Path,
                                                                    size: tuple[int, int]) -> None:
    """The page draws its map smaller at 1280x720 (beside the side column, over the strip) than the figure it was
    made from, and smaller still at 1024x768, and text keeps its pixel size: the names and badges must be placed
    for the smallest map the page draws. At a few moments of the war, no two drawn boxes of names and badges meet (by more than 1 px) and none
    is cut by the map's edge."""
    w, h = size
    problems: list[str] = []
    with _opened(browser, vespers_page, w, h) as p:
        page = p.page
        n = page.evaluate("window.medviz.data.log.length")
        battle = page.evaluate("""() => [...document.querySelectorAll('#log li')].findIndex(li => /battle/i.test(li.textContent))""")
        seen = 0
        for seq in sorted({0, battle, n // 4, n // 2, 3 * n // 4, n - 1}):
            page.evaluate(f"window.medviz.show({seq})")
            wait_until(page, f"document.body.dataset.step === '{seq}' && !window.medviz.drawing()", 20)
            page.wait_for_timeout(200)
            d = page.evaluate(PAGE_TEXTS_JS)
            if seq == n // 2:
                page.screenshot(path=str(artifacts / f"export-vespers-names-{w}x{h}.png"))
            # the page draws the map at least as large as its names were placed for
            if d["scale"] < d["placed"] - 1e-6:
                problems.append(f"event {seq}: the map drawn at {d['scale']:.2f} px per degree, its names placed for {d['placed']:.2f}")
            boxes, (ml, mt, mr, mb) = d["boxes"], d["map"]
            seen += len(boxes)
            t = OVERLAP_TOLERANCE
            problems += [f"event {seq}: {a[0]!r} meets {b[0]!r}" for a, b in itertools.combinations(boxes, 2)
                         if a[1] < b[3] - t and b[1] < a[3] - t and a[2] < b[4] - t and b[2] < a[4] - t]
            problems += [f"event {seq}: {a[0]!r} cut by the map's edge ({a[1:]} in {d['map']})" for a in boxes
                         if a[1] < ml - t or a[2] < mt - t or a[3] > mr + t or a[4] > mb + t]
        assert seen > 400, f"only {seen} names and badges found on the page"
        assert not p.errors and not p.blocked, (p.errors, p.blocked)
    assert not problems, f"{len(problems)} problem(s) at {w}x{h}:\n" + "\n".join(problems[:30])


def test_names_and_badges_do_not_overlap_as_chromium_draws_the_map(browser: Any, artifacts: Path) -> None:
    """The placement's boxes are estimates: chromium's own boxes of every name and badge must not overlap."""
    import medviz.rules.medempires.game  # noqa: F401
    from medviz.rules.medempires.view import history_view
    from medviz.viz.commands import html_page
    from medviz.viz.state_map import state_map

    golden = ROOT / "tests" / "golden" / "vespers-1282-seed-1.json.gz"
    h = History.from_json(gzip.decompress(golden.read_bytes()).decode("utf-8"), golden.name)
    p = OfflinePage(browser, 1600, 1000)
    try:
        for seq in (len(h.events) // 3, len(h.events) - 1):
            fig = state_map(history_view(h, seq))
            path = artifacts / f"state-map-placed-{seq}.html"
            path.write_text(html_page(fig, config={"staticPlot": True}), encoding="utf-8")
            p.page.goto(path.as_uri())
            wait_until(p.page, "!!document.querySelector('.plotly-graph-div .scatterlayer')", 30)
            boxes = p.page.evaluate("""() => {
              const out = [];
              document.querySelectorAll('.plotly-graph-div .scatterlayer .trace').forEach((t) => {
                const d = t.__data__ && t.__data__[0] && t.__data__[0].trace; if (!d) return;
                const badge = (d.name || '').startsWith('units-'), label = (d.name || '').startsWith('labels:');
                if (!badge && !label) return;
                const pad = badge ? 3 : 0;  // a badge's 3 px outline
                t.querySelectorAll('.textpoint text').forEach((tx) => {
                  if (!tx.textContent) return;
                  const r = tx.getBoundingClientRect();
                  out.push([d.name + ' ' + tx.textContent, r.left - pad, r.top - pad, r.right + pad, r.bottom + pad]);
                });
              });
              return out;
            }""")
            assert len(boxes) > 80
            clashes = [(a[0], b[0]) for a, b in itertools.combinations(boxes, 2)
                       if a[1] < b[3] and b[1] < a[3] and a[2] < b[4] and b[2] < a[4]]
            assert clashes == [], (seq, clashes)
    finally:
        p.close()


#: At each annotated moment: the first note's title, date line and first paragraph as drawn, the part of the
#: notes' column not scrolled away, and the log's current line and the log's visible part (viewport pixels).
NOTE_JS = """() => {
  const r = (el) => { if (!el) return null; const b = el.getBoundingClientRect();
                      return {left: b.left, top: b.top, right: b.right, bottom: b.bottom}; };
  const notes = document.getElementById('notes'), note = notes.querySelector('.note');
  return {notes: r(notes), title: r(note && note.querySelector('h3')), meta: r(note && note.querySelector('.meta')),
          first: r(note && note.querySelector('.body p')), text: note ? note.querySelector('h3').textContent : '',
          log: r(document.getElementById('log')), current: r(document.querySelector('#log li.current'))};
}"""


@pytest.mark.parametrize("size", SIZES, ids=[f"{w}x{h}" for w, h in SIZES])
def test_each_notes_first_paragraph_and_the_logs_line_show_without_scrolling(browser: Any, vespers_page: Path,
                                                                            artifacts: Path, size: tuple[int, int]) -> None:
    """A teacher at a projector reads the note's whole first paragraph and the step's log line at once: neither
    is cut by its column's edge or pushed under the screen's (the notes and the log scroll in themselves)."""
    w, h = size
    screen = {"left": 0, "top": 0, "right": w, "bottom": h}
    with _opened(browser, vespers_page, w, h) as p:
        page = p.page
        starts = page.evaluate("""() => [...document.querySelectorAll('#jump option')]
            .filter(o => o.textContent.startsWith('★')).map(o => Number(o.value))""")
        assert len(starts) >= 5, starts
        problems = []
        for seq in starts:
            page.evaluate(f"window.medviz.show({seq})")
            wait_until(page, f"document.body.dataset.step === '{seq}'", 20)
            page.wait_for_timeout(150)
            b = page.evaluate(NOTE_JS)
            for part in ("title", "meta", "first"):
                if b[part] is None or not (_inside(b[part], b["notes"]) and _inside(b[part], screen)):
                    problems.append(f"event {seq} ({b['text']!r}): the note's {part} is cut: {b}")
            if b["current"] is None or not (_inside(b["current"], b["log"]) and _inside(b["current"], screen)):
                problems.append(f"event {seq}: the log's current line is not in view: {b}")
        page.screenshot(path=str(artifacts / f"export-vespers-note-{w}x{h}.png"))
        assert not problems, "\n".join(problems)
