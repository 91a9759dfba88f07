"""Combat rules of Mediterranean Empires (10.3, 11.3, 8.1, 12.0) and the table data."""

from __future__ import annotations

from pathlib import Path

import re

import pytest

from medviz.engine import IllegalAction, MalformedInput, ScriptedPolicy, UnknownReference, play
from medviz.rules.medempires import combat
from medviz.rules.medempires.odds import Doctrine
from medviz.rules.medempires.ruleset import RULESET, new_battle

SHARED = Path(__file__).resolve().parent.parent.parent / "shared"  # the rule texts, beside the checkout


# Transcribed independently from the rule text's tables (rows: die 1..6, 7+; columns 1,2,3,4,5-7,8-10).
FIELD = """
CA CA CA CA CA CA
CA CA CA CA NE NE
CA NE NE NE BB BB
NE BB BB BB BB BB
NE DV BB BB DV DV+S
BB DV DV DV DV+S DV+S
BB DV+S DV DV+S DV+S DV+S
"""
RAID = """
CA CA CA CA CA CA
CA CA CA CA CA NE
CA NE NE NE NE NE
NE NE NE BB NE BB
NE BB BB BB BB DV
BB BB DV DV DV DV
DV DV DV+S DV+S DV+S DV+S
"""


def _grid(text: str) -> list[list[str]]:
    return [line.split() for line in text.strip().splitlines()]


@pytest.mark.parametrize("table,expected", [("field", FIELD), ("raid", RAID)])
def test_every_table_cell_matches_the_rule_text(table: str, expected: str) -> None:
    t = combat.tables()[table]
    assert [list(r) for r in t.cells] == _grid(expected)


def _seed_table(name: str) -> list[list[str]] | None:
    path = SHARED / "seeds" / "000_5568d0e0cfe013ba.txt"
    if not path.exists():
        return None
    text = path.read_text(encoding="utf-8")
    start = text.index(name)
    rows = []
    for line in text[start:].splitlines():
        m = re.match(r"^(7\+|[1-6]) ((?:(?:CA|NE|BB|DV\+S|DV) ?){6})$", line.strip())
        if m:
            rows.append(m.group(2).split())
        if len(rows) == 7:
            return rows
    return rows


@pytest.mark.parametrize("table,heading", [("field", "IELD/NAVAL BATTLE TABLE"), ("raid", "RAID COMBAT TABLE")])
def test_table_cells_against_the_seed_text_when_present(table: str, heading: str) -> None:
    rows = _seed_table(heading)
    if rows is None:
        pytest.skip("the rule text (../shared/seeds) is not beside this checkout")
    assert [list(r) for r in combat.tables()[table].cells] == rows


def test_table_data_validates_clean() -> None:
    assert combat.validate_tables() == []


@pytest.mark.parametrize("count,column", [(1, 0), (2, 1), (4, 3), (5, 4), (7, 4), (8, 5), (10, 5), (15, 5)])
def test_columns_including_more_than_ten(count: int, column: int) -> None:
    assert combat.tables()["field"].column(count) == column


def test_modified_rolls_below_one_and_above_six() -> None:
    t = combat.tables()["field"]
    assert t.result(-3, 3) == "CA" and t.result(0, 5) == "CA"
    assert t.result(7, 2) == "DV+S" and t.result(11, 3) == "DV"


def test_units_counting_double() -> None:
    b = new_battle({"attacker": "aragon:2FA,1L,1M,1R", "defender": "anjou:1L"})
    units = b.sides["attacker"].units
    assert combat.table_count(units, "field") == 2 * 2 + 1 + 2 + 1
    assert combat.table_count(units, "raid") == 2 + 1 + 1 + 2
    sea = new_battle({"attacker": "aragon:2F", "defender": "anjou:2F+genoa:1F"})
    assert combat.table_count(sea.sides["attacker"].units, "field") == 4
    assert combat.table_count(sea.sides["defender"].units, "field") == 2 + 2
    assert sea.kind == "sea" and combat.tables_open(sea) == ["field"]


@pytest.mark.parametrize("spec,error,match", [
    ("fr:2FA", UnknownReference, "unknown power"),
    ("france:2XX", MalformedInput, "cannot read"),
    ("france:-2FA", MalformedInput, "negative"),
    ("france:2M", IllegalAction, "2.2.1"),
    ("france", MalformedInput, "POWER:ITEMS"),
    ("france:K2", MalformedInput, "no units"),
    ("france:1FA,K1,K2", IllegalAction, "one King"),
])
def test_bad_force_specs(spec: str, error: type[Exception], match: str) -> None:
    with pytest.raises(error, match=match):
        new_battle({"attacker": spec, "defender": "anjou:1L"})


def test_fleets_and_land_units_do_not_fight() -> None:
    with pytest.raises(IllegalAction, match="11.3"):
        new_battle({"attacker": "aragon:1F", "defender": "anjou:1L"})
    with pytest.raises(IllegalAction, match="10.0"):
        new_battle({"attacker": "aragon:1FA+sicily:1L", "defender": "anjou:1L"})


def _battle(opts: dict[str, object], overrides: dict[str, int], choices: dict[str, object] | None = None):
    policy = ScriptedPolicy(choices or {}, Doctrine(table="field"))
    return play(RULESET, "battle", opts, seed=0, players={"attacker": policy, "defender": policy},
                overrides=overrides)


R = "battle-1/combat-1/"


def _init(att: int, dfd: int) -> dict[str, int]:
    return {R + "initiative/attacker": att, R + "initiative/defender": dfd}


def test_defender_wins_initiative_ties_and_chooses_the_table() -> None:
    h = _battle({"attacker": "aragon:3L", "defender": "anjou:1L"},
                {**_init(4, 4), R + "round-1/attacker": 3})
    report = next(e for e in h.events if e.kind == "report" and e.report == "initiative")
    assert report.data["winner"] == "defender"
    table = next(e for e in h.decisions() if e.decision.endswith("/table"))
    assert table.actor == "defender"


def test_king_military_value_modifies_initiative_and_combat() -> None:
    h = _battle({"attacker": "aragon:1FA,K2", "defender": "anjou:2L,K1"},
                {**_init(3, 3), R + "round-1/attacker": 3})
    init = next(e for e in h.events if e.kind == "report" and e.report == "initiative")
    assert (init.data["attacker"], init.data["winner"]) == (5, "attacker")
    res = next(e for e in h.events if e.kind == "change" and e.change == "battle-result")
    assert res.data["drm"] == 2 - 1 and res.data["count"] == 2 and res.data["result"] == "BB"


def test_mercenaries_add_and_subtract_one() -> None:
    h = _battle({"attacker": "anjou:2L", "defender": "aragon:1M"}, {**_init(6, 1), R + "round-1/attacker": 4})
    res = next(e for e in h.events if e.kind == "change" and e.change == "battle-result")
    assert res.data["drm"] == -1 and res.data["modified"] == 3


def test_siege_train_only_in_a_city_field_battle() -> None:
    opts = {"attacker": "anjou:2FA,1ST", "defender": "aragon:2L"}
    no_city = _battle(opts, {**_init(6, 1), R + "round-1/attacker": 3})
    assert next(e for e in no_city.decisions() if e.decision.endswith("attacker-marker")).options == ("none",)
    city = _battle({**opts, "city": True}, {**_init(6, 1), R + "round-1/attacker": 3})
    res = next(e for e in city.events if e.kind == "change" and e.change == "battle-result")
    assert res.data["drm"] == 1 and res.data["modified"] == 4


def test_siege_train_and_coup_de_main_never_both_in_one_battle() -> None:
    # 12.0: after the siege train in round 1, the coup de main is not offered in the later round 3.
    h = _battle({"attacker": "anjou:3L,1ST,1CDM", "defender": "aragon:3L", "city": True},
                {**_init(6, 1), R + "round-1/attacker": 1}, {R + "round-1/attacker-marker": "ST"})
    marker = {e.decision: e.options for e in h.decisions() if e.decision.endswith("attacker-marker")}
    assert "CDM" in marker[R + "round-1/attacker-marker"]
    assert marker[R + "round-3/attacker-marker"] == ("none",)


def test_military_advantage_for_the_defender_subtracts_one() -> None:
    h = _battle({"attacker": "anjou:2L", "defender": "aragon:1L,1MA"}, {**_init(6, 1), R + "round-1/attacker": 4})
    res = next(e for e in h.events if e.kind == "change" and e.change == "battle-result")
    assert res.data["drm"] == -1


def test_counterattack_chain_alternates_sides() -> None:
    h = _battle({"attacker": "anjou:3L", "defender": "aragon:3L"},
                {**_init(6, 1), R + "round-1/attacker": 1, R + "round-2/defender": 1, R + "round-3/attacker": 4})
    results = [e.data["result"] for e in h.events if e.kind == "change" and e.change == "battle-result"]
    rollers = [e.data["roller"] for e in h.events if e.kind == "change" and e.change == "battle-result"]
    assert results == ["CA", "CA", "NE"] and rollers == ["attacker", "defender", "attacker"]
    assert h.outcome["survivors"] == {"attacker": {"anjou L": 1}, "defender": {"aragon L": 1}}


def test_bloodbath_counts_doubled_units_twice() -> None:
    # Attacker loses one field army (2 on the field table); the defender must lose 2 levies.
    h = _battle({"attacker": "anjou:2FA", "defender": "aragon:4L"},
                {**_init(6, 1), R + "round-1/attacker": 4},
                {R + "round-1/bb-loss-1": "anjou FA"})
    assert h.outcome["last_result"] == "BB"
    assert h.outcome["eliminated"] == {"attacker": {"anjou FA": 1}, "defender": {"aragon L": 2}}


def test_decisive_victory_up_to_the_attacking_count() -> None:
    # 2 levies attack (column 2): DV on 5; the defender loses units worth at most 2.
    h = _battle({"attacker": "anjou:2L", "defender": "aragon:1FA,3L"}, {**_init(6, 1), R + "round-1/attacker": 5})
    assert h.outcome["last_result"] == "DV"
    assert h.outcome["eliminated"]["defender"] == {"aragon L": 2}
    assert sum(h.outcome["eliminated"]["attacker"].values()) == 1


def test_decisive_victory_with_stratagem_destroys_the_defender_and_kills_its_king() -> None:
    # 5 field armies count 10 (column 8-10); 6 + 1 (Anjou King) - 2 (Aragon King) = 5: DV+S.
    h = _battle({"attacker": "anjou:5FA,K1", "defender": "aragon:2L,K2"}, {**_init(6, 1), R + "round-1/attacker": 6})
    assert h.outcome["last_result"] == "DV+S" and h.outcome["survivors"]["defender"] == {}
    assert h.outcome["kings_killed"] == ["defender"]
    assert any(e.kind == "report" and e.report == "stratagem-earned" for e in h.events)


def test_no_effect_allows_another_combat_for_two_ops() -> None:
    h = _battle({"attacker": "anjou:1L", "defender": "aragon:1L", "ops": 2},
                {**_init(6, 1), R + "round-1/attacker": 4, "battle-1/combat-2/initiative/attacker": 6,
                 "battle-1/combat-2/initiative/defender": 1, "battle-1/combat-2/round-2/attacker": 6})
    assert h.outcome["combats"] == 2 and h.outcome["results"] == ["NE", "BB"]
    assert h.final_state.battle.ops == 0


@pytest.mark.parametrize("die,drm_units,expect", [(4, "anjou:1L", "fails"), (5, "anjou:1L", "raiders-only"),
                                                   (6, "anjou:1L", "all"), (6, "anjou:1R", "raiders-only")])
def test_avoid_combat(die: int, drm_units: str, expect: str) -> None:
    fights = expect == "fails" or "R" in drm_units
    later = {**_init(6, 1), R + "round-1/attacker": 3} if fights else {}
    h = _battle({"attacker": drm_units, "defender": "aragon:1L"}, {R + "avoid": die, **later},
                {R + "avoid-attempt": "try to avoid"})
    rep = next(e for e in h.events if e.kind == "report" and e.report == "avoid-result")
    assert rep.data["result"] == expect
    if expect in ("all", "raiders-only") and "R" not in drm_units:
        assert h.outcome["avoided"]


def test_raiders_fight_alone_after_a_modified_five() -> None:
    h = _battle({"attacker": "aragon:1FA,2R", "defender": "anjou:2L"},
                {R + "avoid": 5, **_init(6, 1), R + "round-1/attacker": 3},
                {R + "avoid-attempt": "try to avoid"})
    res = next(e for e in h.events if e.kind == "change" and e.change == "battle-result")
    assert res.data["count"] == 2  # two raiders on the field table; the field army stays out


def test_interception_allows_no_avoid_attempt() -> None:
    h = _battle({"attacker": "aragon:1L", "defender": "anjou:1L", "interception": True},
                {**_init(6, 1), R + "round-1/attacker": 3})
    assert not any(e.decision.endswith("avoid-attempt") for e in h.decisions())


def test_naval_battle_uses_the_field_table_only() -> None:
    h = _battle({"attacker": "aragon:2F", "defender": "anjou:2F"}, {**_init(1, 6), R + "round-1/attacker": 5})
    table = next(e for e in h.decisions() if e.decision.endswith("/table"))
    assert table.options == ("field",)
    res = next(e for e in h.events if e.kind == "change" and e.change == "battle-result")
    assert res.data["count"] == 4 and res.data["column"] == "4"


def test_initiative_markers_are_committed_secretly_before_either_die_is_rolled() -> None:
    """10.3.2 step 2: both sides commit markers before either initiative die; neither sees the other's."""
    from medviz.engine import DecisionEvent, RandomPolicy, RollEvent, play

    seen: list[tuple[str, int]] = []

    class Watcher(RandomPolicy):
        def choose(self, point):  # type: ignore[no-untyped-def]
            if "initiative-markers" in point.decision:
                seen.append((point.decision, sum(point.state.battle.sides["attacker"].markers.values())))
            return super().choose(point)

    opts = {"attacker": "aragon:2FA,1L,1MA,1AMB", "defender": "anjou:3FA,2MA"}
    h = play(RULESET, "battle", opts, seed=5, players={"attacker": Watcher(1), "defender": Watcher(2)})
    ev = list(h.events)
    marks = [e for e in ev if isinstance(e, DecisionEvent) and "initiative-markers" in e.decision]
    dice = [e for e in ev if isinstance(e, RollEvent) and "/initiative/" in e.roll]
    assert len(marks) == 2 and all(m.secret for m in marks)
    assert max(m.seq for m in marks) < min(d.seq for d in dice)  # every commitment before any die
    # the defender decided from the same state as the attacker: no marker was spent in between
    assert [n for _d, n in seen[:2]] == [2, 2]
