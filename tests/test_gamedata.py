"""Game data of Mediterranean Empires: shipped files validate, match the rule text, and overrides work."""

from __future__ import annotations

import pickle
import shutil
from pathlib import Path
from typing import Any

import pytest

from medviz.engine.errors import DataError, MalformedInput
from medviz.rules.datafiles import has_provenance
from medviz.rules.medempires import gamedata
from medviz.rules.medempires.gamedata import (
    FILES,
    LAND_CODES,
    GameData,
    load_game_data,
    load_raw,
    resolve_fleet_sea,
    validate_game_data,
)

# A map independent of the map engineer's file: the gazetteer's land areas and the sea areas each
# borders (medempires-gazetteer.md sections 1-2). Ports are omitted, so "adjacent:" picks the first
# coast or the preferred sea.
GAZETTEER_COASTS: dict[str, list[str]] = {
    "albi": [], "auvergne": [], "county_of_toulouse": ["gulf_of_lion"], "montpellier": ["gulf_of_lion"],
    "provence": ["gulf_of_lion", "ligurian_sea"], "vienne": [], "guyenne": ["bay_of_biscay"],
    "navarre": [], "biscay": ["bay_of_biscay"], "old_castile": ["bay_of_biscay"],
    "new_castile": ["gulf_of_cadiz"], "granada": ["alboran_sea"], "murcia": ["algerian_sea_west"],
    "valencia": ["balearic_sea", "algerian_sea_west"], "lower_aragon": [], "upper_aragon": [],
    "urgell": [], "catalan_counties": ["balearic_sea", "gulf_of_lion"], "rossello": ["gulf_of_lion"],
    "majorca": ["balearic_sea", "algerian_sea_west", "sardinian_sea"], "genoa": ["ligurian_sea"],
    "corsica_north": ["ligurian_sea", "tyrrhenian_north"], "corsica_south": ["sardinian_sea", "tyrrhenian_north"],
    "olbia": ["sardinian_sea", "tyrrhenian_south"], "arborea": ["sardinian_sea"],
    "caralis": ["sardinia_channel", "sardinian_sea", "tyrrhenian_south"],
    "pisa": ["ligurian_sea", "tyrrhenian_north"], "tuscany": [], "milan": [], "brescia": [],
    "venice": ["adriatic_north"], "istria": ["adriatic_north"], "dalmatia": ["adriatic_north", "adriatic_south"],
    "ravenna": ["adriatic_north"], "ancona": ["adriatic_north", "adriatic_south"],
    "papal_states": ["tyrrhenian_north"], "abruzzi": ["adriatic_south"], "naples": ["tyrrhenian_south"],
    "apulia": ["adriatic_south", "ionian_sea"], "calabria": ["tyrrhenian_south", "ionian_sea"],
    "sicily_west": ["tyrrhenian_south", "sardinia_channel", "strait_of_sicily"],
    "sicily_east": ["tyrrhenian_south", "ionian_sea", "strait_of_sicily"],
    "malta": ["strait_of_sicily", "ionian_sea"], "tunis": ["sardinia_channel", "strait_of_sicily"],
    "bougie": ["sardinian_sea", "sardinia_channel"], "tlemcen": ["alboran_sea", "algerian_sea_west"],
    "merinids": ["alboran_sea", "gulf_of_cadiz"],
}  # fmt: skip
GAZETTEER_SEAS = sorted({s for seas in GAZETTEER_COASTS.values() for s in seas} | {"atlantic_iberia"})
GAZETTEER_MAP: dict[str, Any] = {
    "area": [{"id": a, "kind": "land", "coasts": c, "ports": []} for a, c in GAZETTEER_COASTS.items()]
    + [{"id": s, "kind": "sea", "coasts": []} for s in GAZETTEER_SEAS]
}


@pytest.fixture(scope="module")
def data() -> GameData:
    """The shipped data, resolved against the gazetteer map."""
    return load_game_data(game_map=GAZETTEER_MAP)


def test_shipped_data_validates_clean_with_the_shipped_map() -> None:
    loaded = load_game_data()
    assert validate_game_data(loaded, gamedata.load_default_map()) == []
    for dep in loaded.deployments.values():
        assert all(sea is not None for power, code, sea in dep.placements() if code == "F")


def test_shipped_data_validates_clean_against_gazetteer_map(data: GameData) -> None:
    assert validate_game_data(data, GAZETTEER_MAP) == []


def test_every_entry_in_every_file_has_provenance() -> None:
    raw = load_raw()
    count = 0
    for stem, tables in FILES.items():
        for table in tables:
            for entry in raw[stem][table]:
                count += 1
                assert has_provenance(entry), f"{stem}.toml [[{table}]] {entry.get('id')!r}"
    assert count > 150


def test_provenance_kept_on_loaded_entries(data: GameData) -> None:
    assert all(data.provenance_index.values())
    assert "reconstructed" in data.powers["castile"].provenance
    assert data.kings["peter_iii"].provenance["rule"] == "3.2(2)"


def test_game_data_is_read_only_and_picklable(data: GameData) -> None:
    with pytest.raises(TypeError, match="read-only"):
        data.counter_limits["aragon"]["F"] = 9  # type: ignore[index]
    with pytest.raises(TypeError, match="read-only"):
        data.powers.pop("genoa")  # type: ignore[attr-defined]
    copy = pickle.loads(pickle.dumps(data))
    assert copy == data and copy.counter_limits["aragon"]["F"] == 5
    assert gamedata.default_game_data() is gamedata.default_game_data()


# --- Diplomacy Table, row by row from the rule text's table --------------------------------------

# (die, rebellion, vassalage, diplomacy); 7 stands for "7+".
DIPLOMACY_TABLE = [
    (1, "NE", "NE", "NE"),
    (2, "NE", "NE", "NE"),
    (3, "NE", "NE", "NE"),
    (4, "NE", "vassalage", "NE"),
    (5, "rebellion", "vassalage", "alliance"),
    (6, "rebellion", "vassalage", "alliance"),
    (7, "rebellion", "vassalage", "alliance"),
]


@pytest.mark.parametrize(("die", "rebellion", "vassalage", "diplomacy"), DIPLOMACY_TABLE)
def test_diplomacy_table_row(data: GameData, die: int, rebellion: str, vassalage: str, diplomacy: str) -> None:
    row = data.politics.table[die]
    assert (row["rebellion"], row["vassalage"], row["diplomacy"]) == (rebellion, vassalage, diplomacy)


def test_diplomacy_table_reads_out_of_range_rolls(data: GameData) -> None:
    assert data.politics.result("diplomacy", 0) == "NE"
    assert data.politics.result("diplomacy", 11) == "alliance"
    assert data.politics.result("vassalage", 4) == "vassalage"
    assert data.politics.result("rebellion", 4) == "NE"
    with pytest.raises(MalformedInput):
        data.politics.result("crusade", 5)


def test_politics_modifiers_and_limits(data: GameData) -> None:
    mods = data.politics.modifiers
    assert mods["pope"]["value"] == 1 and mods["treasury_point"]["max_tp"] == 1
    assert mods["territorial_concession"]["value"] == 3 and mods["territorial_concession"]["only_target"] == "castile"
    assert mods["king_diplomacy"]["value"] == "king.diplomacy"
    assert {a: v["per_turn"] for a, v in data.politics.attempts.items()} == {
        "diplomacy": 1,
        "vassalage": 1,
        "rebellion": 1,
    }
    assert all(v["marker_cost"] == 1 for v in data.politics.attempts.values())
    assert data.politics.limits["rounds"]["value"] == 3
    assert set(data.politics.limits["untouchable_powers"]["powers"]) == {"france", "anjou", "aragon"}


# --- Set-up, against the rule text (3.1-3.3.1) ---------------------------------------------------

SETUP_UNITS = {
    "anjou": {"K": 1, "FA": 3, "L": 3, "F": 2},
    "france": {"K": 1, "FA": 5, "L": 5, "F": 4},
    "aragon": {"K": 1, "FA": 4, "L": 6, "R": 4, "M": 2, "F": 4},
    "genoa": {"FA": 2, "L": 2, "F": 3},
    "pisa": {"FA": 2, "L": 1, "F": 2},
    "venice": {"FA": 2, "L": 2, "F": 4},
    "castile": {"FA": 2, "L": 3, "R": 1},
    "england": {"FA": 2, "L": 2},
    "papal_states": {"FA": 2, "L": 2},
    "brescia": {"FA": 1, "L": 1},
    "ancona": {"FA": 1, "F": 1},
    "milan": {"FA": 2, "L": 1},
    "tuscany": {"FA": 2, "L": 1},
    "ravenna": {"FA": 1, "L": 1},
    "navarre": {"FA": 1, "L": 1},
    "merinids": {"R": 1, "L": 2},
    "tlemcen": {"R": 2, "L": 1},
    "bougie": {"R": 2, "L": 1},
    "granada": {"R": 2},
}

SETUP_AREAS = {  # areas each power controls at set-up (3.1(1) + ruling C, 3.2(1), 3.3.1)
    "anjou": {"abruzzi", "calabria", "apulia", "naples", "malta"},
    "france": {"albi", "auvergne", "montpellier", "provence", "county_of_toulouse", "vienne"},
    "aragon": {"catalan_counties", "majorca", "murcia", "valencia", "lower_aragon", "rossello", "upper_aragon", "urgell"},
    "tunis": {"tunis"},
    "sicily": {"sicily_west", "sicily_east"},
    "genoa": {"genoa", "corsica_north", "corsica_south", "olbia"},
    "pisa": {"pisa", "arborea", "caralis"},
    "venice": {"venice", "istria", "dalmatia"},
    "castile": {"new_castile", "old_castile", "biscay"},
    "england": {"guyenne"},
    "papal_states": {"papal_states"},
}  # fmt: skip

DEPLOYERS = {"pisa": "A", "castile": "A", "papal_states": "A", "genoa": "B", "venice": "B", "england": "B"}


@pytest.mark.parametrize(("power", "units"), sorted(SETUP_UNITS.items()))
def test_setup_units_equal_rule_text(data: GameData, power: str, units: dict[str, int]) -> None:
    assert dict(data.setup[power].units) == units


def test_setup_units_with_unstated_types(data: GameData) -> None:
    # 3.3.1: Tunis "three units", Sicily "four units" (types reconstructed, all land).
    assert sum(data.setup["tunis"].units.values()) == 3
    assert sum(data.setup["sicily"].units.values()) == 4
    for power in ("tunis", "sicily"):
        assert set(data.setup[power].units) <= set(LAND_CODES)
    assert data.setup["tunis"].marker == "vassal:B" and data.setup["sicily"].marker == "ally:B"


@pytest.mark.parametrize(("power", "areas"), sorted(SETUP_AREAS.items()))
def test_setup_areas_equal_rule_text(data: GameData, power: str, areas: set[str]) -> None:
    assert set(data.setup[power].controls) == areas
    assert set(data.setup[power].must_occupy) == areas


def test_every_other_neutral_controls_only_its_home_area(data: GameData) -> None:
    for power in ("brescia", "ancona", "milan", "tuscany", "ravenna", "navarre", "merinids", "tlemcen", "bougie", "granada"):
        assert data.setup[power].controls == (power,)
        assert data.powers[power].deployed_by == "either"


def test_who_deploys(data: GameData) -> None:
    for power, side in DEPLOYERS.items():
        assert data.powers[power].deployed_by == side == data.setup[power].deployed_by
    assert data.scenarios["standard"].starting_tp == {"A": 7, "B": 4}


def test_player_a_controls_the_listed_areas_plus_occupied_ones(data: GameData) -> None:
    listed = {"albi", "calabria", "county_of_toulouse", "apulia", "naples", "malta", "montpellier", "provence", "vienne"}
    side_a = set(data.setup["anjou"].controls) | set(data.setup["france"].controls)
    assert side_a == listed | {"abruzzi", "auvergne"}


# --- Powers ------------------------------------------------------------------------------------

GROUPS = {
    "italian": {"papal_states", "venice", "genoa", "ravenna", "pisa", "milan", "brescia", "ancona", "tuscany"},
    "islamic": {"granada", "merinids", "tlemcen", "bougie", "tunis"},
    "player": {"france", "anjou", "aragon"},
    "other": {"navarre", "castile", "england", "sicily"},
}


def test_powers_groups_and_counter_colours(data: GameData) -> None:
    assert len(data.powers) == 21
    for group, members in GROUPS.items():
        assert {p.id for p in data.powers.values() if p.group == group} == members
    for pid in GROUPS["italian"]:
        assert (data.powers[pid].counter_text, data.powers[pid].counter_background) == ("black", "light blue")
    colours = {pid: (p.counter_text, p.counter_background) for pid, p in data.powers.items()}
    assert colours["aragon"] == ("gold", "red")
    assert colours["france"] == ("gold", "dark blue")
    assert colours["anjou"] == ("gold", "light blue")
    assert colours["navarre"] == ("red", "yellow")
    assert colours["castile"] == ("black", "purple")
    assert colours["england"] == ("white", "brown")


def _rgb(hex_colour: str) -> tuple[int, int, int]:
    return int(hex_colour[1:3], 16), int(hex_colour[3:5], 16), int(hex_colour[5:7], 16)


def test_display_colours_distinct_and_by_side(data: GameData) -> None:
    colours = [p.display_colour.upper() for p in data.powers.values()]
    assert len(set(colours)) == len(colours)
    for pid in ("france", "anjou"):
        r, g, b = _rgb(data.powers[pid].display_colour)
        assert b > r, f"{pid} should be drawn in a blue"
    r, g, b = _rgb(data.powers["aragon"].display_colour)
    assert r > 2 * max(g, b)
    assert data.powers["aragon"].display_accent is not None


def test_special_unit_rules_per_power(data: GameData) -> None:
    assert [p for p in data.powers.values() if p.mercenaries_allowed] == [data.powers["aragon"]]
    assert {p.id for p in data.powers.values() if p.fleets_count_double} == {"aragon", "genoa", "venice"}
    assert data.powers["castile"].home_areas == ("old_castile",)
    assert data.powers["tunis"].status_at_start == "vassal" and data.powers["tunis"].faction_at_start == "B"
    assert data.powers["sicily"].status_at_start == "ally"


# --- Units and the counter mix -------------------------------------------------------------------


def test_unit_types_and_costs(data: GameData) -> None:
    costs = {code: ut.recruit_cost for code, ut in data.unit_types.items()}
    assert costs == {"FA": 1.0, "L": 0.5, "R": 1.0, "M": 1.0, "F": 2.0, "K": None}
    assert data.unit_types["L"].single_purchase_cost == 1.0
    assert data.unit_types["FA"].counts_double == ("field",)
    assert data.unit_types["M"].counts_double == ("field",)
    assert data.unit_types["R"].counts_double == ("raid",)
    assert set(data.unit_types["F"].double_for_powers) == {"aragon", "genoa", "venice"}


def test_unit_doubling_agrees_with_combat_tables() -> None:
    tables = {t["id"]: t for t in gamedata.load_toml(gamedata.DATA_DIR / "tables.toml")["table"]}
    data = load_game_data(game_map=GAZETTEER_MAP)
    field_double = {c for c, ut in data.unit_types.items() if "field" in ut.counts_double}
    assert field_double == set(tables["field"]["counts_double"])
    assert {c for c, ut in data.unit_types.items() if "raid" in ut.counts_double} == set(tables["raid"]["counts_double"])
    assert set(data.unit_types["F"].double_for_powers) == set(tables["field"]["fleets_count_double"])


def test_counter_limits_at_least_setup(data: GameData) -> None:
    for power, st in data.setup.items():
        for code, n in st.units.items():
            if code != "K":
                assert data.counter_limits[power].get(code, 0) >= n, (power, code)
    assert [p for p, lim in data.counter_limits.items() if lim.get("M")] == ["aragon"]
    # Reserves only for the three player powers; every other limit equals its set-up.
    for power, st in data.setup.items():
        setup_units = {c: n for c, n in st.units.items() if c != "K"}
        if power in ("france", "anjou", "aragon"):
            assert sum(data.counter_limits[power].values()) > sum(setup_units.values())
        else:
            assert dict(data.counter_limits[power]) == setup_units


def test_counter_sheet_adds_up_to_176(data: GameData) -> None:
    sheet = data.counter_sheet
    assert sheet is not None and sheet.total == 176
    units = sum(sum(lim.values()) for lim in data.counter_limits.values())
    setup_units = sum(n for st in data.setup.values() for c, n in st.units.items() if c != "K")
    assert setup_units == 108
    assert units == 123
    used = units + len(data.kings) + len(data.stratagem_cup()) + sheet.track_markers
    assert (len(data.kings), len(data.stratagem_cup()), sheet.track_markers) == (16, 26, 4)
    assert sheet.total - used == 7  # left for control and alliance/vassal markers (2.3)


def test_counter_sheet_overflow_is_a_problem(tmp_path: Path) -> None:
    path = tmp_path / "big.toml"
    path.write_text('[[units.counter_mix]]\nid = "aragon"\nF = 13\n', encoding="utf-8")
    with pytest.raises(DataError, match="more than the 176 counters"):
        load_game_data(path, game_map=GAZETTEER_MAP)


# --- Kings ----------------------------------------------------------------------------------------


def test_starting_kings(data: GameData) -> None:
    ratings = {p: (k.diplomacy, k.military) for p in ("anjou", "france", "aragon") if (k := data.starting_king(p))}
    assert ratings == {"anjou": (0, 1), "france": (1, 1), "aragon": (2, 2)}
    assert data.starting_king("genoa") is None


def test_king_pools_one_per_player_power(data: GameData) -> None:
    assert set(data.king_pools) == {"france", "anjou", "aragon"}
    assert {"philip_iv", "louis_x"} <= set(data.king_pools["france"])
    assert {"charles_ii", "robert"} <= set(data.king_pools["anjou"])
    assert {"alfonso_iii", "james_ii", "frederick_iii"} <= set(data.king_pools["aragon"])
    for pool, kings in data.king_pools.items():
        assert all(data.kings[k].power == pool and not data.kings[k].starting for k in kings)
        assert all("reconstructed" in data.kings[k].provenance for k in kings)


# --- Stratagems -------------------------------------------------------------------------------------


def test_stratagem_cup(data: GameData) -> None:
    assert set(data.stratagems) == set(gamedata.STRATAGEM_KINDS)
    counts = {s.id: s.count for s in data.stratagems.values()}
    assert counts["pope"] == counts["crusade"] == counts["plague"] == 1
    top = max(counts.values())
    assert counts["diplomacy"] == counts["military_advantage"] == top
    assert all(n < top for k, n in counts.items() if k not in ("diplomacy", "military_advantage"))
    assert len(data.stratagem_cup()) == sum(counts.values()) >= 3 * 8
    disposition = {s.id: s.disposition for s in data.stratagems.values()}
    assert {k for k, d in disposition.items() if d == "end_of_turn"} == {"crusade", "gold", "piracy", "plague", "trade_concession"}
    assert disposition["pope"] == "pope"
    assert data.stratagems["gold"].effects["tp"] == 1 and data.stratagems["trade_concession"].effects["tp"] == 2
    assert data.stratagems["piracy"].effects["opponent_tp"] == -2
    assert list(data.stratagems["plague"].effects["strikes_on"]) == [1, 2, 3]
    assert all(s.provenance.get("rule", "").startswith("12.0") for s in data.stratagems.values())


# --- Scenarios and options ------------------------------------------------------------------------


def test_scenarios(data: GameData) -> None:
    std = data.scenarios["standard"]
    assert std.game_turns == 7 and std.turn_years[0] == (1281, 1290) and std.turn_years[-1] == (1341, 1350)
    assert std.victory["kind"] == "vp_margin" and std.victory["a_wins_by"] == 3
    assert list(std.victory["draw_leads"]) == [1, 2]
    ves = data.scenarios["vespers-1282"]
    assert ves.turn_years == ((1282, 1290), (1291, 1300), (1301, 1310))
    assert set(ves.victory["b_must_control"]) == {"sicily_west", "sicily_east", "malta"}
    assert set(ves.victory["a_must_not_take"]) == {"upper_aragon", "rossello", "catalan_counties", "urgell"}
    assert data.options[ves.victory["taken_option"]].default is False
    optional = {o.id: o for o in data.options.values()}
    assert {o.provenance.get("rule") for o in optional.values()} >= {"14.1", "14.2", "14.3"}
    # the optional rules (14.x) and rulings' switches are off, except ruling D on successions (8.1)
    assert not any(o.default for o in optional.values() if o.id != "dead_kings_stay_dead")
    assert optional["dead_kings_stay_dead"].default is True


def test_operations_costs(data: GameData) -> None:
    ops = data.operations
    assert ops.costs["ground_move"] == 1 and ops.costs["leave_enemy_area"] == 2
    assert ops.costs["naval_move"] == 1 and ops.costs["amphibious_landing"] == 1 and ops.costs["combat"] == 2
    assert ops.costs["attack_again_after_no_effect"] == 2
    assert ops.thresholds["ops_cap"] == 15
    assert ops.thresholds["interception_success"] == 4
    assert (ops.thresholds["avoid_non_raiders"], ops.thresholds["avoid_all"]) == (5, 6)
    assert ops.treasury["tp_cap"] == 10
    assert (ops.treasury["stack_without_city"], ops.treasury["stack_with_city"]) == (3, 5)
    assert dict(ops.recruiting) == {"FA": 1.0, "L": 0.5, "R": 1.0, "M": 1.0, "F": 2.0}


# --- Default deployment against the set-up rules (checked here independently of the validator) ----


@pytest.mark.parametrize("scenario", ["standard", "vespers-1282"])
def test_deployment_satisfies_every_setup_constraint(data: GameData, scenario: str) -> None:
    dep = data.deployments[scenario]
    assert set(dep.powers) == set(data.setup)
    for power, st in data.setup.items():
        pd = dep.powers[power]
        assert pd.unit_counts() == dict(st.units), power
        for area in st.must_occupy:
            assert any(c in LAND_CODES for c in pd.land.get(area, ())), (power, area)
        for area, codes in pd.land.items():
            assert area in st.land_areas, (power, area)
            if "K" in codes:
                assert area in st.king_areas and any(c in LAND_CODES for c in codes), (power, area)
        for fleet in pd.fleets:
            assert fleet.sea in GAZETTEER_SEAS, (power, fleet)
            assert any(fleet.sea in GAZETTEER_COASTS[a] for a in st.fleet_coasts), (power, fleet)


def test_vespers_deployment_follows_history(data: GameData) -> None:
    anjou = data.deployments["vespers-1282"].powers["anjou"]
    assert "K" in anjou.land["calabria"]
    assert {f.sea for f in anjou.fleets} == {"tyrrhenian_south"}  # the armada at Naples
    aragon = data.deployments["vespers-1282"].powers["aragon"]
    assert "K" in aragon.land["catalan_counties"] and aragon.land["catalan_counties"].count("M") == 2
    assert {f.sea for f in aragon.fleets} == {"balearic_sea"}


def test_fleet_resolution() -> None:
    view = gamedata._map_view(GAZETTEER_MAP)
    assert resolve_fleet_sea("adjacent:calabria", None, view) == "ionian_sea"  # alphabetical
    assert resolve_fleet_sea("adjacent:calabria", "tyrrhenian_south", view) == "tyrrhenian_south"
    assert resolve_fleet_sea("adjacent:calabria", "adriatic_north", view) == "ionian_sea"  # not its coast
    assert resolve_fleet_sea("adjacent:nowhere", None, view) is None
    assert resolve_fleet_sea("adjacent:albi", None, view) is None
    assert resolve_fleet_sea("ionian_sea", None, view) == "ionian_sea"
    ported = {"area": [{"id": "x", "kind": "land", "coasts": ["s1", "s2"], "ports": ["s2"]},
                       {"id": "s1", "kind": "sea"}, {"id": "s2", "kind": "sea"}]}  # fmt: skip
    assert resolve_fleet_sea("adjacent:x", None, gamedata._map_view(ported)) == "s2"  # the port wins
    assert resolve_fleet_sea("adjacent:x", None, None) is None  # no map, nothing to resolve against


def test_validator_reports_every_broken_setup_constraint() -> None:
    raw = load_raw()
    for entry in raw["deployment"]["deployment"]:
        if entry["id"] == "standard/anjou":
            entry["land"] = {"naples": ["FA", "FA", "FA", "L", "L", "L"], "rome": ["K"]}
            entry["fleets"] = [{"sea": "adjacent:vienne"}]
    problems: list[str] = []
    data = gamedata.build_game_data(raw, problems, GAZETTEER_MAP)
    problems += validate_game_data(data, GAZETTEER_MAP)
    text = "\n".join(problems)
    for needle in (
        "no land unit in 'malta'",
        "no land unit in 'abruzzi'",
        "area 'rome' is not a set-up area",
        "unknown land area 'rome'",
        "King in 'rome' with no land unit",
        "places 1 F, the set-up has 2",
        "does not resolve",
    ):
        assert needle in text, needle


def test_validator_reports_an_area_held_by_two_powers(tmp_path: Path) -> None:
    path = tmp_path / "clash.toml"
    path.write_text(
        '[[scenarios.setup]]\nid = "pisa"\ncontrols = ["pisa", "arborea", "caralis", "olbia"]\n'
        '[[powers.power]]\nid = "pisa"\ncontrolled_at_start = ["pisa", "arborea", "caralis", "olbia"]\n',
        encoding="utf-8",
    )
    with pytest.raises(DataError, match="area 'olbia' is also controlled by 'genoa'"):
        load_game_data(path, game_map=GAZETTEER_MAP)


# --- Override files ---------------------------------------------------------------------------------


def test_override_replaces_aragon_fleet_limit(tmp_path: Path) -> None:
    path = tmp_path / "my_sheet.toml"
    path.write_text(
        '[[units.counter_mix]]\nid = "aragon"\nF = 6\nsource = "my counter sheet"\n'
        '[[powers.power]]\nid = "genoa"\ndisplay_colour = "#000000"\n',
        encoding="utf-8",
    )
    data = load_game_data(path, game_map=GAZETTEER_MAP)
    assert data.counter_limits["aragon"]["F"] == 6
    assert data.counter_limits["aragon"]["M"] == 3  # untouched fields stay
    assert data.powers["genoa"].display_colour == "#000000"
    assert data.powers["genoa"].provenance["source"] == str(path)


def test_override_example_in_the_docs_works(tmp_path: Path) -> None:
    doc = (Path(__file__).parents[1] / "docs" / "data-provenance.md").read_text(encoding="utf-8")
    example = doc.split("```toml\n", 1)[1].split("```", 1)[0]
    path = tmp_path / "my-counter-sheet.toml"
    path.write_text(example, encoding="utf-8")
    data = load_game_data(path, game_map=GAZETTEER_MAP)
    assert data.counter_limits["aragon"]["F"] == 6
    assert data.powers["genoa"].display_colour == "#000000"
    assert data.kings["robert"].military == 0 and data.kings["robert"].diplomacy == 2


def test_broken_override_lists_all_its_problems(tmp_path: Path) -> None:
    path = tmp_path / "broken.toml"
    path.write_text(
        '[[units.counter_mix]]\nid = "aragon"\nF = 1\nX = 2\n'
        '[[units.counter_mix]]\nF = 3\n'
        '[[kings.king]]\nid = "charles_iii"\nname = "Charles III"\npower = "byzantium"\npool = "anjou"\n'
        'starting = false\ndiplomacy = 1\nmilitary = "lots"\n'
        '[[cards.card]]\nid = "x"\n'
        '[[units.nonsense]]\nid = "y"\n',
        encoding="utf-8",
    )
    with pytest.raises(DataError) as err:
        load_game_data(path, game_map=GAZETTEER_MAP)
    text = "\n".join(err.value.problems)
    for needle in (
        "entry #2 has no text 'id'",
        "unknown data file 'cards'",
        "unknown table units.nonsense",
        "unknown unit code 'X'",
        "limit 1 F is below the 4 set up",
        "unknown power 'byzantium'",
        "field 'military' must be an integer",
    ):
        assert needle in text, needle
    assert str(path) in str(err.value)


def test_malformed_override_names_the_file(tmp_path: Path) -> None:
    path = tmp_path / "bad.toml"
    path.write_text("[[units.counter_mix]\nid = ", encoding="utf-8")
    with pytest.raises(MalformedInput, match="bad.toml"):
        load_game_data(path, game_map=GAZETTEER_MAP)


def test_malformed_data_file_names_the_file(tmp_path: Path) -> None:
    data_dir = tmp_path / "data"
    shutil.copytree(gamedata.DATA_DIR, data_dir)
    (data_dir / "kings.toml").write_text('[[king]]\nid = "x\n', encoding="utf-8")
    with pytest.raises(MalformedInput, match="kings.toml"):
        load_game_data(data_dir=data_dir, game_map=GAZETTEER_MAP)
