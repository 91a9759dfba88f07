"""The win-probability strip of an exported Vespers page in a real browser: drawn offline under the
map, its current-event line moving as the reader steps, a pivotal roll's flag stepping to that roll."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from test_export_page import open_page, wait_until

from medviz.analysis.winprob import load_win_probability, pivotal_flags
from medviz.engine import play
from medviz.export.html import export_html
from medviz.rules.medempires.ruleset import RULESET

ROOT = Path(__file__).resolve().parents[2]
ANALYSIS = ROOT / "notebooks" / "analysis"


@pytest.fixture(scope="module")
def page_path(tmp_path_factory: pytest.TempPathFactory) -> Path:
    historical = RULESET.policies["historical"]()
    history = play(RULESET, "vespers-1282", {}, seed=1490, players={"A": historical, "B": historical})
    chart = load_win_probability(next(ANALYSIS.glob("winprob-*.json")), history)
    flags = pivotal_flags(next(ANALYSIS.glob("pivotal-*.json")), history)
    out = tmp_path_factory.mktemp("pages") / "vespers-winprob.html"
    return export_html(history, out, win_probability=chart, pivotal=flags)


CURRENT = "document.getElementById('winprob').layout.shapes[0].x0"


def test_the_strip_follows_the_replay(offline_page: Any, page_path: Path, artifacts: Path) -> None:
    page = open_page(offline_page, page_path)
    wait_until(page, "!!window.medviz.strip", 30)
    # The chart as drawn: one line per outcome plus its band, and the flags.
    names = page.evaluate("document.getElementById('winprob').data.map(t => t.name)")
    assert "pivotal rolls" in names and len(names) >= 5
    strip_top = page.evaluate("document.getElementById('winprob').getBoundingClientRect().top")
    plot_bottom = page.evaluate("document.getElementById('plot').getBoundingClientRect().bottom")
    assert strip_top >= plot_bottom - 1  # under the map
    assert page.evaluate(CURRENT) == 1
    page.click("#next")
    page.click("#next")
    wait_until(page, "document.body.dataset.step === '2'", 10)
    wait_until(page, f"{CURRENT} === 3", 10)  # moved once the map's step is drawn
    page.evaluate("window.medviz.show(700)")
    wait_until(page, f"{CURRENT} === 701", 10)
    # The line is drawn where the axis puts event 701 (not only stored in the layout).
    line_x = page.evaluate("""() => { const r = document.querySelector('#winprob .shapelayer path')
                                                  .getBoundingClientRect(); return r.left + r.width / 2; }""")
    expect = page.evaluate("""() => { const gd = document.getElementById('winprob'), xa = gd._fullLayout.xaxis;
                                      return gd.getBoundingClientRect().left + xa._offset + xa.l2p(701); }""")
    assert abs(line_x - expect) < 2
    page.screenshot(path=str(artifacts / "export-winprob-strip.png"), full_page=True)
    # A click on the first flag steps the replay to that roll.
    seq = page.evaluate("window.medviz.data.winprob.flags[0].seq")
    xy = page.evaluate("""() => { const gd = document.getElementById('winprob'), fl = gd._fullLayout,
                                        t = gd.data.find(d => d.name === 'pivotal rolls'), r = gd.getBoundingClientRect();
                                  return [r.left + fl.xaxis._offset + fl.xaxis.l2p(t.x[0]),
                                          r.top + fl.yaxis._offset + fl.yaxis.l2p(t.y[0])]; }""")
    page.mouse.click(xy[0], xy[1])
    wait_until(page, f"document.body.dataset.step === '{seq}'", 10)
    wait_until(page, f"{CURRENT} === {seq + 1}", 10)


STRIP_BOXES = """() => {
  const r = (e) => { const b = e.getBoundingClientRect(); return {left: b.left, top: b.top, right: b.right, bottom: b.bottom}; };
  const st = document.getElementById('winprob');
  return {strip: r(st), plot: r(document.getElementById('plot')), title: r(st.querySelector('.gtitle')),
          legend: r(st.querySelector('.legend')), axes: r(st.querySelector('.bglayer .bg') || st.querySelector('.nsewdrag')),
          scrollH: document.documentElement.scrollHeight};
}"""


@pytest.mark.parametrize("size", [(1280, 720), (1920, 1080)], ids=["1280x720", "1920x1080"])
def test_the_strip_is_on_the_first_screen(offline_page: Any, page_path: Path, artifacts: Path,
                                          size: tuple[int, int]) -> None:
    """Under the map, compact, whole on a projector's screen: its title, its legend and its chart apart."""
    w, h = size
    offline_page.page.set_viewport_size({"width": w, "height": h})
    page = open_page(offline_page, page_path)
    wait_until(page, "!!window.medviz.strip", 30)
    page.wait_for_timeout(300)
    b = page.evaluate(STRIP_BOXES)
    page.screenshot(path=str(artifacts / f"export-winprob-strip-{w}x{h}.png"))
    assert b["scrollH"] <= h and b["strip"]["bottom"] <= h, f"the strip is below the fold: {b}"
    assert b["strip"]["top"] >= b["plot"]["bottom"] - 1, b
    t, leg, ax = b["title"], b["legend"], b["axes"]
    assert t["right"] <= leg["left"] or leg["bottom"] <= t["top"] or t["bottom"] <= leg["top"], f"title and legend meet: {b}"
    assert ax["bottom"] - ax["top"] >= 40, f"the chart is {ax['bottom'] - ax['top']:.0f} px tall: {b}"
