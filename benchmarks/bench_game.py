"""Whole-game benchmark: games per second per scenario and player, win rates, branch cost.

    .venv/bin/python benchmarks/bench_game.py            # 40 games per row (quick)
    .venv/bin/python benchmarks/bench_game.py --games 500

Rates and ratios are measured in one run on one core. Goals (issue 3): >= 200 Vespers games per
second with heuristic players; a branch at the 90th-percentile roll <= 0.15 x a full re-run.
"""

from __future__ import annotations

import argparse
import cProfile
import io
import pstats
import statistics
import time
from collections import Counter

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
    t = time.perf_counter()
    for seed in range(first_seed, first_seed + games):
        h = play(RULESET, scenario, {}, seed=seed, players=players(a, b, seed))  # type: ignore[arg-type]
        wins[h.outcome["winner"]] += 1
        events += len(h.events)
    return games / (time.perf_counter() - t), wins, events / games


def branch_cost(seeds: int = 5) -> dict[str, float]:
    """Branch at the median and 90th-percentile roll of Vespers games, as a fraction of a re-run."""
    out: dict[str, list[float]] = {"median": [], "p90": []}
    for seed in range(seeds):
        t = time.perf_counter()
        h = play(RULESET, "vespers-1282", {}, seed=seed, players=players("heuristic", "heuristic", seed))  # type: ignore[arg-type]
        full = time.perf_counter() - t
        rolls = [e for e in h.rolls() if isinstance(e, RollEvent) and e.dice == "1d6"]
        for label, q in (("median", 0.5), ("p90", 0.9)):
            r = rolls[int(q * (len(rolls) - 1))]
            value = 1 if r.value != 1 else 6
            t = time.perf_counter()
            h.branch(r.roll, value)
            out[label].append((time.perf_counter() - t) / full)
    return {k: statistics.median(v) for k, v in out.items()}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--games", type=int, default=40, help="games per row")
    ap.add_argument("--profile", action="store_true", help="profile heuristic Vespers games")
    args = ap.parse_args()
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
