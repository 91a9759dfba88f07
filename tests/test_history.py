"""Histories: determinism, JSON round trip, snapshots, branching, diff."""

from __future__ import annotations

import dataclasses
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
    ReportEvent,
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


def test_diff_names_the_first_differing_event_and_every_outcome_change(battle_opts: dict[str, object]) -> None:
    h = _play(battle_opts, seed=3)
    roll = h.rolls()[0]
    b = h.branch(roll.roll, 1 if roll.value != 1 else 6)
    d = diff(h, b)
    first = next(i for i, (x, y) in enumerate(zip(h.events, b.events)) if x != y)
    assert (d.first_divergence, d.a_event, d.b_event) == (first, h.events[first], b.events[first])
    assert first == roll.seq and d.a_event.value == roll.value and d.b_event.value != roll.value  # type: ignore[union-attr]
    assert d.outcome_changes == _flat_changes(h.outcome, b.outcome)
    back = diff(b, h)
    assert back.first_divergence == first and (back.a_event, back.b_event) == (d.b_event, d.a_event)
    assert back.outcome_changes == {k: (y, x) for k, (x, y) in d.outcome_changes.items()}


def test_diff_of_a_history_and_its_own_prefix(battle_opts: dict[str, object]) -> None:
    h = _play(battle_opts, seed=3)
    n = len(h) // 2
    short = dataclasses.replace(h, events=h.events[:n], children=[])
    d = diff(h, short)
    assert (d.first_divergence, d.a_event, d.b_event) == (n, h.events[n], None)
    assert d.outcome_changes == {} and not d.identical
    d = diff(short, h)
    assert (d.first_divergence, d.a_event, d.b_event) == (n, None, h.events[n])
    assert "They part at event %d" % n in d.summary() and "(ended)" in d.summary()


def test_diff_reports_outcome_keys_either_side_alone_has(battle_opts: dict[str, object]) -> None:
    h = _play(battle_opts, seed=3)
    more = dataclasses.replace(h, outcome={**h.outcome, "extra": {"x": 1}}, children=[])
    assert diff(h, more).outcome_changes == {"extra": (None, {"x": 1})}
    assert diff(more, h).outcome_changes == {"extra": ({"x": 1}, None)}
    assert diff(h, more).first_divergence is None and not diff(h, more).identical
    nested = dataclasses.replace(h, outcome={**h.outcome, "vp": {"A": 0, "B": 0, "C": 5}}, children=[])
    plain = dataclasses.replace(h, outcome={**h.outcome, "vp": {"A": 0, "B": 0}}, children=[])
    assert diff(plain, nested).outcome_changes == {"vp.C": (None, 5)}
    assert diff(nested, plain).outcome_changes == {"vp.C": (5, None)}
    assert diff(h, h).identical and diff(h, h).summary() == "The two histories are identical."


def _flat_changes(a: object, b: object, prefix: str = "") -> dict[str, tuple[object, object]]:
    """Every leaf that differs, by dotted path (written apart from the engine's own)."""
    if isinstance(a, dict) and isinstance(b, dict):
        out: dict[str, tuple[object, object]] = {}
        for k in sorted(set(a) | set(b), key=str):
            out.update(_flat_changes(a.get(k), b.get(k), f"{prefix}{k}."))
        return out
    return {} if a == b else {prefix.rstrip("."): (a, b)}


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
    made = {e.decision: e for e in h.decisions() if e.source != "forced"}
    assert made and {e.source for e in made.values()} == {"policy"}
    target = next(e for e in made.values() if e.legal_options > 1)
    other = next(o for o in target.options if o != target.choice)

    # A recorded choice that differs from the policy's own is taken, and labelled as recorded.
    r = play(RULESET, "battle", opts, seed=1, players=players, recorded={target.decision: (target.actor, other)})
    got = {e.decision: e for e in r.decisions()}
    assert (got[target.decision].choice, got[target.decision].source) == (other, "recorded")
    assert sum(e.source == "recorded" for e in r.decisions()) == 1
    # An illegal recorded choice is reported, then the policy decides; another actor's record is ignored.
    bad = play(RULESET, "battle", opts, seed=1, players=players,
               recorded={target.decision: (target.actor, "no such option")})
    reports = [e.data["decision"] for e in bad.events
               if isinstance(e, ReportEvent) and e.report == "recorded-choice-illegal"]
    assert reports == [target.decision]
    redo = next(e for e in bad.decisions() if e.decision == target.decision)
    assert (redo.choice, redo.source) == (target.choice, "policy")
    foreign = play(RULESET, "battle", opts, seed=1, players=players, recorded={target.decision: ("nobody", other)})
    assert foreign.to_json() == h.to_json()

    # Branches: a parent's choice is reused (with its label) wherever it is still legal for the same
    # actor; a single option is forced; everything else is the policy's.
    reused = fresh = 0
    for roll in h.rolls():
        for v in range(1, 7):
            b = h.branch(roll.roll, v)
            for e in b.decisions():
                p = made.get(e.decision)
                if e.legal_options == 1:
                    assert e.source == "forced" and e.choice == e.options[0]
                elif p is not None and p.actor == e.actor and p.choice in e.options:
                    assert (e.choice, e.source) == (p.choice, p.source), e.decision
                    reused += e.seq >= b.replayed_from
                else:
                    assert e.source == "policy", e.decision
                    fresh += 1
    assert reused > 0 and fresh > 0
    rb = r.branch(r.rolls()[-1].roll, 1 if r.rolls()[-1].value != 1 else 6)
    assert next(e for e in rb.decisions() if e.decision == target.decision).source == "recorded"


def test_an_override_of_a_roll_that_happens_is_taken_and_a_decision_id_is_not_a_roll(
        battle_opts: dict[str, object]) -> None:
    h = _play(battle_opts)
    roll = h.rolls()[0]
    other = 1 if roll.value != 1 else 6
    o = _play(battle_opts, overrides={roll.roll: other})
    taken = o.roll(roll.roll)
    assert (taken.value, taken.natural, taken.overridden) == (other, roll.value, True)  # type: ignore[union-attr]
    decision = next(e.decision for e in h.decisions())
    with pytest.raises(UnknownReference, match="never happens"):
        _play(battle_opts, overrides={decision: 1})


def test_choices_compare_by_canonical_json_and_random_players_default_to_seed_0() -> None:
    from medviz.engine.policy import canonical, parse_policy

    assert canonical({"b": 1, "a": [2, 3]}) == canonical({"a": [2, 3], "b": 1}) == '{"a":[2,3],"b":1}'
    assert RandomPolicy().seed == 0 and RandomPolicy().spec == parse_policy("random").spec


def test_chance_event_finds_each_roll_by_its_own_id_and_no_other(battle_opts: dict[str, object]) -> None:
    """The pass over the events that ``History.roll``'s index stands in for (it still resolves overrides and
    replays from a file): every roll id gives its own roll, an unknown id nothing."""
    from medviz.engine.game import chance_event

    h = _play(battle_opts)
    rolls = [e for e in h.events if isinstance(e, RollEvent)]
    assert len({r.roll for r in rolls}) >= 3 and not isinstance(h.events[0], RollEvent)
    for r in rolls:
        first = next(e for e in h.events if isinstance(e, RollEvent) and e.roll == r.roll)
        assert chance_event(h.events, r.roll) is first
        assert h.roll(r.roll) is first
    assert chance_event(h.events, "no/such/roll") is None


def test_chance_event_finds_a_card_place_in_the_first_deck_that_has_it() -> None:
    """``<shuffle>/<n>`` addresses place ``n`` (1 = top) of the first shuffle of that deck with ``n`` places; a place
    past every such deck, place 0, or a place that is not a number addresses nothing."""
    from medviz.engine.events import ShuffleEvent
    from medviz.engine.game import chance_event

    small = ShuffleEvent(seq=1, shuffle="deck", cards=("a", "b", "c"), natural=("a", "b", "c"), order=("a", "b", "c"))
    big = ShuffleEvent(seq=2, shuffle="deck", cards=tuple("abcde"), natural=tuple("abcde"), order=tuple("abcde"))
    events = [small, big]
    assert chance_event(events, "deck/1") is small and chance_event(events, "deck/3") is small
    assert chance_event(events, "deck/4") is big and chance_event(events, "deck/5") is big
    for key in ("deck/6", "deck/0", "deck/x", "deck/", "other/1"):
        assert chance_event(events, key) is None, key
