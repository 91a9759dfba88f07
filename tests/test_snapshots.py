"""Trustworthy branches (issue 17): snapshots are independent copies, and a die or draw re-set to
its own value never changes a game.

``make test`` checks a sample: a few whole games per scenario (varied players and options), the
own-value branch of rolls and draws spread over each game, and every snapshot of each game.
CI's long run (``MEDVIZ_SLOW=1``) checks every roll and draw of 20 games per scenario; the
1,000-game runs (test_game_playthrough.py) sample rolls of every game too.
"""

from __future__ import annotations

import multiprocessing
import os
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field

import pytest
from trust import own_value_mismatches, sample, snapshot_mismatches

from medviz.engine import DrawEvent, RandomPolicy, RollEvent, play
from medviz.engine.copying import independent_copy, shared_mutables
from medviz.rules.medempires.game.players import Heuristic, Historical
from medviz.rules.medempires.ruleset import RULESET

SLOW = bool(os.environ.get("MEDVIZ_SLOW"))

OPTIONAL = {"mercenaries": True, "poison": True, "territorial_concessions": True,
            "coastal_raids_need_mercenaries_rule": True}


def _game(scenario: str, seed: int):  # type: ignore[no-untyped-def]
    """A whole game whose players and options vary with the seed."""
    kinds = seed % 4
    if kinds == 0:
        players = {"A": Heuristic(), "B": Heuristic()}
    elif kinds == 1:
        players = {"A": RandomPolicy(seed), "B": RandomPolicy(seed + 1000)}
    elif kinds == 2:
        players = {"A": Heuristic(), "B": RandomPolicy(seed)}
    else:
        players = {"A": Historical(), "B": Historical()} if scenario == "vespers-1282" else \
            {"A": RandomPolicy(seed), "B": Heuristic()}
    options = OPTIONAL if seed % 3 == 2 else {}
    return play(RULESET, scenario, options, seed=seed, players=players)  # type: ignore[arg-type]


def _check(job: tuple[str, int, int | None]) -> list[str]:
    """Worker: every problem with one game (own-value branches of ``n`` sampled rolls, snapshots)."""
    scenario, seed, n = job
    h = _game(scenario, seed)
    rolls = [e for e in h.rolls() if isinstance(e, RollEvent)]
    draws = [e for e in h.rolls() if isinstance(e, DrawEvent)]
    chosen = sample(rolls, n) + sample(draws, None if n is None else max(2, n // 4))
    where = f"{scenario} seed {seed}"
    return [f"{where}: own-value branch of {r} changed the game" for r in own_value_mismatches(h, chosen)] + \
        [f"{where}: {p}" for p in snapshot_mismatches(h)]


@pytest.mark.parametrize("scenario", ["vespers-1282", "standard"])
@pytest.mark.parametrize("seed", [0, 1, 2, 3] if not SLOW else [])
def test_own_value_branches_and_snapshots_on_a_sample(scenario: str, seed: int) -> None:
    """Rolls and draws spread over four varied games per scenario, and every snapshot of each."""
    assert _check((scenario, seed, 25)) == []


@pytest.mark.slow
@pytest.mark.skipif(not SLOW, reason="every roll of 20 games per scenario: set MEDVIZ_SLOW=1 (CI does)")
@pytest.mark.parametrize("scenario", ["vespers-1282", "standard"])
def test_own_value_branches_of_every_roll_of_twenty_games(scenario: str) -> None:
    """Issue 17: every roll and draw of 20 seeded whole games, each branched to its own value."""
    jobs = [(scenario, seed, None) for seed in range(20)]
    ctx = multiprocessing.get_context("spawn")
    with ProcessPoolExecutor(max_workers=max(1, len(os.sched_getaffinity(0))), mp_context=ctx) as pool:
        problems = [p for found in pool.map(_check, jobs) for p in found]
    assert problems == []


# -- the copier itself ---------------------------------------------------------------------------
@dataclass
class _Inner:
    tags: list[str] = field(default_factory=list)


@dataclass
class _State:
    info: dict[str, object] = field(default_factory=dict)
    inner: _Inner = field(default_factory=_Inner)
    pairs: tuple[object, ...] = ()


def test_independent_copy_copies_every_nested_mutable() -> None:
    s = _State({"stratagem": ["A"], "deep": {"x": [1, {"y": [2]}]}}, _Inner(["t"]), (1, [2]))
    c = independent_copy(s)
    assert c == s and shared_mutables(s, c) == []
    c.info["stratagem"].append("B")  # type: ignore[attr-defined]
    c.inner.tags.append("u")
    c.pairs[1].append(3)  # type: ignore[attr-defined]
    assert s.info["stratagem"] == ["A"] and s.inner.tags == ["t"] and s.pairs == (1, [2])


def test_shared_mutables_names_the_shared_path() -> None:
    s = _State({"stratagem": ["A"]})
    shallow = _State(dict(s.info), _Inner(s.inner.tags))
    assert shared_mutables(s, shallow) == ["state.info['stratagem']", "state.inner.tags"]


def test_independent_copy_refuses_an_unknown_type() -> None:
    class Opaque:
        pass

    with pytest.raises(TypeError, match="Opaque"):
        independent_copy({"x": Opaque()})


def test_a_whole_game_state_copy_shares_nothing_mutable() -> None:
    h = _game("vespers-1282", 0)
    mid = h.snapshots[len(h.snapshots) // 2].state
    c = RULESET.copy_state(mid)
    assert c == mid and shared_mutables(mid, c) == []
    assert c.data_pair is mid.data_pair  # loaded data is immutable and shared on purpose


@pytest.mark.parametrize("scenario, seed", [("vespers-1282", 0), ("vespers-1282", 3), ("standard", 1), ("standard", 2)])
def test_a_folded_snapshot_is_the_state_a_full_copy_keeps(scenario: str, seed: int, monkeypatch) -> None:
    """Between full copies the runner keeps folded snapshots (a base and the changes since): each, once
    read, is the very state (field by field, in order) that a full copy at its checkpoint holds."""
    from medviz.engine import game
    from medviz.engine.game import GameSpec, run

    h = _game(scenario, seed)
    spec = GameSpec(RULESET, scenario, h.spec.options, seed, h.spec.players)
    folded = run(spec)
    assert any(s._base is not None for s in folded.snapshots)  # some are folded, not yet read
    monkeypatch.setattr(game, "FOLD_EVERY", 0)  # every checkpoint a full copy
    full = run(spec)
    assert [s.seq for s in folded.snapshots] == [s.seq for s in full.snapshots] == [s.seq for s in h.snapshots]
    assert folded.snapshots[0] != folded.snapshots[1]  # two checkpoints of one game are two states
    for a, b in zip(folded.snapshots, full.snapshots):
        assert (a.agenda, a.turn, a.phase) == (b.agenda, b.turn, b.phase)
        assert repr(a.state) == repr(b.state), f"snapshot before event {a.seq}"
        assert a == b, f"snapshot before event {a.seq}"  # Snapshot's own equality agrees
        assert shared_mutables(a.state, folded.state) == []  # independent of the live state
