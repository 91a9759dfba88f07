"""Loading rules data files (TOML) with provenance checks and user override files.

Every entry in a shipped data file carries provenance: either ``rule = "6.2"`` (a rule citation)
or ``reconstructed = "why"`` (the rule text omits it, so we reconstructed it and say how).
A user may load an override file of the same shape: entries with an existing ``id`` replace the
shipped values field by field; new ids are added. Overridden entries record where they came from.
"""

from __future__ import annotations

import tomllib
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from medviz.engine.errors import MalformedInput
from medviz.engine.files import read_text

PROVENANCE_KEYS = ("rule", "reconstructed", "ruling", "source")


def load_toml(path: str | Path) -> dict[str, Any]:
    """Parse a TOML file; a missing or malformed file is a ``MalformedInput`` naming it."""
    p = Path(path)
    text = read_text(p, "file")
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise MalformedInput(f"{p}: not valid TOML: {exc}") from None


def has_provenance(entry: Mapping[str, Any]) -> bool:
    """True when the entry cites a rule or says why it was reconstructed."""
    return any(isinstance(entry.get(k), str) and entry.get(k, "").strip() for k in PROVENANCE_KEYS)


def check_provenance(entries: Iterable[Mapping[str, Any]], where: str, problems: list[str]) -> None:
    """Append a problem for every entry without provenance (``rule`` or ``reconstructed``)."""
    for i, entry in enumerate(entries):
        if not has_provenance(entry):
            name = entry.get("id", f"#{i}")
            problems.append(f"{where}: entry {name!r} has no provenance (rule or reconstructed)")


def merge_by_id(
    base: list[dict[str, Any]], override: list[dict[str, Any]], origin: str
) -> list[dict[str, Any]]:
    """Entries of ``override`` replace same-id entries of ``base`` field by field; new ids append.

    Each overridden or added entry gets ``source = origin`` so its provenance stays visible.
    """
    merged = [dict(e) for e in base]
    index = {e.get("id"): i for i, e in enumerate(merged)}
    for j, entry in enumerate(override):
        if "id" not in entry:
            raise MalformedInput(f"{origin}: override entry #{j} has no 'id'")
        patched = dict(entry)
        patched.setdefault("source", origin)
        if entry["id"] in index:
            merged[index[entry["id"]]].update(patched)
        else:
            index[entry["id"]] = len(merged)
            merged.append(patched)
    return merged
