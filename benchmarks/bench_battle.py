"""Battle benchmarks: exact odds vs sampling, and branching vs re-running (measured in one run).

Goals (issue 2): exact odds at least 100x faster than sampling 20,000 battles for the same
question; branching at the last roll cheaper than re-running the battle.
Run: make bench   (or .venv/bin/python benchmarks/bench_battle.py [--battles N])
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections import Counter

from medviz.engine import RandomPolicy, play
from medviz.rules.medempires.odds import Doctrine, battle_odds, outcome_key
from medviz.rules.medempires.ruleset import RULESET, new_battle

CASES = {
    "small land battle": {"attacker": "aragon:2FA,1L,1M,K2", "defender": "anjou:3FA,2L,K1"},
    "large land battle": {"attacker": "france:5FA,5L,K1,1MA", "defender": "aragon:4FA,6L,2M,K2", "ops": 4},
    "naval battle": {"attacker": "aragon:4F", "defender": "anjou:2F+genoa:2F"},
}


def timed(fn, repeat: int = 1) -> float:
    best = float("inf")
    for _ in range(repeat):
        t = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - t)
    return best


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--battles", type=int, default=20_000, help="sampled battles per case")
    args = ap.parse_args()
    d = Doctrine()
    print(f"Exact odds vs sampling {args.battles:,} battles (same doctrine, same question)")
    for name, opts in CASES.items():
        exact_s = timed(lambda: battle_odds(new_battle(opts), d), repeat=3)

        def sample() -> Counter:
            seen: Counter = Counter()
            for seed in range(args.battles):
                h = play(RULESET, "battle", opts, seed=seed, players={"attacker": d, "defender": d})
                seen[outcome_key(h.final_state.battle)] += 1
            return seen

        sample_s = timed(sample)
        print(f"  {name:18}  exact {exact_s * 1e3:8.1f} ms   sampled {sample_s:7.2f} s   "
              f"ratio {sample_s / exact_s:8.0f}x  (goal >= 100x)")

    print("Branching at the last roll vs re-running the battle from scratch")
    opts = {"attacker": "france:5FA,5L,K1", "defender": "aragon:4FA,6L,K2", "ops": 6}
    players = {"attacker": RandomPolicy(1), "defender": RandomPolicy(2)}
    branch_t, rerun_t = [], []
    for seed in range(200):
        h = play(RULESET, "battle", opts, seed=seed, players=players)
        last = h.rolls()[-1]
        value = 1 if last.value != 1 else 6
        branch_t.append(timed(lambda: h.branch(last.roll, value) and h.children.clear(), repeat=3))
        rerun_t.append(timed(lambda: play(RULESET, "battle", opts, seed=seed, players=players,
                                          overrides={last.roll: value}), repeat=3))
    b, r = statistics.median(branch_t), statistics.median(rerun_t)
    print(f"  median branch {b * 1e6:7.0f} us   median re-run {r * 1e6:7.0f} us   branch/re-run {b / r:5.2f}")


if __name__ == "__main__":
    main()
