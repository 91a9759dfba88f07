"""Whole games played with a teacher's own map / game-data override files (docs/data-provenance.md).

The override's content travels in the game's options, so a saved history replays and branches
anywhere; the game's state carries its data; two games in one process do not see each other's.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest

from medviz.cli import main
from medviz.engine import History, play
from medviz.engine.errors import (
    DataError,
    MalformedInput,
    MedvizError,
    UnknownReference,
)
from medviz.engine.events import ChangeEvent, RollEvent
from medviz.rules.medempires.commands import summary
from medviz.rules.medempires.game.players import Heuristic
from medviz.rules.medempires.game.setup import (
    content_sha256,
    data_for_options,
    override_options,
    parse_options,
    read_override,
)
from medviz.rules.medempires.game.setup import initial_state
from medviz.rules.medempires.game.state import shipped_data
from medviz.rules.medempires.ruleset import RULESET

ROOT = Path(__file__).resolve().parent.parent
MY_MAP = ROOT / "docs" / "examples" / "my-map.toml"
MY_COUNTERS = ROOT / "docs" / "examples" / "my-counters.toml"


def _players() -> dict[str, Any]:
    return {"A": Heuristic(), "B": Heuristic()}


def _play(scenario: str = "vespers-1282", options: dict[str, Any] | None = None, seed: int = 1) -> History:
    return play(RULESET, scenario, options or {}, seed=seed, players=_players())


def _examples(tmp_path: Path) -> tuple[Path, Path]:
    """Copies of the example files, as a teacher would make them."""
    m, d = tmp_path / "my-map.toml", tmp_path / "my-counters.toml"
    shutil.copy(MY_MAP, m)
    shutil.copy(MY_COUNTERS, d)
    return m, d


def _city_of(h: History, area: str) -> str | None:
    return h.final_state.map.areas[area].city


# --------------------------------------------------------------------------------------------
# Playing with the example files (API)
# --------------------------------------------------------------------------------------------
def test_example_files_change_the_game_from_setup_to_outcome(tmp_path: Path) -> None:
    m, d = _examples(tmp_path)
    shipped = _play()
    mine = _play(options=override_options(map_file=m, data_file=d))
    # my-counters.toml: Aragon starts the Vespers with 6 TP, not 4 (3.2 on the teacher's card)
    assert shipped.state_at(-1).tp == {"A": 7, "B": 4}
    assert mine.state_at(-1).tp == {"A": 7, "B": 6}
    assert mine.final_state.data.counter_limits["aragon"]["F"] == 6
    # my-map.toml: Syracuse, on the Ionian only, is eastern Sicily's city
    assert _city_of(mine, "sicily_east") == "Syracuse" and _city_of(shipped, "sicily_east") == "Messina"
    assert shipped_data().game_map.areas["sicily_east"].city == "Messina"  # outside the game: the shipped map
    assert mine.to_json() != shipped.to_json()
    assert mine.outcome["winner"] in ("A", "B")
    info = summary(mine)
    assert info["data"] == "my-map.toml + my-counters.toml"
    assert summary(shipped)["data"] == "shipped data"


def test_standard_scenario_plays_with_both_files(tmp_path: Path) -> None:
    m, d = _examples(tmp_path)
    h = _play("standard", override_options(map_file=m, data_file=d, mercenaries=True), seed=2)
    assert h.final_state.finished and h.final_state.turn == 7
    assert h.final_state.options["mercenaries"] is True
    assert set(h.outcome) >= {"winner", "vp", "control", "reason"}
    assert _city_of(h, "sicily_east") == "Syracuse"


def test_summary_names_cities_as_the_override_map_does(tmp_path: Path) -> None:
    """Renaming a city changes no rule: same game, but the summary says the teacher's name."""
    for seed in range(10):
        shipped = _play(seed=seed)
        changed = summary(shipped)["cities_changed_hands"]
        if changed:
            break
    else:
        pytest.skip("no city changed hands in ten games")
    area = changed[0]["area"]
    f = tmp_path / "rename.toml"
    f.write_text(f'[[area]]\nid = "{area}"\ncity = "Testopolis"\n'
                 f'reconstructed = "the city my copy of the map prints here"\n', encoding="utf-8")
    mine = _play(options=override_options(map_file=f), seed=seed)
    def facts(h: History) -> list[dict[str, Any]]:
        return [{k: v for k, v in e.to_dict().items() if k not in ("purpose", "prompt")} for e in h.events]

    assert facts(mine) == facts(shipped) and mine.outcome == shipped.outcome
    rolls_here = [e for e in mine.rolls() if getattr(e, "purpose", "") and "Testopolis" in e.purpose]
    assert all("Testopolis" not in (e.purpose or "") for e in shipped.rolls())
    assert rolls_here or not any(area in e.roll for e in shipped.rolls() if isinstance(e, RollEvent))
    renamed = summary(mine)["cities_changed_hands"]
    assert [c["area"] for c in renamed] == [c["area"] for c in changed]
    assert renamed[0]["city"] == "Testopolis" and changed[0]["city"] != "Testopolis"
    # the plain words of the game use the game's map too, when read with its data
    name = "Sicily (Val di Noto)"
    g = tmp_path / "name.toml"
    g.write_text(f'[[area]]\nid = "{area}"\nname = "{name}"\nreconstructed = "my map"\n', encoding="utf-8")
    named = _play(options=override_options(map_file=g), seed=seed)
    about = [e for e in named.events if e.kind == "change" and area in json.dumps(e.to_dict())]
    assert about
    assert any(name in named.describe(e) for e in about)  # History.describe reads the game's own data
    assert not any(name in RULESET.describe(e) for e in about)  # the bare words use the shipped names


def test_a_unit_cost_override_changes_what_is_recruited(tmp_path: Path) -> None:
    """A counters change with a visible effect on play: levies cost 3 TP each instead of 1/2 (6.2)."""
    f = tmp_path / "costly.toml"
    f.write_text('[[units.unit_type]]\nid = "L"\nrecruit_cost = 3.0\nsingle_purchase_cost = 3.0\n'
                 'reconstructed = "a what-if for the class"\n'
                 '[[operations.recruiting]]\nid = "L"\ntp = 3.0\nsingle_tp = 3.0\n'
                 'reconstructed = "a what-if for the class"\n', encoding="utf-8")
    opts = override_options(data_file=f)

    def levies(h: History) -> int:
        return sum(int(e.data.get("n", 1)) for e in h.events if isinstance(e, ChangeEvent)
                   and e.change == "unit-placed" and e.data.get("recruited") and e.data.get("unit") == "L")

    shipped = [_play("standard", seed=s) for s in range(3)]
    mine = [_play("standard", opts, seed=s) for s in range(3)]
    assert mine[0].final_state.data.operations.recruiting["L"] == 3.0
    assert sum(map(levies, shipped)) > 0
    assert sum(map(levies, mine)) < sum(map(levies, shipped))


# --------------------------------------------------------------------------------------------
# The override travels with the history: save, load, branch
# --------------------------------------------------------------------------------------------
def test_history_carries_the_override_and_replays_without_the_files(tmp_path: Path) -> None:
    m, d = _examples(tmp_path)
    h = _play(options=override_options(map_file=m, data_file=d))
    data = h.to_dict()
    assert data["options"]["map_override"] == {"file": "my-map.toml", "sha256": content_sha256(read_override(m)["content"]),
                                               "content": read_override(m)["content"]}
    assert json.loads(json.dumps(data)) == data  # JSON-safe
    path = tmp_path / "game.json"
    h.save(path)
    m.unlink()
    d.unlink()  # another machine: the files are gone, the history still replays
    loaded = History.load(path)
    assert loaded.to_json() == h.to_json()
    assert loaded.final_state.data_pair is h.final_state.data_pair  # cached by content, not re-parsed
    assert loaded.state_at(-1).tp["B"] == 6 and _city_of(loaded, "sicily_east") == "Syracuse"
    roll = next(r for r in loaded.rolls() if isinstance(r, RollEvent) and r.dice == "1d6" and r.turn == 2)
    child = loaded.branch(roll.roll, 1 if roll.value != 1 else 6)
    assert child.final_state.data_pair is loaded.final_state.data_pair
    assert child.state_at(-1).tp["B"] == 6 and _city_of(child, "sicily_east") == "Syracuse"
    assert child.state_at(len(child) - 1).data_pair is loaded.final_state.data_pair
    again = History.from_json(child.to_json())
    assert again.to_json() == child.to_json()


def test_two_games_in_one_process_do_not_leak(tmp_path: Path) -> None:
    m, d = _examples(tmp_path)
    before = _play(seed=5).to_json()
    mine = _play(options=override_options(map_file=m, data_file=d), seed=5)
    after = _play(seed=5)
    assert after.to_json() == before and after.final_state.data_pair is None
    # interleave: branch the override game, then read the shipped one
    roll = next(r for r in mine.rolls() if isinstance(r, RollEvent))
    mine.branch(roll.roll, 1 if roll.value != 1 else 2)
    assert after.state_at(-1).tp == {"A": 7, "B": 4}
    assert _play(seed=5).to_json() == before
    assert mine.final_state.map.areas["sicily_east"].city == "Syracuse"
    assert after.final_state.map.areas["sicily_east"].city == "Messina"


def test_data_travels_with_the_state_not_in_ambient_context(tmp_path: Path) -> None:
    """Rule code reads ``state.map``/``state.data`` (DESIGN.md: data travels explicitly); nothing to switch on or off."""
    m, _ = _examples(tmp_path)
    opts = override_options(map_file=m)
    s = initial_state("vespers-1282", opts)
    assert s.data_pair is data_for_options("vespers-1282", opts)
    assert s.map.areas["sicily_east"].city == "Syracuse" and s.data is s.data_pair.game_data
    plain = initial_state("vespers-1282", {})
    assert plain.data_pair is None and plain.map is shipped_data().game_map
    assert plain.map.areas["sicily_east"].city == "Messina"
    from medviz.rules.medempires.game import state as state_module

    ambient = ("ACTIVE_DATA", "using_data", "active_data", "game_map", "game_data")
    assert not [n for n in ambient if hasattr(state_module, n)]
    assert not hasattr(RULESET, "_enter") and not hasattr(RULESET, "_leave")


def test_pairs_are_cached_by_content(tmp_path: Path) -> None:
    m, d = _examples(tmp_path)
    a = data_for_options("standard", override_options(map_file=m, data_file=d))
    b = data_for_options("standard", json.loads(json.dumps(override_options(map_file=m, data_file=d))))
    assert a is b and a is not None
    assert data_for_options("standard", {"mercenaries": True}) is None


def test_a_state_with_overrides_pickles_for_worker_processes(tmp_path: Path) -> None:
    import pickle

    m, d = _examples(tmp_path)
    h = _play(options=override_options(map_file=m, data_file=d))
    state = pickle.loads(pickle.dumps(h.final_state))
    assert state.data_pair is h.final_state.data_pair  # rebuilt from its content key (cached)
    assert state.ctl == h.final_state.ctl and RULESET.outcome(state) == h.outcome
    assert pickle.loads(pickle.dumps(_play().final_state)).data_pair is None


def test_battle_scenario_keeps_the_shipped_tables(tmp_path: Path) -> None:
    m, _ = _examples(tmp_path)
    opts = {"attacker": "aragon:2FA,1L", "defender": "anjou:2FA"}
    from medviz.engine.policy import parse_policy

    players = {a: parse_policy("doctrine", RULESET.policies) for a in ("attacker", "defender")}
    plain = play(RULESET, "battle", opts, seed=3, players=players).to_json()
    assert data_for_options("vespers-1282", override_options(map_file=m)) is not None  # another game's data exists
    assert play(RULESET, "battle", opts, seed=3, players=players).to_json() == plain
    with pytest.raises(MalformedInput, match="map_override"):
        play(RULESET, "battle", {**opts, **override_options(map_file=m)}, seed=3, players=players)


# --------------------------------------------------------------------------------------------
# Options: the reserved keys and the real switches
# --------------------------------------------------------------------------------------------
def test_parse_options_accepts_overrides_and_still_checks_switches(tmp_path: Path) -> None:
    m, d = _examples(tmp_path)
    opts = override_options(map_file=m, data_file=d, poison=True)
    out = parse_options("standard", opts)
    assert out["poison"] is True and "map_override" not in out and all(isinstance(v, bool) for v in out.values())
    with pytest.raises(MalformedInput, match="unknown option 'no_such_rule'"):
        parse_options("standard", {**opts, "no_such_rule": True})
    with pytest.raises(MalformedInput, match="must be true or false"):
        parse_options("standard", {**opts, "poison": "yes"})
    with pytest.raises(MalformedInput, match="content, not its name"):
        parse_options("standard", {"map_override": str(m)})
    with pytest.raises(MalformedInput, match="'data_override' must be"):
        parse_options("standard", {"data_override": {"file": "x.toml", "content": [1, 2]}})


# --------------------------------------------------------------------------------------------
# Bad override files: errors name the file and the entry
# --------------------------------------------------------------------------------------------
BAD_MAPS = {
    "bad TOML": ('[[area]\nid = "malta"\n', MalformedInput, ["not valid TOML"]),
    "unknown area": ('[[area]]\nid = "sicily_east"\nneighbours = ["sicily_west", "atlantis"]\nreconstructed = "x"\n',
                     DataError, ["'sicily_east'", "unknown area 'atlantis'"]),
    "no provenance": ('[[area]]\nid = "sicily_east"\ncity = "Syracuse"\n', DataError,
                      ["'sicily_east' has no provenance"]),
    "wrong type": ('[[area]]\nid = "sicily_east"\nneighbours = "sicily_west"\nreconstructed = "x"\n', DataError,
                   ["'sicily_east'", "neighbours: must be a list"]),
    "wrong shape": ("area = 3\n", DataError, ["'area' must be an array of tables"]),
    "a date": ('[[area]]\nid = "malta"\nsurveyed = 1282-03-30\nreconstructed = "x"\n', DataError,
               ["'malta'", "surveyed", "date"]),
}

BAD_DATA = {
    "unknown power": (('[[units.counter_mix]]\nid = "aragon"\nF = 6\nreconstructed = "x"\n'
                       '[[kings.king]]\nid = "james1"\nname = "James I"\npower = "atlantis"\ndiplomacy = 1\n'
                       'military = 1\nreconstructed = "x"\n'), DataError, ["atlantis"]),
    "wrong type": ('[[units.counter_mix]]\nid = "aragon"\nF = "six"\nreconstructed = "x"\n', DataError,
                   ["'aragon'", "six"]),
    "no provenance": ('[[units.counter_mix]]\nid = "aragon"\nF = 6\n', DataError,
                      ["[[units.counter_mix]] entry 'aragon' has no provenance"]),
    "unknown table": ('[[units.counters]]\nid = "aragon"\nreconstructed = "x"\n', DataError, ["units.counters"]),
    "a King with no sure place": (('[[scenarios.setup]]\nid = "anjou"\n'
                                   'land_areas = ["abruzzi", "calabria", "apulia", "naples", "malta"]\n'
                                   'must_occupy = ["abruzzi", "calabria", "apulia", "naples"]\n'
                                   'king_areas = ["malta"]\nreconstructed = "x"\n'), DataError,
                                  ["'anjou'", "king_areas", "(3.0)"]),
    "a marker against the powers file": (('[[scenarios.setup]]\nid = "sicily"\nmarker = "ally:A"\n'
                                          'reconstructed = "x"\n'), DataError, ["'sicily'", "ally:A", "3.3.1"]),
    "unknown area in set-up": (('[[powers.power]]\nid = "genoa"\nhome_areas = ["atlantis"]\n'
                                'controlled_at_start = ["atlantis"]\nreconstructed = "x"\n'), DataError,
                               ["'genoa'", "'atlantis'"]),
}


@pytest.mark.parametrize("kind, case", [("map", c) for c in sorted(BAD_MAPS)] + [("data", c) for c in sorted(BAD_DATA)])
def test_bad_override_files_name_the_file_and_the_entry(tmp_path: Path, kind: str, case: str) -> None:
    text, error, needles = (BAD_MAPS if kind == "map" else BAD_DATA)[case]
    f = tmp_path / f"teacher-{kind}.toml"
    f.write_text(text, encoding="utf-8")
    with pytest.raises(error) as exc:
        _play(options=override_options(**{f"{kind}_file": f}))
    assert f.name in str(exc.value)
    for needle in needles:
        assert needle in str(exc.value)


def test_an_edited_history_with_a_broken_override_is_refused(tmp_path: Path) -> None:
    m, _ = _examples(tmp_path)
    data = _play(options=override_options(map_file=m)).to_dict()
    data["options"]["map_override"]["content"]["area"][0]["neighbours"] = ["atlantis"]
    with pytest.raises(DataError, match="my-map.toml"):
        History.from_dict(data, "edited.json")


# --------------------------------------------------------------------------------------------
# The CLI
# --------------------------------------------------------------------------------------------
def test_cli_play_save_and_branch_with_overrides(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    m, d = _examples(tmp_path)
    out = tmp_path / "game.json"
    assert main(["play", "vespers-1282", "--seed", "1", "--map", str(m), "--data", str(d),
                 "--out", str(out)]) == 0
    text = capsys.readouterr().out
    assert f"Played with: {m.name} + {d.name}" in text and "Winner:" in text
    assert main(["play", "vespers-1282", "--seed", "1", "--map", str(m), "--data", str(d), "--json"]) == 0
    info = json.loads(capsys.readouterr().out)
    assert info["data"] == f"{m.name} + {d.name}"
    saved = History.load(out)
    assert saved.state_at(-1).tp["B"] == 6
    roll = next(r for r in saved.rolls() if isinstance(r, RollEvent) and r.dice == "1d6")
    child_path = tmp_path / "branch.json"
    assert main(["branch", str(out), "--roll", roll.roll, "--value", str(1 if roll.value != 1 else 6),
                 "--out", str(child_path)]) == 0
    assert "Branch:" in capsys.readouterr().out
    child = History.load(child_path)
    assert json.loads(child_path.read_text())["options"]["data_override"]["file"] == d.name
    assert child.state_at(-1).tp["B"] == 6 and _city_of(child, "sicily_east") == "Syracuse"


def test_cli_areas_shows_the_override_map(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    m, _ = _examples(tmp_path)
    assert main(["areas", "--map", str(m)]) == 0
    assert "sicily_east (land, city Syracuse): Sicily (Val di Noto)" in capsys.readouterr().out
    assert main(["areas", "--map", str(m), "--json"]) == 0
    rows = {r["id"]: r for r in json.loads(capsys.readouterr().out)}
    assert rows["sicily_east"]["ports"] == ["ionian_sea"]
    assert main(["areas"]) == 0
    assert "sicily_east (land, city Messina)" in capsys.readouterr().out


@pytest.mark.parametrize("flag,case", [("--map", c) for c in sorted(BAD_MAPS)] + [("--data", c) for c in sorted(BAD_DATA)]
                         + [("--map", "missing"), ("--data", "missing")])
def test_cli_bad_files_exit_2_without_traceback_or_file(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                       flag: str, case: str) -> None:
    f = tmp_path / "teacher.toml"
    if case != "missing":
        f.write_text((BAD_MAPS if flag == "--map" else BAD_DATA)[case][0], encoding="utf-8")
    out = tmp_path / "game.json"
    assert main(["play", "vespers-1282", flag, str(f), "--out", str(out)]) == 2
    err = capsys.readouterr().err
    assert err.startswith("medviz: error: ") and "teacher.toml" in err.splitlines()[0] + err
    assert "Traceback" not in err
    assert not out.exists() and not list(tmp_path.glob(".game.json*"))
    if flag == "--map":
        assert main(["areas", flag, str(f)]) == 2
        assert "Traceback" not in capsys.readouterr().err


def test_help_points_to_the_docs(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["play", "vespers-1282", "--help"])
    text = " ".join(capsys.readouterr().out.split())
    assert "--map FILE" in text and "--data FILE" in text and "docs/data-provenance.md" in text


# --------------------------------------------------------------------------------------------
# Drawing and exporting a game played with an override
# --------------------------------------------------------------------------------------------
def test_views_draw_a_game_with_a_renamed_city(tmp_path: Path) -> None:
    pytest.importorskip("plotly")
    from medviz.rules.medempires.view import history_view, setup_view
    from medviz.viz.state_map import state_map

    m, d = _examples(tmp_path)
    h = _play(options=override_options(map_file=m, data_file=d))
    view = history_view(h, len(h) - 1)
    assert view is not None and view["tp"] == h.final_state.tp
    assert "sicily_east" in view["control"]
    fig = state_map(view)
    assert fig.data
    assert history_view(h, -1)["tp"]["B"] == 6  # type: ignore[index]
    assert setup_view("vespers-1282", data=h.final_state.data, game_map=h.final_state.map)["tp"]["B"] == 6
    assert setup_view("vespers-1282")["tp"]["B"] == 4


def test_an_area_missing_from_the_geodata_is_named_when_drawn(tmp_path: Path) -> None:
    pytest.importorskip("plotly")
    from medviz.rules.medempires.view import history_view
    from medviz.viz.state_map import state_map

    f = tmp_path / "atlantis.toml"
    f.write_text('[[area]]\nid = "atlantis"\nname = "Atlantis"\nkind = "land"\nneighbours = ["malta"]\n'
                 'coasts = ["strait_of_sicily"]\nreconstructed = "a class exercise: a lost island"\n'
                 '[[area]]\nid = "malta"\nneighbours = ["atlantis"]\nreconstructed = "joined to Atlantis"\n'
                 '[[area]]\nid = "strait_of_sicily"\ncoasts = ["malta", "sicily_west", "sicily_east", "tunis", '
                 '"atlantis"]\nreconstructed = "Atlantis lies on the strait"\n', encoding="utf-8")
    h = _play(options=override_options(map_file=f))  # a new land area plays...
    view = history_view(h, len(h) - 1)
    assert view is not None and "atlantis" in view["control"]
    with pytest.raises(UnknownReference, match="atlantis") as err:  # ...and is named when drawn
        state_map(view)
    assert isinstance(err.value, MedvizError)


def test_a_one_turn_classroom_game_exports(tmp_path: Path) -> None:
    """A scenario-card override with a visible effect (one game turn), drawn into the HTML replay."""
    pytest.importorskip("plotly")
    from medviz.export.html import export_html

    m, _ = _examples(tmp_path)
    f = tmp_path / "one-turn.toml"
    f.write_text('[[scenarios.scenario]]\nid = "vespers-1282"\ngame_turns = 1\nturn_years = [[1282, 1290]]\n'
                 'reconstructed = "a one-turn classroom version"\n', encoding="utf-8")
    h = _play(options=override_options(map_file=m, data_file=f))
    assert h.final_state.last_turn == 1 and max(e.turn or 0 for e in h.events) == 1
    assert max(e.turn or 0 for e in _play().events) == 3
    out = export_html(h, tmp_path / "replay.html")
    assert out.stat().st_size > 100_000 and "1282–1290" in out.read_text(encoding="utf-8")


def test_exporting_an_area_missing_from_the_geodata_names_it_and_writes_nothing(tmp_path: Path) -> None:
    pytest.importorskip("plotly")
    from medviz.export.html import export_html

    f = tmp_path / "atlantis.toml"
    f.write_text('[[area]]\nid = "atlantis"\nname = "Atlantis"\nkind = "land"\nneighbours = ["malta"]\n'
                 'reconstructed = "a lost island"\n[[area]]\nid = "malta"\nneighbours = ["atlantis"]\n'
                 'reconstructed = "joined to Atlantis"\n', encoding="utf-8")
    g = tmp_path / "one-turn.toml"
    g.write_text('[[scenarios.scenario]]\nid = "vespers-1282"\ngame_turns = 1\nturn_years = [[1282, 1290]]\n'
                 'reconstructed = "a one-turn classroom version"\n', encoding="utf-8")
    h = _play(options=override_options(map_file=f, data_file=g))
    with pytest.raises(UnknownReference, match="atlantis"):
        export_html(h, tmp_path / "replay.html")
    assert not list(tmp_path.glob("*.html")) and not list(tmp_path.glob(".replay.html*"))


def test_history_words_use_the_games_own_data(tmp_path: Path) -> None:
    """The event log (apps, HTML export, ``medviz branch``) names areas as the game's override does."""
    f = tmp_path / "names.toml"
    f.write_text('[[area]]\nid = "sicily_east"\nname = "Trinacria of the East"\n'
                 'reconstructed = "what my copy of the map prints"\n', encoding="utf-8")
    h = _play(options=override_options(map_file=f), seed=1)
    plain = _play(seed=1)
    words = " ".join(h.describe(e) for e in h.events)  # area names are read when the words are made
    shipped = " ".join(plain.describe(e) for e in plain.events)
    assert "Trinacria of the East" in words and "Trinacria" not in shipped
