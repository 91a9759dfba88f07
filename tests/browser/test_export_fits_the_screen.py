"""An exported Vespers replay at a projector's 1280x720 and at 1920x1080: map, controls and this step's
words on one screen, the legend clear of the key's "This step" line, and the map's names and badges
apart as chromium draws them (every text box of the names and badges read from the page)."""

from __future__ import annotations

import gzip
import itertools
from pathlib import Path
from typing import Any

import pytest
from conftest import OfflinePage
from helpers_sample import ROOT

from medviz.engine import History
from medviz.export.annotations import load_annotations
from medviz.export.html import export_html
from test_export_page import wait_until

SIZES = ((1280, 720), (1920, 1080))


@pytest.fixture(scope="module")
def vespers_page(tmp_path_factory: pytest.TempPathFactory) -> Path:
    import medviz.rules.medempires.game  # noqa: F401  (registers the whole-game scenarios)

    golden = ROOT / "tests" / "golden" / "vespers-1282-seed-1.json.gz"
    h = History.from_json(gzip.decompress(golden.read_bytes()).decode("utf-8"), golden.name)
    notes_file = ROOT / "notebooks" / "annotations" / "vespers-1282.toml"
    notes = load_annotations(notes_file, h) if notes_file.exists() else None
    return export_html(h, tmp_path_factory.mktemp("fit") / "vespers.html", notes)


def _boxes(page: Any) -> dict[str, Any]:
    return page.evaluate("""() => {
      const r = (el) => { if (!el) return null; const b = el.getBoundingClientRect();
                          return {left: b.left, top: b.top, right: b.right, bottom: b.bottom}; };
      const key = [...document.querySelectorAll('#plot g.annotation')].find(g => /This step/.test(g.textContent));
      return {legend: r(document.querySelector('#plot .legend')), key: r(key), plot: r(document.getElementById('plot')),
              panel: r(document.getElementById('panel')), controls: r(document.getElementById('controls')),
              panelText: document.getElementById('panel').innerText, scrollY: window.scrollY};
    }""")


def _meets(a: dict[str, float], b: dict[str, float]) -> bool:
    return a["left"] < b["right"] and b["left"] < a["right"] and a["top"] < b["bottom"] and b["top"] < a["bottom"]


@pytest.mark.parametrize("size", SIZES, ids=[f"{w}x{h}" for w, h in SIZES])
def test_map_controls_and_the_steps_words_fit_one_screen(browser: Any, vespers_page: Path, artifacts: Path,
                                                         size: tuple[int, int]) -> None:
    w, h = size
    p = OfflinePage(browser, w, h)
    try:
        page = p.page
        page.goto(vespers_page.as_uri())
        wait_until(page, "!!(window.medviz && window.medviz.ready)", 60)
        # a battle step: the step panel has words to show
        seq = page.evaluate("""() => { const d = window.medviz.data; const o = [...document.querySelectorAll('#log li')]
            .findIndex(li => /battle/i.test(li.textContent)); return o < 0 ? 40 : o; }""")
        page.evaluate(f"window.medviz.show({seq})")
        wait_until(page, f"document.body.dataset.step === '{seq}'", 20)
        page.wait_for_timeout(400)
        b = _boxes(page)
        page.screenshot(path=str(artifacts / f"export-vespers-fit-{w}x{h}.png"))
        assert b["scrollY"] == 0
        assert b["legend"] is not None and b["key"] is not None, b
        assert not _meets(b["legend"], b["key"]), f"the legend runs into the key's 'This step' line: {b}"
        assert b["legend"]["bottom"] <= b["plot"]["bottom"] + 1, f"the legend is cut off under the map: {b}"
        assert b["panel"]["top"] < h and b["panel"]["bottom"] <= h, f"the step's words are below the fold: {b}"
        assert b["plot"]["bottom"] <= h and b["controls"]["bottom"] <= b["plot"]["top"], b
        assert b["panelText"].strip(), "the step panel is empty"
        assert not p.errors and not p.blocked, (p.errors, p.blocked)
    finally:
        p.close()


def test_names_and_badges_do_not_overlap_as_chromium_draws_the_map(browser: Any, artifacts: Path) -> None:
    """The placement's boxes are estimates: chromium's own boxes of every name and badge must not overlap."""
    from medviz.rules.medempires.view import history_view
    from medviz.viz.commands import html_page
    from medviz.viz.state_map import state_map

    import medviz.rules.medempires.game  # noqa: F401

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
