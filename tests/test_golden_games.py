"""Golden whole games: a fresh play of each pinned game gives the committed bytes.

tests/golden/<scenario>-seed-<n>.json.gz holds ``History.to_json()`` of a whole game between two
heuristic players (written by tools/pin_golden.py). A rule, data, player or engine change that
alters a real game fails here, naming the first event where the games part. If the change is
meant, regenerate with the tool and give the reason in the commit; never to turn a test green.
(The battle scenario is pinned by examples/battle-seed3.json, which ``History.load`` replays.)
"""

from __future__ import annotations

import dataclasses
import importlib.util
import json
from pathlib import Path
from types import ModuleType

import pytest

from medviz.engine import History, diff
from medviz.engine.events import RollEvent, event_from_dict

ROOT = Path(__file__).resolve().parent.parent


def _tool() -> ModuleType:
    spec = importlib.util.spec_from_file_location("pin_golden", ROOT / "tools" / "pin_golden.py")
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


PIN = _tool()
GAMES = PIN.pinned_games()


def _describe(h: History, e: object) -> str:
    if e is None:
        return "(the game has ended)"
    try:
        return h.describe(e)  # type: ignore[arg-type]
    except Exception:  # an event the current rules no longer know how to word
        return repr(e.to_dict())  # type: ignore[attr-defined]


def mismatch(pinned_text: str, fresh: History) -> str | None:
    """None when ``fresh`` is byte-identical to the pinned text; else what differs, in words."""
    text = fresh.to_json()
    if text == pinned_text:
        return None
    data = json.loads(pinned_text)
    events = tuple(event_from_dict(e, f"golden events[{i}]") for i, e in enumerate(data["events"]))
    pinned = dataclasses.replace(fresh, events=events, outcome=data["outcome"], children=[], parent=None)
    d = diff(pinned, fresh)
    lines = [f"the game no longer plays as pinned ({len(events)} events pinned, {len(fresh)} now)"]
    if d.first_divergence is not None:
        lines += [f"first differing event: {d.first_divergence}",
                  f"  pinned: {_describe(fresh, d.a_event)}",
                  f"  now:    {_describe(fresh, d.b_event)}"]
        if d.a_event is not None and d.b_event is not None:
            a, b = d.a_event.to_dict(), d.b_event.to_dict()
            fields = {k: (a.get(k), b.get(k)) for k in sorted(set(a) | set(b)) if a.get(k) != b.get(k)}
            lines.append(f"  fields that differ: {fields!r:.600}")
    changes = [f"  outcome {k}: {x!r} -> {y!r}" for k, (x, y) in d.outcome_changes.items()]
    lines += changes[:12] + ([f"  ... and {len(changes) - 12} more outcome changes"] if len(changes) > 12 else [])
    if d.identical:
        lines.append("events and outcome agree; another field of the saved JSON differs")
    lines.append("If this change of play is intended, run `.venv/bin/python tools/pin_golden.py` and say "
                 "in the commit why the games changed.")
    return "\n".join(lines)


def test_one_game_of_each_whole_game_scenario_is_pinned() -> None:
    assert {(s, n) for s, n, _ in GAMES} >= set(PIN.DEFAULT)
    for _, _, path in GAMES:
        assert path.stat().st_size < 200_000, path  # gzip keeps a ~1,500-event game near 35 kB


@pytest.mark.parametrize(("scenario", "seed", "path"), GAMES, ids=[p.name for _, _, p in GAMES])
def test_a_fresh_play_gives_the_pinned_bytes(scenario: str, seed: int, path: Path) -> None:
    pinned = PIN.read_pinned(path)
    fresh = PIN.fresh_game(scenario, seed)
    problem = mismatch(pinned, fresh)
    assert problem is None, f"{path.name}: {problem}"
    assert PIN.compress(fresh.to_json()) == path.read_bytes()  # the tool writes these very bytes


def test_a_changed_game_is_reported_at_its_first_differing_event() -> None:
    scenario, seed, path = GAMES[0]
    fresh = PIN.fresh_game(scenario, seed)
    data = json.loads(PIN.read_pinned(path))
    k = next(i for i, e in enumerate(data["events"]) if e["kind"] == "roll" and e["dice"] == "2d6")
    roll = fresh.events[k]
    assert isinstance(roll, RollEvent)
    data["events"][k]["value"] = 2 if roll.value != 2 else 12
    edited = json.dumps(data, ensure_ascii=False, separators=(",", ":")) + "\n"
    problem = mismatch(edited, fresh)
    assert problem is not None and f"first differing event: {k}\n" in problem
    assert f"now:    {fresh.describe(roll)}" in problem and "tools/pin_golden.py" in problem
    shorter = dict(data, events=json.loads(PIN.read_pinned(path))["events"][:-5])
    problem = mismatch(json.dumps(shorter, ensure_ascii=False, separators=(",", ":")) + "\n", fresh)
    assert problem is not None and f"first differing event: {len(fresh) - 5}\n" in problem
    assert "pinned: (the game has ended)" in problem
