"""CLI commands of the whole game: ``medviz play`` and ``medviz areas``.

``medviz branch`` (in medviz/cli.py) works on whole-game histories as on battles.
"""

from __future__ import annotations

import argparse
import json
import re
from typing import Any

from medviz.engine.errors import DataError, MalformedInput
from medviz.engine.files import check_output_path

POLICIES = ("random", "heuristic", "historical")


def _policy(spec: str, side: str, seed: int) -> Any:
    from medviz.engine.policy import RandomPolicy, parse_policy
    from medviz.rules.medempires.ruleset import RULESET

    flag = f"--player-{side.lower()}"
    name = spec.partition(":")[0]
    if name not in POLICIES:
        raise MalformedInput(f"{flag} {spec[:60]!r}: a whole game's player is random[:SEED], heuristic or historical"
                             + (" (doctrine plays single battles: medviz battle)" if name == "doctrine" else ""))
    if name != "random" and spec != name:
        raise MalformedInput(f"{flag} {spec[:60]!r}: {name} takes no ':' setting")
    if name == "random" and spec != "random" and not re.fullmatch(r"random:[0-9]{1,18}", spec):
        raise MalformedInput(f"{flag} {spec[:60]!r}: the seed after 'random:' is a whole number of at most 18 digits")
    if spec == "random":
        return RandomPolicy(seed * 2 + (0 if side == "A" else 1))
    if spec == "historical" and "historical" not in RULESET.policies:
        raise MalformedInput("player policy 'historical' is not available")
    return parse_policy(spec, RULESET.policies)


def _seed(text: str) -> int:
    """``--seed``: a whole number 0 .. 2**63-1 (it is kept in the history's JSON)."""
    from medviz.engine.dice import SEED_MAX

    if not re.fullmatch(r"\s*[+-]?[0-9]{1,19}\s*", text) or abs(int(text)) > SEED_MAX:
        raise argparse.ArgumentTypeError(f"{text[:40]!r} is not a whole number 0..{SEED_MAX}")
    return int(text)


def summary(h: Any) -> dict[str, Any]:
    """What a reader wants from a finished game: result, cities that changed hands, battles, deaths.

    Names come from the map and data the game was played with (its override files, if any).
    """
    from medviz.rules.medempires.game.state import using_data

    with using_data(h):
        return _summary(h)


def _summary(h: Any) -> dict[str, Any]:
    from medviz.rules.medempires.game.state import game_data, game_map

    s = h.final_state
    m = game_map().areas
    changed = []
    for a in sorted(s.ctl):
        if m[a].city and s.start_ctl.get(a) != s.ctl.get(a):
            changed.append({"area": a, "city": m[a].city, "from": s.start_ctl.get(a), "to": s.ctl.get(a)})
    kings = [{"turn": k["turn"], "king": game_data().kings[k["king"]].name, "cause": k["cause"]}
             for k in s.chronicle["kings_died"]]
    return {
        "scenario": h.scenario, "seed": h.seed, "outcome": h.outcome,
        "players": {a: p.spec for a, p in sorted(h.spec.players.items())},
        "cities_changed_hands": changed,
        "battles": len(s.chronicle["battles"]),
        "battle_list": s.chronicle["battles"],
        "kings_died": kings,
        "popes_died": [p["turn"] for p in s.chronicle["popes_died"]],
        "events": len(h.events),
        "data": s.data_pair.label if s.data_pair is not None else "shipped data",
    }


def _area_name(area: str) -> str:
    """An area id as its name in the active game's map."""
    from medviz.rules.medempires.game.state import game_map

    a = game_map().areas.get(area)
    return a.name if a else area


def _holder_name(holder: str | None) -> str:
    """Who holds an area, in words: a player, both (partial), a neutral or vassal power, or nobody."""
    from medviz.rules.medempires.game.state import game_data

    if holder is None:
        return "nobody"
    if holder in ("A", "B"):
        return f"Player {holder}"
    if holder == "partial":
        return "both sides (partial control)"
    p = game_data().powers.get(holder)
    return p.name if p else holder


def cmd_play(args: argparse.Namespace) -> int:
    """Play a whole game and print its summary (or save its history)."""
    from medviz.engine import play
    from medviz.rules.medempires.game.setup import override_options, parse_options
    from medviz.rules.medempires.ruleset import RULESET

    if args.seed < 0:
        raise MalformedInput(f"--seed must be a whole number >= 0, not {args.seed}")
    if args.out is not None:
        check_output_path(args.out, "--out")
    args.all_problems_hint = _check_data_hint(args)
    options: dict[str, Any] = {name: True for name in (args.option or [])}
    options.update(override_options(map_file=args.map, data_file=args.data))
    parse_options(args.scenario, options)  # checks switches and override files before playing
    players = {"A": _policy(args.player_a, "A", args.seed), "B": _policy(args.player_b, "B", args.seed)}
    h = play(RULESET, args.scenario, options, seed=args.seed, players=players)
    if args.out is not None:
        h.save(args.out)
    info: dict[str, Any] = summary(h)
    if args.json:
        info.pop("battle_list")
        print(json.dumps(info, indent=2, ensure_ascii=False))
        return 0
    o = h.outcome
    names = {"A": "Player A (France and Anjou)", "B": "Player B (Aragon)", "draw": "nobody (a draw)"}
    print(f"{h.scenario}, seed {h.seed}: {info['players']['A']} (A) vs {info['players']['B']} (B)")
    if info["data"] != "shipped data":
        print(f"Played with: {info['data']}")
    print(f"Winner: {names[o['winner']]}")
    print(f"Why: {o['reason']}")
    print(f"VP: A {o['vp']['A']}, B {o['vp']['B']}")
    if info["cities_changed_hands"]:
        print("Cities that changed hands:")
        from medviz.rules.medempires.game.state import using_data

        with using_data(h):  # the game's own names (override files)
            for c in info["cities_changed_hands"]:
                print(f"  {c['city']} ({_area_name(c['area'])}): {_holder_name(c['from'])} -> {_holder_name(c['to'])}")
    else:
        print("Cities that changed hands: none")
    by_kind = {"land": 0, "sea": 0}
    for b in info["battle_list"]:
        by_kind[b["kind"]] += 1
    print(f"Battles fought: {info['battles']} ({by_kind['land']} on land, {by_kind['sea']} at sea)")
    if info["kings_died"]:
        print("Kings who died: " + "; ".join(f"{k['king']} (GT{k['turn']}, {k['cause']})" for k in info["kings_died"]))
    else:
        print("Kings who died: none")
    print("Popes who died: " + (", ".join(f"GT{t}" for t in info["popes_died"]) or "none"))
    if args.out is not None:
        print(f"History written to {args.out} ({info['events']} events)")
    return 0


def cmd_areas(args: argparse.Namespace) -> int:
    """List the map's areas (the shipped map, or the one a ``--map`` override file makes)."""
    from medviz.rules.medempires.game.setup import data_for_options, override_options
    from medviz.rules.medempires.game.state import shipped_data

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
    """Add ``play`` and ``areas`` to the ``medviz`` command."""
    p = sub.add_parser("play", help="play a whole game of Mediterranean Empires",
                       description="Play a whole game and print who won and why.\n"
                                   "  medviz play vespers-1282 --seed 3 --player-a heuristic --player-b random\n"
                                   "  medviz play standard --option mercenaries --out game.json\n"
                                   "  medviz play vespers-1282 --map my-map.toml --data my-counters.toml\n"
                                   "  medviz branch game.json --roll GT1/ops-A/force-1/ops --value 12",
                       formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("scenario", choices=["standard", "vespers-1282"], help="the scenario (4.0 or 13.0)")
    p.add_argument("--seed", type=_seed, default=0, help="seed of the natural dice and draws (default 0)")
    p.add_argument("--player-a", default="heuristic", metavar="POLICY",
                   help="random[:SEED] | heuristic | historical (default heuristic)")
    p.add_argument("--player-b", default="heuristic", metavar="POLICY",
                   help="random[:SEED] | heuristic | historical (default heuristic)")
    p.add_argument("--option", action="append", metavar="NAME",
                   help="switch on an optional rule (repeatable): mercenaries, poison, territorial_concessions, "
                        "vespers_taken_at_game_end, coastal_raids_need_mercenaries_rule, dead_kings_stay_dead "
                        "(docs/data-provenance.md says what each does)")
    p.add_argument("--map", metavar="FILE",
                   help="a map override file (TOML, [[area]]/[[strait]] entries replacing the shipped ones by "
                        "id, each with rule = or reconstructed =): your own copy of the physical map; "
                        "see docs/data-provenance.md and docs/examples/my-map.toml")
    p.add_argument("--data", metavar="FILE",
                   help="a game-data override file (TOML, [[<file>.<table>]] entries: counters, Kings, "
                        "scenarios...), each entry with provenance; see docs/data-provenance.md and "
                        "docs/examples/my-counters.toml")
    p.add_argument("--out", metavar="FILE", help="write the game's history JSON to FILE (it carries the "
                                                  "override files' content, so it replays anywhere)")
    p.add_argument("--json", action="store_true", help="print the summary as JSON")
    p.set_defaults(func=cmd_play)

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


__all__ = ["POLICIES", "cmd_areas", "cmd_check_data", "cmd_play", "register", "summary"]
