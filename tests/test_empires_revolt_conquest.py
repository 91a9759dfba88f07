"""Empire's Revolt's whole game (conquest-2/3/4) on the reconstructed 300 BCE map: each rule on a state
set up by hand, then whole games: determinism, JSON round trip, branching, invariants, the play CLI."""

from __future__ import annotations

import json
import os
from collections.abc import Iterator, Mapping
from typing import Any

import pytest

from medviz.engine import History, diff, get_ruleset, play, register_ruleset
from medviz.engine.errors import DataError, MalformedInput
from medviz.engine.events import ChangeEvent
from medviz.engine.policy import RandomPolicy
from medviz.engine.registry import unregister_ruleset
from medviz.rules.empires_revolt import conquest
from medviz.rules.empires_revolt.conquest import (
    ConquestState,
    legal_actions,
    territory_defence,
)
from medviz.rules.empires_revolt.data import shipped_rules
from medviz.rules.empires_revolt.mapdata import load_map
from medviz.rules.empires_revolt.players import HeuristicPolicy
from medviz.rules.empires_revolt.ruleset import RULESET

R = shipped_rules()
M = load_map(R)


@pytest.fixture(autouse=True, scope="module")
def _registered() -> Iterator[None]:
    register_ruleset("empires_revolt", RULESET)
    yield
    unregister_ruleset("empires_revolt")


class Table:
    """A stand-in ``Context`` for one rule at a time: changes go through the real reducers, dice are scripted."""

    def __init__(self, state: ConquestState, dice: Mapping[str, int] | None = None, default: int = 3) -> None:
        self.state, self.dice, self.default = state, dict(dice or {}), default
        self.changes: list[tuple[str, dict[str, Any]]] = []
        self.rolls: list[str] = []

    def change(self, name: str, **data: Any) -> None:
        data.pop("actor", None)
        data.pop("automatic", None)
        self.changes.append((name, data))
        conquest._apply(self.state, name, json.loads(json.dumps(data)))

    def roll(self, roll_id: str, dice: str = "1d6", **_: Any) -> int:
        self.rolls.append(roll_id)
        return self.dice.get(roll_id.split("/throw-")[1] if "/throw-" in roll_id else roll_id, self.default)

    def report(self, *_: Any, **__: Any) -> None:
        return None

    def named(self, name: str) -> list[dict[str, Any]]:
        return [d for n, d in self.changes if n == name]


def _state(seats: Mapping[str, str], n: int | None = None, **options: Any) -> ConquestState:
    """A state with ``seats`` {seat: capital}, each holding its capital with one army (as set up)."""
    s = conquest.new_state(f"conquest-{n or max(2, len(seats))}", options, R, M)
    for seat, cap in seats.items():
        conquest._apply(s, "er-capital", {"seat": seat, "capital": cap, "area": M.capital_area(cap),
                                           "army": f"army-{s.serial + 1}" if R.capitals[cap].supports_army else "",
                                           "stock": {"food": 1, "gold": 1, "wood": 1}})
    s.player = next(iter(seats))
    return s


# -- set-up (rules 2, 5-7) --------------------------------------------------------------------------
def test_set_up_deals_distinct_capitals_one_army_and_one_of_each_resource() -> None:
    h = play(RULESET, "conquest-4", {"max_rounds": 1}, seed=3, players={s: RandomPolicy(0) for s in "ABCD"})
    caps = [e.data for e in h.events if isinstance(e, ChangeEvent) and e.change == "er-capital"]
    assert len({c["capital"] for c in caps}) == 4
    assert all(c["stock"] == {"food": 1, "gold": 1, "wood": 1} for c in caps)
    assert all(bool(c["army"]) == (c["capital"] != "alexandria") for c in caps)
    draw = next(d for d in h.rolls() if getattr(d, "draw", "") == "set-up/capital/A")
    other = next(c for c in draw.pool if c != draw.value)
    child = h.branch("set-up/capital/A", other)
    assert child.outcome["capitals"]["A"] == other


# -- defence and attack dice (rules 18-21, 24, 28, 29, 37, 42, 50, 56) -------------------------------
def test_territory_defence_follows_the_rules() -> None:
    s = _state({"A": "rome", "B": "syracuse"})
    assert territory_defence(s, "A", "etruria")[0] == 1  # rule 18: Rome's own revolting region
    assert territory_defence(s, "A", "campania")[0] == 2  # rule 18: ... a city
    assert territory_defence(s, "B", "campania")[0] == 3  # rule 19: another nation's city
    assert territory_defence(s, "A", "cisalpine_gaul")[0] == 2  # rule 19: blank
    assert territory_defence(s, "A", "illyria")[0] == 2  # rule 56
    assert territory_defence(s, "A", "syracuse")[0] == R.capitals["syracuse"].defence + 1  # rule 50
    assert territory_defence(_state({"A": "rome", "B": "syracuse"}, city_rule="21"), "A", "syracuse")[0] == 3
    s.owner["sicily_west"] = "B"
    assert territory_defence(s, "A", "sicily_west")[0] == 3  # a city of B's, rule 50
    s.owner["epirus"] = "B"
    assert territory_defence(s, "A", "epirus")[0] == 1  # rule 21: not settled
    s.settlements["epirus"] = 1
    assert territory_defence(s, "A", "epirus")[0] == R.capitals["syracuse"].defence  # rule 37
    s.forts["epirus"] = 2
    assert territory_defence(s, "A", "epirus")[0] == R.capitals["syracuse"].defence + 1  # rule 42


def test_attack_dice_add_the_convoy_and_every_ship_on_the_coast() -> None:
    s = _state({"A": "rome", "B": "syracuse"})
    a = R.capitals["rome"].attack
    assert conquest.attack_dice(s, "A", "sardinia") == a
    s.ships = {"ship-8": {"seat": "A", "sea": "tyrrhenian"}, "ship-9": {"seat": "A", "sea": "mare_hispanum"},
               "ship-10": {"seat": "B", "sea": "tyrrhenian"}}
    assert conquest.attack_dice(s, "A", "sardinia") == a + 2  # rule 29, both seas touch Sardinia
    assert conquest.attack_dice(s, "A", "sardinia", carrier="ship-8") == a + 2  # rule 28 +1, ship-9 +1
    s.armies["army-20"] = {"seat": "B", "area": "sicily_west", "ship": "", "merc": False, "crossing": ""}
    s.owner["sicily_west"] = "B"
    assert conquest.fight_dice(s, "A", "sicily_west")[1] == R.capitals["syracuse"].defence  # rule 24


# -- what a turn offers (rules 10-14, 26-30, 34-35, 41, 52-56, 67) -------------------------------------
def test_the_actions_on_offer() -> None:
    s = _state({"A": "rome", "B": "carthage"})
    s.stock["A"] = {"food": 9, "gold": 9, "wood": 9}
    acts = legal_actions(s, "A")
    assert acts[0] == {"do": "end"}
    assert {"do": "army"} not in acts  # rule 13: Rome supports one army and has it
    assert {"do": "ship", "at": "latium", "sea": "tyrrhenian"} in acts  # rule 26
    assert not any(a["do"] == "settle" for a in acts)  # rule 35: only the capital city is held
    assert {a["to"] for a in acts if a["do"] == "march"} == {"campania", "etruria"}
    s.owner.update({"etruria": "A", "campania": "A", "magna_graecia": "A"})
    acts = legal_actions(s, "A")
    assert {"do": "army"} in acts  # Capua supports one more (rule 12)
    assert {"do": "settle", "area": "etruria"} in acts and {"do": "settle", "area": "campania"} not in acts
    s.settlements["etruria"] = 1
    assert {"do": "fortify", "area": "etruria"} in legal_actions(s, "A")  # rule 41
    s.stock["A"] = {"food": 2, "gold": 1, "wood": 1}
    assert {"do": "army"} not in legal_actions(s, "A")  # rule 10: three food
    s.armies["army-1"]["area"] = "etruria"
    s.stock["A"]["gold"] = 2
    assert not any(a["do"] == "hire" for a in legal_actions(s, "A"))
    s.owner["epirus"] = "A"
    s.armies["army-1"]["area"] = "epirus"
    assert {"do": "hire", "army": "army-1"} in legal_actions(s, "A")  # rule 52: touching Illyria


def test_a_mountain_crossing_takes_two_turns() -> None:
    s = _state({"A": "rome", "B": "carthage"})
    s.owner["etruria"] = "A"
    s.armies["army-1"]["area"] = "etruria"
    t = Table(s)
    conquest._act(s, t, "A", {"do": "march", "army": "army-1", "to": "cisalpine_gaul"}, "k")  # type: ignore[arg-type]
    assert s.armies["army-1"]["area"] == "etruria" and s.armies["army-1"]["crossing"] == "cisalpine_gaul"
    assert not any(a.get("army") == "army-1" for a in legal_actions(s, "A"))
    t.dice["1/attacker/die-1"] = 6
    conquest._enter(s, t, "A", "army-1", "cisalpine_gaul", "k2")  # type: ignore[arg-type]  # the next turn
    assert s.armies["army-1"]["crossing"] == "" and s.armies["army-1"]["area"] == "cisalpine_gaul"


# -- attacks (rules 8, 17, 22-24, 38, 45) -------------------------------------------------------------
def test_a_won_attack_takes_the_region_and_its_settlement() -> None:
    s = _state({"A": "rome", "B": "carthage"})
    s.owner["etruria"] = "B"
    s.settlements["etruria"] = 5
    t = Table(s, {"1/attacker/die-1": 6, "1/attacker/die-2": 2, "1/defender/die-1": 5, "1/defender/die-2": 5})
    conquest._enter(s, t, "A", "army-1", "etruria", "k")  # type: ignore[arg-type]
    assert s.owner["etruria"] == "A" and s.armies["army-1"]["area"] == "etruria" and "etruria" in s.settlements


def test_ties_are_rolled_again_and_a_defeated_army_dies_unless_it_attacked_from_its_capital() -> None:
    s = _state({"A": "rome", "B": "carthage"})
    s.owner["etruria"] = "A"
    s.armies["army-1"]["area"] = "etruria"
    dice = {"1/attacker/die-1": 4, "1/attacker/die-2": 4, "1/defender/die-1": 4,
            "2/attacker/die-1": 1, "2/attacker/die-2": 1, "2/defender/die-1": 2}
    t = Table(s, dice)
    conquest._enter(s, t, "A", "army-1", "cisalpine_gaul", "k")  # type: ignore[arg-type]
    fight = t.named("er-attack")[0]
    assert fight["throws"] == 2 and fight["winner"] == "defender" and "army-1" not in s.armies
    s2 = _state({"A": "rome", "B": "carthage"})
    conquest._enter(s2, Table(s2, {k.replace("1/", "1/", 1): v for k, v in dice.items()}), "A", "army-1", "etruria",
                    "k")  # type: ignore[arg-type]
    assert "army-1" in s2.armies and s2.armies["army-1"]["area"] == "latium"  # rule 8


def test_army_against_army_the_winning_attacker_stays_where_it_was() -> None:
    s = _state({"A": "rome", "B": "carthage"})
    s.owner["etruria"], s.owner["campania"] = "A", "B"
    s.armies["army-1"]["area"] = "etruria"
    s.armies["army-9"] = {"seat": "B", "area": "campania", "ship": "", "merc": False, "crossing": ""}
    t = Table(s, {"1/attacker/die-1": 6})
    conquest._enter(s, t, "A", "army-1", "campania", "k")  # type: ignore[arg-type]
    assert "army-9" not in s.armies and s.armies["army-1"]["area"] == "etruria" and s.owner["campania"] == "B"


# -- ships (rules 27-32) --------------------------------------------------------------------------------
def test_a_sea_fight_sinks_the_loser_and_drowns_its_army() -> None:
    s = _state({"A": "rome", "B": "carthage"})
    s.ships = {"ship-7": {"seat": "A", "sea": "tyrrhenian"}, "ship-8": {"seat": "B", "sea": "mare_hispanum"}}
    s.armies["army-2"]["ship"] = "ship-8"
    t = Table(s, {"1/attacker/die-1": 6, "1/defender/die-1": 2})
    conquest._sail(s, t, "A", "ship-7", "mare_hispanum", "k")  # type: ignore[arg-type]
    assert "ship-8" not in s.ships and "army-2" not in s.armies and s.ships["ship-7"]["sea"] == "mare_hispanum"


def test_landing_from_a_ship_attacks_with_a_die_more() -> None:
    s = _state({"A": "rome", "B": "carthage"})
    s.ships = {"ship-7": {"seat": "A", "sea": "tyrrhenian"}}
    s.armies["army-1"]["ship"] = "ship-7"
    t = Table(s, {"1/attacker/die-3": 6}, default=1)
    conquest._enter(s, t, "A", "army-1", "sardinia", "k")  # type: ignore[arg-type]
    assert t.named("er-attack")[0]["attack"] == R.capitals["rome"].attack + 1
    assert s.owner["sardinia"] == "A" and s.armies["army-1"]["ship"] == ""


# -- upkeep and support (rules 12-13, 26, 39, 43, 54, 63-64) -----------------------------------------------
def test_unpaid_upkeep_sacrifices_the_newest_and_excess_armies_are_destroyed() -> None:
    s = _state({"A": "rome", "B": "carthage"}, capital_supply="start")
    s.stock["A"] = {"food": 0, "gold": 0, "wood": 0}
    s.ships = {f"ship-{i}": {"seat": "A", "sea": "tyrrhenian"} for i in (11, 12, 13)}
    s.armies["army-14"] = {"seat": "A", "area": "latium", "ship": "", "merc": False, "crossing": ""}
    t = Table(s)
    conquest._upkeep(s, t, "A")  # type: ignore[arg-type]
    assert sorted(s.ships) == ["ship-11", "ship-12"]  # rule 26: two ships are free
    assert "army-14" not in s.armies and "army-1" in s.armies  # rule 13: Rome supports one
    assert min(min(v.values()) for v in s.stock.values()) >= 0


def test_collecting_counts_armies_settlements_and_the_capital_supply() -> None:
    s = _state({"A": "rome", "B": "carthage"})
    s.owner.update({"etruria": "A", "campania": "A"})
    s.settlements["etruria"] = 1
    t = Table(s)
    conquest._collect(s, t, "A")  # type: ignore[arg-type]
    assert t.named("er-collect")[0]["gains"] == {"food": 2, "gold": 1, "wood": 2}  # capital 1+1+1, Latium, Etruria
    s2 = _state({"A": "rome", "B": "carthage"}, capital_supply="start")
    t2 = Table(s2)
    conquest._collect(s2, t2, "A")  # type: ignore[arg-type]
    assert t2.named("er-collect")[0]["gains"] == {"food": 1, "gold": 0, "wood": 0}


# -- the end (rules 70-76) ----------------------------------------------------------------------------------
def test_resource_victory_by_player_count() -> None:
    s = _state({"A": "rome", "B": "carthage"})
    for a in ("campania", "syracuse", "etruria", "cisalpine_gaul", "illyria", "greece", "thrace"):
        s.owner[a] = "A"
    t = Table(s)
    conquest._end_of_turn(s, t, "A")  # type: ignore[arg-type]
    assert not s.over  # 3 food, 2 gold, 3 wood: one gold short of rule 71
    s.owner["asia_minor"] = "A"
    conquest._end_of_turn(s, t, "A")  # type: ignore[arg-type]
    assert s.over and s.winner == "A" and s.victory == "resources"
    s3 = _state({"A": "rome", "B": "carthage", "C": "pella"}, n=3)
    s3.owner.update(s.owner)
    conquest._end_of_turn(s3, Table(s3), "A")  # type: ignore[arg-type]
    assert not s3.over  # rule 72 asks for four of each


def test_a_capital_not_retaken_defeats_its_player() -> None:
    s = _state({"A": "rome", "B": "carthage"})
    s.owner["latium"] = "B"
    del s.armies["army-1"]
    conquest._end_of_turn(s, Table(s), "A")  # type: ignore[arg-type]
    assert s.defeated == ["A"] and s.over and s.winner == "B" and s.victory == "last"


def test_six_cities_for_a_whole_cycle_win_at_the_next_turn() -> None:
    h = play(RULESET, "conquest-3", {}, seed=4, players={s: RandomPolicy(10 + i) for i, s in enumerate("ABC")})
    assert h.outcome["victory"] == "trade"
    winner = h.outcome["winner"]
    marks = [e for e in h.events if isinstance(e, ChangeEvent) and e.change == "er-mark" and e.data["seat"] == winner]
    assert marks and marks[-1].data["on"]
    state = h.state_at(marks[-1].seq)
    assert len(state.cities(winner)) >= 6
    turns = [e for e in h.events if isinstance(e, ChangeEvent) and e.change == "er-turn" and e.seq > marks[-1].seq]
    assert turns[-1].data["seat"] == winner  # the win comes at the start of its next turn


# -- whole games --------------------------------------------------------------------------------------------
def _game(n: int, seed: int, heuristic: bool = False, **options: Any) -> History:
    seats = conquest.SEAT_IDS[:n]
    players = {s: (HeuristicPolicy() if heuristic and i % 2 == 0 else RandomPolicy(seed * 7 + i))
               for i, s in enumerate(seats)}
    return play(RULESET, f"conquest-{n}", options, seed=seed, players=players)


@pytest.mark.parametrize("n", [2, 3, 4])
def test_whole_games_are_deterministic_round_trip_and_branch(n: int) -> None:
    a, b = _game(n, 5, heuristic=True), _game(n, 5, heuristic=True)
    assert a.to_json() == b.to_json() and a.outcome["winner"]
    assert set(a.outcome) >= {"winner", "scores", "reason"} and set(a.outcome["scores"]) == set(conquest.SEAT_IDS[:n])
    back = History.from_json(a.to_json())
    assert back.to_json() == a.to_json() and back.outcome == a.outcome
    die = next(r for r in a.rolls() if "/fight/throw-1/attacker/die-1" in getattr(r, "roll", ""))
    other = 1 if die.value != 1 else 6
    child = a.branch(die.roll, other)
    assert child.roll(die.roll).value == other and child.parent is a
    assert diff(a, child).first_divergence is not None
    assert History.from_json(child.to_json()).to_json() == child.to_json()


def invariant_problems(s: ConquestState) -> list[str]:
    """Resources never negative; every army on land stands in a region its seat holds; cargo on own ships."""
    p = [f"{seat} has {r} {n}" for seat, st in s.stock.items() for r, n in st.items() if n < 0]
    for i, x in s.armies.items():
        if x["ship"]:
            if s.ships.get(x["ship"], {}).get("seat") != x["seat"]:
                p.append(f"{i} aboard a ship not its own")
        elif s.owner.get(x["area"]) != x["seat"]:
            p.append(f"{i} of {x['seat']} in {x['area']} held by {s.owner.get(x['area'])}")
    p += [f"{a}: a settlement on a city" for a in s.settlements if s.map.areas[a].city]
    p += [f"{a}: a fort without a settlement" for a in s.forts if a not in s.settlements]
    p += [f"defeated {d} still holds {s.held(d)}" for d in s.defeated if s.held(d)]
    return p


def _check_invariants(h: History) -> None:
    state, _ = RULESET.setup(h.scenario, dict(h.spec.options))
    for e in h.events:
        if isinstance(e, ChangeEvent):
            RULESET.apply(state, e)
            if e.change in ("er-turn", "er-attack", "er-take", "er-upkeep", "er-over"):
                assert not invariant_problems(state), f"seed {h.seed} event {e.seq}: {invariant_problems(state)}"


SLOW = bool(os.environ.get("MEDVIZ_SLOW"))


@pytest.mark.parametrize("n", [2, 3, 4])
def test_invariants_hold_over_seeded_games(n: int) -> None:
    """50 short games per player count in make test; 200 whole games behind MEDVIZ_SLOW."""
    for seed in range(200 if SLOW else 50):
        h = _game(n, seed, heuristic=seed % 2 == 1, **({} if SLOW else {"max_rounds": 4}))
        assert h.outcome["winner"]
        _check_invariants(h)


def test_bad_options_and_map_overrides_are_refused(tmp_path: Any) -> None:
    with pytest.raises(MalformedInput, match="max_rounds"):
        RULESET.setup("conquest-2", {"max_rounds": 0})
    with pytest.raises(MalformedInput, match="capital_supply"):
        RULESET.setup("conquest-2", {"capital_supply": "never"})
    with pytest.raises(MalformedInput, match="unknown option"):
        RULESET.setup("conquest-2", {"attacker": "A2"})
    bad = tmp_path / "map.toml"
    bad.write_text('[[area]]\nid = "latium"\nneighbours = ["atlantis"]\nsource = "test"\n', encoding="utf-8")
    with pytest.raises(DataError, match="atlantis"):
        RULESET.setup("conquest-2", {"map_override": str(bad)})
    good = tmp_path / "good.toml"
    good.write_text('[[area]]\nid = "numidia"\nresource = "food"\nsource = "test"\n', encoding="utf-8")
    state, _ = RULESET.setup("conquest-2", {"map_override": str(good)})
    assert state.map.areas["numidia"].resource == "food"


def test_medviz_play_runs_a_game_to_a_winner(capsys: pytest.CaptureFixture[str]) -> None:
    from medviz.cli import main

    assert get_ruleset("empires_revolt") is RULESET
    for n in (2, 3, 4):
        assert main(["play", "empires_revolt", "--players", str(n), "--seed", "2", "--player", "A=heuristic",
                     "--json"]) == 0
        out = json.loads(capsys.readouterr().out)
        assert out["scenario"] == f"conquest-{n}" and len(out["scores"]) == n and out["winner"] and out["reason"]
        assert out["players"]["A"] == "heuristic"
    assert main(["play", "empires_revolt/conquest-3", "--seed", "2"]) == 0
    assert "Winner:" in capsys.readouterr().out
    with pytest.raises(SystemExit):
        main(["play", "empires_revolt", "--players", "5"])
