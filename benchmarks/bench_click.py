"""Step responses in a real browser: how long until the map has settled after a click (issue 15, point 8).

Usage::

    python benchmarks/bench_click.py                 # 12 clicks per action in JupyterLab, 30 in the page
    python benchmarks/bench_click.py --clicks 20 --skip-lab
    python benchmarks/bench_click.py --skip-page --against ../main --lab-sizes 1920x1080,1280x720
    python benchmarks/bench_click.py --skip-lab --sizes 1280x720,1920x1080 --against /work/main   # pages side by side
    python benchmarks/bench_click.py --skip-lab --painted --against /work/main   # until the click's frame is painted
    python benchmarks/bench_click.py --skip-page --against /work/main --clicks 10 --profile 3
        # and where each JupyterLab click's time goes (benchmarks/click_profile.py), per part, side by side

Opens the Vespers replay (seed 1490, the historical players, as in notebooks/vespers-1282.ipynb) in
Debian's chromium (Playwright, no network) twice, side by side in one run:

* **JupyterLab** — a ReplayViewer and a DiceLab in a notebook (a copy under test-artifacts/, on a
  JupyterLab server on localhost): every click goes to the kernel, which answers with the figure update;
* **exported page** — ``medviz export``'s standalone HTML (everything happens in the browser); with
  ``--against CHECKOUT`` also the page another checkout of medviz exports, timed in turns with this one.

For each action it clicks in the page (from page JavaScript, so Playwright's own latency is not counted)
and waits until the plotly graph has been quiet for 50 ms (a MutationObserver on the graph div); the
time printed is the last mutation's time after the click (the quiet period is not counted). Actions:
step (the step/next button), jump (the jump menu), slider release (one slider change), branch (the
DiceLab's Branch here, JupyterLab only), and dragging the slider for about a second (time from the
pointer's release until the map settles). In JupyterLab a step is timed from places (phase starts and
annotated moments, reached by the jump menu first) whose next event changes the map. ``--against CHECKOUT`` runs a second JupyterLab whose kernel imports medviz from
another checkout (e.g. main's) and takes the clicks in turn on both, so a loaded machine loads both alike; that
kernel runs with ``MEDVIZ_STEP_REDRAW=0`` (plotly's whole redraw; ``--baseline-redraw`` sets another value), this
checkout's with this process's environment. Goals: each click <= 150 ms (median and 90th percentile
printed against it); a drag settles <= 0.5 s after release.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import statistics
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]


def _browser_conftest() -> Any:
    """tests/browser/conftest.py (chromium's path and flags, the offline page), loaded by its path."""
    import importlib.util

    spec = importlib.util.spec_from_file_location("medviz_browser_conftest", ROOT / "tests" / "browser" / "conftest.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module

CLICK_GOAL_MS = 150.0
DRAG_GOAL_MS = 500.0
QUIET_MS = 50

#: Click ``act`` (a function of the page run in the page) and resolve with the ms from the click to the
#: graph's last mutation once it has been quiet for QUIET_MS (null if nothing changed within 3 s).
SETTLE_JS = """
async ([graphSel, act, quiet]) => {
  const gd = document.querySelector(graphSel);
  return await new Promise((resolve) => {
    let last = null, timer = null;
    const t0 = performance.now();
    const done = () => { obs.disconnect(); resolve(last === null ? null : last - t0); };
    const obs = new MutationObserver(() => { last = performance.now(); clearTimeout(timer); timer = setTimeout(done, quiet); });
    obs.observe(gd, {subtree: true, childList: true, attributes: true, characterData: true});
    setTimeout(() => { if (last === null) done(); }, 3000);
    (new Function('return ' + act))()();
  });
}
"""

#: The exported page only (``--painted``): ms from the click until the frame showing it has been painted (its
#: work done, microtasks and all, then the next animation frame and a task after it) -- the map, the log and
#: the side column together, as a reader sees them.
PAINT_JS = """
async ([graphSel, act, quiet]) => {
  const t0 = performance.now();
  (new Function('return ' + act))()();
  await new Promise(r => setTimeout(r, 0));
  for (let i = 0; i < 200 && window.medviz.drawing && window.medviz.drawing(); i++) await new Promise(r => setTimeout(r, 5));
  await new Promise(r => requestAnimationFrame(() => setTimeout(r, 0)));
  return performance.now() - t0;
}
"""

#: After a drag: resolve with the ms from the pointer's release (window.__released) to the graph's last
#: mutation once quiet.
AFTER_RELEASE_JS = """
async ([graphSel, quiet]) => {
  const gd = document.querySelector(graphSel);
  return await new Promise((resolve) => {
    let last = performance.now(), timer = setTimeout(() => done(), quiet);
    const done = () => { obs.disconnect(); resolve(Math.max(0, last - window.__released)); };
    const obs = new MutationObserver(() => { last = performance.now(); clearTimeout(timer); timer = setTimeout(done, quiet); });
    obs.observe(gd, {subtree: true, childList: true, attributes: true, characterData: true});
  });
}
"""


def _stats(name: str, samples: list[float], goal: float) -> str:
    if not samples:
        return f"  {name:<16} no samples (nothing changed on the map)"
    s = sorted(samples)
    med = statistics.median(s)
    p90 = s[min(len(s) - 1, int(round(0.9 * (len(s) - 1))))]
    verdict = "meets" if p90 <= goal else ("median meets" if med <= goal else "misses")
    return (f"  {name:<16} n={len(s):>3}  median {med:7.1f} ms  p90 {p90:7.1f} ms  max {s[-1]:7.1f} ms"
            f"   goal <= {goal:.0f} ms: {verdict} (median {med / goal:.2f}x of goal)")


def _clicks(page: Any, graph: str, act: str, n: int, pause: float = 0.25, what: str = "", js: str = SETTLE_JS) -> list[float]:
    print(f"  timing {what or 'clicks'} ({n})", file=sys.stderr, flush=True)
    out = []
    for _ in range(n):
        ms = page.evaluate(js, [graph, act, QUIET_MS])
        if ms is not None:
            out.append(float(ms))
        time.sleep(pause)
    return out


def _drag(page: Any, graph: str, handle: Any, track: Any, n: int) -> list[float]:
    """Drag the slider's handle across part of its track for ~1 s, ``n`` times; ms from release to settled."""
    page.evaluate("() => document.addEventListener('pointerup', () => { window.__released = performance.now(); }, true)")
    out = []
    t = track.bounding_box()
    for i in range(n):
        h = handle.bounding_box()
        x0, y = h["x"] + h["width"] / 2, h["y"] + h["height"] / 2
        x1 = t["x"] + t["width"] * (0.25 + 0.5 * ((i % 2) == 0))
        page.mouse.move(x0, y)
        page.mouse.down()
        for k in range(1, 21):
            page.mouse.move(x0 + (x1 - x0) * k / 20, y)
            time.sleep(0.05)
        page.mouse.up()
        out.append(float(page.evaluate(AFTER_RELEASE_JS, [graph, QUIET_MS])))
        time.sleep(0.5)
    return out


PAGE_ACTIONS = {
    "step": "() => document.getElementById('next').click()",
    "jump": "() => { const j = document.getElementById('jump'); window.__k = (window.__k + 7)"
            " % window.__jumps.length; j.value = window.__jumps[window.__k];"
            " j.dispatchEvent(new Event('change', {bubbles: true})); }",
    "slider release": "() => { const s = document.getElementById('slider');"
                      " s.value = String((+s.value + 97) % (+s.max + 1));"
                      " s.dispatchEvent(new Event('input', {bubbles: true}));"
                      " s.dispatchEvent(new Event('change', {bubbles: true})); }",
}

#: Writes the bench's page with the medviz on PYTHONPATH (another checkout): argv = out file, notes file.
EXPORT_PAGE = """
import sys
from medviz.engine import play
from medviz.export.annotations import load_annotations
from medviz.export.html import export_html
from medviz.rules.medempires.ruleset import RULESET
historical = RULESET.policies["historical"]()
history = play(RULESET, "vespers-1282", {}, seed=1490, players={"A": historical, "B": historical})
export_html(history, sys.argv[1], load_annotations(sys.argv[2], history))
"""


def export_with(checkout: Path, out: Path) -> Path:
    """The bench's page as another checkout of medviz exports it (its own code, run in a child process)."""
    import os
    import subprocess

    env = {**os.environ, "PYTHONPATH": str(checkout)}
    notes = ROOT / "notebooks" / "annotations" / "vespers-1282.toml"
    subprocess.run([sys.executable, "-c", EXPORT_PAGE, str(out), str(notes)], env=env, check=True, cwd=checkout)
    return out


def bench_page(browser: Any, pages: dict[str, Path], n: int, size: tuple[int, int] = (1920, 1080),
               painted: bool = False) -> dict[str, dict[str, list[float]]]:
    """Exported pages at one screen size: next, jump and slider release in turns of 5 clicks per page (the
    machine's load falls on all alike), then a drag in each."""
    OfflinePage = _browser_conftest().OfflinePage
    graph = "#plot"
    opened = {}
    for name, path in pages.items():
        p = OfflinePage(browser, *size)
        p.page.goto(path.as_uri())
        deadline = time.monotonic() + 60  # polled: the page's CSP forbids wait_for_function's eval
        while not p.page.evaluate("() => !!(window.medviz && window.medviz.ready)"):
            if time.monotonic() > deadline:
                raise SystemExit(f"{path}: the page did not get ready in 60 s")
            time.sleep(0.1)
        p.page.evaluate("() => { const j = document.getElementById('jump'); window.__jumps = Array.from(j.options)"
                        ".map(o => o.value).filter(v => v !== '' && +v >= 0); window.__k = 0; }")
        opened[name] = p
    res: dict[str, dict[str, list[float]]] = {name: {} for name in pages}
    for action, act in PAGE_ACTIONS.items():
        for start in range(0, n, 5):
            for name, p in opened.items():
                p.page.bring_to_front()
                res[name].setdefault(action, []).extend(_clicks(p.page, graph, act, min(5, n - start), 0.1, f"{action} ({name})",
                                                                PAINT_JS if painted else SETTLE_JS))
    for name, p in opened.items():
        p.page.bring_to_front()
        res[name]["drag (release)"] = _drag_range(p.page, graph, p.page.locator("#slider"), max(3, n // 4))
        p.close()
    return res


def _drag_range(page: Any, graph: str, slider: Any, n: int) -> list[float]:
    """Drag an ``<input type=range>``: press on it and move across it for ~1 s; ms from release to settled."""
    page.evaluate("() => document.addEventListener('pointerup', () => { window.__released = performance.now(); }, true)")
    b = slider.bounding_box()
    out = []
    for i in range(n):
        y = b["y"] + b["height"] / 2
        xa, xb = (b["x"] + 0.2 * b["width"], b["x"] + 0.8 * b["width"]) if i % 2 == 0 else \
            (b["x"] + 0.8 * b["width"], b["x"] + 0.2 * b["width"])
        page.mouse.move(xa, y)
        page.mouse.down()
        for k in range(1, 21):
            page.mouse.move(xa + (xb - xa) * k / 20, y)
            time.sleep(0.05)
        page.mouse.up()
        out.append(float(page.evaluate(AFTER_RELEASE_JS, [graph, QUIET_MS])))
        time.sleep(0.3)
    return out


NOTEBOOK_CELLS = [
    """from medviz.engine import play
from medviz.rules.medempires.ruleset import RULESET
from medviz.rules.medempires.view import history_view
from medviz.export.annotations import load_annotations
from medviz.apps import ReplayViewer, DiceLab
historical = RULESET.policies["historical"]()
history = play(RULESET, "vespers-1282", {}, seed=1490, players={"A": historical, "B": historical})
notes = load_annotations("annotations/vespers-1282.toml", history)
set_up = next(p.start for p in history.phases() if p.turn == 1)""",
    "ReplayViewer(history, view_at=history_view, annotations=notes, start=set_up)",
    "DiceLab(history, view_at=history_view)",
]


LAB_STEP = ("() => Array.from(document.querySelectorAll(\"[data-bench-cell='1'] button\"))"
            ".find(b => b.textContent.trim() === 'step ▶').click()")
LAB_JUMP = ("() => { const j = document.querySelector(\"[data-bench-cell='1'] .medviz-jump select\") ||"
            " document.querySelector(\"[data-bench-cell='1'] .widget-dropdown select\");"
            " window.__k = ((window.__k || 0) + 7) % (j.options.length - 1);"
            " j.selectedIndex = 1 + window.__k; j.dispatchEvent(new Event('change', {bubbles: true})); }")
LAB_RELEASE = ("() => { const h = document.querySelector(\"[data-bench-cell='1'] .noUi-handle\");"
               " h.focus(); h.dispatchEvent(new KeyboardEvent('keydown', {key: 'PageUp', bubbles: true})); }")
LAB_BRANCH = ("() => Array.from(document.querySelectorAll(\"[data-bench-cell='2'] button\"))"
              ".find(b => b.textContent.trim() === 'Branch here').click()")
VIEWER_MAP, LAB_MAP = "[data-bench-cell='1'] .js-plotly-plot", "[data-bench-cell='2'] .js-plotly-plot"


@contextlib.contextmanager
def _lab(browser: Any, code: Path, name: str, size: tuple[int, int], redraw: str | None = None) -> Iterator[Any]:
    """A JupyterLab server whose kernel imports medviz from ``code``, with the bench notebook run in a page; its
    kernel's ``MEDVIZ_STEP_REDRAW`` is ``redraw`` (None: this process's)."""
    import importlib

    helpers = importlib.import_module("helpers_sample")  # tests/helpers_sample.py (on sys.path above)
    jupyter_lab, open_and_run_all = helpers.jupyter_lab, helpers.open_and_run_all
    scratch_notebook, wait_for = helpers.scratch_notebook, helpers.wait_for

    folder = ROOT / "test-artifacts" / f"bench-click-{name}"
    path = scratch_notebook(folder, "bench.ipynb", NOTEBOOK_CELLS)
    OfflinePage = _browser_conftest().OfflinePage
    runtime = Path(tempfile.mkdtemp(prefix="bench-click-rt-"))
    kernel_env = {"PYTHONPATH": str(code), **({"MEDVIZ_STEP_REDRAW": redraw} if redraw is not None else {})}
    before = {key: os.environ.get(key) for key in kernel_env}
    os.environ.update(kernel_env)  # the kernel's medviz and redraw (the server passes its environment on)
    try:
        server = jupyter_lab(runtime, runtime / "lab.log")
        lab = server.__enter__()
    finally:
        for key, value in before.items():
            if value is None:
                del os.environ[key]
            else:
                os.environ[key] = value
    try:
        p = OfflinePage(browser, *size)
        page = p.page
        open_and_run_all(page, lab, path)
        cells = page.locator(".jp-CodeCell")
        wait_for("the DiceLab's map", lambda: cells.nth(2).locator(".js-plotly-plot .main-svg").count() > 0, timeout=300)
        wait_for("the viewer's map", lambda: cells.nth(1).locator(".js-plotly-plot .main-svg").count() > 0, timeout=60)
        page.locator(".jp-StatusBar-TextItem", has_text="| Idle").first.wait_for(timeout=60_000)
        page.wait_for_timeout(2000)
        page.evaluate("() => { document.querySelectorAll('.jp-CodeCell').forEach((c, i) => c.dataset.benchCell = i); }")
        page.evaluate(f"() => {{ window.__medvizCode = {json.dumps(str(code))}; }}")
        yield page
        p.close()
    finally:
        server.__exit__(None, None, None)


def _timed(page: Any, graph: str, act: str) -> float | None:
    ms = page.evaluate(SETTLE_JS, [graph, act, QUIET_MS])
    return None if ms is None else float(ms)


def _jump_to(index: int) -> str:
    """The jump menu's entry ``index`` (0 is "jump to …")."""
    return ("() => { const j = document.querySelector(\"[data-bench-cell='1'] .medviz-jump select\");"
            f" j.selectedIndex = {index}; j.dispatchEvent(new Event('change', {{bubbles: true}})); }}")


def step_starts(history: Any, notes: Any, most: int = 4) -> list[tuple[int, int]]:
    """Places to time a step from: (entry of the viewer's jump menu, 1 = the first after "jump to …";
    steps from there until the map changes, at most ``most``).

    A step that changes nothing on the map leaves nothing to time there; so each timed step is the
    first one after such an entry that redraws the map (the jump and the steps before it not timed).
    """
    from medviz.apps.model import ReplayModel
    from medviz.rules.medempires.view import history_view
    from medviz.viz.state_map import _geo, places_of_map, plan_view

    places = places_of_map(_geo("medempires"))

    def drawn(seq: int) -> tuple[Any, ...]:
        p = plan_view(history_view(history, seq), places)
        return p.fills, p.badges, p.overlays, p.panel, p.title, p.subtitle

    model = ReplayModel(history)
    entries = sorted([*model.stops(), *model.bookmarks(notes)], key=lambda o: o[1])
    out = []
    for k, (_label, seq) in enumerate(entries):
        for j in range(1, most + 1):
            # the map as drawn changes (a view may change in words the map does not show)
            if seq + j < len(history) and drawn(seq + j) != drawn(seq + j - 1):
                out.append((k + 1, j))
                break
    return out


def _to_step_start(page: Any, starts: list[tuple[int, int]], k: int, n: int) -> None:
    """Put the viewer where its next step is a timed one: the ``k``-th of ``n`` spread over ``starts``."""
    entry, steps = starts[(k * len(starts) // max(1, n)) % len(starts)]
    _timed(page, VIEWER_MAP, _jump_to(entry))
    for _ in range(steps - 1):
        page.evaluate(LAB_STEP)
        time.sleep(0.4)
    time.sleep(0.4)


def _branch_faces(page: Any) -> list[str]:
    page.locator("[data-bench-cell='2']").scroll_into_view_if_needed()
    faces: list[str] = page.evaluate("() => Array.from(document.querySelectorAll(\"[data-bench-cell='2'] "
                                     ".widget-toggle-buttons button\")).map(b => b.textContent.trim())"
                                     ".filter(t => /^\\d+$/.test(t))")
    return faces


def profile_lab(pages: dict[str, Any], n: int, starts: list[tuple[int, int]] | None,
                ) -> dict[str, dict[str, list[dict[str, float]]]]:
    """``n`` profiled clicks of each kind on each JupyterLab page in turn (benchmarks/click_profile.py)."""
    import click_profile

    out: dict[str, dict[str, list[dict[str, float]]]] = {name: {} for name in pages}
    cdps = {}
    for name, page in pages.items():
        page.evaluate(click_profile.SETUP_JS)
        cdps[name] = page.context.new_cdp_session(page)

    def click(name: str, kind: str, graph: str, act: str) -> None:
        b = click_profile.profiled_click(pages[name], cdps[name], graph, act, QUIET_MS)
        if b is not None:
            out[name].setdefault(kind, []).append(b)
        time.sleep(0.3)

    print(f"  profiling step, jump, slider release ({n} each, in turn)", file=sys.stderr, flush=True)
    for k in range(n):
        for name, page in pages.items():
            page.locator("[data-bench-cell='1']").scroll_into_view_if_needed()
            if starts:
                _to_step_start(page, starts, k, n)
            click(name, "step", VIEWER_MAP, LAB_STEP)
    for kind, act in (("jump", LAB_JUMP), ("slider release", LAB_RELEASE)):
        for _ in range(n):
            for name in pages:
                click(name, kind, VIEWER_MAP, act)
    faces = {name: _branch_faces(page) for name, page in pages.items()}
    print(f"  profiling branch ({n})", file=sys.stderr, flush=True)
    for k in range(n):
        for name, page in pages.items():
            if not faces[name]:
                continue
            face = faces[name][(k + 1) % len(faces[name])]
            page.locator("[data-bench-cell='2']").get_by_role("button", name=face, exact=True).click()
            page.wait_for_timeout(600)
            click(name, "branch", LAB_MAP, LAB_BRANCH)
    for cdp in cdps.values():
        cdp.detach()
    return out


def bench_lab(browser: Any, n: int, codes: dict[str, Path], size: tuple[int, int] = (1920, 1080),
              starts: list[tuple[int, int]] | None = None, profile: int = 0,
              profiles: dict[str, Any] | None = None,
              redraws: dict[str, str | None] | None = None) -> dict[str, dict[str, list[float]]]:
    """JupyterLab, one server per code tree (``codes``: name -> the folder medviz is imported from; ``redraws``:
    name -> its kernel's MEDVIZ_STEP_REDRAW, None or missing for this process's), the clicks taken in turn: the ReplayViewer's step (from ``starts``, entries of its jump menu), jump,
    slider release and drag; the DiceLab's branch. With ``profile`` that many clicks of each kind are
    then profiled on each page, their breakdowns put into ``profiles`` (benchmarks/click_profile.py)."""
    res: dict[str, dict[str, list[float]]] = {name: {} for name in codes}

    def add(name: str, what: str, ms: float | None) -> None:
        res[name].setdefault(what, [])
        if ms is not None:
            res[name][what].append(ms)

    with contextlib.ExitStack() as stack:
        pages = {name: stack.enter_context(_lab(browser, code, name, size, (redraws or {}).get(name)))
                 for name, code in codes.items()}
        print(f"  {size[0]}x{size[1]}: timing step, jump and slider release ({n} each, in turn)", file=sys.stderr, flush=True)
        for page in pages.values():
            page.locator("[data-bench-cell='1']").scroll_into_view_if_needed()
        for k in range(n):
            for name, page in pages.items():
                if starts:  # spread over the game, each start once while there are more starts than clicks
                    _to_step_start(page, starts, k, n)
                add(name, "step", _timed(page, VIEWER_MAP, LAB_STEP))
                time.sleep(0.25)
        for what, act in (("jump", LAB_JUMP), ("slider release", LAB_RELEASE)):
            for _ in range(n):
                for name, page in pages.items():
                    add(name, what, _timed(page, VIEWER_MAP, act))
                    time.sleep(0.25)
        if profile and profiles is not None:
            profiles.update(profile_lab(pages, profile, starts))
        for name, page in pages.items():
            cell = page.locator("[data-bench-cell='1']")
            res[name]["drag (release)"] = _drag(page, VIEWER_MAP, cell.locator(".noUi-handle").first,
                                                cell.locator(".noUi-target").first, max(3, n // 4))
        # Branch: pick another face of the lab's roll, then time Branch here (each branch is new: faces cycle).
        faces = {name: _branch_faces(page) for name, page in pages.items()}
        print(f"  {size[0]}x{size[1]}: timing branch ({max(len(f) for f in faces.values())} faces)", file=sys.stderr, flush=True)
        for k in range(max(len(f) for f in faces.values())):
            for name, page in pages.items():
                if k >= len(faces[name]):
                    continue
                page.locator("[data-bench-cell='2']").get_by_role("button", name=faces[name][k], exact=True).click()
                page.wait_for_timeout(600)
                add(name, "branch", _timed(page, LAB_MAP, LAB_BRANCH))
                page.wait_for_timeout(400)
    return res


def main() -> None:
    """Run the benchmark and print medians and 90th percentiles against the goals."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--clicks", type=int, default=12, help="clicks per action in JupyterLab (page: 2.5x)")
    ap.add_argument("--skip-lab", action="store_true", help="only the exported page")
    ap.add_argument("--skip-page", action="store_true", help="only JupyterLab")
    ap.add_argument("--lab-sizes", default="1920x1080", metavar="WxH,...", help="JupyterLab window sizes")
    ap.add_argument("--sizes", default="1920x1080", help="screen sizes of the exported page, e.g. 1280x720,1920x1080")
    ap.add_argument("--painted", action="store_true",
                    help="exported page: time each click until its frame is painted (not until the map's DOM settles)")
    ap.add_argument("--against", metavar="CHECKOUT", type=Path,
                    help="also time another checkout of medviz (e.g. /work/main), in turns with this one: its exported page, "
                         "and JupyterLab with a kernel importing its medviz")
    ap.add_argument("--baseline-redraw", default="0", metavar="VALUE",
                    help="JupyterLab: the --against kernel's MEDVIZ_STEP_REDRAW (default 0: plotly's whole redraw, so the "
                         "comparison is the step redraw against it; this checkout's kernel keeps this process's)")
    ap.add_argument("--profile", type=int, default=0, metavar="N",
                    help="JupyterLab: also profile N clicks of each kind on each kernel (benchmarks/click_profile.py) and "
                         "print where their time went: kernel round trip, Python, messages, widgets' DOM, plotly calls, "
                         "the main thread's script/style/layout/paint")
    ap.add_argument("--profile-json", type=Path, metavar="FILE", help="with --profile: every profiled click's breakdown")
    args = ap.parse_args()
    from playwright.sync_api import sync_playwright

    browser_conftest = _browser_conftest()
    from medviz.engine import play
    from medviz.export.annotations import load_annotations
    from medviz.rules.medempires.ruleset import RULESET

    historical = RULESET.policies["historical"]()
    history = play(RULESET, "vespers-1282", {}, seed=1490, players={"A": historical, "B": historical})
    notes = load_annotations(ROOT / "notebooks" / "annotations" / "vespers-1282.toml", history)
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=browser_conftest.CHROMIUM, args=browser_conftest.CHROMIUM_ARGS)
        results = {}
        if not args.skip_page:
            from medviz.export.html import export_html

            tmp = Path(tempfile.mkdtemp(prefix="bench-click-"))
            pages = {"this checkout": export_html(history, tmp / "vespers.html", notes)}
            if args.against:
                pages[str(args.against)] = export_with(args.against.resolve(), tmp / "against.html")
            for size in args.sizes.split(","):
                w, h = (int(x) for x in size.lower().split("x"))
                for name, res in bench_page(browser, pages, int(args.clicks * 2.5), (w, h), args.painted).items():
                    results[f"exported page ({name}) at {w}x{h}" + (", until painted" if args.painted else "")] = res
        lab: dict[str, dict[str, dict[str, list[float]]]] = {}
        profiles: dict[str, dict[str, Any]] = {}
        if not args.skip_lab:
            codes = {"this": ROOT, **({"baseline": args.against.resolve()} if args.against else {})}
            for size in args.lab_sizes.split(","):
                w, h = (int(v) for v in size.lower().split("x"))
                profiles[size] = {}
                lab[size] = bench_lab(browser, args.clicks, codes, (w, h), step_starts(history, notes),
                                      args.profile, profiles[size], {"baseline": args.baseline_redraw})
        browser.close()
    print(f"Vespers 1282 (seed 1490, {len(history):,} events): time from a click until the map has settled "
          f"(quiet {QUIET_MS} ms, not counted), chromium")
    for where, res in results.items():
        print(where)
        for name, samples in res.items():
            print(_stats(name, samples, DRAG_GOAL_MS if name.startswith("drag") else CLICK_GOAL_MS))
    for size, by_code in lab.items():
        for code, res in by_code.items():
            redraw = args.baseline_redraw if code == "baseline" else os.environ.get("MEDVIZ_STEP_REDRAW")
            print(f"JupyterLab at {size}, medviz of {ROOT if code == 'this' else args.against}"
                  + (" (baseline)" if code == "baseline" else "") + f", kernel's MEDVIZ_STEP_REDRAW={redraw!r}")
            for name, samples in res.items():
                print(_stats(name, samples, DRAG_GOAL_MS if name.startswith("drag") else CLICK_GOAL_MS))
        if "baseline" in by_code:
            print(f"JupyterLab at {size}: median this / baseline (clicks taken in turn, so both saw the same load)")
            for name, samples in by_code["this"].items():
                base = by_code["baseline"].get(name) or []
                if samples and base:
                    print(f"  {name:<26} {statistics.median(samples):7.1f} / {statistics.median(base):7.1f} ms"
                          f" = {statistics.median(samples) / statistics.median(base):.2f}x")
    if args.profile:
        import click_profile

        print(f"MEDVIZ_STEP_REDRAW={os.environ.get('MEDVIZ_STEP_REDRAW')!r} in this checkout's kernel"
              + (f", {args.baseline_redraw!r} in the baseline's" if args.against else ""))
        for size, parts in profiles.items():
            print(f"JupyterLab at {size}: where a click's time goes (click_profile.py; this = {ROOT}"
                  + (f", baseline = {args.against}" if args.against else "") + ")")
            print(click_profile.report(parts))
        if args.profile_json:
            click_profile.dump(args.profile_json, profiles)


if __name__ == "__main__":
    main()
