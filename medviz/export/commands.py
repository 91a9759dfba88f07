"""The ``medviz export`` subcommand: a history (and its notes) as one standalone HTML page.

    medviz export HISTORY [--annotations FILE] [--seat SEAT] [--win-probability FILE | --no-win-probability] --html OUT

``--seat`` draws the map as that seat may see it (``Ruleset.observe``: a card game's hidden hands
stay hidden on the map and in its panel); the log still lists every event.

``--win-probability`` draws the win-probability chart of the history as a strip under the map
(a file ``win_probability(cache=…)`` or ``medviz simulate`` wrote); without it, an analysis cached
beside the history (its folder or its ``analysis/`` folder, named by the history's hash) is used,
and a pivotal-roll analysis cached there flags its five most pivotal rolls.

Bad input (a missing or malformed history, an annotation file with problems, an output folder
that does not exist) prints one line and exits 2; nothing is written. The page is written
atomically (temporary file, then rename).
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from medviz.engine.errors import DataError, MalformedInput
from medviz.engine.files import check_output_path

__all__ = ["cmd_export", "register"]


def cmd_export(args: argparse.Namespace) -> int:
    """Run ``medviz export``."""
    from medviz.engine import History
    from medviz.export.annotations import load_annotations
    from medviz.export.html import export_html

    if not args.html.strip():
        raise MalformedInput("--html: empty file name; give a file name such as replay.html")
    out = Path(args.html)
    if out.is_dir():
        raise MalformedInput(f"--html {out}: is a folder; give a file name such as replay.html")
    check_output_path(out, "--html")  # a missing or read-only folder, a device: refused before any work
    history = History.load(args.history)
    annotations = None
    if args.annotations:
        try:
            annotations = load_annotations(args.annotations, history)
        except DataError as exc:  # one line: every problem, separated by semicolons
            raise MalformedInput(f"{exc.problems and exc.args[0].splitlines()[0]}: " + "; ".join(exc.problems)) from None
    chart, flags = _win_probability(args, history)
    view_at = view_for = None
    if args.seat:
        from medviz.apps.model import observes, seat_view_at

        seats = [s.id for s in history.ruleset.seats(history.scenario)]
        if not observes(history) or args.seat not in seats:
            raise MalformedInput(f"--seat {args.seat[:20]!r}: " + (f"expected one of {', '.join(seats)}" if observes(history)
                                 else f"{history.game} hides nothing from its seats; leave --seat out"))
        seat_at = seat_view_at(history, args.seat)
        view_at = lambda seq: seat_at(history, seq)  # noqa: E731
        view_for = lambda h: lambda seq: seat_at(h, seq)  # noqa: E731  (a tree's other branches)
    path = export_html(history, out, annotations, view_at, compress_plotlyjs=not args.no_compress,
                       seat=args.seat or None, view_for=view_for, win_probability=chart, pivotal=flags)
    size = path.stat().st_size
    notes = f", {len(annotations)} note(s)" if annotations is not None else ""
    notes += f", win probability from {args.win_probability}" if chart is not None else ""
    branches = sum(1 for _ in _walk(history.root)) - 1
    notes += f", {branches} branch(es) of its tree" if branches else ""
    print(f"Replay page written to {path} ({size / 1e6:.2f} MB, {len(history.events)} events{notes}); "
          "it opens offline in any browser")
    return 0


def _win_probability(args: argparse.Namespace, history: Any) -> tuple[Any, list[tuple[int, str, str]]]:
    """The win-probability analysis to draw (given, or cached beside the history) and its pivotal flags."""
    from medviz.analysis.winprob import cached_beside, load_win_probability, pivotal_flags

    if args.no_win_probability:
        return None, []
    beside = Path(args.history).parent
    if args.win_probability:
        chart = load_win_probability(args.win_probability, history)
    else:
        found = cached_beside(history, beside)
        if not found:
            return None, []
        chart = load_win_probability(found[0], history)
        args.win_probability = str(found[0])
    piv = cached_beside(history, Path(args.win_probability).parent, "pivotal") or cached_beside(history, beside, "pivotal")
    return chart, pivotal_flags(piv[0], history) if piv else []


def _walk(h: Any) -> Any:
    yield h
    for child in h.children:
        yield from _walk(child)


def register(subparsers: Any) -> None:
    """Add ``medviz export`` to the ``medviz`` command."""
    p = subparsers.add_parser(
        "export", help="write a history as one standalone HTML page (map, slider, log, notes)",
        description="One standalone page: no Python, no network.\n"
                    "  medviz battle --attacker aragon:2FA,1L,K2 --defender anjou:3FA --seed 3 --out h.json\n"
                    "  medviz export h.json --annotations notes.toml --html replay.html\n"
                    "Annotation files: see docs/annotations.md.",
        formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("history", help="a history JSON file (medviz battle --out, or a saved game)")
    p.add_argument("--annotations", metavar="FILE", help="a TOML file of notes anchored to events or phases")
    p.add_argument("--seat", metavar="SEAT", help="draw the map as this seat may see it (a game with hidden cards)")
    p.add_argument("--win-probability", metavar="FILE",
                   help="a win-probability analysis of this history, drawn as a strip under the map "
                        "(default: one cached beside the history)")
    p.add_argument("--no-win-probability", action="store_true", help="leave the win-probability strip out")
    p.add_argument("--html", required=True, metavar="OUT", help="the page to write")
    p.add_argument("--no-compress", action="store_true",
                   help="inline plotly.js as plain text (bigger page, for browsers without DecompressionStream)")
    p.set_defaults(func=cmd_export)
