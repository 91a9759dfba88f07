"""Why Player A wins the Vespers: which part of 13.0 each game turns on, over many games.

    PYTHONPATH=. .venv/bin/python tools/vespers_why.py --games 100
    PYTHONPATH=. .venv/bin/python tools/vespers_why.py --games 100 --option vespers_taken_at_game_end
    PYTHONPATH=. .venv/bin/python tools/vespers_why.py --a heuristic --b expert:budget=4 --games 10
    PYTHONPATH=. .venv/bin/python tools/vespers_why.py --a historical --b historical --games 200 --jobs 2

For each game (seeds 0..GAMES-1) it records who won, whether France "took" one of Aragon's four
guarded areas (13.0, at any moment under ruling C), whether Aragon
holds each of Sicily's two areas and Malta at the end, and whether Sicily stopped being
Aragon's ally through a political attempt of Player A (7.0-7.3) and in which turn. It also
counts how closely a game follows the war of 1282-1310 (``history_marks``): Aragon holds both
Sicilian areas at the end, Aragon's side fights for Malta in GT1 (a battle with dice rolled in
the Strait of Sicily or on Malta: Lauria's victory of 1283), French land units enter Catalonia
(Rosselló or the Catalan counties, Philip III's crusade of 1285) in GT1. Prints counts.
"""

from __future__ import annotations

import argparse
from collections import Counter
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from medviz.engine import play
from medviz.engine.events import ChangeEvent
from medviz.engine.policy import RandomPolicy, parse_policy
from medviz.rules.medempires.ruleset import RULESET

KEYS = ("sicily_west", "sicily_east", "malta")
SICILY = ("sicily_west", "sicily_east")
MALTA_WATERS = ("strait_of_sicily", "malta")
CATALONIA = ("rossello", "catalan_counties")


def history_marks(h: Any) -> dict[str, bool]:
    """How a finished Vespers history follows 1282-1310: Sicily held, Malta fought for and Catalonia invaded in GT1."""
    s = h.final_state
    malta = catalonia = False
    at_malta = False  # the open battle is in Malta's waters or on Malta (always A against B there)
    force: tuple[str, str] = ("", "")  # the acting force's power and kind (land or sea)
    for e in h.events:
        if not isinstance(e, ChangeEvent) or e.turn != 1:
            continue
        d = e.data
        if e.change == "force-formed":
            force = (d["power"], d["kind"])
        elif e.change == "force-moved" and force == ("france", "land") and d["to"] in CATALONIA:
            catalonia = True
        elif e.change == "debarked" and d.get("power") == "france" and d.get("to") in CATALONIA:
            catalonia = True
        elif e.change == "battle-opened":
            at_malta = d["area"] in MALTA_WATERS
        elif e.change == "battle-closed":
            malta = malta or (at_malta and bool(d["summary"]["results"]))  # dice rolled, not avoided
            at_malta = False
    return {"Aragon holds both Sicilian areas at the end": all(s.ctl.get(a) == "B" for a in SICILY),
            "Malta fought for in GT1": malta,
            "French land units enter Catalonia in GT1": catalonia}


def player(spec: str, side: str, seed: int) -> object:
    """A player by spec (a random player's seed is the game's, as ``medviz play`` makes it)."""
    if spec == "random":
        return RandomPolicy(seed * 2 + (0 if side == "A" else 1))
    return parse_policy(spec, RULESET.policies)


def main() -> None:
    """Play the games and print what decided them."""
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--games", type=int, default=100)
    ap.add_argument("--a", default="heuristic")
    ap.add_argument("--b", default="heuristic")
    ap.add_argument("--option", action="append", default=[])
    ap.add_argument("--first", type=int, default=0, help="first seed (default 0)")
    ap.add_argument("--jobs", type=int, default=1, help="games played in parallel (processes)")
    args = ap.parse_args()
    options = {o: True for o in args.option}
    c: Counter[str] = Counter()
    jobs = [(args.a, args.b, seed, tuple(sorted(options))) for seed in range(args.first, args.first + args.games)]
    if args.jobs > 1:
        with ProcessPoolExecutor(args.jobs) as pool:
            counts = list(pool.map(count_one, jobs, chunksize=4))
    else:
        counts = [count_one(j) for j in jobs]
    for one in counts:
        c.update(one)
    print(f"vespers-1282, {args.a} (A) vs {args.b} (B), options {sorted(options) or 'none'}, "
          f"seeds {args.first}-{args.first + args.games - 1}:")
    for k, v in sorted(c.items()):
        print(f"  {k}: {v}")


def count_one(job: tuple[str, str, int, tuple[str, ...]]) -> Counter[str]:
    """Play one game (players A and B, seed, options on) and count what decided it."""
    a, b, seed, opts = job
    c: Counter[str] = Counter()
    h = play(RULESET, "vespers-1282", {o: True for o in opts}, seed=seed,
             players={"A": player(a, "A", seed), "B": player(b, "B", seed)})  # type: ignore[dict-item]
    s = h.final_state
    c["won by " + h.outcome["winner"]] += 1
    c.update(k for k, v in history_marks(h).items() if v)
    sicily_lost = None
    for e in h.events:
        if isinstance(e, ChangeEvent) and e.change == "status" and e.data.get("power") == "sicily" \
                and e.actor == "A" and sicily_lost is None and e.phase == "politics":
            sicily_lost = e.turn
    taken_any = bool(s.taken)
    missing = [a for a in KEYS if s.ctl.get(a) != "B"]
    c["France took an Aragonese area at some moment"] += taken_any
    c["France holds an Aragonese area at the end"] += any(s.ctl.get(a) == "A" for a in s.taken)
    for a in KEYS:
        c[f"Aragon lacks {a} at the end"] += a in missing
    c["Aragon lacks Sicily or Malta at the end"] += bool(missing)
    c["decided by the guarded areas alone"] += taken_any and not missing
    c["decided by Sicily/Malta alone"] += bool(missing) and not taken_any
    if sicily_lost is not None:
        c[f"Sicily left Aragon's side by Player A's politics in GT{sicily_lost}"] += 1
    return c


if __name__ == "__main__":
    main()
