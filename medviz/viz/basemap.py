"""The bare game map as a plotly figure: areas, names, cities and seas, drawn offline.

Drawn in a plain cartesian plot (x = longitude, y = latitude, y stretched by 1/cos(40°) so the
map keeps its shape), never in a plotly ``geo`` subplot: a geo subplot makes plotly.js fetch a
world topojson from a CDN, and a classroom may be offline. See docs/map.md.

Every area is one ``go.Scatter`` trace filled with ``fill="toself"`` whose ``name`` and ``uid``
carry the area id, so a state map recolours the map cheaply: pass ``fills`` here, or change
``fillcolor`` on the traces listed by :func:`area_traces` (geometry is sent once; a colour-only
update or animation frame costs bytes per area, not the outline again).
"""

from __future__ import annotations

import hashlib
import math
from collections import OrderedDict
from collections.abc import Hashable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any

import plotly.graph_objects as go

from medviz.viz.text import plain

__all__ = ["MapStyle", "area_colours", "area_traces", "base_map", "DEFAULT_STYLE"]

#: Latitude whose parallel keeps its true length; the map's y axis is stretched by 1/cos of it.
TRUE_SCALE_LAT = 40.0


@dataclass(frozen=True)
class MapStyle:
    """Colours and sizes of the bare map (style as data)."""

    land_palette: tuple[str, ...] = ("#efe3c8", "#e2d6bb", "#ead8c0", "#dfe0c3", "#e9ddd0", "#d9d2bd")
    sea_palette: tuple[str, ...] = ("#a9cbe6", "#b7d4ec", "#9ec3e0")
    context_fill: str = "#e6e4df"
    background: str = "#a9cbe6"
    land_border: str = "#8c7b62"
    sea_border: str = "#e8f1f9"
    context_border: str = "#b9b5ad"
    land_label: str = "#3b2f22"
    sea_label: str = "#2d5d87"
    context_label: str = "#8d8981"
    city_marker: str = "#7a1f1f"
    font_family: str = "Liberation Sans, Arial, Helvetica, sans-serif"
    land_label_size: int = 11
    sea_label_size: int = 12
    city_label_size: int = 10

    def __post_init__(self) -> None:
        if not self.land_palette or not self.sea_palette:
            raise ValueError("MapStyle needs at least one land and one sea colour")


DEFAULT_STYLE = MapStyle()

#: City name placement (plotly textposition) where the default would hide a name or a coast.
CITY_TEXT_POSITION: dict[str, str] = {
    "messina": "middle left",
    "sicily_east": "middle left",
    "calabria": "middle right",
    "venice": "bottom right",
    "genoa": "top center",
    "pisa": "middle left",
    "provence": "bottom center",
    "montpellier": "bottom center",
    "rossello": "middle right",
    "catalan_counties": "bottom left",
    "majorca": "bottom left",
    "upper_aragon": "bottom center",
    "lower_aragon": "bottom center",
    "corsica_north": "middle left",
    "corsica_south": "bottom center",
    "caralis": "bottom center",
    "tunis": "top left",
    "bougie": "top center",
    "naples": "middle left",
    "apulia": "bottom center",
    "papal_states": "middle left",
    "ravenna": "middle right",
    "ancona": "middle right",
    "dalmatia": "middle right",
    "sicily_west": "top center",
    "granada": "bottom center",
    "tlemcen": "bottom center",
    "guyenne": "middle right",
}


def _rings(geometry: Any) -> tuple[list[float | None], list[float | None]]:
    """Longitudes and latitudes of every ring of a (multi)polygon, rings separated by None."""
    xs: list[float | None] = []
    ys: list[float | None] = []
    polys = getattr(geometry, "geoms", [geometry])
    for poly in polys:
        for ring in [poly.exterior, *poly.interiors]:
            for x, y in ring.coords:
                xs.append(round(float(x), 4))
                ys.append(round(float(y), 4))
            xs.append(None)
            ys.append(None)
    return xs[:-1], ys[:-1]


def _rows(game_map: Any) -> list[dict[str, Any]]:
    """The map's features as dicts (accepts a GeoDataFrame or any iterable of feature dicts)."""
    if hasattr(game_map, "iterrows"):
        return [dict(row) for _, row in game_map.iterrows()]
    return [dict(r) for r in game_map]


def area_colours(
    rows: Iterable[Mapping[str, Any]], palette: tuple[str, ...], kind: str
) -> dict[str, str]:
    """Give each area of ``kind`` a palette colour different from every touching neighbour."""
    items = sorted((r for r in rows if r["kind"] == kind), key=lambda r: -float(r["geometry"].area))
    colours: dict[str, str] = {}
    for r in items:
        taken = {
            colours[o["id"]]
            for o in items
            if o["id"] in colours and r["geometry"].distance(o["geometry"]) < 1e-9
        }
        free = [c for c in palette if c not in taken]
        colours[r["id"]] = free[0] if free else palette[len(colours) % len(palette)]
    return colours


def _fmt(value: Any) -> str:
    return "" if value is None or (isinstance(value, float) and math.isnan(value)) else str(value)


def base_map(
    game_map: Any,
    *,
    fills: Mapping[str, str] | None = None,
    show_labels: bool = True,
    show_cities: bool = True,
    title: str | None = None,
    style: MapStyle = DEFAULT_STYLE,
    width: int | None = 1600,
    height: int | None = 1000,
    merge_fixed: bool = False,
) -> go.Figure:
    """Draw the bare map (areas, names, cities, seas); ``fills`` overrides colours by area id.

    ``merge_fixed``: seas and context lands are drawn as one trace per kind and colour (a state map, whose
    steps never change their fill: plotly.js lays out every trace again at each step); ``meta["areas"]``
    of such a trace gives each area's [start, stop) in its points, and their names' labels carry their hover.
    The figure of a map already drawn with the same content, style, size and flags is rebuilt from a cached
    copy without plotly validating it again (byte-identical; each call gets its own independent figure).
    """
    key = _cache_key(game_map, fills, show_labels, show_cities, title, style, width, height, merge_fixed)
    if key is not None:
        cached = _CACHE.get(key)
        if cached is not None:
            _CACHE.move_to_end(key)
            return _figure_from(cached)
    fig = _draw(game_map, fills=fills, show_labels=show_labels, show_cities=show_cities, title=title,
                style=style, width=width, height=height, merge_fixed=merge_fixed)
    if key is not None:
        _CACHE[key] = fig.to_plotly_json()  # (a deep copy: plotly's to_dict copies the figure's properties)
        while len(_CACHE) > _CACHE_SIZE:
            _CACHE.popitem(last=False)
    return fig


#: Private switch: ``False`` draws every base map afresh (the benchmark and the tests compare both ways).
_CACHE_ON = True
#: How many base map figures the cache keeps (least recently used goes first): a few maps x sizes x styles.
_CACHE_SIZE = 8
_CACHE: OrderedDict[tuple[Hashable, ...], dict[str, Any]] = OrderedDict()


def _fingerprint(game_map: Any) -> bytes | None:
    """A digest of everything :func:`base_map` reads from a GeoDataFrame map; None if it cannot tell (no cache)."""
    import pandas as pd

    if not isinstance(game_map, pd.DataFrame) or "geometry" not in game_map.columns:
        return None
    geometry = game_map["geometry"]
    if not hasattr(geometry, "to_wkb"):
        return None
    h = hashlib.blake2b(digest_size=16)
    h.update(repr([(str(c), str(t)) for c, t in game_map.dtypes.items()]).encode())
    h.update(pd.util.hash_pandas_object(game_map.index).to_numpy().tobytes())
    for column in game_map.columns:
        if column == "geometry":
            continue
        values = game_map[column]
        try:
            h.update(pd.util.hash_pandas_object(values, index=False).to_numpy().tobytes())
        except TypeError:  # a column of arrays or lists (Medieval's card grid): value by value
            for value in values:
                if not _digest_value(h, value):
                    return None
    try:
        for wkb in geometry.to_wkb():
            h.update(b"\x00" if wkb is None else len(wkb).to_bytes(8, "little") + wkb)
    except (TypeError, ValueError):
        return None
    return h.digest()


def _digest_value(h: Any, value: Any) -> bool:
    """Feed one cell to the digest (scalars, arrays, lists, dicts); False if it cannot be told apart safely."""
    import numpy as np

    if value is None or isinstance(value, (bool, int, float, str, bytes)):
        h.update(f"{type(value).__name__}:{value!r};".encode())
        return True
    if isinstance(value, np.ndarray):
        if value.dtype == object:
            h.update(f"array{value.shape}[".encode())
            return all(_digest_value(h, v) for v in value.ravel()) and (h.update(b"]") is None)
        h.update(f"array{value.dtype.str}{value.shape}:".encode() + value.tobytes())
        return True
    if isinstance(value, np.generic):
        return _digest_value(h, value.item())
    if isinstance(value, (list, tuple)):
        h.update(f"{type(value).__name__}[".encode())
        return all(_digest_value(h, v) for v in value) and (h.update(b"]") is None)
    if isinstance(value, dict):
        h.update(b"dict{")
        return all(_digest_value(h, k) and _digest_value(h, v) for k, v in value.items()) and (h.update(b"}") is None)
    return False


def _cache_key(game_map: Any, fills: Mapping[str, str] | None, *flags: Hashable) -> tuple[Hashable, ...] | None:
    """The cache key of a base map: the map's content digest, its fills and every argument; None: do not cache."""
    if not _CACHE_ON:
        return None
    digest = _fingerprint(game_map)
    if digest is None:
        return None
    try:
        key = (digest, tuple(sorted(dict(fills or {}).items())), *flags)
        hash(key)
    except TypeError:
        return None
    return key


def _figure_from(cached: Mapping[str, Any]) -> go.Figure:
    """A new figure of a cached base map's JSON, built without validation, then validating again.

    plotly's constructor deep-copies the traces' and the layout's properties into the figure, so the cached
    JSON is never shared with it (tests/test_basemap_cache.py mutates figures to hold it to that)."""
    fig = go.Figure(dict(cached), _validate=False)
    # Later changes (state_map recolours and adds traces) are validated as on a figure drawn afresh.
    fig._validate = True
    fig._layout_obj._validate = True
    for trace in fig.data:
        trace._validate = True
    return fig


def _draw(
    game_map: Any,
    *,
    fills: Mapping[str, str] | None,
    show_labels: bool,
    show_cities: bool,
    title: str | None,
    style: MapStyle,
    width: int | None,
    height: int | None,
    merge_fixed: bool,
) -> go.Figure:
    """Draw the bare map afresh (see :func:`base_map`)."""
    rows = _rows(game_map)
    land_c = area_colours(rows, style.land_palette, "land")
    sea_c = area_colours(rows, style.sea_palette, "sea")
    fills = dict(fills or {})
    unknown = sorted(set(fills) - {r["id"] for r in rows})
    if unknown:
        from medviz.engine.errors import UnknownReference

        raise UnknownReference(f"fills name areas not on the map: {', '.join(unknown)}")
    order = {"card": -1, "sea": 0, "context": 1, "land": 2}
    traces: list[go.Scatter] = []
    merged: dict[tuple[str, str | None, str], dict[str, Any]] = {}
    for r in sorted(rows, key=lambda r: (order[r["kind"]], r["id"])):
        kind = r["kind"]
        xs, ys = _rings(r["geometry"])
        default = {"land": land_c.get(r["id"]), "sea": sea_c.get(r["id"]),
                   "card": "rgba(0,0,0,0)"}.get(kind, style.context_fill)
        border = {"land": style.land_border, "sea": style.sea_border,
                  "card": style.land_border}.get(kind, style.context_border)
        hover = plain(r["name"]) + (f"<br>{plain(_fmt(r.get('city')))}" if _fmt(r.get("city")) else "")
        if merge_fixed and kind in ("sea", "context"):
            fill = fills.get(r["id"], default)
            group = merged.get((kind, fill, border))
            if group is None:
                n = sum(1 for k in merged if k[0] == kind) + 1
                group = merged[(kind, fill, border)] = {"x": [], "y": [], "areas": {}}
                traces.append(go.Scatter(x=[], y=[], mode="lines", fill="toself", fillcolor=fill,
                                         line={"color": border, "width": 0.6}, name=f"areas:{kind}-{n}",
                                         uid=f"areas-{kind}-{n}", hoverinfo="skip", showlegend=False))
                group["trace"] = traces[-1]
            if group["x"]:
                group["x"].append(None)
                group["y"].append(None)
            start = len(group["x"])
            group["x"] += xs
            group["y"] += ys
            group["areas"][r["id"]] = [start, len(group["x"])]
            continue
        traces.append(
            go.Scatter(
                x=xs,
                y=ys,
                mode="lines",
                fill="toself",
                fillcolor=fills.get(r["id"], default),
                line={"color": border, "width": 0.8 if kind == "land" else 0.6},
                name=r["id"],
                uid=f"area-{r['id']}",
                meta={"area": r["id"], "kind": kind},
                hoveron="fills",
                hoverinfo="text",
                text=hover,
                showlegend=False,
            )
        )
    for (kind, _fill, _border), group in merged.items():
        group["trace"].update(x=group["x"], y=group["y"], meta={"kind": kind, "areas": group["areas"]})
    fig = go.Figure(data=traces)
    if show_labels:
        for kind, colour, size, italic in (
            ("sea", style.sea_label, style.sea_label_size, True),
            ("context", style.context_label, style.land_label_size - 1, True),
            ("land", style.land_label, style.land_label_size, False),
        ):
            sel = [r for r in rows if r["kind"] == kind]
            label = [_wrap(plain(_fmt(r.get("label")) or r["name"])) for r in sel]
            if italic:
                label = [f"<i>{t}</i>" for t in label]
            fig.add_trace(
                go.Scatter(
                    x=[float(r["label_lon"]) for r in sel],
                    y=[float(r["label_lat"]) for r in sel],
                    mode="text",
                    text=label,
                    textfont={"color": colour, "size": size, "family": style.font_family},
                    hoverinfo="text" if merge_fixed and kind != "land" else "skip",
                    hovertext=[plain(r["name"]) for r in sel] if merge_fixed and kind != "land" else None,
                    name=f"labels:{kind}",
                    uid=f"labels-{kind}",
                    showlegend=False,
                )
            )
    if show_cities:
        sel = [r for r in rows if _fmt(r.get("city"))]
        fig.add_trace(
            go.Scatter(
                x=[float(r["city_lon"]) for r in sel],
                y=[float(r["city_lat"]) for r in sel],
                mode="markers+text",
                text=[plain(r["city"]) for r in sel],
                textposition=[CITY_TEXT_POSITION.get(r["id"], "top center") for r in sel],
                textfont={"color": style.city_marker, "size": style.city_label_size, "family": style.font_family},
                marker={"size": 7, "color": style.city_marker, "symbol": "square",
                        "line": {"color": "white", "width": 1}},
                hovertext=[f"{plain(r['city'])} ({plain(r['name'])})" for r in sel],
                hoverinfo="text",
                name="cities",
                uid="cities",
                showlegend=False,
            )
        )
    bounds = [r["geometry"].bounds for r in rows]
    x0, y0 = min(b[0] for b in bounds), min(b[1] for b in bounds)
    x1, y1 = max(b[2] for b in bounds), max(b[3] for b in bounds)
    axis = {"visible": False, "showgrid": False, "zeroline": False, "fixedrange": False}
    fig.update_layout(
        width=width,
        height=height,
        margin={"l": 4, "r": 4, "t": 40 if title else 4, "b": 4},
        title={"text": plain(title), "x": 0.5} if title else None,
        paper_bgcolor=style.background,
        plot_bgcolor=style.background,
        xaxis={**axis, "range": [x0, x1], "constrain": "domain"},
        yaxis={**axis, "range": [y0, y1], "scaleanchor": "x",
               "scaleratio": 1 / math.cos(math.radians(TRUE_SCALE_LAT)), "constrain": "domain"},
        hovermode="closest",
        dragmode="pan",
        font={"family": style.font_family},
        meta={"medviz": "base_map"},
    )
    return fig


def _wrap(name: str) -> str:
    """Break a long area name over two lines at its middle space (or before a bracket)."""
    if "(" in name:
        head, _, tail = name.partition("(")
        return f"{head.strip()}<br>({tail}"
    if len(name) <= 14 or " " not in name:
        return name
    words = name.split(" ")
    best = min(range(1, len(words)), key=lambda i: abs(len(" ".join(words[:i])) - len(name) / 2))
    return " ".join(words[:best]) + "<br>" + " ".join(words[best:])


def area_traces(fig: go.Figure) -> dict[str, int]:
    """Map each area id to the index of its filled trace in a figure made by :func:`base_map`."""
    out: dict[str, int] = {}
    for i, trace in enumerate(fig.data):
        uid = getattr(trace, "uid", None) or ""
        if uid.startswith("area-"):
            out[uid[len("area-"):]] = i
    return out
