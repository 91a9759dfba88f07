"""An exported branch tree in a real browser: the list of branches shows each what-if, parent and
outcome, and choosing a branch replays that branch at the same event, offline."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from test_export_page import open_page, wait_until

from helpers_sample import sample_battle

from medviz.engine import History, RollEvent
from medviz.export.html import export_html


def test_the_page_lists_the_tree_and_switches_branches(offline_page: Any, tmp_path: Path, artifacts: Path) -> None:
    root = sample_battle()
    rolls = [e for e in root.rolls() if isinstance(e, RollEvent)]
    last = rolls[-1]
    b = root.branch(last.roll, 1 if last.value != 1 else 6)
    a = root.branch(rolls[0].roll, 1 if rolls[0].value != 1 else 6)
    a.save_tree(tmp_path / "tree.json")
    path = export_html(History.load(tmp_path / "tree.json"), tmp_path / "tree.html")
    page = open_page(offline_page, path)
    items = page.locator("#tree li")
    assert items.count() == 3
    texts = [items.nth(i).inner_text() for i in range(3)]
    assert texts[0].startswith("As played: the game as recorded → winner: attacker")
    assert "What if attacker rolls 1d6" in texts[2] and "(changed from" in texts[2]
    assert f"winner: {b.outcome['winner']}" in texts[1] and "made from As played" in texts[1]
    assert b.outcome["winner"] != a.outcome["winner"]  # the two branches end differently
    assert page.evaluate("document.body.dataset.branch") == "2"  # saved at branch a (the second child)
    assert page.inner_text("#tree li.current").startswith("Branch 2")
    # Go to the end of the current branch, then switch to branch 1 (b): same event, b's own log.
    page.focus("#slider")
    page.keyboard.press("End")
    end = len(a.events) - 1
    wait_until(page, f"document.body.dataset.step === '{end}'", 10)
    page.click("#tree li[data-branch='1'] button")
    wait_until(page, "document.body.dataset.branch === '1' && !!(window.medviz && window.medviz.ready)", 60)
    at = min(end, len(b.events) - 1)
    wait_until(page, f"document.body.dataset.step === '{at}'", 10)
    assert page.inner_text("#log li.current") == b.describe(b.events[at])
    assert page.locator("#log li").count() == len(b.events)
    assert page.inner_text("#tree li.current").startswith("Branch 1")
    assert page.inner_text("#about").count("a branch: roll") == 1
    page.screenshot(path=str(artifacts / "export-tree-branch1.png"), full_page=True)
    # And back to the game as played.
    page.click("#tree li[data-branch='0'] button")
    wait_until(page, "document.body.dataset.branch === '0' && !!(window.medviz && window.medviz.ready)", 60)
    assert page.locator("#log li").count() == len(root.events)
    assert "a branch" not in page.inner_text("#about")
    assert not offline_page.errors
