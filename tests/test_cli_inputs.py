"""Every bad CLI argument and file is refused at once on one line with exit status 2 (issue 17).

Each case here was found to print a traceback, hang, run for minutes or be silently accepted.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from medviz.cli import main
from medviz.engine import History
from medviz.engine.errors import MalformedInput
from medviz.engine.files import STALE_AFTER, read_text, write_atomic
from medviz.rules.medempires.game.setup import override_options

ROOT = Path(__file__).resolve().parent.parent
B = ["--attacker", "aragon:2FA", "--defender", "anjou:2FA"]
HUGE = "9" * 5000


def _refused(argv: list[str], capsys: pytest.CaptureFixture[str], *needles: str) -> str:
    """Run the CLI; it must exit 2 (returned or via argparse) with one line naming the problem."""
    try:
        code = main(argv)
    except SystemExit as exc:
        code = exc.code
    err = capsys.readouterr().err
    assert code == 2, err
    assert len(err.strip().splitlines()) == 1 and "Traceback" not in err, err
    for needle in needles:
        assert needle in err, err
    return err


@pytest.mark.parametrize("argv, needles", [
    (["odds", "battle", *B, "--doctrine", "initiative_markers=abc"], ["--doctrine", "initiative_markers", "'abc'"]),
    (["odds", "battle", *B, "--doctrine", "initiative_markers=99"], ["0..13"]),
    (["odds", "battle", *B, "--doctrine", "avoid=perhaps"], ["avoid must be true or false"]),
    (["battle", *B, "--ops", "1000000000"], ["--ops", "0..15"]),
    (["odds", "battle", *B, "--ops", HUGE], ["--ops", "not a whole number"]),
    (["battle", *B, "--override", "battle-1/combat-1/round-1/attacker=--5"], ["--override", "'--5'"]),
    (["battle", *B, "--override", "battle-1/combat-1/round-1/attacker=" + HUGE], ["--override", "not a whole number"]),
    (["battle", *B, "--seed", HUGE], ["--seed"]),
    (["play", "standard", "--player-a", "doctrine"], ["--player-a 'doctrine'", "medviz battle"]),
    (["play", "standard", "--player-b", "random:" + HUGE], ["--player-b"]),
    (["play", "standard", "--seed", HUGE], ["--seed"]),
    (["battle", "--attacker", "aragon:1000000000FA", "--defender", "anjou:2FA"], ["--attacker", "digits"]),
    (["battle", "--attacker", f"aragon:{HUGE}FA", "--defender", "anjou:2FA"], ["--attacker", "too long"]),
    (["battle", "--attacker", "aragon:99FA", "--defender", "anjou:2FA"], ["--attacker", "no power has more than 7"]),
    (["odds", "battle", "--attacker", "aragon:2FA,K4", "--defender", "anjou:2FA"], ["--attacker", "rated 0-3"]),
    (["battle", "--attacker", "aragon:2FA", "--defender", "anjou:2FA,7MA"], ["--defender", "the cup holds 6"]),
    (["battle", "--attacker", "aragon:2FA,1F,2F,3F", "--defender", "anjou:2F"], ["6 aragon F"]),
    (["odds", "field", "--units", "1000000000"], ["--units"]),
    (["odds", "field", "--units", "3", "--drm", HUGE], ["--drm"]),
    (["battle", *B, "--out", ""], ["--out: empty file name"]),
    (["battle", *B, "--out", "/proc/h.json"], ["--out /proc/h.json", "cannot write"]),
    (["battle", *B, "--out", "/dev/null"], ["is a device"]),
    (["play", "vespers-1282", "--out", ""], ["--out: empty file name"]),
])
def test_bad_arguments_are_one_line_and_exit_2(argv: list[str], needles: list[str],
                                               capsys: pytest.CaptureFixture[str]) -> None:
    _refused(argv, capsys, *needles)


def test_value_like_numbers_are_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    h = tmp_path / "h.json"
    assert main(["battle", *B, "--out", str(h)]) == 0
    capsys.readouterr()
    roll = "battle-1/combat-1/round-1/attacker"
    for value in ("²", "٣", "--5", HUGE, "1e3"):
        _refused(["branch", str(h), "--roll", roll, f"--value={value}"], capsys, "--value", "not a whole number")
    assert main(["branch", str(h), "--roll", roll, "--value", "+2"]) == 0


def test_out_onto_a_folder_and_branch_out_empty(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    h = tmp_path / "h.json"
    assert main(["battle", *B, "--out", str(h)]) == 0
    capsys.readouterr()
    _refused(["battle", *B, "--out", str(tmp_path)], capsys, "is a folder")
    _refused(["branch", str(h), "--roll", "battle-1/combat-1/round-1/attacker", "--value", "2", "--out", ""],
             capsys, "--out: empty")
    _refused(["export", str(h), "--html", ""], capsys, "--html: empty")
    _refused(["export", str(h), "--html", "/proc/x.html"], capsys, "cannot write")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["h.json"]


@pytest.mark.skipif(os.geteuid() == 0, reason="root writes into a read-only folder")
def test_out_into_a_read_only_folder(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    ro = tmp_path / "ro"
    ro.mkdir()
    ro.chmod(0o555)
    try:
        _refused(["battle", *B, "--out", str(ro / "h.json")], capsys, "cannot write in folder")
    finally:
        ro.chmod(0o755)


def test_a_fifo_a_device_a_folder_and_a_huge_file_are_not_read(tmp_path: Path,
                                                                capsys: pytest.CaptureFixture[str]) -> None:
    fifo = tmp_path / "fifo.json"
    os.mkfifo(fifo)
    huge = tmp_path / "huge.json"
    with open(huge, "wb") as f:
        f.truncate(65 * 1024 * 1024)  # sparse: no disk used
    roll = ["--roll", "x", "--value", "1"]
    _refused(["branch", str(fifo), *roll], capsys, "fifo.json", "pipe (FIFO)")
    _refused(["branch", "/dev/zero", *roll], capsys, "/dev/zero", "a device")
    _refused(["branch", str(tmp_path), *roll], capsys, "a folder")
    _refused(["branch", str(huge), *roll], capsys, "huge.json", "more than the 67,108,864")
    _refused(["export", str(fifo), "--html", str(tmp_path / "x.html")], capsys, "pipe (FIFO)")
    _refused(["play", "vespers-1282", "--map", str(fifo)], capsys, "pipe (FIFO)")
    big_map = tmp_path / "big.toml"
    big_map.write_text("# " + "x" * (2 * 1024 * 1024), encoding="utf-8")
    _refused(["play", "vespers-1282", "--map", str(big_map)], capsys, "big.toml", "more than the 1,048,576")
    with pytest.raises(MalformedInput, match="at most|more than"):
        read_text(huge, "history file", max_bytes=10)


# --------------------------------------------------------------------------------------------
# Override files: every refusal one line, hostile content included
# --------------------------------------------------------------------------------------------
MAP_CASES = {
    "5,000-digit integer": ('[[area]]\nid = "malta"\nreconstructed = "x"\ncity_lon = ' + HUGE + "\n",
                            ["line 4", "5,000 digits"]),
    "500-deep array": ('[[area]]\nid = "malta"\nreconstructed = "x"\nx = ' + "[" * 500 + "]" * 500 + "\n",
                       ["nested far too deep"]),
    "300-deep inline tables": ('[[area]]\nid = "malta"\nreconstructed = "x"\nx = ' + "{a = " * 300 + "1"
                               + "}" * 300 + "\n", ["nested more than 8 levels"]),
    "integer beyond 2**53": ('[[area]]\nid = "malta"\nreconstructed = "x"\ncity_lon = 99999999999999999999\n',
                             ["'malta'", "city_lon"]),
    "city = 5": ('[[area]]\nid = "malta"\ncity = 5\nreconstructed = "x"\n', ["'malta'", "city: must be text"]),
    "name = 5": ('[[area]]\nid = "malta"\nname = 5\nreconstructed = "x"\n', ["name: must be text"]),
    'name = ""': ('[[area]]\nid = "malta"\nname = ""\nreconstructed = "x"\n', ["name: must not be empty"]),
    "evil = 1": ('[[area]]\nid = "malta"\nevil = 1\nreconstructed = "x"\n', ["unknown field 'evil'"]),
    "typo": ('[[area]]\nid = "malta"\nneighbors = ["sicily_west"]\nreconstructed = "x"\n',
             ["unknown field 'neighbors' (did you mean 'neighbours'?)"]),
    "latitude": ('[[area]]\nid = "malta"\ncity_lat = 91.0\nreconstructed = "x"\n', ["91.0 is out of range -90..90"]),
    "strait of one": ('[[strait]]\nid = "messina"\nbetween = ["calabria"]\nrule = "10.1"\n', ["between", "1 items"]),
    "several problems": ('[[area]]\nid = "malta"\nname = 5\ncity = 6\nkind = "air"\nreconstructed = "x"\n',
                         ["and 2 more problems", "medviz check-data --map"]),
}
DATA_CASES = {
    "King rated 9": ('[[kings.king]]\nid = "peter3"\nmilitary = 9\nreconstructed = "x"\n', ["military", "0..3"]),
    "negative King": ('[[kings.king]]\nid = "peter3"\ndiplomacy = -1\nreconstructed = "x"\n', ["diplomacy", "0..3"]),
    "counter mix": ('[[units.counter_mix]]\nid = "aragon"\nF = 100000\nreconstructed = "x"\n', ["F", "0..176"]),
    "unit code typo": ('[[units.counter_mix]]\nid = "aragon"\nFF = 6\nreconstructed = "x"\n',
                       ["unknown unit code 'FF' (did you mean 'F'?)"]),
    "OPs": ('[[operations.cost]]\nid = "combat"\nops = 1000\nrule = "x"\n', ["ops", "0..15"]),
    "markers": ('[[stratagems.stratagem]]\nid = "ambush"\ncount = 5000\nreconstructed = "x"\n', ["count", "0..176"]),
    "starting TP": ('[[scenarios.scenario]]\nid = "vespers-1282"\nstarting_tp = { A = 7, B = "six" }\n'
                    'reconstructed = "x"\n', ["starting_tp.B", "must be a whole number"]),
    "politics value": ('[[politics.limit]]\nid = "x"\nvalue = [1]\nrule = "x"\n', ["value: must be", "a list"]),
    "evil = 1": ('[[powers.power]]\nid = "genoa"\nevil = 1\nreconstructed = "x"\n', ["unknown field 'evil'"]),
    "name = 5": ('[[powers.power]]\nid = "genoa"\nname = 5\nreconstructed = "x"\n', ["name", "text"]),
}


@pytest.mark.parametrize("flag, case", [("--map", c) for c in MAP_CASES] + [("--data", c) for c in DATA_CASES])
def test_bad_override_files_are_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                         flag: str, case: str) -> None:
    text, needles = (MAP_CASES if flag == "--map" else DATA_CASES)[case]
    f = tmp_path / "teacher.toml"
    f.write_text(text, encoding="utf-8")
    out = tmp_path / "game.json"
    _refused(["play", "vespers-1282", flag, str(f), "--out", str(out)], capsys, "teacher.toml", *needles)
    assert not out.exists()
    assert main(["check-data", flag, str(f)]) == 2
    listed = capsys.readouterr()
    lines = listed.out.splitlines()  # every problem, one a line (a file that does not parse: one line)
    assert (len(lines) >= 2 and all(line.startswith("  - ") for line in lines[1:])) or \
        (not lines and len(listed.err.strip().splitlines()) == 1)


def test_check_data_passes_the_examples(capsys: pytest.CaptureFixture[str]) -> None:
    examples = ROOT / "docs" / "examples"
    assert main(["check-data", "--map", str(examples / "my-map.toml"), "--data",
                 str(examples / "my-counters.toml")]) == 0
    assert "no problems" in capsys.readouterr().out
    for f in examples.glob("*.toml"):
        assert main(["check-data", "--map" if "map" in f.name else "--data", str(f)]) == 0


# --------------------------------------------------------------------------------------------
# Histories store override files by content: the same game, the same bytes
# --------------------------------------------------------------------------------------------
def test_relative_and_absolute_paths_give_the_same_history(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                           capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "my-map.toml").write_text((ROOT / "docs/examples/my-map.toml").read_text(encoding="utf-8"),
                                          encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    assert main(["play", "vespers-1282", "--seed", "2", "--map", "my-map.toml", "--out", "rel.json"]) == 0
    assert main(["play", "vespers-1282", "--seed", "2", "--map", str(tmp_path / "my-map.toml"),
                 "--out", str(tmp_path / "abs.json")]) == 0
    assert (tmp_path / "rel.json").read_bytes() == (tmp_path / "abs.json").read_bytes()
    saved = json.loads((tmp_path / "rel.json").read_text(encoding="utf-8"))["options"]["map_override"]
    assert saved["file"] == "my-map.toml" and len(saved["sha256"]) == 64


def test_old_histories_with_a_path_still_load_and_edits_are_refused(tmp_path: Path) -> None:
    from medviz.engine import play
    from medviz.rules.medempires.game.players import Heuristic
    from medviz.rules.medempires.ruleset import RULESET

    opts = override_options(map_file=ROOT / "docs/examples/my-map.toml")
    h = play(RULESET, "vespers-1282", opts, seed=1, players={"A": Heuristic(), "B": Heuristic()})
    data = h.to_dict()
    old = json.loads(json.dumps(data))
    old["options"]["map_override"] = {"file": "/home/teacher/maps/my-map.toml",
                                      "content": data["options"]["map_override"]["content"]}
    loaded = History.from_dict(old, "old.json")  # saved before the hash: replays from the content
    assert loaded.outcome == h.outcome
    edited = json.loads(json.dumps(data))
    edited["options"]["map_override"]["content"]["area"][0]["name"] = "Val Demone"
    with pytest.raises(MalformedInput, match="does not match its sha256"):
        History.from_dict(edited, "edited.json")


# --------------------------------------------------------------------------------------------
# Interrupted writes leave nothing behind
# --------------------------------------------------------------------------------------------
def test_a_stale_temporary_file_is_removed_on_the_next_write(tmp_path: Path) -> None:
    target = tmp_path / "game.json"
    old = tmp_path / ".game.json.4242424-abcdef.tmp"  # no such process
    old.write_text("half", encoding="utf-8")
    aged = tmp_path / f".game.json.{os.getpid()}-0123.tmp"  # this process, but long ago
    aged.write_text("half", encoding="utf-8")
    os.utime(aged, (time.time() - STALE_AFTER - 5,) * 2)
    other = tmp_path / ".other.json.4242424-abcdef.tmp"  # another target's: left alone
    other.write_text("x", encoding="utf-8")
    write_atomic(target, "{}")
    assert target.read_text(encoding="utf-8") == "{}"
    assert sorted(p.name for p in tmp_path.iterdir()) == [".other.json.4242424-abcdef.tmp", "game.json"]


def test_a_killed_writer_leaves_no_temporary_file_after_the_next_run(tmp_path: Path) -> None:
    target = tmp_path / "game.json"
    target.write_text("old", encoding="utf-8")
    script = ("import sys, time, medviz.engine.files as f\n"
              "def stall(*a):\n"
              "    print('written', flush=True); time.sleep(60)\n"
              "f.os.replace = stall\n"
              f"f.write_atomic({str(target)!r}, 'new')\n")
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    proc = subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE, env=env, text=True)
    try:
        assert proc.stdout is not None and proc.stdout.readline().strip() == "written"
        assert len(list(tmp_path.glob(".game.json.*.tmp"))) == 1  # the temporary file, not the target
        assert target.read_text(encoding="utf-8") == "old"
    finally:
        proc.send_signal(signal.SIGKILL)
        proc.wait()
    assert len(list(tmp_path.glob(".game.json.*.tmp"))) == 1  # killed: the leftover is there ...
    write_atomic(target, "newer")  # ... until the next write to the same target
    assert target.read_text(encoding="utf-8") == "newer"
    assert list(tmp_path.glob(".*.tmp")) == []
