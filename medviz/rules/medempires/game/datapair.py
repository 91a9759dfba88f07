"""Which map and game data a game is played with: the shipped files, or a user's override files.

Options may carry a user's map / game-data override files (``map_override``, ``data_override``:
``{"file": base name, "sha256": hash of the canonical content, "content": parsed TOML}``, so a
saved history replays anywhere and the same game gives the same bytes whatever path the file was
given by); ``data_for_options`` builds the map and data they make, once per content, and the
game's state keeps them (``GameState.data_pair``, read as ``state.map``/``state.data``). Rule
code gets its data from the state or its arguments, never from ambient context. Histories saved
before the hash (whose ``file`` is the path as given) still load: they replay from the content.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from functools import cache
from pathlib import Path
from typing import Any, NamedTuple

from medviz.engine.copying import mark_immutable
from medviz.engine.errors import DataError, MalformedInput
from medviz.engine.events import thaw
from medviz.rules.datafiles import MAX_OVERRIDE_BYTES, has_provenance, load_toml, plain_value_problems
from medviz.rules.medempires.gamedata import GameData, load_game_data
from medviz.rules.medempires.mapdata import GameMap, load_map


@mark_immutable  # loaded map and data are never changed by play: copies of a state share them
class DataPair(NamedTuple):
    """The map and game data one game is played with (shipped, or patched by override files)."""

    game_map: GameMap
    game_data: GameData
    label: str = "shipped data"
    #: The override files' content as canonical JSON ("" for the shipped data): enough to rebuild it.
    key: str = ""

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        """Pickle as the override content (a worker process rebuilds the pair, cached by content)."""
        return (_pair_from_key, (self.key,))


def _pair_from_key(key: str) -> DataPair:
    """The pair of an override content key (``DataPair.key``); the shipped pair for ""."""
    if not key:
        return shipped_data()
    return pair_from_key(key)


@cache
def shipped_data() -> DataPair:
    """The shipped map and game data, loaded once per process."""
    m = load_map()
    return DataPair(m, load_game_data(game_map=m))


#: Reserved option names: the parsed content of a user's map / game-data override file.
MAP_OVERRIDE = "map_override"
DATA_OVERRIDE = "data_override"
OVERRIDE_KEYS = (MAP_OVERRIDE, DATA_OVERRIDE)

#: Pairs built from override contents, by content (branching and re-runs do not re-parse).
_PAIRS: dict[str, DataPair] = {}
_PAIRS_MAX = 16


def content_sha256(content: Mapping[str, Any]) -> str:
    """The SHA-256 of an override's canonical JSON (sorted keys, no spaces, UTF-8)."""
    text = json.dumps(content, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def read_override(path: str | Path) -> dict[str, Any]:
    """An override file as an option value: ``{"file": base name, "sha256": hash, "content": parsed TOML}``.

    A missing, non-regular or too large file (over 1 MB) or bad TOML is ``MalformedInput`` naming
    the file; values a history's JSON cannot keep (dates, huge integers, deep nesting) are
    refused naming the entry. Only the base name is kept, so the history does not depend on
    where the file was.
    """
    content = load_toml(path, MAX_OVERRIDE_BYTES)
    problems = _json_problems(content, Path(path).name)
    if problems:
        raise DataError(problems, source=Path(path).name)
    return {"file": Path(path).name, "sha256": content_sha256(content), "content": content}


def override_options(map_file: str | Path | None = None, data_file: str | Path | None = None,
                     **switches: bool) -> dict[str, Any]:
    """Options for ``play``: switches plus the content of a map and/or game-data override file."""
    out: dict[str, Any] = dict(switches)
    if map_file is not None:
        out[MAP_OVERRIDE] = read_override(map_file)
    if data_file is not None:
        out[DATA_OVERRIDE] = read_override(data_file)
    return out


def _json_problems(value: Any, where: str) -> list[str]:
    """Values a history's JSON cannot keep exactly (dates, times, non-finite or huge numbers, deep nesting)."""
    return plain_value_problems(value, where)


def _override_value(scenario: str, name: str, value: Any) -> tuple[str, dict[str, Any]]:
    """The (file name, content) of an override option, or ``MalformedInput`` saying what is wrong."""
    if isinstance(value, Mapping) and isinstance(value.get("content"), Mapping):  # bounded before any recursion
        origin = str(value.get("file") or name)[:200]
        problems = _json_problems(value["content"], origin)
        if problems:
            raise DataError(problems, source=origin)
    value = thaw(value)
    if isinstance(value, (str, Path)):
        raise MalformedInput(
            f"{scenario}: option {name!r} must hold the file's content, not its name {str(value)!r}; "
            f"build the options with override_options(map_file=..., data_file=...)")
    if not isinstance(value, dict) or not isinstance(value.get("content"), dict) \
            or not isinstance(value.get("file", ""), str) or not isinstance(value.get("sha256", ""), str) \
            or set(value) - {"file", "sha256", "content"}:
        raise MalformedInput(
            f"{scenario}: option {name!r} must be {{'file': name, 'sha256': hash, 'content': parsed TOML}} "
            f"(see override_options), not {type(value).__name__}")
    origin = str(value.get("file") or name)[:200]
    problems = _json_problems(value["content"], origin)
    if problems:
        raise DataError(problems, source=origin)
    return origin, value["content"]


def _check_hashes(scenario: str, given: Mapping[str, Any]) -> None:
    """An override whose content no longer matches its ``sha256`` (an edited history) is refused."""
    for name, value in given.items():
        value = thaw(value)
        if "sha256" in value and value["sha256"] != content_sha256(value["content"]):
            raise MalformedInput(f"{scenario}: option {name!r}: the content of {str(value.get('file'))[:200]} "
                                 f"does not match its sha256 (the history was edited); re-run the game with the file")


def _provenance_problems(name: str, content: Mapping[str, Any], origin: str) -> list[str]:
    """Every entry of an override must say where it comes from (rule, reconstructed, ruling, source)."""
    problems: list[str] = []
    groups: list[tuple[str, Any]] = []
    if name == MAP_OVERRIDE:
        groups = [(f"[[{k}]]", v) for k, v in content.items()]
    else:
        for stem, tables in content.items():
            if isinstance(tables, Mapping):
                groups += [(f"[[{stem}.{t}]]", v) for t, v in tables.items()]
    for where, entries in groups:
        if not isinstance(entries, list):
            continue  # the loaders report the shape
        for i, e in enumerate(entries):
            if isinstance(e, Mapping) and not has_provenance(e):
                problems.append(f"{origin}: {where} entry {e.get('id', f'#{i + 1}')!r} has no provenance "
                                f"(add rule = \"x.y\" or reconstructed = \"why\")")
    return problems


def data_for_options(scenario: str, options: Mapping[str, Any] | None) -> DataPair | None:
    """The map and game data the options' override files make (None: the shipped data).

    Built once per distinct content (cached), checked like the shipped data; a bad override is
    ``DataError`` or ``MalformedInput`` naming the file and the entry.
    """
    given = {k: options[k] for k in OVERRIDE_KEYS if options and options.get(k) is not None}
    if not given:
        return None
    parsed = {k: _override_value(scenario, k, v) for k, v in given.items()}
    key = json.dumps({k: [o, c] for k, (o, c) in parsed.items()}, sort_keys=True, ensure_ascii=False)
    pair = _PAIRS.get(key)
    if pair is not None:
        _check_hashes(scenario, given)
        return pair
    problems: list[str] = []
    for k, (origin, content) in parsed.items():
        problems += _provenance_problems(k, content, origin)
    if problems:
        raise DataError(problems, source=", ".join(o for o, _ in parsed.values()))
    fresh = json.loads(key)  # private copies: the loaders never see the caller's dicts
    map_origin = fresh[MAP_OVERRIDE][0] if MAP_OVERRIDE in fresh else None
    if map_origin is not None:
        try:
            m = load_map(fresh[MAP_OVERRIDE][1], origin=map_origin)
        except DataError as exc:
            raise DataError(exc.problems, source=f"map override {map_origin}") from None
    else:
        m = shipped_data().game_map
    try:
        if DATA_OVERRIDE in fresh:
            origin, content = fresh[DATA_OVERRIDE]
            d = load_game_data(content, game_map=m, origin=origin)
        else:
            d = load_game_data(game_map=m)
    except DataError as exc:
        if DATA_OVERRIDE in fresh:
            where = f"data override {fresh[DATA_OVERRIDE][0]}" + (f" (with map {map_origin})" if map_origin else "")
        else:
            where = f"map override {map_origin}: the shipped game data does not fit this map"
        raise DataError(exc.problems, source=where) from None
    _check_hashes(scenario, given)
    pair = DataPair(m, d, " + ".join(o for o, _ in parsed.values()), key)
    if len(_PAIRS) >= _PAIRS_MAX:
        _PAIRS.pop(next(iter(_PAIRS)))
    _PAIRS[key] = pair
    return pair


def pair_from_key(key: str) -> DataPair:
    """Rebuild (or find in the cache) the pair whose ``DataPair.key`` is ``key`` (unpickling)."""
    parsed = json.loads(key)
    pair = data_for_options("game", {k: {"file": o, "content": c} for k, (o, c) in parsed.items()})
    assert pair is not None
    return pair
