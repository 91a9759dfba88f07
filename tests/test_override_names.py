"""A game whose override file renames a power and recolours it shows the new name and colour everywhere.

The state map (side panel, legend, hovers, badges), the event log's words (battles included), the
HTML export and the apps read the powers of the data the game is played with, never the shipped
``powers.toml`` (docs/data-provenance.md, "Playing with your own map or counters").
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from medviz.engine import History, play
from medviz.engine.errors import MalformedInput
from medviz.engine.events import ChangeEvent
from medviz.rules.medempires.game.players import Heuristic
from medviz.rules.medempires.game.setup import override_options
from medviz.rules.medempires.game.state import shipped_data
from medviz.rules.medempires.ruleset import RULESET
from medviz.rules.medempires.view import history_view, power_view, setup_view
from medviz.viz.palette import blend
from medviz.viz.state_map import DEFAULT_STATE_STYLE, plan_view, state_map, update_state_map

NEW_NAME = "Catalan Crown"
NEW_COLOUR = "#5E3C99"
NEW_ACCENT = "#A6DBA0"
OLD_COLOUR = "#B2182B"  # Aragon's shipped display colour and accent (powers.toml)
OLD_ACCENT = "#F2C14E"

RENAME = f'''[[powers.power]]
id = "aragon"
name = "{NEW_NAME}"
display_colour = "{NEW_COLOUR}"
display_accent = "{NEW_ACCENT}"
reconstructed = "a class exercise: the Crown under the name its Catalan subjects used, drawn in purple"

[[scenarios.scenario]]
id = "vespers-1282"
game_turns = 1
turn_years = [[1282, 1290]]
reconstructed = "a one-turn classroom version"
'''

STYLE = DEFAULT_STATE_STYLE
OLD_NAME = re.compile(r"\bAragon\b")


def _tints(colour: str) -> set[str]:
    """Every shade the state map paints from a power's colour, upper case."""
    shades = {colour, blend(colour, STYLE.paper, STYLE.player_tint), blend(colour, STYLE.paper, STYLE.ally_tint),
              blend(colour, STYLE.paper, 0.75), blend(colour, STYLE.paper, 0.9)}
    return {c.upper() for c in shades}


def _play(options: dict[str, Any], seed: int = 1) -> History:
    return play(RULESET, "vespers-1282", options, seed=seed, players={"A": Heuristic(), "B": Heuristic()})


@pytest.fixture(scope="module")
def renamed(tmp_path_factory: pytest.TempPathFactory) -> History:
    """A one-turn Vespers game whose data file renames Aragon and recolours it."""
    f = tmp_path_factory.mktemp("override") / "rename-aragon.toml"
    f.write_text(RENAME, encoding="utf-8")
    return _play(override_options(data_file=f))


@pytest.fixture(scope="module")
def shipped() -> History:
    """The same game with the shipped data, except for the one-turn scenario."""
    return _play({})


def _strings(obj: Any) -> Iterator[str]:
    """Every text in a nested JSON-like value (keys and values)."""
    if isinstance(obj, str):
        yield obj
    elif isinstance(obj, dict):
        for k, v in obj.items():
            yield str(k)
            yield from _strings(v)
    elif isinstance(obj, (list, tuple)):
        for v in obj:
            yield from _strings(v)


def _area_names() -> list[str]:
    """The names of the map's areas and cities ("Upper Aragon" keeps its name when the power is renamed)."""
    m = shipped_data().game_map
    return sorted({n for a in m.areas.values() for n in (a.name, a.city) if n}, key=len, reverse=True)


def _old_name_outside_area_names(texts: Iterator[str]) -> list[str]:
    """The texts that still say "Aragon" once area and city names are taken out."""
    names = _area_names()
    out = []
    for t in texts:
        plain = t.replace("<br>", " ")
        for n in names:
            plain = plain.replace(n, "")
        if OLD_NAME.search(plain):
            out.append(t)
    return out


def _colours_in(text: str) -> set[str]:
    return {c.upper() for c in re.findall(r"#[0-9A-Fa-f]{6}", text)}


# --------------------------------------------------------------------------------------------
# Views hand the game's powers to the map
# --------------------------------------------------------------------------------------------
def test_views_carry_the_powers_of_the_games_own_data(renamed: History, shipped: History) -> None:
    view = history_view(renamed, len(renamed) - 1)
    assert view is not None
    aragon = view["powers"]["aragon"]
    assert (aragon["name"], aragon["colour"], aragon["accent"]) == (NEW_NAME, NEW_COLOUR, NEW_ACCENT)
    assert "valencia" in aragon["home"] and list(view["powers"])[:3] == ["france", "anjou", "aragon"]
    json.dumps(view)  # still plain JSON data
    # Every view of one game shares one powers dict (made once per game data, not per step) ...
    assert history_view(renamed, 3)["powers"] is view["powers"]  # type: ignore[index]
    assert setup_view("vespers-1282", data=renamed.final_state.data)["powers"] is view["powers"]
    # ... and a shipped game's views carry the shipped powers.
    plain = history_view(shipped, len(shipped) - 1)
    assert plain is not None and plain["powers"]["aragon"]["name"] == "Aragon"
    assert plain["powers"]["aragon"]["colour"] == OLD_COLOUR
    assert setup_view("vespers-1282")["powers"] is plain["powers"] is power_view()


# --------------------------------------------------------------------------------------------
# The state map
# --------------------------------------------------------------------------------------------
def _trace(fig: Any, name: str) -> Any:
    return next(t for t in fig.data if t.name == name)


def _annotation(fig: Any, name: str) -> Any:
    return next(a for a in fig.layout.annotations if a.name == name)


def test_state_map_draws_the_override_name_and_colour_and_never_the_old_ones(renamed: History) -> None:
    seq = next(e.seq for e in renamed.events if isinstance(e, ChangeEvent) and e.change == "battle-eliminate"
               and e.data.get("power") == "aragon")
    view = history_view(renamed, seq)
    assert view is not None
    fig = state_map(view)
    # The side panel: Player B's box names the Crown and takes its colour, bordered with its accent.
    panel_b = _annotation(fig, "panel-B")
    assert NEW_NAME in panel_b.text and (panel_b.bgcolor, panel_b.bordercolor) == (NEW_COLOUR, NEW_ACCENT)
    # The legend: Player B's entry, in the Crown's tint.
    legend = {t.name: t.fillcolor for t in fig.data if t.showlegend}
    assert legend[f"Player B: {NEW_NAME}"] == blend(NEW_COLOUR, STYLE.paper, STYLE.player_tint)
    # An area Aragon holds at the start: filled with the new tint, its hover names the Crown.
    valencia = next(t for t in fig.data if isinstance(t.meta, dict) and t.meta.get("area") == "valencia")
    assert view["control"]["valencia"] == "B"
    assert valencia.fillcolor == blend(NEW_COLOUR, STYLE.paper, STYLE.player_tint)
    assert valencia.text.endswith(f"Player B ({NEW_NAME})")
    # Unit badges: outlined in the new colour, hovers in the new name.
    badges = _trace(fig, "units-aragon")
    assert NEW_COLOUR in badges.textfont.shadow and OLD_COLOUR not in badges.textfont.shadow
    assert badges.hovertext and all(h.startswith(f"{NEW_NAME} in ") for h in badges.hovertext)
    # Nothing in the figure says "Aragon" except the areas named after it, nor paints its old colours.
    figure = fig.to_plotly_json()
    assert _old_name_outside_area_names(_strings(figure)) == []
    used = _colours_in(json.dumps(figure))
    assert NEW_COLOUR in used and not used & (_tints(OLD_COLOUR) | {OLD_ACCENT})


def test_the_shipped_game_still_draws_aragon(shipped: History) -> None:
    view = history_view(shipped, len(shipped) - 1)
    assert view is not None
    fig = state_map(view)
    assert "Aragon" in _annotation(fig, "panel-B").text and _annotation(fig, "panel-B").bgcolor == OLD_COLOUR
    assert "Player B: Aragon" in {t.name for t in fig.data if t.showlegend}
    # A hand-made view without powers is drawn with the shipped powers, exactly as with them.
    bare = {k: v for k, v in view.items() if k != "powers"}
    assert state_map(bare).to_plotly_json() == fig.to_plotly_json()


def test_stepping_a_map_keeps_the_override_names(renamed: History) -> None:
    first = history_view(renamed, -1)
    assert first is not None
    fig = state_map(first)
    seqs = [e.seq for e in renamed.events if getattr(e, "change", "") == "battle-ends"]
    previous = first
    for seq in seqs[:3] + [len(renamed) - 1]:
        view = history_view(renamed, seq)
        assert view is not None
        update_state_map(fig, previous, view)
        previous = view
        plan = plan_view(view, {a: p for a, p in _places(fig).items()})
        assert NEW_NAME in plan.panel["panel-B"] and not OLD_NAME.search(plan.panel["panel-B"])
    assert NEW_NAME in _annotation(fig, "panel-B").text
    assert _old_name_outside_area_names(_strings(fig.to_plotly_json())) == []


def _places(fig: Any) -> dict[str, Any]:
    from medviz.viz.state_map import _places_of

    return _places_of(fig)


@pytest.mark.parametrize("powers, problem", [
    ({"aragon": {"name": "Catalan Crown", "colour": "purple"}}, "aragon"),
    ({"aragon": {"name": "", "colour": "#5E3C99"}}, "name"),
    ({"aragon": {"name": "Catalan Crown", "colour": "#5E3C99", "home": "valencia"}}, "home"),
    (["aragon"], "powers"),
])
def test_a_view_with_malformed_powers_is_refused_naming_the_entry(shipped: History, powers: Any,
                                                                   problem: str) -> None:
    view = history_view(shipped, 0)
    assert view is not None
    with pytest.raises(MalformedInput, match=problem):
        state_map({**view, "powers": powers})


# --------------------------------------------------------------------------------------------
# The event log's words
# --------------------------------------------------------------------------------------------
def test_battle_words_name_the_override_power(renamed: History) -> None:
    losses = [e for e in renamed.events if isinstance(e, ChangeEvent) and e.change == "battle-eliminate"
              and e.data.get("power") == "aragon"]
    assert losses
    for e in losses:
        words = renamed.describe(e)
        assert NEW_NAME in words and "Aragon" not in words, words
        assert "Aragon" in RULESET.describe(e)  # outside the game, the bare words use the shipped names


def test_the_whole_log_never_says_aragon_outside_area_names(renamed: History, shipped: History) -> None:
    words = [renamed.describe(e) for e in renamed.events]  # the victory report's reason too (4.0, 13.0)
    assert any(NEW_NAME in w for w in words)
    assert _old_name_outside_area_names(iter(words)) == []
    assert _old_name_outside_area_names(shipped.describe(e) for e in shipped.events)  # the check can fail


def test_a_one_battle_game_keeps_the_shipped_names_even_inside_an_override_game(renamed: History) -> None:
    """``medviz battle`` always plays with the shipped data: its words say "Aragon" wherever they are read."""
    from medviz.rules.medempires.odds import Doctrine

    h = play(RULESET, "battle", {"attacker": "aragon:3FA", "defender": "anjou:2FA"}, seed=1,
             players={"attacker": Doctrine(), "defender": Doctrine()})
    losses = [e for e in h.events
              if isinstance(e, ChangeEvent) and e.change == "battle-eliminate" and e.data["power"] == "aragon"]
    assert losses
    words = [h.describe(e) for e in losses]
    assert all("Aragon" in w and NEW_NAME not in w for w in words), words


# --------------------------------------------------------------------------------------------
# The HTML export and the apps
# --------------------------------------------------------------------------------------------
def test_html_export_shows_the_override_name_and_colour(renamed: History, tmp_path: Path) -> None:
    from medviz.export.html import export_html

    page = export_html(renamed, tmp_path / "replay.html").read_text(encoding="utf-8")
    assert NEW_NAME in page and "Player B: Aragon" not in page
    found = re.search(r'<script id="medviz-data" type="application/json">(.*?)</script>', page, re.S)
    assert found is not None
    data = json.loads(found.group(1))  # the page's own data (page_data's, as the page carries it)
    assert any(NEW_NAME in line for line in data["log"])
    assert _old_name_outside_area_names(_strings(data)) == []
    text = json.dumps(data)
    used = _colours_in(text)
    assert NEW_COLOUR in used and not used & (_tints(OLD_COLOUR) | {OLD_ACCENT})
    assert f"Player B: {NEW_NAME}" in text
    moves = [line for line in _strings(data["timeline"]) if line.startswith("move (Player B, ")]  # the words under the map
    assert any(m.startswith(f"move (Player B, {NEW_NAME}): ") for m in moves), moves
    assert not any(OLD_NAME.search(m.split(":")[0]) for m in moves), moves  # areas named after Aragon may follow


def test_replay_viewer_and_dice_lab_show_the_override(renamed: History) -> None:
    pytest.importorskip("ipywidgets")
    from medviz.apps import DiceLab, ReplayViewer

    seq = next(e.seq for e in renamed.events if isinstance(e, ChangeEvent) and e.change == "battle-eliminate"
               and e.data.get("power") == "aragon")
    viewer = ReplayViewer(renamed, start=seq)
    assert viewer.map is not None
    assert NEW_NAME in viewer.events.value and _old_name_outside_area_names(iter([viewer.events.value])) == []
    panel_b = _annotation(viewer.map.figure, "panel-B")
    assert NEW_NAME in panel_b.text and panel_b.bgcolor == NEW_COLOUR
    assert _old_name_outside_area_names(_strings(viewer.map.figure.to_plotly_json())) == []
    lab = DiceLab(renamed)
    assert lab.map is not None and NEW_NAME in _annotation(lab.map.figure, "panel-B").text
    words = [label for label, _ in lab.rolls.options]
    assert _old_name_outside_area_names(iter(words)) == []


def test_the_example_file_renames_aragon_from_play_to_export(tmp_path: Path,
                                                              capsys: pytest.CaptureFixture[str]) -> None:
    """docs/examples/my-powers.toml, as a teacher uses it: ``medviz play --data``, then ``medviz export``."""
    from medviz.cli import main

    example = Path(__file__).resolve().parent.parent / "docs" / "examples" / "my-powers.toml"
    one_turn = RENAME[RENAME.index("[[scenarios.scenario]]"):]  # keep the test short: one game turn
    f = tmp_path / "my-powers.toml"
    f.write_text(example.read_text(encoding="utf-8") + "\n" + one_turn, encoding="utf-8")
    game, page = tmp_path / "game.json", tmp_path / "game.html"
    assert main(["play", "vespers-1282", "--seed", "2", "--data", str(f), "--out", str(game)]) == 0
    assert main(["export", str(game), "--html", str(page)]) == 0
    capsys.readouterr()
    h = History.load(game)
    assert power_view(h.final_state.data)["aragon"]["name"] == NEW_NAME
    text = page.read_text(encoding="utf-8")
    assert f"Player B: {NEW_NAME}" in text and NEW_COLOUR in text and "Player B: Aragon" not in text
