"""Why Player A wins the Vespers: which part of 13.0 each game turns on, over many games.

    PYTHONPATH=. .venv/bin/python tools/vespers_why.py --games 100
    PYTHONPATH=. .venv/bin/python tools/vespers_why.py --games 100 --option vespers_taken_at_game_end
    PYTHONPATH=. .venv/bin/python tools/vespers_why.py --a heuristic --b expert:budget=4 --games 10

For each game (seeds 0..GAMES-1) it records who won, whether France "took" one of Aragon's four
guarded areas (13.0, at any moment under ruling C), whether Aragon
holds each of Sicily's two areas and Malta at the end, and whether Sicily stopped being
Aragon's ally through a political attempt of Player A (7.0-7.3) and in which turn. Prints counts.
"""

from __future__ import annotations

import argparse
from collections import Counter

from medviz.engine import play
from medviz.engine.events import ChangeEvent
from medviz.engine.policy import RandomPolicy, parse_policy
from medviz.rules.medempires.ruleset import RULESET

KEYS = ("sicily_west", "sicily_east", "malta")


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
    args = ap.parse_args()
    options = {o: True for o in args.option}
    c: Counter[str] = Counter()
    for seed in range(args.games):
        h = play(RULESET, "vespers-1282", options, seed=seed,
                 players={"A": player(args.a, "A", seed), "B": player(args.b, "B", seed)})  # type: ignore[dict-item]
        s = h.final_state
        c["won by " + h.outcome["winner"]] += 1
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
    print(f"vespers-1282, {args.a} (A) vs {args.b} (B), options {sorted(options) or 'none'}, {args.games} games:")
    for k, v in sorted(c.items()):
        print(f"  {k}: {v}")


if __name__ == "__main__":
    main()
