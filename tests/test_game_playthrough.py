"""Whole games: seeded play-throughs with invariants after every change, determinism, JSON, branches.

The normal suite plays a few games per scenario and policy and checks every invariant after
every change event (replaying the reducer from set-up, as ``History.state_at`` does); the
1,000-game runs of issue 3 are marked ``slow``.
"""

from __future__ import annotations

import json
import multiprocessing
import os
from concurrent.futures import ProcessPoolExecutor

import pytest
from trust import own_value_mismatches, snapshot_mismatches

from medviz.engine import History, RandomPolicy, diff, play
from medviz.engine.events import ChangeEvent, DrawEvent, RollEvent
from medviz.rules.medempires.game.invariants import replay_states, setup_violations, violations
from medviz.rules.medempires.game.players import Heuristic
from medviz.rules.medempires.game.turn import victory_points
from medviz.rules.medempires.ruleset import RULESET

SCENARIOS = ("standard", "vespers-1282")


def _players(kind: str, seed: int) -> dict[str, object]:
    if kind == "heuristic":
        return {"A": Heuristic(), "B": Heuristic()}
    if kind == "mixed":
        return {"A": Heuristic(), "B": RandomPolicy(seed)} if seed % 2 else {"A": RandomPolicy(seed), "B": Heuristic()}
    return {"A": RandomPolicy(seed), "B": RandomPolicy(seed + 1000)}


def check_game(scenario: str, seed: int, kind: str, options: dict[str, bool] | None = None) -> History:
    """Play one game and check every invariant after every change event."""
    h = play(RULESET, scenario, options or {}, seed=seed, players=_players(kind, seed))  # type: ignore[arg-type]
    last = None
    for e, s in replay_states(scenario, options or {}, h.events):
        if not isinstance(e, ChangeEvent):
            continue
        at_turn_end = (e.change == "turn-begins" and s.turn > 1) or e.change == "game-ends"
        problems = violations(s, stacking=at_turn_end)
        if e.change == "setup-done":
            problems += setup_violations(s)
        assert not problems, f"{scenario} seed {seed} ({kind}) after event {e.seq} {e.change}: {problems}"
        last = s
    assert last is not None and last.finished
    assert last.units == h.final_state.units and last.ctl == h.final_state.ctl
    assert h.final_state.force is None and h.final_state.battle is None
    o = h.outcome
    assert o["winner"] in ("A", "B", "draw") and set(o["vp"]) == {"A", "B"}
    assert set(o["control"]) == set(h.final_state.ctl) and o["reason"]
    if scenario == "standard":
        assert o["vp"] == victory_points(h.final_state)
    return h


@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("kind", ["random", "heuristic", "mixed"])
def test_vespers_games_keep_every_invariant(kind: str, seed: int) -> None:
    check_game("vespers-1282", seed, kind)


@pytest.mark.parametrize("seed", range(2))
@pytest.mark.parametrize("kind", ["random", "heuristic", "mixed"])
def test_standard_games_keep_every_invariant(kind: str, seed: int) -> None:
    check_game("standard", seed, kind)


@pytest.mark.parametrize("scenario,seed,kind", [("vespers-1282", 5, "random"), ("standard", 300, "random"),
                                                 ("vespers-1282", 300, "heuristic")])
def test_optional_rules_play_through(scenario: str, seed: int, kind: str) -> None:
    opts = {"mercenaries": True, "poison": True, "territorial_concessions": True,
            "vespers_taken_at_game_end": True, "coastal_raids_need_mercenaries_rule": True}
    h = check_game(scenario, seed, kind, opts)
    assert h.spec.options == opts


def test_many_games_run_to_the_end() -> None:
    """Twenty more games per scenario without the per-event replay (outcome contract only)."""
    for sc in SCENARIOS:
        for seed in range(10, 20 if sc == "vespers-1282" else 14):
            for kind in ("random", "heuristic"):
                h = play(RULESET, sc, {}, seed=seed, players=_players(kind, seed))  # type: ignore[arg-type]
                assert h.outcome["winner"] in ("A", "B", "draw")
                assert violations(h.final_state, stacking=True) == []


def test_determinism_same_seed_same_bytes() -> None:
    a = play(RULESET, "vespers-1282", {}, seed=7, players=_players("mixed", 7))  # type: ignore[arg-type]
    b = play(RULESET, "vespers-1282", {}, seed=7, players=_players("mixed", 7))  # type: ignore[arg-type]
    assert a.to_json() == b.to_json()
    c = play(RULESET, "vespers-1282", {}, seed=8, players=_players("mixed", 7))  # type: ignore[arg-type]
    assert c.to_json() != a.to_json()


def test_json_round_trip_and_state_at() -> None:
    h = play(RULESET, "vespers-1282", {}, seed=3, players=_players("heuristic", 3))  # type: ignore[arg-type]
    text = h.to_json()
    back = History.from_json(text)
    assert back.to_json() == text and back.outcome == h.outcome
    d = json.loads(text)
    assert d["players"] == {"A": "heuristic", "B": "heuristic"}
    # state_at agrees with a replay of the reducer at a few points
    states = {e.seq: s.copy() for e, s in replay_states("vespers-1282", {}, h.events) if e.seq % 397 == 0}
    for seq, s in states.items():
        got = h.state_at(seq)
        assert got.units == s.units and got.tp == s.tp and got.ctl == s.ctl and got.kings == s.kings


def test_branch_a_die_and_a_draw_on_a_whole_game() -> None:
    h = play(RULESET, "vespers-1282", {}, seed=4, players=_players("heuristic", 4))  # type: ignore[arg-type]
    ops = [e for e in h.rolls() if isinstance(e, RollEvent) and e.roll.endswith("/ops")][0]
    other = 2 if ops.value != 2 else 12
    child = h.branch(ops.roll, other)
    assert child.roll(ops.roll).value == other and child.roll(ops.roll).overridden
    assert child.replayed_from <= ops.seq
    assert diff(h, child).first_divergence is not None
    draw = [e for e in h.rolls() if isinstance(e, DrawEvent) and "/stratagems/" in e.draw][1]
    alt = next(m for m in sorted(set(draw.pool)) if m != draw.value)
    child2 = h.branch(draw.draw, alt)
    assert child2.roll(draw.draw).value == alt
    # the branch round-trips through JSON too
    again = History.from_json(child2.to_json())
    assert again.to_json() == child2.to_json()


def test_heuristic_beats_random_on_a_small_sample() -> None:
    """The measured rates (500+ games) are in docs/rules-coverage.md; here a quick check."""
    wins = 0
    n = 12
    for seed in range(n):
        h = play(RULESET, "vespers-1282", {}, seed=100 + seed,
                 players={"A": Heuristic(), "B": RandomPolicy(seed)})
        wins += h.outcome["winner"] == "A"
        h = play(RULESET, "vespers-1282", {}, seed=200 + seed,
                 players={"A": RandomPolicy(seed), "B": Heuristic()})
        wins += h.outcome["winner"] == "B"
    assert wins >= n  # random Aragon never takes Malta; heuristic Aragon often does


def _check_block(job: tuple[str, str, int, int]) -> int:
    """Worker: check games ``first..last-1`` (runs in a child process)."""
    scenario, kind, first, last = job
    for seed in range(first, last):
        h = check_game(scenario, seed, kind)
        # Issue 17 in every game: a sampled roll (a draw in every third game) re-set to its own
        # value, and every snapshot against the fold of its events.
        rolls = [e for e in h.rolls() if isinstance(e, RollEvent)]
        draws = [e for e in h.rolls() if isinstance(e, DrawEvent)]
        picked = [draws[seed % len(draws)]] if draws and seed % 3 == 0 else [rolls[seed % len(rolls)]]
        assert own_value_mismatches(h, picked) == [], f"{scenario} seed {seed} ({kind})"
        assert snapshot_mismatches(h) == [], f"{scenario} seed {seed} ({kind})"
    return last - first


@pytest.mark.slow
@pytest.mark.skipif(not os.environ.get("MEDVIZ_SLOW"),
                    reason="1,000-game runs: set MEDVIZ_SLOW=1 (CI does; about 25 min on 2 cores)")
@pytest.mark.parametrize("scenario", SCENARIOS)
@pytest.mark.parametrize("kind", ["random", "heuristic"])
def test_thousand_games(scenario: str, kind: str) -> None:
    """Issue 3: 1,000 seeded games per scenario and player kind, invariants after every change.

    The games are independent, so they run on every core this process may use (fresh "spawn"
    workers: forking a test process that has run browser tests, with their threads, could hang),
    in blocks of 25 seeds; a failure names the scenario, seed and event.
    """
    games = int(os.environ.get("MEDVIZ_GAMES", "1000"))  # fewer for a quick local look; CI plays 1,000
    jobs = [(scenario, kind, first, min(first + 25, games)) for first in range(0, games, 25)]
    ctx = multiprocessing.get_context("spawn")
    with ProcessPoolExecutor(max_workers=max(1, len(os.sched_getaffinity(0))), mp_context=ctx) as pool:
        assert sum(pool.map(_check_block, jobs)) == games


def test_historical_player_steers_toward_1282() -> None:
    """Peter III sails to Sicily in GT1 and France attacks Rosselló/Catalonia, where the dice allow."""
    from medviz.rules.medempires.game.players import Historical

    landed = french_attacks = 0
    n = 6
    for seed in range(n):
        h = check_game_with(Historical(), seed)
        ev = [e for e in h.events if isinstance(e, ChangeEvent) and e.turn == 1]
        landed += any(e.change == "debarked" and e.data.get("king") and str(e.data["to"]).startswith("sicily")
                      for e in ev)
        french_attacks += any(e.change == "battle-closed" and e.data["summary"]["area"] in ("rossello", "catalan_counties")
                              for e in ev)
    assert landed >= n // 2 and french_attacks >= n // 2
    assert h.to_dict()["players"] == {"A": "historical", "B": "historical"}


def check_game_with(policy: object, seed: int) -> History:
    h = play(RULESET, "vespers-1282", {}, seed=seed, players={"A": policy, "B": policy})  # type: ignore[arg-type]
    assert violations(h.final_state, stacking=True) == []
    return h
