"""Data schemas declared once: a frozen dataclass's fields say what the data file holds.

Each attribute of a rules data class that comes from a data file is declared with ``declared``:
the file key it reads, its ``Field`` (kind, range, choices: what ``entry_problems`` checks), the
value when the key is absent, and one line of meaning. From that one declaration come

- the table's schema (``file_fields``), which checks shipped files and user override files alike;
- the builder (``read_declared``): each attribute read from an entry by its field's kind, every
  wrong or missing value a problem (collected, never raised);
- the field reference in the docs (``schema_markdown``; ``tools/make_schema_docs.py`` writes
  docs/data-schema.md, and a test keeps it current).

Tables that have no class of their own (rows kept as plain read-only tables) are declared the same
way as a ``Table`` of ``Column``s. Validation of meaning (references between files, rules 3.x) stays
with each loader's ``validate_*``. The built objects are plain frozen dataclasses: reading them in
play costs nothing extra.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterator, Mapping
from typing import Any

from medviz.rules.datafiles import PROVENANCE_KEYS, Field, entry_problems, tables_problems

__all__ = ["REQUIRED", "Column", "Spec", "Table", "build_checked", "declared", "declared_problems", "file_fields",
           "missing_problems", "read_declared", "schema_markdown", "specs"]


class _Required:
    def __repr__(self) -> str:
        return "REQUIRED"


#: ``absent=REQUIRED``: a missing key is a problem.
REQUIRED: Any = _Required()

#: Metadata key of a declared dataclass field.
_META = "medviz.schema"


@dataclasses.dataclass(frozen=True)
class Spec:
    """How one attribute is read from a data-file entry."""

    field: Field
    key: str
    absent: Any
    doc: str
    #: Reads the attribute itself (``read(entry, spec)``) when the field's kind is not enough.
    read: Callable[[Any, Spec], Any] | None = None
    #: Further file keys this attribute is made of (e.g. a city's longitude and latitude).
    also: Mapping[str, Field] = dataclasses.field(default_factory=dict)
    #: What a wrong value is told it must be, in the file's words ("an event number from 0"); default: the field's kind.
    want: str = ""
    #: A further test a value of the right kind must pass (a date must name a year).
    check: Callable[[Any], bool] | None = None

    @property
    def must_be(self) -> str:
        """What a value must be, in words."""
        return self.want or describe_field(self.field)

    def accepts(self, value: Any) -> bool:
        """True when ``value`` is of the field's kind, in its range and choices, and passes ``check``."""
        return not self.field.problems(value, self.key) and (self.check is None or bool(self.check(value)))


def declared(field: Field, doc: str, *, key: str | None = None, absent: Any = REQUIRED,
             read: Callable[[Any, Spec], Any] | None = None,
             also: Mapping[str, Field] | None = None, want: str = "",
             check: Callable[[Any], bool] | None = None) -> dict[str, Any]:
    """The metadata of a dataclass field read from the data file's ``key`` (default: its name).

    Use: ``name: str = field(metadata=declared(Field("text"), "the power's name"))``.
    """
    spec = {"field": field, "key": key, "absent": absent, "doc": doc, "read": read, "also": dict(also or {}),
            "want": want, "check": check}
    return {_META: spec}


def specs(cls: type) -> Iterator[tuple[str, Spec]]:
    """(attribute, spec) for every declared attribute of ``cls``, in declaration order."""
    for f in dataclasses.fields(cls):
        meta = f.metadata.get(_META)
        if meta is not None:
            yield f.name, Spec(meta["field"], meta["key"] or f.name, meta["absent"], meta["doc"], meta["read"],
                               meta["also"], meta["want"], meta["check"])


@dataclasses.dataclass(frozen=True)
class Column:
    """One key of a table that has no class of its own (its rows stay plain read-only tables)."""

    field: Field
    doc: str
    required: bool = True


@dataclasses.dataclass(frozen=True)
class Table:
    """The declared keys of such a table, with a line saying what a row is."""

    doc: str
    columns: Mapping[str, Column]


def file_fields(declaration: type | Table) -> dict[str, Field]:
    """The file keys of a declared class or table and what each may hold (ids and provenance aside)."""
    if isinstance(declaration, Table):
        return {k: c.field for k, c in declaration.columns.items()}
    out: dict[str, Field] = {}
    for _name, spec in specs(declaration):
        out[spec.key] = spec.field
        out.update(spec.also)
    return out


def needed_keys(declaration: type | Table) -> tuple[str, ...]:
    """The file keys every entry must give (declared ``REQUIRED``, or a required column)."""
    if isinstance(declaration, Table):
        return tuple(k for k, c in declaration.columns.items() if c.required)
    return tuple(spec.key for _name, spec in specs(declaration) if spec.absent is REQUIRED)


def missing_problems(entry: Mapping[str, Any], declaration: type | Table, where: str) -> list[str]:
    """A problem for each key the declaration needs that ``entry`` lacks (``where`` names the entry)."""
    return [f"{where}: missing field {k!r}" for k in needed_keys(declaration) if k not in entry]


def declared_problems(raw: Mapping[str, Any], tables: Mapping[str, type | Table], origin: str, *,
                      sections: Mapping[str, type | Table] | None = None) -> list[str]:
    """Every problem of a parsed data file whose tables are declared: values no history could keep,
    unknown and missing tables, each entry's keys against its declaration (types, ranges, needed
    keys) and provenance on every entry. ``tables`` are arrays of tables ``[[name]]``; ``sections``
    plain tables ``[name]`` checked as one entry each."""
    sections = dict(sections or {})
    problems = tables_problems(raw, {t: file_fields(d) for t, d in tables.items()}, origin, extra=tuple(sections))
    for table, decl in tables.items():
        entries = raw.get(table)
        for i, e in enumerate(entries if isinstance(entries, list) else []):
            if isinstance(e, dict):
                name = e.get("id")
                label = repr(name) if isinstance(name, str) and len(name) <= 80 else f"#{i + 1}"
                problems += missing_problems(e, decl, f"{origin} [[{table}]] entry {label}")
    for section, decl in sections.items():
        where = f"{origin} [{section}]"
        value = raw.get(section)
        if not isinstance(value, dict):
            problems.append(f"{where}: missing table [{section}]" if value is None else f"{where}: must be a table")
            continue
        problems += entry_problems(value, file_fields(decl), where)
        problems += missing_problems(value, decl, where)
        if not any(isinstance(value.get(k), str) and value[k].strip() for k in PROVENANCE_KEYS):
            problems.append(f"{where}: entry has no provenance (rule or reconstructed)")
    return problems


def build_checked(cls: type, entry: Mapping[str, Any], **given: Any) -> Any:
    """Build ``cls`` from an entry that ``declared_problems`` found sound: each declared attribute is
    the file's value (a list as a tuple, or as the declared default's type), or its default when the
    key is absent; attributes not read from the file come in ``given`` (id, provenance)."""
    values = dict(given)
    for name, spec in specs(cls):
        if spec.read is not None:
            values[name] = spec.read(entry, spec)
        elif spec.key not in entry:
            values[name] = spec.absent
        elif isinstance(entry[spec.key], list):
            values[name] = type(spec.absent)(entry[spec.key]) if isinstance(spec.absent, (tuple, frozenset)) \
                else tuple(entry[spec.key])
        else:
            values[name] = entry[spec.key]
    return cls(**values)


def read_declared(cls: type, entry: Any, **given: Any) -> Any:
    """Build ``cls`` from a data-file entry (a reader with ``text``/``integer``/... methods that
    records problems); attributes not read from the file come in ``given`` (id, provenance)."""
    values = dict(given)
    for name, spec in specs(cls):
        values[name] = spec.read(entry, spec) if spec.read is not None else read_value(entry, spec)
    return cls(**values)


def read_value(entry: Any, spec: Spec) -> Any:
    """One attribute read by its field's kind; a wrong or missing value is the reader's problem."""
    kind, key, absent = spec.field.kind, spec.key, spec.absent
    default = () if absent is REQUIRED else (absent,)
    if kind == "text":
        return entry.opt_text(key) if absent is None else entry.text(key, *default)
    if kind == "texts":
        return entry.texts(key, *([list(absent)] if default else []))
    if kind == "bool":
        return entry.flag(key, *default)
    if kind == "int":
        return entry.integer(key, *default)
    if kind == "number":
        return entry.number(key, *default)
    if kind == "table":
        return entry.frozen_table(key, *([dict(absent)] if default else []))
    raise ValueError(f"{key}: a {kind} field needs its own reader (read=...)")


# --------------------------------------------------------------------------------------------
# The field reference
# --------------------------------------------------------------------------------------------
def describe_field(f: Field) -> str:
    """What a field may hold, in words (``a whole number 0..176``)."""
    rng = ""
    if f.lo is not None or f.hi is not None:
        lo = "" if f.lo is None else _num(f.lo)
        hi = "" if f.hi is None else _num(f.hi)
        rng = f" {lo}..{hi}"
    kind = f.kind
    if kind == "text":
        out = "text" + ("" if not f.empty else " (may be empty)")
        return out + (f", one of {', '.join(f.choices)}" if f.choices else "")
    if kind == "int":
        return f"whole number{rng}"
    if kind == "number":
        return f"number{rng}"
    if kind == "bool":
        return "true or false"
    if kind == "int|text":
        return f"whole number{rng} or text"
    if kind == "texts":
        items = f"texts, each one of {', '.join(f.choices)}" if f.choices else "texts"
        return f"list of {items}" + (f" ({rng.strip()} items)" if rng else "")
    if kind == "list":
        inner = describe_field(f.values) if f.values is not None else "anything"
        return f"list of [{inner}]" + (f" ({rng.strip()} items)" if rng else "")
    if kind == "table":
        keys = f"keys {', '.join(f.keys)}" if f.keys else "any keys"
        inner = describe_field(f.values) if f.values is not None else "anything"
        return f"table ({keys}) of [{inner}]"
    return "anything"


def _num(x: float) -> str:
    return str(int(x)) if float(x).is_integer() else str(x)


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def _row(key: str, f: Field, needed: str, doc: str) -> str:
    why = f" ({f.why})" if f.why else ""
    return f"| `{key}` | {_cell(describe_field(f))}{_cell(why)} | {needed} | {_cell(doc)} |"


def schema_markdown(title: str, declaration: type | Table, *, id_doc: str | None = "the entry's id",
                    provenance: bool = True) -> str:
    """The field reference of one table as markdown (generated: never edit the output by hand).

    ``id_doc=None``: the entries have no ``id`` key (a section, or a table keyed by a declared key).
    """
    doc = declaration.doc if isinstance(declaration, Table) else (declaration.__doc__ or "").strip().splitlines()[0]
    lines = [f"### `{title}`", "", doc, "", "| key | holds | needed | meaning |", "|---|---|---|---|"]
    if id_doc is not None:
        lines.append(f"| `id` | text | yes | {_cell(id_doc)} |")
    if isinstance(declaration, Table):
        for key, col in declaration.columns.items():
            lines.append(_row(key, col.field, "yes" if col.required else "no", col.doc))
    else:
        for _name, spec in specs(declaration):
            if spec.absent is REQUIRED:
                needed = "yes"
            elif spec.absent is None or (isinstance(spec.absent, (str, tuple, list, dict, frozenset)) and not spec.absent):
                needed = "no"
            else:
                needed = f"no (default {spec.absent!r})".replace("True", "true").replace("False", "false")
            lines.append(_row(spec.key, spec.field, needed, spec.doc))
            for key, f in spec.also.items():
                lines.append(_row(key, f, needed, spec.doc))
    if provenance:
        lines.append(f"| `{'`, `'.join(PROVENANCE_KEYS)}` | text | one of them | provenance: a rule citation, or why "
                     "the datum was reconstructed (a ruling, a source) |")
    return "\n".join(lines) + "\n"

