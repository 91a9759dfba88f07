"""The ``medviz`` command: play any installed game, branch a history, list the rulesets; each game
adds its own subcommands (Mediterranean Empires: ``odds``, ``battle``, ``areas``...) through its ruleset.

User errors print one line on stderr and exit with status 2; no traceback, no half-written file.
"""

from __future__ import annotations

import argparse
import importlib
import json
import sys
from collections.abc import Callable, Sequence
from typing import Any, NoReturn

from medviz.engine.dice import SEED_MAX
from medviz.engine.errors import DataError, MalformedInput, MedvizError
from medviz.engine.files import check_output_path
from medviz.engine.cliargs import bounded, parse_value
from medviz.engine.registry import get_ruleset, loadable_rulesets, ruleset_ids
from medviz.engine.registry import resolve_target as registry_target

#: Generic subcommand modules: each has ``register(subparsers)``; each ruleset adds its own (``command_module``).
COMMAND_MODULES = ("medviz.viz.commands", "medviz.export.commands", "medviz.engine.record_commands",
                   "medviz.analysis.commands")


class _Parser(argparse.ArgumentParser):
    """argparse that reports usage errors on one line and exits 2."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"{self.prog}: error: {message} (see '{self.prog} --help')\n")


def one_line(exc: MedvizError, hint: str = "") -> str:
    """A user error as one line: a ``DataError`` shows its source, its first problem and how many more."""
    if isinstance(exc, DataError) and exc.problems:
        head = str(exc).splitlines()[0].rsplit(": ", 1)[0]
        files = [t for t in head.replace("(", " ").replace(")", " ").split() if "." in t]
        named = any(exc.problems[0].startswith(f + ":") for f in files)  # the problem names its file
        text = exc.problems[0] if named else f"{head}: {exc.problems[0]}"
        more = len(exc.problems) - 1
        if more:
            text += f" (and {more} more problem{'s' if more > 1 else ''}{'; ' + hint if hint else ''})"
    else:
        text = str(exc) or type(exc).__name__
    return " ".join(line.strip() for line in text.splitlines() if line.strip())


def resolve_target(target: str) -> tuple[Any, str]:
    """The ruleset and scenario ``medviz play TARGET`` names: ``GAME/SCENARIO``, a scenario id that one
    game has, or a game id (its first scenario)."""
    return registry_target(target, "play")


def odds_game(argv: Sequence[str]) -> str:
    """The ``--game`` of a ``medviz odds`` command line (default: medempires)."""
    for i, word in enumerate(argv):
        if word == "--game" and i + 1 < len(argv):
            return argv[i + 1]
        if word.startswith("--game="):
            return word.split("=", 1)[1]
    return "medempires"


def cmd_odds(args: argparse.Namespace) -> int:
    """Exact odds through the chosen game's ruleset (its own flags: ``medviz odds --game G --help``)."""
    return int(args.ruleset.run_odds(args))


def cmd_play(args: argparse.Namespace) -> int:
    """Play a whole game of any installed ruleset and print its summary (or save its history)."""
    from medviz.engine import play

    rs = args.ruleset
    scenario = rs.play_scenario(args.scenario, args)
    if args.out is not None:
        check_output_path(args.out, "--out")
    options, players = rs.play_setup(scenario, args)
    h = play(rs, scenario, options, seed=args.seed, players=players)
    if args.out is not None:
        h.save(args.out)
    info = rs.summary(h)
    if args.json:
        print(json.dumps(info, indent=2, ensure_ascii=False))
        return 0
    for line in rs.summary_lines(h, info):
        print(line)
    if args.out is not None:
        print(f"History written to {args.out} ({len(h.events)} events)")
    return 0


def cmd_rulesets(args: argparse.Namespace) -> int:
    """List the installed rulesets with their scenarios, seats and options."""
    rows: list[dict[str, Any]] = []
    rulesets, broken = loadable_rulesets()
    for rid, why in broken.items():
        print(f"medviz: warning: {why}", file=sys.stderr)
    for rid, rs in rulesets.items():
        rows.append({"id": rid, "title": rs.title or rid, "scenarios": [
            {"id": sc, "seats": [{"id": s.id, "name": s.name, "colour": s.colour} for s in rs.seats(sc)],
             "options": {k: v for k, v in rs.options(sc).items()}}
            for sc in rs.scenarios()]})
    if args.json:
        print(json.dumps(rows, indent=2, ensure_ascii=False, default=str))
        return 0
    for r in rows:
        print(f"{r['id']}: {r['title']}")
        for sc in r["scenarios"]:
            seats = ", ".join(f"{s['id']} ({s['name']})" for s in sc["seats"])
            print(f"  {sc['id']}: seats {seats}")
            if sc["options"]:
                print(f"    options: {', '.join(sorted(sc['options']))}")
    return 0


def cmd_branch(args: argparse.Namespace) -> int:
    from medviz.engine import History, diff

    value = parse_value(args.value, "--value")
    if args.out is not None:
        check_output_path(args.out, "--out")
    h = History.load(args.history)
    child = h.branch(args.roll, value)
    if args.out is not None:
        if args.tree:
            child.save_tree(args.out)
        else:
            child.save(args.out)
    if args.json and not args.out:
        sys.stdout.write(child.tree_json(indent=1) if args.tree else child.to_json(indent=1))
        return 0
    d = diff(h, child)
    print(f"Branch: {args.roll} = {args.value} (re-run from event {child.replayed_from})")
    print(d.summary(h.describe))
    if args.out is not None:
        print(f"History written to {args.out}")
    return 0


# -- parser -----------------------------------------------------------------------------------
def build_parser(play_target: tuple[Any, str] | None = None, odds_ruleset: Any = None) -> argparse.ArgumentParser:
    """The argument parser of the ``medviz`` command (``play_target``, ``odds_ruleset``: the game
    ``play`` or ``odds`` was asked for, whose own flags the parser then knows)."""
    p = _Parser(prog="medviz", description="Historical board wargames: replay, branch, odds.",
                formatter_class=argparse.RawDescriptionHelpFormatter)
    from medviz import __version__

    p.add_argument("--version", action="version", version=f"medviz {__version__}")
    sub = p.add_subparsers(dest="command", required=True, parser_class=_Parser)

    pl = sub.add_parser("play", help="play a whole game of any installed ruleset",
                        description="Play a whole game and print who won and why.\n"
                                    "  medviz play vespers-1282 --seed 3 --player-a heuristic --player-b random\n"
                                    "  medviz play standard --option mercenaries --out game.json\n"
                                    "  medviz play vespers-1282 --map my-map.toml --data my-counters.toml\n"
                                    "  medviz branch game.json --roll GT1/ops-A/force-1/ops --value 12\n"
                                    "Each game adds its own flags: medviz play SCENARIO --help lists them;\n"
                                    "medviz rulesets lists the games and scenarios.",
                        formatter_class=argparse.RawDescriptionHelpFormatter)
    pl.add_argument("target", metavar="SCENARIO", help="a scenario (e.g. vespers-1282, standard) or a game id")
    pl.add_argument("--seed", type=bounded("seed", -SEED_MAX, SEED_MAX, "a seed is a whole number >= 0 below 2**63"),
                    default=0, help="seed of the natural dice, draws and cards (default 0)")
    pl.add_argument("--out", metavar="FILE", help="write the game's history JSON to FILE")
    pl.add_argument("--json", action="store_true", help="print the summary as JSON")
    if play_target is not None:
        rs, scenario = play_target
        rs.play_arguments(scenario, pl)
        pl.set_defaults(ruleset=rs, scenario=scenario)
    pl.set_defaults(func=cmd_play)

    od = sub.add_parser("odds", help="exact odds of a battle (or a table roll) of any installed game",
                        formatter_class=argparse.RawDescriptionHelpFormatter)
    od.add_argument("--game", default="medempires", help=f"which game's rules (installed: {', '.join(ruleset_ids())})")
    if odds_ruleset is not None:
        odds_ruleset.odds_arguments(od)
        od.set_defaults(ruleset=odds_ruleset)
    od.set_defaults(func=cmd_odds)

    rl = sub.add_parser("rulesets", help="list the installed games with their scenarios, seats and options")
    rl.add_argument("--json", action="store_true", help="print JSON")
    rl.set_defaults(func=cmd_rulesets)

    br = sub.add_parser("branch", help="change one die of a saved history and compare",
                        description="  medviz branch h.json --roll battle-1/combat-1/round-1/attacker --value 2")
    br.add_argument("history", help="a history JSON file")
    br.add_argument("--roll", required=True, help="the roll id to change")
    br.add_argument("--value", required=True, help="its new value")
    br.add_argument("--out", metavar="FILE", help="write the branch's history JSON to FILE")
    br.add_argument("--tree", action="store_true",
                    help="write the whole branch tree (the game, every branch explored, this one current) in one file")
    br.add_argument("--json", action="store_true", help="print the branch's history JSON")
    br.set_defaults(func=cmd_branch)

    modules = list(COMMAND_MODULES) + [m for rs in loadable_rulesets()[0].values() if (m := rs.command_module)]
    for name in modules:
        try:
            module = importlib.import_module(name)
        except ModuleNotFoundError as exc:
            if exc.name and name.startswith(exc.name):
                continue
            raise
        register: Callable[[Any], None] = getattr(module, "register")
        register(sub)
    return p


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``medviz`` command."""
    argv = list(sys.argv[1:] if argv is None else argv)
    target = None
    try:
        if len(argv) > 1 and argv[0] == "play" and not argv[1].startswith("-"):
            target = resolve_target(argv[1])
        odds_rs = None
        if argv and argv[0] == "odds":
            try:
                odds_rs = get_ruleset(odds_game(argv))
            except MedvizError as exc:
                raise MalformedInput(f"odds --game: {exc}") from None
        parser = build_parser(target, odds_rs)
    except MedvizError as exc:
        print(f"medviz: error: {one_line(exc)}", file=sys.stderr)
        return 2
    args = parser.parse_args(argv)
    if getattr(args, "seed", 0) is not None and getattr(args, "seed", 0) < 0:
        print("medviz: error: --seed must be a whole number >= 0", file=sys.stderr)
        return 2
    try:
        return int(args.func(args) or 0)
    except MedvizError as exc:
        print(f"medviz: error: {one_line(exc, getattr(args, 'all_problems_hint', ''))}", file=sys.stderr)
        return 2
    except BrokenPipeError:
        return 0


if __name__ == "__main__":
    raise SystemExit(main())
