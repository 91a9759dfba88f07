"""Pivotal-rolls benchmark: the analysis of the Vespers replay with shared continuations (faces whose
games meet play the rest once) and with every face played in full, side by side in one run.

    PYTHONPATH=. .venv/bin/python benchmarks/bench_pivotal.py                      # every roll, 2 seeds
    PYTHONPATH=. .venv/bin/python benchmarks/bench_pivotal.py --seeds 4 --every 5  # every 5th roll

The replay is the notebook's (historical players, seed 1490). Each row prints the CPU seconds of this
process (one worker: the games play here), the faces' continuations per CPU-second (a shared one counts
for every face it stands for) and whether its JSON is the same bytes as the first row's. The goal
(issue 14): every roll's swing to +/- 5 points (95%), i.e. 60 continuations a face, in <= 5 minutes
with 2 workers; the time at that size is estimated from the rate: 2 workers share the work evenly.
"""

from __future__ import annotations

import argparse
import time

from medviz.analysis.pivotal import pivotal
from medviz.engine import History, RollEvent, play
from medviz.rules.medempires.ruleset import RULESET


def replay() -> History:
    """The notebook's Vespers replay."""
    historical = RULESET.policies["historical"]()
    return play(RULESET, "vespers-1282", {}, seed=1490, players={"A": historical, "B": historical})


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--seeds", type=int, default=2, help="continuations per face (default 2)")
    ap.add_argument("--every", type=int, default=1, help="analyse every Nth roll of the replay (default 1: all)")
    ap.add_argument("--measure", default="winner", help="the analysis' measure (default winner)")
    args = ap.parse_args()
    h = replay()
    keys = [e.roll if isinstance(e, RollEvent) else e.draw for e in h.rolls()][:: args.every]
    faces = 0
    first = None
    print(f"Vespers replay, {len(keys)} rolls and draws, {args.seeds} continuations a face, measure {args.measure}")
    print(f"{'continuations':14} {'CPU s':>7} {'per CPU-s':>10} {'est. 60 a face, 2 workers':>27}  same bytes")
    rates = {}
    for share in (True, False):
        t = time.process_time()
        result = pivotal(h, budget=args.seeds, first=args.seeds, rolls=keys, measure=args.measure, workers=1,
                         progress=False, share=share)
        took = time.process_time() - t
        faces = sum(len(r.faces) for r in result.rolls if len(r.faces) > 1)
        text = result.to_json()
        first = first if first is not None else text
        rate = faces * args.seeds / took
        rates[share] = rate
        at_60 = faces * 60 / rate / 2
        print(f"{'shared' if share else 'every face':14} {took:7.1f} {rate:10.1f} {at_60:25.0f} s  {text == first}")
    print(f"shared / every face: {rates[True] / rates[False]:.2f}x ({faces} faces)")


if __name__ == "__main__":
    main()
