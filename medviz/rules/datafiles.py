"""Loading rules data files (TOML) with provenance checks, a schema, and user override files.

Every entry in a shipped data file carries provenance: either ``rule = "6.2"`` (a rule citation)
or ``reconstructed = "why"`` (the rule text omits it, so we reconstructed it and say how).
A user may load an override file of the same shape: entries with an existing ``id`` replace the
shipped values field by field; new ids are added. Overridden entries record where they came from.

Each table has a small declarative schema (``Field``): every field's type, range or choices;
unknown fields are refused naming the nearest valid one. ``plain_value_problems`` bounds what
any parsed file may hold (nesting depth, integer size, text length) before anything recurses
into it, so a hostile file is refused with a message, never a crash.
"""

from __future__ import annotations

import difflib
import math
import re
import tomllib
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from medviz.engine.errors import MalformedInput
from medviz.engine.files import read_text

PROVENANCE_KEYS = ("rule", "reconstructed", "ruling", "source")

#: An override file is a few kilobytes; this cap keeps a wrong file (a history, a picture) out.
MAX_OVERRIDE_BYTES = 1024 * 1024
#: Deepest nesting a data file needs: file > table > entry > field > list > table > value is 7.
MAX_DEPTH = 8
#: Integers a history's JSON keeps exactly in every reader (JavaScript's safe integers).
MAX_INT = 2**53
#: Longest text of one value (the longest shipped note is under 1,000 characters).
MAX_TEXT = 10_000


def load_toml(path: str | Path, max_bytes: int | None = None) -> dict[str, Any]:
    """Parse a TOML file; a missing, too large or malformed file is a ``MalformedInput`` naming it."""
    p = Path(path)
    text = read_text(p, "file", max_bytes) if max_bytes is not None else read_text(p, "file")
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise MalformedInput(f"{p}: not valid TOML: {exc}") from None
    except RecursionError:
        raise MalformedInput(f"{p}: line {_deep_line(text)}: arrays or tables nested far too deep "
                             f"(at most {MAX_DEPTH} levels)") from None
    except ValueError:  # an integer of thousands of digits (int's own conversion limit)
        m = re.search(r"[0-9_]{4000,}", text)
        where = f"line {text.count(chr(10), 0, m.start()) + 1}: " if m else ""
        digits = len(m.group(0).replace("_", "")) if m else 0
        raise MalformedInput(f"{p}: {where}an integer of {digits:,} digits is far out of range "
                             f"(at most 2**53)") from None


def _deep_line(text: str) -> int:
    """The line where brackets first nest deeper than ``MAX_DEPTH`` (strings are not skipped: a hint)."""
    depth = 0
    for i, ch in enumerate(text):
        depth += ch in "[{"
        depth -= ch in "]}"
        if depth > MAX_DEPTH + 2:
            return text.count("\n", 0, i) + 1
    return 1


def _entry_name(value: Any, i: int) -> str:
    name = value.get("id") if isinstance(value, Mapping) else None
    return repr(name) if isinstance(name, str) and len(name) <= 80 else f"#{i + 1}"


def plain_value_problems(content: Any, where: str) -> list[str]:
    """Values a data file and a history's JSON cannot keep: too deep, huge or non-finite numbers,
    too long text, dates and times, non-text keys. Iterative: any depth is reported, never recursed.
    """
    problems: list[str] = []
    stack: list[tuple[Any, str, int]] = [(content, where, 0)]
    while stack:
        value, at, depth = stack.pop()
        if depth > MAX_DEPTH:
            problems.append(f"{at}: nested more than {MAX_DEPTH} levels deep")
            continue
        if isinstance(value, Mapping):
            for k, v in reversed(list(value.items())):
                if not isinstance(k, str):
                    problems.append(f"{at}: key {k!r} is not text")
                    continue
                name = v.get("id") if isinstance(v, Mapping) and isinstance(v.get("id"), str) else None
                label = k if len(k) <= 80 else k[:80] + "..."
                stack.append((v, f"{at}: {label}" + (f" {name[:80]!r}" if name else ""), depth + 1))
        elif isinstance(value, (list, tuple)):
            for i in reversed(range(len(value))):
                v = value[i]
                stack.append((v, f"{at} entry {_entry_name(v, i)}" if isinstance(v, Mapping) else f"{at}[{i}]",
                              depth + 1))
        elif isinstance(value, bool) or value is None:
            continue
        elif isinstance(value, int):
            if abs(value) > MAX_INT:
                problems.append(f"{at}: integer of {len(str(abs(value))) if abs(value) < 10**4000 else 'thousands of'} "
                                f"digits is out of range (at most 2**53)")
        elif isinstance(value, float):
            if not math.isfinite(value):
                problems.append(f"{at}: {value!r} is not a finite number")
        elif isinstance(value, str):
            if len(value) > MAX_TEXT:
                problems.append(f"{at}: text of {len(value):,} characters is too long (at most {MAX_TEXT:,})")
        else:
            problems.append(f"{at}: a {type(value).__name__} value cannot be kept in a history (use text)")
    return problems


# --------------------------------------------------------------------------------------------
# The schema
# --------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Field:
    """What one field of a data-file entry may hold: its kind, range or choices.

    Kinds: ``text`` (non-empty unless ``empty``), ``int``, ``number``, ``bool``, ``texts`` (a list
    of text), ``table`` (of ``values``, keys from ``keys`` when given), ``list`` (of ``values``),
    ``int|text``; ``lo``/``hi`` bound numbers (and a list's length), ``choices`` bound text.
    """

    kind: str
    lo: float | None = None
    hi: float | None = None
    choices: tuple[str, ...] = ()
    keys: tuple[str, ...] = ()
    values: Field | None = None
    empty: bool = False
    why: str = ""

    def holds(self, value: Any) -> bool:
        """True when ``value`` has this field's type (its range and contents aside)."""
        kind = self.kind
        if kind in ("text", "int|text") and isinstance(value, str):
            return True
        if kind in ("int", "int|text"):
            return isinstance(value, int) and not isinstance(value, bool)
        if kind == "number":
            return isinstance(value, (int, float)) and not isinstance(value, bool)
        return isinstance(value, {"bool": bool, "texts": list, "list": list, "table": dict}.get(kind, object))

    def problems(self, value: Any, at: str) -> list[str]:
        """What is wrong with ``value`` for this field (``at`` names the place)."""
        kind = self.kind
        if kind == "int|text":
            kind = "text" if isinstance(value, str) else "int"
        if kind == "text":
            if not isinstance(value, str):
                return [f"{at}: must be text, not {_show(value)}"]
            if not value.strip() and not self.empty:
                return [f"{at}: must not be empty"]
            if self.choices and value not in self.choices:
                return [f"{at}: must be one of {', '.join(self.choices)}, not {_show(value)}{_nearest(value, self.choices)}"]
            return []
        if kind == "bool":
            return [] if isinstance(value, bool) else [f"{at}: must be true or false, not {_show(value)}"]
        if kind in ("int", "number"):
            ok = (int,) if kind == "int" else (int, float)
            if isinstance(value, bool) or not isinstance(value, ok):
                return [f"{at}: must be {'a whole number' if kind == 'int' else 'a number'}, not {_show(value)}"]
            if isinstance(value, float) and not math.isfinite(value):
                return [f"{at}: must be a finite number, not {value!r}"]
            if (self.lo is not None and value < self.lo) or (self.hi is not None and value > self.hi):
                return [f"{at}: {_show(value)} is out of range {_num(self.lo)}..{_num(self.hi)}"
                        + (f" ({self.why})" if self.why else "")]
            return []
        if kind == "texts":
            return Field("list", lo=self.lo, hi=self.hi, values=Field("text", choices=self.choices)).problems(value, at)
        if kind == "list":
            if not isinstance(value, list):
                return [f"{at}: must be a list, not {_show(value)}"]
            if (self.lo is not None and len(value) < self.lo) or (self.hi is not None and len(value) > self.hi):
                return [f"{at}: a list of {len(value)} items; it must have {_num(self.lo)}..{_num(self.hi)}"]
            out: list[str] = []
            if self.values is not None:
                for i, v in enumerate(value):
                    out += self.values.problems(v, f"{at}[{i}]")
            return out
        if kind == "table":
            if not isinstance(value, dict):
                return [f"{at}: must be a table {{ key = value }}, not {_show(value)}"]
            out = []
            for k, v in value.items():
                if self.keys and k not in self.keys:
                    out.append(f"{at}: unknown key {_show(k)}{_nearest(k, self.keys)}")
                elif self.values is not None:
                    out += self.values.problems(v, f"{at}.{k}")
            return out
        if kind == "any":
            return []
        raise ValueError(f"unknown field kind {self.kind!r}")


def _num(x: float | None) -> str:
    return "" if x is None else (str(int(x)) if float(x).is_integer() else str(x))


def _show(value: Any) -> str:
    if isinstance(value, int) and not isinstance(value, bool) and abs(value) > 10**20:
        return "a huge number"  # before repr: an integer of thousands of digits has none
    text = repr(value) if isinstance(value, (str, int, float, bool)) else f"a {type(value).__name__}"
    return text if len(text) <= 60 else text[:57] + "..."


def _nearest(name: str, known: Iterable[str]) -> str:
    close = difflib.get_close_matches(name, list(known), n=1, cutoff=0.6)
    return f" (did you mean {close[0]!r}?)" if close else ""


#: Fields every entry may carry: its id and its provenance.
COMMON_FIELDS: Mapping[str, Field] = {"id": Field("text"), **{k: Field("text") for k in PROVENANCE_KEYS}}


def entry_problems(entry: Mapping[str, Any], schema: Mapping[str, Field], where: str, *,
                   noun: str = "field", top_types: bool = True) -> list[str]:
    """Every field of ``entry`` checked against ``schema``; unknown fields name the nearest known one.

    ``top_types=False`` leaves the type of each top-level field to a loader that reports it
    itself (its ranges and nested values are still checked here).
    """
    problems: list[str] = []
    known = {**COMMON_FIELDS, **schema}
    for key, value in entry.items():
        field = known.get(key)
        if field is None:
            hint = _nearest(key, known) or f" (known: {', '.join(sorted(known))})"
            problems.append(f"{where}: unknown {noun} {_show(key)}{hint}")
        elif top_types or field.holds(value):
            problems += field.problems(value, f"{where}: {key}")
    return problems


def table_problems(entries: Any, schema: Mapping[str, Field], where: str, *, top_types: bool = True) -> list[str]:
    """Check an array of tables entry by entry (``where`` is e.g. ``file.toml [[area]]``)."""
    if not isinstance(entries, list) or not all(isinstance(e, dict) for e in entries):
        return [f"{where}: must be an array of tables"]
    problems: list[str] = []
    for i, e in enumerate(entries):
        problems += entry_problems(e, schema, f"{where} entry {_entry_name(e, i)}", top_types=top_types)
    return problems


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


def patched_tables(base: Mapping[str, Any], override: str | Path | Mapping[str, Any], tables: Iterable[str],
                   max_bytes: int, *, sections: Iterable[str] = ()) -> tuple[dict[str, Any], str]:
    """The shipped ``base`` patched by a user's ``override`` (a TOML file or its parsed content).

    ``tables`` are arrays of tables merged entry by entry (``merge_by_id``); ``sections`` are plain
    tables whose keys replace the shipped ones. Anything else in the override, a value no history
    could keep, or a table of the wrong shape is a ``DataError`` listing every problem. Returns the
    merged data and the override's name (for provenance).
    """
    from medviz.engine.errors import DataError

    if isinstance(override, Mapping):
        origin, patch = "data override", dict(override)
    else:
        origin, patch = str(override), load_toml(override, max_bytes)
    tables, sections = tuple(tables), tuple(sections)
    known = (*tables, *sections)
    problems = plain_value_problems(patch, origin)
    problems += [f"{origin}: unknown table {k!r} (known: {', '.join(known)})" for k in patch if k not in known]
    for k, v in patch.items():
        if k in tables and (not isinstance(v, list) or not all(isinstance(e, dict) for e in v)):
            problems.append(f"{origin}: {k} must be an array of tables [[{k}]]")
        if k in sections and not isinstance(v, dict):
            problems.append(f"{origin}: {k} must be a table [{k}]")
    if problems:
        raise DataError(problems, origin)
    merged = dict(base)
    for k, v in patch.items():
        merged[k] = merge_by_id(base[k], v, origin) if k in tables else {**base[k], **v, "source": origin}
    return merged, origin


def tables_problems(raw: Mapping[str, Any], schema: Mapping[str, Mapping[str, Field]], origin: str, *,
                    extra: Iterable[str] = ()) -> list[str]:
    """Every problem of a parsed data file whose top level is arrays of tables checked by ``schema``:
    values no history could keep, unknown tables (``extra`` names others the caller checks), missing
    tables, each entry against its fields, and provenance on every entry."""
    problems = plain_value_problems(raw, origin)
    known = (*schema, *extra)
    problems += [f"{origin}: unknown table {k!r} (known: {', '.join(known)})" for k in raw if k not in known]
    for table, fields in schema.items():
        entries = raw.get(table)
        if entries is None:
            problems.append(f"{origin}: missing table [[{table}]]")
            continue
        problems += table_problems(entries, fields, f"{origin} [[{table}]]")
        if isinstance(entries, list):
            check_provenance([e for e in entries if isinstance(e, dict)], f"{origin} [[{table}]]", problems)
    return problems
