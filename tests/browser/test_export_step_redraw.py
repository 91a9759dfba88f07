"""The exported page redraws only the traces a step changes: what it draws must be what plotly draws from
scratch for the same figure, and the figure must hold every channel's value of that step (as Python decodes
the page's deltas), after walking event by event, after jumps back and forth, and after emptied traces."""

from __future__ import annotations

import gzip
import json
import re
from pathlib import Path
from typing import Any

import pytest
from conftest import OfflinePage
from helpers_sample import ROOT

from medviz.engine import History
from medviz.export import html as export
from test_export_page import wait_until

#: Walk to ``target`` (event by event from the last stop when it is near, else one jump), wait until the
#: page's drawing is idle, then have plotly draw the whole figure again from its data; return both
#: drawings' traces (pattern ids, number rounding, style order and empty text points' offsets normalised).
COMPARE_JS = """
async ([target, from]) => {
  const gd = document.getElementById('plot');
  const sleep = (ms) => new Promise(r => setTimeout(r, ms));
  if (from !== null && target > from && target - from < 300) { for (let k = from + 1; k <= target; k++) window.medviz.show(k); }
  else window.medviz.show(target);
  await sleep(300);
  for (let i = 0; i < 100 && window.medviz.drawing(); i++) await sleep(50);
  const style = (h) => h.replace(/style="([^"]*)"/g, (all, s) => 'style="' + s.split(';').map(x => x.trim()).filter(Boolean).sort().join(';') + '"');
  const norm = (h) => style(h).replace(/#p[0-9a-f]{6}-/g, '#P-').replace(/ id="p[0-9a-f]{6}-/g, ' id="P-')
      .replace(/ pattern_filled/g, '').replace(/(\\d+\\.\\d{2})\\d+/g, '$1')
      .replace(/<g class="textpoint"[^>]*><\\/g>/g, '<g class="textpoint"></g>');  // a name with no text draws nothing, wherever its group stands
  const drawn = (g) => Array.from(g.querySelectorAll('.scatterlayer > .trace')).map(t => norm(t.outerHTML));
  const patterns = (g) => {  // the fill patterns the drawing uses (a pattern no fill uses any more draws nothing)
    const used = new Set(Array.from(g.querySelector('.scatterlayer').innerHTML.matchAll(/url\\(&quot;#([^&]+)&quot;\\)/g)).map(m => m[1]));
    return Array.from(g.querySelectorAll('defs pattern')).filter(p => used.has(p.id)).map(p => norm(p.outerHTML)).sort();
  };
  const out = {page: drawn(gd), pagePatterns: patterns(gd), data: JSON.parse(JSON.stringify(gd.data))};
  await Plotly.react(gd, JSON.parse(JSON.stringify(gd.data)), JSON.parse(JSON.stringify(gd.layout)));
  await Plotly.redraw(gd);  // everything drawn again from the figure's data
  out.fresh = drawn(gd);
  out.freshPatterns = patterns(gd);
  return out;
}
"""


def _at(trace: dict[str, Any], path: str) -> Any:
    v: Any = trace
    for part in path.split("."):
        if not isinstance(v, dict) or part not in v:
            return None
        v = v[part]
    return v


@pytest.fixture(scope="module")
def page_and_timeline(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, export.Timeline]:
    import medviz.rules.medempires.game  # noqa: F401  (registers the whole-game scenarios)

    golden = ROOT / "tests" / "golden" / "vespers-1282-seed-1.json.gz"
    h = History.from_json(gzip.decompress(golden.read_bytes()).decode("utf-8"), golden.name)
    path = export.export_html(h, tmp_path_factory.mktemp("redraw") / "vespers.html")
    text = path.read_text(encoding="utf-8")
    data = json.loads(re.search(r'<script id="medviz-data" type="application/json">(.*?)</script>', text, re.S).group(1))
    t = data["timeline"]
    return path, export.Timeline(t["figure"], [tuple(c) for c in t["channels"]], t["values"], t["init"], t["steps"])


def test_a_step_draws_what_a_full_redraw_draws(browser: Any, page_and_timeline: tuple[Path, export.Timeline]) -> None:
    path, tl = page_and_timeline
    last = len(tl.steps) - 1
    p = OfflinePage(browser, 1280, 720)
    try:
        page = p.page
        page.goto(path.as_uri())
        wait_until(page, "!!(window.medviz && window.medviz.ready)", 60)
        stops = [1, 40, 160, 161, 400, last // 2, last, 200, 5, last // 3]
        checked_changes = 0
        prev = 0
        for target in stops:
            out = page.evaluate(COMPARE_JS, [target, prev])
            prev = target
            assert len(out["page"]) == len(out["fresh"]), (target, len(out["page"]), len(out["fresh"]))
            for i, (a, b) in enumerate(zip(out["page"], out["fresh"])):
                assert a == b, (target, i, a[:300], b[:300])
            assert out["pagePatterns"] == out["freshPatterns"], target
            # The figure holds this step's value of every channel of a trace.
            for (trace, chpath), value in tl.state(target).items():
                if trace < 0:
                    continue
                got = _at(out["data"][trace], chpath)
                assert got == value or (value is None and got in (None, [])), (target, trace, chpath, got, value)
                checked_changes += 1
        assert checked_changes > 100
        assert not p.errors and not p.blocked, (p.errors, p.blocked)
    finally:
        p.close()
