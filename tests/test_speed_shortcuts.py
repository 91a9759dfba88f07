"""The engine's speed shortcuts give what the plain computation gives (issue 14, point 6).

Each shortcut keeps something between calls: a shared option value, a per-map table. These tests
compute the same thing afresh and compare, on the shipped map and on a changed one, so a table
kept for the wrong map or a shared option that differs from a new one fails here.
"""

from __future__ import annotations

import dataclasses

from medviz.engine.policy import DecisionPoint, Option, choose_checked
from medviz.rules.medempires.game.options import Action, ForcePick, Place, Purchase, UnitIn, shared
from medviz.rules.medempires.game.state import coast_distances, land_distances, sea_distances, shipped_data
from medviz.rules.medempires.mapdata import GameMap


def _moves_afresh(gm: GameMap, start: str) -> dict[str, int]:
    """Fewest moves from ``start`` to every area it reaches, by rings of neighbours."""
    dist, ring, d = {start: 0}, {start}, 0
    while ring:
        d += 1
        ring = {b for a in ring for b in gm.areas[a].neighbours if b not in dist}
        dist.update(dict.fromkeys(ring, d))
    return dist


def _every_distance(gm: GameMap) -> None:
    """Moves and nearest coasts as kept for ``gm`` are those worked out afresh, from every area."""
    for start in gm.areas:
        moves = _moves_afresh(gm, start)
        assert land_distances(gm, start) == moves and sea_distances(gm, start) == moves, start
        if gm.areas[start].kind == "sea":
            coasts = coast_distances(gm, start)
            for area in gm.areas:
                afresh = min((moves.get(x, 99) for x in gm.areas[area].coasts), default=99)
                assert coasts.get(area, 99) == afresh, (start, area)


def test_distances_kept_per_map_are_those_worked_out_afresh() -> None:
    gm = shipped_data().game_map
    _every_distance(gm)
    assert coast_distances(gm, "tyrrhenian_south") is coast_distances(gm, "tyrrhenian_south")  # kept per map and sea


def test_a_changed_map_has_its_own_distances() -> None:
    gm = shipped_data().game_map
    sea = "tyrrhenian_south"
    before = dict(coast_distances(gm, sea))
    # cut the sea off from its neighbours: every coast but its own is out of reach on the changed map
    areas = dict(gm.areas)
    for other in gm.areas[sea].neighbours:
        areas[other] = dataclasses.replace(areas[other], neighbours=areas[other].neighbours - {sea})
    areas[sea] = dataclasses.replace(areas[sea], neighbours=frozenset())
    cut = dataclasses.replace(gm, areas=areas)
    _every_distance(cut)
    table = coast_distances(cut, sea)
    assert set(table.values()) == {0, 99} and table != before
    assert coast_distances(gm, sea) == before  # the shipped map's table is untouched


def test_shared_options_are_the_options_built_anew() -> None:
    for cls, fields in ((Place, ("sicily",)), (Place, ("sicily", "aragon", "FA-1")), (ForcePick, ("sicily", "aragon", "all")),
                        (Purchase, ("aragon", "2L")), (UnitIn, ("sicily", "aragon", "L")), (Action, ("move", "malta"))):
        option = shared(cls, *fields)
        assert option == cls(*fields) and type(option) is cls and option.key == cls(*fields).key
        assert shared(cls, *fields) is option
    assert shared(Place, "sicily") != shared(Place, "sicily", "aragon", "FA-1")


class _Says:
    """A policy that answers with a fresh value equal to one option (not the option itself)."""

    spec = "says"

    def __init__(self, answer: object) -> None:
        self.answer = answer

    def choose(self, point: DecisionPoint) -> object:
        return self.answer


def test_a_policy_answering_with_an_equal_value_gets_the_legal_option() -> None:
    offered: list[Option | str | int] = [Place("malta"), Place("sicily"), "with the King", 1]
    point = DecisionPoint("d", "A", tuple(offered), None)
    assert choose_checked(_Says(Place("sicily")), point) is offered[1]
    assert choose_checked(_Says("".join(["with the ", "King"])), point) == "with the King"
    assert choose_checked(_Says("sicily"), point) is offered[1]  # a typed option's key still names it
    assert choose_checked(_Says(1), point) == 1
    for wrong in (Place("crete"), True, 1.5, "malta "):
        try:
            choose_checked(_Says(wrong), point)
        except Exception as exc:  # the engine refuses an answer that is no legal option
            assert "not a legal option" in str(exc)
        else:
            raise AssertionError(f"{wrong!r} was accepted")
