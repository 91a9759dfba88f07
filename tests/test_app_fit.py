"""Apps on one screen (medviz.apps.fit): the map drawn as tall as the browser measured, the panel restacked."""

from __future__ import annotations

import json
from typing import Any

import pytest

from medviz.apps import PlayTable, ReplayViewer
from medviz.apps.common import MapPane
from medviz.apps.fit import MIN_MAP_HEIGHT, ScreenFit, fit_height, follow, layout_width
from medviz.engine.history import play
from medviz.engine.policy import RandomPolicy
from medviz.rules.medempires.ruleset import RULESET
from medviz.rules.medempires.view import history_view
from medviz.viz.state_map import fitted_height, state_map


def _panel(layout: Any) -> list[tuple[str, float, str]]:
    return [(a.name, round(a.y, 4), a.text) for a in layout.annotations]


def _spied(pane: MapPane) -> list[tuple[Any, Any, Any]]:
    """The update messages the pane's figure sends from now on (restyle, relayout, trace indexes), still sent."""
    sent: list[tuple[Any, Any, Any]] = []
    send = pane.figure._send_update_msg

    def spy(restyle_data: Any, relayout_data: Any, trace_indexes: Any = None, **kw: Any) -> Any:
        sent.append((restyle_data, relayout_data, trace_indexes))
        return send(restyle_data, relayout_data, trace_indexes, **kw)

    pane.figure._send_update_msg = spy
    return sent


def _received(browser: dict[str, Any], sent: list[tuple[Any, Any, Any]]) -> None:
    """Move ``browser`` (a figure's JSON) by the messages, as plotly.js does."""
    for restyle, relayout, indexes in sent:
        for key, values in restyle.items():
            for i, value in zip(indexes, values):
                _restyle(browser["data"][i], key, value)
        for key, value in relayout.items():
            _restyle(browser["layout"], key, value)


def test_fit_height_keeps_the_map_between_the_least_and_the_apps_own_height() -> None:
    assert fit_height(600, 750) == 600
    assert fit_height(2000, 750) == 750
    assert fit_height(100, 750) == MIN_MAP_HEIGHT  # the browser scales it down from there
    seen: list[int] = []
    fit = ScreenFit()
    follow(fit, lambda h, _w: seen.append(h), 750)
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


@pytest.mark.parametrize("width", [None, 1100])
def test_a_height_only_resize_sends_the_axes_by_their_parts_and_places_the_names_for_that_height(width: int | None) -> None:
    """plotly.js merges an axis given whole into the one it has (a stale domain stayed): a resize to another
    height alone sends the axes and legend by their parts, as a new width does, and the names and badges
    placed for the map at that height; what the browser holds then is a fresh drawing at that height."""
    game = play(RULESET, "vespers-1282", {}, seed=4, players={"A": RandomPolicy(1), "B": RandomPolicy(2)})
    view = history_view(game, 400)
    pane = MapPane(view, width, 750, ruleset=RULESET)
    browser = pane.figure.to_plotly_json()
    sent = _spied(pane)
    sent_layout: list[tuple[str, Any]] = []
    pane.figure._send_relayout_msg = lambda data, **kw: sent_layout.extend(data.items())  # update_layout's own messages
    assert pane.resize(560)
    whole = [k for _r, relayout, _i in sent for k in relayout if k in ("xaxis", "yaxis", "legend")]
    assert whole == [] and sent, [list(r) for _d, r, _i in sent]
    _received(browser, sent)
    for key, value in sent_layout:
        _restyle(browser["layout"], key, value)
    fresh = json.loads(json.dumps(state_map(view, width=width or 1200, height=560, ruleset=RULESET).to_plotly_json(), default=list))
    browser = json.loads(json.dumps(browser, default=list))
    for part in ("xaxis", "yaxis", "margin", "height", "annotations", "title"):
        assert browser["layout"][part] == fresh["layout"][part], part
    assert {k: browser["layout"]["legend"][k] for k in fresh["layout"]["legend"]} == fresh["layout"]["legend"]

    def placed(fig_json: dict[str, Any]) -> dict[str, Any]:
        return {t["name"]: (t.get("x"), t.get("y"), t.get("text"), (t.get("marker") or {}).get("size"))
                for t in fig_json["data"] if str(t.get("name")).startswith(("labels:", "units-", "leaders"))}

    assert placed(browser) == placed(fresh)
    assert placed(fresh) != placed(json.loads(json.dumps(state_map(view, width=width or 1200, height=750, ruleset=RULESET).to_plotly_json(), default=list)))
    assert (pane.figure.layout.width is None) == (width is None)


def test_the_apps_follow_the_room_their_screen_fit_reports() -> None:
    game = play(RULESET, "vespers-1282", {}, seed=4, players={"A": RandomPolicy(1), "B": RandomPolicy(2)})
    viewer = ReplayViewer(game, view_at=history_view)
    assert "medviz-app" in viewer._dom_classes and viewer.fit in viewer.children[0].children
    viewer.fit.room = 480
    assert viewer.map is not None and viewer.map.figure.layout.height == MIN_MAP_HEIGHT
    viewer.fit.room = 700  # more than the Vespers map needs at the width the viewer plans for: only what it needs
    assert viewer.map.figure.layout.height == fitted_height(viewer.map.figure) < 700 and viewer.map.height == 700
    viewer.model.cursor = 300
    assert "▶" in viewer.current.value and game.describe(300).split()[0] in viewer.current.value
    table = PlayTable(seed=3)
    table.fit.room = 900
    assert table.map is not None and table.map.figure.layout.height <= 750 and table.map.height == 750  # never taller than asked


def test_a_step_reaches_the_browser_in_one_message_and_draws_the_same_map() -> None:
    import plotly.graph_objects as go

    from medviz.viz.state_map import update_state_map

    game = play(RULESET, "vespers-1282", {}, seed=4, players={"A": RandomPolicy(1), "B": RandomPolicy(2)})
    counts = []
    for a, b in ((120, 400), (400, 900), (900, 901), (60, 1200)):
        pane = MapPane(history_view(game, a), None, 750, ruleset=RULESET)
        plain = go.FigureWidget(state_map(history_view(game, a), width=1200, height=750, ruleset=RULESET, fit_height=True))
        sent = _spied(pane)
        browser = pane.figure.to_plotly_json()  # what the browser holds, moved by the messages as plotly.js does
        pane.show(history_view(game, b))
        _received(browser, sent)
        update_state_map(plain, history_view(game, a), history_view(game, b), ruleset=RULESET)
        counts.append(len(sent))
        for restyle, _layout, indexes in sent:
            assert all(len(v) == len(indexes) for v in restyle.values())
            assert "_undefined_" not in str(restyle)
        # as JSON (tuples and lists alike), as the browser reads them
        mine, theirs, browser = (json.loads(json.dumps(f, default=list))
                                 for f in (pane.figure.to_plotly_json(), plain.to_plotly_json(), browser))
        for fig_json in (mine, theirs, browser):
            for trace in fig_json["data"]:
                trace.pop("uid", None)  # random per figure
                for key in [k for k, v in trace.items() if v == {}]:
                    del trace[key]  # an unset property sent as it is (None) leaves an empty dict
        assert mine["data"] == theirs["data"] and mine["layout"]["annotations"] == theirs["layout"]["annotations"]
        assert mine["layout"]["title"] == theirs["layout"]["title"]
        assert browser["data"] == mine["data"] and browser["layout"]["title"] == mine["layout"]["title"]
        assert browser["layout"]["annotations"] == mine["layout"]["annotations"]
    assert max(counts) == 1 and counts[2] == 0, counts  # one message a step, none if nothing changes


def _restyle(obj: dict[str, Any], path: str, value: Any) -> None:
    """Set ``path`` (``marker.size``, ``annotations[3].text``) in a figure's JSON as plotly.js does (None unsets)."""
    import re

    keys: list[Any] = []
    for part in path.split("."):
        m = re.fullmatch(r"(\w+)\[(\d+)\]", part)
        keys += [m.group(1), int(m.group(2))] if m else [part]
    for k in keys[:-1]:
        obj = obj[k] if isinstance(k, int) else obj.setdefault(k, {})
    if value is None:
        if isinstance(obj, dict):
            obj.pop(keys[-1], None)
    else:
        obj[keys[-1]] = value


def test_the_browsers_report_of_defaults_reaches_the_traces_without_an_echo() -> None:
    """After an update plotly.js reports every trace's computed defaults: each reaches its own trace
    (found by uid, in any order), on_change callbacks hear of it, and the report is not echoed back."""
    game = play(RULESET, "vespers-1282", {}, seed=4, players={"A": RandomPolicy(1), "B": RandomPolicy(2)})
    pane = MapPane(history_view(game, 120), None, 750, ruleset=RULESET)
    fig = pane.figure
    assert fig.trait_metadata("_js2py_traceDeltas", "echo_update") is False
    badge = next(i for i, t in enumerate(fig.data) if t.mode == "markers+text")
    area = next(i for i, t in enumerate(fig.data) if isinstance(t.meta, dict) and "area" in t.meta)
    assert fig.data[area].hovertext is None and fig.data[badge].marker.angleref is None
    heard: list[Any] = []
    fig.data[badge].marker.on_change(lambda obj, angleref: heard.append(angleref), "angleref")
    sent: list[Any] = []
    fig._send = lambda msg, buffers=None: sent.append(msg)  # what would go to the browser
    report = {"trace_edit_id": fig._last_trace_edit_id,
              "trace_deltas": [{"uid": fig.data[badge].uid, "marker": {"angleref": "up"}},
                               {"uid": fig.data[area].uid, "hovertext": ""}]}
    fig.set_state({"_js2py_traceDeltas": report})
    assert fig.data[area].hovertext == "" and fig.data[badge].marker.angleref == "up"
    assert heard == ["up"]
    assert not any("_js2py_traceDeltas" in str(m.get("state", {})) for m in sent)  # no 130 kB echo
    assert "angleref" not in str(fig.data[badge].to_plotly_json())  # a default, not a set property


def test_the_map_widgets_browser_code_reports_no_defaults_back() -> None:
    """The map's browser code is plotly's with the view's two report methods made no-ops and its ``do_update``
    drawn by map_redraw.js (tests/browser/test_map_step_redraw.py), and nothing else; the redraw is on unless
    MEDVIZ_STEP_REDRAW=0."""
    from pathlib import Path

    import plotly

    from medviz.apps.common import MapFigureWidget, _step_redraw_patch, _step_redraw_wanted, _widget_plotly, quiet_widget_esm

    esm, stepping = quiet_widget_esm(), quiet_widget_esm(step_redraw=True)
    plain = (Path(plotly.__file__).parent / "package_data" / "widgetbundle.js").read_text(encoding="utf-8")
    assert esm is not None and stepping is not None and len(esm) > len(plain)
    view = plain.split(" as FigureView")[0].rsplit(",", 1)[-1]  # the exported view class's local name
    patch = f";{view}.prototype._sendTraceDeltas=function(){{}};{view}.prototype._sendLayoutDelta=function(){{}};\n"
    assert esm.count(patch) == 1 and esm.replace(patch, "", 1) == plain  # the rest is plotly's, unchanged
    assert esm.index(patch) < esm.index(" as FigureView")  # before the export, at the module's top level
    plotly_js = _widget_plotly(plain)
    assert plotly_js is not None and plotly_js.endswith(".default")
    step = _step_redraw_patch(view, plotly_js)
    assert "_medvizRedraw" in step and f"}})({view},{plotly_js});" in step
    assert stepping.count(patch + step) == 1 and stepping.replace(patch + step, "", 1) == plain
    assert MapFigureWidget()._esm == (stepping if _step_redraw_wanted() else esm)
    assert _step_redraw_wanted({}) and _step_redraw_wanted({"MEDVIZ_STEP_REDRAW": "1"})  # on by default
    assert not _step_redraw_wanted({"MEDVIZ_STEP_REDRAW": "0"}) and not _step_redraw_wanted({"MEDVIZ_STEP_REDRAW": " 0 "})
    # A do_update of another shape (another plotly) stays plotly's own: only the reports are turned off.
    other = plain.replace('.default.update(this.el,', '.default.react(this.el,')
    assert _widget_plotly(other) is None


def test_a_map_is_planned_for_the_width_the_browser_measured() -> None:
    """ScreenFit.width reaches the map: names, badges, title and panel are placed for that width (the width
    it is laid out at where the browser scales it down), the panel's boxes sized for it."""
    from medviz.apps.fit import layout_width

    game = play(RULESET, "vespers-1282", {}, seed=4, players={"A": RandomPolicy(1), "B": RandomPolicy(2)})
    viewer = ReplayViewer(game, view_at=history_view)
    assert viewer.map is not None and viewer.map.planned_width == 1200
    viewer.fit.room, viewer.fit.width = 700, 1490  # 1920x1080 with JupyterLab's side bar open
    assert viewer.map.planned_width == 1490 and viewer.map.figure.layout.meta["width"] == 1490
    fresh = state_map(history_view(game, 0), width=1490, height=700, ruleset=RULESET)
    assert _panel(viewer.map.figure.layout) == _panel(fresh.layout)
    badges = [t for t in viewer.map.figure.data if t.mode == "markers+text"]
    assert [list(t.x) for t in badges] == [list(t.x) for t in fresh.data if t.mode == "markers+text"]
    viewer.fit.room = 400  # less than the least height: laid out 560 tall and scaled down by 400/560
    assert layout_width(viewer.fit) == round(1490 * MIN_MAP_HEIGHT / 400) == viewer.map.planned_width
    viewer.model.cursor = 300  # a step after the new plan: the panel as state_map draws it at that size
    again = state_map(history_view(game, 300), width=viewer.map.planned_width, height=MIN_MAP_HEIGHT, ruleset=RULESET)
    assert _panel(viewer.map.figure.layout) == _panel(again.layout)


def test_a_wide_map_laid_out_less_tall_than_the_least_is_laid_out_again_for_the_width_that_spans_the_app() -> None:
    """Under ``least`` px of room the map is laid out ``least`` tall and as much wider as the browser scales it
    down; a wide map laid out less tall than that (as tall as its shape needs) is scaled down less, so it is laid
    out again for the width at which, scaled for its own height, it spans the app (it was drawn wider than its
    place: the app scrolled sideways onto a blank band)."""
    calls: list[tuple[int, int | None]] = []
    laid_out = {"h": 0}

    def resize(height: int, width: int | None) -> None:
        calls.append((height, width))
        laid_out["h"] = 436  # Empire's Revolt's map and panel need 436 px at these widths

    fit = ScreenFit()
    follow(fit, resize, 750, laid_out=lambda: laid_out["h"])
    fit.width, fit.room = 520, 480  # room for the map laid out 436 tall: not scaled, as wide as the app
    assert calls == [(MIN_MAP_HEIGHT, 607), (MIN_MAP_HEIGHT, 520)]
    calls.clear()
    fit.room = 360  # scaled by 360/436 in the browser: laid out 1/k as wide as the app
    assert calls == [(MIN_MAP_HEIGHT, 809), (MIN_MAP_HEIGHT, 630)]
    assert layout_width(fit) == 809 and layout_width(fit, 436) == 630 and layout_width(fit, 900) == 809
    calls.clear()
    laid_out["h"] = 0
    tall = ScreenFit()
    follow(tall, lambda h, w: calls.append((h, w)), 750, laid_out=lambda: MIN_MAP_HEIGHT)
    tall.width, tall.room = 520, 360  # a map laid out the least height: once, 1/k as wide
    assert calls == [(MIN_MAP_HEIGHT, 809)]
    calls.clear()
    tall.room = 700  # room enough: laid out for the app's width, never again
    assert calls == [(700, 520)]
