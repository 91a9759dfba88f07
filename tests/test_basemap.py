"""The bare map figure: drawn offline in cartesian axes, one recolourable trace per area."""

from __future__ import annotations

import argparse
import struct
from pathlib import Path

import plotly.graph_objects as go
import pytest

from medviz.engine.errors import MalformedInput, MedvizError, UnknownReference
from medviz.geo import load
from medviz.viz.commands import find_chromium, register, write_html, write_png
from medviz.viz.basemap import area_traces, base_map


@pytest.fixture(scope="module")
def geo():  # type: ignore[no-untyped-def]
    return load()


@pytest.fixture(scope="module")
def fig(geo) -> go.Figure:  # type: ignore[no-untyped-def]
    return base_map(geo)


def test_one_filled_trace_per_area_and_no_geo_subplot(fig: go.Figure, geo) -> None:  # type: ignore[no-untyped-def]
    idx = area_traces(fig)
    assert set(idx) == set(geo["id"])
    for area, i in idx.items():
        trace = fig.data[i]
        assert trace.type == "scatter" and trace.fill == "toself" and trace.name == area
    spec = fig.to_plotly_json()
    assert {t["type"] for t in spec["data"]} == {"scatter"}
    assert not any(k.startswith(("geo", "map", "mapbox")) for k in spec["layout"])
    assert spec["layout"]["yaxis"]["scaleanchor"] == "x"


def test_neighbouring_land_areas_get_different_colours(fig: go.Figure, geo) -> None:  # type: ignore[no-untyped-def]
    from medviz.geo.validate import touching_pairs

    idx = area_traces(fig)
    for a, b in touching_pairs(geo, ("land", "land")):
        assert fig.data[idx[a]].fillcolor != fig.data[idx[b]].fillcolor, (a, b)


def test_fills_recolour_areas_without_touching_geometry(geo, fig: go.Figure) -> None:  # type: ignore[no-untyped-def]
    red = base_map(geo, fills={"sicily_west": "#cc0000"})
    idx = area_traces(red)
    assert red.data[idx["sicily_west"]].fillcolor == "#cc0000"
    assert red.data[idx["sicily_west"]].x == fig.data[area_traces(fig)["sicily_west"]].x
    with pytest.raises(UnknownReference, match="atlantis"):
        base_map(geo, fills={"atlantis": "#000"})


def test_labels_and_cities(fig: go.Figure, geo) -> None:  # type: ignore[no-untyped-def]
    by_uid = {t.uid: t for t in fig.data}
    land_text = " ".join(by_uid["labels-land"].text)
    for word in ("Rosselló", "Sicily", "Papal States", "Caralis", "Malta", "Kingdom of<br>Majorca"):
        assert word in land_text
    cities = by_uid["cities"]
    assert "Rome" in cities.text and "Cagliari" in cities.text and "Taranto" in cities.text
    assert len(cities.x) == int(geo["city"].notna().sum())
    bare = base_map(geo, show_labels=False, show_cities=False)
    assert {t.uid for t in bare.data} == {f"area-{i}" for i in geo["id"]}


def test_html_is_standalone_with_plotly_inline(tmp_path: Path, fig: go.Figure) -> None:
    out = write_html(fig, tmp_path / "map.html")
    text = out.read_text(encoding="utf-8")
    assert '<script src="http' not in text and "<script src='http" not in text
    assert len(text) > 3_000_000  # plotly.js is inside the page
    assert not list(tmp_path.glob("*.tmp"))


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="medviz")
    register(parser.add_subparsers())
    return parser


def test_png_without_chromium_fails_with_one_clear_line(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MEDVIZ_CHROMIUM", str(tmp_path / "no-such-chrome"))
    args = _parser().parse_args(["map", "--png", str(tmp_path / "map.png")])
    with pytest.raises(MedvizError) as err:
        args.func(args)
    message = str(err.value)
    assert "\n" not in message and "apt-get install -y chromium" in message
    assert not (tmp_path / "map.png").exists()


def test_map_command_needs_an_output(tmp_path: Path) -> None:
    args = _parser().parse_args(["map"])
    with pytest.raises(MalformedInput, match="--png FILE and/or --html FILE"):
        args.func(args)
    args = _parser().parse_args(["map", "--html", str(tmp_path / "missing" / "x.html")])
    with pytest.raises(MalformedInput, match="does not exist"):
        args.func(args)


@pytest.mark.skipif(find_chromium() is None, reason="needs Chromium (apt-get install -y chromium)")
def test_png_is_rendered_offline(tmp_path: Path, geo) -> None:  # type: ignore[no-untyped-def]
    out = write_png(base_map(geo, width=800, height=500), tmp_path / "map.png")
    data = out.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    width, height = struct.unpack(">II", data[16:24])
    assert (width, height) == (800, 500)
    assert len(data) > 50_000  # a drawn map, not a blank page
