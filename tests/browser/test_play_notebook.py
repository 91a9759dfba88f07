"""Play Aragon in JupyterLab, driven by chromium: run the notebook, reopen the game, choose, undo.

The notebook (notebooks/play-aragon.ipynb) is opened from a copy with its saved outputs cleared,
under the git-ignored test-artifacts/, so everything read here can only come from running it now.
Its later cells drive the table from code and let the computer finish the game, so once every
cell has run the live ``PlayTable`` shows the game over. From the page alone we then check that
the map is drawn, that *Undo* reopens the game (the question and its options come back), that
picking an option and pressing *Choose* moves the game on (the new "Since your last move" log
names the option picked), and that *Undo* takes exactly that move back. The parts of the table
are found by the ``medviz-play-*`` class names ``PlayTable`` gives them.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from helpers_sample import ROOT, cleared_copy, open_and_run_all, wait_for
from screen_fit import fits_one_screen

NOTEBOOK = ROOT / "notebooks" / "play-aragon.ipynb"

#: The table's map as the browser drew it: the SVG's size, how many filled shapes it painted, the
#: title, and every area's fill (area traces carry ``meta.area``, merged
#: fixed areas ``meta.areas``); None until plotly.js has drawn it.
MAP_JS = """
(root) => {
  const el = root.querySelector('.js-plotly-plot');
  const svg = el && el.querySelector('svg.main-svg');
  if (!svg || !Array.isArray(el.data) || el.data.length === 0) return null;
  const box = svg.getBoundingClientRect();
  const fills = {};
  for (const t of el.data) {
    const paint = JSON.stringify([t.fillcolor ?? null, t.fillpattern ?? null]);
    if (t.meta && t.meta.area) fills[t.meta.area] = paint;
    // seas and context lands that never change are merged, one trace per fill (meta.areas)
    else if (t.meta && t.meta.areas) for (const a of Object.keys(t.meta.areas)) fills[a] = paint;
  }
  const badges = el.data.filter(t => !(t.meta && t.meta.area) && t.mode === 'markers+text')
    .map(t => JSON.stringify([t.name, t.text ?? null])).join('|');
  const title = el.layout && el.layout.title;
  return {width: box.width, height: box.height, painted: el.querySelectorAll('.scatterlayer path.js-fill').length,
          title: typeof title === 'string' ? title : ((title && title.text) || ''), fills, badges};
}
"""


#: What must be on the screen with the map: the place, the question, its options, Choose, Undo, full screen.
PLAY_PARTS = [".medviz-play-header", ".medviz-play-prompt", ".medviz-play-choices select", ".medviz-play-choose",
              ".medviz-play-undo", ".medviz-fullscreen"]


def txt(locator: Any) -> str:
    """A locator's text (its DOM text, so parts scrolled off-screen read too), no-break spaces as spaces."""
    return (locator.text_content() or "").replace("\u00a0", " ").strip()


def test_play_table_chooses_and_undoes_in_jupyterlab(lab: dict[str, Any], offline_page: Any,
                                                     artifacts: Path) -> None:
    page = offline_page.page
    page.set_viewport_size({"width": 1500, "height": 1600})  # room for the whole table in a screenshot
    open_and_run_all(page, lab, cleared_copy(NOTEBOOK, artifacts / "lab-play-notebook"))

    # The last cell hands the finished game to a ReplayViewer: once it has printed, every cell has run.
    last = page.locator(".jp-OutputArea-output", has_text="decisions were yours")
    errors = page.locator(".jp-OutputArea-output[data-mime-type='application/vnd.jupyter.stderr']")
    wait_for("the notebook to run to its last cell (or fail)", lambda: last.count() or errors.count(), timeout=120)
    assert errors.count() == 0, txt(errors.first)
    page.locator(".jp-StatusBar-TextItem", has_text="| Idle").first.wait_for(timeout=60_000)
    assert errors.count() == 0, txt(errors.first)
    assert "the saved game loads back identical: True" in txt(last.first)
    said = txt(page.locator(".jp-OutputArea-output", has_text="Outcome:").first)
    winner = said.split("Outcome:", 1)[1].split()[0]  # "A" or "B", as the notebook printed it
    # The refusal cell printed its rule: the table refused the illegal set-up (3.2) in words.
    assert "(rule 3.2)" in txt(page.locator(".jp-OutputArea-output", has_text="is refused").first)

    tables = page.locator(".medviz-play")
    assert tables.count() == 1, f"expected one PlayTable in the page, found {tables.count()}"
    table = tables.first
    header, prompt = table.locator(".medviz-play-header"), table.locator(".medviz-play-prompt")
    choices = table.locator(".medviz-play-choices select")
    choose, undo = table.locator(".medviz-play-choose"), table.locator(".medviz-play-undo")
    recent, outcome = table.locator(".medviz-play-recent"), table.locator(".medviz-play-outcome")
    assert choose.inner_text().strip() == "Choose" and undo.inner_text().strip() == "Undo"
    page.add_style_tag(content=".Toastify__toast-container { display: none !important; }")  # off the screenshot
    table.scroll_into_view_if_needed()

    # -- 1. Run All leaves the student's game fresh: its map drawn, the first question of the set-up asked --
    # (the notebook's later cells drive a second table, ``tutor``, from code; the shown one is untouched)
    assert winner in ("A", "B")
    reopened = wait_for("the table's map to be drawn", lambda: table.evaluate(MAP_JS), timeout=60)
    assert reopened["width"] > 600 and reopened["height"] > 400, reopened
    assert len(reopened["fills"]) > 50 and reopened["painted"] > 50, "the map should paint every area"
    wait_for("the table to ask its first question", lambda: txt(prompt) not in ("", "The game is over."))
    assert "you play Player B (Aragon)" in txt(header) and "Game over" not in txt(header), txt(header)
    assert txt(header).startswith("Set-up"), txt(header)  # the game has not moved past the set-up
    assert txt(outcome) == "", txt(outcome)
    assert not choices.is_disabled() and choices.locator("option").count() > 1 and not choose.is_disabled()
    assert "set-up" in reopened["title"].lower(), reopened["title"]
    before = {"header": txt(header), "prompt": txt(prompt), "recent": txt(recent),
              "options": [t.replace("\u00a0", " ") for t in choices.locator("option").all_inner_texts()]}
    assert choices.evaluate("s => s.selectedIndex") == 0  # the first option is preselected

    # -- 3. Pick an option other than the preselected one and press Choose: the game moves on ----------
    pick = len(before["options"]) - 1 if len(before["options"]) < 3 else 1
    picked = before["options"][pick]
    choices.select_option(index=pick)
    choose.click()
    wait_for("Choose to move the game on", lambda: txt(recent) != before["recent"] or txt(prompt) != before["prompt"])
    wait_for(f"the log to name the option picked ({picked!r})", lambda: picked in txt(recent))
    after = {"header": txt(header), "prompt": txt(prompt), "recent": txt(recent),
             "options": [t.replace("\u00a0", " ") for t in choices.locator("option").all_inner_texts()]}
    assert after["recent"] != before["recent"]
    moved = wait_for("the map to show the counter placed", lambda: (m := table.evaluate(MAP_JS)) and m["badges"] != reopened["badges"] and m)
    assert moved["badges"] != reopened["badges"], "after the choice the map shows the same counters"
    assert not offline_page.errors, offline_page.errors[:3]
    page.wait_for_timeout(1000)  # let plotly.js finish repainting before the picture
    table.screenshot(path=str(artifacts / "jupyterlab-play-table.png"))

    # -- 4. Undo takes that move back: the same question, options, log and map as before ---------------
    undo.click()
    wait_for("Undo to take the choice back", lambda: txt(prompt) == before["prompt"] and txt(recent) == before["recent"])
    now = {"header": txt(header), "prompt": txt(prompt), "recent": txt(recent),
           "options": [t.replace("\u00a0", " ") for t in choices.locator("option").all_inner_texts()]}
    assert now == before
    assert wait_for("the map to be as before the choice",
                    lambda: (m := table.evaluate(MAP_JS)) and m["fills"] == reopened["fills"]
                    and m["badges"] == reopened["badges"] and m["title"] == reopened["title"], timeout=15)

    # -- 5. One screen at a projector's 1280x720 and at 1920x1080, JupyterLab's side bar open: the question,
    # its options, the buttons and the whole map without scrolling.
    assert page.locator("#filebrowser").is_visible(), "the test means JupyterLab with its side bar open"
    for size in ((1280, 720), (1920, 1080)):
        page.set_viewport_size({"width": size[0], "height": size[1]})
        fits_one_screen(table, PLAY_PARTS, f"the PlayTable at {size[0]}x{size[1]}")
        page.screenshot(path=str(artifacts / f"jupyterlab-play-table-{size[0]}x{size[1]}.png"))

    assert errors.count() == 0, txt(errors.first)
    assert page.locator(".jp-Notification-Toast-error").count() == 0
    assert table.locator(".medviz-play-notice").inner_text().strip() == "", "the table showed a refusal"
    assert not offline_page.errors, offline_page.errors[:3]
    assert not offline_page.blocked, offline_page.blocked[:5]
