"""Medieval on the generic floors: its map through the Ruleset hooks, the replay viewer, the dice lab, a seat's view."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import pytest

from medviz.engine import History, get_ruleset, play
from medviz.engine.portrayal import Portrayal
from medviz.rules.medieval_xiii.players import HeuristicPolicy
from medviz.rules.medieval_xiii.portrayal import CARD_LOOK, TAKEN
from medviz.rules.medieval_xiii.ruleset import COLOURS, HIDDEN

RS = get_ruleset("medieval-xiii")


@pytest.fixture(scope="module")
def game() -> History:
    """A four-player game of heuristic players that ends with map cards destroyed by the Mongols."""
    return play(RS, "four-players", {}, seed=3,
                players={s: HeuristicPolicy.from_spec(str(i)) for i, s in enumerate("ABCD")})


def _fills(fig: Any) -> dict[str, str]:
    return {t.meta["area"]: t.fillcolor for t in fig.data
            if isinstance(t.meta, Mapping) and t.meta.get("kind") == "land"}


def _portrayal(view: Any) -> Portrayal:
    from medviz.geo import load
    from medviz.viz.state_map import DEFAULT_STATE_STYLE, places_of_map, portrayal_of

    return portrayal_of(view, places_of_map(load("medieval-xiii")), DEFAULT_STATE_STYLE, RS)


def _battle_seq(game: History) -> int:
    """The event that reports the first battle the attacker wins."""
    return next(e.seq for e in game.events if e.kind == "report" and e.report == "battle"
                and e.data["winner"] == "attacker")


def test_the_view_is_json_and_knows_cards_control_and_money(game: History) -> None:
    import json

    last = RS.view_at(game, len(game) - 1)
    json.dumps(last)
    state = game.final_state
    assert last["control"] == {p: s for p, s in state.control.items() if state.in_play(p)}
    assert {s: i["florins"] for s, i in last["seats"].items()} == state.florins
    assert {s: i["vp"] for s, i in last["seats"].items()} == game.outcome["scores"]
    statuses = set(last["cards"].values())
    assert {"play", "face-down", "destroyed"} <= statuses
    destroyed = {e.data["card"] for e in game.events if e.kind == "change" and e.change == "map_card"
                 and e.data["status"] == "destroyed"}
    assert destroyed and {c for c, s in last["cards"].items() if s == "destroyed"} == destroyed
    start = RS.view_at(game, -1)
    from medviz.rules.medieval_xiii.gamedata import START_CARDS

    assert {c for c, s in start["cards"].items() if s == "play"} == set(START_CARDS) and not start["control"]
    assert {s for c, s in start["cards"].items() if c not in START_CARDS} == {"face-down"}


def test_the_portrayal_colours_provinces_by_seat_and_draws_cards_face_down(game: History) -> None:
    seq = _battle_seq(game)
    view = RS.view_at(game, seq)
    p = _portrayal(view)
    held = next(pid for pid, s in view["control"].items() if s == "A")
    assert p.fills[held].hover.endswith("held by Player A") or "held by Player A" in p.fills[held].hover
    down = next(c for c, s in view["cards"].items() if s == "face-down")
    prov = next(pid for pid, info in view["provinces"].items() if info["card"] == down)
    assert (p.fills[prov].colour, p.fills[prov].pattern) == CARD_LOOK["face-down"][:2]
    battles = next(m for m in p.marks if m.id == "battles")
    target = game[seq].data["target"]
    star = next(m for m in battles.marks if m.area == target)
    assert battles.clickable and star.colour == TAKEN and star.roll and star.roll.endswith("/attacker")
    panel = {b.id: b for b in p.panel}
    assert {f"panel-seat-{s}" for s in "ABCD"} <= set(panel)
    a = view["seats"]["A"]
    assert f"{a['vp']} VP" in panel["panel-seat-A"].text and f"{a['florins']} Fl" in panel["panel-seat-A"].text
    assert panel["panel-seat-A"].colour == COLOURS["A"]
    end = _portrayal(RS.view_at(game, len(game) - 1))
    gone = next(c for c, s in RS.view_at(game, len(game) - 1)["cards"].items() if s == "destroyed")
    assert any(m.area == gone and "destroyed" in m.text for layer in end.marks for m in layer.marks)


def test_the_state_map_draws_and_steps_a_medieval_game(game: History) -> None:
    from medviz.viz.state_map import state_map, update_state_map

    first, mid = RS.view_at(game, 80), RS.view_at(game, _battle_seq(game))
    fig = state_map(first, ruleset=RS, width=1280, height=720)
    data = fig.to_plotly_json()
    assert data["layout"]["meta"]["game"] == "medieval-xiii" and data["layout"]["meta"]["clickable"] == ["battles"]
    seat_colour = {s: i["colour"] for s, i in first["seats"].items()}
    fills = _fills(fig)
    assert fills[next(iter(first["control"]))] != "#f3ecdc" and len(set(fills.values())) > 4
    assert update_state_map(fig, first, mid) > 0
    fresh = state_map(mid, ruleset=RS, width=1280, height=720)
    assert _fills(fig) == _fills(fresh)
    panel = {a.name: a.text for a in fig.layout.annotations}
    assert panel == {a.name: a.text for a in fresh.layout.annotations}
    assert "Player A" in panel["panel-seat-A"] and seat_colour["A"] == COLOURS["A"]


def test_scores_compare_and_seat_titles(game: History) -> None:
    last = RS.view_at(game, len(game) - 1)
    vp, fl = RS.scores(last)
    assert vp[0] == "VP" and dict(vp[2]) == game.outcome["scores"] and fl[0] == "Fl"
    words = RS.compare_views(RS.view_at(game, 80), last)
    assert words[0].startswith("Provinces that changed hands") and any(w.startswith("Map cards") for w in words)
    assert RS.seat_title("A", "four-players", game.state_at(80)).startswith("Player A (")
    assert RS.seat_title("A", "four-players") == "Player A"


def test_the_hidden_hands_stay_hidden_in_a_seats_view(game: History) -> None:
    from medviz.rules.medieval_xiii.view import history_view

    seq = 80
    mine = history_view(game, seq, "B")
    assert mine["seen_by"] == "B" and isinstance(mine["seats"]["B"]["hand"], list)
    assert all(isinstance(mine["seats"][s]["hand"], int) for s in "ACD")
    assert HIDDEN not in str(mine["seats"]["B"]["hand"])
    p = _portrayal(mine)
    assert any(b.id == "panel-hand" for b in p.panel)
    assert not any(b.id == "panel-hand" for b in _portrayal(RS.view_at(game, seq)).panel)


def test_the_replay_viewer_steps_a_medieval_game(game: History) -> None:
    from medviz.apps import ReplayViewer

    viewer = ReplayViewer(game)
    assert viewer.map is not None
    before = _fills(viewer.map.figure)
    viewer.model.cursor = len(game) - 1
    after = _fills(viewer.map.figure)
    assert before != after
    gone = next(c for c, s in RS.view_at(game, len(game) - 1)["cards"].items() if s == "destroyed")
    prov = next(p for p, i in RS.view_at(game, -1)["provinces"].items() if i["card"] == gone)
    assert after[prov] == CARD_LOOK["destroyed"][0]
    assert ("Turn 1 · D. Action Phase", next(s.start for s in game.phases() if s.phase == "actions")) in viewer.model.stops()


def test_the_dice_lab_changes_a_die_of_a_battle(game: History) -> None:
    from medviz.apps import DiceLab

    lab = DiceLab(game)
    assert lab.map is not None and [t.name for t in lab.map.clickable()] == ["battles"]
    seq = _battle_seq(game)
    roll = next(r for r in game.rolls() if r.seq < seq and r.kind == "roll" and r.roll.endswith("/attacker"))
    lab.model.select(roll.roll)
    assert lab.faces.layout.display is None and lab.cards.layout.display == "none"
    lab.model.value = 1
    child = lab.branch()
    assert child is not None and child.value_of(roll.roll) == 1 and child.parent is game
    assert "Branch made" in lab.message.value
    words = lab.model.diff_words(lab.view_at)
    assert "The two histories part at event" in words and ("Provinces that changed hands" in words or "No province" in words)


def test_the_dice_lab_branches_a_card_place(game: History) -> None:
    from medviz.apps import DiceLab

    lab = DiceLab(game)
    keys = [k for k, _e in lab.model.card_places()]
    assert "map-deck/1" in keys and "action-deck/1" in keys
    assert "map-deck/1" in [v for _label, v in lab.rolls.options]
    first = game.value_of("map-deck/1")
    other = next(c for c in game.roll("map-deck/1").cards if c != first)
    lab.model.select("map-deck/1")
    assert lab.model.picks_card() and lab.model.value == first
    assert lab.cards.layout.display is None and lab.faces.layout.display == "none" and first in [v for _w, v in lab.cards.options]
    assert "probability 1/11" in lab.info.value
    lab.cards.value = other  # as a person picks it
    assert lab.model.value == other
    child = lab.branch()
    assert child is not None and child.value_of("map-deck/1") == other and lab.model.value == other
    old_place = game.roll("map-deck/1").order.index(other) + 1
    assert child.value_of(f"map-deck/{old_place}") == first  # the two cards swapped places
    assert f"map-deck/1 = {other}" in lab.message.value
    drawn = [e.data["card"] for e in child.events if e.kind == "change" and e.change == "map_card"
             and e.data["status"] == "play"]
    assert not drawn or drawn[0] == other


def test_the_replay_viewer_shows_a_seats_own_view(game: History) -> None:
    from medviz.apps import ReplayViewer

    viewer = ReplayViewer(game, start=80)
    assert [v for _label, v in viewer.seat.options] == ["", "A", "B", "C", "D"]
    assert viewer.seat in viewer.children[1].children
    names = lambda: {a.name for a in viewer.map.figure.layout.annotations}  # noqa: E731
    assert "panel-hand" not in names()
    viewer.seat.value = "B"
    shown = {a.name: a.text for a in viewer.map.figure.layout.annotations}
    assert "panel-hand" in shown and "Hand of Player B" in shown["panel-hand"] and "seen by Player B" in shown["panel-round"]
    view = viewer.view_at(game, 80)
    assert isinstance(view["seats"]["B"]["hand"], list) and isinstance(view["seats"]["A"]["hand"], int)
    viewer.model.cursor = 200
    assert viewer.view_at(game, 200)["seen_by"] == "B"
    viewer.seat.value = ""
    assert "panel-hand" not in names()
    assert ReplayViewer(game, seat="C").view_at(game, 5)["seen_by"] == "C"
    with pytest.raises(Exception, match="seat 'Z'"):
        ReplayViewer(game, seat="Z")


@pytest.fixture(scope="module")
def seat_a_page(game: History, tmp_path_factory: pytest.TempPathFactory) -> str:
    """The module's game exported for seat A through the command line (``--no-compress``): one page for the tests
    of a seat's view (an export of a whole game is among the suite's longest steps)."""
    from medviz.cli import main

    folder = tmp_path_factory.mktemp("seat")
    path = folder / "game.json"
    game.save(path)
    out = folder / "seat.html"
    assert main(["export", str(path), "--seat", "A", "--html", str(out), "--no-compress"]) == 0
    return out.read_text(encoding="utf-8")


def test_export_draws_a_seats_view(game: History, seat_a_page: str, tmp_path: Any) -> None:
    from medviz.cli import main

    assert "Hand of Player A" in seat_a_page and "Hand of Player B" not in seat_a_page
    path = tmp_path / "game.json"
    game.save(path)
    assert main(["export", str(path), "--seat", "Q", "--html", str(tmp_path / "q.html")]) == 2
    assert not (tmp_path / "q.html").exists()


def test_the_notebooks_notes_bind_to_its_game(game: History) -> None:
    from pathlib import Path

    from medviz.export.annotations import load_annotations

    notes = load_annotations(Path(__file__).parent.parent / "notebooks" / "annotations" / "medieval-europe.toml", game)
    titles = [n.title for n in notes]
    assert len(titles) >= 8 and "The Mongols come west" in titles and "The Baltic crusades" in titles
    mongols = game.roll("T6/A/mandatory-1/mongols").seq
    assert any(n.title == "The Mongols come west" for n in notes.for_event(mongols))


def test_a_seats_log_hides_other_hands_deck_orders_and_spies_in_the_viewer_and_the_page(game: History, seat_a_page: str) -> None:
    """Issue 12.3: a seat's own view shows its own cards and nobody else's, in words too (the page: the module's
    game exported for seat A)."""
    import json
    import re

    from medviz.apps import ReplayViewer

    h = game
    draws = [e for e in h.events if e.kind == "change" and e.change == "draw_card"]
    mine = next(e for e in draws if e.data["seat"] == "A")
    theirs = next(e for e in draws if e.data["seat"] == "B")
    deck = h.shuffles()[0]
    from medviz.rules.medieval_xiii.words import card

    assert card(h.final_state.data, theirs.data["card"]) in h.describe(theirs)  # the teacher's full log names the card
    assert h.describe(theirs, "A") == "Player B draws a card"
    assert card(h.final_state.data, mine.data["card"]) in h.describe(mine, "A")  # A reads its own card
    assert deck.order[0] not in h.describe(deck, "A") and "face down" in h.describe(deck, "A")
    data = re.search(r'<script id="medviz-data" type="application/json">(.*?)</script>', seat_a_page, re.S)
    assert data is not None
    log = json.loads(data.group(1))["log"]
    assert len(log) == len(h.events)
    assert log[theirs.seq] == "Player B draws a card" and card(h.final_state.data, mine.data["card"]) in log[mine.seq]
    viewer = ReplayViewer(h, seat="A", start=theirs.seq)
    assert f"{theirs.seq}</span> Player B draws a card</div>" in viewer.events.value  # the card stays hidden
    full = ReplayViewer(h, start=theirs.seq)
    assert f"{theirs.seq}</span> Player B draws a card</div>" not in full.events.value


# -- hot seat: several people at one screen (issue 12.7) ------------------------------------------

def _hot_seat_model() -> Any:
    from medviz.apps.play_model import PlayModel

    return PlayModel("four-players", ("A", "B", "C", "D"), seed=3, game="medieval-xiii")


def test_a_hot_seat_table_screens_between_seats_and_shows_each_only_its_own_hand() -> None:
    from medviz.engine import MalformedInput

    m = _hot_seat_model()
    assert m.hot_seat and m.screen == m.pending.actor and m.labels == [] and m.view() is None and m.recent() == []
    with pytest.raises(MalformedInput, match="pass the screen"):
        m.choose_index(0)
    seen_hands = 0
    for _ in range(60):  # through the draft, the deal and the first turns
        if m.finished:
            break
        if m.screen:
            waiting = m.screen
            m.reveal()
            assert m.screen == "" and m.side == waiting and m.labels
        me = m.side
        view = m.view()
        seats = view["seats"]
        for seat, info in seats.items():
            if seat == me:
                assert isinstance(info["hand"], list)
                seen_hands += bool(info["hand"])
            else:  # another seat's hand: only its size (or nothing before the deal)
                assert isinstance(info["hand"], int) or info["hand"] == []
        for line in m.recent():
            for other in "ABCD":
                if other != me and line.startswith(f"Player {other} draws "):
                    assert line == f"Player {other} draws a card"
        m.choose_index(len(m.labels) - 1 if m.in_setup() else 0)
    assert seen_hands


def test_the_screen_comes_up_whenever_the_decision_passes_to_another_seat() -> None:
    m = _hot_seat_model()
    changes = 0
    last = None
    for _ in range(40):
        if m.finished:
            break
        if m.screen:
            assert m.screen != last  # the same seat deciding twice in a row is not screened again
            changes += 1
            m.reveal()
        last = m.side
        m.choose_index(0)
    assert changes >= 4


def test_a_single_player_table_of_medieval_hides_the_computer_players_hands() -> None:
    from medviz.apps.play_model import PlayModel

    m = PlayModel("three-players", "A", "heuristic", seed=2, game="medieval-xiii")
    assert not m.hot_seat and not m.screen
    while m.pending is not None and not m.table.state.order:  # through the draft and the deal (2.2-2.7)
        m.auto()
    view = m.view()
    assert isinstance(view["seats"]["A"]["hand"], list)
    assert all(isinstance(view["seats"][s]["hand"], int) for s in "BC")


def test_dicelab_in_a_seat_mode_shows_no_other_hand_nor_card_places() -> None:
    from medviz.apps import DiceLab
    from medviz.engine import MalformedInput, RandomPolicy, play
    from medviz.rules.medieval_xiii.ruleset import RULESET

    h = play(RULESET, "three-players", {"max_rounds": 3}, seed=5, players={s: RandomPolicy(i) for i, s in enumerate("ABC")})
    full = DiceLab(h, map_size=(640, 400))
    assert any("card" in label and "of 2.5: the Action Deck" in label for label, _k in full.rolls.options)
    assert not any("power-" in label or "_" in label for label, _k in full.rolls.options)
    lab = DiceLab(h, map_size=(640, 400), seat="A")
    assert all(not k.startswith(("action-deck/", "map-deck/")) for _l, k in lab.rolls.options)
    assert isinstance(lab.map.view["seats"]["A"]["hand"], list) if lab.map is not None else True
    assert lab.map is not None and all(isinstance(lab.map.view["seats"][s]["hand"], int) for s in "BC")
    with pytest.raises(MalformedInput, match="seat"):
        DiceLab(h, seat="Z")


def test_the_hot_seat_map_restacks_its_panel_as_hands_and_powers_grow() -> None:
    """Issue 12: the map of a hot-seat table is drawn once and then updated; when a seat's Powers or
    the hand on screen gain lines, the boxes below move down exactly as a fresh drawing of the same
    view stacks them (the hand panel never sits on the decks line), and the legend is hidden when the
    panel leaves it no room."""
    from medviz.apps import PlayTable
    from medviz.apps.common import MapPane

    table = PlayTable("four-players", ("A", "B", "C", "D"), seed=7, game="medieval-xiii", map_size=(None, 560))
    m = table.model
    assert table.map is not None
    first = {a.name: a.y for a in table.map.figure.layout.annotations if a.name}
    for _ in range(400):
        view = table.map.view
        if not m.screen and view.get("seen_by") and len(view["seats"][view["seen_by"]]["hand"]) >= 4:
            break
        if m.screen:
            m.reveal()
        else:
            assert m.pending is not None
            m.choose(m.pending.options[0])
    else:
        raise AssertionError("no seat held four cards within 400 decisions")
    drawn = table.map.figure
    fresh = MapPane(table.map.view, None, 560, ruleset=m.table.ruleset).figure
    ys = {a.name: a.y for a in drawn.layout.annotations if a.name}
    want = {a.name: a.y for a in fresh.layout.annotations if a.name}
    assert ys == pytest.approx(want) and ys != first  # the boxes moved, to where a fresh drawing puts them
    assert ys["panel-hand"] > ys["panel-decks"]
    assert drawn.layout.showlegend == fresh.layout.showlegend and drawn.layout.legend.y == pytest.approx(fresh.layout.legend.y)
    assert drawn.layout.meta["panel_px"] == fresh.layout.meta["panel_px"]
