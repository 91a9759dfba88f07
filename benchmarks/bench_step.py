"""Step latency of the state map: one replay step (view -> figure update) against a rebuild.

Usage::

    python benchmarks/bench_step.py                  # 60 steps of a seeded Vespers game
    python benchmarks/bench_step.py --steps 120 --rebuilds 5
    python benchmarks/bench_step.py --pictures docs/img   # also draw the state-*.png pictures
    python benchmarks/bench_step.py --consecutive 0       # without the consecutive steps
    PYTHONPATH=../main python benchmarks/bench_step.py --app   # the Python of a ReplayViewer click (any checkout)

Measured side by side in one run, on the same views:

* **step** — ``update_state_map(fig, previous view, view)`` on a ``go.FigureWidget`` (what the
  apps do; every change leaves in one ``batch_update`` message) and on a plain ``go.Figure``;
* **rebuild** — ``state_map(view)`` from scratch (what a naive app would do every step);
* **consecutive steps** — one event at a time, each step's placement of names and badges resumed from
  the step before (what the apps do) and searched from scratch, in turns, and whether the two figures
  end holding the same data;
* ``--app`` — the Python of a ReplayViewer click (widgets, figure update, messages JSON-encoded) over a
  whole replay; with ``PYTHONPATH`` another checkout's.

Goals (issue 5): step median <= 15 ms and >= 10x faster than a rebuild. The views come from
``medviz.rules.medempires.view.history_view`` when the rules provide it; until then from
``game_view`` below, a stand-in that reads the whole-game state directly.
"""

from __future__ import annotations

import argparse
import itertools
import statistics
import sys
import time
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

import plotly.graph_objects as go

from medviz.engine.events import ChangeEvent, ReportEvent
from medviz.engine.history import History, play
from medviz.engine.policy import RandomPolicy
from medviz.rules.medempires.gamedata import load_game_data
from medviz.rules.medempires.ruleset import RULESET
from medviz.viz.state_map import state_map, update_state_map

SIDES = ("A", "B")


# ------------------------------------------------------------------------------------------
# Views of a whole-game history (stand-in until rules/medempires/view.history_view exists)
# ------------------------------------------------------------------------------------------
def _status(state: Any) -> dict[str, str]:
    out = {}
    for power, st in state.status.items():
        if st == "player":
            out[power] = f"player-{state.side_of(power)}"
        elif ":" in st:
            kind, side = st.split(":", 1)
            out[power] = f"{kind}-{side}"
        else:
            out[power] = "neutral"
    return out


def _overlays(history: History, seq: int) -> list[dict[str, Any]]:
    """The current phase's moves (last three forces), battles, interceptions and political results."""
    e_now = history[seq]
    start = next((s.start for s in history.phases() if s.start <= seq < s.end), 0)
    forces: list[dict[str, Any]] = []
    out: list[dict[str, Any]] = []
    for e in history.events[start: seq + 1]:
        if e.phase != e_now.phase:
            continue
        name = getattr(e, "change", None) or getattr(e, "report", None)
        d = getattr(e, "data", {})
        if name == "force-formed":
            forces.append({"kind": "move", "side": d["side"], "power": d["power"], "path": [d["area"]]})
        elif name == "force-moved" and forces:
            forces[-1]["path"].append(d["to"])
        elif name == "battle-closed":
            s = d["summary"]
            out.append({"kind": "battle", "area": s["area"], "result": "+".join(s["results"]) or "avoided",
                        "winner": {"A": "Player A", "B": "Player B"}.get(s["winner"], s["winner"]),
                        "winner_side": s["winner"]})
        elif name == "interception" and forces:
            out.append({"kind": "interception", "area": forces[-1]["path"][-1], "success": d["result"] == "success"})
        elif name == "political-result":
            out.append({"kind": "politics", "power": d["target"], "attempt": d["kind"], "result": d["result"]})
    return [f for f in forces[-3:] if len(f["path"]) > 1] + out[-6:]


def game_view(history: History, seq: int) -> dict[str, Any]:
    """The view contract of rules/medempires/view.py for event ``seq`` of a whole-game history."""
    data = load_game_data()
    state = history.state_at(seq)
    sc = data.scenarios[history.scenario]
    turn = state.turn
    years = sc.turn_years[turn - 1] if sc.turn_years and 0 < turn <= len(sc.turn_years) else None
    units: dict[str, dict[str, dict[str, int]]] = {}

    def add(area: str, power: str, code: str, n: int) -> None:
        if n > 0:
            by = units.setdefault(area, {}).setdefault(power, {})
            by[code] = by.get(code, 0) + n

    for area, stack in state.units.items():
        for (power, code), n in stack.items():
            add(area, power, code, n)
    force = state.force
    if force is not None:
        for (power, code), n in force.units.items():
            add(force.area, power, code, n)
        for (power, code), n in force.cargo.items():
            add(force.area, power, code, n)
    kings: dict[str, list[str]] = {}
    for king, area in state.kings.items():
        if area and king in data.kings:
            kings.setdefault(area, []).append(data.kings[king].power)
    vp = {"A": 0, "B": 0}
    for e in history.events[: seq + 1]:
        if isinstance(e, ReportEvent) and e.report == "victory":
            vp = dict(e.data["vp"])
    return {
        "turn": turn, "phase": state.phase, "years": "–".join(map(str, years)) if years else None,
        "title": sc.name, "control": dict(state.ctl), "units": units, "kings": kings,
        "pope": "papal_states" if state.pope else None, "tp": dict(state.tp), "vp": vp,
        "status": _status(state), "overlays": _overlays(history, seq),
    }


def view_function() -> Callable[[History, int], Mapping[str, Any]]:
    """The rules' ``history_view`` when present, else the stand-in ``game_view``."""
    try:
        from medviz.rules.medempires import view as view_module

        fn = getattr(view_module, "history_view", None)
    except ImportError:
        fn = None
    return fn if callable(fn) else game_view


def vespers_game(seed: int = 1) -> History:
    """A seeded Vespers game between random-legal players."""
    return play(RULESET, "vespers-1282", {}, seed=seed, players={"A": RandomPolicy(seed), "B": RandomPolicy(seed + 1)})


def step_seqs(history: History, steps: int) -> list[int]:
    """Event numbers to step through: spread over the game, densest where the map changes."""
    changes = [e.seq for e in history.events if isinstance(e, (ChangeEvent, ReportEvent))]
    stride = max(1, len(changes) // steps)
    return changes[::stride][:steps]


# ------------------------------------------------------------------------------------------
# The benchmark
# ------------------------------------------------------------------------------------------
def _median_ms(samples: list[float]) -> float:
    return statistics.median(samples) * 1000


def run(steps: int = 60, rebuilds: int = 5, seed: int = 1) -> dict[str, float]:
    """Measure and print step and rebuild latencies; returns the figures."""
    history = vespers_game(seed)
    view_at = view_function()
    seqs = step_seqs(history, steps)
    views = [view_at(history, s) for s in seqs]
    print(f"game: {history!r}; {len(views)} steps; views from {view_at.__module__}.{view_at.__name__}")

    t0 = time.perf_counter()
    first = state_map(views[0])
    widget = go.FigureWidget(first)
    print(f"first drawing (geometry, sent once): {1000 * (time.perf_counter() - t0):.0f} ms")

    widget_steps, figure_steps, changed = [], [], []
    plain = state_map(views[0])
    for prev, view in zip(views, views[1:]):
        t = time.perf_counter()
        changed.append(update_state_map(widget, prev, view))
        widget_steps.append(time.perf_counter() - t)
        t = time.perf_counter()
        update_state_map(plain, prev, view)
        figure_steps.append(time.perf_counter() - t)

    rebuild = []
    for view in views[1:: max(1, len(views) // rebuilds)][:rebuilds]:
        t = time.perf_counter()
        state_map(view)
        rebuild.append(time.perf_counter() - t)

    w, f, r = _median_ms(widget_steps), _median_ms(figure_steps), _median_ms(rebuild)
    p90 = sorted(widget_steps)[int(0.9 * (len(widget_steps) - 1))] * 1000
    print(f"parts changed per step: median {statistics.median(changed):.0f}, max {max(changed)}")
    print(f"step, FigureWidget : median {w:7.2f} ms  (p90 {p90:.2f} ms)  = {1000 / w:6.0f} steps/s   goal <= 15 ms: "
          f"{'met' if w <= 15 else 'NOT met'}")
    print(f"step, go.Figure    : median {f:7.2f} ms                 = {1000 / f:6.0f} steps/s")
    print(f"rebuild state_map  : median {r:7.2f} ms                 = {1000 / r:6.1f} figures/s")
    print(f"ratio rebuild / step (FigureWidget): {r / w:6.1f}x   goal >= 10x: {'met' if r / w >= 10 else 'NOT met'}")
    print(f"ratio rebuild / step (go.Figure)   : {r / f:6.1f}x")
    return {"widget_ms": w, "figure_ms": f, "rebuild_ms": r, "ratio": r / w}


def run_consecutive(steps: int = 80, start: int = 400, seed: int = 1, rounds: int = 3) -> dict[str, float]:
    """One event at a time (what the step button does), on a ``go.Figure``: each step's names and badges placed
    resuming from the step before (``medviz.viz.placement``, as the apps and the export do), against the same
    steps with no placement resumed (each searched afresh, as before placements resumed; a placement of
    identical clusters still comes from the cache). Whole walks in turns, ``rounds`` times."""
    from medviz.viz import placement

    history = vespers_game(seed)
    view_at = view_function()
    views = [view_at(history, s) for s in range(start, min(len(history), start + steps + 1))]
    times: dict[str, list[float]] = {"resumed": [], "from scratch": []}
    drawn: dict[str, Any] = {}
    for _ in range(rounds):
        for name, samples in times.items():
            placement.forget_placements()
            fig = state_map(views[0])
            for prev, view in itertools.pairwise(views):
                if name == "from scratch":
                    placement._RESUME.clear()
                t = time.perf_counter()
                update_state_map(fig, prev, view)
                samples.append(time.perf_counter() - t)
            drawn[name] = fig.to_plotly_json()
    out = {}
    print(f"consecutive steps (events {start}..{start + len(views) - 1}, {len(views) - 1} steps x {rounds} rounds), go.Figure:")
    for name, samples in times.items():
        s = sorted(samples)
        out[name] = _median_ms(s)
        print(f"  placement {name:<12}: median {out[name]:7.2f} ms  mean {1000 * statistics.mean(s):7.2f} ms"
              f"  p90 {1000 * s[int(0.9 * (len(s) - 1))]:7.2f} ms")
    print(f"  ratio from scratch / resumed (mean): "
          f"{statistics.mean(times['from scratch']) / statistics.mean(times['resumed']):.2f}x;"
          f" the two figures hold the same data: {drawn['resumed'] == drawn['from scratch']}")
    return out


def run_app(stride: int = 3, seed: int = 1490) -> dict[str, float]:
    """The Python of a ReplayViewer click: the slider moved to every ``stride``-th event of the Vespers replay
    (seed 1490, the historical players, as bench_click.py), each event shown once; widgets, figure update and
    the messages JSON-encoded as a kernel sends them (a comm that encodes and drops them)."""
    import json

    import ipywidgets.widgets.widget as widget_module
    from comm.base_comm import BaseComm

    sent: list[int] = []

    class EncodingComm(BaseComm):
        def publish_msg(self, msg_type: str, data: Any = None, metadata: Any = None, buffers: Any = None,
                        **keys: Any) -> None:
            sent.append(len(json.dumps(data, ensure_ascii=False, allow_nan=False, default=str)))

    make = widget_module.comm.create_comm
    widget_module.comm.create_comm = lambda *a, **k: EncodingComm(*a, **k)
    try:
        from medviz.apps import ReplayViewer
        from medviz.rules.medempires.view import history_view

        historical = RULESET.policies["historical"]()
        history = play(RULESET, "vespers-1282", {}, seed=seed, players={"A": historical, "B": historical})
        viewer = ReplayViewer(history, view_at=history_view, start=1)
        assert viewer.map is not None
        viewer.map.resize(560, 1100)  # as a 1280x720 window lays it out
        times, size = [], []
        for seq in range(2, len(history), stride):
            sent.clear()
            t = time.perf_counter()
            viewer.slider.value = seq
            times.append(time.perf_counter() - t)
            size.append(sum(sent))
    finally:
        widget_module.comm.create_comm = make
    s = sorted(times)
    out = {"median_ms": _median_ms(s), "mean_ms": 1000 * statistics.mean(s), "p90_ms": 1000 * s[int(0.9 * (len(s) - 1))]}
    print(f"ReplayViewer, Python of a click ({len(s)} slider moves, each event once): median {out['median_ms']:.2f} ms"
          f"  mean {out['mean_ms']:.2f} ms  p90 {out['p90_ms']:.2f} ms; sent median {statistics.median(size) / 1000:.1f} kB")
    return out


def pictures(out: Path, seed: int = 1) -> list[Path]:
    """Draw the documentation pictures of the state map (set-up, politics, a battle, the end)."""
    from medviz.viz.commands import write_png
    from medviz.rules.medempires.view import setup_view

    history = vespers_game(seed)
    view_at = view_function()
    made = [write_png(state_map(setup_view()), out / "state-setup.png")]
    politics = [e.seq for e in history.events if getattr(e, "report", None) == "political-result"]
    if politics:
        made.append(write_png(state_map(view_at(history, politics[min(2, len(politics) - 1)])), out / "state-politics.png"))
    battle = next(e.seq for e in history.events if getattr(e, "change", None) == "battle-closed")
    made.append(write_png(state_map(view_at(history, battle)), out / "state-battle.png"))
    made.append(write_png(state_map(view_at(history, battle), width=1280, height=720), out / "state-battle-720.png"))
    made.append(write_png(state_map(view_at(history, len(history) - 1)), out / "state-end.png"))
    return made


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--steps", type=int, default=60)
    p.add_argument("--rebuilds", type=int, default=5)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--pictures", metavar="DIR", help="also write state-*.png pictures there")
    p.add_argument("--consecutive", type=int, default=80, metavar="N",
                   help="also N consecutive steps, placements resumed against from scratch (0: skip)")
    p.add_argument("--app", action="store_true", help="only the Python of a ReplayViewer click (see run_app)")
    args = p.parse_args(argv)
    if args.app:
        run_app()
        return 0
    run(args.steps, args.rebuilds, args.seed)
    if args.consecutive:
        run_consecutive(args.consecutive, seed=args.seed)
    if args.pictures:
        for path in pictures(Path(args.pictures), args.seed):
            print(f"wrote {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
