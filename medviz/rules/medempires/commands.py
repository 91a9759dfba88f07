"""Mediterranean Empires' own commands (``odds``, ``battle``, ``areas``, ``check-data``) and its ``play`` hooks.

The generic ``medviz play`` and ``medviz branch`` (medviz/cli.py) reach this game through its ruleset:
``play_arguments``/``play_setup``/``summary``/``summary_lines`` are defined here and called by the
ruleset's hooks; ``register`` adds the game's own subcommands (the ruleset's ``command_module``).
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from fractions import Fraction
from typing import Any

from medviz.engine.errors import DataError, MalformedInput
from medviz.engine.files import check_output_path
from medviz.engine.registry import get_ruleset

from medviz.engine.cliargs import bounded, fmt_p, parse_override, print_json
from medviz.engine.dice import SEED_MAX
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

#: ``--units`` of a table roll: more than the counter sheet holds is refused (the last column is 10+).
UNITS_MAX = 99
#: ``--drm``: no modifier in the rules comes near this (King 3, markers, mercenaries).
DRM_MAX = 20


def cmd_odds(args: argparse.Namespace) -> int:
    from medviz.rules.medempires import odds
    from medviz.rules.medempires.one_battle import new_battle

    if args.what in ("field", "raid"):
        if args.units is None:
            raise MalformedInput(f"odds {args.what}: --units N is required")
        if args.units < 1:
            raise MalformedInput(f"odds {args.what}: --units must be at least 1, not {args.units}")
        dist = odds.table_roll_odds(args.what, args.units, args.drm)
        if args.json:
            print_json({k: float(p) for k, p in dist.items()} | {"exact": {k: _fraction(p) for k, p in dist.items()}})
        else:
            print(f"{args.what} table, {args.units} attacking unit(s), DRM {args.drm:+d}:")
            for k, p in dist.items():
                print(f"  {k:5} {fmt_p(p)}  ({p})")
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
        ex = result.exact_summary()
        print_json({"summary": {k: float(v) for k, v in ex.items()},
                    "exact": {k: _fraction(v) for k, v in ex.items()},
                    "choices": doctrine.describe(),
                    "outcomes": [{**row, "probability": float(row["probability"]),
                                  "probability_exact": _fraction(row["probability"])} for row in result.outcomes()]})
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
        print(f"  {fmt_p(row['probability'])}  attacker keeps {left(row['attacker_left'])}; "
              f"defender keeps {left(row['defender_left'])}")
    return 0


def _fraction(p: Fraction) -> str:
    """An exact probability as text: ``"1/6"`` (a whole number as ``"1"``)."""
    return str(p)


def _check_forces(args: argparse.Namespace) -> None:
    """Read both SPECs before any work, so a bad one is refused at once naming its argument."""
    from medviz.rules.medempires.combat import parse_force
    from medviz.rules.medempires.one_battle import power_ids

    for flag, spec in (("--attacker", args.attacker), ("--defender", args.defender)):
        if spec is not None:
            parse_force(spec, flag.lstrip("-"), power_ids(), flag)



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
    RULESET = get_ruleset("medempires")  # this game, through the registry (no import circle)

    overrides = dict(parse_override(o) for o in args.override or [])
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



def force_args(sp: Any) -> None:
    """The flags that describe one battle: both forces, a city, OPs left, an interception."""
    sp.add_argument("--attacker", metavar="SPEC", help="attacking force (see SPEC below)")
    sp.add_argument("--defender", metavar="SPEC", help="defending force")
    sp.add_argument("--city", action="store_true", help="the land area has a city (siege train, coup de main)")
    sp.add_argument("--ops", type=bounded("ops", 0, OPS_MAX, "a force has at most 15 OPs, 10.0"), default=0,
                    help=f"OPs left for new combats after a NE (2 each; 0..{OPS_MAX})")
    sp.add_argument("--interception", action="store_true", help="an interception: no avoid-combat roll (10.2)")


def odds_arguments(o: Any) -> None:
    """``medviz odds`` for this game: one table roll (field, raid) or a whole battle, under stated choices."""
    o.description = ("Exact odds (no sampling).\n  medviz odds field --units 3 --drm 1\n"
                     "  medviz odds battle --attacker aragon:2FA,1L,K2 --defender anjou:3FA\n\n" + SPEC_HELP)
    o.add_argument("what", choices=["field", "raid", "battle"], help="a table (one roll) or a whole battle")
    o.add_argument("--units", type=bounded("units", -UNITS_MAX, UNITS_MAX, "units on the table"),
                   help="attacking units as counted on the table (field/raid)")
    o.add_argument("--drm", type=bounded("drm", -DRM_MAX, DRM_MAX, "a die roll modifier"), default=0,
                   help=f"total die roll modifier (field/raid; -{DRM_MAX}..{DRM_MAX})")
    force_args(o)
    o.add_argument("--defender-avoids", action="store_true", help="the defender tries to avoid combat")
    o.add_argument("--doctrine", metavar="SETTINGS", help="choices, e.g. 'table=field,counterattack=false'")
    o.add_argument("--json", action="store_true", help="print JSON")


def register_battle_commands(sub: Any) -> None:
    """Add ``battle`` (one battle, die by die) to the command."""
    b = sub.add_parser("battle", help="resolve one battle and print (or save) its history",
                       description="Resolve one battle, die by die.\n"
                                   "  medviz battle --attacker aragon:2FA,1L,K2 --defender anjou:3FA --seed 3\n"
                                   "  medviz battle ... --override battle-1/combat-1/round-1/attacker=6 --out h.json\n\n"
                                   + SPEC_HELP, formatter_class=argparse.RawDescriptionHelpFormatter)
    force_args(b)
    b.add_argument("--seed", type=bounded("seed", -SEED_MAX, SEED_MAX, "a seed is a whole number >= 0 below 2**63"),
                   default=0, help="seed of the natural dice (default 0)")
    b.add_argument("--override", action="append", metavar="ROLL=VALUE", help="force a die (repeatable)")
    b.add_argument("--attacker-player", default="doctrine", metavar="POLICY", help="doctrine | random[:SEED] | first")
    b.add_argument("--defender-player", default="doctrine", metavar="POLICY", help="doctrine | random[:SEED] | first")
    b.add_argument("--out", metavar="FILE", help="write the history JSON to FILE")
    b.add_argument("--json", action="store_true", help="print the history JSON")
    b.set_defaults(func=cmd_battle)


POLICIES = ("random", "heuristic", "historical", "expert")


def _policy(spec: str, side: str, seed: int) -> Any:
    from medviz.engine.policy import RandomPolicy, parse_policy
    RULESET = get_ruleset("medempires")  # this game, through the registry (no import circle)

    flag = f"--player-{side.lower()}"
    name = spec.partition(":")[0]
    if name not in POLICIES:
        raise MalformedInput(f"{flag} {spec[:60]!r}: a whole game's player is random[:SEED], heuristic, historical or "
                             "expert[:budget=N,width=W,horizon=H,politics=P,plans=R,seed=S]"
                             + (" (doctrine plays single battles: medviz battle)" if name == "doctrine" else ""))
    if name not in ("random", "expert") and spec != name:
        raise MalformedInput(f"{flag} {spec[:60]!r}: {name} takes no ':' setting")
    if name == "random" and spec != "random" and not re.fullmatch(r"random:[0-9]{1,18}", spec):
        raise MalformedInput(f"{flag} {spec[:60]!r}: the seed after 'random:' is a whole number of at most 18 digits")
    if spec == "random":
        return RandomPolicy(seed * 2 + (0 if side == "A" else 1))
    if spec == "historical" and "historical" not in RULESET.policies:
        raise MalformedInput("player policy 'historical' is not available")
    return parse_policy(spec, RULESET.policies)


def summary(h: Any) -> dict[str, Any]:
    """What a reader wants from a finished game: result, cities that changed hands, battles, deaths.

    Names come from the map and data the game was played with (its override files, if any).
    """
    s = h.final_state
    m = s.map.areas
    changed = []
    for a in sorted(s.ctl):
        if m[a].city and s.start_ctl.get(a) != s.ctl.get(a):
            changed.append({"area": a, "city": m[a].city, "from": s.start_ctl.get(a), "to": s.ctl.get(a)})
    kings = [{"turn": k["turn"], "king": s.data.kings[k["king"]].name, "cause": k["cause"]}
             for k in s.chronicle["kings_died"]]
    return {
        "scenario": h.scenario, "seed": h.seed, "outcome": h.outcome,
        "players": {a: p.spec for a, p in sorted(h.spec.players.items())},
        "cities_changed_hands": changed,
        "battles": len(s.chronicle["battles"]),
        "battle_list": [dict(b) for b in s.chronicle["battles"]],
        "kings_died": kings,
        "popes_died": [p["turn"] for p in s.chronicle["popes_died"]],
        "events": len(h.events),
        "data": s.data_pair.label if s.data_pair is not None else "shipped data",
    }


def _area_name(pair: Any, area: str) -> str:
    """An area id as its name in the map of ``pair`` (a ``DataPair``)."""
    a = pair.game_map.areas.get(area)
    return a.name if a else area


def _holder_name(pair: Any, holder: str | None) -> str:
    """Who holds an area, in words (names from ``pair``): a player, both (partial), a neutral or vassal power, or nobody."""
    if holder is None:
        return "nobody"
    if holder in ("A", "B"):
        return f"Player {holder}"
    if holder == "partial":
        return "both sides (partial control)"
    p = pair.game_data.powers.get(holder)
    return p.name if p else holder


def play_arguments(parser: Any) -> None:
    """This game's flags for ``medviz play``: the two players, optional rules, override files."""
    parser.add_argument("--player-a", default="heuristic", metavar="POLICY",
                        help="random[:SEED] | heuristic | historical | expert[:budget=N,width=W,horizon=H,politics=P,plans=R,seed=S] "
                             "(default heuristic; expert looks ahead, docs/rules-coverage.md)")
    parser.add_argument("--player-b", default="heuristic", metavar="POLICY",
                        help="random[:SEED] | heuristic | historical | expert[:budget=N,width=W,horizon=H,politics=P,plans=R,seed=S] "
                             "(default heuristic; expert looks ahead, docs/rules-coverage.md)")
    parser.add_argument("--option", action="append", metavar="NAME",
                        help="switch on an optional rule (repeatable): mercenaries, poison, territorial_concessions, "
                             "vespers_taken_at_game_end, coastal_raids_need_mercenaries_rule, dead_kings_stay_dead "
                             "(docs/data-provenance.md says what each does)")
    parser.add_argument("--map", metavar="FILE",
                        help="a map override file (TOML, [[area]]/[[strait]] entries replacing the shipped ones by "
                             "id, each with rule = or reconstructed =): your own copy of the physical map; "
                             "see docs/data-provenance.md and docs/examples/my-map.toml")
    parser.add_argument("--data", metavar="FILE",
                        help="a game-data override file (TOML, [[<file>.<table>]] entries: counters, Kings, "
                             "scenarios...), each entry with provenance; see docs/data-provenance.md and "
                             "docs/examples/my-counters.toml")


def play_setup(scenario: str, args: argparse.Namespace) -> tuple[dict[str, Any], dict[str, Any]]:
    """The options and players of ``medviz play`` from this game's flags (override files checked first)."""
    from medviz.rules.medempires.game.setup import override_options, parse_options

    args.all_problems_hint = _check_data_hint(args)
    options: dict[str, Any] = {name: True for name in (args.option or [])}
    options.update(override_options(map_file=args.map, data_file=args.data))
    parse_options(scenario, options)  # checks switches and override files before playing
    players = {"A": _policy(args.player_a, "A", args.seed), "B": _policy(args.player_b, "B", args.seed)}
    return options, players


def summary_lines(h: Any, info: dict[str, Any]) -> list[str]:
    """``medviz play``'s summary in words: winner and why, VP, cities that changed hands, battles, deaths."""
    o = h.outcome
    names = {"A": "Player A (France and Anjou)", "B": "Player B (Aragon)", "draw": "nobody (a draw)"}
    out = [f"{h.scenario}, seed {h.seed}: {info['players']['A']} (A) vs {info['players']['B']} (B)"]
    if info["data"] != "shipped data":
        out.append(f"Played with: {info['data']}")
    out += [f"Winner: {names[o['winner']]}", f"Why: {o['reason']}", f"VP: A {o['vp']['A']}, B {o['vp']['B']}"]
    if info["cities_changed_hands"]:
        out.append("Cities that changed hands:")
        from medviz.rules.medempires.game.state import pair_of

        pair = pair_of(h)  # the game's own names (override files)
        for c in info["cities_changed_hands"]:
            out.append(f"  {c['city']} ({_area_name(pair, c['area'])}): {_holder_name(pair, c['from'])} -> "
                       f"{_holder_name(pair, c['to'])}")
    else:
        out.append("Cities that changed hands: none")
    by_kind = {"land": 0, "sea": 0}
    for b in info["battle_list"]:
        by_kind[b["kind"]] += 1
    out.append(f"Battles fought: {info['battles']} ({by_kind['land']} on land, {by_kind['sea']} at sea)")
    if info["kings_died"]:
        out.append("Kings who died: " + "; ".join(f"{k['king']} (GT{k['turn']}, {k['cause']})"
                                                   for k in info["kings_died"]))
    else:
        out.append("Kings who died: none")
    out.append("Popes who died: " + (", ".join(f"GT{t}" for t in info["popes_died"]) or "none"))
    return out


def cmd_areas(args: argparse.Namespace) -> int:
    """List the map's areas (the shipped map, or the one a ``--map`` override file makes)."""
    from medviz.rules.medempires.game.setup import data_for_options, override_options
    from medviz.rules.medempires.game.datapair import shipped_data

    args.all_problems_hint = _check_data_hint(args)
    pair = data_for_options("areas", override_options(map_file=args.map)) if args.map is not None else None
    m = (pair or shipped_data()).game_map
    rows: list[dict[str, Any]] = []
    for a in sorted(m.areas.values(), key=lambda x: (x.kind, x.id)):
        rows.append({"id": a.id, "name": a.name, "kind": a.kind, "city": a.city,
                     "neighbours": sorted(a.neighbours), "coasts": sorted(a.coasts), "ports": sorted(a.ports),
                     "provenance": a.provenance})
    if args.json:
        print(json.dumps(rows, indent=2, ensure_ascii=False))
        return 0
    for r in rows:
        city = f", city {r['city']}" if r["city"] else ""
        print(f"{r['id']} ({r['kind']}{city}): {r['name']}")
        print(f"  neighbours: {', '.join(r['neighbours']) or '-'}")
        if r["coasts"]:
            print(f"  coasts: {', '.join(r['coasts'])}")
        print(f"  provenance: {r['provenance']}")
    return 0


def _check_data_hint(args: argparse.Namespace) -> str:
    """How to list every problem of the override files the command was given (for one-line errors)."""
    files = [f"--{k} {getattr(args, k)}" for k in ("map", "data") if getattr(args, k, None) is not None]
    return f"medviz check-data {' '.join(files)} lists them all" if files else ""


def cmd_check_data(args: argparse.Namespace) -> int:
    """Check override files as ``play`` would; print every problem, one a line (exit 2 if any)."""
    from medviz.rules.medempires.game.setup import data_for_options, override_options

    if args.map is None and args.data is None:
        raise MalformedInput("check-data: give --map FILE and/or --data FILE")
    try:
        data_for_options("check-data", override_options(map_file=args.map, data_file=args.data))
    except DataError as exc:
        print(str(exc).splitlines()[0])
        for problem in exc.problems:
            print(f"  - {problem}")
        return 2
    print(f"{' and '.join(str(f) for f in (args.map, args.data) if f is not None)}: no problems")
    return 0


def register(sub: Any) -> None:
    """Add this game's own commands: ``odds``, ``battle``, ``areas``, ``check-data``."""
    register_battle_commands(sub)
    a = sub.add_parser("areas", help="list the map's areas (kind, city, neighbours, provenance)")
    a.add_argument("--map", metavar="FILE", help="show the map as a map override file changes it "
                                                 "(see docs/data-provenance.md)")
    a.add_argument("--json", action="store_true", help="print JSON")
    a.set_defaults(func=cmd_areas)

    c = sub.add_parser("check-data", help="check map / game-data override files and list every problem",
                       description="Check override files exactly as `medviz play` loads them and list every "
                                   "problem, one a line (exit 2 if there is any).\n"
                                   "  medviz check-data --map my-map.toml --data my-counters.toml",
                       formatter_class=argparse.RawDescriptionHelpFormatter)
    c.add_argument("--map", metavar="FILE", help="a map override file")
    c.add_argument("--data", metavar="FILE", help="a game-data override file")
    c.set_defaults(func=cmd_check_data)


__all__ = ["POLICIES", "cmd_areas", "cmd_battle", "cmd_check_data", "cmd_odds", "play_arguments", "play_setup",
           "register", "summary", "summary_lines"]
