"""Medieval: The XIIIth Century in Europe — games per second (issue 12: 4-player heuristic games at
>= 20 games/s per core), measured in one run beside the 3- and 5-player rates.

    .venv/bin/python benchmarks/bench_medieval.py [--games N]
"""

from __future__ import annotations

import argparse
import time

from medviz.engine import play
from medviz.rules.medieval_xiii.players import HeuristicPolicy
from medviz.rules.medieval_xiii.ruleset import RULESET


def rate(scenario: str, games: int) -> tuple[float, float]:
    """Games per second of CPU time with heuristic players at every seat, and mean events per game."""
    seats = [s.id for s in RULESET.seats(scenario)]
    events = 0
    t0 = time.process_time()
    for g in range(games):
        h = play(RULESET, scenario, {}, seed=g, players={s: HeuristicPolicy(g * 10 + i) for i, s in enumerate(seats)})
        events += len(h.events)
    spent = time.process_time() - t0
    return games / spent, events / games


def main() -> None:
    """Print one line per seat count and the 4-player goal check."""
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--games", type=int, default=40)
    n = ap.parse_args().games
    rates = {}
    for scenario in ("three-players", "four-players", "five-players"):
        r, ev = rate(scenario, n)
        rates[scenario] = r
        print(f"{scenario:14} heuristic at every seat: {r:6.1f} games/s per core (CPU time), {ev:6.0f} events a game")
    goal = 20.0
    verdict = "met" if rates["four-players"] >= goal else "MISSED"
    print(f"goal: 4 players >= {goal:.0f} games/s per core -> {rates['four-players']:.1f} ({verdict}); "
          f"ratio to goal {rates['four-players'] / goal:.2f}")


if __name__ == "__main__":
    main()
