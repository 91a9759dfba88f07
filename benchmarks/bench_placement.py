"""Placement time per replay step: the names/badges/marks pass of the state map, at the sizes the apps draw.

Usage::

    python benchmarks/bench_placement.py                       # every 4th event of the Vespers golden game
    python benchmarks/bench_placement.py --stride 2 --sizes 1600x1000,1200x560
    python benchmarks/bench_placement.py --against /tmp/old    # the same, side by side with another checkout

Each step is ``plan_view`` of the next view on one figure's map space (what ``update_state_map`` does
on every step of a replay); the time spent inside ``place_clusters`` is summed per step. Sizes: the
default figure (1600x1000), 1500x750 (a 1920x1080 window) and 1200x560 (the apps' least map height, a
1280x720 window). ``--against DIR`` runs the same measurement with ``DIR`` first on the Python path (an
older checkout of medviz) in turns with this one, three rounds each, and prints both and their ratio.
"""

from __future__ import annotations

import argparse
import gzip
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
GOLDEN = ROOT / "tests" / "golden" / "vespers-1282-seed-1.json.gz"
SIZES = "1600x1000,1500x750,1200x560"


def measure(stride: int, sizes: list[tuple[int, int]]) -> dict[str, float]:
    """Median and mean milliseconds in ``place_clusters`` per step, by size (this process's medviz)."""
    import importlib

    import medviz.rules.medempires.game  # noqa: F401  (registers the whole-game scenarios)
    from medviz.engine import History
    from medviz.rules.medempires.view import history_view

    sm = importlib.import_module("medviz.viz.state_map")  # the module (medviz.viz re-exports the function)
    history = History.from_json(gzip.decompress(GOLDEN.read_bytes()).decode("utf-8"), GOLDEN.name)
    views = [history_view(history, seq) for seq in range(0, len(history.events), stride)]
    spent: list[float] = []
    real = sm.place_clusters

    def timed(*args: Any, **kwargs: Any) -> Any:
        t = time.perf_counter()
        try:
            return real(*args, **kwargs)
        finally:
            spent.append(time.perf_counter() - t)

    sm.place_clusters = timed  # type: ignore[assignment]
    out = {}
    for w, h in sizes:
        fig = sm.state_map(views[0], width=w, height=h)
        facts = sm._facts_of(fig)
        style = sm.dataclasses.replace(sm.DEFAULT_STATE_STYLE, map_domain=facts.map_domain)
        per_step = []
        for view in views[1:]:
            spent.clear()
            sm.plan_view(view, facts.places, style, None, facts.space)
            per_step.append(sum(spent) * 1000)
        out[f"{w}x{h} median"] = statistics.median(per_step)
        out[f"{w}x{h} mean"] = statistics.fmean(per_step)
        out[f"{w}x{h} max"] = max(per_step)
    return out


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--stride", type=int, default=4, help="every n-th event of the game is a step")
    p.add_argument("--sizes", default=SIZES, help=f"figure sizes, WxH comma-separated (default {SIZES})")
    p.add_argument("--against", metavar="DIR", help="another checkout of medviz, measured in turns with this one")
    p.add_argument("--json", action="store_true", help=argparse.SUPPRESS)
    args = p.parse_args(argv)
    sizes = [tuple(int(v) for v in s.split("x")) for s in args.sizes.split(",")]
    if args.json:
        print(json.dumps(measure(args.stride, sizes)))  # type: ignore[arg-type]
        return 0
    runs: dict[str, list[dict[str, float]]] = {"this": [], "against": []}
    who = [("this", str(ROOT))] + ([("against", args.against)] if args.against else [])
    for _ in range(3 if args.against else 1):
        for name, path in who:
            env = {**os.environ, "PYTHONPATH": path}
            done = subprocess.run([sys.executable, __file__, "--json", "--stride", str(args.stride), "--sizes", args.sizes],
                                  env=env, capture_output=True, text=True, check=True, cwd=path)
            runs[name].append(json.loads(done.stdout.strip().splitlines()[-1]))
    print(f"placement ms per step (Vespers golden game, every {args.stride}th event; median of "
          f"{len(runs['this'])} run(s) of each)")
    for key in runs["this"][0]:
        mine = statistics.median(r[key] for r in runs["this"])
        line = f"  {key:<18} this {mine:8.2f} ms"
        if runs["against"]:
            theirs = statistics.median(r[key] for r in runs["against"])
            line += f"   against {theirs:8.2f} ms   this/against {mine / theirs:5.2f}x"
        print(line)
    return 0


if __name__ == "__main__":
    sys.exit(main())
