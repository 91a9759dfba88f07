"""A saved branch tree on the exported page (issue 11.6): every branch, its what-if, parent and outcome."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

from helpers_sample import ROOT, sample_battle

from medviz.engine import History, RollEvent
from medviz.export.annotations import load_annotations
from medviz.export.html import build_page, page_data
from medviz.export.tree import SAME_FIGURE, tree_data


def _tree() -> tuple[History, History, History, History]:
    root = sample_battle()
    rolls = [e for e in root.rolls() if isinstance(e, RollEvent)]
    a = root.branch(rolls[0].roll, 1 if rolls[0].value != 1 else 6)
    b = root.branch(rolls[-1].roll, 1 if rolls[-1].value != 1 else 6)
    deeper = [e for e in a.rolls() if isinstance(e, RollEvent) and e.seq > a.replayed_from][-1]
    aa = a.branch(deeper.roll, 2 if deeper.value != 2 else 5)
    return root, a, b, aa


def _blocks(page: str) -> dict[str, object]:
    found = re.findall(r'<script id="(medviz-[a-z0-9-]+)" type="application/json">(.*?)</script>', page, re.S)
    return {k: json.loads(v) for k, v in found}


def test_a_tree_file_exports_every_branch_with_its_what_if_parent_and_outcome(tmp_path: Path) -> None:
    root, a, b, aa = _tree()
    aa.save_tree(tmp_path / "tree.json")
    loaded = History.load(tmp_path / "tree.json")
    page = build_page(loaded)
    blocks = _blocks(page)
    tree = blocks["medviz-tree"]
    assert isinstance(tree, dict)
    listed = tree["branches"]
    # depth first, the game as played first; the file was saved at a's branch aa
    assert [x["parent"] for x in listed] == [None, 0, 1, 0] and [x["depth"] for x in listed] == [0, 1, 2, 1]
    assert tree["current"] == 2
    for entry, h in zip(listed, (root, a, aa, b)):
        assert entry["outcome"].startswith(f"winner: {h.outcome['winner']}")
    assert listed[0]["what_if"] == "the game as recorded"
    changed = [e for e in b.events if isinstance(e, RollEvent) and e.roll == b.override[0]][0]
    assert listed[3]["what_if"] == f"What if {b.describe(changed)}?"
    assert "(changed from " in listed[3]["what_if"] and listed[2]["title"] == "Branch 2 (of branch 1)"
    # the page's own data is the saved-at branch (its block stays empty); the others carry their own log
    assert blocks["medviz-data"]["log"] == [aa.describe(e) for e in aa.events]
    assert blocks["medviz-branch-2"] is None
    for i, h in ((0, root), (1, a), (3, b)):
        data = blocks[f"medviz-branch-{i}"]
        assert isinstance(data, dict) and data["log"] == [h.describe(e) for e in h.events]
    assert blocks["medviz-data"]["log"] != blocks["medviz-branch-3"]["log"]  # type: ignore[index]
    # the start is shared: a branch's figure is the root's, sent once
    assert blocks["medviz-branch-1"]["timeline"]["figure"] == SAME_FIGURE  # type: ignore[index]
    assert isinstance(blocks["medviz-branch-0"]["timeline"]["figure"], dict)  # type: ignore[index]
    assert 'id="tree"' not in page.split("<body>")[0]  # the section is drawn by the page's nonce'd script
    assert page.count("medviz branch tree") == 1


def test_a_plain_history_page_has_no_tree(tmp_path: Path) -> None:
    root = sample_battle()
    page = build_page(root)
    assert "medviz-tree" not in page and "medviz branch tree" not in page
    assert tree_data(root, lambda h, n: page_data(h, n).to_json()) is None


def test_notes_follow_each_branch_where_their_anchors_happen() -> None:
    root, _a, b, _aa = _tree()
    notes = load_annotations(ROOT / "examples" / "battle-notes.toml", root)
    tree = tree_data(root, lambda h, n: page_data(h, n).to_json(), notes)
    assert tree is not None and tree.current == 0
    assert len(tree.branches[0].page["notes"]) == len(notes)
    for br in tree.branches[1:]:  # bound to that branch: the notes whose anchors happen there, with spans
        assert 0 < len(br.page["notes"]) <= len(notes) and all(n["spans"] for n in br.page["notes"])
    # a branch where a noted roll never happens leaves that note out, and keeps the others
    assert min(len(br.page["notes"]) for br in tree.branches) < len(notes)
    assert tree.branches[3].page["log"] == [b.describe(e) for e in b.events]


def test_medviz_export_of_a_tree_file_says_how_many_branches(tmp_path: Path) -> None:
    *_, aa = _tree()
    aa.save_tree(tmp_path / "tree.json")
    out = tmp_path / "tree.html"
    run = subprocess.run([sys.executable, "-m", "medviz.cli", "export", str(tmp_path / "tree.json"), "--html", str(out)],
                         capture_output=True, text=True, cwd=ROOT, check=False)
    assert run.returncode == 0, run.stderr
    assert "3 branch(es) of its tree" in run.stdout
    assert len(_blocks(out.read_text(encoding="utf-8"))["medviz-tree"]["branches"]) == 4  # type: ignore[index]
