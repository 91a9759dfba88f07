"""The win-probability strip of an exported page (issue 14, point 3): the page's data holds the chart
and its pivotal flags; an analysis of another history, or a broken file, is refused before anything
is written."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest
from helpers_sample import ROOT, sample_battle

from medviz.analysis.winprob import history_hash, load_win_probability, pivotal_flags
from medviz.cli import main
from medviz.engine import History, play
from medviz.engine.errors import MalformedInput
from medviz.engine.events import DrawEvent, RollEvent
from medviz.rules.medempires.ruleset import RULESET

ANALYSIS = ROOT / "notebooks" / "analysis"
# The notebook's cached analyses of today's Vespers replay (tests/test_what_decided_cache.py keeps them current).
WINPROB = min(ANALYSIS.glob("winprob-*-40g-s0.json"))
PIVOTAL = min(ANALYSIS.glob("pivotal-*.json"))


@pytest.fixture(scope="module")
def vespers(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The notebook's Vespers replay saved in a folder with its cached analyses in ``analysis/``."""
    historical = RULESET.policies["historical"]()
    history = play(RULESET, "vespers-1282", {}, seed=1490, players={"A": historical, "B": historical})
    assert history_hash(history)[:16] in WINPROB.name  # the notebook's analyses are of this replay
    folder = tmp_path_factory.mktemp("vespers")
    path = folder / "vespers.json"
    history.save(path)
    (folder / "analysis").mkdir()
    shutil.copy(WINPROB, folder / "analysis")
    shutil.copy(PIVOTAL, folder / "analysis")
    return path


def embedded(page: Path) -> dict:  # type: ignore[type-arg]
    text = page.read_text(encoding="utf-8")
    m = re.search(r'<script id="medviz-data" type="application/json">(.*?)</script>', text, re.S)
    assert m is not None
    return json.loads(m.group(1))  # type: ignore[no-any-return]


def test_the_page_finds_the_cached_analysis_and_embeds_the_chart(vespers: Path, tmp_path: Path,
                                                                 capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "page.html"
    assert main(["export", str(vespers), "--html", str(out)]) == 0
    assert "win probability from" in capsys.readouterr().out
    data = embedded(out)
    history = History.load(vespers)
    chart = load_win_probability(WINPROB, history)
    strip = data["winprob"]
    traces = {t["name"]: t for t in strip["figure"]["data"]}
    aragon = RULESET.seat_title("A", history.scenario)
    # The chart's line for a seat is that seat's share after each point, at the events played.
    assert traces[aragon]["y"] == [p["odds"]["A"]["share"] for p in chart.points]
    assert traces[aragon]["x"] == [p["after"] + 1 for p in chart.points]
    assert strip["games"] == 40
    # The current-event line starts after the first event.
    assert strip["figure"]["layout"]["shapes"][0]["x0"] == 1
    # Flags: the five rolls of the pivotal file with the largest swing, each a roll of this history.
    rolls = json.loads(PIVOTAL.read_text(encoding="utf-8"))["rolls"]
    top = sorted(rolls, key=lambda r: (-abs(r["swing"]), r["seq"]))[:5]
    assert [f["seq"] for f in strip["flags"]] == [r["seq"] for r in top]
    assert all(isinstance(history.events[f["seq"]], (RollEvent, DrawEvent)) for f in strip["flags"])  # rolls and draws
    assert traces["pivotal rolls"]["x"] == [f["seq"] + 1 for f in strip["flags"]]


def test_an_explicit_file_and_leaving_it_out(vespers: Path, tmp_path: Path) -> None:
    out = tmp_path / "page.html"
    assert main(["export", str(vespers), "--html", str(out), "--win-probability", str(WINPROB)]) == 0
    assert "winprob" in embedded(out)
    assert main(["export", str(vespers), "--html", str(out), "--no-win-probability"]) == 0
    assert "winprob" not in embedded(out)


def test_another_historys_analysis_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    battle = tmp_path / "battle.json"
    sample_battle().save(battle)
    out = tmp_path / "page.html"
    assert main(["export", str(battle), "--html", str(out), "--win-probability", str(WINPROB)]) == 2
    err = capsys.readouterr().err.strip()
    assert "another history" in err and str(WINPROB) in err and len(err.splitlines()) == 1
    assert not out.exists() and not list(tmp_path.glob(".page.html*"))
    with pytest.raises(MalformedInput, match="another history"):
        load_win_probability(WINPROB, sample_battle())
    with pytest.raises(MalformedInput, match="another history"):
        pivotal_flags(PIVOTAL, sample_battle())


@pytest.mark.parametrize("text, words", [("{bad", "not JSON"), ('{"format": "medviz-pivotal"}', "not a medviz win-probability"),
                                          ("[]", "not a medviz win-probability")])
def test_a_broken_file_is_one_line_and_exit_2(vespers: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                              text: str, words: str) -> None:
    bad = tmp_path / "wp.json"
    bad.write_text(text, encoding="utf-8")
    out = tmp_path / "page.html"
    assert main(["export", str(vespers), "--html", str(out), "--win-probability", str(bad)]) == 2
    err = capsys.readouterr().err.strip()
    assert words in err and len(err.splitlines()) == 1
    assert not out.exists()
    assert main(["export", str(vespers), "--html", str(out), "--win-probability", str(tmp_path / "none.json")]) == 2
    assert not out.exists()
