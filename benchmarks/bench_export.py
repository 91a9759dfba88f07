"""Export benchmark: page size of the real export against a naive one (measured in one run).

Goals (issue 5): a whole 3-turn Vespers replay in one standalone page of at most 3 MB; the naive
way — plotly animation frames that repeat every trace, outlines included, in every frame —
shown side by side with the ratio.

Both pages are built from the same history and the same map views:
  * real  = ``medviz.export.export_html``: outlines once, per-step colour/badge deltas;
  * naive = ``go.Figure(frames=[go.Frame(data=<every trace of that step>) ...]).to_html(
            include_plotlyjs=True)`` (plotly's own standalone page with its own frames).
The naive page is measured for real on the first ``--naive-steps`` steps (building it for every
step would take minutes and hundreds of MB); for the whole replay its size is extrapolated
from the measured bytes per frame, and printed as such.

Histories: a real ``vespers-1282`` game from the rules engine when it plays (players: seeded
random), with map views from ``view.history_view`` when the rules provide it, otherwise from an
interim adapter of the game state written here (control, stacks, Kings, Pope, TP; no overlays);
and a synthetic "battle marathon" (real battles laid end to end, see medviz/rules/medempires/marathon.py).
Run: make bench   (or .venv/bin/python benchmarks/bench_export.py [--naive-steps N])
"""

from __future__ import annotations

import argparse
import copy
import tempfile
import time
from pathlib import Path
from typing import Any, Callable

MB = 1_000_000


def vespers_game(seed: int) -> tuple[Any, Callable[[int], dict[str, Any]], str] | None:
    """A real Vespers game and its views, or None when the whole-game rules do not play yet."""
    try:
        import medviz.rules.medempires.game  # noqa: F401  (registers the scenarios)
        from medviz.engine import RandomPolicy, play
        from medviz.rules.medempires import view as view_module
        from medviz.rules.medempires.ruleset import RULESET

        h = play(RULESET, "vespers-1282", {}, seed=seed, players={"A": RandomPolicy(seed), "B": RandomPolicy(seed + 1)})
    except Exception as exc:  # the game engine is being written; say why and go on
        print(f"(no real Vespers game: {type(exc).__name__}: {exc})")
        return None
    if hasattr(view_module, "history_view"):
        return h, (lambda seq: view_module.history_view(h, seq)), "view.history_view"
    return h, interim_views(h), "interim adapter in this benchmark"


def interim_views(h: Any) -> Callable[[int], dict[str, Any]]:
    """Views from the game state until the rules provide ``history_view`` (no overlays)."""
    from medviz.rules.medempires.gamedata import load_game_data
    from medviz.rules.medempires.view import setup_view

    data = load_game_data()
    base = setup_view("vespers-1282")
    side = {pid: p.faction_at_start for pid, p in data.powers.items() if p.status_at_start == "player"}

    def view_at(seq: int) -> dict[str, Any]:
        if seq < 0:
            return base
        s = h.state_at(seq)
        v = copy.deepcopy(base)
        v["turn"], v["phase"] = s.turn, s.phase
        v["control"] = {a: c for a, c in s.ctl.items() if a in base["control"]}
        units: dict[str, dict[str, dict[str, int]]] = {}
        for area, stack in s.units.items():
            for (power, code), n in stack.items():
                if n:
                    units.setdefault(area, {}).setdefault(power, {})[code] = n
        v["units"] = units
        kings: dict[str, list[str]] = {}
        for king, area in s.kings.items():
            if area and king in data.kings:
                kings.setdefault(area, []).append(data.kings[king].power)
        v["kings"] = kings
        v["pope"] = "papal_states" if s.pope else None
        v["tp"] = dict(s.tp)
        v["status"] = {p: (f"player-{side[p]}" if st == "player" and p in side else
                           st.replace(":", "-") if st.startswith(("ally:", "vassal:")) else "neutral")
                       for p, st in s.status.items()}
        return v

    return view_at


def naive_page(history: Any, view_at: Callable[[int], dict[str, Any]], steps: int) -> tuple[int, int]:
    """Size of plotly's own standalone page with one full frame per step, and bytes per frame."""
    import plotly.graph_objects as go

    from medviz.viz.state_map import state_map, update_state_map

    first = view_at(0)
    fig = state_map(first)
    frames = []
    prev = first
    for seq in range(steps):
        v = view_at(seq)
        update_state_map(fig, prev, v)
        prev = v
        frames.append(go.Frame(data=copy.deepcopy(list(fig.data)), layout={"annotations": fig.layout.annotations},
                               name=str(seq)))
    naive = go.Figure(data=fig.data, layout=fig.layout, frames=frames)
    naive.update_layout(sliders=[{"steps": [{"args": [[str(i)], {"frame": {"duration": 0}, "mode": "immediate"}],
                                             "label": str(i), "method": "animate"} for i in range(steps)]}])
    text = naive.to_html(include_plotlyjs=True, full_html=True)
    from plotly.io.json import to_json_plotly

    one = len(to_json_plotly(frames[-1].to_plotly_json()).encode())
    return len(text.encode()), one


def real_page(history: Any, view_at: Callable[[int], dict[str, Any]], steps: int | None = None) -> tuple[int, float]:
    from medviz.export.html import build_page

    if steps is not None:
        history = Prefix(history, steps)
    t = time.perf_counter()
    page = build_page(history, view_at=view_at)
    return len(page.encode()), time.perf_counter() - t


class Prefix:
    """The first ``n`` events of a history (for a like-for-like comparison with the naive page)."""

    def __init__(self, h: Any, n: int) -> None:
        self.h, self.events = h, tuple(h.events[:n])
        self.game, self.scenario, self.seed = h.game, h.scenario, h.seed
        self.override, self.outcome = getattr(h, "override", None), {}

    def describe(self, e: Any) -> str:
        return str(self.h.describe(e))

    def phases(self) -> list[Any]:
        from medviz.engine.history import PhaseSpan

        n = len(self.events)
        return [PhaseSpan(p.turn, p.phase, p.start, min(p.end, n)) for p in self.h.phases() if p.start < n]

    def rolls(self) -> list[Any]:
        return [e for e in self.h.rolls() if e.seq < len(self.events)]

    def decisions(self) -> list[Any]:
        return [e for e in self.h.decisions() if e.seq < len(self.events)]


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--naive-steps", type=int, default=150, help="steps of the naive page actually built")
    ap.add_argument("--seed", type=int, default=1, help="seed of the real Vespers game")
    ap.add_argument("--battles", type=int, default=100, help="battles in the synthetic marathon")
    args = ap.parse_args()
    from medviz.rules.medempires.marathon import battle_marathon, marathon_views

    cases: list[tuple[str, Any, Callable[[int], dict[str, Any]]]] = []
    game = vespers_game(args.seed)
    if game is not None:
        h, view_at, how = game
        cases.append((f"Vespers 1282, whole game, seed {args.seed} (views: {how})", h, view_at))
    marathon = battle_marathon(args.battles)
    cases.append((f"synthetic marathon: {args.battles} real battles over 3 turns x 6 phases", marathon,
                  marathon_views(marathon)))
    print("Exported page size (one standalone HTML file, plotly.js inline): goal <= 3 MB for a whole replay")
    for label, h, view_at in cases:
        n = len(h.events)
        size, secs = real_page(h, view_at)
        k = min(args.naive_steps, n)
        real_k, _ = real_page(h, view_at, k)
        naive_k, per_frame = naive_page(h, view_at, k)
        naive_full = naive_k + (n - k) * per_frame
        print(f"\n{label}: {n} events")
        print(f"  {'':34}{'real export':>14}{'naive frames':>16}{'ratio':>9}")
        print(f"  {'first ' + str(k) + ' steps (both built)':34}{real_k / MB:>11.2f} MB{naive_k / MB:>13.2f} MB"
              f"{naive_k / real_k:>8.1f}x")
        print(f"  {'whole replay (naive extrapolated)':34}{size / MB:>11.2f} MB{naive_full / MB:>13.1f} MB"
              f"{naive_full / size:>8.1f}x")
        print(f"  real export: {secs:.1f} s to build; {'within' if size <= 3 * MB else 'OVER'} the 3 MB goal;"
              f" naive: {per_frame / 1000:.0f} KB per frame")


if __name__ == "__main__":
    main()
