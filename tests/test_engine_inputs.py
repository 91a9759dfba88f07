"""Reading files and command-line values (engine/files.py, engine/cliargs.py): exact refusals, exact output."""

from __future__ import annotations

import os
import socket
from fractions import Fraction
from pathlib import Path

import pytest

from medviz.engine import MalformedInput
from medviz.engine import files
from medviz.engine.cliargs import fmt_p, parse_override, print_json


def test_a_socket_or_a_device_is_named_for_what_it_is(tmp_path: Path) -> None:
    where = tmp_path / "s.sock"
    with socket.socket(socket.AF_UNIX) as s:
        s.bind(str(where))
        with pytest.raises(MalformedInput, match=r"^.*s\.sock: history file is a socket, not a regular file$"):
            files.read_text(where, "history file")
    with pytest.raises(MalformedInput, match=r"^/dev/null: history file is a device, not a regular file$"):
        files.read_text("/dev/null", "history file")
    with pytest.raises(MalformedInput, match=r"history file is a folder, not a regular file$"):
        files.read_text(tmp_path, "history file")


@pytest.mark.parametrize(("kill_says", "kept"), [(PermissionError, True), (ProcessLookupError, False), (None, True)])
def test_a_fresh_temporary_is_kept_while_its_writer_may_still_run(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, kill_says: type[OSError] | None, kept: bool) -> None:
    """A process of another user (PermissionError) or a living one may still be writing; a gone one is not."""
    def kill(pid: int, sig: int) -> None:
        assert (pid, sig) == (4242424, 0)
        if kill_says is not None:
            raise kill_says()

    monkeypatch.setattr(files.os, "kill", kill)
    leftover = tmp_path / ".game.json.4242424-abcdef.tmp"
    leftover.write_text("half", encoding="utf-8")
    mine = tmp_path / f".game.json.{os.getpid()}-0123.tmp"  # this process's own write in progress
    mine.write_text("half", encoding="utf-8")
    removed = files.remove_stale_temporaries(tmp_path / "game.json")
    assert removed == ([] if kept else [leftover]) and leftover.exists() is kept and mine.exists()


@pytest.mark.parametrize("text", ["abc", "=5", "  =5", ""])
def test_an_override_needs_a_roll_id_and_an_equals_sign(text: str) -> None:
    with pytest.raises(MalformedInput, match=rf"^--override {text!r}: expected ROLL_ID=VALUE$"):
        parse_override(text)


def test_an_override_is_split_at_its_first_equals_sign() -> None:
    assert parse_override(" GT1/a = 3 ") == ("GT1/a", 3)
    assert parse_override("deck/2=a=b") == ("deck/2", "a=b")


def test_json_output_shows_fractions_to_four_places(capsys: pytest.CaptureFixture[str]) -> None:
    print_json({"p": Fraction(1, 3), "q": Fraction(2, 3), "n": 2, "word": "Aragó"})
    assert capsys.readouterr().out == '{\n  "p": 0.3333,\n  "q": 0.6667,\n  "n": 2,\n  "word": "Aragó"\n}\n'
    with pytest.raises(TypeError):
        print_json({"x": {1, 2}})
    assert fmt_p(Fraction(1, 8)) == " 12.50%"


@pytest.mark.parametrize("game", ["", 5, None])
def test_a_ruleset_id_must_be_non_empty_text(game: object) -> None:
    from medviz.engine.registry import register_ruleset, ruleset_ids

    with pytest.raises(MalformedInput, match=rf"^a ruleset id must be non-empty text, not {game!r}$"):
        register_ruleset(game, "medviz.rules.medempires.ruleset:RULESET")  # type: ignore[arg-type]
    assert game not in ruleset_ids()
