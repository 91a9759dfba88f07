"""A placement that resumes from the last one on its frame (``medviz.viz.placement._RESUME``) puts every
name and badge exactly where a placement from scratch puts it: clusters whose surroundings changed are
searched again (a test here would fail if a position went stale), the others keep their spots."""

from __future__ import annotations

import gzip
from pathlib import Path
from typing import Any

import pytest

from medviz.engine import History
from medviz.viz import placement
from medviz.viz.placement import (
    Box,
    Cluster,
    MapFrame,
    Placed,
    forget_placements,
    place_clusters,
)

GOLDEN = Path(__file__).parent / "golden"
#: 100 x 100 data units on 1000 x 1000 pixels.
FRAME = MapFrame(0.0, 100.0, 0.0, 100.0, 10.0, 10.0)


def _fresh(clusters: list[Cluster], frame: MapFrame = FRAME) -> dict[str, Placed]:
    """The placement searched from scratch (nothing remembered), leaving nothing remembered."""
    forget_placements()
    out = place_clusters(clusters, frame, 12.0)
    forget_placements()
    return out


def _name(area: str, x: float, y: float, width: float = 60.0) -> Cluster:
    return Cluster(area, x, y, (width, 14.0), 1, 12.0, (), fallbacks=((0.0, 0.0, 0),))


def _stack(area: str, x: float, y: float, badge_width: float) -> Cluster:
    return Cluster(area, x, y, (60.0, 14.0), 1, 12.0, ((badge_width, 14.0),))


@pytest.fixture(autouse=True)
def _nothing_remembered() -> Any:
    forget_placements()
    yield
    forget_placements()


def test_a_cluster_moved_away_comes_back_when_what_pushed_it_goes() -> None:
    a, b = _stack("a", 50.0, 50.0, 40.0), _name("b", 50.5, 50.0)
    first = place_clusters([a, b], FRAME, 12.0)
    assert first["b"].moved > 0  # a's name and badge stand on b's label point: b steps aside
    alone = place_clusters([b], FRAME, 12.0)
    assert alone == _fresh([b])
    assert alone["b"].moved == 0.0  # a stale spot would leave b where a pushed it


def test_a_cluster_steps_aside_when_a_new_one_comes_onto_its_spot() -> None:
    b = _name("b", 50.5, 50.0)
    assert place_clusters([b], FRAME, 12.0)["b"].moved == 0.0
    a = _stack("a", 50.0, 50.0, 40.0)
    both = place_clusters([a, b], FRAME, 12.0)
    assert both == _fresh([a, b])
    assert both["b"].moved > 0


def test_a_nearer_spot_freed_by_a_narrower_stack_is_taken() -> None:
    # b's name sits on a's; boxes above and below them leave b room only to the side, past a's widest box
    band = (Box(0.0, 400.0, 1000.0, 498.0), Box(0.0, 537.0, 1000.0, 700.0))

    def a(width: float) -> Cluster:
        return Cluster("a", 50.0, 50.0, (width, 14.0), 1, 12.0, ((width, 14.0),))

    b = _name("b", 50.0, 50.0)
    wide = place_clusters([a(160.0), b], FRAME, 12.0, band)
    narrow = place_clusters([a(20.0), b], FRAME, 12.0, band)
    forget_placements()
    assert narrow == place_clusters([a(20.0), b], FRAME, 12.0, band)
    assert 0 < narrow["b"].moved < wide["b"].moved - 50  # a's wide boxes are gone: b comes nearer


def test_clusters_far_from_a_change_keep_their_spots_without_a_search() -> None:
    far = [_name(f"n{i}", 10.0 + 8.0 * i, 90.0) for i in range(5)]
    before = place_clusters([_stack("a", 50.0, 30.0, 40.0), *far], FRAME, 12.0)
    after = place_clusters([_stack("a", 50.0, 30.0, 90.0), *far], FRAME, 12.0)
    assert after == _fresh([_stack("a", 50.0, 30.0, 90.0), *far])
    assert all(after[c.area] is before[c.area] for c in far)  # taken again, not searched
    assert after["a"] is not before["a"]


def _golden(name: str) -> History:
    import medviz.rules.medempires.game  # noqa: F401  (registers the whole-game scenarios)

    return History.from_json(gzip.decompress((GOLDEN / name).read_bytes()).decode("utf-8"), name)


@pytest.mark.parametrize("size", [(1600, 1000), (1100, 560)])
def test_a_step_by_step_walk_places_every_name_and_badge_as_from_scratch(size: tuple[int, int]) -> None:
    """Consecutive moments of the Vespers golden game (moves, battles, politics), planned as the apps plan a
    step on one figure: every name's and badge's position, text and leader equals a plan made from scratch."""
    from medviz.rules.medempires.view import history_view
    from medviz.viz.state_map import _facts_of, plan_view, state_map

    h = _golden("vespers-1282-seed-1.json.gz")
    fig = state_map(history_view(h, 440), width=size[0], height=size[1])
    facts = _facts_of(fig)
    rs = facts.ruleset
    reused = 0
    for seq in range(441, 441 + 60):
        view = history_view(h, seq)
        before = {id(s) for _o, spots in placement._RESUME.values() for s in spots}
        stepped = plan_view(view, facts.places, dataclass_style(fig), rs, facts.space)
        kept = sum(1 for _o, spots in placement._RESUME.values() for s in spots if id(s) in before)
        reused += kept
        saved = dict(placement._RESUME)
        forget_placements()
        fresh = plan_view(view, facts.places, dataclass_style(fig), rs, facts.space)
        placement._RESUME.clear()
        placement._RESUME.update(saved)
        assert stepped.badges == fresh.badges, seq
        assert stepped.overlays == fresh.overlays, seq  # names (labels:*), leaders, moves and marks
    assert reused > 0  # the walk did take spots again


def dataclass_style(fig: Any) -> Any:
    """The style a state map was drawn with (its map share from the figure's facts)."""
    import dataclasses

    from medviz.viz.state_map import DEFAULT_STATE_STYLE, _facts_of

    return dataclasses.replace(DEFAULT_STATE_STYLE, map_domain=_facts_of(fig).map_domain)
