"""Whole-game benchmark: games per second per scenario and player, win rates, branch cost.

    .venv/bin/python benchmarks/bench_game.py            # 40 games per row (quick)
    .venv/bin/python benchmarks/bench_game.py --games 500

Rates and ratios are measured in one run on one core, on the CPU time of the process that plays (so
other jobs on a shared machine count for neither side). Goals (issue 3): >= 200 Vespers games per
second with heuristic players; a branch at the 90th-percentile roll <= 0.15 x a full re-run.
"""

from __future__ import annotations

import argparse
import cProfile
import io
import os
import pstats
import statistics
import subprocess
import sys
import tarfile
import tempfile
import time
from collections import Counter
from pathlib import Path

from medviz.engine import RandomPolicy, play
from medviz.engine.events import RollEvent
from medviz.rules.medempires.game.players import Heuristic
from medviz.rules.medempires.ruleset import RULESET


def players(a: str, b: str, seed: int) -> dict[str, object]:
    """Policies by name for one game."""
    def make(kind: str, side: str) -> object:
        return Heuristic() if kind == "heuristic" else RandomPolicy(seed * 2 + (side == "B"))
    return {"A": make(a, "A"), "B": make(b, "B")}


def rate(scenario: str, a: str, b: str, games: int, first_seed: int = 0) -> tuple[float, Counter[str], float]:
    """(games per second, winners, mean events per game)."""
    wins: Counter[str] = Counter()
    events = 0
    t = time.process_time()
    for seed in range(first_seed, first_seed + games):
        h = play(RULESET, scenario, {}, seed=seed, players=players(a, b, seed))  # type: ignore[arg-type]
        wins[h.outcome["winner"]] += 1
        events += len(h.events)
    return games / (time.process_time() - t), wins, events / games


def branch_cost(seeds: int = 5) -> dict[str, float]:
    """Branch at the median and 90th-percentile roll of Vespers games, as a fraction of a re-run."""
    out: dict[str, list[float]] = {"median": [], "p90": []}
    for seed in range(seeds):
        t = time.process_time()
        h = play(RULESET, "vespers-1282", {}, seed=seed, players=players("heuristic", "heuristic", seed))  # type: ignore[arg-type]
        full = time.process_time() - t
        rolls = [e for e in h.rolls() if isinstance(e, RollEvent) and e.dice == "1d6"]
        for label, q in (("median", 0.5), ("p90", 0.9)):
            r = rolls[int(q * (len(rolls) - 1))]
            value = 1 if r.value != 1 else 6
            t = time.process_time()
            h.branch(r.roll, value)
            out[label].append((time.process_time() - t) / full)
    return {k: statistics.median(v) for k, v in out.items()}


#: The commit the engine's speed is compared with (issue 14, point 6): the engine before its speed work
#: (folded snapshots, faster copies and FrozenDict); the pin before it was 502b7ff, the code before
#: medviz.analysis.
BASELINE = "76d77c909945c03b0611f2816a6ad0a24abe2552"
ROOT = Path(__file__).resolve().parent.parent

_RATE = """
import sys, time
import medviz
print(medviz.__file__)
from medviz.engine import play
from medviz.rules.medempires.game.players import Heuristic
from medviz.rules.medempires.ruleset import RULESET
first, games = int(sys.argv[1]), int(sys.argv[2])
play(RULESET, "vespers-1282", {}, seed=999_999, players={"A": Heuristic(), "B": Heuristic()})  # warm caches
t = time.process_time()  # CPU time of this process: other jobs on a shared machine do not count
for seed in range(first, first + games):
    play(RULESET, "vespers-1282", {}, seed=seed, players={"A": Heuristic(), "B": Heuristic()})
print(time.process_time() - t)
"""


def against_baseline(commit: str, games: int, rounds: int = 3) -> tuple[float, float]:
    """Vespers heuristic games/s of this tree and of ``commit``, each in its own process, in alternating
    rounds on the same seeds (one core each, one at a time)."""
    with tempfile.TemporaryDirectory(prefix="medviz-baseline-") as tmp:
        archive = subprocess.run(["git", "-C", str(ROOT), "archive", commit, "medviz"], check=True,
                                 capture_output=True).stdout
        base = Path(tmp) / "baseline"
        with tarfile.open(fileobj=io.BytesIO(archive)) as tar:
            tar.extractall(base, filter="data")
        took = {"this tree": 0.0, "baseline": 0.0}
        for r in range(rounds):
            for label, path in (("this tree", ROOT), ("baseline", base)):
                env = {**os.environ, "PYTHONPATH": str(path)}
                # run from an empty folder: ``python -c`` puts its working folder first on sys.path
                out = subprocess.run([sys.executable, "-c", _RATE, str(3000 + r * games), str(games)], env=env,
                                     check=True, capture_output=True, text=True, cwd=tmp).stdout.strip().splitlines()
                if not Path(out[0]).resolve().is_relative_to(path.resolve()):
                    raise SystemExit(f"the {label} run imported medviz from {out[0]}, not from {path}")
                took[label] += float(out[-1])
    n = games * rounds
    return n / took["this tree"], n / took["baseline"]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--games", type=int, default=40, help="games per row")
    ap.add_argument("--profile", action="store_true", help="profile heuristic Vespers games")
    ap.add_argument("--baseline", default=BASELINE, metavar="COMMIT",
                    help="compare Vespers heuristic games/s with this commit in the same run (default: the pinned "
                         "one; 'none' skips)")
    ap.add_argument("--baseline-only", action="store_true", help="only the comparison with the baseline")
    args = ap.parse_args()
    if args.baseline != "none":
        mine, base = against_baseline(args.baseline, max(5, args.games // 4))
        print(f"Vespers heuristic games/s: this tree {mine:.1f}, baseline {args.baseline[:10]} {base:.1f}, "
              f"ratio {mine / base:.2f}x (goal: >= 60 games/s per core)")
        if args.baseline_only:
            return
    print(f"{'scenario':14} {'A':10} {'B':10} {'games/s':>8} {'events':>7}  winners")
    for scenario in ("vespers-1282", "standard"):
        for a, b in (("random", "random"), ("heuristic", "random"), ("random", "heuristic"),
                     ("heuristic", "heuristic")):
            gps, wins, ev = rate(scenario, a, b, args.games)
            share = ", ".join(f"{k} {v / args.games:.0%}" for k, v in sorted(wins.items()))
            print(f"{scenario:14} {a:10} {b:10} {gps:8.1f} {ev:7.0f}  {share}")
    bc = branch_cost()
    print(f"branch cost (Vespers, heuristic): median roll {bc['median']:.3f} x re-run, "
          f"90th-percentile roll {bc['p90']:.3f} x re-run (goal <= 0.15)")
    gps, _, _ = rate("vespers-1282", "heuristic", "heuristic", 20, 1000)
    print(f"Vespers heuristic games/s: {gps:.1f} (goal >= 200)")
    if args.profile or gps < 200:
        pr = cProfile.Profile()
        pr.enable()
        rate("vespers-1282", "heuristic", "heuristic", 10, 2000)
        pr.disable()
        stats = pstats.Stats(pr)
        share: Counter[str] = Counter()
        for (path, _line, _name), (_cc, _nc, own, _cum, _callers) in stats.stats.items():  # type: ignore[attr-defined]
            share[_layer(path)] += own
        total = sum(share.values())
        print("Where the time goes (goal missed), own time by part:")
        for part, t in share.most_common(10):
            print(f"  {t / total:6.1%}  {part}")
        buf = io.StringIO()
        pstats.Stats(pr, stream=buf).sort_stats("tottime").print_stats(12)
        print("Top functions by own time:")
        print("\n".join(line for line in buf.getvalue().splitlines() if line.strip())[:3000])


def _layer(path: str) -> str:
    """Name the part of the code a profiled function belongs to."""
    if "/medviz/" not in path:
        return "Python built-ins and stdlib"
    rel = path.split("/medviz/", 1)[1]
    names = {
        "rules/medempires/game/players.py": "players (heuristic thinking)",
        "engine/game.py": "engine: runner and event recording",
        "engine/events.py": "engine: event objects",
        "engine/policy.py": "engine: policies",
        "rules/medempires/game/state.py": "rules: state queries (side_units, control)",
        "rules/medempires/game/operations.py": "rules: operations (10-11)",
        "rules/medempires/game/recruitment.py": "rules: recruitment (6)",
    }
    return names.get(rel, "rules: other" if rel.startswith("rules/") else rel)


if __name__ == "__main__":
    main()
