"""``medviz simulate``, ``medviz pivotal`` and ``medviz winprob``: results, files written whole, one-line refusals."""

from __future__ import annotations

import json

import pandas as pd
import pytest

from medviz.cli import main
from medviz.engine import RollEvent, play
from medviz.rules.medempires.ruleset import RULESET


@pytest.fixture(scope="module")
def saved(tmp_path_factory: pytest.TempPathFactory) -> str:
    historical = RULESET.policies["historical"]()
    h = play(RULESET, "vespers-1282", {}, seed=1490, players={"A": historical, "B": historical})
    path = tmp_path_factory.mktemp("h") / "vespers.json"
    h.save(path)
    return str(path)


def test_simulate_writes_rows_and_prints_the_summary(tmp_path, capsys) -> None:
    out = tmp_path / "games.csv"
    assert main(["simulate", "vespers-1282", "--games", "2", "--first-seed", "4", "--workers", "1",
                 "--player-b", "random:3", "--out", str(out), "--json"]) == 0
    summary = json.loads(capsys.readouterr().out)
    assert summary["games"] == 2 and summary["players"] == {"A": "heuristic", "B": "random:3"}
    frame = pd.read_csv(out)
    assert list(frame["seed"]) == [4, 5] and "holds_malta" in frame.columns


def test_simulate_continues_a_history_with_a_what_if(saved, capsys) -> None:
    h = RULESET  # the roll is found in the file itself
    from medviz.engine import History

    hist = History.load(saved)
    # a late die on which 1 is a face (a combat-table roll, not a 2d6 for operation points)
    roll = next(r for r in hist.rolls() if isinstance(r, RollEvent) and r.seq > 1100 and "1" in (r.effects or {}))
    assert main(["simulate", "vespers-1282", "--games", "2", "--workers", "1", "--from", saved,
                 "--at", f"{roll.roll}=2"]) == 0
    text = capsys.readouterr().out
    assert f"continued after event {roll.seq - 1}" in text and "what-if roll happened in 2 of 2" in text
    assert h is RULESET


@pytest.mark.parametrize("argv, words", [
    (["simulate", "vespers-1282", "--games", "0"], "--games"),
    (["simulate", "atlantis", "--games", "2"], "no game or scenario 'atlantis'"),
    (["simulate", "vespers-1282", "--games", "2", "--at", "x=1"], "--from"),
    (["simulate", "vespers-1282", "--games", "2", "--workers", "2", "--scheduler", "tcp://127.0.0.1:9"], "not both"),
    (["simulate", "vespers-1282", "--games", "2", "--bogus"], "unrecognized arguments"),
])
def test_simulate_bad_input_is_one_line_and_exit_2(argv, words, capsys) -> None:
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert words in err and err.count("\n") == 1 and "Traceback" not in err


def test_simulate_never_leaves_a_half_written_file(tmp_path, capsys) -> None:
    bad = tmp_path / "games.txt"
    assert main(["simulate", "vespers-1282", "--games", "1", "--workers", "1", "--out", str(bad)]) == 2
    assert ".parquet or .csv" in capsys.readouterr().err and not bad.exists()
    assert main(["simulate", "vespers-1282", "--games", "1", "--workers", "1", "--out",
                 str(tmp_path / "no-such-dir" / "g.parquet")]) == 2
    assert list(tmp_path.iterdir()) == []


def test_pivotal_ranks_the_rolls_asked_for(saved, tmp_path, capsys) -> None:
    from medviz.engine import History

    hist = History.load(saved)
    rolls = [r.roll for r in hist.rolls() if isinstance(r, RollEvent) and "/round-" in r.roll][-2:]
    out = tmp_path / "pivotal.json"
    assert main(["pivotal", saved, "--budget", "2", "--first", "2", "--workers", "1", "--measure", "vp_B",
                 "--roll", rolls[0], "--roll", rolls[1], "--out", str(out)]) == 0
    text = capsys.readouterr().out
    assert "2 rolls analysed" in text and "instead of" in text
    data = json.loads(out.read_text())
    assert sorted(r["roll"] for r in data["rolls"]) == sorted(rolls)
    assert main(["pivotal", saved, "--target", "2"]) == 2
    assert main(["pivotal", saved, "--roll", "GT9/none", "--workers", "1"]) == 2
    assert "never happens" in capsys.readouterr().err


def test_the_notebook_is_its_generator_s_and_its_analyses_are_committed_beside_it() -> None:
    import importlib.util
    import sys
    from pathlib import Path

    import nbformat

    from medviz.analysis.pivotal import cache_path as pivotal_cache
    from medviz.analysis.winprob import cache_path as winprob_cache

    root = Path(__file__).resolve().parent.parent
    sys.path.insert(0, str(root / "tools"))
    try:
        spec = importlib.util.spec_from_file_location("make_what_decided", root / "tools" / "make_what_decided_notebook.py")
        assert spec and spec.loader
        gen = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(gen)
    finally:
        sys.path.remove(str(root / "tools"))
    path = root / "notebooks" / "what-decided-the-war.ipynb"
    nb = nbformat.read(path, as_version=4)
    assert [c.source for c in nb.cells] == [c.source for c in gen.CELLS], "run tools/make_what_decided_notebook.py"
    assert all(not c.get("outputs") for c in nb.cells if c.cell_type == "code") and path.stat().st_size < 40_000
    # the analyses the notebook reads are the cache files of its own history and settings (else it would play them)
    historical = RULESET.policies["historical"]()
    h = play(RULESET, "vespers-1282", {}, seed=1490, players={"A": historical, "B": historical})
    analysis = root / "notebooks" / "analysis"
    assert winprob_cache(h, analysis, 40, 0).exists()
    settings = {"budget": 8, "first": 4, "target": 0.25, "first_seed": 0, "measure": "vp_B", "rolls": None}
    assert pivotal_cache(h, analysis, settings).exists()


def test_winprob_writes_the_file_the_export_and_the_notebook_find(saved, tmp_path, capsys) -> None:
    from medviz.analysis.winprob import cache_path, cached_beside, load_win_probability
    from medviz.engine import History

    h = History.load(saved)
    assert main(["winprob", saved, "--games", "2", "--workers", "1", "--cache", str(tmp_path)]) == 0
    text = capsys.readouterr().out
    path = cache_path(h, tmp_path, 2, 0)
    assert f"written to {path}" in text and "before the game: A " in text
    chart = load_win_probability(path, h)
    assert cached_beside(h, tmp_path) == [path]  # medviz export's look-up beside the history
    assert chart.points[0]["after"] == -1 and all(p["games"] == 2 for p in chart.points)
    assert len(chart.points) == 1 + len(h.phases())
    before = path.stat().st_mtime_ns
    assert main(["winprob", saved, "--games", "2", "--workers", "1", "--cache", str(tmp_path), "--json"]) == 0
    assert json.loads(capsys.readouterr().out) == chart.data and path.stat().st_mtime_ns == before  # read, not replayed
    out = tmp_path / "chart.json"
    assert main(["winprob", saved, "--games", "1", "--first-seed", "5", "--workers", "1", "--out", str(out)]) == 0
    again = load_win_probability(out, h)
    assert again.data["games"] == 1 and again.data["first_seed"] == 5


@pytest.mark.parametrize("argv, words", [
    (["winprob", "nope.json"], "nope.json"),
    (["winprob", "HIST", "--games", "0"], "--games"),
    (["winprob", "HIST", "--cache", "/no/such/folder"], "no such folder"),
    (["winprob", "HIST", "--out", "x.json", "--cache", "."], "give one"),
    (["winprob", "HIST", "--out", "/no/such/folder/x.json"], "--out"),
    (["winprob", "NOTJSON"], "NOTJSON"),
])
def test_winprob_bad_input_is_one_line_and_exit_2(argv, words, saved, tmp_path, capsys) -> None:
    junk = tmp_path / "junk.json"
    junk.write_text("{not json")
    argv = [saved if a == "HIST" else str(junk) if a == "NOTJSON" else a for a in argv]
    words = str(junk) if words == "NOTJSON" else words
    try:
        code = main(argv)
    except SystemExit as exc:  # argparse's own refusal of a flag's value
        code = exc.code
    assert code == 2
    err = capsys.readouterr().err
    assert words in err and err.count("\n") == 1 and "Traceback" not in err
    assert not list(tmp_path.glob("winprob-*"))
