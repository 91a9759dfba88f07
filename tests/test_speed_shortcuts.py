"""The engine's speed shortcuts give what the plain computation gives (issue 14, point 6).

Each shortcut keeps something between calls: a shared option value, a per-map table. These tests
compute the same thing afresh and compare, on the shipped map and on a changed one, so a table
kept for the wrong map or a shared option that differs from a new one fails here.
"""

from __future__ import annotations

import dataclasses

from medviz.engine.policy import DecisionPoint, Option, choose_checked
from medviz.rules.medempires.game.options import Action, ForcePick, Place, Purchase, UnitIn, shared
from medviz.rules.medempires.game.state import coast_distances, sea_distances, shipped_data
from medviz.rules.medempires.mapdata import GameMap


def _coast_distance_afresh(gm: GameMap, sea: str, area: str) -> int:
    return min((sea_distances(gm, sea).get(x, 99) for x in gm.areas[area].coasts), default=99)


def _every_coast_distance(gm: GameMap) -> None:
    for sea in gm.sea_ids():
        table = coast_distances(gm, sea)
        for area in gm.areas:
            assert table.get(area, 99) == _coast_distance_afresh(gm, sea, area), (sea, area)


def test_coast_distances_are_the_nearest_coast_of_every_area_on_the_shipped_map() -> None:
    gm = shipped_data().game_map
    _every_coast_distance(gm)
    assert coast_distances(gm, "tyrrhenian_south") is coast_distances(gm, "tyrrhenian_south")  # kept per map and sea


def test_a_changed_map_has_its_own_coast_distances() -> None:
    gm = shipped_data().game_map
    sea = "tyrrhenian_south"
    before = dict(coast_distances(gm, sea))
    # cut the sea off from its neighbours: every coast but its own is out of reach on the changed map
    areas = dict(gm.areas)
    for other in gm.areas[sea].neighbours:
        areas[other] = dataclasses.replace(areas[other], neighbours=areas[other].neighbours - {sea})
    areas[sea] = dataclasses.replace(areas[sea], neighbours=frozenset())
    cut = dataclasses.replace(gm, areas=areas)
    _every_coast_distance(cut)
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
