"""Empire's Revolt's whole game (conquest-2/3/4): games a second, how games end, and the heuristic against random.

Each player count plays ``N`` seeded games with random players (the rate and the victory kinds:
resources, rules 71-73; trade control, 76; last standing, 70; the round limit, a ruling), then ``N``
games with one heuristic seat (turned round the table by seed) against random seats: its share of
wins printed beside a fair share (1/players). Measured side by side, no timed assertion.
Run: .venv/bin/python benchmarks/bench_er_conquest.py [N]   (default 20)
"""

from __future__ import annotations

import collections
import sys
import time

from medviz.engine import play
from medviz.engine.policy import RandomPolicy
from medviz.rules.empires_revolt.players import HeuristicPolicy
from medviz.rules.empires_revolt.ruleset import RULESET


def main(n_games: int = 20) -> None:
    """Print, per player count: games a second, victory kinds, the heuristic's share of wins."""
    for n in (2, 3, 4):
        seats = "ABCD"[:n]
        kinds: collections.Counter[str] = collections.Counter()
        t = time.perf_counter()
        for seed in range(n_games):
            h = play(RULESET, f"conquest-{n}", {}, seed=seed,
                     players={s: RandomPolicy(seed * 5 + i) for i, s in enumerate(seats)})
            kinds[h.outcome["victory"]] += 1
        rate = n_games / (time.perf_counter() - t)
        won = 0.0
        for seed in range(n_games):
            mine = seats[seed % n]
            h = play(RULESET, f"conquest-{n}", {}, seed=seed,
                     players={s: HeuristicPolicy() if s == mine else RandomPolicy(seed * 5 + i)
                              for i, s in enumerate(seats)})
            w = h.outcome["winner"]
            tied = w if isinstance(w, list) else [w]
            won += 1 / len(tied) if mine in tied else 0
        print(f"{n} players: {rate:.1f} random games/s; ends {dict(sorted(kinds.items()))}; "
              f"heuristic wins {won / n_games:.0%} against random (fair share {1 / n:.0%})")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 20)
