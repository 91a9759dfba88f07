"""Game maps as geodata: load the committed GeoJSON of a game's areas and check it.

``load("medempires")`` (or ``load("path/to/map.geojson")``) returns a GeoDataFrame (EPSG:4326) with one row per land and sea area
of the game (ids equal to the engine's area ids) plus inert ``kind == "context"`` features for
the off-map neighbours. The files live in ``geodata/`` at the repository root and are rebuilt
only by ``tools/geodata/build.py``; users never need to.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING

from medviz.engine.errors import DataError, UnknownReference

if TYPE_CHECKING:
    import geopandas

__all__ = ["GEODATA_DIR", "available_maps", "load", "map_path"]

#: Where committed maps live; ``MEDVIZ_GEODATA`` (a directory) overrides it.
GEODATA_DIR = Path(__file__).resolve().parents[2] / "geodata"

#: Properties every feature carries (``city*`` only where the area has a city).
REQUIRED_PROPERTIES = ("id", "name", "kind", "label_lon", "label_lat", "provenance")
#: ``card``: a map card's rectangle (Medieval's Enigma cards), drawn under everything else.
KINDS = ("land", "sea", "context", "card")


def _geodata_dir() -> Path:
    """The directory holding the maps (environment override first)."""
    env = os.environ.get("MEDVIZ_GEODATA")
    return Path(env) if env else GEODATA_DIR


def available_maps() -> list[str]:
    """Names of the maps shipped in the geodata directory, sorted."""
    d = _geodata_dir()
    return sorted(p.stem for p in d.glob("*.geojson")) if d.is_dir() else []


def map_path(name: str | Path = "medempires") -> Path:
    """Path of the named map's GeoJSON (or of a GeoJSON file given by path); an unknown name lists the maps there are.

    A name ending in ``.geojson`` or holding a directory separator is a file path (a game shipped
    outside this repository names its own map file).
    """
    if isinstance(name, Path) or str(name).endswith(".geojson") or "/" in str(name) or os.sep in str(name):
        path = Path(name)
        if not path.is_file():
            raise UnknownReference(f"no map file {str(path)!r}")
        return path
    path = _geodata_dir() / f"{name}.geojson"
    if not path.is_file():
        have = ", ".join(available_maps()) or "none"
        raise UnknownReference(f"no map named {name!r} in {_geodata_dir()}; available: {have}")
    return path


def load(name: str | Path = "medempires") -> geopandas.GeoDataFrame:
    """The named game map (or a GeoJSON file by path) as a GeoDataFrame in EPSG:4326, indexed by area id."""
    import geopandas

    path = map_path(name)
    try:
        frame = geopandas.read_file(path)
    except Exception as exc:  # pyogrio raises several types for a damaged file
        raise DataError([f"cannot read GeoJSON ({exc})"], source=str(path)) from None
    missing = [p for p in REQUIRED_PROPERTIES if p not in frame.columns]
    if missing:
        raise DataError([f"features lack properties {missing}"], source=str(path))
    if frame.crs is None:
        frame = frame.set_crs("EPSG:4326")
    frame = frame.set_index("id", drop=False)
    frame.index.name = None
    return frame
