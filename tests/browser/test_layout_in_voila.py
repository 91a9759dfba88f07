"""Apps in narrow rooms and in Voilà, driven by chromium (issue 15: apps size to their container).

1. A wide map (Empire's Revolt's Mediterranean) in a 520-px output with less room under its controls than the
   560 px an app lays its map out at: the map was laid out as if 560 px tall, so it was laid out wider than the
   place it is drawn in (its holder scrolled sideways onto a blank band) and scaled down more than the room asked
   (at 1280x720, 374 px tall with 480 px of room). Now it spans its place, nothing scrolls sideways, and it is
   scaled only as much as the room needs.
2. The classroom's dice lab at 1280x720, right after "Branch here": the "Branch made" line took a line of its own,
   the map moved down and was laid out again for less room, and until the kernel had done so the browser stretched
   the old layout: about 110 px of blank between the map and its panel for a second or more. Sampled from the click
   on: the map stays where it is, spans the app, and the blank beside it stays narrow.

Each starts a Voilà of its own (as ``make classroom`` does: the project's template, a pre-started kernel), so they
run in CI's long run (``MEDVIZ_SLOW=1``). Screenshots at 1280x720 and 1920x1080 go to test-artifacts/.
"""

from __future__ import annotations

import os
import time
from pathlib import Path
from typing import Any

import pytest
from helpers_sample import ROOT, scratch_notebook, voila, wait_for
from screen_fit import BANDS_JS, fits_one_screen, page_errors, scroll_to_top

pytestmark = [pytest.mark.slow,
              pytest.mark.skipif(not os.environ.get("MEDVIZ_SLOW"),
                                 reason="apps in Voilà in a browser run in CI's long run (MEDVIZ_SLOW=1)")]


#: How the app's map sits in its place (page px): its drawing's box, its place's width (the graph's holder), the
#: scale the browser draws it at, the height the screen shows, and the boxes around it that scroll sideways.
PLACE_JS = """
(gd) => {
  const svg = gd.querySelector('svg.main-svg'), app = gd.closest('.medviz-app');
  if (!svg || !gd._fullLayout || !app) return null;
  const s = svg.getBoundingClientRect(), holder = gd.parentElement;
  const sideways = [];
  for (let p = holder; p; p = p.parentElement) {
    const o = getComputedStyle(p).overflowX;
    if ((o === 'auto' || o === 'scroll') && p.scrollWidth > p.clientWidth + 1)
      sideways.push(`${p.className.split(' ').slice(-2).join('.')}: ${p.scrollWidth} px of content in ${p.clientWidth}`);
    if (p === app) break;
  }
  return {top: s.top, bottom: s.bottom, width: s.width, place: holder.clientWidth, scale: Number(gd.dataset.medvizScale || 1),
          screen: window.innerHeight, laidOut: gd._fullLayout.height, planned: (gd.layout.meta || {}).width || null, sideways};
}
"""
#: The most screen px the map may leave unused under it when it is scaled down (it is scaled for the room under it).
ROOM_SLACK_PX = 12


def place_problems(gd: Any, what: str) -> list[str]:
    """What is wrong with how the app's map fills its place (scroll its app to the top of the screen first)."""
    m = gd.evaluate(PLACE_JS)
    if m is None:
        return [f"{what}: the map is not drawn"]
    out = [f"{what}: scrolls sideways ({s}; map laid out {m['planned']} px wide, drawn {m['width']:.0f})"
           for s in m["sideways"]]
    if abs(m["width"] - m["place"]) > 3:
        out.append(f"{what}: the map is drawn {m['width']:.0f} px wide in a place {m['place']} px wide")
    if m["bottom"] > m["screen"] + 1:
        out.append(f"{what}: the map ends at {m['bottom']:.0f} px, the screen at {m['screen']}")
    if m["scale"] < 0.999 and m["bottom"] < m["screen"] - ROOM_SLACK_PX:
        out.append(f"{what}: the map is scaled to {m['scale']:.3f} ({m['bottom'] - m['top']:.0f} px tall, laid out "
                   f"{m['laidOut']} px) with {m['screen'] - m['bottom']:.0f} px of room left under it")
    return out


ER_CELLS = ["""from medviz.engine import play
from medviz.engine.policy import RandomPolicy
from medviz.rules.empires_revolt.players import HeuristicPolicy
from medviz.rules.empires_revolt.ruleset import RULESET as ER
from medviz.apps import DiceLab
import ipywidgets as widgets

game = play(ER, "conquest-3", {}, seed=4, players={"A": HeuristicPolicy(), "B": RandomPolicy(41), "C": HeuristicPolicy()})
widgets.Box([DiceLab(game)], layout=widgets.Layout(width="520px"))  # an output 520 px wide"""]


def test_a_wide_map_in_a_narrow_low_output_spans_its_place_and_is_scaled_only_for_the_room(
        offline_page: Any, artifacts: Path) -> None:
    folder = artifacts / "voila-narrow"
    notebook = scratch_notebook(folder, "narrow.ipynb", ER_CELLS)
    page = offline_page.page
    page.set_viewport_size({"width": 1280, "height": 720})
    with voila(notebook, folder) as url:
        page.goto(url, timeout=180_000)
        page.wait_for_selector(".medviz-app .js-plotly-plot", timeout=180_000)
        app = page.locator(".medviz-app").first
        gd = app.locator(".js-plotly-plot").first
        problems: list[str] = []
        # 1280x600: 360 px of room, the map laid out 436 px tall; 1280x720: 480 px, room enough for it unscaled
        for w, h in ((1280, 720), (1280, 600), (1920, 1080)):
            page.set_viewport_size({"width": w, "height": h})
            seen: list[list[str]] = []

            def fills(what: str = f"Empire's Revolt's dice lab in 520 px at {w}x{h}", seen: list[list[str]] = seen) -> bool:
                scroll_to_top(app)
                seen.append(place_problems(gd, what))
                return not seen[-1]

            try:  # the map is laid out again for the room and width measured: wait for it
                wait_for(f"the map to fill its place at {w}x{h}", fills, timeout=40, every=0.5)
            except pytest.fail.Exception:
                problems += seen[-1]
            m = gd.evaluate(PLACE_JS)
            print(f"at {w}x{h}: scale {m['scale']:.3f}, drawn {m['width']:.0f}x{m['bottom'] - m['top']:.0f} px, "
                  f"laid out {m['planned']}x{m['laidOut']}, {m['screen'] - m['bottom']:.0f} px under it")  # pytest -s
            page.wait_for_timeout(300)
            page.screenshot(path=str(artifacts / f"voila-narrow-dicelab-{w}x{h}.png"))
        assert not problems, "\n".join(problems)
    assert not page_errors(offline_page.errors), offline_page.errors[:3]


#: The most blank (screen px) beside the map: the figure's own margin on the left; before the panel, the gap and the
#: share a map keeps to spare for being drawn a little narrower (as in test_classroom_in_lab.py).
LEFT_BAND_PX, RIGHT_BAND_PX = 12, 50
#: The dice lab's words above its map take ``px`` more (0: as they were), and the app measures its room again.
GROW_JS = """
(gd, px) => { const h = gd.closest('.medviz-app').querySelector('.medviz-roll-headline');
              h.style.paddingBottom = px ? `${px}px` : ''; window.dispatchEvent(new Event('resize')); }
"""


def _bands_ok(b: Any) -> bool:
    return bool(b and b["gap"] is not None and b["left"] <= LEFT_BAND_PX and b["gap"] <= RIGHT_BAND_PX
                and abs(b["width"] - b["app"]) <= 3)


def test_the_classroom_dice_lab_keeps_its_map_in_place_through_a_branch(offline_page: Any, artifacts: Path) -> None:
    folder = artifacts / "voila-branch"
    folder.mkdir(parents=True, exist_ok=True)
    page = offline_page.page
    page.set_viewport_size({"width": 1280, "height": 720})
    with voila(ROOT / "notebooks" / "classroom.ipynb", folder) as url:
        page.goto(url, timeout=180_000)
        page.wait_for_selector(".medviz-classroom-stage .js-plotly-plot", timeout=180_000)
        page.locator(".medviz-classroom-menu button", has_text="What if?").first.click()
        stage = page.locator(".medviz-classroom-stage").first
        branches = stage.locator(".medviz-branch-list select option")
        wait_for("the dice lab to show its branch list", lambda: branches.count() >= 1, timeout=90)
        app = stage.locator(".medviz-app").first
        gd = app.locator(".js-plotly-plot").first
        seen: list[Any] = []
        try:  # laid out for the room and width the browser measured
            wait_for("the dice lab's map to be laid out for its place",
                     lambda: seen.append(gd.evaluate(BANDS_JS)) or _bands_ok(seen[-1]), timeout=40, every=0.5)
        except pytest.fail.Exception:
            pytest.fail(f"the dice lab's map at 1280x720 before any branch: {seen[-1]}")
        before = seen[-1]
        faces = stage.locator(".widget-toggle-buttons button")
        other = next(i for i in range(faces.count()) if "mod-active" not in (faces.nth(i).get_attribute("class") or ""))
        faces.nth(other).click()
        stage.locator("button", has_text="Branch here").first.click()
        # Sampled from the click on, 6 s after the branch is listed (the kernel lays a map out again well within it).
        samples: list[tuple[float, Any]] = []
        start, listed = time.monotonic(), None
        while listed is None or time.monotonic() < listed + 6:
            samples.append((time.monotonic() - start, gd.evaluate(BANDS_JS)))
            if listed is None and branches.count() == 2:
                listed = time.monotonic()
            assert time.monotonic() - start < 150, "the branch was not listed within 150 s"
            page.wait_for_timeout(150)
        bad = [f"{t:.1f} s: {b}" for t, b in samples if not _bands_ok(b) or abs(b["top"] - before["top"]) > 3]
        worst = max((b["gap"] for _t, b in samples if b and b["gap"] is not None), default=None)
        print(f"after 'Branch here' at 1280x720: {len(samples)} samples over {samples[-1][0]:.1f} s, widest blank "
              f"before the panel {worst:.0f} px (before the click {before['gap']:.0f} px)")  # pytest -s shows it
        assert not bad, (f"after 'Branch here' the map moved from {before['top']:.0f} px under the app's top, or left "
                         f"a wide blank beside it (> {RIGHT_BAND_PX} px), or did not span the app:\n" + "\n".join(bad[:8]))
        fits_one_screen(app, ["button:Branch here", ".medviz-roll-name", ".medviz-branch-message"],
                        "the classroom's dice lab after a branch at 1280x720")
        page.screenshot(path=str(artifacts / "voila-classroom-branch-1280x720.png"))

        # Less room under the words above the map (they took 60 px more): until the kernel has laid the map out for
        # it, the browser draws the old layout scaled down, never stretched (its panel drifted off the map).
        gd.evaluate(GROW_JS, 60)
        samples = []
        start = time.monotonic()
        while time.monotonic() < start + 4:
            samples.append((time.monotonic() - start, gd.evaluate(BANDS_JS)))
            page.wait_for_timeout(60)
        bad = [f"{t:.2f} s: {b}" for t, b in samples
               if not b or b["gap"] is None or b["gap"] > RIGHT_BAND_PX or b["width"] > b["app"] + 3]
        assert not bad, "with less room, before the kernel answered, the map was stretched:\n" + "\n".join(bad[:8])
        wait_for("the map to be laid out for less room", lambda: _bands_ok(gd.evaluate(BANDS_JS)), timeout=40, every=0.5)
        gd.evaluate(GROW_JS, 0)
        page.set_viewport_size({"width": 1920, "height": 1080})
        fits_one_screen(app, ["button:Branch here", ".medviz-roll-name", ".medviz-branch-message"],
                        "the classroom's dice lab after a branch at 1920x1080")
        wait_for("the map at 1920x1080 to leave no wide blank beside it", lambda: _bands_ok(gd.evaluate(BANDS_JS)),
                 timeout=40, every=0.5)
        page.screenshot(path=str(artifacts / "voila-classroom-branch-1920x1080.png"))
    assert not page_errors(offline_page.errors), offline_page.errors[:3]
