"""Apps on one screen (medviz.apps.fit): the map drawn as tall as the browser measured, the panel restacked."""

from __future__ import annotations

from typing import Any

from medviz.apps import PlayTable, ReplayViewer
from medviz.apps.common import MapPane
from medviz.apps.fit import MIN_MAP_HEIGHT, ScreenFit, fit_height, follow
from medviz.engine.history import play
from medviz.engine.policy import RandomPolicy
from medviz.rules.medempires.ruleset import RULESET
from medviz.rules.medempires.view import history_view
from medviz.viz.state_map import state_map


def _panel(layout: Any) -> list[tuple[str, float, str]]:
    return [(a.name, round(a.y, 4), a.text) for a in layout.annotations]


def test_fit_height_keeps_the_map_between_the_least_and_the_apps_own_height() -> None:
    assert fit_height(600, 750) == 600
    assert fit_height(2000, 750) == 750
    assert fit_height(100, 750) == MIN_MAP_HEIGHT  # the browser scales it down from there
    seen: list[int] = []
    fit = ScreenFit()
    follow(fit, seen.append, 750)
    fit.room, fit.room, fit.room = 640, 300, 1400  # as the browser reports it
    assert seen == [640, MIN_MAP_HEIGHT, 750]


def test_a_resized_map_is_the_state_map_of_that_height_and_steps_on_from_it() -> None:
    game = play(RULESET, "vespers-1282", {}, seed=4, players={"A": RandomPolicy(1), "B": RandomPolicy(2)})
    first, later = history_view(game, 120), history_view(game, 400)
    pane = MapPane(first, None, 750, ruleset=RULESET)
    assert pane.resize(600) and pane.figure.layout.height == 600 and pane.figure.layout.width is None
    assert pane.figure.layout.autosize  # still fitted to the width the browser gives it
    assert _panel(pane.figure.layout) == _panel(state_map(first, width=1200, height=600, ruleset=RULESET).layout)
    assert pane.resize(602) is False  # a few px: not redrawn
    pane.show(later)
    assert _panel(pane.figure.layout) == _panel(state_map(later, width=1200, height=600, ruleset=RULESET).layout)


def test_the_apps_follow_the_room_their_screen_fit_reports() -> None:
    game = play(RULESET, "vespers-1282", {}, seed=4, players={"A": RandomPolicy(1), "B": RandomPolicy(2)})
    viewer = ReplayViewer(game, view_at=history_view)
    assert "medviz-app" in viewer._dom_classes and viewer.fit in viewer.children[0].children
    viewer.fit.room = 480
    assert viewer.map is not None and viewer.map.figure.layout.height == MIN_MAP_HEIGHT
    viewer.fit.room = 700
    assert viewer.map.figure.layout.height == 700
    viewer.model.cursor = 300
    assert "▶" in viewer.current.value and game.describe(300).split()[0] in viewer.current.value
    table = PlayTable(seed=3)
    table.fit.room = 900
    assert table.map is not None and table.map.figure.layout.height == 750  # never taller than asked


def test_a_step_reaches_the_browser_in_at_most_two_messages_and_draws_the_same_map() -> None:
    import plotly.graph_objects as go

    from medviz.viz.state_map import update_state_map

    game = play(RULESET, "vespers-1282", {}, seed=4, players={"A": RandomPolicy(1), "B": RandomPolicy(2)})
    for a, b in ((120, 400), (400, 900), (900, 901), (60, 1200)):
        pane = MapPane(history_view(game, a), None, 750, ruleset=RULESET)
        plain = go.FigureWidget(state_map(history_view(game, a), width=1200, height=750, ruleset=RULESET))
        sent: list[Any] = []
        send = pane.figure._send_update_msg

        def spy(restyle_data: Any, relayout_data: Any, trace_indexes: Any = None, **kw: Any) -> Any:
            sent.append((restyle_data, relayout_data, trace_indexes))
            return send(restyle_data, relayout_data, trace_indexes, **kw)

        pane.figure._send_update_msg = spy
        pane.show(history_view(game, b))
        update_state_map(plain, history_view(game, a), history_view(game, b), ruleset=RULESET)
        assert len(sent) <= 2, (a, b, len(sent))
        for restyle, _layout, indexes in sent:
            assert all(len(v) == len(indexes) for v in restyle.values())
            assert "_undefined_" not in str(restyle)
        mine, theirs = pane.figure.to_plotly_json(), plain.to_plotly_json()
        for fig_json in (mine, theirs):
            for trace in fig_json["data"]:
                trace.pop("uid", None)  # random per figure
                for key in [k for k, v in trace.items() if v == {}]:
                    del trace[key]  # an unset property sent as it is (None) leaves an empty dict
        assert mine["data"] == theirs["data"] and mine["layout"]["annotations"] == theirs["layout"]["annotations"]
        assert mine["layout"]["title"] == theirs["layout"]["title"]
