"""Medieval XIII histories pinned by hash: a fixed set of seeded whole games (heuristic at every seat,
random at every seat, and a mix) must give byte-for-byte the same history JSON as commit 76d77c9, so
speed work on the rules, the heuristic and the deck bookkeeping cannot change a game (issue 12)."""

from __future__ import annotations

import hashlib

import pytest

from medviz.engine import Policy, RandomPolicy, play
from medviz.rules.medieval_xiii.players import HeuristicPolicy
from medviz.rules.medieval_xiii.ruleset import RULESET


def _players(scenario: str, seed: int, kind: str) -> dict[str, Policy]:
    seats = [s.id for s in RULESET.seats(scenario)]
    if kind == "heuristic":
        return {s: HeuristicPolicy(seed * 10 + i) for i, s in enumerate(seats)}
    if kind == "random":
        return {s: RandomPolicy(seed * 7 + i) for i, s in enumerate(seats)}
    return {s: (HeuristicPolicy(seed * 10 + i) if (seed + i) % 3 else RandomPolicy(seed * 7 + i))
            for i, s in enumerate(seats)}


#: sha256 (first 16 hex digits) of ``History.to_json()``, measured on commit 76d77c9.
PINNED = {
    ("three-players", 0, "heuristic"): "8904b2f9d59d6dd1",
    ("three-players", 1, "heuristic"): "b98f344903daa4f3",
    ("three-players", 2, "heuristic"): "ec57cf3e34b5ceb0",
    ("three-players", 3, "heuristic"): "59bc1366380646a6",
    ("three-players", 7, "heuristic"): "9c96687dcd82ff75",
    ("three-players", 4, "random"): "d26f45d4b4b937a8",
    ("three-players", 9, "random"): "df8817d116ef512f",
    ("three-players", 11, "mixed"): "fef2831e38f50662",
    ("three-players", 12, "mixed"): "b82adb179eb41baa",
    ("four-players", 0, "heuristic"): "cfe95b40f441b937",
    ("four-players", 1, "heuristic"): "935596ce6d7c6dbc",
    ("four-players", 2, "heuristic"): "68fdce14261178df",
    ("four-players", 3, "heuristic"): "f74ab97a07324f6e",
    ("four-players", 7, "heuristic"): "d051c70053c997a5",
    ("four-players", 4, "random"): "4341b829731818d5",
    ("four-players", 9, "random"): "6f7df44380c9dbc7",
    ("four-players", 11, "mixed"): "26528f14dd0e0b88",
    ("four-players", 12, "mixed"): "9e8e2e84d8e4c87e",
    ("five-players", 0, "heuristic"): "1d3883b4304fbf32",
    ("five-players", 1, "heuristic"): "6124b359adab0dc5",
    ("five-players", 2, "heuristic"): "39b34e09c4806bdc",
    ("five-players", 3, "heuristic"): "73502b6b9b7f11a6",
    ("five-players", 7, "heuristic"): "dff7d2af687899b3",
    ("five-players", 4, "random"): "ef3ed8d28967c1b4",
    ("five-players", 9, "random"): "51a27e66a5e3028d",
    ("five-players", 11, "mixed"): "c04b848f3ed4084d",
    ("five-players", 12, "mixed"): "990eede51af04e94",
}


@pytest.mark.parametrize(("scenario", "seed", "kind"), sorted(PINNED))
def test_a_seeded_game_has_the_pinned_history(scenario: str, seed: int, kind: str) -> None:
    h = play(RULESET, scenario, {}, seed=seed, players=_players(scenario, seed, kind))
    assert hashlib.sha256(h.to_json().encode()).hexdigest()[:16] == PINNED[(scenario, seed, kind)]


def test_the_fast_state_copy_is_equal_and_shares_nothing() -> None:
    """``state.copy_state`` (the snapshots' copy) gives what ``independent_copy`` gives, mutable parts unshared."""
    from medviz.engine.copying import independent_copy, shared_mutables
    from medviz.rules.medieval_xiii.state import copy_state

    h = play(RULESET, "four-players", {}, seed=3, players=_players("four-players", 3, "mixed"))
    for state in [snap.state for snap in h.snapshots[::25]] + [h.final_state]:
        copied = copy_state(state)
        assert copied == independent_copy(state) and copied is not state
        assert shared_mutables(copied, state) == []
        assert set(vars(copied)) == set(vars(state))
