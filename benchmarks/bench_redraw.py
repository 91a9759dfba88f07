"""What a step costs plotly.js: the ReplayViewer's map messages replayed in chromium, each ``Plotly.update`` timed.

Usage::

    python benchmarks/bench_redraw.py                 # 20 jumps and 20 steps, 3 rounds
    python benchmarks/bench_redraw.py --moves 40 --rounds 5

The Vespers replay (seed 1490, the historical players, as bench_click.py) in a ReplayViewer laid out as a
1280x720 window lays it out; the jumps and steps of a walk through it are recorded as the map messages the
kernel sends (``MapFigureWidget._send_update_msg``), then replayed in Debian's chromium (Playwright, no
network) on the same figure with plotly.js's ``Plotly.update`` — what the widget's browser code does with
each. Printed: the time ``Plotly.update`` takes (its work is synchronous) and the time until the next frame
is painted. This is the browser's share of a click in JupyterLab (bench_click.py times the whole click):
a message that changes any trace's positions or texts makes plotly.js lay out and draw every trace again.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import tempfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "benchmarks")]

REPLAY_JS = """async ([fig, msgs, how]) => {
  const gd = document.getElementById('g');
  await Plotly.newPlot(gd, fig.data, fig.layout, {displayModeBar: false});
  await new Promise(r => setTimeout(r, 300));
  const step = how === 'alone' ? window.medvizStep : (g, s, l, t) => Plotly.update(g, s, l, t);
  const out = [];
  for (const m of msgs) {
    const t0 = performance.now();
    const done = step(gd, m.style, m.layout || {}, m.traces);
    const t1 = performance.now();
    await done;
    await new Promise(r => requestAnimationFrame(() => setTimeout(r, 0)));
    out.push([t1 - t0, performance.now() - t0]);
    await new Promise(r => setTimeout(r, 50));
  }
  return out;
}"""


def record(moves: int) -> tuple[dict[str, Any], list[dict[str, Any]], list[str]]:
    """The viewer's first figure (as plotly JSON), and the map messages of ``moves`` jumps and steps with their kind."""
    from plotly.io.json import to_json_plotly

    from medviz.apps import ReplayViewer
    from medviz.apps.common import MapFigureWidget
    from medviz.engine import play
    from medviz.rules.medempires.ruleset import RULESET
    from medviz.rules.medempires.view import history_view

    historical = RULESET.policies["historical"]()
    history = play(RULESET, "vespers-1282", {}, seed=1490, players={"A": historical, "B": historical})
    viewer = ReplayViewer(history, view_at=history_view, start=1)
    assert viewer.map is not None
    viewer.map.resize(560, 1100)
    fig = viewer.map.figure
    first = json.loads(to_json_plotly({"data": fig.to_plotly_json()["data"], "layout": {**fig.to_plotly_json()["layout"], "width": 1100}}))
    msgs: list[dict[str, Any]] = []
    kinds: list[str] = []
    send = MapFigureWidget._send_update_msg

    def keep(self: Any, restyle_data: Any, relayout_data: Any, trace_indexes: Any = None, **kw: Any) -> Any:
        msgs.append(json.loads(to_json_plotly({"style": restyle_data, "layout": relayout_data, "traces": trace_indexes})))
        return send(self, restyle_data, relayout_data, trace_indexes, **kw)

    MapFigureWidget._send_update_msg = keep
    try:
        entries = [value for _label, value in viewer.jump.options][1:]
        k = 0
        for i in range(2 * moves):
            before = len(msgs)
            if i % 2 == 0:
                k = (k + 7) % len(entries)
                viewer.jump.value = entries[k]
                kind = "jump"
            else:
                for _ in range(30):  # on to the first step that changes the map
                    viewer.forward.click()
                    if len(msgs) > before:
                        break
                kind = "step"
            kinds += [kind] * (len(msgs) - before)
    finally:
        MapFigureWidget._send_update_msg = send
    return first, msgs, kinds


def main() -> None:
    """Record the messages, replay them in chromium, print medians and 90th percentiles."""
    import importlib.util

    import plotly
    from playwright.sync_api import sync_playwright

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--moves", type=int, default=20, help="jumps and steps each")
    ap.add_argument("--rounds", type=int, default=3)
    args = ap.parse_args()
    first, msgs, kinds = record(args.moves)
    spec = importlib.util.spec_from_file_location("browser_conftest", ROOT / "tests" / "browser" / "conftest.py")
    assert spec and spec.loader
    conftest = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(conftest)
    page_file = Path(tempfile.mkdtemp(prefix="bench-redraw-")) / "redraw.html"
    script = (Path(plotly.__file__).parent / "package_data" / "plotly.min.js").as_uri()
    step_js = (ROOT / "medviz" / "apps" / "map_redraw.js").read_text(encoding="utf-8")
    page_file.write_text(f"<html><body><div id=g></div><script src='{script}'></script>"
                         f"<script>window.medvizStep = ({step_js})(Plotly);</script></body></html>", encoding="utf-8")
    times: list[tuple[list[float], str, str]] = []
    drawn_alone = 0
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=conftest.CHROMIUM, args=conftest.CHROMIUM_ARGS)
        page = browser.new_page(viewport={"width": 1280, "height": 720})
        page.route("**/*", lambda route: route.continue_() if route.request.url.startswith("file:") else route.abort())
        for _ in range(args.rounds):
            for how in HOWS:  # in turns, so a loaded machine loads both alike
                page.goto(page_file.as_uri())
                times += [(t, k, how) for t, k in zip(page.evaluate(REPLAY_JS, [first, msgs, how]), kinds)]
                if how == "alone":
                    drawn_alone += page.evaluate("document.getElementById('g')._medvizRedraw.alone")
        browser.close()
    print(f"Vespers 1282 (seed 1490): {len(msgs)} map messages of {args.moves} jumps and steps, {args.rounds} rounds, "
          f"chromium at 1280x720; {drawn_alone // args.rounds} of {len(msgs)} drawn alone; load {os.getloadavg()[0]:.1f}")
    for kind in ("step", "jump"):
        for how in HOWS:
            for i, what in enumerate(("call", "until painted")):
                s = sorted(t[i] for t, k, h in times if k == kind and h == how)
                if s:
                    print(f"  {kind:<5} {HOWS[how]:<26} {what:<14} n={len(s):3}  median {statistics.median(s):6.1f} ms"
                          f"  p90 {s[int(0.9 * (len(s) - 1))]:6.1f} ms")


#: The two ways a step is drawn: plotly.js's whole redraw, and the map widget's (medviz/apps/map_redraw.js).
HOWS = {"whole": "Plotly.update (whole)", "alone": "map_redraw.js (alone)"}

if __name__ == "__main__":
    main()
