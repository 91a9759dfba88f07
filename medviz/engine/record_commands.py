"""``medviz record SCENARIO --out FILE``: enter a game played on a real table, line by line.

Reads one answer a line from standard input (so a script can drive it): at a decision the
number of an option (as listed), or the option's words; at a roll the die (``4``, or ``3+4`` for
two dice); at a draw the item drawn. Commands: ``undo``, ``auto`` (the computer answers this
decision), ``setup`` (the computer finishes the set-up), ``list`` (show the options again),
``quit``. Every entry is checked at once (an illegal one is refused with its rule) and FILE is
rewritten atomically after it; running the same command again continues where it stopped. Once
the game is over FILE holds the game's ordinary history.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any, TextIO

from medviz.engine.cliargs import parse_value
from medviz.engine.errors import MalformedInput, MedvizError
from medviz.engine.files import check_output_path
from medviz.engine.game import ChanceAsk, Ruleset
from medviz.engine.policy import DecisionPoint
from medviz.engine.record import Recorder, parse_entered
from medviz.engine.registry import resolve_target

__all__ = ["answer", "chance_lines", "decision_lines", "register", "resolve_scenario"]

COMMANDS = ("undo", "auto", "setup", "list", "quit")


def resolve_scenario(target: str) -> tuple[Ruleset, str]:
    """The game and scenario ``GAME/SCENARIO``, ``SCENARIO`` (one game has it) or ``GAME`` (its first a table plays) names."""
    return resolve_target(target, "record", table=True)


def where(rec: Recorder) -> str:
    """Turn and phase of what is awaited, in words."""
    p, c = rec.pending, rec.pending_chance
    turn = p.turn if p is not None else c.turn if c is not None else None
    phase = p.phase if p is not None else c.phase if c is not None else None
    if rec.finished:
        return "Game over"
    if not turn:
        return "Set-up"
    return f"Turn {turn}, {rec.ruleset.phase_names().get(str(phase)) or str(phase).replace('-', ' ')}"


def decision_lines(rec: Recorder, p: DecisionPoint) -> list[str]:
    """A decision as the command prints it: who, the question, the numbered options."""
    who = rec.ruleset.seat_title(p.actor, rec.scenario, rec.state)
    out = [f"[{where(rec)}] {who}: {p.prompt or p.decision}  ({p.decision})"]
    out += [f"  {i}) {rec.ruleset.describe_option(p, o)}" for i, o in enumerate(p.options, 1)]
    return out


def chance_lines(rec: Recorder, c: ChanceAsk) -> list[str]:
    """A roll or draw as the command prints it: what for, what may be entered, what each face means."""
    who = f" for {rec.ruleset.seat_title(c.actor, rec.scenario, rec.state)}" if c.actor else ""
    if c.kind == "roll":
        values = c.values()
        out = [f"[{where(rec)}] Roll {c.dice}{who}: {c.purpose or c.key}  ({c.key})",
               f"  enter the total shown, {values[0]}..{values[-1]}"]
        out += [f"  {face}: {meaning}" for face, meaning in (c.effects or {}).items()]
        return out
    return [f"[{where(rec)}] Draw{who}: {c.purpose or c.key}  ({c.key})",
            f"  enter what was drawn: {', '.join(map(str, c.values()))}"]


def answer(rec: Recorder, text: str) -> str:
    """Carry out one line typed at the recorder; returns what it did in words (``MedvizError`` if refused)."""
    words = text.strip()
    if words == "undo":
        rec.undo()
        return "undone"
    if words == "auto":
        rec.auto()
        return "the computer chose"
    if words == "setup":
        rec.set_up()
        return "the computer finished the set-up"
    p, c = rec.pending, rec.pending_chance
    if c is not None:
        rec.enter(parse_entered(c, words))
        return f"entered {words}"
    if p is None:
        raise MalformedInput(f"the game is over; 'undo' takes back the last entry (got {words[:60]!r})")
    if words.isdigit():
        n = int(words)
        if not 1 <= n <= len(p.options):
            raise MalformedInput(f"{p.decision}: option {n} is not one of 1..{len(p.options)}")
        rec.choose(p.options[n - 1])
        return f"chose {n}"
    low = words.lower()
    for o in p.options:
        if low in (str(o).lower(), rec.ruleset.describe_option(p, o).lower()):
            rec.choose(o)
            return f"chose {words}"
    try:
        value: Any = json.loads(words)
    except ValueError:
        value = parse_value(words, "answer") if words else words
    rec.choose(value)  # not among the options: refused, naming its rule
    return f"chose {words}"


def prompt_lines(rec: Recorder) -> list[str]:
    """What the recorder waits for now, as lines."""
    if rec.pending is not None:
        return decision_lines(rec, rec.pending)
    if rec.pending_chance is not None:
        return chance_lines(rec, rec.pending_chance)
    out = rec.history.outcome
    return [f"Game over: {out.get('winner', 'nobody')} wins. {out.get('reason', '')}"]


def cmd_record(args: argparse.Namespace, stdin: TextIO | None = None, stdout: TextIO | None = None) -> int:
    """Enter a real game line by line; resumable from FILE."""
    inp = stdin or sys.stdin
    out = stdout or sys.stdout
    rs, scenario = resolve_scenario(args.target)
    check_output_path(args.out, "--out")
    path = Path(args.out)
    if path.exists():
        rec = Recorder.load(path)
        if (rec.ruleset.game, rec.scenario) != (rs.game, scenario):
            raise MalformedInput(f"--out {args.out}: it records {rec.ruleset.game}/{rec.scenario}, "
                                 f"not {rs.game}/{scenario}")
        print(f"Continuing {args.out}: {len(rec.entries)} entries so far.", file=out)
    else:
        options: dict[str, Any] = {}
        for text in args.option or []:
            name, sep, value = text.partition("=")
            options[name] = parse_value(value, f"--option {text[:60]!r}") if sep else True
        rec = Recorder(rs, scenario, options, seed=args.seed, stand_in=args.stand_in)
        rec.save(path)
        print(f"Recording {rs.game}/{scenario} into {args.out}.", file=out)
    print("Type an option's number or words, a die's value, or: " + ", ".join(COMMANDS) + ".", file=out)
    shown = True
    for line in prompt_lines(rec):
        print(line, file=out)
    for raw in inp:
        words = raw.strip()
        if not words or words.startswith("#"):
            continue
        if words == "quit":
            break
        if words == "list":
            shown = False
        else:
            before = len(rec.events)
            try:
                did = answer(rec, words)
            except MedvizError as exc:
                print(f"refused: {' '.join(str(exc).split())}", file=out)
                if args.strict:
                    rec.save(path)
                    print(f"medviz: error: {args.out}: refused {words[:60]!r} ({len(rec.entries)} entries saved)",
                          file=sys.stderr)
                    return 2
                continue
            rec.save(path)
            if args.verbose and did != "undone":
                for e in rec.events[before:]:
                    print(f"    {rec.describe(e)}", file=out)
            shown = False
        if not shown:
            for line in prompt_lines(rec):
                print(line, file=out)
            shown = True
    rec.save(path)
    state = "the history of the finished game" if rec.finished else "the recording so far; run the same command to continue"
    print(f"Saved {len(rec.entries)} entries to {args.out} ({state}).", file=out)
    return 0


def register(sub: Any) -> None:
    """Add ``medviz record`` to the ``medviz`` command."""
    rc = sub.add_parser(
        "record", help="enter a game played on a real table (decisions and physical dice), resumable",
        description=__doc__.split("\n\n", 1)[1] if __doc__ else None,
        formatter_class=argparse.RawDescriptionHelpFormatter)
    rc.add_argument("target", metavar="SCENARIO", help="a scenario (e.g. vespers-1282), GAME/SCENARIO, or a game id")
    rc.add_argument("--out", metavar="FILE", required=True,
                    help="the recording (continued if it exists); once the game is over, its history")
    rc.add_argument("--seed", type=int, default=0,
                    help="seed of the dice a branch rolls anew (default 0; the table's own dice are entered)")
    rc.add_argument("--option", action="append", metavar="NAME[=VALUE]", help="a scenario option (repeatable)")
    rc.add_argument("--stand-in", metavar="POLICY", default=None,
                    help="the computer player for 'auto', 'setup' and branches (default: the game's heuristic)")
    rc.add_argument("--strict", action="store_true", help="stop with status 2 at the first refused line")
    rc.add_argument("--verbose", action="store_true", help="print what happened after each entry")
    rc.set_defaults(func=cmd_record)
