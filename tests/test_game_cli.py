"""The whole-game CLI: ``medviz play``, ``medviz areas`` and ``medviz branch`` on a saved game."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from medviz.cli import main


def test_play_prints_a_readable_summary(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["play", "vespers-1282", "--seed", "3", "--player-b", "random"]) == 0
    out = capsys.readouterr().out
    for needle in ("Winner:", "Why: 13.0", "VP: A", "Cities that changed hands", "Battles fought:",
                   "Kings who died:", "Popes who died:"):
        assert needle in out


def test_play_json_and_out_then_branch(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "game.json"
    assert main(["play", "standard", "--seed", "1", "--player-a", "random", "--player-b", "heuristic",
                 "--option", "mercenaries", "--out", str(path), "--json"]) == 0
    info = json.loads(capsys.readouterr().out)
    assert info["outcome"]["winner"] in ("A", "B", "draw")
    assert set(info["outcome"]) >= {"winner", "vp", "control", "reason"}
    saved = json.loads(path.read_text())
    assert saved["options"] == {"mercenaries": True} and saved["players"] == {"A": "random:2", "B": "heuristic"}
    roll = next(e["roll"] for e in saved["events"] if e["kind"] == "roll" and e["roll"].endswith("/ops"))
    assert main(["branch", str(path), "--roll", roll, "--value", "2"]) == 0
    assert "Branch:" in capsys.readouterr().out


@pytest.mark.parametrize("argv", [
    ["play", "standard", "--option", "no_such_rule"],
    ["play", "standard", "--player-a", "nobody"],
    ["play", "standard", "--seed", "-1"],
    ["play", "standard", "--out", "/no/such/folder/x.json"],
])
def test_bad_input_is_one_line_and_exit_2(argv: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.startswith("medviz: error:") and len(err.strip().splitlines()) == 1


def test_unknown_scenario_is_one_line_naming_the_known_ones(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["play", "crusades"]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "no game or scenario 'crusades'" in err and "vespers-1282" in err


def test_areas(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["areas", "--json"]) == 0
    rows = json.loads(capsys.readouterr().out)
    by_id = {r["id"]: r for r in rows}
    assert by_id["papal_states"]["city"] == "Rome" and by_id["papal_states"]["kind"] == "land"
    assert by_id["balearic_sea"]["kind"] == "sea"
    assert all(r["provenance"] for r in rows)
    assert main(["areas"]) == 0
    assert "majorca (land, city Palma)" in capsys.readouterr().out


@pytest.mark.parametrize("choice, words", [
    ("urgell|aragon|FA", "Aragon field army in Urgell"),
    ("tyrrhenian_south|anjou|all", "all Anjou units in Tyrrhenian Sea (south)"),
    ("aragon:2L", "Aragon two levies"),
    ("embark:calabria:anjou:FA", "embark Anjou field army from Calabria"),
    ("move:sicily_west", "move to Sicily (Val di Mazara)"),
    ("diplomacy:papal_states", "diplomacy with Papal States"),
    ("france|FA", "France field army"),
    ("aragon M", "Aragon mercenaries"),
    ("MA", "military advantage"),
    ("end phase", "end phase"),
    ("drop:FA", "drop off a field army"),
    ("only aragon", "only Aragon"),
    ("only sicily", "only Kingdom of Sicily"),
])
def test_choices_in_plain_words(choice: str, words: str) -> None:
    from medviz.rules.medempires.game.options import describe_choice

    assert describe_choice(choice) == words


def test_no_decision_in_a_log_shows_a_raw_option_id() -> None:
    import re

    from medviz.engine import RandomPolicy, play
    from medviz.engine.events import DecisionEvent
    from medviz.rules.medempires.game.players import Heuristic
    from medviz.rules.medempires.game.state import shipped_data
    from medviz.rules.medempires.ruleset import RULESET

    ids = {a for a in shipped_data().game_map.areas if "_" in a} | {p for p in shipped_data().game_data.powers if "_" in p}
    for scenario, players in (("vespers-1282", {"A": RandomPolicy(1), "B": RandomPolicy(2)}),
                              ("standard", {"A": Heuristic(), "B": Heuristic()})):
        h = play(RULESET, scenario, {"mercenaries": True, "territorial_concessions": True}, seed=5, players=players)
        for e in h.events:
            if isinstance(e, DecisionEvent):
                words = h.describe(e)
                assert "|" not in words, words
                assert not set(re.findall(r"[a-z]+(?:_[a-z]+)+", words)) & ids, words


def test_every_game_change_has_plain_words() -> None:
    from medviz.engine import RandomPolicy, play
    from medviz.engine.events import ChangeEvent
    from medviz.rules.medempires.game.changes import GAME_REDUCERS
    from medviz.rules.medempires.game.describe import describe_change
    from medviz.rules.medempires.ruleset import RULESET

    h = play(RULESET, "vespers-1282", {"territorial_concessions": True}, seed=2,
             players={"A": RandomPolicy(1), "B": RandomPolicy(2)})
    for e in h.events:
        if isinstance(e, ChangeEvent) and e.change in GAME_REDUCERS:
            text = describe_change(e.change, e.data)
            assert text, e.change


def test_play_help_names_every_option(capsys: pytest.CaptureFixture[str]) -> None:
    from medviz.cli import main
    from medviz.rules.medempires.game.state import shipped_data

    with pytest.raises(SystemExit):
        main(["play", "vespers-1282", "--help"])
    text = " ".join(capsys.readouterr().out.split())
    for option in shipped_data().game_data.options:
        assert option in text, option


def test_words_for_a_returned_marker_and_a_battle_that_destroys_both_sides() -> None:
    from medviz.rules.medempires.game.describe import describe_change

    returned = describe_change("marker-spent", {"side": "B", "marker": "crusade", "to": "aside"})
    assert "returns" in returned and "plays" not in returned  # 12.0: returned without playing it
    assert "plays" in describe_change("marker-spent", {"side": "B", "marker": "crusade", "to": "in_play"})
    both = {"area": "tuscany", "winner": None, "left": {"attacker": 0, "defender": 0}}
    assert describe_change("battle-closed", {"summary": both}).endswith("both sides are destroyed")
    stand = {"area": "tuscany", "winner": None, "left": {"attacker": 2, "defender": 1}}
    assert describe_change("battle-closed", {"summary": stand}).endswith("both sides remain")


def test_words_count_units_in_good_english() -> None:
    from medviz.rules.medempires.game.describe import describe_change

    three = describe_change("unit-moved", {"power": "anjou", "unit": "FA", "n": 3, "source": "calabria", "to": "apulia"})
    assert "3 " in three and "field armies move from" in three, three
    one = describe_change("unit-moved", {"power": "anjou", "unit": "L", "source": "calabria", "to": "apulia"})
    assert "levy moves from" in one, one
    assert "levies set up" in describe_change("unit-placed", {"power": "anjou", "unit": "L", "n": 2, "area": "apulia", "setup": True})


def test_words_name_areas_and_units_in_costs_and_payments() -> None:
    from medviz.rules.medempires.game.describe import describe_change

    assert describe_change("force-spends", {"ops": 1, "why": "move to catalan_counties"}).endswith(
        "1 OP: move to Catalan counties")
    assert "recruits 2 Aragon levies" in describe_change("treasury", {"side": "B", "tp": 3, "why": "recruit 2 aragon L"})


def test_words_of_the_treasury_collection_show_what_the_cap_takes() -> None:
    from medviz.rules.medempires.game.describe import describe_change

    words = describe_change("treasury", {"side": "B", "tp": 10, "why": "collection (6.1)", "cities": 6, "vassals": 1,
                                         "gold": 0, "trade": 2, "piracy": -2, "forfeited": 3})
    assert "+2 Trade Concession" in words and "-2 Piracy" in words and "Gold" not in words
    assert words.endswith("now has 10 TP; 3 TP over the cap of 10 are lost (6.1)")


def test_battle_json_prints_a_history_that_loads(capsys: pytest.CaptureFixture[str]) -> None:
    from medviz.engine import History

    assert main(["battle", "--attacker", "aragon:1FA", "--defender", "anjou:1L", "--seed", "2", "--json"]) == 0
    h = History.from_json(capsys.readouterr().out)
    assert h.scenario == "battle" and h.seed == 2 and h.outcome["winner"] in ("attacker", "defender", "none")


def test_medviz_play_medieval_takes_a_player_count(capsys: pytest.CaptureFixture[str]) -> None:
    """Issue 12: ``medviz play medieval-xiii --players 3|4|5 [--player SEAT=POLICY]`` with the outcome contract."""
    assert main(["play", "medieval-xiii", "--players", "4", "--seed", "3", "--player", "A=heuristic", "--json"]) == 0
    info = json.loads(capsys.readouterr().out)
    assert info["scenario"] == "four-players" and set(info["scores"]) == {"A", "B", "C", "D"}
    assert info["players"]["A"].startswith("heuristic") and info["reason"]
    assert info["winner"] in info["scores"] or set(info["winner"]) <= set(info["scores"])
    with pytest.raises(SystemExit) as exc:  # argparse refuses a count the game has no scenario for
        main(["play", "medieval-xiii", "--players", "7"])
    assert exc.value.code == 2 and "invalid choice: 7" in capsys.readouterr().err
