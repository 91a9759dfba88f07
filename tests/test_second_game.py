"""A second game on the same floors: a toy ruleset, registered from here, through every app and the export.

"Isles" is three islands and a strait (``tests/fixtures/toy-isles.geojson``). Two seats, red and
blue, take turns claiming an island: a claim is a decision, then a die (4+ holds). The toy reaches
the generic floors only through ``Ruleset`` hooks: its views are its own dicts, its ``portray``
turns them into a ``Portrayal``, ``roll_tags`` marks the claim rolls decisive. Nothing in
``medviz.viz``, ``medviz.apps`` or ``medviz.export`` knows it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from medviz.engine import (
    ChangeEvent,
    Context,
    DrawEvent,
    Event,
    FirstOptionPolicy,
    History,
    RandomPolicy,
    RollEvent,
    Ruleset,
    Seat,
    Task,
    diff,
    get_ruleset,
    play,
    register_ruleset,
)
from medviz.engine.portrayal import (
    AreaFill,
    Badge,
    BadgeGroup,
    LegendEntry,
    Mark,
    MarkLayer,
    PanelBox,
    Path as Route,
    PathLayer,
    Place,
    Portrayal,
    Shades,
    blend,
    plain,
)
from medviz.engine.registry import unregister_ruleset

MAP = str(Path(__file__).parent / "fixtures" / "toy-isles.geojson")
ISLES = ("north", "south", "east")
COLOURS = {"red": "#b2182b", "blue": "#1f5fa8"}
TURNS = 3


@dataclass
class IslesState:
    """Who holds each island, and the last claim (for the map's overlay)."""

    scenario: str = "three-isles"
    owner: dict[str, str | None] = field(default_factory=lambda: dict.fromkeys(ISLES))
    turn: int = 0
    last: dict[str, Any] | None = None


class Isles(Ruleset):
    """The toy game: claim islands with a die."""

    game = "isles"
    title = "Isles (a toy)"

    def setup(self, scenario: str, options: Mapping[str, Any]) -> tuple[Any, list[Task]]:
        return IslesState(scenario), [Task.of("turn", checkpoint=True, n=t) for t in range(1, TURNS + 1)]

    def run_task(self, task: Task, state: Any, ctx: Context) -> None:
        n = task.args["n"]
        ctx.begin_phase("claims", turn=n)
        for seat in ("red", "blue"):
            target = ctx.decide(f"T{n}/{seat}/island", seat, list(ISLES), prompt="Which island do you claim?")
            value = ctx.roll(f"T{n}/{seat}/claim", "1d6", actor=seat, purpose=f"claim {target}",
                             effects={f: ("holds" if f >= 4 else "fails") for f in range(1, 7)})
            ctx.change("claim", actor=seat, seat=seat, island=target, held=value >= 4)

    def apply(self, state: Any, event: ChangeEvent) -> None:
        d = event.data
        state.turn = event.turn or 0
        if d["held"]:
            state.owner[d["island"]] = d["seat"]
        state.last = {"seat": d["seat"], "island": d["island"], "held": d["held"]}

    def outcome(self, state: Any) -> dict[str, Any]:
        counts = {s: sum(1 for o in state.owner.values() if o == s) for s in ("red", "blue")}
        winner = max(counts, key=lambda s: counts[s]) if counts["red"] != counts["blue"] else None
        return {"winner": winner, "reason": f"islands held: {counts}"}

    def scenarios(self) -> tuple[str, ...]:
        return ("three-isles",)

    def seats(self, scenario: str) -> tuple[Seat, ...]:
        return (Seat("red", "Red", COLOURS["red"]), Seat("blue", "Blue", COLOURS["blue"]))

    # -- the hooks the upper floors use ---------------------------------------------------------
    def roll_tags(self, event: RollEvent | DrawEvent) -> frozenset[str]:
        return frozenset({"decisive"}) if isinstance(event, RollEvent) and event.roll.endswith("/claim") else frozenset()

    def phase_names(self) -> Mapping[str, str]:
        return {"claims": "island claims"}

    def view_at(self, history: Any, seq: int) -> Any:
        state = history.state_at(seq)
        return {"owner": dict(state.owner), "turn": state.turn, "last": state.last}

    def live_view(self, state: Any, events: Sequence[Event], turn: int | None = None,
                  phase: str | None = None) -> Any:
        return {"owner": dict(state.owner), "turn": state.turn, "last": state.last}

    def map_name(self, view: Any) -> str:
        return MAP

    def portray(self, view: Any, places: Mapping[str, Place], shades: Shades) -> Portrayal:
        owner = view["owner"]
        fills = {a: AreaFill(blend(COLOURS[o], shades.paper, shades.strong) if o else shades.uncontrolled,
                             hover=f"{plain(places[a].name)}<br>{o or 'nobody'}")
                 for a, o in ((a, owner[a]) for a in ISLES)}
        badges = tuple(BadgeGroup(seat, colour, tuple(Badge(a, f"<b>{seat}</b>") for a in ISLES if owner[a] == seat))
                       for seat, colour in COLOURS.items())
        last = view.get("last")
        marks = (MarkLayer("claims", "star", 20, "#4a4a4a", clickable=True, own_colours=True,
                           marks=(Mark(last["island"], "held" if last["held"] else "failed",
                                       colour=COLOURS[last["seat"]], dy=10),) if last else ()),)
        counts = {s: sum(1 for o in owner.values() if o == s) for s in COLOURS}
        panel = (PanelBox("panel-turn", f"<b>Turn {view['turn']}</b>", lines=1, size=4),
                 *(PanelBox(f"panel-{s}", f"<b>{s.upper()}</b><br>{counts[s]} isles", lines=2, colour=c)
                   for s, c in COLOURS.items()))
        return Portrayal(map=MAP, title="Isles", subtitle=f"turn {view['turn']}", fills=fills, badges=badges,
                         paths=(PathLayer("moves-red", COLOURS["red"], (Route(("north", "south")),)),),
                         marks=marks, panel=panel,
                         legend=tuple(LegendEntry(f"{s} holds", c) for s, c in COLOURS.items()), legend_title="Holder",
                         key=("★ the last claim",), step_title="This step" if last else "",
                         step_lines=(f"{last['seat']} claims {last['island']}",) if last else ())

    def compare_views(self, before: Any, after: Any) -> list[str]:
        moved = [a for a in ISLES if before["owner"][a] != after["owner"][a]]
        return [f"Islands that changed hands: {', '.join(moved)}" if moved else "No island changed hands."]

    def scores(self, view: Any) -> list[tuple[str, str, Mapping[str, int]]]:
        return [("Isles", "islands held", {s: sum(1 for o in view["owner"].values() if o == s) for s in COLOURS})]


TOY = Isles()


@pytest.fixture(scope="module", autouse=True)
def registered() -> Any:
    register_ruleset("isles", TOY)
    yield
    unregister_ruleset("isles")


@pytest.fixture(scope="module")
def game(registered: Any) -> History:
    return play(TOY, "three-isles", {}, seed=5, players={"red": RandomPolicy(1), "blue": RandomPolicy(2)})


def _fills(fig: Any) -> dict[str, str]:
    """The islands' fill colours (the strait is sea: drawn by the base map, never recoloured)."""
    return {t.meta["area"]: t.fillcolor for t in fig.data
            if isinstance(t.meta, Mapping) and t.meta.get("area") in ISLES}


def test_the_toy_plays_saves_and_loads(game: History, tmp_path: Path) -> None:
    assert get_ruleset("isles") is TOY and len(game) > 0 and "winner" in game.outcome
    game.save(tmp_path / "isles.json")
    again = History.load(tmp_path / "isles.json")
    assert [e.to_dict() for e in again.events] == [e.to_dict() for e in game.events]


def test_state_map_draws_the_toy_portrayal_and_steps_it(game: History) -> None:
    from medviz.viz.state_map import state_map, update_state_map

    first, last = TOY.view_at(game, -1), TOY.view_at(game, len(game) - 1)
    fig = state_map(first, ruleset=TOY)
    assert set(_fills(fig)) == set(ISLES) and fig.layout.meta["game"] == "isles"
    assert [t.name for t in fig.data if t.name in ("moves-halo", "moves-red", "red", "blue", "claims")] == \
        ["moves-halo", "moves-red", "red", "blue", "claims"]
    assert update_state_map(fig, first, last) > 0
    fresh = state_map(last, ruleset=TOY)
    assert _fills(fig) == _fills(fresh)
    assert [a.text for a in fig.layout.annotations] == [a.text for a in fresh.layout.annotations]
    # A Portrayal is a view too: no ruleset needed.
    p = TOY.portray(last, {a: Place(0, 0, "land", 1, a) for a in ISLES}, Shades())
    assert state_map(p).layout.title.text.startswith("<b>Isles</b>")


def test_replay_viewer_steps_the_toy_map(game: History) -> None:
    from medviz.apps import ReplayViewer

    viewer = ReplayViewer(game)  # the view function comes from the ruleset (view_at)
    assert viewer.map is not None
    before = _fills(viewer.map.figure)
    viewer.model.cursor = len(game) - 1
    after = _fills(viewer.map.figure)
    held = [a for a, o in game.final_state.owner.items() if o]
    assert held and all(before[a] != after[a] for a in held)
    assert viewer.model.stops()[0][0] == "Turn 1 · island claims"  # the phase in the ruleset's words


def test_dice_lab_branches_a_claim_roll_and_says_what_changed(game: History) -> None:
    from medviz.apps import DiceLab, branch_tree

    lab = DiceLab(game)
    decisive = lab.model.selected_roll
    assert decisive.endswith("/claim") and decisive == game.rolls()[-1].roll  # roll_tags: the last claim
    assert lab.map is not None and [t.name for t in lab.map.clickable()] == ["claims"]
    roll = game.roll(decisive)
    lab.model.value = 1 if roll.value >= 4 else 6
    child = lab.model.make_branch()
    assert child.parent is game and child.roll(decisive).value == lab.model.value
    words = lab.model.diff_words(lab.view_at)
    assert "Islands that changed hands" in words or "No island changed hands." in words
    d = diff(game, child)
    assert d.first_divergence is not None and not d.identical
    tree = branch_tree(game, lab.model)
    assert tree.model.root is game
    # The toy names no roll words of its own: the lab calls a roll by its purpose (the seam's default).
    assert game.ruleset.describe_roll(game, roll) == roll.purpose and roll.purpose.startswith("claim ")
    assert roll.purpose in lab.headline.value


def test_play_table_seats_a_person_at_the_toy() -> None:
    from medviz.apps import PlayModel, PlayTable

    m = PlayModel("three-isles", "red", "first", game="isles")
    assert m.side_name() == "Red" and m.prompt == "Which island do you claim?" and m.labels == list(ISLES)
    assert m.where() == "Turn 1, island claims" and m.setup_label is None
    m.choose_index(2)
    assert m.score()[0][0] == "Isles"
    history = m.finish(FirstOptionPolicy())
    assert m.finished and history.game == "isles"
    table = PlayTable("three-isles", "blue", "random:3", game="isles")
    assert table.map is not None and "Red" not in table.header.value and "Blue" in table.header.value


def test_the_html_export_draws_the_toy(game: History, tmp_path: Path) -> None:
    from medviz.export.html import export_html, page_data

    data = page_data(game)
    assert data.mode == "map" and data.title == "Isles"
    assert len(data.timeline.steps) == len(game)
    panels = [v for v in data.timeline.values if isinstance(v, dict) and "lines" in v]
    assert any(any("claims" in line for line in p["lines"]) for p in panels)
    out = export_html(game, tmp_path / "isles.html", compress_plotlyjs=False)
    text = out.read_text(encoding="utf-8")
    assert "Isles" in text and "North Isle" in text


def test_annotations_know_the_toys_phases() -> None:
    from medviz.export.annotations import parse_annotations

    notes = parse_annotations('[[note]]\nanchor = { phase = "claims" }\ntitle = "x"\ntext = "y"\n', "toy.toml")
    assert len(notes) == 1
