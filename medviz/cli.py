"""The ``medviz`` command: battles, exact odds, branches, maps.

User errors print one line on stderr and exit with status 2; no traceback, no half-written file.
"""

from __future__ import annotations

import argparse
import importlib
import json
import re
import sys
from collections.abc import Callable, Sequence
from fractions import Fraction
from typing import Any, NoReturn

from medviz.engine.dice import SEED_MAX
from medviz.engine.errors import DataError, MalformedInput, MedvizError
from medviz.engine.files import check_output_path
from medviz.rules.medempires.combat import OPS_MAX

SPEC_HELP = """\
Force SPEC: POWER:ITEM,ITEM,...  e.g.  aragon:2FA,1L,1M,K2
  items: <n>FA field armies, <n>L levies, <n>R raiders, <n>M mercenaries (Aragon only),
         <n>F fleets, K<n> a King of military value n (one per side);
         battle stratagem markers <n>MA military advantage, <n>AMB ambush,
         1ST siege train, 1CDM coup de main.
  The defender may join several powers with '+':  sicily:2FA+aragon:1M
  Fleets fight only fleets (11.3): an all-fleet battle is a naval battle.
"""

#: Extra subcommand modules: each has ``register(subparsers)`` (added by later layers).
COMMAND_MODULES = ("medviz.geo.commands", "medviz.rules.medempires.commands", "medviz.export.commands")


class _Parser(argparse.ArgumentParser):
    """argparse that reports usage errors on one line and exits 2."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"{self.prog}: error: {message} (see '{self.prog} --help')\n")


#: ``--units`` of a table roll: more than the counter sheet holds is refused (the last column is 10+).
UNITS_MAX = 99
#: ``--drm``: no modifier in the rules comes near this (King 3, markers, mercenaries).
DRM_MAX = 20
_INT_RE = re.compile(r"^[+-]?[0-9]{1,18}$")


def _bounded(name: str, lo: int, hi: int, why: str) -> Callable[[str], int]:
    """An argparse type: a whole number ``lo``..``hi``; anything else is a one-line usage error."""

    def parse(text: str) -> int:
        value = text.strip()
        if not _INT_RE.match(value):
            raise argparse.ArgumentTypeError(f"{text[:40]!r} is not a whole number")
        n = int(value)
        if not lo <= n <= hi:
            raise argparse.ArgumentTypeError(f"{n} is out of range {lo}..{hi} ({why})")
        return n

    parse.__name__ = name
    return parse


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


def _fmt_p(p: Fraction | float) -> str:
    return f"{float(p):7.2%}"


def _print_json(data: Any) -> None:
    print(json.dumps(data, indent=2, ensure_ascii=False, default=_json_default))


def _json_default(v: Any) -> Any:
    if isinstance(v, Fraction):
        return round(float(v), 4)
    raise TypeError(repr(v))


# -- odds -------------------------------------------------------------------------------------
def cmd_odds(args: argparse.Namespace) -> int:
    from medviz.rules.medempires import odds
    from medviz.rules.medempires.ruleset import new_battle

    if args.what in ("field", "raid"):
        if args.units is None:
            raise MalformedInput(f"odds {args.what}: --units N is required")
        if args.units < 1:
            raise MalformedInput(f"odds {args.what}: --units must be at least 1, not {args.units}")
        dist = odds.table_roll_odds(args.what, args.units, args.drm)
        if args.json:
            _print_json({k: round(float(p), 4) for k, p in dist.items()})
        else:
            print(f"{args.what} table, {args.units} attacking unit(s), DRM {args.drm:+d}:")
            for k, p in dist.items():
                print(f"  {k:5} {_fmt_p(p)}  ({p})")
        return 0
    if not args.attacker or not args.defender:
        raise MalformedInput("odds battle: --attacker SPEC and --defender SPEC are required")
    _check_forces(args)
    b = new_battle({"attacker": args.attacker, "defender": args.defender, "city": args.city,
                    "ops": args.ops, "interception": args.interception})
    try:
        doctrine = odds.Doctrine.from_spec(args.doctrine or "")
    except MalformedInput as exc:
        raise MalformedInput(f"--doctrine {args.doctrine[:60]!r}: {exc}") from None
    if args.defender_avoids:
        doctrine = odds.Doctrine(**{**doctrine.__dict__, "avoid": True})
    result = odds.battle_odds(b, doctrine)
    if args.json:
        _print_json({"summary": result.summary(), "choices": doctrine.describe(),
                     "outcomes": result.outcomes()})
        return 0
    s = result.summary()
    print(f"Exact odds, {b.kind} battle{' in a city area' if b.city else ''}:")
    for label, key in (("attacker destroys the defender", "attacker_wins"),
                       ("defender destroys the attacker", "defender_wins"),
                       ("both sides keep units", "both_stand"),
                       ("both sides destroyed", "both_destroyed")):
        print(f"  {label:32} {s[key]:7.2%}")
    if s["avoided"]:
        print(f"  (of which combat avoided)        {s['avoided']:7.2%}")
    print(f"  expected losses: attacker {s['attacker_expected_losses']:.2f}, defender {s['defender_expected_losses']:.2f}")
    for side in ("attacker", "defender"):
        if s[f"{side}_king_killed"]:
            print(f"  {side} King killed (8.1)        {s[side + '_king_killed']:7.2%}")
    print("Stated choices:")
    for line in doctrine.describe():
        print(f"  - {line}")
    print("Most likely outcomes:")
    def left(d: dict[str, int]) -> str:
        return ", ".join(f"{n} {k}" for k, n in d.items()) or "nothing"

    for row in result.outcomes()[:8]:
        print(f"  {_fmt_p(row['probability'])}  attacker keeps {left(row['attacker_left'])}; "
              f"defender keeps {left(row['defender_left'])}")
    return 0


# -- battle / branch ------------------------------------------------------------------------
def _check_forces(args: argparse.Namespace) -> None:
    """Read both SPECs before any work, so a bad one is refused at once naming its argument."""
    from medviz.rules.medempires.combat import parse_force
    from medviz.rules.medempires.ruleset import power_ids

    for flag, spec in (("--attacker", args.attacker), ("--defender", args.defender)):
        if spec is not None:
            parse_force(spec, flag.lstrip("-"), power_ids(), flag)


def _parse_override(text: str) -> tuple[str, Any]:
    """``ROLL_ID=VALUE`` of ``--override``; the id is everything before the first ``=``."""
    roll, sep, value = text.partition("=")
    if not sep or not roll.strip():
        raise MalformedInput(f"--override {text[:80]!r}: expected ROLL_ID=VALUE")
    return roll.strip(), _parse_value(value, f"--override {text[:80]!r}")


def _parse_value(text: str, where: str) -> Any:
    """A die value (a whole number, ASCII digits, at most 18 of them) or a draw's text.

    Text that starts like a number but is not one (``--5``, ``²``, ``1e3``, 5,000 digits) is refused.
    """
    text = text.strip()
    if not text:
        raise MalformedInput(f"{where}: empty value")
    if _INT_RE.match(text):
        return int(text)
    if text[0] in "+-" or text[0].isdigit() or text[0].isnumeric():
        raise MalformedInput(f"{where}: {text[:40]!r} is not a whole number (write e.g. 3)")
    if len(text) > 200 or not text.isprintable():
        raise MalformedInput(f"{where}: {text[:40]!r} is not a value any roll or draw can take")
    return text


def _emit_history(h: Any, args: argparse.Namespace) -> None:
    if args.out is not None:
        h.save(args.out)
    if args.json and not args.out:
        sys.stdout.write(h.to_json(indent=1))
        return
    for e in h.events:
        if e.kind in ("roll", "change", "report", "draw") or (e.kind == "decision" and e.source != "forced"):
            text = h.describe(e)
            if "begins" in text and e.kind == "change":
                continue
            print(f"  [{e.seq:3}] {text}")
    o = h.outcome
    print(f"Winner: {o['winner']}; survivors: attacker {o['survivors']['attacker'] or 'none'}, "
          f"defender {o['survivors']['defender'] or 'none'}")
    if args.out is not None:
        print(f"History written to {args.out}")


def cmd_battle(args: argparse.Namespace) -> int:
    from medviz.engine import play
    from medviz.engine.policy import parse_policy
    from medviz.rules.medempires.ruleset import RULESET

    overrides = dict(_parse_override(o) for o in args.override or [])
    if args.out is not None:
        check_output_path(args.out, "--out")
    _check_forces(args)
    options = {"attacker": args.attacker, "defender": args.defender, "city": args.city, "ops": args.ops,
               "interception": args.interception}
    players = {"attacker": parse_policy(args.attacker_player, RULESET.policies),
               "defender": parse_policy(args.defender_player, RULESET.policies)}
    h = play(RULESET, "battle", options, seed=args.seed, players=players, overrides=overrides)
    _emit_history(h, args)
    return 0


def cmd_branch(args: argparse.Namespace) -> int:
    from medviz.engine import History, diff

    value = _parse_value(args.value, "--value")
    if args.out is not None:
        check_output_path(args.out, "--out")
    h = History.load(args.history)
    child = h.branch(args.roll, value)
    if args.out is not None:
        child.save(args.out)
    if args.json and not args.out:
        sys.stdout.write(child.to_json(indent=1))
        return 0
    d = diff(h, child)
    print(f"Branch: {args.roll} = {args.value} (re-run from event {child.replayed_from})")
    print(d.summary(h.describe))
    if args.out is not None:
        print(f"History written to {args.out}")
    return 0


# -- parser -----------------------------------------------------------------------------------
def build_parser() -> argparse.ArgumentParser:
    """The argument parser of the ``medviz`` command."""
    p = _Parser(prog="medviz", description="Historical board wargames: replay, branch, odds.",
                formatter_class=argparse.RawDescriptionHelpFormatter)
    from medviz import __version__

    p.add_argument("--version", action="version", version=f"medviz {__version__}")
    sub = p.add_subparsers(dest="command", required=True, parser_class=_Parser)

    def force_args(sp: argparse.ArgumentParser) -> None:
        sp.add_argument("--attacker", metavar="SPEC", help="attacking force (see SPEC below)")
        sp.add_argument("--defender", metavar="SPEC", help="defending force")
        sp.add_argument("--city", action="store_true", help="the land area has a city (siege train, coup de main)")
        sp.add_argument("--ops", type=_bounded("ops", 0, OPS_MAX, "a force has at most 15 OPs, 10.0"), default=0,
                        help=f"OPs left for new combats after a NE (2 each; 0..{OPS_MAX})")
        sp.add_argument("--interception", action="store_true", help="an interception: no avoid-combat roll (10.2)")

    o = sub.add_parser("odds", help="exact odds of one table roll or a whole battle",
                       description="Exact odds (no sampling).\n  medviz odds field --units 3 --drm 1\n"
                                   "  medviz odds battle --attacker aragon:2FA,1L,K2 --defender anjou:3FA\n\n" + SPEC_HELP,
                       formatter_class=argparse.RawDescriptionHelpFormatter)
    o.add_argument("what", choices=["field", "raid", "battle"], help="a table (one roll) or a whole battle")
    o.add_argument("--units", type=_bounded("units", -UNITS_MAX, UNITS_MAX, "units on the table"),
                   help="attacking units as counted on the table (field/raid)")
    o.add_argument("--drm", type=_bounded("drm", -DRM_MAX, DRM_MAX, "a die roll modifier"), default=0,
                   help=f"total die roll modifier (field/raid; -{DRM_MAX}..{DRM_MAX})")
    force_args(o)
    o.add_argument("--defender-avoids", action="store_true", help="the defender tries to avoid combat")
    o.add_argument("--doctrine", metavar="SETTINGS", help="choices, e.g. 'table=field,counterattack=false'")
    o.add_argument("--json", action="store_true", help="print JSON")
    o.set_defaults(func=cmd_odds)

    b = sub.add_parser("battle", help="resolve one battle and print (or save) its history",
                       description="Resolve one battle, die by die.\n"
                                   "  medviz battle --attacker aragon:2FA,1L,K2 --defender anjou:3FA --seed 3\n"
                                   "  medviz battle ... --override battle-1/combat-1/round-1/attacker=6 --out h.json\n\n"
                                   + SPEC_HELP, formatter_class=argparse.RawDescriptionHelpFormatter)
    force_args(b)
    b.add_argument("--seed", type=_bounded("seed", -SEED_MAX, SEED_MAX, "a seed is a whole number >= 0 below 2**63"),
                   default=0, help="seed of the natural dice (default 0)")
    b.add_argument("--override", action="append", metavar="ROLL=VALUE", help="force a die (repeatable)")
    b.add_argument("--attacker-player", default="doctrine", metavar="POLICY", help="doctrine | random[:SEED] | first")
    b.add_argument("--defender-player", default="doctrine", metavar="POLICY", help="doctrine | random[:SEED] | first")
    b.add_argument("--out", metavar="FILE", help="write the history JSON to FILE")
    b.add_argument("--json", action="store_true", help="print the history JSON")
    b.set_defaults(func=cmd_battle)

    br = sub.add_parser("branch", help="change one die of a saved history and compare",
                        description="  medviz branch h.json --roll battle-1/combat-1/round-1/attacker --value 2")
    br.add_argument("history", help="a history JSON file")
    br.add_argument("--roll", required=True, help="the roll id to change")
    br.add_argument("--value", required=True, help="its new value")
    br.add_argument("--out", metavar="FILE", help="write the branch's history JSON to FILE")
    br.add_argument("--json", action="store_true", help="print the branch's history JSON")
    br.set_defaults(func=cmd_branch)

    for name in COMMAND_MODULES:
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
    parser = build_parser()
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
