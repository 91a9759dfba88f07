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
    from medviz.analysis.pivotal import pivotal

    swings = pivotal(h, budget=2, first=2, rolls=[roll.roll], workers=1, progress=False)  # faces share games
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=False,
                                  dashboard_address=None) as cluster:
        on_dask = continue_history(h, 4, first_seed=3, at={roll.roll: 1}, scheduler=cluster, progress=False)
        swings_on_dask = pivotal(h, budget=2, first=2, rolls=[roll.roll], scheduler=cluster, progress=False)
    assert swings.to_json() == swings_on_dask.to_json()
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


def test_ctrl_c_keeps_the_games_finished(monkeypatch: pytest.MonkeyPatch) -> None:
    from medviz.analysis import runner

    real = runner.play_batch
    calls = []

    def stop_on_the_third(base: Base, batch: Batch) -> list[dict[str, object]]:
        calls.append(batch)
        if len(calls) == 3:
            raise KeyboardInterrupt
        return real(base, batch)

    monkeypatch.setattr(runner, "play_batch", stop_on_the_third)
    sim = simulate(RULESET, "vespers-1282", {}, PLAYERS, 4, workers=1, progress=False)  # batches of one game
    assert sim.interrupted and list(sim.frame["seed"]) == [0, 1]
    assert sim.summary["games"] == 2 and sim.summary["requested"] == 4
    assert any("Interrupted: 2 of 4" in line for line in sim.lines())


# -- pivotal rolls ---------------------------------------------------------------------------
def _two_rolls(h: History) -> list[str]:
    table = [r for r in h.rolls() if isinstance(r, RollEvent) and "/round-" in r.roll and r.seq > 1000]
    return [table[0].roll, table[-1].roll]


def test_pivotal_faces_share_their_futures_and_the_shown_face_replays_the_history() -> None:
    from medviz.analysis.pivotal import pivotal

    h = vespers()
    keys = _two_rolls(h)
    result = pivotal(h, budget=2, first=2, first_seed=h.seed, rolls=keys, measure="vp_B", workers=1, progress=False)
    assert {r.key for r in result.rolls} == set(keys)
    for r in result.rolls:
        assert r.n == 2 and set(r.values) == {f for f, _p in r.faces} == set(range(1, 7))
        # continuation 0 has the history's own seed: under the face shown it is the recorded game
        assert r.values[r.value][0] == h.outcome["vp"]["B"] and r.winners[r.value][0] == h.outcome["winner"]
        by_hand = [r.values[r.value][k] - sum(r.values[f][k] for f in range(1, 7)) / 6 for k in range(2)]
        swing, _half = r.swing()
        assert swing == pytest.approx(0.0 if r.unmoved() else sum(by_hand) / 2)
        assert result.sentence(r).startswith(r.words) and "instead of" in result.sentence(r)


def test_a_roll_no_face_moved_is_bounded_by_the_rule_of_three_not_known_exactly() -> None:
    from fractions import Fraction

    from medviz.analysis.pivotal import RollSwing

    faces = [(f, Fraction(1, 6)) for f in range(1, 7)]
    r = RollSwing("r", 10, 1, "ops", 3, "a roll", faces)
    r.winners = {f: ["A"] * 16 for f in range(1, 7)}
    r.values = {f: [1.0] * 16 for f in range(1, 7)}
    assert r.unmoved()
    # 16 continuations without a change cannot know the swing to +/- 0: the chance that a face
    # changes a future not played is below 3/16 (95%), and the winner's odds move by at most that
    assert r.swing() == (0.0, pytest.approx(3 / 16))
    r.winners = {f: ["A"] * 60 for f in range(1, 7)}
    r.values = {f: [1.0] * 60 for f in range(1, 7)}
    assert r.swing()[1] == pytest.approx(0.05)  # 60 unchanged continuations a face: +/- 5 points
    vp = RollSwing("r", 10, 1, "ops", 3, "a roll", faces, bounded=False)
    vp.winners, vp.values = r.winners, {f: [4.0] * 60 for f in range(1, 7)}
    assert vp.swing() == (0.0, 0.0)  # a VP mean has no such bound from the rule of three


def test_pivotal_is_the_same_bytes_on_one_or_two_processes(tmp_path) -> None:
    from medviz.analysis.pivotal import pivotal

    h = vespers()
    keys = _two_rolls(h)
    one = pivotal(h, budget=4, first=2, rolls=keys, workers=1, progress=False, cache=tmp_path)
    two = pivotal(h, budget=4, first=2, rolls=keys, workers=2, progress=False)
    assert one.to_json() == two.to_json()
    data = json.loads(one.to_json())
    assert data["format"] == "medviz-pivotal" and [r["roll"] for r in data["rolls"]]
    assert all(r["continuations"] >= 2 and r["stopped"] for r in data["rolls"])
    again = pivotal(h, budget=4, first=2, rolls=keys, workers=1, progress=False, cache=tmp_path)  # read back
    assert again.to_json() == one.to_json() and len(list(tmp_path.glob("pivotal-*.json"))) == 1


def _rolls_of_each_kind(h: History) -> list[str]:
    """A combat roll (faces with the same result), an interception roll, an operations roll (2d6) and a
    stratagem draw; on seed 3 the last two have faces whose games meet with equal events but another state."""
    first = next(e.roll for e in h.rolls() if isinstance(e, RollEvent) and e.roll.endswith("/round-1/attacker"))
    keys = [first, "GT1/ops-A/force-5/action-5/intercept-enter/roll", "GT1/ops-A/force-4/ops", "GT1/stratagems/draw-4/B"]
    for key in keys:
        h.roll(key)  # each is a roll of the replay
    return keys


def _count_games_played_out(monkeypatch) -> list[int]:
    """Count the runs of ``medviz.analysis.runner`` that play a game to its end (not paused where it met another)."""
    from medviz.analysis import runner

    ended = [0]
    real = runner.run

    def counting(*args, **kwargs):
        result = real(*args, **kwargs)
        ended[0] += result.paused is None
        return result

    monkeypatch.setattr(runner, "run", counting)
    return ended


def test_faces_that_leave_the_same_game_share_it_and_give_the_rows_of_faces_played_in_full(monkeypatch) -> None:
    from medviz.analysis.pivotal import faces_of
    from medviz.analysis.runner import load, play_faces, play_one

    h = vespers()
    base = Base.of_history(h)
    loaded = load(base)
    ended = _count_games_played_out(monkeypatch)
    faces_played = 0
    for key in _rolls_of_each_kind(h):
        e = h.roll(key)
        faces = [f for f, _p in faces_of(e)]
        for seed in (3, h.seed):
            shared = play_faces(base, loaded, seed, e.seq - 1, key, faces)
            assert shared == [play_one(base, loaded, seed, e.seq - 1, {key: f}) for f in faces]  # every column
            faces_played += len(faces)
    # the rows above came from fewer games than faces: faces with the same effect shared theirs
    assert ended[0] - faces_played < faces_played


def test_a_game_whose_rules_may_read_past_rolls_plays_every_face_in_full(monkeypatch) -> None:
    from medviz.analysis.runner import load, play_faces

    h = vespers()
    base = Base.of_history(h)
    loaded = load(base)
    key = _rolls_of_each_kind(h)[0]
    e = h.roll(key)
    ended = _count_games_played_out(monkeypatch)
    monkeypatch.setattr(type(RULESET), "reads_past_events", True)
    rows = play_faces(base, loaded, 3, e.seq - 1, key, list(range(1, 7)))
    assert len(rows) == 6 and ended[0] == 6


@pytest.mark.parametrize("measure", ["winner", "events"])
def test_pivotal_with_shared_continuations_is_the_same_bytes_as_every_face_played(measure) -> None:
    from medviz.analysis.pivotal import pivotal

    h = vespers()
    keys = _rolls_of_each_kind(h)
    shared = pivotal(h, budget=4, first=2, rolls=keys, measure=measure, workers=1, progress=False)
    full = pivotal(h, budget=4, first=2, rolls=keys, measure=measure, workers=1, progress=False, share=False)
    assert shared.to_json() == full.to_json()
    rows = json.loads(shared.to_json())["rolls"]
    assert {r["roll"] for r in rows} == set(keys)
    # the file's interval is the swing's (an unmoved roll's 3/n for the winner), not a face's measure's
    by_key = {r.key: r for r in shared.rolls}
    assert [r["plus_minus"] for r in rows] == [round(by_key[r["roll"]].swing()[1], 4) for r in rows]
    if measure == "winner":  # 2 continuations a face without a change bound the swing by min(1, 3/2)
        assert all(r["plus_minus"] == 1.0 for r in rows if by_key[r["roll"]].unmoved())


def test_a_run_paused_between_tasks_goes_on_as_the_same_game() -> None:
    from medviz.engine.game import GameSpec, run
    from medviz.engine.history import parse_player

    players = {a: parse_player("heuristic", RULESET) for a in "AB"}
    spec = GameSpec(RULESET, "vespers-1282", {}, 11, players)
    whole = run(spec, keep_snapshots=False)
    for at in (0, 400, len(whole.events) // 2):
        part = run(spec, keep_snapshots=False, pause_when=lambda ctx, at=at: len(ctx.events) > at)
        assert part.paused is not None and part.paused.seq == len(part.events) > at
        rest = run(spec, part.paused, part.events, keep_snapshots=False)
        assert [e.to_dict() for e in rest.events] == [e.to_dict() for e in whole.events]
        assert repr(rest.state) == repr(whole.state)


def test_pivotal_refuses_an_unknown_measure() -> None:
    from medviz.analysis.pivotal import pivotal

    h = vespers()
    with pytest.raises(MalformedInput, match="no column 'nothing'"):
        pivotal(h, budget=1, first=1, rolls=_two_rolls(h)[:1], measure="nothing", workers=1, progress=False)


# -- win probability -------------------------------------------------------------------------
def test_win_probability_after_every_phase_is_cached_by_content_hash(tmp_path, monkeypatch) -> None:
    from medviz.analysis import winprob

    h = vespers()
    chart = winprob.win_probability(h, 2, workers=1, progress=False, cache=tmp_path)
    pts = chart.points
    assert len(pts) == len(h.phases()) + 1 and pts[0]["after"] == -1
    assert pts[-1]["after"] == len(h.events) - 1
    assert pts[-1]["odds"][h.outcome["winner"]]["share"] == 1.0  # after the last event: the recorded result
    assert all(p["odds"]["A"]["low"] <= p["odds"]["A"]["share"] <= p["odds"]["A"]["high"] for p in pts)
    files = list(tmp_path.glob("winprob-*.json"))
    assert len(files) == 1 and winprob.history_hash(h)[:16] in files[0].name

    def no_games(*args: object, **kw: object) -> None:
        raise AssertionError("the cached analysis was played again")

    monkeypatch.setattr(winprob, "Workers", no_games)
    assert winprob.win_probability(h, 2, cache=tmp_path).to_json() == chart.to_json()


def test_the_win_probability_figure_draws_each_side_with_its_band() -> None:
    from medviz.analysis.winprob import WinProbability
    from medviz.viz.winprob import win_probability_figure

    h = vespers()
    points = [{"after": -1, "turn": 0, "phase": "set-up", "label": "before", "games": 10,
               "odds": {"A": {"share": 0.6, "low": 0.31, "high": 0.83}, "B": {"share": 0.4, "low": 0.17, "high": 0.69}}},
              {"after": 99, "turn": 1, "phase": "politics", "label": "GT1, politics", "games": 10,
               "odds": {"A": {"share": 0.9, "low": 0.6, "high": 0.98}, "B": {"share": 0.1, "low": 0.02, "high": 0.4}}}]
    chart = WinProbability({"points": points, "sides": ["A", "B"]})
    fig = win_probability_figure(chart, h, current=50, flagged=[(70, "a roll")]).to_plotly_json()
    lines = [t for t in fig["data"] if t.get("mode") == "lines+markers"]
    assert [t["name"] for t in lines] == ["Player A (France and Anjou)", "Player B (Aragon)"]
    assert list(lines[0]["x"]) == [0, 100] and list(lines[0]["y"]) == [0.6, 0.9]
    band = next(t for t in fig["data"] if t.get("fill") == "toself")
    assert list(band["y"]) == [0.83, 0.98, 0.6, 0.31]
    assert fig["layout"]["shapes"][0]["x0"] == 50
    flags = next(t for t in fig["data"] if t["name"] == "pivotal rolls")
    assert list(flags["x"]) == [70]


def test_the_strip_follows_a_replay_cursor() -> None:
    from medviz.analysis.winprob import WinProbability, history_hash
    from medviz.apps.model import ReplayModel
    from medviz.apps.winprob_strip import WinProbabilityStrip

    h = vespers()
    odds = {"A": {"share": 1.0, "low": 0.9, "high": 1.0}, "B": {"share": 0.0, "low": 0.0, "high": 0.1}}
    chart = WinProbability({"points": [{"after": -1, "turn": 0, "phase": "set-up", "label": "before",
                                        "games": 30, "odds": odds}], "sides": ["A", "B"],
                            "history": history_hash(h)})
    model = ReplayModel(h, cursor=10)
    strip = WinProbabilityStrip(h, chart, model=model)
    assert strip.figure.layout.shapes[0].x0 == 11  # x counts events played: event 10 is the 11th
    model.cursor = 400
    assert strip.figure.layout.shapes[0].x0 == 401

    from medviz.apps import DiceLab

    roll = next(r for r in h.rolls() if isinstance(r, RollEvent) and "/round-" in r.roll)
    lab = DiceLab(h)
    strip = WinProbabilityStrip(h, chart, model=model, dicelab=lab, pivotal=[(roll.seq, roll.roll, "a battle roll")])
    flags = next(t for t in strip.figure.data if t.name == "pivotal rolls")
    assert list(flags.x) == [roll.seq + 1]
    strip.open_roll(roll.seq)  # what a click on the flag does
    assert lab.model.selected_roll == roll.roll and model.cursor == roll.seq


def test_a_run_without_snapshots_is_the_same_game_on_many_seeds() -> None:
    """Continuations skip snapshots (keep_snapshots=False): same events, same outcome, byte for byte."""
    import os

    from medviz.engine.game import GameSpec, run
    from medviz.engine.history import parse_player

    seeds = range(200) if os.environ.get("MEDVIZ_SLOW") else range(30)
    for seed in seeds:
        players = {a: parse_player("heuristic" if seed % 20 else "random:7", RULESET) for a in "AB"}
        spec = GameSpec(RULESET, "vespers-1282", {}, seed, players)
        kept, skipped = run(spec), run(spec, keep_snapshots=False)
        assert len(skipped.snapshots) == 1 and len(kept.snapshots) > 1  # only the first (run() keeps it)
        assert [e.to_dict() for e in kept.events] == [e.to_dict() for e in skipped.events]
        assert json.dumps(RULESET.outcome(kept.state)) == json.dumps(RULESET.outcome(skipped.state))
        assert repr(kept.state) == repr(skipped.state)
        # a continuation from a snapshot (folded or full) in the middle, as the analyses run it
        snap = kept.snapshots[len(kept.snapshots) // 2]
        again = GameSpec(RULESET, "vespers-1282", {}, seed + 1, players)
        a = run(again, snap, kept.events[: snap.seq])
        b = run(again, snap, kept.events[: snap.seq], keep_snapshots=False)
        assert [e.to_dict() for e in a.events] == [e.to_dict() for e in b.events] and repr(a.state) == repr(b.state)
