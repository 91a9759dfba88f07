"""Medieval: The XIIIth Century in Europe — games per second (issue 12: 4-player heuristic games at
>= 20 games/s per core), measured in one run beside the 3- and 5-player rates, and side by side with
a baseline commit.

    .venv/bin/python benchmarks/bench_medieval.py [--games N] [--baseline COMMIT|none] [--rounds R] [--baseline-only]

Every rate is games per second of the process's own CPU time (``time.process_time``), so other work
on a shared machine does not count against it. The baseline comparison runs this tree and
``COMMIT``'s ``medviz`` (from ``git archive``) each in its own process, alternating for ``--rounds``
rounds on the same seeds, and prints both rates and their ratio.
"""

from __future__ import annotations

import argparse
import io
import os
import subprocess
import sys
import tarfile
import tempfile
import time
from pathlib import Path

from medviz.engine import play
from medviz.rules.medieval_xiii.players import HeuristicPolicy
from medviz.rules.medieval_xiii.ruleset import RULESET

#: The commit the speed work of issue 12 is compared with: main before it.
BASELINE = "76d77c9"
ROOT = Path(__file__).resolve().parent.parent
GOAL = 20.0


def rate(scenario: str, games: int, first_seed: int = 0) -> tuple[float, float]:
    """Games per second of CPU time with heuristic players at every seat, and mean events per game."""
    seats = [s.id for s in RULESET.seats(scenario)]
    events = 0
    t0 = time.process_time()
    for g in range(first_seed, first_seed + games):
        h = play(RULESET, scenario, {}, seed=g, players={s: HeuristicPolicy(g * 10 + i) for i, s in enumerate(seats)})
        events += len(h.events)
    spent = time.process_time() - t0
    return games / spent, events / games


_RATE = """
import sys, time
from medviz.engine import play
from medviz.rules.medieval_xiii.players import HeuristicPolicy
from medviz.rules.medieval_xiii.ruleset import RULESET
scenario, first, games = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
seats = [s.id for s in RULESET.seats(scenario)]
def game(g):
    play(RULESET, scenario, {}, seed=g, players={s: HeuristicPolicy(g * 10 + i) for i, s in enumerate(seats)})
game(999_999)  # warm the data and caches
t = time.process_time()
for g in range(first, first + games):
    game(g)
print(time.process_time() - t)
"""


def against_baseline(commit: str, scenario: str, games: int, rounds: int) -> tuple[float, float]:
    """Heuristic games/s (CPU time) of this tree and of ``commit`` on ``scenario``, each in its own
    process, in alternating rounds on the same seeds."""
    with tempfile.TemporaryDirectory(prefix="medviz-baseline-") as tmp:
        archive = subprocess.run(["git", "-C", str(ROOT), "archive", commit, "medviz"], check=True,
                                 capture_output=True).stdout
        with tarfile.open(fileobj=io.BytesIO(archive)) as tar:
            tar.extractall(tmp, filter="data")
        took = {"this tree": 0.0, "baseline": 0.0}
        for r in range(rounds):
            order = (("this tree", str(ROOT)), ("baseline", tmp))
            for label, path in order if r % 2 == 0 else order[::-1]:
                env = {**os.environ, "PYTHONPATH": path}
                # cwd is the tree itself: ``python -c`` puts the working directory first on sys.path.
                out = subprocess.run([sys.executable, "-c", _RATE, scenario, str(r * games), str(games)], env=env,
                                     check=True, capture_output=True, text=True, cwd=path).stdout
                took[label] += float(out.strip().splitlines()[-1])
    n = games * rounds
    return n / took["this tree"], n / took["baseline"]


def main() -> None:
    """Print the comparison with the baseline, one line per seat count and the 4-player goal check."""
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--games", type=int, default=40, help="games per seat count (and per baseline round)")
    ap.add_argument("--baseline", default=BASELINE, metavar="COMMIT",
                    help="compare 4-player heuristic games/s with this commit in the same run ('none' skips)")
    ap.add_argument("--rounds", type=int, default=4, help="alternating rounds of the baseline comparison")
    ap.add_argument("--baseline-only", action="store_true", help="only the comparison with the baseline")
    args = ap.parse_args()
    if args.games < 1 or args.rounds < 1:
        ap.error("--games and --rounds must be at least 1")
    if args.baseline != "none":
        mine, base = against_baseline(args.baseline, "four-players", args.games, args.rounds)
        print(f"four-players heuristic games/s per core (CPU time), {args.rounds} alternating rounds of "
              f"{args.games} games: this tree {mine:.1f}, baseline {args.baseline} {base:.1f}, "
              f"ratio {mine / base:.2f}x")
        if args.baseline_only:
            return
    rates = {}
    for scenario in ("three-players", "four-players", "five-players"):
        r, ev = rate(scenario, args.games)
        rates[scenario] = r
        print(f"{scenario:14} heuristic at every seat: {r:6.1f} games/s per core (CPU time), {ev:6.0f} events a game")
    verdict = "met" if rates["four-players"] >= GOAL else "MISSED"
    print(f"goal: 4 players >= {GOAL:.0f} games/s per core -> {rates['four-players']:.1f} ({verdict}); "
          f"ratio to goal {rates['four-players'] / GOAL:.2f}")


if __name__ == "__main__":
    main()
