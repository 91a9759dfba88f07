"""Text that reaches the map is plain text (issue 17, point 5).

plotly renders a subset of HTML in every text it draws: ``<a href>`` becomes a link and
``<span style="fill:url(http://...)">`` makes the browser fetch. Names from override files, a
scenario's name and the words of events must reach a figure escaped (``&lt;a``), while the markup
medviz adds itself (``<b>``, ``<br>``, ``<i>``, the subtitle's ``<span>``) stays.
"""

from __future__ import annotations

import html
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from shapely.geometry import box

from fuzzing import fuzz
from medviz.engine import History, play
from medviz.rules.medempires.game.players import Heuristic
from medviz.rules.medempires.game.setup import override_options
from medviz.rules.medempires.ruleset import RULESET
from medviz.rules.medempires.view import history_view, setup_view
from medviz.viz.basemap import base_map
from medviz.viz.state_map import plan_view, state_map, update_state_map
from medviz.viz.text import plain

LINK = '<a href="http://x">A</a>'
FETCH = '<span style="fill:url(http://x)">G</span>'
SCENARIO = '<b onmouseover="x">Vespers</b> & <i>co</i>'

HOSTILE = f'''[[powers.power]]
id = "aragon"
name = '{LINK}'
reconstructed = "a hostile name: a link"

[[powers.power]]
id = "genoa"
name = '{FETCH}'
reconstructed = "a hostile name: a style that fetches"

[[scenarios.scenario]]
id = "vespers-1282"
name = '{SCENARIO}'
game_turns = 1
turn_years = [[1282, 1290]]
reconstructed = "a one-turn classroom version"
'''

#: The only markup medviz itself writes into a figure's texts.
OWN_MARKUP = re.compile(r"</?b>|<br>|</?i>|<span style='color:#[0-9a-f]{6}'>|</span>")
#: Keys of a plotly JSON whose strings plotly renders as (HTML-subset) text.
TEXT_KEYS = {"text", "hovertext", "name", "texttemplate", "hovertemplate"}


def _texts(obj: Any, key: str = "") -> Iterator[str]:
    """Every string plotly draws as text in a figure's JSON (text, hovertext, names, titles, annotations)."""
    if isinstance(obj, str):
        if key in TEXT_KEYS:
            yield obj
    elif isinstance(obj, dict):
        for k, v in obj.items():
            if k != "meta":  # layout.meta and trace meta are data, never drawn
                yield from _texts(v, k)
    elif isinstance(obj, (list, tuple)):
        for v in obj:
            yield from _texts(v, key)


def _data_markup(fig: Any) -> list[str]:
    """Texts of ``fig`` with a ``<`` that is not medviz's own markup (data that would render as HTML)."""
    return [t for t in _texts(fig.to_plotly_json()) if "<" in OWN_MARKUP.sub("", t)]


def _shown(fig: Any) -> str:
    """All drawn texts of ``fig`` joined, as plotly shows them (own markup gone, entities decoded)."""
    return "\n".join(html.unescape(OWN_MARKUP.sub("", t)) for t in _texts(fig.to_plotly_json()))


@pytest.fixture(scope="module")
def hostile(tmp_path_factory: pytest.TempPathFactory) -> History:
    """A one-turn Vespers game whose data file names Aragon, Genoa and the scenario with markup."""
    f: Path = tmp_path_factory.mktemp("hostile") / "hostile.toml"
    f.write_text(HOSTILE, encoding="utf-8")
    return play(RULESET, "vespers-1282", override_options(data_file=f), seed=1,
                players={"A": Heuristic(), "B": Heuristic()})


def test_the_text_helper_escapes_markup_and_keeps_plain_text() -> None:
    assert plain(LINK) == '&lt;a href="http://x"&gt;A&lt;/a&gt;'
    assert plain("Catalan Crown & co") == "Catalan Crown &amp; co"
    assert plain(3) == "3"
    assert html.unescape(plain(FETCH)) == FETCH


def test_hostile_override_names_are_drawn_as_text_on_the_state_map(hostile: History) -> None:
    end = state_map(history_view(hostile, len(hostile) - 1))  # the end: the winner's banner is the title
    assert _data_markup(end) == [] and end.layout.title.text.startswith("<b>Game over. ")
    assert "<a " not in end.layout.title.text and "&lt;a href=" in end.layout.title.text  # B's name, escaped
    before_end = next(s.start for s in hostile.phases() if s.phase == "victory") - 1
    fig = state_map(history_view(hostile, before_end))
    assert _data_markup(fig) == []
    texts = "\n".join(_texts(fig.to_plotly_json()))
    assert "<a " not in texts and "<span style=\"" not in texts and "onmouseover" not in texts.replace("&lt;b onmouseover", "")
    assert "&lt;a href=" in texts and "&lt;span style=" in texts and "&lt;b onmouseover=" in texts
    shown = _shown(fig)
    assert LINK in shown  # Player B's name in the panel and legend, read as the characters it is made of
    assert FETCH in shown  # Genoa's areas, neutral: their hover names it
    assert SCENARIO in shown  # the title
    assert fig.layout.title.text.startswith("<b>&lt;b onmouseover")  # own bold kept, data escaped


def test_every_step_of_a_hostile_game_stays_text_when_the_map_is_updated(hostile: History) -> None:
    """Overlays (moves, battles, politics) and badges, through ``update_state_map`` as the apps and export step."""
    fig = state_map(history_view(hostile, -1))
    prev = history_view(hostile, -1)
    kinds: set[str] = set()
    for seq in range(0, len(hostile), 7):
        view = history_view(hostile, seq)
        kinds |= {o["kind"] for o in view["overlays"]}
        update_state_map(fig, prev, view)
        prev = view
        assert _data_markup(fig) == [], seq
    assert {"move", "politics"} <= kinds  # the steps did draw overlays naming the hostile powers


def _hand_view() -> dict[str, Any]:
    """A set-up view with markup in every slot a view fills from data or events."""
    v = setup_view("vespers-1282")
    v.update(title="<a href='x'>T</a>", turn="<b>1</b>", years="<i>1282</i>", phase="<s>politics</s>",
             tp={"A": "<u>3</u>", "B": 4}, vp={"A": 0, "B": "<u>1</u>"})
    v["units"] = {**v["units"], "sicily_east": {"<x>": {"<FA>": 2}}}
    v["control"] = {**v["control"], "naples": "<evil>"}
    v["overlays"] = [
        {"kind": "move", "side": "A", "power": "<m>", "path": ["naples", "apulia"]},
        {"kind": "battle", "area": "naples", "result": "<r>DV</r>", "winner": "<w>", "winner_side": "A",
         "sides": {"<w>": "A"}, "roll": "x"},
        {"kind": "interception", "area": "apulia", "success": True},
        {"kind": "politics", "power": "<p>", "area": "naples", "attempt": "<att>", "result": "<res>"},
    ]
    return v


def test_every_view_slot_that_carries_data_reaches_the_figure_escaped() -> None:
    view = _hand_view()
    fig = state_map(view)
    assert _data_markup(fig) == []
    shown = _shown(fig)
    for word in ("<a href='x'>T</a>", "<evil>", "<r>DV</r>", "<w>", "<m>", "<att>", "<res>", "<x>", "<FA>", "<u>3</u>",
                 "<i>1282</i>", "<s>politics</s>"):
        assert word in shown, word
    plan = plan_view(view, {k: v for k, v in _places(fig).items()})
    assert "&lt;r&gt;DV&lt;/r&gt;" in plan.overlays["battles"]["hovertext"][0]


def _places(fig: Any) -> dict[str, Any]:
    from medviz.viz.state_map import _places_of

    return _places_of(fig)


def _rows(name: str, city: str, label: str | None = None) -> list[dict[str, Any]]:
    row = {"id": "a1", "kind": "land", "name": name, "label": label, "geometry": box(0, 0, 2, 2),
           "label_lon": 1.0, "label_lat": 1.0, "city": city, "city_lon": 1.2, "city_lat": 1.2}
    sea = {"id": "s1", "kind": "sea", "name": "Sea <b>x</b>", "label": None, "geometry": box(2, 0, 4, 2),
           "label_lon": 3.0, "label_lat": 1.0, "city": None, "city_lon": None, "city_lat": None}
    return [row, sea]


def test_area_city_and_title_texts_of_the_base_map_are_plain() -> None:
    fig = base_map(_rows(FETCH, LINK), title="<a href='http://x'>map</a>")
    assert _data_markup(fig) == []
    shown = _shown(fig)
    assert FETCH in shown and LINK in shown and "Sea <b>x</b>" in shown
    assert fig.layout.title.text == "&lt;a href='http://x'&gt;map&lt;/a&gt;"
    labelled = base_map(_rows("Upper Aragon", "Zaragoza", label="A <long> name (wrapped)"))
    land = next(t for t in labelled.data if t.name == "labels:land")
    assert land.text[0] == "A &lt;long&gt; name<br>(wrapped)"  # own line break kept, data escaped


@fuzz
@given(name=st.text(alphabet=st.sampled_from(list("<>&/\"'= abAB;#x")), min_size=1, max_size=30))
def test_any_power_name_is_shown_as_the_characters_it_is_made_of(name: str) -> None:
    view = setup_view("vespers-1282")
    view["powers"] = {**view["powers"], "aragon": {**view["powers"]["aragon"], "name": name}}
    plan = plan_view(view, _PLACES)
    panel = plan.panel["panel-B"]
    assert "<" not in OWN_MARKUP.sub("", panel)
    assert name.split(" (")[0] in html.unescape(OWN_MARKUP.sub("", panel))


_PLACES = _places(state_map(setup_view("vespers-1282")))
