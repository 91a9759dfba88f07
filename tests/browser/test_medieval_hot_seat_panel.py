"""The Medieval hot-seat table's side panel in a real browser (issue 12): as hands and Powers grow
during play, the seat's hand panel never runs into the decks line below it (nor the seat boxes into
each other). The table is driven in Python as far as a seat holds a full hand; its map figure, as the
widget updated it step by step, is drawn by plotly.js in chromium at 1280x720 and 1920x1080 and the
drawn boxes of the panel's annotations are measured."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from medviz.apps import PlayTable

SIZES = [(1280, 720), (1920, 1080)]

#: The drawn box of every named panel annotation: {name: [left, top, right, bottom]} in page pixels.
BOXES_JS = """() => {
  const gd = document.querySelector('.js-plotly-plot');
  const anns = (gd && gd.layout && gd.layout.annotations) || [];
  const out = {};
  anns.forEach((a, i) => {
    const g = gd.querySelector(`g.annotation[data-index="${i}"]`);
    if (!a.name || !g) return;
    const r = g.getBoundingClientRect();
    out[a.name] = [r.left, r.top, r.right, r.bottom];
  });
  return out;
}"""


def _table_with_a_full_hand() -> tuple[PlayTable, int]:
    """A four-seat hot-seat table played (first option each time) until the seat on screen holds at
    least four cards and someone holds two Powers or more; returns it and how many decisions it took."""
    table = PlayTable("four-players", ("A", "B", "C", "D"), seed=7, game="medieval-xiii", map_size=(None, 560))
    m = table.model
    for n in range(400):
        if m.screen:
            m.reveal()
            continue
        view = table.map.view if table.map is not None else None
        if view is not None:
            seats = view["seats"]
            seen = view.get("seen_by")
            if seen and len(seats[seen]["hand"]) >= 4 and max(len(s["powers"]) for s in seats.values()) >= 2:
                return table, n
        assert m.pending is not None, "the game ended before a seat held four cards"
        m.choose(m.pending.options[0])
    raise AssertionError("no seat held four cards within 400 decisions")


@pytest.fixture(scope="module")
def page_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    table, _ = _table_with_a_full_hand()
    assert table.map is not None
    out = tmp_path_factory.mktemp("medieval-panel") / "hot-seat-map.html"
    table.map.figure.write_html(str(out), include_plotlyjs=True, full_html=True,
                                config={"responsive": True}, default_width="100%")
    return out


def _overlap(a: list[float], b: list[float]) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


@pytest.mark.parametrize(("width", "height"), SIZES)
def test_the_hand_panel_clears_the_decks_line(page_file: Path, browser: Any, artifacts: Path,
                                              width: int, height: int) -> None:
    context = browser.new_context(viewport={"width": width, "height": height})
    try:
        page = context.new_page()
        blocked: list[str] = []
        context.route("**/*", lambda r: r.continue_() if r.request.url.startswith("file:")
                      else (blocked.append(r.request.url), r.abort()))
        page.goto(page_file.as_uri())
        page.wait_for_function("() => { const g = document.querySelector('.js-plotly-plot');"
                               " return g && g.querySelectorAll('g.annotation').length > 3; }", timeout=60_000)
        page.screenshot(path=str(artifacts / f"medieval-hot-seat-panel-{width}x{height}.png"))
        boxes: dict[str, list[float]] = page.evaluate(BOXES_JS)
        assert not blocked, blocked
    finally:
        context.close()
    assert "panel-hand" in boxes and "panel-decks" in boxes, sorted(boxes)
    hand, decks = boxes["panel-hand"], boxes["panel-decks"]
    assert hand[3] - hand[1] > 40, hand  # a hand of four cards or more is drawn, several lines tall
    assert not _overlap(hand, decks), f"the hand panel {hand} runs into the decks line {decks}"
    stacked = [boxes[n] for n in sorted(boxes) if n.startswith("panel-") and n != "panel-key"]
    clashes = [(a, b) for i, a in enumerate(stacked) for b in stacked[i + 1:] if _overlap(a, b)]
    assert not clashes, f"panel boxes overlap: {clashes}"
