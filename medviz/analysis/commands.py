"""``medviz simulate``, ``medviz pivotal`` and ``medviz winprob``: many games of any installed game, on local processes
or a Dask cluster (registered by ``medviz.cli`` like the other generic subcommand modules).

``simulate`` takes the game's own flags (``Ruleset.play_arguments``: Mediterranean Empires has
``--player-a``/``--player-b``/``--option``), read after the scenario is known, as ``medviz play``
does: ``medviz simulate SCENARIO --help`` lists them.
"""

from __future__ import annotations

import argparse
import sys
from typing import Any, NoReturn

from medviz.engine.cliargs import bounded, parse_override
from medviz.engine.dice import SEED_MAX
from medviz.engine.errors import MalformedInput
from medviz.engine.registry import resolve_target

GAMES_MAX = 10_000_000


class _FlagParser(argparse.ArgumentParser):
    """The flags after the scenario: a usage error is ``MalformedInput`` (one line, exit 2)."""

    def error(self, message: str) -> NoReturn:
        raise MalformedInput(f"{self.prog}: {message} (see '{self.prog} --help')")


def register(sub: Any) -> None:
    """Add ``simulate``, ``pivotal`` and ``winprob`` to the ``medviz`` command."""
    sp = sub.add_parser("simulate", help="play many seeded games (or continue a history many times) and "
                                         "summarise who wins, with 95%% intervals", add_help=False,
                        description="  medviz simulate vespers-1282 --games 1000 --workers 2 --out games.parquet\n"
                                    "  medviz simulate vespers-1282 --games 200 --from h.json --at ROLL=1\n"
                                    "medviz simulate SCENARIO --help lists every flag (the game adds its own).",
                        formatter_class=argparse.RawDescriptionHelpFormatter)
    sp.add_argument("target", metavar="SCENARIO", help="a scenario (e.g. vespers-1282), GAME/SCENARIO or a game id")
    sp.add_argument("flags", nargs=argparse.REMAINDER, help="--games N and the rest (SCENARIO --help lists them)")
    sp.add_argument("-h", "--help", action="help", help="show this help")
    sp.set_defaults(func=cmd_simulate)

    pv = sub.add_parser("pivotal", help="rank the rolls and draws of a history by how much they moved the "
                                        "winner's odds",
                        description="  medviz pivotal h.json --budget 200 --workers 2\n"
                                    "For each roll: the win probability under each face, from continuations "
                                    "that share their seeds (common random numbers); rolls where no face "
                                    "changes any continuation's winner stop after the first round.",
                        formatter_class=argparse.RawDescriptionHelpFormatter)
    pv.add_argument("history", help="a history JSON file")
    pv.add_argument("--budget", type=bounded("budget", 1, 100_000, "continuations per face of one roll"),
                    default=200, help="most continuations for each face of a roll (default 200)")
    pv.add_argument("--first", type=bounded("first", 1, 10_000, "continuations per face in a round"), default=16,
                    help="continuations per face in each round (default 16)")
    pv.add_argument("--target", type=float, default=0.05,
                    help="stop a roll once its swing is known to +/- this (default 0.05)")
    pv.add_argument("--first-seed", type=bounded("first-seed", 0, SEED_MAX, "a seed is >= 0"), default=0,
                    help="seed of the first continuation (default 0)")
    pv.add_argument("--measure", default="winner", metavar="WHAT",
                    help="what a swing moves: winner (the recorded winner's odds, default), a number column of "
                         "the games' rows (e.g. vp_B: its mean) or COLUMN=VALUE (e.g. holds_malta=B: its share)")
    pv.add_argument("--roll", action="append", metavar="ID", help="analyse only this roll or draw (repeatable)")
    pv.add_argument("--top", type=bounded("top", 1, 100_000, "rolls to print"), default=10,
                    help="how many rolls to print (default 10)")
    _where_flags(pv)
    pv.add_argument("--out", metavar="FILE.json", help="write the whole analysis as JSON to FILE")
    pv.add_argument("--json", action="store_true", help="print the analysis as JSON")
    pv.set_defaults(func=cmd_pivotal)

    wp = sub.add_parser("winprob", help="P(each side wins) after every phase of a history, written where the "
                                        "notebook and medviz export find it",
                        description="  medviz winprob h.json --games 100 --workers 2\n"
                                    "Continues the history GAMES times from the set-up and after every phase and "
                                    "writes the chart's file beside the history (winprob-<hash>-<N>g-s<S>.json, "
                                    "see docs/scale.md); a file already there is read, not played again.",
                        formatter_class=argparse.RawDescriptionHelpFormatter)
    wp.add_argument("history", help="a history JSON file")
    wp.add_argument("--games", type=bounded("games", 1, 100_000, "continuations per point"), default=100,
                    help="continuations at each point (default 100)")
    wp.add_argument("--first-seed", type=bounded("first-seed", 0, SEED_MAX, "a seed is >= 0"), default=0,
                    help="seed of the first continuation (default 0)")
    wp.add_argument("--cache", metavar="DIR", default=None,
                    help="the folder to write (and look for) the file in (default: the history's folder)")
    _where_flags(wp)
    wp.add_argument("--out", metavar="FILE.json", help="write the analysis to FILE instead of the cache folder")
    wp.add_argument("--json", action="store_true", help="print the analysis as JSON")
    wp.set_defaults(func=cmd_winprob)


def _where_flags(p: argparse.ArgumentParser) -> None:
    p.add_argument("--workers", type=bounded("workers", 1, 1024, "local processes"), default=None,
                   help="local processes (default: one per core)")
    p.add_argument("--scheduler", metavar="ADDRESS", default=None,
                   help="run on the Dask cluster of this scheduler (e.g. tcp://10.0.0.5:8786); see docs/scale.md")
    p.add_argument("--progress", action=argparse.BooleanOptionalAction, default=None,
                   help="show a progress bar (default: on a terminal)")


def resolve_scenario(target: str) -> tuple[Any, str]:
    """The ruleset and scenario a command names: ``GAME/SCENARIO``, a scenario one game has, or a game id."""
    return resolve_target(target, "simulate")


def simulate_parser(rs: Any, scenario: str) -> argparse.ArgumentParser:
    """The flags of ``medviz simulate SCENARIO``: the generic ones and the game's own."""
    p = _FlagParser(prog=f"medviz simulate {scenario}",
                    description=f"Play many games of {rs.title or rs.game}, {scenario}; print who wins with 95% "
                                f"intervals (Wilson). The same seeds give the same rows on any workers.")
    p.add_argument("--games", type=bounded("games", 1, GAMES_MAX, "how many games"), required=True,
                   help="how many games (or continuations)")
    p.add_argument("--first-seed", type=bounded("first-seed", 0, SEED_MAX, "a seed is >= 0"), default=0,
                   help="seed of the first game; the others follow (default 0)")
    p.add_argument("--from", dest="history", metavar="HISTORY",
                   help="continue this history (its players and options) instead of new games")
    p.add_argument("--at", action="append", metavar="ID=VALUE",
                   help="with --from: a what-if, roll or draw ID shows VALUE (repeatable)")
    p.add_argument("--after", type=bounded("after", -1, 10**9, "an event number of the history"), default=None,
                   help="with --from: keep events 0..SEQ as recorded (default: just before the first --at roll)")
    _where_flags(p)
    p.add_argument("--out", metavar="FILE", help="write one row per game to FILE.parquet or FILE.csv")
    p.add_argument("--json", action="store_true", help="print the summary as JSON")
    rs.play_arguments(scenario, p)
    return p


def cmd_simulate(args: argparse.Namespace) -> int:
    """Play the games and print the summary; Ctrl-C keeps (and writes) the games finished."""
    from medviz.analysis.simulate import check_frame_path, continue_history, simulate
    from medviz.engine.history import History

    rs, scenario = resolve_scenario(args.target)
    scenario = rs.play_scenario(scenario, args)
    flags = simulate_parser(rs, scenario).parse_args(args.flags)
    if flags.out is not None:
        check_frame_path(flags.out)
    if flags.history is None:
        if flags.at or flags.after is not None:
            raise MalformedInput("--at and --after continue a history: give it with --from HISTORY")
        flags.seed = flags.first_seed
        options, players = rs.play_setup(scenario, flags)
        sim = simulate(rs, scenario, options, players, flags.games, flags.first_seed, workers=flags.workers,
                       scheduler=flags.scheduler, progress=flags.progress)
    else:
        h = History.load(flags.history)
        if (h.game, h.scenario) != (rs.game, scenario):
            raise MalformedInput(f"--from {flags.history}: a history of {h.game}/{h.scenario}, not {rs.game}/{scenario}")
        at = dict(parse_override(text, "--at") for text in flags.at or [])
        sim = continue_history(h, flags.games, flags.first_seed, after=flags.after, at=at, workers=flags.workers,
                               scheduler=flags.scheduler, progress=flags.progress)
    if flags.out is not None:
        sim.save(flags.out)
    if flags.json:
        sys.stdout.write(sim.to_json())
    else:
        print("\n".join(sim.lines()))
        if flags.out is not None:
            print(f"{len(sim.frame)} rows written to {flags.out}")
    return 130 if sim.interrupted else 0


def cmd_pivotal(args: argparse.Namespace) -> int:
    """Rank the rolls of a history by their swing of the winner's odds; print the top ones."""
    from medviz.analysis.pivotal import pivotal
    from medviz.engine.files import check_output_path, write_atomic
    from medviz.engine.history import History

    if not 0 < args.target < 1:
        raise MalformedInput(f"--target {args.target}: expected a number between 0 and 1 (e.g. 0.05)")
    if args.out is not None:
        check_output_path(args.out, "--out")
    h = History.load(args.history)
    result = pivotal(h, budget=args.budget, first=args.first, target=args.target, first_seed=args.first_seed,
                     rolls=args.roll, measure=args.measure, workers=args.workers, scheduler=args.scheduler,
                     progress=args.progress)
    if args.out is not None:
        write_atomic(args.out, result.to_json())
    if args.json:
        sys.stdout.write(result.to_json())
    else:
        print("\n".join(result.lines(args.top)))
    return 130 if result.interrupted else 0


def cmd_winprob(args: argparse.Namespace) -> int:
    """Write the win-probability file of a history (beside it, or ``--out``) and print its ends."""
    from pathlib import Path

    from medviz.analysis.winprob import cache_path, win_probability
    from medviz.engine.files import check_output_path, write_atomic
    from medviz.engine.history import History

    if args.out is not None and args.cache is not None:
        raise MalformedInput("--out and --cache: give one (--out names the file, --cache the folder)")
    if args.out is not None:
        check_output_path(args.out, "--out")
        directory = None
    else:
        directory = Path(args.cache) if args.cache is not None else Path(args.history).resolve().parent
        if not directory.is_dir():
            raise MalformedInput(f"--cache {directory}: no such folder")
    h = History.load(args.history)
    if directory is not None:
        check_output_path(cache_path(h, directory, args.games, args.first_seed), "--cache")
    result = win_probability(h, args.games, args.first_seed, workers=args.workers, scheduler=args.scheduler,
                             progress=args.progress, cache=directory)
    if args.out is not None:
        write_atomic(args.out, result.to_json())
        where = str(args.out)
    else:
        assert directory is not None
        where = str(cache_path(h, directory, args.games, args.first_seed))
    if args.json:
        sys.stdout.write(result.to_json())
        return 130 if result.interrupted else 0
    points = result.points
    print(f"Win probability of {args.history}: {len(points)} points, {args.games} continuations each"
          + (" (interrupted: the points finished are kept)" if result.interrupted else ""))
    for p in points[:1] + points[-1:] if len(points) > 1 else points:
        odds = ", ".join(f"{side} {o['share']:.0%} ({o['low']:.0%}-{o['high']:.0%})" for side, o in p["odds"].items())
        print(f"  {p['label']}: {odds}")
    if result.interrupted and args.out is None:
        print("not cached: the analysis was interrupted")
    else:
        print(f"written to {where}")
    return 130 if result.interrupted else 0
