"""The classroom notebook in JupyterLab (side bar open), driven by chromium (issue 15): at a projector's 1280x720
and at 1920x1080 the replay's controls, its current words and its whole map fit one screen, and the map leaves no
wide blank band beside it. A map held by the height (the screen's room under the controls and words) was centred
in 78% of the figure's width: at 1920x1080 a blank band of about 55 px on each side, at 1280x720 (laid out 560 px
tall and scaled down) about 100 px on each side of a map 460 px wide.

It starts a JupyterLab of its own (about 40 s), so it runs in CI's long run (``MEDVIZ_SLOW=1``).
Screenshots go to test-artifacts/.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest
from helpers_sample import ROOT, cleared_copy, open_and_run_all, wait_for
from screen_fit import BANDS_JS, fits_one_screen, page_errors, scroll_to_top

pytestmark = [pytest.mark.slow,
              pytest.mark.skipif(not os.environ.get("MEDVIZ_SLOW"),
                                 reason="the classroom notebook in JupyterLab runs in CI's long run (MEDVIZ_SLOW=1)")]

#: The most blank (screen px) beside the map: its figure's own margin on the left; on the right the gap before the
#: panel and the share a map keeps to spare for being drawn a little narrower (``state_map.NARROWER_SPARE_PX``).
LEFT_BAND_PX, RIGHT_BAND_PX = 12, 50


def test_the_classroom_replay_uses_the_width_it_has_and_fits_one_screen(lab: dict[str, Any], offline_page: Any,
                                                                         artifacts: Path) -> None:
    page = offline_page.page
    page.set_viewport_size({"width": 1280, "height": 720})
    notebook = cleared_copy(ROOT / "notebooks" / "classroom.ipynb", artifacts / "lab-classroom",
                            beside=[ROOT / "notebooks" / "annotations"])
    open_and_run_all(page, lab, notebook)
    errors = page.locator(".jp-OutputArea-output[data-mime-type='application/vnd.jupyter.stderr']")
    app = page.locator(".medviz-classroom-stage .medviz-app").first
    wait_for("the classroom's replay to draw its map (or an error)",
             lambda: errors.count() or app.evaluate("a => !!(a.querySelector('.js-plotly-plot') || {}).data"),
             timeout=180)
    assert errors.count() == 0, (errors.first.text_content() or "")[:2000]
    page.locator(".jp-StatusBar-TextItem", has_text="| Idle").first.wait_for(timeout=60_000)
    page.add_style_tag(content=".Toastify__toast-container { display: none !important; }")
    assert page.locator("#filebrowser").is_visible(), "the test means JupyterLab with its side bar open"
    gd = app.locator(".js-plotly-plot").first
    problems: list[str] = []
    for w, h in ((1920, 1080), (1280, 720)):
        page.set_viewport_size({"width": w, "height": h})
        fits_one_screen(app, [".medviz-where", "button:step ▶", ".medviz-now", ".medviz-fullscreen"],
                        f"the classroom's replay at {w}x{h}")
        seen: list[Any] = []

        def narrow_bands() -> bool:
            b = gd.evaluate(BANDS_JS)
            seen.append(b)
            return bool(b and b["panel"] is not None and b["left"] <= LEFT_BAND_PX
                        and b["panel"] - b["right"] <= RIGHT_BAND_PX)

        try:  # the map is laid out again for the room and width measured: wait for it
            wait_for(f"the map at {w}x{h} to leave no wide band beside it", narrow_bands, timeout=20, every=0.5)
        except pytest.fail.Exception:
            b = seen[-1]
            problems.append(f"at {w}x{h} the map leaves {b and b['left']:.0f} px blank on its left and "
                            f"{b and b['panel'] is not None and b['panel'] - b['right']:.0f} px before the panel: {b}")
        b = seen[-1]
        if b and b["panel"] is not None:
            print(f"the classroom's replay at {w}x{h}: {b['left']:.0f} px blank left of the map, "
                  f"{b['panel'] - b['right']:.0f} px between it and the panel ({b['width']:.0f} px figure)")  # pytest -s
        scroll_to_top(app)
        page.wait_for_timeout(300)
        page.screenshot(path=str(artifacts / f"jupyterlab-classroom-replay-{w}x{h}.png"))
    assert not problems, "\n".join(problems)
    assert not page_errors(offline_page.errors), offline_page.errors[:3]
