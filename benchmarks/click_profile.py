"""Where the time of one JupyterLab click goes (``bench_click.py --profile N``; issue 15's step responses).

For a profiled click the page records (page JavaScript installed once, :data:`SETUP_JS`):

* the kernel's messages: the click's ``comm_msg`` going out on JupyterLab's kernel websocket, the kernel's
  ``status: busy`` and ``idle`` for it (their ``header.date``: the kernel's own time handling it, Python), and
  every ``comm_msg`` back (which widget's state: the map's ``_py2js_update`` or another widget's ``value``...),
  each at the time the browser received it (the MessageEvent's time stamp);
* the DOM mutations of each widget of the app (the map, HTML boxes, the slider, labels, ...), first and last;
* plotly.js's events on the map (``plotly_update``, ``plotly_relayout``, ``plotly_afterplot``,
  ``plotly_animated``...: each ends a plotly call) as ``performance.mark``\\ s;

and Chrome's trace (CDP ``Tracing``, the devtools timeline categories) of the renderer's main thread from
the click until the map has settled: time in script, style recalculation, layout, paint/compositing and
garbage collection (self times), how many style recalculations and layouts a script forced, and how
long the longest task was. Times are ms after the click (performance.now), the trace's aligned on a mark.
"""

from __future__ import annotations

import json
import statistics
import time
from typing import Any

from bench_click import SETTLE_JS

#: Installed once in the JupyterLab page: window.__mp (the records) and window.__mpReset().
SETUP_JS = r"""
() => {
  if (window.__mp) return;
  const mp = window.__mp = {t0: 0, ws: [], dom: {}, plotly: []};
  const td = new TextDecoder();
  const decode = (data) => {
    try {
      if (typeof data === 'string') { const m = JSON.parse(data); return {channel: m.channel, header: m.header, parent: m.parent_header, content: m.content, bytes: data.length}; }
      const buf = data instanceof ArrayBuffer ? data : data.buffer.slice(data.byteOffset, data.byteOffset + data.byteLength);
      const dv = new DataView(buf); const n = Number(dv.getBigUint64(0, true)); const off = [];
      for (let i = 0; i < n; i++) off.push(Number(dv.getBigUint64(8 * (i + 1), true)));
      off.push(buf.byteLength);
      const part = (i) => td.decode(new Uint8Array(buf, off[i], off[i + 1] - off[i]));
      return {channel: part(0), header: JSON.parse(part(1)), parent: JSON.parse(part(2)), content: JSON.parse(part(4)), bytes: buf.byteLength};
    } catch (e) { return null; }
  };
  const summary = (m, dir, t) => {
    const c = m.content || {}, d = c.data || {};
    return {dir, t, type: m.header && m.header.msg_type, id: m.header && m.header.msg_id, parent: m.parent && m.parent.msg_id,
            date: m.header && m.header.date, state: c.execution_state, comm: c.comm_id, method: d.method,
            keys: d.state ? Object.keys(d.state) : [], bytes: m.bytes};
  };
  const send = WebSocket.prototype.send;
  WebSocket.prototype.send = function (data) {
    if (!this.__mp) {
      this.__mp = true;
      this.addEventListener('message', (ev) => {
        if (!mp.t0) return;
        const m = decode(ev.data); if (m) mp.ws.push(summary(m, 'in', ev.timeStamp));
      });
    }
    if (mp.t0) { const m = decode(data); if (m) mp.ws.push(summary(m, 'out', performance.now())); }
    return send.call(this, data);
  };
  const kind = (node) => {
    const el = node.nodeType === 1 ? node : node.parentElement;
    if (!el) return 'other';
    if (el.closest('.js-plotly-plot')) return 'map';
    const w = el.closest('.jupyter-widgets');
    if (!w) return 'other';
    const c = Array.from(w.classList).find(k => k.startsWith('widget-') && k !== 'widget-inline-hbox' && k !== 'widget-inline-vbox');
    return c || 'widget';
  };
  const obs = new MutationObserver((records) => {
    if (!mp.t0) return;
    const t = performance.now();
    for (const r of records) {
      const k = kind(r.target);
      const d = mp.dom[k] = mp.dom[k] || {first: t, last: t, n: 0};
      d.last = t; d.n++;
    }
  });
  document.querySelectorAll('.jp-CodeCell').forEach((c) => obs.observe(c, {subtree: true, childList: true, attributes: true, characterData: true}));
  document.querySelectorAll('.js-plotly-plot').forEach((gd) => {
    const emit = gd.emit;
    if (typeof emit !== 'function') return;
    gd.emit = function (name) {
      if (mp.t0 && /^plotly_(update|relayout|restyle|afterplot|animated|transitioning|transitioned|redraw|react|animating)$/.test(name)) {
        mp.plotly.push({name: name.slice(7), t: performance.now()});
        performance.mark('mp:' + name.slice(7));
      }
      return emit.apply(this, arguments);
    };
  });
  window.__mpReset = () => { mp.ws = []; mp.dom = {}; mp.plotly = []; mp.t0 = performance.now(); performance.mark('mp:click'); return mp.t0; };
  window.__mpTake = () => { const out = JSON.parse(JSON.stringify(mp)); mp.t0 = 0; return out; };
}
"""

#: bench_click's SETTLE_JS, the click preceded by window.__mpReset() (its time the click's).
SETTLE_PROFILED_JS = SETTLE_JS.replace("const t0 = performance.now();", "const t0 = window.__mpReset();")
if SETTLE_PROFILED_JS == SETTLE_JS:
    raise RuntimeError("bench_click.SETTLE_JS no longer starts its clock as click_profile expects")

CATEGORIES = ",".join(["devtools.timeline", "disabled-by-default-devtools.timeline", "blink.user_timing",
                       "toplevel", "v8", "disabled-by-default-devtools.timeline.frame"])

SCRIPT = {"FunctionCall", "EvaluateScript", "TimerFire", "EventDispatch", "FireAnimationFrame", "RunMicrotasks",
          "v8.run", "v8.callFunction", "V8.Execute", "XHRReadyStateChange", "FireIdleCallback", "v8.compile",
          "v8.compileModule", "V8.CompileCode", "v8.evaluateModule", "ParseHTML", "v8.parseOnBackground",
          "V8.DeoptimizeCode", "CompileScript", "CompileCode", "OptimizeCode", "CacheScript"}
STYLE = {"UpdateLayoutTree", "RecalculateStyles", "ParseAuthorStyleSheet", "ScheduleStyleRecalculation"}
LAYOUT = {"Layout", "UpdateLayout", "LayoutShift", "IntersectionObserverController::computeIntersections",
          "ComputeIntersections"}
PAINT = {"Paint", "PrePaint", "Layerize", "UpdateLayer", "UpdateLayerTree", "Commit", "CompositeLayers",
         "PaintImage", "Decode Image", "PaintSetup", "RasterTask", "UpdateLayer", "HitTest"}
GC = {"MinorGC", "MajorGC", "V8.GCScavenger", "V8.GCIncrementalMarking", "V8.GCFinalizeMC", "V8.GC_MC_BACKGROUND_MARKING",
      "V8.GCCompactor", "BlinkGC.AtomicPhase", "V8.GC_MARK_COMPACTOR", "V8.GC_SCAVENGER", "GCEvent"}


def _part(name: str) -> str:
    if name in SCRIPT or name.startswith("v8.") or name.startswith("V8.") and "GC" not in name:
        return "script"
    if name in STYLE:
        return "style"
    if name in LAYOUT:
        return "layout"
    if name in PAINT:
        return "paint"
    if name in GC or "GC" in name:
        return "gc"
    return "other"


def trace_click(cdp: Any, page: Any, act: Any) -> tuple[Any, list[dict[str, Any]]]:
    """Run ``act()`` (which clicks and returns once the map settled) under Chrome's tracing; its result and the
    trace's events."""
    events: list[dict[str, Any]] = []
    complete: list[bool] = []
    on_data = lambda params: events.extend(params.get("value") or [])  # noqa: E731
    on_done = lambda _params: complete.append(True)  # noqa: E731
    cdp.on("Tracing.dataCollected", on_data)
    cdp.on("Tracing.tracingComplete", on_done)
    cdp.send("Tracing.start", {"categories": CATEGORIES, "transferMode": "ReportEvents"})
    try:
        result = act()
        page.wait_for_timeout(100)
    finally:
        cdp.send("Tracing.end")
        deadline = time.monotonic() + 30
        while not complete and time.monotonic() < deadline:
            page.wait_for_timeout(50)
        cdp.remove_listener("Tracing.dataCollected", on_data)
        cdp.remove_listener("Tracing.tracingComplete", on_done)
    return result, events


def _main_thread(events: list[dict[str, Any]]) -> tuple[tuple[int, int], float] | None:
    """The (pid, tid) of the renderer main thread holding the click's mark, and the mark's trace time (µs)."""
    for e in events:
        if e.get("name") == "mp:click" and "blink.user_timing" in e.get("cat", ""):
            return (e["pid"], e["tid"]), float(e["ts"])
    return None


def _complete_events(events: list[dict[str, Any]], thread: tuple[int, int]) -> list[tuple[float, float, str, dict[str, Any]]]:
    """The thread's duration events as (start µs, end µs, name, args), B/E pairs joined."""
    out = []
    open_: dict[str, list[dict[str, Any]]] = {}
    for e in sorted((e for e in events if (e.get("pid"), e.get("tid")) == thread), key=lambda e: e["ts"]):
        ph = e.get("ph")
        if ph == "X" and "dur" in e:
            out.append((float(e["ts"]), float(e["ts"]) + float(e["dur"]), e["name"], e.get("args") or {}))
        elif ph == "B":
            open_.setdefault(e["name"], []).append(e)
        elif ph == "E" and open_.get(e["name"]):
            b = open_[e["name"]].pop()
            out.append((float(b["ts"]), float(e["ts"]), e["name"], {**(b.get("args") or {}), **(e.get("args") or {})}))
    out.sort(key=lambda x: (x[0], -x[1]))
    return out


def main_thread_parts(events: list[dict[str, Any]], t0: float, until: float) -> dict[str, float]:
    """Self times (ms) by part of the renderer's main thread from the click (``t0``, performance.now ms) to
    ``until`` ms after it, with the counts and times of style recalculations and layouts a script forced."""
    found = _main_thread(events)
    if found is None:
        return {}
    thread, mark_us = found
    lo, hi = mark_us, mark_us + until * 1000.0
    spans = [s for s in _complete_events(events, thread) if s[1] > lo and s[0] < hi]
    parts: dict[str, float] = {"script": 0.0, "style": 0.0, "layout": 0.0, "paint": 0.0, "gc": 0.0, "other": 0.0}
    forced = {"forced style n": 0.0, "forced style": 0.0, "forced layout n": 0.0, "forced layout": 0.0,
              "style n": 0.0, "layout n": 0.0, "layout objects": 0.0, "longest task": 0.0}
    stack: list[list[Any]] = []  # [end, name, child time]

    def close(upto: float) -> None:
        while stack and stack[-1][0] <= upto:
            end, name, child, start = stack.pop()
            own = max(0.0, min(end, hi) - max(start, lo)) - child
            parts[_part(name) if name not in ("RunTask", "ThreadControllerImpl::RunTask") else "other"] += own / 1000.0
            if stack:
                stack[-1][2] += max(0.0, min(end, hi) - max(start, lo))

    for start, end, name, args in spans:
        close(start)
        if name in ("RunTask", "ThreadControllerImpl::RunTask") and not stack:
            forced["longest task"] = max(forced["longest task"], (min(end, hi) - max(start, lo)) / 1000.0)
        in_script = any(_part(s[1]) == "script" for s in stack)
        if name in ("UpdateLayoutTree", "RecalculateStyles"):
            forced["style n"] += 1
            if in_script:
                forced["forced style n"] += 1
                forced["forced style"] += (end - start) / 1000.0
        if name == "Layout":
            forced["layout n"] += 1
            begin = args.get("beginData") or {}
            forced["layout objects"] = max(forced["layout objects"], float(begin.get("dirtyObjects") or 0))
            if in_script:
                forced["forced layout n"] += 1
                forced["forced layout"] += (end - start) / 1000.0
        stack.append([end, name, 0.0, start])
    close(float("inf"))
    parts["idle"] = max(0.0, until - sum(parts.values()))
    return {**parts, **forced}


def breakdown(rec: dict[str, Any], settle: float, trace: dict[str, float]) -> dict[str, float]:
    """One click's parts (ms after the click) from the page's records and the trace's main-thread parts."""
    t0 = float(rec["t0"])
    ws = rec["ws"]
    out: dict[str, float] = {"settled": settle}
    sent = next((m for m in ws if m["dir"] == "out" and m["type"] == "comm_msg"), None)
    if sent is not None:
        out["comm out"] = sent["t"] - t0
        mine = [m for m in ws if m["dir"] == "in" and m["parent"] == sent["id"]]
        if mine:
            out["first msg back"] = mine[0]["t"] - t0
        busy = next((m for m in mine if m["type"] == "status" and m["state"] == "busy"), None)
        idle = next((m for m in mine if m["type"] == "status" and m["state"] == "idle"), None)
        if busy and idle:
            out["kernel busy->idle (python)"] = _date_ms(idle["date"]) - _date_ms(busy["date"])
            out["idle back"] = idle["t"] - t0
        updates = [m for m in mine if m["type"] == "comm_msg" and m["method"] == "update"]
        for m in updates:
            key = "map msg back" if "_py2js_update" in m["keys"] else "other widgets' msgs back (last)"
            if key == "map msg back" and key in out:
                key = "map msg back (last)"
            out[key] = m["t"] - t0
        out["msgs back"] = float(len(updates))
        out["kB back"] = sum(m["bytes"] for m in updates) / 1000.0
    for k, d in rec["dom"].items():
        out[f"dom {k} (last)"] = d["last"] - t0
    for i, p in enumerate(rec["plotly"]):
        out[f"plotly {i + 1}: {p['name']}"] = p["t"] - t0
    out["plotly events"] = float(len(rec["plotly"]))
    if rec["plotly"] and "map msg back" in out:
        # plotly's drawing of the click: from its message's arrival to plotly's last event (the sequences of
        # events differ from click to click; this span is comparable)
        out["plotly span (map msg -> last event)"] = rec["plotly"][-1]["t"] - t0 - out["map msg back"]
    out.update({f"main thread {k}": v for k, v in trace.items()})
    return out


def _date_ms(date: str) -> float:
    """A Jupyter message header's ISO date as ms (for differences)."""
    from datetime import datetime

    return datetime.fromisoformat(date.replace("Z", "+00:00")).timestamp() * 1000.0


def profiled_click(page: Any, cdp: Any, graph: str, act: str, quiet: int) -> dict[str, float] | None:
    """Click ``act`` under the profile; its breakdown (None if the map did not change)."""
    settle, events = trace_click(cdp, page, lambda: page.evaluate(SETTLE_PROFILED_JS, [graph, act, quiet]))
    rec = page.evaluate("() => window.__mpTake()")
    if settle is None:
        return None
    return breakdown(rec, float(settle), main_thread_parts(events, float(rec["t0"]), float(settle)))


def report(by_code: dict[str, dict[str, list[dict[str, float]]]]) -> str:
    """Medians of each part per click kind, one column per code tree."""
    lines = []
    codes = list(by_code)
    kinds = sorted({k for res in by_code.values() for k in res}, key=["step", "jump", "slider release", "branch"].index)
    for kind in kinds:
        lines.append(f"  {kind}: median ms after the click (n = "
                     + ", ".join(f"{c} {len(by_code[c].get(kind, []))}" for c in codes) + ")")
        keys: list[str] = []
        for c in codes:
            for b in by_code[c].get(kind, []):
                keys += [k for k in b if k not in keys]
        keys.sort(key=_order)
        lines.append("    " + f"{'part':<40}" + "".join(f"{c[:14]:>16}" for c in codes))
        for key in keys:
            row = []
            for c in codes:
                vals = [b[key] for b in by_code[c].get(kind, []) if key in b]
                row.append(f"{statistics.median(vals):16.1f}" if vals else f"{'-':>16}")
            lines.append(f"    {key:<40}" + "".join(row))
    return "\n".join(lines)


def _order(key: str) -> tuple[int, str]:
    first = ["settled", "comm out", "first msg back", "kernel busy->idle (python)", "map msg back", "map msg back (last)",
             "other widgets' msgs back (last)", "idle back", "msgs back", "kB back",
             "plotly span (map msg -> last event)"]
    if key in first:
        return first.index(key), ""
    if key.startswith("dom "):
        return 20, key
    if key.startswith("plotly"):
        return 30, key if not key.startswith("plotly events") else "~"
    return 40, key


def dump(path: Any, by_code: dict[str, dict[str, list[dict[str, float]]]]) -> None:
    """Every profiled click's breakdown as JSON (for a closer look)."""
    with open(path, "w", encoding="utf-8") as f:
        json.dump(by_code, f, indent=1)
