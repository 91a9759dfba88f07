"""The base map's cache (medviz.viz.basemap): the same figure byte for byte, a fresh independent one per call."""

from __future__ import annotations

import copy
from collections.abc import Iterator
from typing import Any

import pytest
from shapely.geometry import box

from medviz.engine import get_ruleset
from medviz.engine.history import play
from medviz.engine.policy import RandomPolicy
from medviz.rules.medempires.ruleset import RULESET
from medviz.rules.medempires.view import history_view
from medviz.rules.medieval_xiii.players import HeuristicPolicy
from medviz.viz import basemap
from medviz.viz.basemap import MapStyle, base_map
from medviz.viz.state_map import _geo, state_map


@pytest.fixture()
def cache_on() -> Iterator[None]:
    """The cache on and empty, whatever the test before left."""
    saved = basemap._CACHE_ON
    basemap._CACHE_ON = True
    basemap._CACHE.clear()
    yield
    basemap._CACHE_ON = saved
    basemap._CACHE.clear()


def _drawn_without_cache(draw: Any) -> Any:
    saved = basemap._CACHE_ON
    basemap._CACHE_ON = False
    try:
        return draw()
    finally:
        basemap._CACHE_ON = saved


def test_state_maps_drawn_from_the_cache_are_the_figures_drawn_afresh(cache_on: None) -> None:
    game = play(RULESET, "vespers-1282", {}, seed=4, players={"A": RandomPolicy(1), "B": RandomPolicy(2)})
    seqs = [0, 40, 120, 250, len(game.events) - 1]
    for seq in seqs:
        view = history_view(game, seq)
        cached = state_map(view).to_plotly_json()
        fresh = _drawn_without_cache(lambda view=view: state_map(view)).to_plotly_json()
        assert cached == fresh, f"Vespers step {seq}"
    assert len(basemap._CACHE) == 1  # every moment drew the one map at one size from the cache
    small = history_view(game, 120)
    assert (state_map(small, width=1280, height=720).to_plotly_json()
            == _drawn_without_cache(lambda: state_map(small, width=1280, height=720)).to_plotly_json())
    assert len(basemap._CACHE) == 2

    medieval = get_ruleset("medieval-xiii")
    mgame = play(medieval, "four-players", {}, seed=3,
                 players={s: HeuristicPolicy.from_spec(str(i)) for i, s in enumerate("ABCD")})
    for seq in (0, len(mgame.events) // 2):
        mview = medieval.view_at(mgame, seq)
        assert (state_map(mview, ruleset=medieval).to_plotly_json()
                == _drawn_without_cache(lambda mview=mview: state_map(mview, ruleset=medieval)).to_plotly_json())


def test_mutating_a_returned_figure_leaves_the_next_one_alone(cache_on: None) -> None:
    geo = _geo("medempires")
    first = base_map(geo, merge_fixed=True)
    expected = copy.deepcopy(first.to_plotly_json())
    first.data[0].fillcolor = "#000000"
    first.data[0].line.width = 9
    first.layout.width = 10
    first.layout.xaxis.range = [0, 1]
    first.layout.meta["medviz"] = "changed"
    first.data[-1].marker.line.color = "black"
    first.add_scatter(x=[0], y=[0])
    second = base_map(geo, merge_fixed=True)
    assert second.to_plotly_json() == expected
    second.data[1].meta["kind"] = "changed"
    second.data[1].x = [1.0, 2.0]
    third = base_map(geo, merge_fixed=True)
    assert third.to_plotly_json() == expected
    assert third.data[0] is not second.data[0]
    # A figure from the cache validates later changes as one drawn afresh does.
    with pytest.raises(ValueError):
        third.data[0].fillcolor = "not a colour"
    with pytest.raises(ValueError):
        third.update_layout(width="wide")


def test_another_map_style_size_or_an_edited_map_never_meets_a_stale_entry(cache_on: None) -> None:
    geo = _geo("medempires")
    plain = base_map(geo).to_plotly_json()
    assert base_map(geo, width=800, height=500).to_plotly_json()["layout"]["width"] == 800
    red = MapStyle(background="#ff0000")
    assert base_map(geo, style=red).to_plotly_json()["layout"]["paper_bgcolor"] == "#ff0000"
    assert base_map(geo, show_cities=False).to_plotly_json() != plain
    area = geo["id"].iloc[0]
    assert base_map(geo, fills={area: "#123456"}).to_plotly_json() != plain
    # A user's override map: a different file, or the same frame edited in place, draws its own figure.
    other = geo.copy()
    other.loc[other.index[0], "name"] = "Elsewhere"
    assert "Elsewhere" in str(base_map(other).to_plotly_json())
    edited = geo.copy()
    assert base_map(edited).to_plotly_json() == plain
    edited.loc[edited.index[0], "geometry"] = box(0, 30, 1, 31)
    assert (base_map(edited).to_plotly_json()
            == _drawn_without_cache(lambda: base_map(edited)).to_plotly_json() != plain)
    edited.loc[edited.index[0], "city"] = "Newtown"
    assert "Newtown" in str(base_map(edited).to_plotly_json())
    assert len(basemap._CACHE) <= basemap._CACHE_SIZE


def test_the_cache_is_bounded_and_skips_maps_it_cannot_fingerprint(cache_on: None) -> None:
    geo = _geo("medempires")
    for w in range(basemap._CACHE_SIZE + 3):
        base_map(geo, width=600 + w, height=400)
    assert len(basemap._CACHE) == basemap._CACHE_SIZE
    rows = [dict(r) for _, r in geo.iterrows()]
    basemap._CACHE.clear()
    assert base_map(rows).to_plotly_json() == base_map(geo).to_plotly_json()
    assert len(basemap._CACHE) == 1  # the list of rows was drawn afresh, not cached


def test_a_map_with_a_column_of_arrays_is_cached_and_told_apart_by_them(cache_on: None) -> None:
    geo = _geo("medieval-xiii")  # its "grid" column holds arrays, which pandas cannot hash
    digest = basemap._fingerprint(geo)
    assert digest is not None and basemap._fingerprint(geo.copy()) == digest
    edited = geo.copy()
    row = next(i for i, v in zip(edited.index, edited["grid"]) if v is not None)
    edited.at[row, "grid"] = [*list(edited.at[row, "grid"]), 99]
    assert basemap._fingerprint(edited) not in (None, digest)
    first = base_map(geo, merge_fixed=True)
    assert len(basemap._CACHE) == 1
    assert base_map(geo, merge_fixed=True).to_plotly_json() == first.to_plotly_json()
