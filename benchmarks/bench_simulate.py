"""Many-games benchmark: games per second with 1 and 2 workers, local processes and a Dask
LocalCluster, side by side in one run, and the scaling efficiency from 1 to 2 workers.

    PYTHONPATH=. .venv/bin/python benchmarks/bench_simulate.py               # 60 games per row
    PYTHONPATH=. .venv/bin/python benchmarks/bench_simulate.py --games 10000 --only local-2

Goals (issue 14): 10,000 Vespers games (heuristic vs heuristic) with 2 workers in <= 100 s, i.e.
>= 100 games/s; scaling efficiency 1 -> 2 workers >= 85%, locally and on a LocalCluster. Each row
also checks that its rows are the same bytes as the first row's (determinism on any workers).
"""

from __future__ import annotations

import argparse
import time

from medviz.analysis import simulate
from medviz.rules.medempires.ruleset import RULESET

PLAYERS = {"A": "heuristic", "B": "heuristic"}
ROWS = ("local-1", "local-2", "dask-1", "dask-2")


def one_row(kind: str, games: int) -> tuple[float, str, float]:
    """(games per second, the rows as CSV text, seconds a cluster took to start)."""
    where, n = kind.split("-")
    start = 0.0
    if where == "local":
        t = time.perf_counter()
        sim = simulate(RULESET, "vespers-1282", {}, PLAYERS, games, workers=int(n), progress=False)
        took = time.perf_counter() - t
    else:
        from dask.distributed import Client, LocalCluster

        t0 = time.perf_counter()
        with LocalCluster(n_workers=int(n), threads_per_worker=1, processes=True, dashboard_address=None) as cluster, \
                Client(cluster) as client:
            start = time.perf_counter() - t0
            t = time.perf_counter()
            sim = simulate(RULESET, "vespers-1282", {}, PLAYERS, games, scheduler=client, progress=False)
            took = time.perf_counter() - t
    return games / took, sim.frame.to_csv(index=False), start


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--games", type=int, default=60, help="games per row (Vespers, heuristic vs heuristic)")
    ap.add_argument("--only", choices=ROWS, action="append", help="run only these rows (repeatable)")
    args = ap.parse_args()
    rows = args.only or list(ROWS)
    rates: dict[str, float] = {}
    first_csv = None
    print(f"{'where':10} {'games':>6} {'games/s':>8} {'s/10k games':>12}  same rows")
    for kind in rows:
        gps, csv, start = one_row(kind, args.games)
        rates[kind] = gps
        first_csv = first_csv if first_csv is not None else csv
        extra = f"  (cluster start {start:.1f} s, not counted)" if start else ""
        print(f"{kind:10} {args.games:6} {gps:8.1f} {10_000 / gps:12.0f}  {csv == first_csv}{extra}")
    for where in ("local", "dask"):
        if f"{where}-1" in rates and f"{where}-2" in rates:
            eff = rates[f"{where}-2"] / (2 * rates[f"{where}-1"])
            print(f"scaling efficiency 1 -> 2 workers, {where}: {eff:.0%} (goal >= 85%)")
    if "local-2" in rates:
        print(f"10,000 games with 2 local workers: {10_000 / rates['local-2']:.0f} s at this rate (goal <= 100 s); "
              f"{rates['local-2'] / 2:.1f} games/s per worker (goal >= 60)")


if __name__ == "__main__":
    main()
