"""ReplayViewer with the win-probability strip under its map (issue 14, point 3): the strip's line
follows the viewer's steps, a pivotal flag opens its roll in the DiceLab, another history's analysis
is refused."""

from __future__ import annotations

from pathlib import Path

import pytest

from medviz.analysis.winprob import load_win_probability, pivotal_flags
from medviz.apps import DiceLab, ReplayViewer
from medviz.engine import History, play
from medviz.engine.errors import MalformedInput
from medviz.rules.medempires.ruleset import RULESET

ANALYSIS = Path(__file__).resolve().parents[1] / "notebooks" / "analysis"


@pytest.fixture(scope="module")
def history() -> History:
    historical = RULESET.policies["historical"]()
    return play(RULESET, "vespers-1282", {}, seed=1490, players={"A": historical, "B": historical})


def test_the_viewer_shows_the_strip_under_the_map_and_marks_the_step(history: History) -> None:
    chart = load_win_probability(next(ANALYSIS.glob("winprob-*.json")), history)
    flags = pivotal_flags(next(ANALYSIS.glob("pivotal-*.json")), history)
    lab = DiceLab(history)
    viewer = ReplayViewer(history, win_probability=chart, pivotal=flags, dicelab=lab, start=5)
    assert viewer.strip is not None
    kids = list(viewer.children)
    assert kids.index(viewer.strip) == kids.index(viewer.map.figure) + 1  # right under the map
    assert viewer.strip.figure.layout.shapes[0].x0 == 6
    viewer.forward.click()
    assert viewer.strip.figure.layout.shapes[0].x0 == 7
    aragon = next(t for t in viewer.strip.figure.data if t.name == "Player B (Aragon)")
    assert list(aragon.y) == [p["odds"]["B"]["share"] for p in chart.points]
    marks = next(t for t in viewer.strip.figure.data if t.name == "pivotal rolls")
    assert list(marks.x) == [seq + 1 for seq, _k, _w in flags]
    seq, key, _words = flags[0]
    viewer.strip.open_roll(seq)  # what a click on the flag does
    assert viewer.model.cursor == seq and lab.model.selected_roll == key
    assert viewer.strip.figure.layout.shapes[0].x0 == seq + 1


def test_without_a_chart_there_is_no_strip_and_another_historys_is_refused(history: History) -> None:
    assert ReplayViewer(history).strip is None
    other = play(RULESET, "vespers-1282", {}, seed=7, players={"A": RULESET.policies["historical"](),
                                                                "B": RULESET.policies["historical"]()})
    chart = load_win_probability(next(ANALYSIS.glob("winprob-*.json")), history)
    with pytest.raises(MalformedInput, match="another history"):
        ReplayViewer(other, win_probability=chart)
