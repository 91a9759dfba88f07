"""History files refuse everything malformed, cleanly (issue 17): one MalformedInput naming the
file, the place in it and what is wrong; through the CLI one stderr line and exit status 2.

What a history file vouches for, and how each field is checked: docs/file-formats.md.
"""

from __future__ import annotations

import copy
import json
import time
from collections.abc import Callable
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from medviz.cli import main
from medviz.engine import History, MalformedInput, RandomPolicy, RollEvent, play
from medviz.engine.history import MAX_DEPTH, parse_json
from medviz.rules.medempires.odds import Doctrine
from medviz.rules.medempires.ruleset import RULESET

ROOT = Path(__file__).resolve().parent.parent
OPTS = {"attacker": "aragon:2FA,1L,1M,K2", "defender": "anjou:3FA,2L,K1"}


@cache
def _root() -> History:
    return play(RULESET, "battle", OPTS, seed=3, players={"attacker": Doctrine(), "defender": Doctrine()})


@cache
def _branch() -> History:
    h = _root()
    r = next(r for r in h.rolls() if isinstance(r, RollEvent) and r.seq > 5)
    return h.branch(r.roll, 1 if r.value != 1 else 2)


def _doc(h: History) -> dict[str, Any]:
    return json.loads(h.to_json())  # type: ignore[no-any-return]


def _first(d: dict[str, Any], kind: str, **where: Any) -> dict[str, Any]:
    return next(e for e in d["events"] if e["kind"] == kind and all(e.get(k) == v for k, v in where.items()))


def _policy_choice(d: dict[str, Any]) -> dict[str, Any]:
    return next(e for e in d["events"] if e["kind"] == "decision" and e["source"] == "policy" and e["legal_options"] > 1)


def _set(path: str, value: Any) -> Callable[[dict[str, Any]], None]:
    """A mutation: put ``value`` at a dotted path (``events.3.kind``)."""
    def mutate(d: dict[str, Any]) -> None:
        *head, last = path.split(".")
        for key in head:
            d = d[int(key)] if isinstance(d, list) else d[key]  # type: ignore[assignment]
        d[int(last) if isinstance(d, list) else last] = value  # type: ignore[index]
    return mutate


def _tamper_choice(d: dict[str, Any]) -> None:
    e = _policy_choice(d)
    e["choice"] = next(o for o in e["options"] if o != e["choice"])


def _roll_value(d: dict[str, Any]) -> None:
    e = _first(d, "roll")
    e["value"] = float(e["value"])


# (case, which history, mutation of its JSON data, words the one-line message must contain)
DATA_CASES: dict[str, tuple[str, Callable[[dict[str, Any]], None], list[str]]] = {
    "options null": ("root", _set("options", None), ["options: expected an object, got null"]),
    "replayed_from text": ("branch", _set("parent.replayed_from", "abc"),
                           ["parent.replayed_from: expected a whole number, got text"]),
    "kind a list": ("root", _set("events.3.kind", ["roll"]), ["events[3].kind: expected text, got a list"]),
    "kind unknown": ("root", _set("events.3.kind", "dance"), ["events[3].kind: unknown event kind 'dance'"]),
    "event null": ("root", _set("events.0", None), ["events[0]: expected an object, got null"]),
    "faces of text": ("root", lambda d: _first(d, "roll").__setitem__("faces", ["a"]),
                      ["faces: expected a list of whole numbers"]),
    "seq a number": ("root", _set("events.2.seq", 2.0), ["events[2].seq: expected a whole number, got a number"]),
    "seq out of order": ("root", _set("events.2.seq", 7), ["events[2].seq: is 7"]),
    "data null": ("root", _set("events.0.data", None), ["events[0].data: expected an object, got null"]),
    "roll value 1.0": ("root", _roll_value, ["value: expected a whole number, got a number"]),
    "seed true": ("root", _set("seed", True), ["seed: expected a whole number, got true/false"]),
    "seed negative": ("root", _set("seed", -1), ["seed: -1 must be >= 0"]),
    "version true": ("root", _set("version", True), ["version: history version True is not supported"]),
    "format": ("root", _set("format", "pgn"), ["format: not a medviz history"]),
    "game a list": ("root", _set("game", ["medempires"]), ["game: expected text, got a list"]),
    "game unknown": ("root", _set("game", "chess"), ["game: unknown game 'chess'"]),
    "scenario unknown": ("root", _set("scenario", "agincourt"), ["scenario: unknown scenario 'agincourt'"]),
    "extra field": ("root", _set("comment", "hi"), ["unexpected field(s) ['comment']"]),
    "missing events": ("root", lambda d: d.pop("events"), ["missing field 'events'"]),
    "players a number": ("root", _set("players.attacker", 5), ["players.attacker: expected text, got a whole number"]),
    "players unknown": ("root", _set("players.attacker", "grandmaster"), ["players.attacker: unknown policy"]),
    "players not canonical": ("root", _set("players.attacker", "random:007"),
                              ["players.attacker: 'random:007' is not how medviz writes", "'random:7'"]),
    "players bad setting": ("root", _set("players.attacker", "doctrine:initiative_markers=x"),
                            ["players.attacker: policy 'doctrine:initiative_markers=x'"]),
    "players missing an actor": ("root", lambda d: d["players"].pop("defender"),
                                 ["players: expected one for each of attacker, defender"]),
    "a policy's choice edited": ("root", _tamper_choice, ["the events do not replay", "choice is"]),
    "human label, no human seat": ("root", lambda d: _policy_choice(d).__setitem__("source", "human"),
                                   ["source: 'human', but players.", "not a human seat"]),
    "forced label with options": ("root", lambda d: _policy_choice(d).__setitem__("source", "forced"),
                                  ["source: 'forced' with"]),
    "source unknown": ("root", lambda d: _policy_choice(d).__setitem__("source", "oracle"),
                       ["source: 'oracle' is not one of"]),
    "outcome edited": ("root", _set("outcome.winner", "defender?"), ["outcome: does not match", "winner is"]),
    "outcome a list": ("root", _set("outcome", []), ["outcome: expected an object, got a list"]),
    "events cut short": ("root", lambda d: d["events"].pop(), ["the replay goes on past the file's last event"]),
    "event added": ("root", lambda d: d["events"].append(dict(d["events"][-1], seq=len(d["events"]))),
                    ["the file has"]),
    "override out of range": ("root", _set("overrides", {"battle-1/combat-1/round-1/attacker": 99}),
                              ["value 99 is impossible on 1d6"]),
    "override never happens": ("root", _set("overrides", {"fake": 3}), ["overrides.fake: roll id 'fake' never happens"]),
    "override a list": ("root", _set("overrides", {"fake": [3]}), ["overrides.fake: expected a whole number or text"]),
    "parent roll fake": ("branch", _set("parent.override.roll", "fake"),
                         ["parent.override.roll: roll id 'fake' never happens"]),
    "parent value 99": ("branch", _set("parent.override.value", 99), ["parent.override:", "= 99 is not among the overrides"]),
    "parent value a list": ("branch", _set("parent.override.value", [1]),
                            ["parent.override.value: expected a whole number or text, got a list"]),
    "parent replayed_from wrong": ("branch", lambda d: d["parent"].__setitem__("replayed_from", d["parent"]["replayed_from"] + 1),
                                   ["parent.replayed_from: ", ", but a branch of"]),
    "parent extra field": ("branch", _set("parent.note", 1), ["parent: expected the fields override and replayed_from"]),
    "parent a list": ("branch", _set("parent", []), ["parent: expected an object or null, got a list"]),
    "options unusable": ("root", _set("options.attacker", ["aragon"]), ["battle options: 'attacker' must be a force SPEC"]),
}


@pytest.mark.parametrize("case", sorted(DATA_CASES))
def test_malformed_history_is_one_line_naming_file_and_place(case: str) -> None:
    which, mutate, needles = DATA_CASES[case]
    d = _doc(_root() if which == "root" else _branch())
    mutate(d)
    with pytest.raises(MalformedInput) as exc:
        History.from_json(json.dumps(d), "game.json")
    message = str(exc.value)
    assert message.startswith("game.json: ") and "\n" not in message, message
    for needle in needles:
        assert needle in message, message


TEXT_CASES: dict[str, tuple[Callable[[str], str], list[str]]] = {
    "huge int": (lambda t: t.replace('"seed":3', '"seed":' + "9" * 5000, 1),
                 ["line 1, column ", "a number with more than 4300 digits"]),
    "NaN": (lambda t: t.replace('"seed":3', '"seed":NaN', 1), ["NaN is not a finite number"]),
    "infinity": (lambda t: t.replace('"seed":3', '"seed":1e999', 1), ["1e999 is not a finite number"]),
    "nesting 500 deep": (lambda t: t.replace('"options":{', '"options":{"x":' + "[" * 500 + "]" * 500 + ",", 1),
                         ["nested deeper than 200 levels"]),
    "100k-deep array": (lambda t: "[" * 100_000 + "]" * 100_000, ["line 1, column 201: nested deeper"]),
    "100k-deep, cut": (lambda t: "[" * 100_000, ["nested deeper than 200 levels"]),
    "truncated": (lambda t: t[: len(t) // 2], ["not valid JSON", "truncated?"]),
    "not an object": (lambda t: "[1, 2]", ["expected a JSON object at the top level, got a list"]),
    "empty": (lambda t: "", ["line 1, column 1: not valid JSON"]),
}


@pytest.mark.parametrize("case", sorted(TEXT_CASES))
def test_malformed_json_text_is_one_line_with_its_position(case: str) -> None:
    change, needles = TEXT_CASES[case]
    started = time.perf_counter()
    with pytest.raises(MalformedInput) as exc:
        History.from_json(change(_root().to_json()), "game.json")
    assert time.perf_counter() - started < 2
    message = str(exc.value)
    assert message.startswith("game.json: ") and "\n" not in message, message
    for needle in needles:
        assert needle in message, message


def test_nesting_limit_is_exact() -> None:
    assert parse_json("[" * MAX_DEPTH + "]" * MAX_DEPTH, "f.json") == parse_json("[" * MAX_DEPTH + "]" * MAX_DEPTH)
    with pytest.raises(MalformedInput, match=r"f.json: line 1, column 201: nested deeper than 200"):
        parse_json("[" * (MAX_DEPTH + 1) + "]" * (MAX_DEPTH + 1), "f.json")
    # brackets inside strings are not nesting
    assert parse_json(json.dumps({"prompt": "[" * 1000}))["prompt"] == "[" * 1000


def test_old_and_new_versions_are_named() -> None:
    for version, words in ((0, "it is an older format"), (3, "saved by a newer medviz")):
        d = _doc(_root())
        d["version"] = version
        with pytest.raises(MalformedInput, match=f"version {version} is not supported .*{words}"):
            History.from_dict(d, "old.json")
    d = _doc(_root())
    d["version"] = 2  # a branch tree without its tree
    with pytest.raises(MalformedInput, match="tree: expected an object with branches and current"):
        History.from_dict(d, "tree.json")


def test_current_files_still_load_byte_for_byte(tmp_path: Path) -> None:
    example = ROOT / "examples" / "battle-seed3.json"
    assert History.load(example).to_json() == example.read_text(encoding="utf-8")
    for h in (_root(), _branch()):
        path = tmp_path / "h.json"
        h.save(path)
        back = History.load(path)
        assert back.to_json() == h.to_json() and back.override == h.override
        assert back.replayed_from == h.replayed_from


def test_a_branch_keeps_only_overrides_whose_rolls_happen() -> None:
    """A branch of a branch drops an earlier override whose roll the new change removed, so the
    saved file's overrides all happen (which the loader requires)."""
    found = None
    for seed in range(30):
        h = play(RULESET, "battle", dict(OPTS, ops=4), seed=seed,
                 players={"attacker": RandomPolicy(seed), "defender": RandomPolicy(seed + 1)})
        rolls = [r for r in h.rolls() if isinstance(r, RollEvent) and r.dice == "1d6"]
        late = rolls[-1]
        a = h.branch(late.roll, 1 if late.value != 1 else 2)
        for early in rolls[:3]:
            for value in range(1, 7):
                b = a.branch(early.roll, value)
                if all(getattr(e, "roll", None) != late.roll for e in b.events):
                    found = (a, b, late.roll)
                    break
            if found:
                break
        if found:
            break
    assert found, "no branch of a branch removed the earlier changed roll"
    a, b, late_id = found
    assert late_id in a.to_dict()["overrides"] and late_id not in b.to_dict()["overrides"]
    assert History.from_json(b.to_json()).to_json() == b.to_json()


# -- through the CLI: one stderr line, exit status 2, no traceback --------------------------------
BAD_FILES: dict[str, Callable[[dict[str, Any]], None]] = {
    "options-null": _set("options", None),
    "kind-list": _set("events.3.kind", ["roll"]),
    "fake-parent": _set("parent.override.roll", "fake"),
    "parent-value": _set("parent.override.value", 99),
    "replayed-from": _set("parent.replayed_from", "abc"),
}


def _bad_file(tmp_path: Path, case: str) -> Path:
    d = _doc(_branch())
    BAD_FILES[case](d)
    path = tmp_path / f"{case}.json"
    path.write_text(json.dumps(d), encoding="utf-8")
    return path


def _one_error_line(capsys: pytest.CaptureFixture[str], path: Path) -> str:
    err = capsys.readouterr().err
    assert "Traceback" not in err
    lines = err.splitlines()
    assert len(lines) == 1 and lines[0].startswith(f"medviz: error: {path}: "), err
    return lines[0]


@pytest.mark.parametrize("case", sorted(BAD_FILES))
def test_cli_branch_refuses_a_bad_history(tmp_path: Path, capsys: pytest.CaptureFixture[str], case: str) -> None:
    path = _bad_file(tmp_path, case)
    roll = _root().rolls()[0].roll  # type: ignore[union-attr]
    assert main(["branch", str(path), "--roll", str(roll), "--value", "2"]) == 2
    _one_error_line(capsys, path)


@pytest.mark.parametrize("case", ["fake-parent", "parent-value", "kind-list"])
def test_cli_export_writes_no_page_for_a_bad_history(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                     case: str) -> None:
    path = _bad_file(tmp_path, case)
    page = tmp_path / "replay.html"
    assert main(["export", str(path), "--html", str(page)]) == 2
    _one_error_line(capsys, path)
    assert not page.exists()


def test_cli_refuses_deep_and_huge_json(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    for name, text in (("deep.json", "[" * 100_000 + "]" * 100_000),
                       ("huge.json", _root().to_json().replace('"seed":3', '"seed":' + "7" * 10_000))):
        path = tmp_path / name
        path.write_text(text, encoding="utf-8")
        assert main(["branch", str(path), "--roll", "x", "--value", "1"]) == 2
        line = _one_error_line(capsys, path)
        assert "line 1, column" in line


def test_unmutated_data_is_accepted() -> None:
    """The mutations above are what is refused: the same files unmutated load."""
    for h in (_root(), _branch()):
        d = copy.deepcopy(_doc(h))
        assert History.from_json(json.dumps(d, ensure_ascii=False, separators=(",", ":")) + "\n").to_json() == h.to_json()
