"""medviz.analysis: seeded games and continuations, the same bytes on 1 or 2 processes or Dask."""

from __future__ import annotations

import json
from functools import lru_cache

import pytest

from medviz.analysis import continue_history, simulate, wilson
from medviz.analysis.runner import Base, Batch, play_batch
from medviz.engine import History, MalformedInput, MedvizError, RollEvent, play
from medviz.rules.medempires.ruleset import RULESET

PLAYERS = {"A": "heuristic", "B": "heuristic"}


@lru_cache(maxsize=1)
def vespers() -> History:
    """The Vespers replay of the notebook (historical players, seed 1490)."""
    historical = RULESET.policies["historical"]()
    return play(RULESET, "vespers-1282", {}, seed=1490, players={"A": historical, "B": historical})


def test_wilson_matches_the_textbook_values() -> None:
    lo, hi = wilson(8, 10)
    assert (round(lo, 4), round(hi, 4)) == (0.4902, 0.9433)  # Wilson (1927), z = 1.96
    assert wilson(0, 0) == (0.0, 1.0)
    lo, hi = wilson(0, 20)
    assert lo == 0.0 and 0.16 < hi < 0.17


def test_rows_are_the_games_that_play_would_give() -> None:
    sim = simulate(RULESET, "vespers-1282", {}, PLAYERS, 3, first_seed=5, workers=1, progress=False)
    assert list(sim.frame["seed"]) == [5, 6, 7]
    for row in sim.frame.to_dict("records"):
        h = play(RULESET, "vespers-1282", {}, seed=row["seed"], players={
            a: RULESET.policies["heuristic"]() for a in "AB"})
        assert row["winner"] == h.outcome["winner"]
        assert (row["vp_A"], row["vp_B"]) == (h.outcome["vp"]["A"], h.outcome["vp"]["B"])
        assert row["holds_malta"] == h.outcome["control"]["malta"]
        assert row["events"] == len(h.events) and row["turns"] == 3
    s = sim.summary
    assert s["games"] == 3 and sum(w["games"] for w in s["winner"].values()) == 3
    assert set(s["holds"]) == {"sicily_west", "sicily_east", "malta", "upper_aragon", "rossello",
                               "catalan_counties", "urgell"}


def test_one_or_two_processes_give_the_same_bytes(tmp_path) -> None:
    one = simulate(RULESET, "vespers-1282", {}, PLAYERS, 6, workers=1, progress=False)
    two = simulate(RULESET, "vespers-1282", {}, PLAYERS, 6, workers=2, progress=False)
    assert one.to_json() == two.to_json()
    for suffix in (".csv", ".parquet"):
        one.save(tmp_path / f"one{suffix}")
        two.save(tmp_path / f"two{suffix}")
        assert (tmp_path / f"one{suffix}").read_bytes() == (tmp_path / f"two{suffix}").read_bytes()


def test_a_dask_local_cluster_gives_the_same_bytes() -> None:
    distributed = pytest.importorskip("dask.distributed")
    h = vespers()
    roll = next(r for r in h.rolls() if isinstance(r, RollEvent) and r.seq > 1000)
    local = continue_history(h, 4, first_seed=3, at={roll.roll: 1}, workers=1, progress=False)
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=False,
                                  dashboard_address=None) as cluster:
        on_dask = continue_history(h, 4, first_seed=3, at={roll.roll: 1}, scheduler=cluster, progress=False)
    assert local.to_json() == on_dask.to_json()
    assert local.frame.equals(on_dask.frame)


def test_a_continuation_with_the_history_seed_replays_the_history() -> None:
    h = vespers()
    for after in (-1, 300, 901, len(h.events) - 2):
        rows = play_batch(Base.of_history(h), Batch((h.seed,), after))
        assert rows[0]["events"] == len(h.events)
        assert rows[0]["vp_A"] == h.outcome["vp"]["A"] and rows[0]["vp_B"] == h.outcome["vp"]["B"]


def test_a_what_if_is_applied_in_every_continuation_from_just_before_it() -> None:
    h = vespers()
    roll = next(r for r in h.rolls() if isinstance(r, RollEvent) and r.dice == "1d6" and r.seq > 800)
    sim = continue_history(h, 3, at={roll.roll: 7 - roll.value}, workers=1, progress=False)
    assert sim.summary["from"]["after"] == roll.seq - 1
    assert sim.summary["what_if_applied"] == 3 and all(sim.frame["what_if_applied"])


def test_bad_input_is_one_clear_error() -> None:
    h = vespers()
    with pytest.raises(MalformedInput, match="--games"):
        simulate(RULESET, "vespers-1282", {}, PLAYERS, 0)
    with pytest.raises(MedvizError, match="never happens"):
        continue_history(h, 2, at={"GT9/nothing": 1})
    roll = h.rolls()[-1]
    with pytest.raises(MalformedInput, match="at or before --after"):
        continue_history(h, 2, at={roll.roll: roll.value}, after=len(h.events) - 1)
    with pytest.raises(MalformedInput, match="--after"):
        continue_history(h, 2, after=len(h.events) + 5)
    with pytest.raises(MalformedInput, match="not both"):
        simulate(RULESET, "vespers-1282", {}, PLAYERS, 2, workers=2, scheduler="tcp://127.0.0.1:1")


def test_the_summary_is_json_with_intervals_around_each_share() -> None:
    sim = simulate(RULESET, "vespers-1282", {}, PLAYERS, 4, first_seed=11, workers=1, progress=False)
    data = json.loads(sim.to_json())
    for s in data["winner"].values():
        assert s["low"] <= s["share"] <= s["high"]
    assert any("wins" in line for line in sim.lines())
