"""The apps: models without widgets, views driven through their widgets."""

from __future__ import annotations

import copy
from typing import Any

import plotly.graph_objects as go
import pytest
import traitlets
from helpers_sample import sample_battle
from plotly.callbacks import Points

from medviz.apps import BranchTree, DiceLab, DiceLabModel, ReplayModel, ReplayViewer, branch_tree
from medviz.apps.model import branch_nodes, normalise_view_at, roll_effects
from medviz.engine.errors import MalformedInput, UnknownReference
from medviz.engine.history import History, play
from medviz.rules.medempires.ruleset import RULESET
from medviz.rules.medempires.view import setup_view
from medviz.viz.state_map import fitted_height

DECISIVE = "battle-1/combat-1/round-1/attacker"


def _battle(seed: int = 3) -> History:
    return sample_battle(seed)


@pytest.fixture()
def battle() -> History:
    return _battle()


_SETUP = setup_view()


def malta_view(h: History, seq: int) -> dict[str, Any]:
    """A map view for a battle history: the battle is fought for Malta; its winner takes it."""
    v = copy.deepcopy(_SETUP)
    v["title"] = "Battle for Malta"
    decided = next((e.seq for e in h.events if getattr(e, "roll", "") == DECISIVE), len(h))
    if seq >= decided:
        winner = h.outcome.get("winner")
        v["overlays"] = [{"kind": "battle", "area": "malta", "result": (h.outcome.get("results") or [""])[-1],
                          "winner": winner, "winner_side": {"attacker": "B", "defender": "A"}.get(winner)}]
        if winner == "attacker":
            v["control"]["malta"] = "B"
            v["units"]["malta"] = {"aragon": {"FA": 2, "L": 1, "M": 1}}
    return v


def _fill(fig: Any, area: str) -> str:
    return next(t.fillcolor for t in fig.data if isinstance(t.meta, dict) and t.meta.get("area") == area)


# -- models ------------------------------------------------------------------------------------
def test_replay_model_clamps_steps_and_jumps(battle: History) -> None:
    m = ReplayModel(battle)
    assert m.cursor == 0
    m.step(-3)
    assert m.cursor == 0
    m.step(5)
    assert m.cursor == 5 and "event 5 of 21" in m.where()  # numbered as the log and annotation files number events
    m.cursor = 999
    assert m.cursor == m.last == len(battle) - 1
    stops = m.stops()
    assert stops[0] == ("start", 0) and stops[-1] == ("end", m.last)
    assert any(DECISIVE in label for label, _ in stops)
    with pytest.raises(UnknownReference):
        m.jump_to_turn(3)
    with pytest.raises(MalformedInput):
        ReplayModel("not a history")  # type: ignore[arg-type]


def test_dice_lab_model_branches_switches_and_explains(battle: History) -> None:
    m = DiceLabModel(battle)
    assert m.selected_roll == DECISIVE and m.value == battle.roll(DECISIVE).value  # the deciding roll
    seen: list[Any] = []
    m.observe(lambda c: seen.append(c["new"]), names="current")
    m.value = 1
    child = m.make_branch()
    assert child.parent is battle and child in battle.children and m.current is child
    assert seen == [child] and m.tree_version == 1
    assert child.outcome["winner"] != battle.outcome["winner"]
    words = m.diff_words()
    assert "The two histories part at event 12" in words and "As played: Attacker wins." in words
    assert "In this branch: no winner." in words and "This branch: " in words and " shows 1 instead of " in words
    m.switch(battle)
    assert m.current is battle and m.value == battle.roll(DECISIVE).value
    assert "as played" in m.diff_words()
    with pytest.raises(MalformedInput):
        m.switch(_battle(seed=4))
    labels = [n.label for n in branch_nodes(battle)]
    assert labels[0].startswith("History as played") and " = 1 → no winner" in labels[1]
    assert "/" not in labels[1] and "Raid Combat Table" in labels[1]  # the roll in words, not its id


def test_roll_effects_say_what_each_face_would_mean(battle: History) -> None:
    rows = roll_effects(battle.roll(DECISIVE))
    assert [f for f, _m, _s in rows] == ["1", "2", "3", "4", "5", "6"]
    assert [s for _f, _m, s in rows].count(True) == 1 and dict((f, m) for f, m, _s in rows)["1"] == "NE"
    faces = roll_effects(battle.roll("battle-1/combat-1/initiative/attacker"))
    assert len(faces) == 6 and all(m == "" for _f, m, _s in faces)


def test_view_functions_of_one_or_two_arguments(battle: History) -> None:
    two = normalise_view_at(malta_view, battle)
    one = normalise_view_at(lambda seq: malta_view(battle, seq), battle)
    assert two is malta_view and one is not None
    assert one(battle, 15)["control"]["malta"] == "B"
    with pytest.raises(MalformedInput):
        one(_battle(seed=4), 0)


# -- views -------------------------------------------------------------------------------------
def test_replay_viewer_without_a_map_steps_log_and_table(battle: History) -> None:
    v = ReplayViewer(battle)
    assert v.map is None and "Forces" in v.battle.value
    v.slider.value = 5
    assert v.model.cursor == 5 and v.play.value == 5
    assert "initiative" in v.events.value and "▶" in v.events.value
    v.forward.click()
    assert v.model.cursor == 6 and v.slider.value == 6
    v.back.click()
    v.back.click()
    assert v.model.cursor == 4
    v.jump.value = battle.roll(DECISIVE).seq
    assert v.model.cursor == 12 and "Raid Combat Table" in v.events.value and v.jump.value == -1
    v.play.playing = True
    assert v.model.playing
    before = v.battle.value
    v.slider.value = len(battle) - 1
    assert v.battle.value != before and "anjou FA 0/3" in v.battle.value


class _Notes:
    """A duck-typed annotation set: one note on the deciding roll."""

    class Note:
        title = "Why the raid worked"
        html = "<p>The defender chose the raid table.</p>"

    def for_event(self, seq: int) -> list[Any]:
        return [self.Note()] if seq == 12 else []


def test_replay_viewer_with_a_map_recolours_and_shows_notes(battle: History) -> None:
    v = ReplayViewer(battle, view_at=malta_view, annotations=_Notes())
    assert isinstance(v.map.figure, go.FigureWidget)  # type: ignore[union-attr]
    fig = v.map.figure  # type: ignore[union-attr]
    start = _fill(fig, "malta")
    assert "no note" in v.notes.value
    v.slider.value = 12
    assert _fill(fig, "malta") != start  # Aragon took Malta at the deciding roll
    assert "Why the raid worked" in v.notes.value
    battles = next(t for t in fig.data if t.name == "battles")
    assert len(battles.x) == 1
    v.slider.value = 3
    assert _fill(fig, "malta") == start and "no note" in v.notes.value
    assert len(next(t for t in fig.data if t.name == "battles").x) == 0


def test_replay_viewer_can_start_later_and_refuses_a_start_outside(battle: History) -> None:
    v = ReplayViewer(battle, view_at=malta_view, annotations=_Notes(), start=12)
    assert v.model.cursor == 12 and v.slider.value == 12 and "Why the raid worked" in v.notes.value
    assert _fill(v.map.figure, "malta") != _fill(ReplayViewer(battle, view_at=malta_view).map.figure, "malta")  # type: ignore[union-attr]
    with pytest.raises(MalformedInput, match="start 999"):
        ReplayViewer(battle, start=999)


def test_dice_lab_on_a_battle_history_makes_and_compares_a_branch(battle: History) -> None:
    lab = DiceLab(battle)
    assert lab.map is None and lab.rolls.value == DECISIVE
    assert "the chance of that face: 1/6" in lab.headline.value and "<b>DV+S</b> — Decisive victory with stratagem" in lab.info.value
    lab.rolls.value = "battle-1/combat-1/initiative/defender"
    assert lab.model.selected_roll == "battle-1/combat-1/initiative/defender"
    lab.rolls.value = DECISIVE
    lab.faces.value = 1
    assert lab.model.value == 1
    lab.button.click()
    assert len(battle.children) == 1 and lab.model.current is battle.children[0]
    assert "The two histories part at event 12" in lab.diff.value
    assert "As played: Attacker wins." in lab.diff.value and "In this branch: no winner." in lab.diff.value
    assert "{" not in lab.diff.value and "None" not in lab.diff.value  # sentences, not dicts
    assert lab.tree.labels[0] == "History as played → Attacker wins"
    assert lab.tree.labels[1].startswith("    └ ") and lab.tree.labels[1].endswith(" = 1 → no winner")
    assert "anjou FA 3/3" in lab.battle.value  # the defender kept its army in the branch ...
    assert "Its parent" in lab.battle.value and "anjou FA 0/3" in lab.battle.value  # ... and lost it as played
    lab.tree.select.value = 0
    assert lab.model.current is battle and "as played" in lab.diff.value


def test_dice_lab_on_the_map_click_branch_and_areas_changing_hands(battle: History) -> None:
    lab = DiceLab(battle, view_at=malta_view)
    fig = lab.map.figure  # type: ignore[union-attr]
    taken = _fill(fig, "malta")
    lab.model.select("battle-1/combat-1/initiative/attacker")
    battles_idx = next(i for i, t in enumerate(fig.data) if t.name == "battles")
    fig.data[battles_idx]._dispatch_on_click(Points(point_inds=[0], xs=[0], ys=[0], trace_name="battles",
                                                    trace_index=battles_idx), None)
    assert lab.model.selected_roll == DECISIVE  # the click picked the battle's deciding roll
    lab.faces.value = 1
    lab.button.click()
    assert _fill(fig, "malta") != taken  # Malta stays Angevin in the branch
    assert "Malta: held by Aragon (Player B) as played, by France and Anjou (Player A) in the what-if." in lab.diff.value
    lab.tree.select.value = 0
    assert _fill(fig, "malta") == taken


def test_branch_tree_lists_every_branch_and_selects(battle: History) -> None:
    battle.branch(DECISIVE, 1)
    battle.branch(DECISIVE, 3)
    tree = branch_tree(battle)
    assert isinstance(tree, BranchTree) and len(tree.labels) == 3
    tree.select.value = 2
    assert tree.model.current is battle.children[1]
    tree.model.value = 2
    tree.model.make_branch()
    assert len(tree.labels) == 4 and tree.labels[3].startswith("        └")


def test_views_are_widgets_built_without_display(battle: History, monkeypatch: pytest.MonkeyPatch) -> None:
    import IPython.display

    monkeypatch.setattr(IPython.display, "display", lambda *a, **k: pytest.fail("display() was called"))
    for w in (ReplayViewer(battle), DiceLab(battle), branch_tree(battle)):
        import ipywidgets

        assert isinstance(w, ipywidgets.VBox)
    import ast

    import medviz.apps.model as model_module

    tree = ast.parse(open(model_module.__file__, encoding="utf-8").read())
    imported = {a.name for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names}
    imported |= {n.module or "" for n in ast.walk(tree) if isinstance(n, ast.ImportFrom)}
    assert not any(m.startswith(("ipywidgets", "plotly", "IPython")) for m in imported), imported
    assert issubclass(ReplayModel, traitlets.HasTraits) and issubclass(DiceLabModel, traitlets.HasTraits)


def test_deciding_roll_of_a_battle_in_a_whole_game() -> None:
    from medviz.engine.policy import RandomPolicy

    game = play(RULESET, "vespers-1282", {}, seed=1, players={"A": RandomPolicy(1), "B": RandomPolicy(2)})
    opened = next(e for e in game.events if getattr(e, "change", "") == "battle-opened")
    closed = next(e for e in game.events[opened.seq:] if getattr(e, "change", "") == "battle-closed")
    m = DiceLabModel(game)
    roll_id = m.decisive_roll_at(opened.data["area"], before=closed.seq)
    roll = game.roll(roll_id)
    assert opened.seq < roll.seq < closed.seq and "/battle/" in roll_id and roll.effects
    child = (m.select(roll_id), setattr(m, "value", 1 if roll.value != 1 else 6), m.make_branch())[-1]
    assert child.parent is game and m.diff_words().startswith(f"This branch: {RULESET.describe_roll(game, roll)} shows ")


def test_dice_lab_on_a_whole_game_shows_the_roll_phase_or_the_end() -> None:
    from medviz.engine.policy import RandomPolicy
    from medviz.rules.medempires import view as view_module

    history_view = getattr(view_module, "history_view", None)
    if history_view is None:
        pytest.skip("rules/medempires/view.py has no history_view yet")
    game = play(RULESET, "vespers-1282", {}, seed=1, players={"A": RandomPolicy(1), "B": RandomPolicy(2)})
    lab = DiceLab(game, view_at=history_view)
    fig = lab.map.figure  # type: ignore[union-attr]
    roll = game.roll(lab.model.selected_roll)
    phase = next(s for s in game.phases() if s.start <= roll.seq < s.end)
    assert f"turn {phase.turn}" in fig.layout.title.text
    lab.when.value = "end"
    assert fig.layout.title.text.startswith("<b>Game over. Player ")  # the end of the game: the winner's banner
    lab.faces.value = 1 if roll.value != 1 else 6
    lab.button.click()
    assert lab.model.current.parent is game and "The two histories part at event" in lab.diff.value


def _map_data(fig: Any) -> list[dict[str, Any]]:
    """A figure's traces as plain data, without the ids FigureWidget gives them."""
    return [{k: v for k, v in t.to_plotly_json().items() if k != "uid"} for t in fig.data]


def test_picking_a_roll_moves_the_dice_lab_map_to_it_at_once() -> None:
    from medviz.engine.policy import RandomPolicy
    from medviz.rules.medempires.view import history_view
    from medviz.viz.state_map import state_map

    game = play(RULESET, "vespers-1282", {}, seed=1, players={"A": RandomPolicy(1), "B": RandomPolicy(2)})
    lab = DiceLab(game, view_at=history_view)
    fig = lab.map.figure  # type: ignore[union-attr]
    first = game.roll(lab.model.selected_roll)
    other = next(r for r in game.rolls() if getattr(r, "effects", None)
                 and not any(s.start <= first.seq < s.end and s.start <= r.seq < s.end for s in game.phases()))
    before = _map_data(fig)
    lab.rolls.value = other.roll  # picked from the menu: no branch, no toggle
    assert lab.model.selected_roll == other.roll
    phase = next(s for s in game.phases() if s.start <= other.seq < s.end)
    expected = state_map(history_view(game, phase.end - 1), width=1200, height=750, fit_height=True)
    assert _map_data(fig) != before
    assert _map_data(fig) == _map_data(expected)  # the map is the state at the end of the roll's phase
    assert fig.layout.title.text == expected.layout.title.text and f"turn {phase.turn}" in fig.layout.title.text
    # Looking at the end of the game, a pick brings the map back to the picked roll's phase.
    lab.when.value = "end"
    assert _map_data(fig) == _map_data(state_map(history_view(game, len(game) - 1), width=1200, height=750, fit_height=True))
    lab.model.select(first.roll)  # as a click on a battle does
    assert lab.when.value == "phase"
    first_phase = next(s for s in game.phases() if s.start <= first.seq < s.end)
    assert _map_data(fig) == _map_data(state_map(history_view(game, first_phase.end - 1), width=1200, height=750, fit_height=True))


def test_app_maps_follow_the_width_of_the_output_area(battle: History) -> None:
    lab = DiceLab(battle, view_at=malta_view)
    viewer = ReplayViewer(battle, view_at=malta_view)
    for app in (lab, viewer):
        fig = app.map.figure  # type: ignore[union-attr]
        # under the 750 px asked: only as tall as the Vespers map needs at the width it is laid out for (no band under it)
        assert fig.layout.width is None and fig.layout.autosize is True
        assert fig.layout.height == fitted_height(fig) < 750
        assert fig._config.get("responsive") is True  # plotly.js refits it when the window resizes
        assert app.layout.width == "100%"
        # The browser reports a new view: the figure is laid out again, so plotly.js measures its width.
        sent: list[Any] = []
        fig.observe(lambda c: sent.append(c["new"]), names="_py2js_update")
        fig._view_count = 1
        assert any(m and m.get("layout_data") == {"uirevision": "medviz-1"} for m in sent), sent
    fixed = DiceLab(battle, view_at=malta_view, map_size=(900, 600))
    assert fixed.map.figure.layout.width == 900  # type: ignore[union-attr]
    assert fixed.map.figure.layout.height == fitted_height(fixed.map.figure) < 600  # type: ignore[union-attr]


def test_branch_list_is_as_wide_as_its_longest_entry_and_scrolls(battle: History) -> None:
    from medviz.apps.tree import CHAR_PX, LIST_PX

    tree = branch_tree(battle)
    assert tree.select.layout.width == f"{LIST_PX}px"
    child = battle.branch(DECISIVE, 1)
    child.branch("battle-1/combat-1/initiative/attacker", 2)
    tree.model.tree_version += 1
    longest = max(len(label) for label in tree.labels)
    assert longest > LIST_PX / CHAR_PX  # longer than the box shows
    assert int(tree.select.layout.width[:-2]) >= longest * CHAR_PX
    assert tree.scroller.layout.min_width == f"{LIST_PX}px" and tree.scroller.layout.overflow == "auto"


def test_branch_compare_outlines_what_a_die_changed_at_the_roll_phase_and_the_end() -> None:
    from medviz.apps import BranchCompare
    from medviz.engine import ChangeEvent
    from medviz.rules.medempires.view import history_view
    from medviz.viz.state_map import changed_areas

    historical = RULESET.policies["historical"]()
    game = play(RULESET, "vespers-1282", {}, seed=1490, players={"A": historical, "B": historical})
    # The first naval battle whose deciding roll, given another result, leaves an area in other hands
    # at the end (as the Vespers notebook picks its what-if).
    naval = [e for e in game.events if isinstance(e, ChangeEvent) and e.change == "battle-opened"
             and e.data["kind"] == "sea"]
    found = None
    for battle in naval:
        rolls = [r for r in game.rolls() if getattr(r, "roll", "").startswith(battle.data["prefix"] + "/")
                 and "/round-" in r.roll]
        for roll in rolls[-1:]:
            for face in (int(f) for f, r in roll.effects.items() if r != roll.effects[str(roll.value)]):
                branch = game.branch(roll.roll, face)
                if branch.outcome["control"] != game.outcome["control"]:
                    found = (roll, face, branch)
                    break
            if found:
                break
        if found:
            break
    assert found, "no naval roll of the Vespers replay changes who holds an area at the end"
    roll, face, branch = found
    moved = sorted(a for a in set(game.outcome["control"]) | set(branch.outcome["control"])
                   if game.outcome["control"].get(a) != branch.outcome["control"].get(a))
    cmp = BranchCompare(branch, view_at=history_view)
    sent: list[list[str]] = [[], []]
    for k, pane in enumerate(cmp.panes):  # every message a map sends its browser (plotly's _py2js_* traits)
        names = [n for n in pane.figure.trait_names() if n.startswith("_py2js_")]
        pane.figure.observe(lambda c, _k=k: c["new"] is not None and sent[_k].append(c["name"]), names=names)
    for when in ("phase", "end"):
        before = [len(s) for s in sent]
        cmp.when.value = when
        # one click, one message to each map: the new moment and its outlines together (one redraw)
        assert [len(s) - b for s, b in zip(sent, before)] == ([0, 0] if when == "phase" else [1, 1]), sent
        left, right = (p.figure for p in cmp.panes)
        # the same moment of both wars (at the end each says who won in it)
        assert left.layout.title.text == right.layout.title.text or when == "end"
        assert when != "end" or "Game over." in right.layout.title.text
        assert cmp.changed and cmp.changed == changed_areas(cmp.panes[0].view, cmp.panes[1].view)
        assert when != "end" or set(moved) <= set(cmp.changed)
        for fig in (left, right):
            marked = next(t for t in fig.data if t.name == "marked-areas")
            assert list(marked.meta["marked"]) == cmp.changed and len(marked.x) > 10
        assert when != "end" or ("as played, by" in cmp.words.value and "in the what-if." in cmp.words.value)
        assert f"shows {face}" in cmp.words.value and "_" not in cmp.words.value.split("shows")[0][-60:]
    assert changed_areas(cmp.panes[0].view, cmp.panes[0].view) == []
    cmp.show.value = "branch"
    assert cmp.columns[0].layout.display == "none" and cmp.columns[1].layout.display is None
    with pytest.raises(MalformedInput):
        BranchCompare(game, view_at=history_view)  # the history as played has no parent to compare with


# -- time you can read (issue 15, point 7) -------------------------------------------------------
def _vespers() -> History:
    from medviz.engine.policy import RandomPolicy

    return play(RULESET, "vespers-1282", {}, seed=1, players={"A": RandomPolicy(1), "B": RandomPolicy(2)})


def test_replay_speaks_years_and_phases_in_the_rulesets_words() -> None:
    from medviz.rules.medempires.view import history_view

    game = _vespers()
    m = ReplayModel(game)
    ops = next(s for s in game.phases() if s.turn == 2 and s.phase == "operations-B")
    m.cursor = ops.start
    years = RULESET.turn_label("vespers-1282", 2)  # GT2 (1291-1300) or as the scenario's turn_years say
    assert "(" in years and m.where() == f"{years} · Player B's operations · event {ops.start} of {m.last}"
    assert (f"{years} · Player B's operations", ops.start) in m.stops()
    assert not any("_" in label or "operations-B" in label for label, _ in m.stops())
    v = ReplayViewer(game, view_at=history_view)
    labels = [label for label, _ in v.jump.options]
    assert f"{years} · Player B's operations" in labels
    assert f"title='{years} · Player B&#x27;s operations'" in v.ticks.value


def test_replay_jump_menu_bookmarks_the_annotated_moments() -> None:
    from pathlib import Path

    from medviz.export.annotations import load_annotations
    from medviz.rules.medempires.view import history_view

    game = play(RULESET, "vespers-1282", {}, seed=1490,
                players={s: RULESET.policies["historical"]() for s in ("A", "B")})
    notes = load_annotations(Path(__file__).parent.parent / "notebooks" / "annotations" / "vespers-1282.toml", game)
    v = ReplayViewer(game, view_at=history_view, annotations=notes)
    marks = [(label, seq) for label, seq in v.jump.options if label.startswith("★ ")]
    assert len(marks) == len([n for n in notes.notes if n.spans]) > 0
    first = min(notes.notes, key=lambda n: n.spans[0][0] if n.spans else 10**9)
    assert (f"★ {first.title}", first.spans[0][0]) in marks
    v.jump.value = marks[-1][1]
    assert v.model.cursor == marks[-1][1] and "medviz-note" in v.notes.value


def test_play_skips_bookkeeping_steps_unless_every_event_is_asked_for() -> None:
    from medviz.apps.model import portrayal_changes
    from medviz.rules.medempires.view import history_view

    game = _vespers()
    shown = portrayal_changes(game, history_view)
    m = ReplayModel(game, shown=shown)
    quiet = [s for s in range(1, m.last) if not shown(s)]
    assert quiet, "a whole game has steps that change nothing on the map"
    m.cursor = quiet[0] - 1
    m.playing = True
    nxt = m.advance()
    assert nxt > quiet[0] and history_view(game, nxt) != history_view(game, nxt - 1)
    assert all(history_view(game, s) == history_view(game, quiet[0] - 1) for s in range(quiet[0], nxt))
    m.cursor, m.every = quiet[0] - 1, True
    assert m.advance() == quiet[0]  # "show every event": one step at a time
    m.cursor = m.last - 1
    m.advance()
    assert m.cursor == m.last and not m.playing  # play pauses at the end


def test_pause_keeps_the_place_and_speeds_set_the_timer(battle: History) -> None:
    from medviz.apps.model import SPEEDS

    v = ReplayViewer(battle, view_at=malta_view)
    assert v.play.layout.display == "none"  # ipywidgets' own ■ would jump back to the set-up
    v.slider.value = 4
    v.toggle.value = True
    assert v.model.playing and v.play.playing and v.toggle.description == "❚❚ pause"
    v.play.value = 5  # the browser's timer ticks
    v.play.value = v.play.value + 1
    at = v.model.cursor
    assert at > 4 and v.slider.value == at == v.play.value
    v.toggle.value = False
    assert not v.play.playing and v.model.cursor == at and v.slider.value == at and v.toggle.description == "▶ play"
    assert [label for label, _ in v.speed.options] == list(SPEEDS)
    v.speed.value = SPEEDS["fast"]
    assert v.play.interval == SPEEDS["fast"] < SPEEDS["slow"]
    v.every.value = True
    assert v.model.every
