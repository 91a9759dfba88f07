"""State maps drawn per second with the base map's cache (medviz.viz.basemap) off and on, side by side.

Usage::

    python benchmarks/bench_state_map.py                 # 12 moments of a seeded Vespers game, 3 rounds
    python benchmarks/bench_state_map.py --moments 24 --rounds 5

Measured in one run, on the same views, the cache off (every base map drawn afresh: rows, colours of
touching areas, ~55 ``go.Scatter`` traces validated by plotly) and on (the map's figure rebuilt from its
cached JSON without validation), in turns, so a machine shared with other work slows both alike:

* **state_map** — ``state_map(view)`` of each moment (what every map test, the export's first frame and
  the apps' resizes pay);
* **base_map** — ``base_map(map, merge_fixed=True)`` alone, as ``state_map`` calls it;
* **medieval** — ``state_map`` of moments of a Medieval game (another ruleset and map).

Every figure drawn with the cache is checked equal (``to_plotly_json()``) to the one drawn without it.
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Callable
from typing import Any

from medviz.engine import get_ruleset
from medviz.engine.history import play
from medviz.engine.policy import RandomPolicy
from medviz.rules.medempires.ruleset import RULESET
from medviz.rules.medempires.view import history_view
from medviz.rules.medieval_xiii.players import HeuristicPolicy
from medviz.viz import basemap
from medviz.viz.basemap import base_map
from medviz.viz.state_map import _geo, state_map


def _rate(calls: list[Callable[[], Any]]) -> tuple[float, list[Any]]:
    """Calls per second over the list, and what they returned."""
    t = time.perf_counter()
    out = [call() for call in calls]
    return len(calls) / (time.perf_counter() - t), out


def _measure(name: str, calls: list[Callable[[], Any]], rounds: int) -> tuple[float, float]:
    """Median calls per second with the cache off and on, in turns; checks both draw the same figures."""
    off: list[float] = []
    on: list[float] = []
    for _ in range(rounds):
        basemap._CACHE_ON = False
        rate_off, figs_off = _rate(calls)
        basemap._CACHE_ON = True
        basemap._CACHE.clear()
        rate_on, figs_on = _rate(calls)
        off.append(rate_off)
        on.append(rate_on)
        for a, b in zip(figs_off, figs_on):
            if a.to_plotly_json() != b.to_plotly_json():
                raise SystemExit(f"{name}: a figure drawn with the cache differs from the one drawn afresh")
    m_off, m_on = statistics.median(off), statistics.median(on)
    print(f"  {name:<10} cache off {m_off:7.2f} calls/s ({1000 / m_off:7.1f} ms)   "
          f"cache on {m_on:7.2f} calls/s ({1000 / m_on:7.1f} ms)   on/off {m_on / m_off:5.2f}x")
    return m_off, m_on


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--moments", type=int, default=12, help="moments of the game drawn per round")
    p.add_argument("--rounds", type=int, default=3)
    p.add_argument("--seed", type=int, default=1)
    args = p.parse_args(argv)
    game = play(RULESET, "vespers-1282", {}, seed=args.seed,
                players={"A": RandomPolicy(args.seed), "B": RandomPolicy(args.seed + 1)})
    n = len(game.events)
    views = [history_view(game, i * (n - 1) // max(1, args.moments - 1)) for i in range(args.moments)]
    medieval = get_ruleset("medieval-xiii")
    mgame = play(medieval, "four-players", {}, seed=3,
                 players={s: HeuristicPolicy.from_spec(str(i)) for i, s in enumerate("ABCD")})
    m = len(mgame.events)
    mviews = [medieval.view_at(mgame, i * (m - 1) // 3) for i in range(4)]
    geo = _geo("medempires")
    state_map(views[0])  # warm imports and the map loader (not the base map's cache: it is cleared per round)
    print(f"state maps per second, base map cache off vs on (Vespers seed {args.seed}, {args.moments} moments; "
          f"median of {args.rounds} rounds in turns)")
    _measure("state_map", [lambda v=v: state_map(v) for v in views], args.rounds)
    _measure("base_map", [lambda: base_map(geo, merge_fixed=True)] * args.moments, args.rounds)
    _measure("medieval", [lambda v=v: state_map(v, ruleset=medieval) for v in mviews], args.rounds)
    basemap._CACHE_ON = True
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
