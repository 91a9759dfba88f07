"""The apps laid out for the width they really have, in JupyterLab with its side bar open (issue 15).

One small notebook (made here, run in chromium): the Vespers what-if side by side (``BranchCompare``),
the Vespers ``ReplayViewer`` on a step with a long note, and the Empire's Revolt ``DiceLab``. What the
page shows is read from the drawn SVG: every panel box's words inside its box, the panel and legend
inside the figure, a title clear of the map under it, the map laid out for the width it is drawn at;
the note's lines inside their box; one redraw per map for one click. Screenshots go to test-artifacts/.

It starts a JupyterLab of its own (about 50 s in all), so it runs in CI's long run (``MEDVIZ_SLOW=1``),
which keeps ``make test`` under 5 minutes; ``MEDVIZ_SLOW=1 pytest tests/browser/test_narrow_screens.py``
runs it alone.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest
from helpers_sample import ROOT, open_and_run_all, scratch_notebook, wait_for
from screen_fit import page_errors, scroll_to_top

def _notebook_cell(name: str, marker: str) -> str:
    """The source of a committed notebook's first code cell that contains ``marker``."""
    cells = json.loads((ROOT / "notebooks" / f"{name}.ipynb").read_text(encoding="utf-8"))["cells"]
    return next("".join(c["source"]) for c in cells if c["cell_type"] == "code" and marker in "".join(c["source"]))


CELLS = [
    """from medviz.engine import play
from medviz.rules.medempires.ruleset import RULESET
from medviz.rules.medempires.view import history_view
from medviz.export.annotations import load_annotations
from medviz.apps import BranchCompare, DiceLab, ReplayViewer

historical = RULESET.policies["historical"]()
history = play(RULESET, "vespers-1282", {}, seed=1490, players={"A": historical, "B": historical})
notes = load_annotations("annotations/vespers-1282.toml", history)
what_if = None
for roll in [r for r in history.rolls() if "/round-" in getattr(r, "roll", "")][::-1]:
    faces = [int(f) for f, r in roll.effects.items() if r != roll.effects[str(roll.value)]]
    if faces and (b := history.branch(roll.roll, faces[0])).outcome["control"] != history.outcome["control"]:
        what_if = b
        break
print(what_if.override)""",
    "BranchCompare(what_if, view_at=history_view)",
    "ReplayViewer(history, view_at=history_view, annotations=notes, start=793)  # a step with a long note",
    """from medviz.engine.policy import RandomPolicy
from medviz.rules.empires_revolt.players import HeuristicPolicy
from medviz.rules.empires_revolt.ruleset import RULESET as ER

game = play(ER, "conquest-3", {}, seed=4, players={"A": HeuristicPolicy(), "B": RandomPolicy(41), "C": HeuristicPolicy()})
DiceLab(game)""",
    # tutorial-empires-revolt.ipynb's own cell: the map half-way through this game
    "from medviz.viz import state_map\nRULESET = ER\n" + _notebook_cell("tutorial-empires-revolt", "state_map(view"),
]

#: How a state map sits in its graph div: its drawn width and the width it was laid out for (meta.width),
#: the title's bottom and the plot area's top, the right edge of the figure, of each panel box, of its
#: legend and of each box's words (page pixels, the browser's scale undone: svg units).
MAP_JS = """
(gd) => {
  const svg = gd.querySelector('svg.main-svg');
  if (!svg || !gd._fullLayout) return null;
  const s = svg.getBoundingClientRect(), k = s.width / Number(svg.getAttribute('width'));
  const px = (v) => v / k;
  const boxes = Array.from(gd.querySelectorAll('.annotation')).map(a => {
    const bg = a.querySelector('rect.bg'), t = a.querySelector('.annotation-text');
    const bb = bg && bg.getBoundingClientRect(), tb = t && t.getBoundingClientRect();
    return {name: a.getAttribute('data-index'), right: px((bb || tb).right - s.left),
            textRight: tb ? px(tb.right - s.left) : 0, boxRight: bb && bb.width > 2 ? px(bb.right - s.left) : null,
            text: t ? t.textContent.slice(0, 40) : ''};
  });
  const legend = gd.querySelector('.legend rect.bg');
  const title = gd.querySelector('.g-gtitle text');
  return {width: Number(svg.getAttribute('width')), planned: (gd.layout.meta || {}).width || null,
          legendRight: legend ? px(legend.getBoundingClientRect().right - s.left) : 0,
          titleBottom: title ? px(title.getBoundingClientRect().bottom - s.top) : 0,
          titleText: title ? title.textContent : '', plotTop: gd._fullLayout._size.t,
          boxes, visible: s.width > 0,
          narrower: (() => { const c = gd.closest('.medviz-compare-column, .medviz-app'); if (!c) return 0;
                             const cs = getComputedStyle(c);
                             return c.clientWidth - parseFloat(cs.paddingLeft) - parseFloat(cs.paddingRight) - s.width; })(),
          overflow: s.right - (gd.closest('.medviz-app') || gd.closest('.jp-OutputArea-output') || gd).getBoundingClientRect().right};
}
"""


def map_problems(gd: Any, what: str) -> list[str]:
    """What of a drawn state map runs off its figure, is cut, touches the map, or was laid out for another width."""
    m = gd.evaluate(MAP_JS)
    if m is None:
        return [f"{what}: not drawn"]
    out = []
    # (both also: the app has not yet been laid out again for a new window size)
    if m["overflow"] > 1:
        out.append(f"{what}: the figure runs {m['overflow']:.0f} px past the app's right edge")
    if m["narrower"] > 3:
        out.append(f"{what}: the figure is {m['narrower']:.0f} px narrower than its place in the app")
    for b in m["boxes"]:
        if b["right"] > m["width"] + 1:
            out.append(f"{what}: panel part {b['text']!r} ends at {b['right']:.0f} px, the figure at {m['width']}")
        if b["boxRight"] is not None and b["textRight"] > b["boxRight"] + 1:
            out.append(f"{what}: the words {b['text']!r} end at {b['textRight']:.0f} px, outside their box "
                       f"(ends at {b['boxRight']:.0f})")
    if m["legendRight"] > m["width"] + 5:
        out.append(f"{what}: the legend ends at {m['legendRight']:.0f} px, the figure at {m['width']}")
    if m["titleBottom"] > m["plotTop"] - 2:
        out.append(f"{what}: the title {m['titleText'][:50]!r} reaches {m['titleBottom']:.0f} px, the map starts at "
                   f"{m['plotTop']:.0f}")
    if m["planned"] is None or abs(m["planned"] - m["width"]) > 40:
        out.append(f"{what}: laid out for {m['planned']} px, drawn {m['width']} px wide")
    return out


def fitted(gds: list[Any], what: str, timeout: float = 20) -> list[str]:
    """Wait (each map is laid out again for the width the browser measured) until the maps fit: what does not."""
    seen: list[list[str]] = []

    def ok() -> bool:
        seen.append([p for i, gd in enumerate(gds) for p in map_problems(gd, f"{what}, map {i + 1}")])
        return not seen[-1]

    try:
        wait_for(f"{what} to fit", ok, timeout=timeout, every=0.5)
    except pytest.fail.Exception:
        return seen[-1]
    return []


#: The map's scale (pixels per unit across and down) as plotly.js draws it and as the kernel placed its names for.
FRAME_JS = """
(gd) => { const fl = gd._fullLayout, f = (gd.layout.meta || {}).frame;
          return f ? {planned: [f[4], f[5]], drawn: [fl.xaxis._m, -fl.yaxis._m], height: fl.height,
                      width: fl.width, planned_width: gd.layout.meta.width, domain: fl.yaxis.domain} : null; }
"""

#: Pixels of the figure under the map's key (the lowest words under the map), svg units.
BAND_JS = """
(gd) => {
  const svg = gd.querySelector('svg.main-svg'), s = svg.getBoundingClientRect(), k = s.width / Number(svg.getAttribute('width'));
  const key = Array.from(gd.querySelectorAll('.annotation')).map(a => a.getBoundingClientRect())
    .filter(r => r.left - s.left < 0.2 * s.width);  // the key, at the left under the map (the panel is at the right)
  return key.length ? (s.bottom - Math.max(...key.map(r => r.bottom))) / k : s.height / k;
}
"""

#: The step's note: the box it shows in, and the lines of its first paragraph (page pixels).
NOTE_JS = """
(box) => {
  const p = box.querySelector('.medviz-note p'); if (!p) return null;
  const r = document.createRange(); r.selectNodeContents(p);
  const rects = Array.from(r.getClientRects()).filter(c => c.width > 0);
  const b = box.getBoundingClientRect();
  return {right: b.right, bottom: b.bottom, words: Math.max(...rects.map(c => c.right)),
          last: Math.max(...rects.map(c => c.bottom)), lines: new Set(rects.map(c => Math.round(c.top))).size,
          scroll: box.scrollWidth - box.clientWidth};
}
"""

#: Records the kernel's updates each map under ``root`` receives from now on (plotly.js's update, restyle and
#: relayout events; plotly.js's own refit to the window, a relayout of ``autosize`` alone, is not one).
COUNT_JS = """
(root) => {
  window.__medvizRedraws = [];
  Array.from(root.querySelectorAll('.js-plotly-plot')).forEach((gd, i) => {
    window.__medvizRedraws[i] = [];
    for (const ev of ['plotly_update', 'plotly_restyle', 'plotly_relayout'])
      gd.on(ev, (d) => { const said = JSON.stringify(d);
                         if (said !== '{"autosize":true}') window.__medvizRedraws[i].push(ev + ' ' + said.slice(0, 300)); });
  });
}
"""


@pytest.fixture(scope="module")
def notebook(artifacts: Path) -> Path:
    return scratch_notebook(artifacts / "lab-narrow", "narrow.ipynb", CELLS)


@pytest.mark.slow
@pytest.mark.skipif(not os.environ.get("MEDVIZ_SLOW"), reason="the apps at narrow widths run in CI's long run (MEDVIZ_SLOW=1)")
def test_apps_fit_the_width_they_have(lab: dict[str, Any], offline_page: Any, artifacts: Path,
                                      notebook: Path) -> None:
    page = offline_page.page
    page.set_viewport_size({"width": 1280, "height": 720})
    open_and_run_all(page, lab, notebook)
    cells = page.locator(".jp-CodeCell")
    errors = page.locator(".jp-OutputArea-output[data-mime-type='application/vnd.jupyter.stderr']")
    drawn = "(c) => Array.from(c.querySelectorAll('.js-plotly-plot')).filter(g => (g.data || []).length).length"
    wait_for("the notebook's maps to be drawn (or an error)",
             lambda: errors.count() or (cells.nth(1).evaluate(drawn) == 2 and cells.nth(2).evaluate(drawn) == 1
                                        and cells.nth(3).evaluate(drawn) == 1 and cells.nth(4).evaluate(drawn) == 1),
             timeout=180)
    assert errors.count() == 0, (errors.first.text_content() or "")[:2000]
    page.locator(".jp-StatusBar-TextItem", has_text="| Idle").first.wait_for(timeout=60_000)
    page.add_style_tag(content=".Toastify__toast-container { display: none !important; }")
    assert page.locator("#filebrowser").is_visible(), "the test means JupyterLab with its side bar open"

    # Every point is checked and what fails is said at the end (each is its own defect of issue 15).
    problems: list[str] = []

    # -- 1. BranchCompare: both maps whole and readable at a projector's 1280x720 and at 1920x1080 ------
    compare = cells.nth(1).locator(".medviz-compare").first
    gds = [compare.locator(".js-plotly-plot").nth(i) for i in range(2)]
    for w, h in ((1280, 720), (1920, 1080)):
        page.set_viewport_size({"width": w, "height": h})
        compare.scroll_into_view_if_needed()
        problems += fitted(gds, f"BranchCompare at {w}x{h}")
        marked = [gd.evaluate("g => (g.data.find(t => t.name === 'marked-areas') || {}).meta") for gd in gds]
        assert all(m and m["marked"] for m in marked), marked
        widths = [gd.evaluate("g => g.getBoundingClientRect().width") for gd in gds]
        assert min(widths) > 300, f"a map of the two is not shown whole: {widths}"
        compare.evaluate("e => e.scrollIntoView({block: 'start'})")
        page.screenshot(path=str(artifacts / f"jupyterlab-compare-{w}x{h}.png"))

    # -- 2. One click, one redraw of each map (the new moment and its outlines in one message) ----------
    compare.evaluate(COUNT_JS)
    title = "g => g.layout.title.text || ''"
    before = [gd.evaluate(title) for gd in gds]
    compare.get_by_role("button", name="at the end", exact=True).click()
    wait_for("both maps to reach the end", lambda: all(gd.evaluate(title) != t for gd, t in zip(gds, before)))
    page.wait_for_timeout(1500)  # anything else the click sends arrives well within this
    redraws = page.evaluate("() => window.__medvizRedraws")
    if [len(r) for r in redraws] != [1, 1]:
        problems.append(f"one click, {[len(r) for r in redraws]} updates of the two maps: {redraws}")
    problems += fitted(gds, "BranchCompare at the end, 1920x1080", 5)  # a longer title (the winner): two lines
    page.screenshot(path=str(artifacts / "jupyterlab-compare-end-1920x1080.png"))
    page.set_viewport_size({"width": 1280, "height": 720})
    problems += fitted(gds, "BranchCompare at the end, 1280x720")
    compare.evaluate("e => e.scrollIntoView({block: 'start'})")
    page.screenshot(path=str(artifacts / "jupyterlab-compare-end-1280x720.png"))

    # -- 3. The viewer: its map laid out for its width; the step's long note wraps inside its box -------
    viewer = cells.nth(2).locator(".medviz-app").first
    notes = viewer.locator(".medviz-now-notes").first
    for w, h in ((1280, 720), (1920, 1080)):
        page.set_viewport_size({"width": w, "height": h})
        viewer.evaluate("e => e.scrollIntoView({block: 'start'})")
        problems += fitted([viewer.locator(".js-plotly-plot").first], f"the ReplayViewer at {w}x{h}")
        note = notes.evaluate(NOTE_JS)
        # its first paragraph (a few lines) whole on the screen: wrapped inside the box, not cut at its foot
        assert note, "no note with a paragraph at this step"
        if note["words"] > note["right"] + 1 or note["scroll"] > 1 or note["last"] > note["bottom"] + 1:
            problems.append(f"the note's first paragraph is cut at {w}x{h}: {note}")
        assert note["lines"] >= 2, note  # the long line wrapped
        page.screenshot(path=str(artifacts / f"jupyterlab-viewer-note-{w}x{h}.png"))

    # -- 3b. A window only less tall (MapPane.resize with a height alone): the map drawn at the scale its names
    # were placed for (the frame the kernel planned, layout.meta.frame), not in a stale domain -------------
    gd = viewer.locator(".js-plotly-plot").first
    tall = gd.evaluate("g => g._fullLayout.height")
    page.set_viewport_size({"width": 1920, "height": 860})
    viewer.evaluate("e => e.scrollIntoView({block: 'start'})")
    try:
        wait_for("the viewer's map to be laid out for a lower window",
                 lambda: gd.evaluate("g => g._fullLayout.height") < tall - 20, timeout=20, every=0.5)
    except pytest.fail.Exception:
        problems.append(f"the viewer's map kept its height {tall} px in a window 860 px tall")
    page.wait_for_timeout(1000)
    f = gd.evaluate(FRAME_JS)
    if f is None or any(abs(d - p) > 0.01 * p for d, p in zip(f["drawn"], f["planned"])):
        problems.append(f"the viewer's map after a height-only resize is drawn at another scale than it was placed for: {f}")

    # -- 4. Empire's Revolt's DiceLab: its wide map only as tall as it needs, at a projector and at full HD (a
    # blank band of 150-200 px under its key before); then at 1600x1000 panel and legend inside ------------------
    dicelab = cells.nth(3).locator(".medviz-app").first
    lab_map = dicelab.locator(".js-plotly-plot").first
    for w, h in ((1280, 720), (1920, 1080)):
        page.set_viewport_size({"width": w, "height": h})
        dicelab.evaluate("e => e.scrollIntoView({block: 'start'})")
        problems += fitted([lab_map], f"Empire's Revolt's DiceLab at {w}x{h}")
        bands: list[float] = []
        try:  # the map is laid out again for the room and width measured: wait for its band to go
            wait_for(f"the DiceLab's map at {w}x{h} to leave no band under its key",
                     lambda: bands.append(lab_map.evaluate(BAND_JS)) or bands[-1] <= 24, timeout=20, every=0.5)
        except pytest.fail.Exception:
            problems.append(f"Empire's Revolt's DiceLab at {w}x{h}: a blank band {bands[-1]:.0f} px tall under its key")
        print(f"Empire's Revolt's DiceLab at {w}x{h}: {bands[-1]:.0f} px under its key")  # (pytest -s shows it)
        scroll_to_top(dicelab)
        page.wait_for_timeout(300)
        page.screenshot(path=str(artifacts / f"jupyterlab-empires-revolt-dicelab-{w}x{h}.png"))
    page.set_viewport_size({"width": 1600, "height": 1000})
    dicelab.evaluate("e => e.scrollIntoView({block: 'start'})")
    problems += fitted([dicelab.locator(".js-plotly-plot").first], "Empire's Revolt's DiceLab at 1600x1000")
    dicelab.locator(".js-plotly-plot").first.evaluate("e => e.scrollIntoView({block: 'start'})")
    page.screenshot(path=str(artifacts / "jupyterlab-empires-revolt-dicelab-1600x1000.png"))
    fixed = cells.nth(4).locator(".js-plotly-plot").first  # 1,100 px wide as the notebook draws it
    problems += [p for p in map_problems(fixed, "Empire's Revolt's map 1,100 px wide") if "laid out for" not in p]
    fixed.hover()  # plotly shows its mode bar on hover: none must come (it sat over the title's end)
    if fixed.evaluate("g => g.querySelectorAll('.modebar-btn').length"):
        problems.append("Empire's Revolt's map: a plotly mode bar over its title")
    band = fixed.evaluate(BAND_JS)
    if band > 24:
        problems.append(f"Empire's Revolt's map: a blank band {band:.0f} px tall under its key")
    fixed.evaluate("e => e.scrollIntoView({block: 'start'})")
    page.screenshot(path=str(artifacts / "jupyterlab-empires-revolt-map-1600x1000.png"))
    assert not problems, "\n".join(problems)
    assert not page_errors(offline_page.errors), offline_page.errors[:3]  # (anywidget's slow load: see there)
