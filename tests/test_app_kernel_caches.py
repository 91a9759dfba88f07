"""What the apps keep between clicks (issue 15, the kernel's share of a click) shows exactly what a fresh start shows."""

from __future__ import annotations

import gzip
import importlib
from pathlib import Path
from typing import Any

import pytest

import medviz.rules.medempires.game  # noqa: F401  (registers the whole-game scenarios)
from medviz.engine.events import ChangeEvent
from medviz.engine.errors import UnknownReference
from medviz.engine.history import History, play
from medviz.rules.medempires import words

GOLDEN = Path(__file__).parent / "golden" / "vespers-1282-seed-1.json.gz"


@pytest.fixture(scope="module")
def vespers() -> History:
    return History.from_json(gzip.decompress(GOLDEN.read_bytes()).decode("utf-8"), GOLDEN.name)


def _battle_by_scan(history: History, roll_id: str) -> ChangeEvent | None:
    """The latest battle-opened event whose prefix the roll id starts with, by a pass over every event."""
    found = None
    for e in history.events:
        if isinstance(e, ChangeEvent) and e.change == "battle-opened" and roll_id.startswith(str(e.data["prefix"]) + "/"):
            found = e
    return found


def test_a_rolls_battle_found_by_the_index_is_the_one_a_scan_finds(vespers: History) -> None:
    branch = vespers.branch(vespers.rolls()[len(vespers.rolls()) // 2].roll, 1)
    for h in (vespers, branch):
        rolls = [str(getattr(r, "roll", None) or getattr(r, "draw", "")) for r in h.rolls()]
        found = [words._battle_of(h, rid) for rid in rolls]
        assert found == [_battle_by_scan(h, rid) for rid in rolls]
        assert sum(f is not None for f in found) > 20  # the war's battles name most of its rolls
    # ids that start like a battle's prefix without its "/" are no roll of it
    prefix = str(next(e for e in vespers.events if isinstance(e, ChangeEvent) and e.change == "battle-opened").data["prefix"])
    assert words._battle_of(vespers, prefix + "x/round-1/attacker") is None
    assert words._battle_of(vespers, prefix + "/round-1/attacker") is _battle_by_scan(vespers, prefix + "/round-1/attacker")


def _map_data(fig: Any) -> list[dict[str, Any]]:
    """A figure's traces as plain data, without the ids FigureWidget gives them."""
    return [{k: v for k, v in t.to_plotly_json().items() if k != "uid"} for t in fig.data]


def _figure(fig: Any) -> dict[str, Any]:
    return {"data": _map_data(fig), "layout": fig.layout.to_plotly_json()}


def _walk(viewer: Any, forget: bool = False) -> list[tuple[int, dict[str, Any]]]:
    """Steps on and back, jumps there and back again, the slider back to moments seen: the map at each stop.
    With ``forget`` the map's frames are worked out afresh at each stop (``_FigureFacts.spills`` emptied)."""
    out = []
    entries = [v for _label, v in viewer.jump.options if v >= 0]

    def stop() -> None:
        out.append((viewer.model.cursor, _figure(viewer.map.figure)))
        if forget:
            importlib.import_module("medviz.viz.state_map")._facts_of(viewer.map.figure).spills.clear()

    for _ in range(6):
        viewer.forward.click()
    stop()
    for _ in range(4):
        viewer.back.click()
        stop()
    for k in (len(entries) // 2, 3, len(entries) // 2, 3):  # each entry twice
        viewer.jump.value = entries[k]
        stop()
    seen = viewer.model.cursor
    viewer.slider.value = seen + 10
    stop()
    viewer.slider.value = seen  # back to a moment drawn before
    stop()
    for entry in entries * 2:  # every jump, twice: titles of one line and of two move the map between frames
        viewer.jump.value = entry
        stop()
    return out


def test_a_moment_shown_again_is_drawn_from_what_the_map_remembers_and_looks_the_same(
        vespers: History, monkeypatch: pytest.MonkeyPatch) -> None:
    from medviz.apps import ReplayViewer
    from medviz.rules.medempires.view import history_view
    sm = importlib.import_module("medviz.viz.state_map")  # the module (medviz.viz.state_map is also its function)
    planned: list[Any] = []
    plan = sm._plan_portrayal
    monkeypatch.setattr(sm, "_plan_portrayal", lambda *a: planned.append(a[0]) or plan(*a))
    remembering = ReplayViewer(vespers, view_at=history_view, start=1)
    planned.clear()
    walked = _walk(remembering)
    entries = len([v for _label, v in remembering.jump.options if v >= 0])
    moves = 6 + 4 + 4 + 2 + 2 * entries  # clicks in the walk: 4 steps back, 2 jumps and a slider move, and the
    assert len(planned) <= moves - 6 - entries  # second round of jumps return to moments seen: not planned again
    facts = sm._facts_of(remembering.map.figure)  # type: ignore[union-attr]
    assert 0 < len(facts.plans) <= sm.PLAN_KEEP
    assert facts.spills  # the map moved to another frame and back
    for (map_name, frame, style), spills in facts.spills.items():
        assert spills == sm._spilling_names(sm._geo(map_name), facts.places, frame, style)

    monkeypatch.setattr(sm, "PLAN_KEEP", 0)
    forgetting = ReplayViewer(vespers, view_at=history_view, start=1)
    forgetting.view_at.keep = 0  # type: ignore[union-attr]  # every view made afresh too
    planned.clear()
    fresh = _walk(forgetting, forget=True)
    assert len(planned) >= moves  # each move planned afresh
    assert [seq for seq, _f in walked] == [seq for seq, _f in fresh]
    for (seq, mine), (_seq, theirs) in zip(walked, fresh):
        assert mine == theirs, f"the map at event {seq} differs when drawn from what it remembers"


def test_a_view_cache_gives_the_same_view_again_and_tells_histories_apart(vespers: History) -> None:
    from medviz.apps.model import ViewCache

    made: list[tuple[int, int]] = []

    def view_at(h: History, seq: int) -> dict[str, Any]:
        made.append((id(h), seq))
        return {"seq": seq, "events": len(h)}

    views = ViewCache(view_at, keep=2)
    branch = vespers.branch(vespers.rolls()[-1].roll, 1)
    a = views(vespers, 5)
    assert views(vespers, 5) is a and len(made) == 1
    assert views(branch, 5) is not a and len(made) == 2  # another history, the same event: made for it
    views(vespers, 6)  # the third view pushes out the least recent (event 5 of the war as played)
    assert views(vespers, 5) is not a and len(made) == 4


def test_a_branch_shows_the_map_a_fresh_dice_lab_on_the_branch_shows(vespers: History) -> None:
    from medviz.apps import DiceLab
    from medviz.rules.medempires.view import history_view

    lab = DiceLab(vespers, view_at=history_view)
    picked = lab.model.selected_roll
    for face in [v for _label, v in lab.faces.options if v != lab.model.value][:2]:
        lab.model.switch(vespers)
        lab.faces.value = face
        child = lab.branch()
        assert child is not None and lab.model.current is child
        fresh = DiceLab(child, view_at=history_view, roll=picked)
        assert _figure(lab.map.figure) == _figure(fresh.map.figure)  # type: ignore[union-attr]
        assert lab.rolls.options == fresh.rolls.options and lab.rolls.value == fresh.rolls.value
        lab.when.value = "end"  # and at the end of the branched war
        fresh.when.value = "end"
        assert _figure(lab.map.figure) == _figure(fresh.map.figure)  # type: ignore[union-attr]
        lab.when.value = "phase"


def test_after_a_branch_each_menu_is_sent_once_with_its_pick_and_an_equal_menu_not_at_all() -> None:
    from medviz.apps import DiceLab
    from medviz.rules.medempires.view import history_view

    war = History.from_json(gzip.decompress(GOLDEN.read_bytes()).decode("utf-8"), GOLDEN.name)  # no branches yet
    lab = DiceLab(war, view_at=history_view)
    sent: list[tuple[Any, dict[str, Any]]] = []
    for w in (lab.rolls, lab.tree.select):
        w._send = lambda msg, buffers=None, w=w: sent.append((w, dict(msg.get("state", {}))))
    lab.faces.value = next(v for _label, v in lab.faces.options if v != lab.model.value)
    sent.clear()
    lab.button.click()
    rolls = [state for w, state in sent if w is lab.rolls]
    tree = [state for w, state in sent if w is lab.tree.select]
    # one message each, the new entries with the pick (never the first entry picked in between)
    assert len(rolls) == 1 and set(rolls[0]) == {"_options_labels", "index"}
    assert rolls[0]["index"] == [v for _label, v in lab.rolls.options].index(lab.model.selected_roll)
    assert len(tree) == 1 and set(tree[0]) == {"_options_labels", "index"} and tree[0]["index"] == 1
    sent.clear()
    lab._refresh_rolls()  # the same branch: the same menu
    lab.tree._refresh()
    assert sent == []


def test_a_map_step_sets_the_figure_here_as_plotly_update_does_and_still_calls_change_callbacks(vespers: History) -> None:
    from medviz.apps import ReplayViewer
    from medviz.apps.common import _listened
    from medviz.rules.medempires.view import history_view

    quick = ReplayViewer(vespers, view_at=history_view, start=1)
    assert quick.map is not None and not _listened(quick.map.figure)
    plotly_way = ReplayViewer(vespers, view_at=history_view, start=1)
    assert plotly_way.map is not None
    heard: list[Any] = []
    fig = plotly_way.map.figure
    for trace in fig.data:  # a callback on every trace: the updates go through plotly's plotly_update
        trace.on_change(lambda *args: heard.append(args), "x", "y", "text", "visible")
    assert _listened(fig)
    uids = [t.uid for t in quick.map.figure.data]
    for viewer in (quick, plotly_way):
        viewer.model.cursor = 200
        for _ in range(3):
            viewer.forward.click()
    assert heard  # plotly called them
    assert _figure(quick.map.figure) == _figure(fig)
    assert [t.uid for t in quick.map.figure.data] == uids  # the browser's traces are still the same ones


def test_a_roll_found_by_the_index_is_the_event_a_pass_over_the_events_finds(vespers: History) -> None:
    from medviz.engine.game import chance_event, chance_keys
    from medviz.engine.policy import RandomPolicy
    from medviz.rules.medieval_xiii.ruleset import RULESET as MEDIEVAL

    cards = play(MEDIEVAL, "four-players", {}, seed=3, players={s: RandomPolicy(i) for i, s in enumerate("ABCD")})
    assert cards.shuffles()  # card places (<shuffle>/<n>) as well as rolls
    for h in (vespers, cards):
        keys = chance_keys(h.events)
        assert keys and all(h.roll(k) is chance_event(h.events, k) for k in keys)
    deck = cards.shuffles()[0]
    for key in (f"{deck.shuffle}/0", f"{deck.shuffle}/{len(deck.order) + 1}", f"{deck.shuffle}/x", "no-such-roll"):
        assert chance_event(cards.events, key) is None
        with pytest.raises(UnknownReference):
            cards.roll(key)
