"""The no-code classroom app (``make classroom``: Voilà), driven by chromium like a student (issue 16).

Voilà is started as the Makefile starts it (the project's template, a pre-started kernel), on
localhost. The page must show no code, reach nothing beyond this machine, and answer the three
things a student does first: step the replay, branch a die in the dice lab, and play a move.
Screenshots at 1280×720 and 1920×1080 go to test-artifacts/. It runs in CI's long run (about 1.5 min).
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from helpers_sample import voila, wait_for
from screen_fit import fits_one_screen

pytestmark = [pytest.mark.slow,
              pytest.mark.skipif(not os.environ.get("MEDVIZ_SLOW"),
                                 reason="the classroom app in a browser runs in CI's long run (MEDVIZ_SLOW=1)")]


@pytest.fixture(scope="module")
def classroom(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The classroom app on a free localhost port; yields its URL."""
    with voila(Path("notebooks/classroom.ipynb"), tmp_path_factory.mktemp("voila")) as url:
        yield url


def _text(locator: Any) -> str:
    return (locator.text_content() or "").replace("\u00a0", " ").strip()


def _open(page: Any, url: str) -> None:
    page.goto(url, timeout=180_000)
    page.wait_for_selector(".medviz-classroom-stage .js-plotly-plot", timeout=180_000)


def _switch(page: Any, title: str) -> Any:
    page.locator(".medviz-classroom-menu button", has_text=title).first.click()
    return page.locator(".medviz-classroom-stage").first


def test_classroom_steps_branches_and_plays_without_code_or_network(
        classroom: str, offline_page: Any, artifacts: Path) -> None:
    page = offline_page.page
    page.set_viewport_size({"width": 1280, "height": 720})
    _open(page, classroom)
    body = _text(page.locator("body"))
    assert "import " not in body and "RULESET" not in body, "the classroom page shows code"
    assert page.locator(".jp-InputArea-editor:visible, .cm-editor:visible").count() == 0
    assert [_text(b) for b in page.locator(".medviz-classroom-menu button").all()] == [
        "Replay 1282–1285", "What if? (dice lab)", "Play Aragon"]
    page.screenshot(path=str(artifacts / "classroom-replay-1280x720.png"))

    # Each app fits the screen at 1280x720 (parts found as the notebook tests find them): the controls, the
    # words and the whole map, drawn as wide as the page (the play table's map was drawn small here).
    fits_one_screen(page.locator(".medviz-classroom-stage .medviz-app").first,
                    [".medviz-where", "button:step ▶", ".medviz-now-event", ".medviz-fullscreen"],
                    "the classroom's replay at 1280x720")

    # 1. The replay steps: the event counter in its header moves on.
    stage = page.locator(".medviz-classroom-stage").first
    header = stage.locator(".widget-html").first
    before = _text(header)
    stage.locator("button", has_text="step ▶").first.click()
    wait_for("the replay to step", lambda: _text(header) != before, timeout=30)

    # 2. The dice lab branches: pick another face of the shown roll, branch, and a second branch is listed.
    stage = _switch(page, "What if?")
    branches = stage.locator(".medviz-branch-list select option")
    wait_for("the dice lab to show its branch list", lambda: branches.count() >= 1, timeout=60)
    assert branches.count() == 1
    faces = stage.locator(".widget-toggle-buttons button")
    other = next(i for i in range(faces.count()) if "mod-active" not in (faces.nth(i).get_attribute("class") or ""))
    faces.nth(other).click()
    stage.locator("button", has_text="Branch here").first.click()
    wait_for("the branch to be listed", lambda: branches.count() == 2, timeout=120)
    fits_one_screen(stage.locator(".medviz-app").first, ["button:Branch here", ".medviz-roll-name"],
                    "the classroom's dice lab at 1280x720")
    page.screenshot(path=str(artifacts / "classroom-dicelab-1280x720.png"))

    # 3. The play table takes a move: set up as in 1282, then the first real decision is Aragon's
    #    to make; choosing moves the game on, and the header names a later moment.
    stage = _switch(page, "Play Aragon")
    table = stage.locator(".medviz-play").first
    table.wait_for(timeout=60_000)
    header = table.locator(".medviz-play-header")
    at_setup = wait_for("the table's header", lambda: _text(header), timeout=60)
    table.locator(".medviz-play-setup").click()
    after_setup = wait_for("the set-up to be placed", lambda: (t := _text(header)) != at_setup and t, timeout=90)
    options = table.locator(".medviz-play-choices select option")
    wait_for("the table to offer Aragon's options", lambda: options.count() >= 1, timeout=60)
    asked = _text(table.locator(".medviz-play-prompt"))
    table.locator(".medviz-play-choices select").select_option(index=0)
    table.locator(".medviz-play-choose").click()
    wait_for("the table to move on after the choice",
             lambda: (_text(table.locator(".medviz-play-prompt")), _text(header)) != (asked, after_setup), timeout=90)
    for size in ((1280, 720), (1920, 1080)):
        page.set_viewport_size({"width": size[0], "height": size[1]})
        fits_one_screen(table, [".medviz-play-prompt", ".medviz-play-choices select", ".medviz-play-choose"],
                        f"the classroom's play table at {size[0]}x{size[1]}")
        page.screenshot(path=str(artifacts / f"classroom-play-{size[0]}x{size[1]}.png"))
    assert not offline_page.errors, offline_page.errors[:3]
