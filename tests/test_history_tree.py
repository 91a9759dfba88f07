"""The whole variation tree in one file (issue 11.6): branches, their branches, and where you were."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from helpers_sample import sample_battle

from medviz.engine import History, MalformedInput, RollEvent
from medviz.engine.history import TREE_VERSION, VERSION


def _tree() -> tuple[History, History, History, History]:
    root = sample_battle()
    rolls = [e for e in root.rolls() if isinstance(e, RollEvent)]
    a = root.branch(rolls[0].roll, 1 if rolls[0].value != 1 else 6)
    b = root.branch(rolls[-1].roll, 1 if rolls[-1].value != 1 else 6)
    deeper = [e for e in a.rolls() if isinstance(e, RollEvent) and e.seq > a.replayed_from][-1]
    aa = a.branch(deeper.roll, 2 if deeper.value != 2 else 5)
    return root, a, b, aa


def test_a_tree_saves_and_loads_back_whole_at_the_current_branch(tmp_path: Path) -> None:
    root, a, b, aa = _tree()
    path = tmp_path / "tree.json"
    aa.save_tree(path)
    data = json.loads(path.read_text(encoding="utf-8"))
    assert data["version"] == TREE_VERSION and data["tree"]["current"] == [0, 0] and data["parent"] is None
    back = History.load(path)
    assert back.override == aa.override and back.to_json() == aa.to_json() and back.path() == [0, 0]
    r = back.root
    assert [c.override for c in r.children] == [a.override, b.override]
    assert [c.outcome for c in r.children] == [a.outcome, b.outcome]
    assert r.to_json() == root.to_json() and r.children[1].to_json() == b.to_json()
    assert back.tree_json() == aa.tree_json()  # the same tree gives the same bytes
    # a plain history file is still version 1, byte for byte as before
    assert json.loads(root.to_json())["version"] == VERSION and "tree" not in json.loads(root.to_json())


def test_a_tree_file_that_does_not_replay_is_refused_at_its_place(tmp_path: Path) -> None:
    _root, _a, _b, aa = _tree()
    good = aa.tree_dict()
    cases = []
    wrong_outcome = json.loads(json.dumps(good))
    wrong_outcome["tree"]["branches"][1]["outcome"]["winner"] = "nobody"
    cases.append((wrong_outcome, "tree.branches[1].outcome"))
    bad_roll = json.loads(json.dumps(good))
    bad_roll["tree"]["branches"][0]["branches"][0]["roll"] = "no/such/roll"
    cases.append((bad_roll, "tree.branches[0].branches[0]: roll id 'no/such/roll' never happens"))
    bad_current = json.loads(json.dumps(good))
    bad_current["tree"]["current"] = [0, 3]
    cases.append((bad_current, "tree.current[1]: 3 is not a branch index"))
    twice = json.loads(json.dumps(good))
    twice["tree"]["branches"].append(twice["tree"]["branches"][0])
    cases.append((twice, "appears twice"))
    extra = json.loads(json.dumps(good))
    extra["tree"]["branches"][0]["note"] = "x"
    cases.append((extra, "expected the fields roll, value, outcome and branches"))
    for data, words in cases:
        with pytest.raises(MalformedInput, match=words.replace("[", r"\[").replace("]", r"\]").replace(".", r"\.")):
            History.from_json(json.dumps(data), "t.json")


def test_medviz_branch_tree_keeps_every_branch_in_one_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from medviz.cli import main

    root = sample_battle()
    game = tmp_path / "game.json"
    root.save(game)
    rolls = [e for e in root.rolls() if isinstance(e, RollEvent)]
    tree = tmp_path / "tree.json"
    assert main(["branch", str(game), "--roll", rolls[0].roll, "--value", "1" if rolls[0].value != 1 else "6",
                 "--out", str(tree), "--tree"]) == 0
    assert main(["branch", str(tree), "--roll", rolls[-1].roll, "--value", "1" if rolls[-1].value != 1 else "6",
                 "--out", str(tree), "--tree"]) == 0
    capsys.readouterr()
    back = History.load(tree)
    assert back.path() == [0, 0] and len(back.root.children) == 1 and back.parent is not None
    assert back.override == (rolls[-1].roll, 1 if rolls[-1].value != 1 else 6)


def test_the_branch_tree_app_shows_a_loaded_tree_file_whole(tmp_path: Path) -> None:
    """A class's saved tree opens in the BranchTree app with every branch, the saved one current."""
    from medviz.apps import DiceLab
    from medviz.apps.tree import branch_tree

    _root, _a, _b, aa = _tree()
    path = tmp_path / "tree.json"
    aa.save_tree(path)
    back = History.load(path)
    lab = DiceLab(back)
    tree = branch_tree(back, lab.model)
    labels = tree.labels
    assert len(labels) == 4  # the game, two branches and a branch of a branch
    assert lab.model.current is back and lab.model.root is back.root
