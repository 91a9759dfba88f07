"""Histories: determinism, JSON round trip, snapshots, branching, diff."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from medviz.engine import (
    FORMAT,
    ChangeEvent,
    History,
    MalformedInput,
    RandomPolicy,
    RollEvent,
    UnknownReference,
    diff,
    play,
)
from medviz.rules.medempires.odds import Doctrine
from medviz.rules.medempires.ruleset import RULESET

DOC = Doctrine()


def _play(opts: dict[str, object], seed: int = 3, **kw: object) -> History:
    players = kw.pop("players", {"attacker": DOC, "defender": DOC})
    return play(RULESET, "battle", opts, seed=seed, players=players, **kw)  # type: ignore[arg-type]


def test_same_seed_same_bytes(battle_opts: dict[str, object]) -> None:
    assert _play(battle_opts).to_json() == _play(battle_opts).to_json()


def test_same_bytes_across_processes_with_different_hash_seeds(battle_opts: dict[str, object]) -> None:
    code = (
        "import json,sys\n"
        "from medviz.engine import play\n"
        "from medviz.rules.medempires.ruleset import RULESET\n"
        "from medviz.engine.policy import RandomPolicy\n"
        f"opts = {battle_opts!r}\n"
        "h = play(RULESET, 'battle', dict(opts, ops=6), seed=11, players={'attacker': RandomPolicy(1), 'defender': RandomPolicy(2)})\n"
        "sys.stdout.write(h.to_json())\n"
    )
    outs = set()
    for hash_seed in ("0", "1", "12345"):
        env = dict(os.environ, PYTHONHASHSEED=hash_seed)
        outs.add(subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True,
                                check=True).stdout)
    assert len(outs) == 1


def test_history_contract_fields(battle_opts: dict[str, object]) -> None:
    d = json.loads(_play(battle_opts).to_json())
    assert d["format"] == FORMAT and isinstance(d["version"], int)
    for key in ("game", "scenario", "seed", "options", "parent", "events", "outcome"):
        assert key in d
    assert d["parent"] is None
    assert [e["seq"] for e in d["events"]] == list(range(len(d["events"])))
    rolls = [e for e in d["events"] if e["kind"] == "roll"]
    assert rolls and all({"roll", "dice", "value", "natural", "overridden"} <= set(e) for e in rolls)
    decisions = [e for e in d["events"] if e["kind"] == "decision"]
    assert decisions and all({"decision", "actor", "choice", "legal_options"} <= set(e) for e in decisions)
    assert any(e.get("automatic") for e in d["events"])


@pytest.mark.parametrize("seed", range(12))
def test_json_round_trip_is_exact(battle_opts: dict[str, object], seed: int) -> None:
    h = _play(dict(battle_opts, ops=4), seed=seed,
              players={"attacker": RandomPolicy(seed), "defender": RandomPolicy(seed + 100)})
    again = History.from_json(h.to_json())
    assert again.to_json() == h.to_json()
    assert again.events == h.events


def test_unknown_version_is_rejected(battle_opts: dict[str, object]) -> None:
    d = json.loads(_play(battle_opts).to_json())
    d["version"] = 99
    with pytest.raises(MalformedInput, match="version 99 is not supported"):
        History.from_dict(d)


def test_truncated_and_edited_files_are_rejected(battle_opts: dict[str, object], tmp_path: Path) -> None:
    text = _play(battle_opts).to_json()
    with pytest.raises(MalformedInput, match="truncated"):
        History.from_json(text[: len(text) // 2])
    d = json.loads(text)
    roll = next(e for e in d["events"] if e["kind"] == "roll")
    roll["value"] = 7 - roll["value"] if roll["value"] != 3.5 else 1
    with pytest.raises(MalformedInput, match="do not replay"):
        History.from_dict(d)
    with pytest.raises(MalformedInput, match="not found"):
        History.load(tmp_path / "missing.json")


def test_state_at_matches_a_fold_of_change_events(battle_opts: dict[str, object]) -> None:
    h = _play(dict(battle_opts, ops=6), seed=5,
              players={"attacker": RandomPolicy(1), "defender": RandomPolicy(2)})
    final = h.state_at(len(h) - 1)
    assert final.battle.sides["attacker"].units == h.final_state.battle.sides["attacker"].units
    assert final.battle.sides["defender"].units == h.final_state.battle.sides["defender"].units
    start = h.state_at(-1).battle
    total = {s: sum(start.sides[s].units.values()) for s in ("attacker", "defender")}
    for seq in range(len(h)):
        b = h.state_at(seq).battle
        eliminated = sum(1 for e in h.events[: seq + 1]
                         if isinstance(e, ChangeEvent) and e.change == "battle-eliminate")
        assert sum(b.sides["attacker"].units.values()) + sum(b.sides["defender"].units.values()) \
            == total["attacker"] + total["defender"] - eliminated


def test_branch_with_the_original_value_is_identical(battle_opts: dict[str, object]) -> None:
    h = _play(battle_opts)
    for r in h.rolls():
        b = h.branch(r.roll, r.value)
        assert b.events == h.events and b.outcome == h.outcome
        assert b.parent is h and b.override == (r.roll, r.value)


def test_branching_one_roll_keeps_every_other_natural_value() -> None:
    opts = {"attacker": "aragon:3FA,2L,K2", "defender": "anjou:3FA,3L,K1", "ops": 6}
    players = {"attacker": RandomPolicy(4), "defender": RandomPolicy(5)}
    for seed in range(20):
        h = play(RULESET, "battle", opts, seed=seed, players=players)
        first = h.rolls()[0]
        for value in range(1, 7):
            b = h.branch(first.roll, value)
            parent_natural = {r.roll: r.natural for r in h.rolls() if isinstance(r, RollEvent)}
            for r in b.rolls():
                if r.roll in parent_natural:
                    assert r.natural == parent_natural[r.roll], r.roll
            assert b.roll(first.roll).value == value


def test_branch_reruns_from_the_latest_snapshot(battle_opts: dict[str, object]) -> None:
    h = _play(dict(battle_opts, ops=6), seed=2, players={"attacker": RandomPolicy(1), "defender": RandomPolicy(3)})
    last = h.rolls()[-1]
    b = h.branch(last.roll, 1 if last.value != 1 else 6)
    assert 0 < b.replayed_from <= last.seq
    assert b.events[: b.replayed_from] == h.events[: b.replayed_from]


def test_branches_form_a_tree_and_diff_reports(battle_opts: dict[str, object]) -> None:
    h = _play(battle_opts, seed=3)
    roll = h.rolls()[-1]
    other = 1 if roll.value != 1 else 6
    b = h.branch(roll.roll, other)
    assert h.branch(roll.roll, other) is b and h.children == [b] and b.root is h
    c = b.branch(b.rolls()[0].roll, 6)
    assert c.lineage() == [h, b, c]
    d = diff(h, b)
    assert d.first_divergence == roll.seq and not d.identical
    assert d.outcome_changes or d.a_event != d.b_event
    assert diff(h, h).identical
    data = json.loads(b.to_json())
    assert data["parent"]["override"] == {"roll": roll.roll, "value": other}
    assert data["overrides"] == {roll.roll: other}


def test_branch_refuses_bad_requests(battle_opts: dict[str, object]) -> None:
    h = _play(battle_opts)
    with pytest.raises(UnknownReference, match="never happens"):
        h.branch("battle-1/combat-9/round-1/attacker", 3)
    with pytest.raises(MalformedInput, match="impossible"):
        h.branch(h.rolls()[0].roll, 7)


def test_override_of_a_roll_that_never_happens(battle_opts: dict[str, object]) -> None:
    with pytest.raises(UnknownReference, match="never happens"):
        _play(battle_opts, overrides={"battle-1/combat-1/round-7/attacker": 2})


def test_recorded_decisions_are_reused_then_policy_decides() -> None:
    opts = {"attacker": "aragon:2FA,2L", "defender": "anjou:2FA,2L", "ops": 4}
    players = {"attacker": RandomPolicy(1), "defender": RandomPolicy(2)}
    h = play(RULESET, "battle", opts, seed=1, players=players)
    for r in h.rolls():
        for v in range(1, 7):
            b = h.branch(r.roll, v)
            for e in b.decisions():
                assert e.source in ("policy", "forced", "recorded")
