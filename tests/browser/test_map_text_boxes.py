"""The placement's text boxes are where chromium draws the texts (issue 15).

The placement (``medviz.viz.placement``) keeps names, badges and marks apart and inside the map by
arithmetic on estimated boxes. Here a state map laid out for 1280x720 and for 1920x1080 is drawn by
plotly.js in chromium (a plain HTML page, no JupyterLab) at that size, and every name's and badge's
box as the placement computed it (``state_map.placed_text_boxes``), and every mark's text box
(``placement.point_text_box`` at its drawn point), is compared with the box chromium gives that text:
its top and bottom within 2 px; across, inside the placed box (to 2 px) and anchored as placed (its middle,
or its side by the marker, within 2 px: widths are estimated from a few classes of characters, on the
wide side). The map's frame (pixels per
degree) is plotly's own to 0.2 %, and no text the placement put inside the map is drawn past its edges.
"""

from __future__ import annotations

import gzip
from pathlib import Path
from typing import Any

import pytest
from conftest import OfflinePage
from helpers_sample import ROOT
from test_export_page import wait_until

from medviz.engine import History
from medviz.viz.placement import Box, frame_of_figure, point_text_box

SIZES = ((1280, 720), (1920, 1080))
#: Pixels a drawn text's top, bottom or centre may be from the placement's box.
TOLERANCE = 2.0

#: Every text point of the map's scatter traces: its trace, point index, text and box (pixels from the
#: svg's top left); the plot area's axes (offsets, pixels per unit, ranges).
TEXTS_JS = """() => {
  const gd = document.querySelector('.plotly-graph-div'), fl = gd._fullLayout;
  const svg = gd.querySelector('svg.main-svg').getBoundingClientRect();
  const texts = [];
  gd.querySelectorAll('.scatterlayer .trace').forEach((t) => {
    const d = t.__data__ && t.__data__[0] && t.__data__[0].trace; if (!d) return;
    t.querySelectorAll('.textpoint').forEach((g) => {
      const tx = g.querySelector('text'); if (!tx || !tx.textContent) return;
      const r = tx.getBoundingClientRect();
      texts.push({trace: d.name, i: g.__data__.i, text: tx.textContent,
                  box: [r.left - svg.left, r.top - svg.top, r.right - svg.left, r.bottom - svg.top]});
    });
  });
  const xa = fl.xaxis, ya = fl.yaxis;
  return {texts, x: [xa._offset, xa._m, xa.range[0], xa._length], y: [ya._offset, ya._m, ya.range[1], ya._length]};
}"""


def _history() -> History:
    import medviz.rules.medempires.game  # noqa: F401  (the ruleset the golden history names)

    golden = ROOT / "tests" / "golden" / "vespers-1282-seed-1.json.gz"
    return History.from_json(gzip.decompress(golden.read_bytes()).decode("utf-8"), golden.name)


def _views() -> dict[str, Any]:
    """A moment with many badges; a fleet's move with an interception and a battle (a cross and a star with
    its odds over it: mark layers, as tests/test_placement.py picks them); political results; the end."""
    from medviz.rules.medempires.view import history_view

    h = _history()
    out = {"third": history_view(h, len(h.events) // 3), "battle": history_view(h, 427),
           "politics": history_view(h, 275), "end": history_view(h, len(h.events) - 1)}
    assert {"battle", "interception"} <= {o["kind"] for o in out["battle"]["overlays"]}
    return out


def _mark_boxes(fig_json: dict[str, Any]) -> dict[tuple[str, int], Box]:
    """Every mark's text box (its trace's ``textposition`` past its marker), pixels of the map's frame."""
    frame = frame_of_figure(fig_json)
    out = {}
    for tr in fig_json["data"]:
        name = tr.get("name") or ""
        if tr.get("mode") != "markers+text" or name == "cities" or tr.get("textposition") == "bottom center":
            continue
        size, msize = float(tr["textfont"]["size"]), float(tr["marker"]["size"])
        for i, (x, y, text) in enumerate(zip(tr.get("x") or (), tr.get("y") or (), tr.get("text") or ())):
            if text:
                out[(name, i)] = point_text_box(str(text), size, tr["textposition"], msize).moved(*frame.to_px(x, y))
    return out


def text_box_misses(drawn: dict[str, Any], predicted: dict[tuple[str, int], Box], frame: Any) -> list[str]:
    """What of the drawn texts is not where the placement's boxes say (pixels of the page; [] when all are)."""
    xo, xm, x0, xlen = drawn["x"]
    yo, ym, y1, ylen = drawn["y"]
    out = []
    if abs(xm - frame.px_x) > 0.002 * frame.px_x or abs(-ym - frame.px_y) > 0.002 * frame.px_y:
        out.append(f"the frame's scale {frame.px_x:.3f}, {frame.px_y:.3f} px per unit; plotly's {xm:.3f}, {-ym:.3f}")
    # the frame's top left corner (x0, y1) on the page; the map's drawn edges
    ox, oy = xo + (frame.x0 - x0) * xm, yo + (y1 - frame.y1) * -ym
    edges = (xo, yo, xo + xlen, yo + ylen)
    seen = 0
    for t in drawn["texts"]:
        b = predicted.get((t["trace"], t["i"]))
        if b is None:
            continue
        seen += 1
        left, top, right, bottom = t["box"]
        p = b.moved(ox, oy)
        what = f"{t['trace']} #{t['i']} {t['text']!r}"
        if abs(top - p.top) > TOLERANCE or abs(bottom - p.bottom) > TOLERANCE:
            out.append(f"{what}: drawn from {top:.1f} to {bottom:.1f} px down, placed from {p.top:.1f} to {p.bottom:.1f}")
        # across: inside the placed box, from the side plotly.js anchors it on (its middle, or the side by its marker)
        anchored = min(abs((left + right) / 2 - (p.left + p.right) / 2), abs(left - p.left), abs(right - p.right))
        if left < p.left - TOLERANCE or right > p.right + TOLERANCE or anchored > TOLERANCE:
            out.append(f"{what}: drawn from {left:.1f} to {right:.1f} px across, placed from {p.left:.1f} to {p.right:.1f}")
        inside = p.left >= edges[0] - 0.5 and p.top >= edges[1] - 0.5 and p.right <= edges[2] + 0.5 and p.bottom <= edges[3] + 0.5
        if inside and (top < edges[1] - 0.5 or bottom > edges[3] + 0.5 or left < edges[0] - 0.5 or right > edges[2] + 0.5):
            out.append(f"{what}: placed inside the map, drawn past its edge ({t['box']} in {edges})")
    if seen < len(predicted) * 0.9:
        out.append(f"only {seen} of the {len(predicted)} placed texts were found on the page")
    return out


@pytest.fixture(scope="module")
def views() -> dict[str, Any]:
    return _views()


@pytest.mark.parametrize("size", SIZES, ids=[f"{w}x{h}" for w, h in SIZES])
def test_names_badges_and_marks_are_drawn_where_the_placement_put_them(browser: Any, artifacts: Path, views: dict[str, Any],
                                                                      size: tuple[int, int]) -> None:
    from medviz.viz.commands import html_page
    from medviz.viz.state_map import placed_text_boxes, state_map

    w, h = size
    p = OfflinePage(browser, w, h)
    problems: list[str] = []
    try:
        for name, view in views.items():
            fig = state_map(view, width=w, height=h)
            predicted = placed_text_boxes(fig)
            assert sum(k[0].startswith("labels:") for k in predicted) > 40 and any(not k[0].startswith("labels:") for k in predicted)
            fig_json = fig.to_plotly_json()
            marks = _mark_boxes(fig_json)
            if name == "battle":
                assert marks, "the battle's step shows no mark with a text"
            path = artifacts / f"map-text-boxes-{name}-{w}x{h}.html"
            path.write_text(html_page(fig, config={"staticPlot": True}), encoding="utf-8")
            p.page.goto(path.as_uri())
            wait_until(p.page, "!!document.querySelector('.plotly-graph-div .scatterlayer .textpoint')", 30)
            drawn = p.page.evaluate(TEXTS_JS)
            problems += [f"{name} at {w}x{h}: {m}" for m in text_box_misses(drawn, {**predicted, **marks}, frame_of_figure(fig_json))]
            p.page.screenshot(path=str(artifacts / f"map-text-boxes-{name}-{w}x{h}.png"))
        assert not p.errors and not p.blocked, (p.errors, p.blocked)
    finally:
        p.close()
    assert not problems, "\n".join(problems[:40]) + (f"\n... {len(problems)} in all" if len(problems) > 40 else "")
