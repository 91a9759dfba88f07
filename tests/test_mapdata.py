"""The game map as data (map.toml): shipped data validates clean; overrides merge and are checked."""

from __future__ import annotations

from pathlib import Path

import pytest

from medviz.engine.errors import DataError, UnknownReference
from medviz.rules.medempires.mapdata import (
    EXAMPLE_11_1,
    LAND_IDS,
    GameMap,
    load_map,
    sea_path_length,
    validate_map,
)

#: Rule 3.1: the land areas Player A controls at the start.
PLAYER_A_START = ["albi", "calabria", "county_of_toulouse", "apulia", "naples", "malta",
                  "montpellier", "provence", "vienne"]


@pytest.fixture(scope="module")
def game_map() -> GameMap:
    return load_map()


def test_shipped_map_validates_clean(game_map: GameMap) -> None:
    assert validate_map(game_map) == []
    assert set(game_map.land_ids()) == LAND_IDS
    assert len(game_map.land_ids()) == 47
    assert all(a.provenance for a in game_map.areas.values())


def test_sea_areas_satisfy_rulings_a(game_map: GameMap) -> None:
    assert "sardinian_sea" in game_map.sea_ids()
    start = game_map.area(EXAMPLE_11_1["start"])
    assert {"caralis", "bougie"} <= start.coasts
    assert EXAMPLE_11_1["start"] not in game_map.area("caralis").ports
    assert game_map.area("caralis").ports == {"sardinia_channel"}
    assert sea_path_length(game_map, "sea_sw_sardinia", "gulf_of_lion",
                           via=("balearic_sea", "sardinian_sea")) == 3
    apulia = game_map.area("apulia")
    assert "ionian_sea" in apulia.ports and "adriatic_south" not in apulia.ports
    assert "adriatic_south" in apulia.coasts  # the Adriatic is on its coast, just not Taranto's


def test_adjacency_is_symmetric_and_straits_are_not_land_links(game_map: GameMap) -> None:
    for a in game_map.areas.values():
        for n in a.neighbours:
            assert game_map.are_neighbours(n, a.id)
    assert not game_map.are_neighbours("calabria", "sicily_east")
    assert game_map.strait_between("sicily_east", "calabria") is not None
    assert game_map.strait_between("olbia", "corsica_south") is not None
    assert game_map.are_neighbours("sicily_west", "sicily_east")
    assert game_map.are_neighbours("upper_aragon", "lower_aragon")
    assert game_map.area("majorca").neighbours == frozenset()
    assert game_map.area("malta").neighbours == frozenset()


def test_cities_follow_the_rulings(game_map: GameMap) -> None:
    assert game_map.area("papal_states").city == "Rome"
    assert game_map.area("caralis").city == "Cagliari"
    assert game_map.area("apulia").city == "Taranto"
    assert game_map.area("guyenne").city == "Bordeaux"
    without = [a.id for a in game_map.areas.values() if a.kind == "land" and not a.has_city]
    assert without, "5.2 distinguishes areas with and without a city"
    # Player A's starting cities equal the 7 TP its marker starts on (3.1 step 4).
    assert sum(game_map.area(a).has_city for a in PLAYER_A_START) == 7
    for a in game_map.areas.values():
        if a.kind == "land" and a.city is None:
            assert a.ports == frozenset()


def test_unknown_area_is_an_unknown_reference(game_map: GameMap) -> None:
    with pytest.raises(UnknownReference, match="atlantis"):
        game_map.area("atlantis")


def test_override_changes_a_city(tmp_path: Path) -> None:
    override = tmp_path / "map.toml"
    override.write_text(
        '[[area]]\nid = "naples"\ncity = "Capua"\ncity_lat = 41.11\ncity_lon = 14.21\n'
        'reconstructed = "class exercise: the Terra di Lavoro capital"\n',
        encoding="utf-8",
    )
    changed = load_map(override)
    naples = changed.area("naples")
    assert naples.city == "Capua"
    assert naples.city_point == (14.21, 41.11)
    assert naples.ports == {"tyrrhenian_south"}  # untouched fields keep the shipped values
    assert load_map().area("naples").city == "Naples"


def test_broken_override_lists_every_problem(tmp_path: Path) -> None:
    override = tmp_path / "broken.toml"
    override.write_text(
        '[[area]]\nid = "naples"\nneighbours = ["papal_states", "abruzzi", "apulia", "calabria", "sicily_west"]\n'
        '\n[[area]]\nid = "genoa"\nneighbours = ["milan", "pisa", "provence", "tuscany", "atlantis"]\n'
        '\n[[area]]\nid = "majorca"\nports = ["gulf_of_lion"]\n',
        encoding="utf-8",
    )
    with pytest.raises(DataError) as err:
        load_map(override)
    problems = err.value.problems
    text = "\n".join(problems)
    assert "'sicily_west' does not list 'naples' back" in text
    assert "unknown area 'atlantis'" in text
    assert "ports gulf_of_lion are not among its coasts" in text
    assert len(problems) >= 3
    assert str(override) in str(err.value)


def test_override_breaking_the_11_1_route_is_caught(tmp_path: Path) -> None:
    override = tmp_path / "cut.toml"
    override.write_text(
        '[[area]]\nid = "balearic_sea"\nneighbours = ["algerian_sea_west", "gulf_of_lion", "sea_sw_sardinia"]\n'
        '\n[[area]]\nid = "sardinian_sea"\nneighbours = ["gulf_of_lion", "ligurian_sea", "sea_sw_sardinia", '
        '"tyrrhenian_north"]\n',
        encoding="utf-8",
    )
    with pytest.raises(DataError, match="11.1 example: sea areas 'balearic_sea' and 'sardinian_sea'"):
        load_map(override)


def test_override_without_a_city_for_rome_is_caught(tmp_path: Path) -> None:
    override = tmp_path / "norome.toml"
    override.write_text('[[area]]\nid = "papal_states"\ncity = ""\nports = []\n', encoding="utf-8")
    with pytest.raises(DataError, match="Rome must be a city"):
        load_map(override)
