"""MkDocs hook: the CLI reference page is written from the ``medviz`` parser at build time.

``docs/cli.md`` holds the marker ``<!-- medviz-cli-reference -->``; the hook replaces it with the
``--help`` of the command, of each subcommand, and of ``medviz odds --game G`` for every installed
game, so the page can never disagree with the command.
"""

from __future__ import annotations

import argparse
import os
from typing import Any

MARKER = "<!-- medviz-cli-reference -->"


def _subparsers(parser: argparse.ArgumentParser) -> dict[str, argparse.ArgumentParser]:
    for action in parser._actions:  # argparse keeps its subcommands here; there is no public getter
        if isinstance(action, argparse._SubParsersAction):
            return dict(action.choices)
    return {}


def _block(title: str, text: str) -> str:
    return f"### {title}\n\n```text\n{text.rstrip()}\n```\n"


def reference() -> str:
    """The markdown of every ``--help`` text of the ``medviz`` command."""
    os.environ.setdefault("COLUMNS", "100")  # argparse wraps to the terminal: a fixed width is reproducible
    from medviz.cli import build_parser
    from medviz.engine.registry import get_ruleset, ruleset_ids

    parser = build_parser()
    parts = [_block("medviz", parser.format_help())]
    for name, sub in _subparsers(parser).items():
        if name == "odds":
            continue
        parts.append(_block(f"medviz {name}", sub.format_help()))
    for game in ruleset_ids():
        ruleset = get_ruleset(game)
        odds = _subparsers(build_parser(odds_ruleset=ruleset))["odds"]
        parts.append(_block(f"medviz odds --game {game}", odds.format_help()))
    return "\n".join(parts)


def on_page_markdown(markdown: str, page: Any, **_kwargs: Any) -> str:
    """Fill the CLI reference page (the only page carrying the marker)."""
    if MARKER not in markdown:
        return markdown
    return markdown.replace(MARKER, reference())
