"""JupyterLab on localhost, driven by chromium: open the battle notebook, run it, read the branch.

The server (the session's ``lab`` fixture, tests/browser/conftest.py) runs from the repository
with a random token on a free port, with JupyterLab's own network features off (news feed,
update check, PyPI extension manager). The notebook is opened from a copy with its saved outputs
cleared, under the git-ignored test-artifacts/, so the text we wait for can only come from
running it now.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from helpers_sample import ROOT, cleared_copy, open_and_run_all

NOTEBOOK = ROOT / "notebooks" / "battle-branching.ipynb"


def test_battle_notebook_runs_in_jupyterlab(lab: dict[str, Any], offline_page: Any, artifacts: Path) -> None:
    page = offline_page.page
    open_and_run_all(page, lab, cleared_copy(NOTEBOOK, artifacts / "lab"))
    branch = page.locator(".jp-OutputArea-output", has_text="They part at event 12")
    branch.first.wait_for(timeout=120_000)
    page.locator(".jp-OutputArea-output", has_text="none ['NE']").first.wait_for(timeout=60_000)
    text = branch.first.inner_text()
    assert "decisive roll: battle-1/combat-1/round-1/attacker = 6" in text
    assert not page.locator(".jp-OutputArea-output[data-mime-type='application/vnd.jupyter.stderr']").count()
    branch.first.scroll_into_view_if_needed()
    page.screenshot(path=str(artifacts / "jupyterlab-battle-branching.png"))
