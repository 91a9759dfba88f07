"""``medviz --help`` and every subcommand's ``--help`` print (argparse expands ``%`` in help texts:
one stray percent sign breaks the help of the whole command)."""

from __future__ import annotations

import argparse

import pytest

from medviz.cli import build_parser, main
from medviz.engine.registry import get_ruleset, ruleset_ids


def _subcommands(parser: argparse.ArgumentParser) -> dict[str, argparse.ArgumentParser]:
    for action in parser._actions:  # argparse has no public getter for its subcommands
        if isinstance(action, argparse._SubParsersAction):
            return dict(action.choices)
    return {}


def test_the_command_and_every_subcommand_print_their_help(capsys: pytest.CaptureFixture[str]) -> None:
    parser = build_parser()
    assert "simulate" in parser.format_help()
    for name, sub in _subcommands(parser).items():
        assert sub.format_help(), name
    for game in ruleset_ids():
        assert _subcommands(build_parser(odds_ruleset=get_ruleset(game)))["odds"].format_help(), game
    with pytest.raises(SystemExit) as exc:
        main(["--help"])
    assert exc.value.code == 0 and "medviz" in capsys.readouterr().out
