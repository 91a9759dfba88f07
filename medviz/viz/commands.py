"""The ``medviz map`` subcommand: draw the bare game map to an offline HTML page and/or a PNG.

PNG pictures are made without kaleido and without any network: the figure is written to a
temporary HTML page with plotly.js inline, headless Chromium opens it, plotly.js rasterises the
figure itself (``Plotly.toImage``) and the page hands the PNG back in its DOM.
"""

from __future__ import annotations

import argparse
import base64
import json
import os
import re
import shutil
import subprocess
import tempfile
from pathlib import Path
from typing import TYPE_CHECKING, Any

from medviz.engine.errors import MalformedInput, MedvizError
from medviz.engine.files import check_output_path, write_atomic

if TYPE_CHECKING:
    import plotly.graph_objects as go

__all__ = ["find_chromium", "register", "write_html", "write_png"]

CHROMIUM_NAMES = ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable", "chrome")
INSTALL_HINT = "install it with `apt-get install -y chromium` (Debian) or set MEDVIZ_CHROMIUM to a Chrome binary"


#: Headless, sandbox-free (root in containers) and cut off from the network: every host name
#: resolves to nothing, and Chromium's own background requests are switched off.
CHROMIUM_FLAGS = (
    "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-dev-shm-usage",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
    "--disable-default-apps", "--disable-extensions", "--no-default-browser-check",
    "--host-resolver-rules=MAP * ~NOTFOUND", "--virtual-time-budget=30000",
)


def find_chromium() -> str | None:
    """Path of a Chromium/Chrome binary (``MEDVIZ_CHROMIUM`` first), or None."""
    env = os.environ.get("MEDVIZ_CHROMIUM")
    if env:
        return env if Path(env).is_file() else None
    for name in CHROMIUM_NAMES:
        found = shutil.which(name)
        if found:
            return found
    return None


def _atomic_write(path: Path, data: bytes) -> None:
    """Write bytes via a temporary sibling, then rename (``engine.files.write_atomic``: leftovers cleaned)."""
    write_atomic(path, data, "map file")


def html_page(fig: go.Figure, *, config: dict[str, Any] | None = None) -> str:
    """A standalone HTML page of the figure with plotly.js inline (no CDN, works offline)."""
    import plotly.io as pio

    page: str = pio.to_html(fig, include_plotlyjs=True, full_html=True,
                            config={"displaylogo": False, "scrollZoom": True, **(config or {})})
    return page


def write_html(fig: go.Figure, path: str | Path) -> Path:
    """Write the figure as one offline HTML page (atomic)."""
    _atomic_write(Path(path), html_page(fig).encode("utf-8"))
    return Path(path)


_RENDER_JS = """
<script>
(function () {
  var gd = document.getElementsByClassName('plotly-graph-div')[0];
  function done(text) { var p = document.createElement('pre'); p.id = 'medviz-png';
    p.textContent = text; document.body.appendChild(p); }
  function go() {
    Plotly.toImage(gd, {format: 'png', width: %(w)d, height: %(h)d, scale: %(s)s})
      .then(done, function (e) { done('ERROR ' + e); });
  }
  if (gd && gd._fullLayout) { go(); } else { window.addEventListener('load', go); }
})();
</script>
"""


def render_png(fig: go.Figure, *, width: int | None = None, height: int | None = None,
               scale: float = 1.0, timeout: float = 120.0) -> bytes:
    """Rasterise the figure to PNG bytes in headless Chromium, offline."""
    chromium = find_chromium()
    if chromium is None:
        raise MedvizError(f"--png needs Chromium, which was not found; {INSTALL_HINT}")
    w = int(width or fig.layout.width or 1600)
    h = int(height or fig.layout.height or 1000)
    page = html_page(fig, config={"staticPlot": True})
    page = page.replace("</body>", _RENDER_JS % {"w": w, "h": h, "s": json.dumps(scale)} + "</body>")
    with tempfile.TemporaryDirectory(prefix="medviz-png-") as tmp:
        src = Path(tmp) / "map.html"
        src.write_text(page, encoding="utf-8")
        cmd = [chromium, *CHROMIUM_FLAGS, f"--user-data-dir={tmp}/profile", "--dump-dom", src.as_uri()]
        try:
            run = subprocess.run(cmd, capture_output=True, timeout=timeout, check=False)
        except subprocess.TimeoutExpired:
            raise MedvizError(f"Chromium did not finish drawing the map within {timeout:.0f} s") from None
    found = re.search(rb'<pre id="medviz-png">(.*?)</pre>', run.stdout, re.S)
    if not found:
        tail = run.stderr.decode("utf-8", "replace").strip().splitlines()[-1:] or ["no output"]
        raise MedvizError(f"Chromium returned no picture (exit {run.returncode}: {tail[0]})")
    text = found.group(1).decode("ascii", "replace").strip()
    if not text.startswith("data:image/png;base64,"):
        raise MedvizError(f"plotly.js could not draw the map: {text[:200]}")
    return base64.b64decode(text.split(",", 1)[1])


def write_png(fig: go.Figure, path: str | Path, **kwargs: Any) -> Path:
    """Write the figure as a PNG file (atomic); see :func:`render_png`."""
    data = render_png(fig, **kwargs)
    _atomic_write(Path(path), data)
    return Path(path)


def cmd_map(args: argparse.Namespace) -> int:
    """Draw the bare map of ``--map`` to the requested files (or say how to ask for one)."""
    from medviz.geo import load
    from medviz.viz.basemap import base_map

    if args.png is None and args.html is None:
        raise MalformedInput("map: give --png FILE and/or --html FILE")
    for flag, target in (("--png", args.png), ("--html", args.html)):
        if target is not None:
            check_output_path(target, f"map {flag}")
    if args.png and find_chromium() is None:
        raise MedvizError(f"--png needs Chromium, which was not found; {INSTALL_HINT}")
    fig = base_map(load(args.map), show_labels=not args.no_labels, show_cities=not args.no_cities,
                   title=args.title or None)
    if args.html:
        print(f"wrote {write_html(fig, args.html)}")
    if args.png:
        print(f"wrote {write_png(fig, args.png, scale=args.scale)}")
    return 0


def register(subparsers: Any) -> None:
    """Add ``medviz map [--png FILE] [--html FILE]`` to the command's subparsers."""
    p = subparsers.add_parser("map", help="draw the bare game map (areas, names, cities, seas)",
                              description="Draw the bare game map offline as HTML and/or PNG.")
    p.add_argument("--png", metavar="FILE", help="write a PNG picture (needs Chromium)")
    p.add_argument("--html", metavar="FILE", help="write an offline HTML page (plotly.js inline)")
    p.add_argument("--map", default="medempires", help="which map (default: medempires)")
    p.add_argument("--scale", type=float, default=1.0, help="PNG pixel scale (default 1)")
    p.add_argument("--title", default="", help="a title above the map (default: none)")
    p.add_argument("--no-labels", action="store_true", help="leave out area names")
    p.add_argument("--no-cities", action="store_true", help="leave out cities")
    p.set_defaults(func=cmd_map)
