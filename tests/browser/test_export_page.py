"""An exported replay page in a real browser: it draws offline, its slider steps the map and the
log, play advances, and a hostile note never runs."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from helpers_sample import ROOT, changing_views, sample_battle

from medviz.engine import History
from medviz.export.annotations import load_annotations, parse_annotations
from medviz.export.html import export_html

HOSTILE_NOTE = '''
[[note]]
anchor = { event = 0 }
kind = "what-if"
title = "<img src=x onerror='window.__pwned = 1'>"
text = """
<script>window.__pwned = 1</script>
<img src=x onerror="window.__pwned = 1">
<svg onload="window.__pwned = 1"></svg>
[click me](javascript:window.__pwned=1)
<a href="jAvAsCrIpT:window.__pwned=1">and me</a>
[data](data:text/html;base64,PHNjcmlwdD53aW5kb3cuX19wd25lZD0xPC9zY3JpcHQ+)
</script><script>window.__pwned = 1</script>
![pic](https://evil.example/track.png)
"""
'''


@pytest.fixture(scope="module")
def history() -> History:
    return sample_battle()


@pytest.fixture(scope="module")
def map_page(history: History, tmp_path_factory: pytest.TempPathFactory) -> Path:
    notes = load_annotations(ROOT / "examples" / "battle-notes.toml", history)
    out = tmp_path_factory.mktemp("pages") / "map.html"
    return export_html(history, out, notes, view_at=changing_views())


def wait_until(page: Any, expression: str, timeout: float = 30.0) -> None:
    """Poll ``expression`` (Playwright's wait_for_function would need eval, which the page's CSP forbids)."""
    import time

    end = time.monotonic() + timeout
    while not page.evaluate(expression):
        if time.monotonic() > end:
            raise AssertionError(f"timed out waiting for {expression}")
        page.wait_for_timeout(50)


def open_page(p: Any, path: Path) -> Any:
    page = p.page
    page.goto(path.as_uri())
    wait_until(page, "!!(window.medviz && 'ready' in window.medviz)", 60)
    assert page.evaluate("window.medviz.ready") is True, page.evaluate("window.medviz.error")
    return page


def fill_of(page: Any, uid: str) -> str:
    return page.evaluate("(uid) => document.getElementById('plot').data.find(t => t.uid === uid).fillcolor", uid)


def test_slider_steps_the_map_and_the_log(offline_page: Any, map_page: Path, artifacts: Path) -> None:
    page = open_page(offline_page, map_page)
    assert page.evaluate("document.getElementById('plot').data.length") > 70
    malta_before = fill_of(page, "area-malta")
    log_before = page.inner_text("#log li.current")
    assert page.inner_text("#notes h3") == "Two armies meet"
    # Keyboard: focus the slider and step right six times (event 0 -> 6).
    page.focus("#slider")
    for _ in range(6):
        page.keyboard.press("ArrowRight")
    wait_until(page, "document.body.dataset.step === '6'", 10)
    malta_after = fill_of(page, "area-malta")
    assert malta_after != malta_before  # Malta changed hands at event 5
    log_after = page.inner_text("#log li.current")
    assert log_after != log_before and log_after.startswith("defender rolls 1d6 for initiative")
    assert page.inner_text("#notes h3") == "Who strikes first"
    page.screenshot(path=str(artifacts / "export-map-step6.png"))
    # Mouse: click near the right end of the slider.
    box = page.locator("#slider").bounding_box()
    page.mouse.click(box["x"] + box["width"] - 3, box["y"] + box["height"] / 2)
    wait_until(page, "Number(document.body.dataset.step) >= 19", 10)
    step = int(page.evaluate("document.body.dataset.step"))
    assert step >= 19
    assert page.inner_text("#log li.current") == page.evaluate("window.medviz.data.log[%d]" % step)
    assert "battle in Kingdom of Naples: DV" in page.inner_text("#panel")
    # Back to the start by the keyboard: the map is as it was.
    page.keyboard.press("Home")
    wait_until(page, "document.body.dataset.step === '0'", 10)
    assert fill_of(page, "area-malta") == malta_before
    assert not offline_page.errors


def test_play_advances_and_pauses(offline_page: Any, map_page: Path) -> None:
    page = open_page(offline_page, map_page)
    page.select_option("#speed", "150")
    page.click("#play")
    wait_until(page, "Number(document.body.dataset.step) >= 3", 10)
    page.click("#play")  # pause
    stopped = page.evaluate("document.body.dataset.step")
    page.wait_for_timeout(600)
    assert page.evaluate("document.body.dataset.step") == stopped
    assert page.inner_text("#play") == "Play"


def test_battle_page_without_a_map(offline_page: Any, history: History, tmp_path: Path, artifacts: Path) -> None:
    path = export_html(history, tmp_path / "battle.html")
    page = open_page(offline_page, path)
    defender = "document.getElementById('plot').data[1].y.reduce((a, b) => a + b, 0)"
    assert page.evaluate(defender) == 5
    page.focus("#slider")
    page.keyboard.press("End")
    wait_until(page, "document.body.dataset.step === '21'", 10)
    assert page.evaluate(defender) == 0
    assert "King killed: defender" in page.inner_text("#panel")
    page.screenshot(path=str(artifacts / "export-battle-end.png"))


def test_a_hostile_note_never_runs(offline_page: Any, history: History, tmp_path: Path, artifacts: Path) -> None:
    notes = parse_annotations(HOSTILE_NOTE, "hostile.toml", history)
    path = export_html(history, tmp_path / "hostile.html", notes)
    page = open_page(offline_page, path)
    page.focus("#slider")
    for _ in range(3):
        page.keyboard.press("ArrowRight")
    page.keyboard.press("Home")
    for link in page.locator("#notes a").all():
        link.click(modifiers=["Control"]) if link.get_attribute("href") else link.click()
    page.wait_for_timeout(300)
    assert page.evaluate("window.__pwned") is None
    html = page.inner_html("#notes")
    assert "<img" not in html and "<svg" not in html and "<script" not in html
    assert "&lt;script&gt;" in html  # shown as text, not run
    assert page.inner_text("#notes h3").startswith("<img src=x")  # the title is plain text
    page.screenshot(path=str(artifacts / "export-hostile-note.png"))


def test_a_whole_vespers_replay(offline_page: Any, tmp_path: Path, artifacts: Path) -> None:
    """The pinned Vespers game (tests/golden, two heuristic players, 1,291 events over the three turns): a whole
    war to the winner's banner, half as long to export as a game of random players (2,655 events)."""
    import gzip

    import medviz.rules.medempires.game  # noqa: F401  (registers the whole-game scenarios)

    golden = ROOT / "tests" / "golden" / "vespers-1282-seed-1.json.gz"
    h = History.from_json(gzip.decompress(golden.read_bytes()).decode("utf-8"), golden.name)
    assert h.phases()[-1].turn == 3 and h.outcome and h.outcome.get("winner")  # a whole war, to its end
    notes_file = ROOT / "notebooks" / "annotations" / "vespers-1282.toml"
    notes = load_annotations(notes_file, h) if notes_file.exists() else None
    path = export_html(h, tmp_path / "vespers.html", notes)
    assert path.stat().st_size <= 3_000_000
    page = open_page(offline_page, path)
    fills = "document.getElementById('plot').data.filter(t => (t.uid || '').startsWith('area-')).map(t => t.fillcolor)"
    start = page.evaluate(fills)
    # Jump to turn 2's politics phase with the phase menu, then step on with the keyboard.
    target = next(p for p in h.phases() if p.turn == 2 and p.phase == "politics")
    page.select_option("#jump", str(target.start))
    wait_until(page, f"document.body.dataset.step === '{target.start}'", 20)
    assert "GT2 (1291-1300) · politics" in page.inner_text("#where")  # the game's years and phase words
    jumps = page.evaluate("Array.from(document.querySelectorAll('#jump option')).map(o => o.textContent)")
    assert any(j.startswith("GT2 (1291-1300) · Player B's operations") for j in jumps), jumps
    if notes is not None:  # a bookmark for each annotated moment
        assert sum(j.startswith("★ ") for j in jumps) == len([n for n in notes.notes if n.spans]) > 0, jumps
    # Play (fast) skips steps that change nothing on the map; Play again pauses where it is.
    page.evaluate("""() => { window.seen = []; new MutationObserver(() => window.seen.push(+document.body.dataset.step))
        .observe(document.body, {attributes: true, attributeFilter: ['data-step']}); }""")
    page.select_option("#speed", label="fast")
    page.click("#play")
    wait_until(page, "window.seen.length >= 6", 20)
    page.click("#play")
    paused = page.evaluate("document.body.dataset.step")
    page.wait_for_timeout(800)
    seen = page.evaluate("window.seen")
    assert page.evaluate("document.body.dataset.step") == paused and int(paused) > target.start, (paused, seen)
    assert any(b - a > 1 for a, b in zip(seen, seen[1:])), seen  # bookkeeping steps were skipped
    page.check("#every")
    page.evaluate("window.seen = []")
    page.click("#play")
    wait_until(page, "window.seen.length >= 4", 20)
    page.click("#play")
    seen = page.evaluate("window.seen")
    assert all(b - a == 1 for a, b in zip(seen, seen[1:])), seen  # every event, one at a time
    page.select_option("#jump", str(target.start))
    wait_until(page, f"document.body.dataset.step === '{target.start}'", 20)
    assert page.locator("#log li.future").count() == len(h.events) - 1 - target.start  # later events greyed
    if notes is not None:
        expected = [n.title for n in notes.for_event(target.start)]
        assert page.locator("#notes h3").all_inner_texts() == expected
    page.keyboard.press("End")
    wait_until(page, f"document.body.dataset.step === '{len(h.events) - 1}'", 20)
    assert page.evaluate(fills) != start  # areas changed hands over the war
    assert page.inner_text("#log li.current") == h.describe(h.events[-1])
    assert page.locator("#log li.future").count() == 0
    # The map's side panel (turn line, player boxes) and its title are page text beside the map: the boxes
    # never overlap, the title wraps inside the side column instead of running off the figure.
    def side_boxes() -> dict[str, tuple[float, float, float, float]]:
        boxes = page.evaluate("""() => [...document.querySelectorAll('#mapside .box')]
            .map(e => ({t: e.textContent, r: e.getBoundingClientRect()}))
            .map(b => [b.t.slice(0, 8), b.r.top, b.r.bottom, b.r.left, b.r.right])""")
        return {t: (top, bottom, left, right) for t, top, bottom, left, right in boxes}

    tops = side_boxes()
    assert "PLAYER A" in tops and "PLAYER B" in tops, tops
    assert not any(page.locator("#plot g.annotation", has_text=t).count() for t in ("PLAYER A", "PLAYER B"))
    # The end of the war: the winner's banner is the map's title; no plotly mode bar sits over the map.
    assert page.inner_text("#maptitle").startswith("Game over. Player ")
    assert page.locator("#plot .modebar-btn").count() == 0, "a plotly mode bar sits over the map"
    for w, hgt in ((1280, 720), (1920, 1080)):
        page.set_viewport_size({"width": w, "height": hgt})
        page.wait_for_timeout(600)
        page.screenshot(path=str(ROOT / "test-artifacts" / f"export-vespers-end-{w}x{hgt}.png"))
        tops = side_boxes()
        turn = next((v for k, v in tops.items() if k.startswith(("Turn", "Game ove"))), None)  # the end: the winner box
        assert turn is not None, tops
        a, b = tops["PLAYER A"], tops["PLAYER B"]
        apart = a[1] <= b[0] + 1 or b[1] <= a[0] + 1 or a[3] <= b[2] + 1 or b[3] <= a[2] + 1
        assert turn[1] <= min(a[0], b[0]) + 1 and apart, (w, tops)
        side = page.evaluate("(() => { const r = document.getElementById('side').getBoundingClientRect(); "
                             "return [r.left, r.right]; })()")
        assert side[0] - 1 <= min(a[2], b[2]) and max(a[3], b[3]) <= side[1] + 1 <= w + 1, (w, tops, side)
    page.set_viewport_size({"width": 1500, "height": 1000})
    page.wait_for_timeout(600)
    page.screenshot(path=str(artifacts / "export-vespers-end.png"))


def test_plain_plotly_page_runs_under_the_same_policy(offline_page: Any, history: History, tmp_path: Path) -> None:
    # --no-compress: plotly.js inline as text, run by nonce under the page's Content-Security-Policy.
    path = export_html(history, tmp_path / "plain.html", compress_plotlyjs=False)
    assert path.stat().st_size > 4_500_000
    page = open_page(offline_page, path)
    assert page.evaluate("document.getElementById('plotly-gz') === null")
    assert page.evaluate("document.getElementById('plot').data.length") == 2
    assert not offline_page.errors
