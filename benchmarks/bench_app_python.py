"""The kernel's share of a click (issue 15): Python's time and the bytes the widgets send, per click, side by side.

Usage::

    python benchmarks/bench_app_python.py                          # this checkout alone, 8 rounds
    python benchmarks/bench_app_python.py --against /work/main     # this checkout and another, in turns
    python benchmarks/bench_app_python.py --rounds 12 --profile branch   # and where this checkout's branch time goes

Builds the apps on the golden Vespers history (``tests/golden/vespers-1282-seed-1.json.gz``) in one Python
process per checkout (``PYTHONPATH`` = that checkout, so each imports its own medviz), and times in each, in
turns, what the kernel does for a click, in Python, without a browser:

* **step** -- the ReplayViewer's ``step ▶`` from places spread over the war;
* **step back** -- then its ``◀ step`` (back to the moment the step left);
* **jump** -- its jump menu, every seventh entry in turn (as ``bench_click.py`` picks them);
* **slider release** -- its slider moved 10 events on (a PageUp on the slider's handle);
* **branch** -- the DiceLab's ``Branch here``, each round on another combat roll of the war as played with
  another face (a branch not made before; the roll and the face are picked first, untimed);
* **compare** -- a BranchCompare of that branch switched between the roll's phase and the end;
* **classroom** -- a Classroom of the viewer and the dice lab switched from one to the other.

Each widget's comm is one that records, as the kernel would send them, the messages a click makes: the
time includes packing them as JSON (``jupyter_client``'s packer), and the bytes are counted. Printed: each
click's median ms and kB (and messages) per checkout, and the ratio this / the other. A shared machine
slows both alike, as the rounds alternate (the order flips each round). The load (``uptime``) is printed.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
GOLDEN = ROOT / "tests" / "golden" / "vespers-1282-seed-1.json.gz"
ACTIONS = ("step", "step back", "jump", "slider release", "branch", "compare", "classroom")
SLIDER_PAGE = 10


class _Sent:
    """What the recording comms have sent since the last ``take()``: messages and their bytes."""

    def __init__(self) -> None:
        self.messages = 0
        self.bytes = 0

    def take(self) -> tuple[int, int]:
        out = (self.messages, self.bytes)
        self.messages = self.bytes = 0
        return out


def _recording_comms() -> _Sent:
    """Every widget made from now on gets a comm that packs each message as the kernel would and counts it."""
    import comm
    from comm.base_comm import BaseComm
    from jupyter_client.jsonutil import json_clean
    from jupyter_client.session import json_packer

    sent = _Sent()

    class RecordingComm(BaseComm):  # type: ignore[misc]
        def publish_msg(self, msg_type: str, data: Any = None, metadata: Any = None, buffers: Any = None,
                        **keys: Any) -> None:
            content = json_clean(dict(data=data or {}, comm_id=self.comm_id, **keys))
            packed = json_packer(content)
            sent.messages += 1
            sent.bytes += len(packed) + sum(len(memoryview(b).cast("B")) for b in buffers or ())

    comm.create_comm = lambda *a, **kw: RecordingComm(*a, **kw)
    return sent


def worker(golden: Path) -> None:
    """One checkout's side: build the apps, then run a round of clicks for each ``round`` line read."""
    import cProfile
    import gzip
    import io
    import pstats

    sent = _recording_comms()
    import medviz.rules.medempires.game  # noqa: F401  (registers the whole-game scenarios)
    from medviz.apps import Classroom, DiceLab, ReplayViewer
    from medviz.apps.compare import BranchCompare
    from medviz.engine.history import History
    from medviz.rules.medempires.view import history_view

    history = History.from_json(gzip.decompress(golden.read_bytes()).decode("utf-8"), golden.name)
    t0 = time.perf_counter()
    viewer = ReplayViewer(history, view_at=history_view, start=1)
    lab = DiceLab(history, view_at=history_view)
    built = {"viewer": viewer, "lab": lab}
    room = Classroom({"replay": lambda: built["viewer"], "dice lab": lambda: built["lab"]})
    room.show("dice lab")
    room.show("replay")
    faces = [v for _label, v in lab.faces.options if v != lab.model.value]
    if not faces:
        raise SystemExit("the dice lab's roll has one face: nothing to branch")
    lab.faces.value = faces[0]
    first = lab.model.make_branch()
    # rolls with known effects (combat rolls), other than the one branched here
    rolls = [str(r.roll) for r in history.rolls() if getattr(r, "effects", None) and str(r.roll) != first.override[0]]
    lab.model.switch(history)
    compare = BranchCompare(first, view_at=history_view)
    build_s = time.perf_counter() - t0
    entries = [v for _label, v in viewer.jump.options if v >= 0]
    # Step from places whose next event changes the map (as bench_click.py times them), spread over the war.
    # (its own views, so the viewer's and the map's caches start cold)
    from medviz.apps.model import portrayal_changes

    shown = portrayal_changes(history, history_view)
    changes = [s for s in range(1, len(history) - 1) if shown(s + 1)]
    starts = changes[:: max(1, len(changes) // 40)]
    sent.take()
    print(json.dumps({"ready": True, "events": len(history), "build_s": build_s}), flush=True)
    k = 0
    for line in sys.stdin:
        command = line.split()
        if not command or command[0] != "round":
            break
        profile = command[1:] and command[1] or ""
        out: dict[str, dict[str, float]] = {}

        def timed(action: str, click: Any) -> None:
            sent.take()
            prof = cProfile.Profile() if action == profile else None
            t = time.perf_counter()
            if prof is not None:
                prof.enable()
            click()
            if prof is not None:
                prof.disable()
            ms = (time.perf_counter() - t) * 1000
            messages, size = sent.take()
            out[action] = {"ms": ms, "messages": messages, "bytes": size}
            if prof is not None:
                text = io.StringIO()
                pstats.Stats(prof, stream=text).sort_stats("cumulative").print_stats(40)
                out[action]["profile"] = text.getvalue()  # type: ignore[assignment]

        viewer.model.cursor = starts[k % len(starts)]
        timed("step", viewer.forward.click)
        timed("step back", viewer.back.click)
        timed("jump", lambda: setattr(viewer.jump, "value", entries[(k * 7) % len(entries)]))
        viewer.model.cursor = (k * 97) % (len(history) - SLIDER_PAGE)
        timed("slider release", lambda: setattr(viewer.slider, "value", viewer.slider.value + SLIDER_PAGE))
        lab.model.switch(history)
        lab.model.select(rolls[(k * 5) % len(rolls)])  # each round a roll not branched before, another face
        lab.faces.value = next(v for _label, v in lab.faces.options if v != lab.model.value)
        sent.take()
        timed("branch", lab.button.click)
        timed("compare", lambda: setattr(compare.when, "value", "end" if compare.when.value == "phase" else "phase"))
        timed("classroom", lambda: room.show("dice lab" if room.menu.value == "replay" else "replay"))
        k += 1
        print(json.dumps(out), flush=True)


def _start(checkout: Path) -> subprocess.Popen[str]:
    env = {**os.environ, "PYTHONPATH": str(checkout)}
    proc = subprocess.Popen([sys.executable, str(Path(__file__).resolve()), "--worker", str(GOLDEN)], cwd=checkout,
                            env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    return proc


def _ask(proc: subprocess.Popen[str], line: str) -> dict[str, Any]:
    assert proc.stdin is not None and proc.stdout is not None
    proc.stdin.write(line + "\n")
    proc.stdin.flush()
    got = proc.stdout.readline()
    if not got:
        raise SystemExit(f"a worker stopped (exit {proc.wait()})")
    return dict(json.loads(got))


def main() -> None:
    """Run the rounds in turns and print medians and ratios."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--against", metavar="CHECKOUT", type=Path, help="another checkout of medviz, timed in turns")
    ap.add_argument("--rounds", type=int, default=8, help="clicks of each kind per checkout")
    ap.add_argument("--profile", choices=ACTIONS, help="cProfile this checkout's clicks of this kind (top 40)")
    ap.add_argument("--worker", metavar="GOLDEN", type=Path, help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.worker:
        worker(args.worker)
        return
    codes = {"this": ROOT, **({"against": args.against.resolve()} if args.against else {})}
    print(f"load before: {os.getloadavg()[0]:.2f} {os.getloadavg()[1]:.2f} {os.getloadavg()[2]:.2f}", flush=True)
    procs = {name: _start(code) for name, code in codes.items()}
    try:
        for name, proc in procs.items():
            assert proc.stdout is not None
            ready = json.loads(proc.stdout.readline() or "{}")
            if not ready.get("ready"):
                raise SystemExit(f"{name}: the worker did not start")
            print(f"{name} ({codes[name]}): apps built in {ready['build_s']:.2f} s on {ready['events']} events",
                  flush=True)
        res: dict[str, dict[str, list[dict[str, float]]]] = {name: {a: [] for a in ACTIONS} for name in procs}
        profiles: list[str] = []
        for r in range(args.rounds):
            order = list(procs) if r % 2 == 0 else list(reversed(procs))
            for name in order:
                prof = args.profile if args.profile and name == "this" else ""
                got = _ask(procs[name], f"round {prof}".strip())
                for action, m in got.items():
                    if "profile" in m:
                        profiles.append(str(m.pop("profile")))
                    res[name][action].append(m)
        for proc in procs.values():
            assert proc.stdin is not None
            proc.stdin.close()
            proc.wait()
    finally:
        for proc in procs.values():
            if proc.poll() is None:
                proc.kill()
    print(f"load after: {os.getloadavg()[0]:.2f} {os.getloadavg()[1]:.2f} {os.getloadavg()[2]:.2f}")
    print(f"\nmedians of {args.rounds} clicks each (ms of Python; kB and messages the widgets send)")
    head = f"{'click':<16}" + "".join(f"{name + ' ms':>12}{'kB':>8}{'msgs':>6}" for name in procs)
    print(head + (f"{'ratio ms':>10}{'ratio kB':>10}" if len(procs) == 2 else ""))
    for action in ACTIONS:
        row = f"{action:<16}"
        meds = {}
        for name in procs:
            runs = res[name][action]
            ms = statistics.median(m["ms"] for m in runs)
            kb = statistics.median(m["bytes"] for m in runs) / 1000
            msgs = statistics.median(m["messages"] for m in runs)
            meds[name] = (ms, kb)
            row += f"{ms:>12.1f}{kb:>8.1f}{msgs:>6.0f}"
        if len(procs) == 2:
            (a_ms, a_kb), (b_ms, b_kb) = meds["this"], meds["against"]
            row += f"{a_ms / b_ms:>9.2f}x{(a_kb / b_kb if b_kb else float('nan')):>9.2f}x"
        print(row)
    for text in profiles[:1]:
        print(f"\ncProfile of this checkout's {args.profile} (the first round):\n{text}")


if __name__ == "__main__":
    main()
