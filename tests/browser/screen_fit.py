"""Does an app fit one screen? Boxes of its parts read in the page, against the part of the page that shows.

Used by the browser tests of the notebooks: the app's top is scrolled to the top of JupyterLab's notebook
panel (or of the window), then every part named must lie within what the screen shows, and the map must
be whole: its drawing as wide as the app and not cut at the bottom.
"""

from __future__ import annotations

from typing import Any

import pytest
from helpers_sample import wait_for

#: Boxes in page pixels: what the page shows (JupyterLab's notebook panel, the full-screen element or the
#: window), the app, its map's drawing, and each part found by a CSS selector (a button by ``button:Name``).
BOXES_JS = """
([app, parts]) => {
  const box = (e) => { if (!e) return null; const b = e.getBoundingClientRect();
                       return {top: b.top, bottom: b.bottom, left: b.left, right: b.right, width: b.width}; };
  const full = document.fullscreenElement;
  const lab = app.closest('.jp-WindowedPanel-outer');
  const shown = full ? box(full) : lab ? box(lab)
      : {top: 0, bottom: window.innerHeight, left: 0, right: window.innerWidth, width: window.innerWidth};
  const find = (sel) => sel.startsWith('button:')
      ? Array.from(app.querySelectorAll('button')).find(b => b.textContent.trim().startsWith(sel.slice(7)))
      : app.querySelector(sel);
  const out = {};
  for (const p of parts) out[p] = box(find(p));
  const gd = app.querySelector('.js-plotly-plot');
  const svg = gd && gd.querySelector('svg.main-svg');
  const cs = getComputedStyle(app);
  const inner = app.clientWidth - parseFloat(cs.paddingLeft) - parseFloat(cs.paddingRight);
  return {shown, app: {...box(app), width: inner}, svg: box(svg), scale: gd ? gd.dataset.medvizScale || null : null, parts: out};
}
"""


#: anywidget (0.11) rejects a model's ``ready`` when its ESM took over 2 s to load (``AbortSignal.timeout(2000)``)
#: and reports it as this page error, although the widget renders once loaded: on 2 loaded cores, with big
#: maps drawing at the same time, a ScreenFit can take that long. Tests that check their apps measured and
#: fitted the screen let this one message pass (every other page error still fails them).
ANYWIDGET_SLOW = "[anywidget] Failed to initialize model."


def page_errors(errors: list[str]) -> list[str]:
    """The page's errors but anywidget's slow-load report (``ANYWIDGET_SLOW``)."""
    return [e for e in errors if e != ANYWIDGET_SLOW]


def scroll_to_top(app: Any) -> None:
    """Put the app's top at the top of what the page shows."""
    app.evaluate("e => document.fullscreenElement === e ? (e.scrollTop = 0) : e.scrollIntoView({block: 'start'})")


def misfits(app: Any, parts: list[str]) -> list[str]:
    """What does not fit one screen: parts missing or outside what the page shows, a cut or narrow map."""
    b = app.evaluate(f"(app, parts) => ({BOXES_JS})([app, parts])", parts)
    shown, problems = b["shown"], []
    for name, box in b["parts"].items():
        if box is None:
            problems.append(f"{name}: not on the page")
        elif box["top"] < shown["top"] - 1 or box["bottom"] > shown["bottom"] + 1:
            problems.append(f"{name}: at {box['top']:.0f}-{box['bottom']:.0f} px, the screen shows "
                            f"{shown['top']:.0f}-{shown['bottom']:.0f}")
    svg = b["svg"]
    if svg is None:
        problems.append("map: not drawn")
    else:
        if svg["top"] < shown["top"] - 1 or svg["bottom"] > shown["bottom"] + 1:
            problems.append(f"map: at {svg['top']:.0f}-{svg['bottom']:.0f} px, the screen shows "
                            f"{shown['top']:.0f}-{shown['bottom']:.0f} (scale {b['scale']})")
        if abs(svg["width"] - b["app"]["width"]) > 3 or svg["right"] > shown["right"] + 1:
            problems.append(f"map: {svg['width']:.0f} px wide in an app {b['app']['width']:.0f} px wide inside")
    return problems


def fits_one_screen(app: Any, parts: list[str], what: str) -> None:
    """Wait (the map is redrawn for the room the browser measured) until ``app`` fits one screen, else fail."""
    seen: list[list[str]] = []

    def fits() -> bool:
        scroll_to_top(app)
        seen.append(misfits(app, parts))
        return not seen[-1]

    try:
        wait_for(f"{what} to fit one screen", fits, timeout=20, every=0.5)
    except pytest.fail.Exception:
        pytest.fail(f"{what} does not fit one screen: {seen[-1]}")


#: The blank beside a state map inside its figure, in screen pixels (``gd`` is the plotly graph div): ``left`` the
#: figure's left edge to the map's, ``right`` the map's right edge, ``panel`` the side panel's first box (the panel's
#: words and legend start there; null without one), ``gap`` between them, ``width`` the figure's; in an app
#: (``.medviz-app``) also ``app`` its content width and ``top`` the figure's top below the app's.
BANDS_JS = """
(gd) => {
  const svg = gd.querySelector('svg.main-svg'), fl = gd._fullLayout, app = gd.closest('.medviz-app');
  if (!svg || !fl) return null;
  const s = svg.getBoundingClientRect(), k = s.width / Number(svg.getAttribute('width')), xa = fl.xaxis;
  const ends = [xa.l2p(xa.range[0]), xa.l2p(xa.range[1])].map(p => (p + xa._offset) * k);
  const left = Math.min(...ends), right = Math.max(...ends);
  const boxes = Array.from(gd.querySelectorAll('.annotation')).map(a => a.getBoundingClientRect())
    .filter(r => r.width > 0 && r.left - s.left > right).map(r => r.left - s.left);
  const panel = boxes.length ? Math.min(...boxes) : null;
  const cs = app ? getComputedStyle(app) : null;
  return {left, right, panel, gap: panel === null ? null : panel - right, width: s.width,
          app: app ? app.clientWidth - parseFloat(cs.paddingLeft) - parseFloat(cs.paddingRight) : null,
          top: app ? s.top - app.getBoundingClientRect().top : null};
}
"""
