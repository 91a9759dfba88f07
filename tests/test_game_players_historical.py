"""The historical player in the Vespers scenario (13.0): Peter III's expedition, the French crusade.

Twenty seeded ``historical`` vs ``historical`` games; the player's signature moves (gazetteer
section 3) must show in most of them, while the dice still decide how the war ends.
"""

from __future__ import annotations

from typing import Any

import pytest

from medviz.engine import History, play
from medviz.rules.medempires.game.players import ARAGON_HOME, SICILIAN_REALM, Historical
from medviz.rules.medempires.ruleset import RULESET

SEEDS = range(20)
GUARDED = ("upper_aragon", "rossello", "catalan_counties", "urgell")


def _game(seed: int) -> History:
    return play(RULESET, "vespers-1282", {}, seed=seed, players={"A": Historical(), "B": Historical()})


@pytest.fixture(scope="module")
def games() -> list[History]:
    return [_game(s) for s in SEEDS]


def _choices(h: History, actor: str, turn: int) -> list[Any]:
    return [d.choice for d in h.decisions() if d.actor == actor and d.turn == turn and "/ops-" in d.decision]


def test_peter_iii_sails_for_sicily_in_gt1(games: list[History]) -> None:
    """Aragon's King embarks at his muster area and an Aragonese force goes ashore in Sicily (1282)."""
    sailed = sum(any(str(c).startswith("embark-king:") and c.endswith(":peter_iii") for c in _choices(h, "B", 1))
                 for h in games)
    ashore = sum(any(str(c).split(":")[0] in ("land", "debark") and str(c).split(":")[1] in ("sicily_west", "sicily_east")
                     for c in _choices(h, "B", 1)) for h in games)
    assert sailed >= 16, sailed
    assert ashore >= 14, ashore


def test_france_invades_the_aragonese_heartland_in_gt1(games: list[History]) -> None:
    """France marches on Rosselló or Catalonia in GT1, as Philip III did in 1285."""
    invaded = sum(any(str(c) in {f"move:{a}" for a in GUARDED} | {f"land:{a}" for a in GUARDED}
                      for c in _choices(h, "A", 1)) for h in games)
    assert invaded >= 14, invaded


def test_aragon_holds_sicily_in_some_games_but_not_all(games: list[History]) -> None:
    """Sicily stays Aragonese in a good share of games; the dice still matter."""
    held = [sum(h.outcome["control"].get(a) == "B" for a in SICILIAN_REALM) for h in games]
    sicily = sum(h.outcome["control"].get("sicily_east") == "B" or h.outcome["control"].get("sicily_west") == "B"
                 for h in games)
    assert sicily >= 6, held
    assert len(set(held)) > 1, held


def test_aragon_goes_for_malta_in_some_games(games: list[History]) -> None:
    """Lauria's Malta (1283): with Sicily held, Aragonese troops land on Malta in some games."""
    landed = sum(any(d.actor == "B" and d.choice == "land:malta" for d in h.decisions()) for h in games)
    assert landed >= 2, landed


def test_aragonese_home_armies_stay_home(games: list[History]) -> None:
    """Aragon's land forces formed in the home realm never march out of it (they wait for France)."""
    checked = 0
    for h in games[:6]:
        for d in h.decisions():
            if d.actor != "B" or "/ops-B/" not in d.decision or not str(d.choice).startswith("move:"):
                continue
            f = h.state_at(d.seq - 1).force
            if f is None or f.kind != "land" or f.power != "aragon" or f.start not in ARAGON_HOME:
                continue
            checked += 1
            assert str(d.choice)[5:] in ARAGON_HOME, (h.seed, d.decision, d.choice)
    assert checked > 0


def test_deterministic() -> None:
    """Same seed, same game: the player uses no randomness of its own."""
    a, b = _game(3), _game(3)
    assert [d.choice for d in a.decisions()] == [d.choice for d in b.decisions()]


def test_historical_player_a_courts_the_papacy_and_never_sicily() -> None:
    """The Angevin side worked through Martin IV and never won the Sicilians back (gazetteer section 3)."""
    from medviz.engine.policy import DecisionPoint
    from medviz.rules.medempires.game.deploy import set_up_state
    from medviz.rules.medempires.game.players import Heuristic, Historical

    from medviz.rules.medempires.choices import Decision
    from medviz.rules.medempires.game.options import Attempt

    s = set_up_state("vespers-1282")
    rid = "GT1/politics/round-1/A"
    attempt = Decision.ATTEMPT
    both = DecisionPoint(rid, "A", ("pass", Attempt("diplomacy", "genoa"), Attempt("diplomacy", "papal_states"),
                                    Attempt("diplomacy", "sicily")), s, kind=attempt)
    assert Historical().choose(both).key == "diplomacy:papal_states"
    assert Heuristic().choose(both).key == "diplomacy:sicily"  # the plain heuristic goes for the key areas
    only_sicily = DecisionPoint(rid, "A", ("pass", Attempt("diplomacy", "sicily"), Attempt("vassalage", "sicily")), s,
                                kind=attempt)
    assert Historical().choose(only_sicily) == "pass"
    standard = set_up_state("standard")
    assert Historical().choose(DecisionPoint(rid, "A", both.options, standard, kind=attempt)) == Heuristic().choose(
        DecisionPoint(rid, "A", both.options, standard, kind=attempt))  # outside the Vespers: the heuristic's choice


# -- 1282-1310 as it went (issue 10, point 3): counted by tools/vespers_why.py's history_marks ----
def _marks(games: list[History]) -> dict[str, int]:
    from helpers_sample import load_tool

    why = load_tool("vespers_why")
    out: dict[str, int] = {}
    for h in games:
        for k, v in why.history_marks(h).items():
            out[k] = out.get(k, 0) + int(v)
    return out


def test_the_war_goes_as_it_went_in_most_games(games: list[History]) -> None:
    """Sicily stays Aragonese, Malta is fought for in GT1 (1283), France invades Catalonia in GT1 (1285).

    Seeds 0-199 give 174, 180 and 200 of 200 (the docs); before issue 10's historical decisions 17, 0 and 200.
    """
    marks = _marks(games)
    assert marks["Aragon holds both Sicilian areas at the end"] >= 12, marks
    assert marks["Malta fought for in GT1"] >= 12, marks
    assert marks["French land units enter Catalonia in GT1"] >= 16, marks


def test_anjou_does_not_land_in_sicily_in_gt1_or_after_failing(games: list[History]) -> None:
    """Charles I gave up Messina in Sep 1282; a failed Angevin attack on Sicily is not followed by another landing."""
    checked = 0
    for h in games:
        failed_at: int | None = None  # seq after which Anjou has failed in Sicily
        for e in h.events:
            d = getattr(e, "data", None)
            if getattr(e, "change", "") == "battle-closed":
                b = d["summary"]
                if b["kind"] == "land" and b["area"] in ("sicily_west", "sicily_east") and b["attacker"] == "A" \
                        and b["results"] and b["winner"] != "A" and failed_at is None:
                    failed_at = e.seq
                    checked += 1
        for dec in h.decisions():
            if dec.actor == "A" and str(dec.choice) in ("land:sicily_west", "land:sicily_east"):
                assert dec.turn != 1, (h.seed, dec.decision)
                assert failed_at is None or dec.seq < failed_at, (h.seed, dec.decision)
    assert checked > 0  # some games do see a failed attack, so the second assertion is exercised


def test_lauria_squadron_is_bought_for_the_waters_of_malta(games: list[History]) -> None:
    """In GT1 Aragon recruits a fleet and places it in the port sea nearest Malta (Messina's, the Ionian Sea)."""
    placed = sum(any(getattr(e, "change", "") == "unit-placed" and e.turn == 1 and e.data.get("recruited")
                     and e.data["power"] == "aragon" and e.data["unit"] == "F" and e.data["area"] == "ionian_sea"
                     for e in h.events) for h in games)
    assert placed >= 16, placed


def test_the_vespers_notebook_replays_a_game_that_teaches_the_war() -> None:
    """The notebook's seed (tools/make_vespers_notebook.py SEED) meets the generator's criterion; seed 0 does not."""
    from helpers_sample import load_tool

    nb = load_tool("make_vespers_notebook")
    assert nb.teaches_the_war(_game(nb.SEED))
    assert not nb.teaches_the_war(_game(0))
