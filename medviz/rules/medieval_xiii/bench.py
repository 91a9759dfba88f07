"""Heuristic against random players: ``python -m medviz.rules.medieval_xiii.bench GAMES``.

For each seat count, GAMES games (seeds 0..GAMES-1); the heuristic sits at one seat, rotating,
random players at the others. Prints the heuristic's share of wins (ties split) and mean VPs.
"""

from __future__ import annotations

import sys
import time

from medviz.engine import RandomPolicy, play
from medviz.rules.medieval_xiii.players import HeuristicPolicy
from medviz.rules.medieval_xiii.ruleset import RULESET, summary


def main(games: int) -> None:
    """Run the benchmark and print one line per seat count."""
    for scenario in ("three-players", "four-players", "five-players"):
        seats = [s.id for s in RULESET.seats(scenario)]
        wins = 0.0
        vp_h = vp_r = 0.0
        t = time.time()
        for g in range(games):
            me = seats[g % len(seats)]
            players = {s: (HeuristicPolicy(g) if s == me else RandomPolicy(g * 10 + i)) for i, s in enumerate(seats)}
            out = summary(play(RULESET, scenario, {}, seed=g, players=players))
            won = out["winner"] if isinstance(out["winner"], list) else [out["winner"]]
            wins += 1 / len(won) if me in won else 0.0
            vp_h += out["scores"][me]
            vp_r += sum(v for k, v in out["scores"].items() if k != me) / (len(seats) - 1)
        print(f"{scenario}: heuristic won {wins:.1f}/{games} = {wins / games:.0%} (fair share "
              f"{1 / len(seats):.0%}); mean VP heuristic {vp_h / games:.1f}, random {vp_r / games:.1f}; "
              f"{time.time() - t:.0f} s", flush=True)


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 100)
