"""Annotation files: markdown notes anchored to the events and phases of a history (TOML).

The format is documented in docs/annotations.md. In short::

    title = "My replay"                  # optional
    [[note]]
    anchor = { turn = 1, phase = "politics" }   # or {event = 12}, {roll = "<id>"}, {decision = "<id>"}, {turn = 2}, {phase = "x"}
    title = "A crown offered"
    date = "Aug 1282"                    # optional, free text with a year
    kind = "history"                     # history | game | what-if (default history)
    source = "Runciman 1958, ch. 14"     # optional, plain text
    text = '''markdown'''

Where a note shows (decided here, documented in docs/annotations.md):

* a **phase** anchor (``turn`` + ``phase``, ``turn`` alone, or ``phase`` alone for that phase in
  every turn) shows the note at every event of that phase (or turn);
* a **point** anchor (``event``, ``roll``, ``decision``) shows the note from its event up to, not
  including, the event of the next point note, and never past the end of the phase it is in.

Notes are untrusted: their markdown is rendered with raw HTML disabled and sanitized
(:mod:`medviz.export.sanitize`); titles, dates and sources are plain text.

Loading is total: any text gives either ``Annotations`` or a ``MedvizError`` whose message names
the file, the place in it (a line for TOML syntax; the note and key, e.g. ``note 3: anchor.event``,
for a value) and what is wrong. Nothing else escapes: not tomllib's ``RecursionError`` on deeply
nested arrays, nor the ``ValueError`` of a 5,000-digit integer. Values are quoted shortened.

The keys are declared once, as the fields of ``AnnotationFile``, ``Note`` and ``Anchor``
(``medviz.rules.schema``: kind, range, what a wrong value must be, meaning): the same declaration
checks a file and writes the annotation part of docs/data-schema.md.
"""

from __future__ import annotations

import re
import sys
import tomllib
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from medviz.engine.files import read_text
from medviz.engine.errors import DataError, MalformedInput, MedvizError
from medviz.export.sanitize import render_markdown
from medviz.rules.datafiles import Field
from medviz.rules.schema import REQUIRED, declared, specs

__all__ = ["Anchor", "AnnotationFile", "Annotations", "KINDS", "Note", "load_annotations", "parse_annotations"]

#: What a note is about: what happened, how the game models it, where game and history part.
KINDS = ("history", "game", "what-if")
FORMAT = "medviz-annotations"
VERSION = 1
_YEAR = re.compile(r"\b\d{3,4}\b")
#: Arrays and inline tables may nest this deep (a note needs two levels; tomllib recurses per level).
MAX_NESTING = 32
#: The largest event or turn number an anchor may give (a history is far shorter).
MAX_NUMBER = 10**9 - 1
#: Characters of a user's value quoted in a message.
SHOWN_CHARS = 60
_ANCHOR_EXAMPLE = 'e.g. anchor = {turn = 1, phase = "politics"} or {event = 12} or {roll = "<roll id>"}'
_TYPE_WORDS = {bool: "true/false", int: "an integer", float: "a number", str: "text", list: "an array",
               dict: "a table"}


def _show(value: Any) -> str:
    """A user's value for a message: its type, and its repr cut short (safe for any size or depth)."""
    kind = next((w for t, w in _TYPE_WORDS.items() if type(value) is t), type(value).__name__)
    if hasattr(value, "isoformat"):  # TOML dates and times
        return f"a TOML {kind} {value.isoformat()}"
    if isinstance(value, int) and not isinstance(value, bool) and value.bit_length() > 64:
        return f"{kind} of about {int(value.bit_length() * 0.30103) + 1} digits"
    try:
        text = repr(value)
    except (ValueError, RecursionError):  # a huge integer deep inside, or nesting
        return kind
    if len(text) > SHOWN_CHARS:
        text = text[: SHOWN_CHARS - 3] + "..."
    return text if isinstance(value, (str, bool, int, float)) else f"{kind} {text}"


def _default_phases() -> tuple[str, ...]:
    """Every phase id of every game this medviz knows (``Ruleset.phase_names``), to check a file without a history."""
    from medviz.engine.registry import get_ruleset, ruleset_ids

    out: dict[str, None] = {}
    for game in ruleset_ids():
        try:
            names = get_ruleset(game).phase_names()
        except Exception:  # noqa: BLE001  # a plug-in that cannot load (uninstalled, broken) names no phases
            continue
        out.update(dict.fromkeys(names))
    return tuple(out)


@dataclass(frozen=True)
class Anchor:
    """Where a note is fixed: one event, roll or decision, or a turn and/or phase."""

    event: int | None = field(default=None, metadata=declared(
        Field("int", 0, MAX_NUMBER), "an event number from 0", absent=None,
        want=f"an event number from 0 to {MAX_NUMBER}"))
    roll: str | None = field(default=None, metadata=declared(
        Field("text"), "a roll id of the history", absent=None, want="a non-empty id"))
    decision: str | None = field(default=None, metadata=declared(
        Field("text"), "a decision id of the history", absent=None, want="a non-empty id"))
    turn: int | None = field(default=None, metadata=declared(
        Field("int", 1, MAX_NUMBER), "a turn number from 1", absent=None,
        want=f"a turn number from 1 to {MAX_NUMBER}"))
    phase: str | None = field(default=None, metadata=declared(
        Field("text"), "a phase id of the game", absent=None, want="a non-empty id"))

    @property
    def is_point(self) -> bool:
        """True for an event, roll or decision anchor (shown until the next point note)."""
        return self.event is not None or self.roll is not None or self.decision is not None

    def describe(self) -> str:
        """The anchor in plain words."""
        if self.event is not None:
            return f"event {self.event}"
        if self.roll is not None:
            return f"roll {self.roll}"
        if self.decision is not None:
            return f"decision {self.decision}"
        if self.phase is not None and self.turn is not None:
            return f"turn {self.turn}, {self.phase}"
        if self.phase is not None:
            return f"every {self.phase} phase"
        return f"turn {self.turn}"


@dataclass(frozen=True)
class Note:
    """One note: where it is fixed, its plain-text title, date and source, and its markdown (kept sanitized as html)."""

    number: int
    anchor: Anchor = field(metadata=declared(
        Field("table", keys=("event", "roll", "decision", "turn", "phase"), values=Field("any")),
        "where the note is fixed: one of event, roll or decision, or a turn and/or a phase (the keys of "
        "`anchor` below)", want=f"a table ({_ANCHOR_EXAMPLE})"))
    title: str = field(metadata=declared(Field("text"), "the note's title, a line of plain text",
                                         want="a line of text"))
    date: str | None = field(default=None, metadata=declared(
        Field("text"), "when it happened: free text with a year", absent=None,
        want='text with a year, e.g. "30 Mar 1282"', check=lambda v: bool(_YEAR.search(v))))
    kind: str = field(default="history", metadata=declared(Field("text", choices=KINDS), "what the note is about: what happened, "
                                        "how the game models it, or where game and history part", absent="history",
                                        want=f"one of {', '.join(KINDS)}"))
    source: str | None = field(default=None, metadata=declared(
        Field("text", empty=True), "where the note's facts come from, plain text", absent=None, want="text"))
    text: str = field(default="", metadata=declared(Field("text"), "the note, in markdown (raw HTML is not kept)",
                                        want="markdown"))
    html: str = ""
    #: Event ranges [start, end) where the note shows; empty until bound to a history.
    spans: tuple[tuple[int, int], ...] = ()

    def shows_at(self, seq: int) -> bool:
        """True when the note shows at event ``seq``."""
        return any(a <= seq < b for a, b in self.spans)

    def to_json(self) -> dict[str, Any]:
        """The note as page data (``html`` already sanitized; the rest is plain text)."""
        return {"number": self.number, "title": self.title, "kind": self.kind, "date": self.date,
                "source": self.source, "anchor": self.anchor.describe(), "html": self.html,
                "spans": [list(s) for s in self.spans]}


@dataclass(frozen=True)
class AnnotationFile:
    """The top level of an annotation file: its format, version and title, and its notes."""

    format: str | None = field(default=None, metadata=declared(
        Field("text", choices=(FORMAT,)), "what the file is", absent=None, want=repr(FORMAT)))
    version: int | None = field(default=None, metadata=declared(
        Field("int", VERSION, VERSION), "the format's version", absent=None,
        want=f"{VERSION} (this medviz reads version {VERSION})"))
    title: str | None = field(default=None, metadata=declared(
        Field("text", empty=True), "the title of the page", absent=None, want="text"))
    note: tuple[Any, ...] = field(default=(), metadata=declared(
        Field("list", values=Field("table")), "the notes, each a [[note]] table", absent=(),
        want="a list of [[note]] tables"))


#: The keys of each part of an annotation file, from the declarations (docs/data-schema.md shows them).
TOP_FIELDS = tuple(spec.key for _n, spec in specs(AnnotationFile))
NOTE_FIELDS = tuple(spec.key for _n, spec in specs(Note))
ANCHOR_FIELDS = tuple(spec.key for _n, spec in specs(Anchor))


def _declared_problems(entry: Mapping[str, Any], cls: type, where: str, noun: str, label: str,
                       skip: tuple[str, ...] = ()) -> list[str]:
    """Unknown keys, missing needed keys and wrong values of ``entry`` by ``cls``'s declaration.

    ``where`` names the entry ("note 3", or "" at the top level); ``label`` how a key is named
    ("{}", "anchor.{}", "top-level '{}'").
    """
    at = f"{where}: " if where else ""
    declared_ = list(specs(cls))
    known = [spec.key for _n, spec in declared_]
    problems = [f"{at}unknown {noun} {_show(k)} (known: {', '.join(known)})" for k in entry if k not in known]
    for _name, spec in declared_:
        if spec.key in skip:
            continue
        value = entry.get(spec.key)
        blank = isinstance(value, str) and not value.strip()
        if spec.absent is REQUIRED and (spec.key not in entry or blank):
            problems.append(f"{at}{spec.key!r} is required ({spec.must_be})")
        elif spec.key in entry and not spec.accepts(value):
            problems.append(f"{at}{label.format(spec.key)} must be {spec.must_be}, not {_show(value)}")
    return problems


@dataclass(frozen=True)
class Annotations:
    """The notes of one annotation file, optionally bound to a history (then ``for_event`` works)."""

    notes: tuple[Note, ...]
    source: str = "annotations"
    title: str | None = None
    bound: bool = False

    def __len__(self) -> int:
        return len(self.notes)

    def __iter__(self) -> Iterator[Note]:
        return iter(self.notes)

    def for_event(self, seq: int) -> list[Note]:
        """Notes showing at event ``seq``: phase notes first, then point notes, in file order."""
        if not self.bound:
            raise MedvizError(f"{self.source}: annotations are not bound to a history; "
                              "pass history= to load_annotations or call .bind(history)")
        hits = [n for n in self.notes if n.shows_at(seq)]
        return sorted(hits, key=lambda n: (n.anchor.is_point, n.number))

    def bind(self, history: Any) -> Annotations:
        """Resolve every anchor in ``history``; a ``DataError`` lists every anchor that does not."""
        problems: list[str] = []
        notes = _resolve(self.notes, history, problems)
        if problems:
            raise DataError(_by_note(problems), self.source)
        return replace(self, notes=tuple(notes), bound=True)


def load_annotations(path: str | Path, history: Any = None) -> Annotations:
    """Read and check an annotation file; with ``history``, anchors must resolve in it.

    Every problem is reported at once in one ``DataError`` ("note 3: unknown phase 'politcs'
    (known: ...)"); a missing file or bad TOML is ``MalformedInput``.
    """
    return parse_annotations(read_text(path, "annotation file"), str(path), history)


def parse_annotations(text: str, source: str = "annotations", history: Any = None) -> Annotations:
    """Parse annotation TOML text (see :func:`load_annotations`)."""
    data = _toml(text, source)
    problems = _declared_problems(data, AnnotationFile, "", "top-level field", "top-level '{}'")
    title = data.get("title")
    title = title if isinstance(title, str) else None
    raw = data.get("note", [])
    raw = raw if isinstance(raw, list) else []
    for i, entry in enumerate(raw, start=1):
        if not isinstance(entry, Mapping):
            problems.append(f"note {i}: must be a [[note]] table, not {_show(entry)}")
    raw = [n if isinstance(n, Mapping) else None for n in raw]
    notes = [n for i, entry in enumerate(raw, start=1)
             if entry is not None and (n := _parse_note(i, entry, problems)) is not None]
    if history is None:
        known = _default_phases()
        for n in notes:
            if n.anchor.phase is not None and n.anchor.phase not in known:
                problems.append(_unknown_phase(n.number, n.anchor.phase, known))
    else:
        notes = _resolve(notes, history, problems)
    if problems:
        raise DataError(_by_note(problems), source)
    return Annotations(tuple(notes), source, title, bound=history is not None)


def _toml(text: str, source: str) -> dict[str, Any]:
    """``tomllib.loads``, total: every failure is a one-line ``MalformedInput`` naming the place."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError as exc:  # a lone surrogate: only a str made in Python has one, never a file
        line = text.count("\n", 0, exc.start) + 1
        raise MalformedInput(f"{source}: not valid for medviz: a lone surrogate {text[exc.start]!r} "
                             f"(line {line}), not Unicode text") from None
    deep = _too_deep(text)
    if deep is not None:
        raise MalformedInput(f"{source}: not valid for medviz: arrays or inline tables nested more than "
                             f"{MAX_NESTING} deep (line {deep})")
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise MalformedInput(f"{source}: not valid TOML: {exc}") from None
    except RecursionError:  # nesting the scan above missed (brackets inside odd strings)
        raise MalformedInput(f"{source}: not valid for medviz: arrays or inline tables nested too deeply") from None
    except ValueError:  # int("9" * 5000): Python's limit on the digits of an integer
        raise MalformedInput(f"{source}: not valid for medviz: an integer with more than "
                             f"{sys.get_int_max_str_digits()} digits{_line_of(text, _LONG_NUMBER)}") from None


_LONG_NUMBER = re.compile(r"[0-9_]{200,}")


def _line_of(text: str, pattern: re.Pattern[str]) -> str:
    """`` (line N)`` for the first match of ``pattern`` in ``text``, else nothing."""
    m = pattern.search(text)
    return f" (line {text.count(chr(10), 0, m.start()) + 1})" if m else ""


def _too_deep(text: str) -> int | None:
    """The line where arrays/inline tables first nest deeper than ``MAX_NESTING``, else None.

    A small scanner that skips strings and comments; table headers (``[[note]]``) are at depth 0
    and never count, since their brackets close on the same line.
    """
    depth, line, i, n = 0, 1, 0, len(text)
    while i < n:
        c = text[i]
        if c == "\n":
            line += 1
        elif c == "#":
            j = text.find("\n", i)
            i = n if j < 0 else j
            continue
        elif c in "\"'":
            triple = text.startswith(c * 3, i)
            end = _string_end(text, i + (3 if triple else 1), c, triple)
            line += text.count("\n", i, end)
            i = end
            continue
        elif c in "[{" and (depth > 0 or _after_equals(text, i)):
            depth += 1
            if depth > MAX_NESTING:
                return line
        elif c in "]}" and depth > 0:
            depth -= 1
        i += 1
    return None


def _after_equals(text: str, i: int) -> bool:
    """True when the bracket at ``i`` opens a value (``key = [``), not a table header."""
    j = i - 1
    while j >= 0 and text[j] in " \t":
        j -= 1
    return j >= 0 and text[j] == "="


def _string_end(text: str, i: int, quote: str, triple: bool) -> int:
    """Index just past the string starting before ``i`` (or the end of text, or of the line)."""
    n = len(text)
    while i < n:
        c = text[i]
        if c == "\\" and quote == '"':
            i += 2
            continue
        if triple and text.startswith(quote * 3, i):
            return i + 3
        if not triple and (c == quote or c == "\n"):
            return i + 1
        i += 1
    return n


def _by_note(problems: list[str]) -> list[str]:
    """Problems in file order: file-level ones first, then note by note."""
    def key(p: str) -> int:
        m = re.match(r"note (\d+):", p)
        return int(m.group(1)) if m else 0
    return sorted(problems, key=key)


# -- parsing ----------------------------------------------------------------------------------
def _parse_note(number: int, entry: Mapping[str, Any], problems: list[str]) -> Note | None:
    where = f"note {number}"
    start = len(problems)
    problems += _declared_problems(entry, Note, where, "field", "{}", skip=("anchor",))
    anchor = _parse_anchor(where, entry.get("anchor"), problems)
    if anchor is None:
        return None
    # Even a note with other problems goes on to anchor resolution, so every problem is reported.
    ok = len(problems) == start
    title, kind, text = entry.get("title"), entry.get("kind", "history"), entry.get("text")
    date, source = entry.get("date"), entry.get("source")
    text = text if isinstance(text, str) else ""
    return Note(number, anchor, title.strip() if isinstance(title, str) else "",
                date.strip() if isinstance(date, str) else None, kind if isinstance(kind, str) else "",
                source.strip() if isinstance(source, str) else None, text, render_markdown(text) if ok else "")


def _parse_anchor(where: str, raw: Any, problems: list[str]) -> Anchor | None:
    anchor = next(spec for _n, spec in specs(Note) if spec.key == "anchor")
    if raw is None:
        problems.append(f"{where}: 'anchor' is required ({anchor.must_be})")
        return None
    if not isinstance(raw, Mapping):
        problems.append(f"{where}: anchor must be {anchor.must_be}, not {_show(raw)}")
        return None
    n = len(problems)
    problems += _declared_problems(raw, Anchor, where, "anchor field", "anchor.{}")
    points = [k for k in ("event", "roll", "decision") if k in raw]
    spans = [k for k in ("turn", "phase") if k in raw]
    if not points and not spans:
        problems.append(f"{where}: empty anchor ({_ANCHOR_EXAMPLE})")
    elif len(points) > 1 or (points and spans):
        problems.append(f"{where}: anchor mixes {' and '.join(points + spans)}; give one of event, roll, "
                        "decision, or a turn and/or phase")
    if len(problems) > n:
        return None
    return Anchor(**{k: raw[k] for k in ANCHOR_FIELDS if k in raw})


def _unknown_phase(number: int, phase: str, known: Sequence[str]) -> str:
    import difflib

    close = difflib.get_close_matches(phase, list(known), n=1)
    hint = f"; did you mean {close[0]!r}?" if close else ""
    return f"note {number}: unknown phase {_show(phase)} (known: {', '.join(known)}){hint}"


# -- resolving in a history -------------------------------------------------------------------
def _resolve(notes: Sequence[Note], history: Any, problems: list[str]) -> list[Note]:
    """Give every note its event spans in ``history``; append a problem for each that fails."""
    n_events = len(history.events)
    phases = list(history.phases())
    known_phases = list(dict.fromkeys(s.phase for s in phases))
    turns = sorted({s.turn for s in phases if s.turn is not None})
    starts: dict[int, int] = {}
    for note in notes:
        a, where = note.anchor, f"note {note.number}"
        if a.event is not None:
            if a.event >= n_events:
                problems.append(f"{where}: event {a.event} is outside this history (0..{n_events - 1})")
            else:
                starts[note.number] = a.event
        elif a.roll is not None:
            seq = next((e.seq for e in history.events
                        if getattr(e, "roll", None) == a.roll or getattr(e, "draw", None) == a.roll), None)
            if seq is None:
                import difflib

                ids = [str(getattr(e, "roll", None) or getattr(e, "draw", "")) for e in history.rolls()]
                close = difflib.get_close_matches(a.roll, ids, n=2, cutoff=0.5)
                hint = f"; did you mean {', '.join(close)}?" if close else ""
                problems.append(f"{where}: roll {_show(a.roll)} never happens in this history{hint}")
            else:
                starts[note.number] = seq
        elif a.decision is not None:
            seq = next((e.seq for e in history.events if getattr(e, "decision", None) == a.decision), None)
            if seq is None:
                import difflib

                ids = [str(e.decision) for e in history.decisions()]
                close = difflib.get_close_matches(a.decision, ids, n=2, cutoff=0.5)
                hint = f"; did you mean {', '.join(close)}?" if close else ""
                problems.append(f"{where}: decision {_show(a.decision)} never happens in this history{hint}")
            else:
                starts[note.number] = seq
    # Point notes run to the next point note's event, never past the end of their phase.
    ordered = sorted(set(starts.values()))
    out: list[Note] = []
    for note in notes:
        a, where = note.anchor, f"note {note.number}"
        if note.number in starts:
            s = starts[note.number]
            later = [x for x in ordered if x > s]
            end = later[0] if later else n_events
            span = next((p for p in phases if p.start <= s < p.end), None)
            if span is not None:
                end = min(end, span.end)
            out.append(replace(note, spans=((s, end),)))
            continue
        if a.is_point:
            continue  # already reported
        if not phases:
            problems.append(f"{where}: anchored to {a.describe()}, but this history has no turns or phases "
                            "(a single battle?): anchor it to an event, roll or decision")
            continue
        if a.phase is not None and a.phase not in known_phases:
            problems.append(_unknown_phase(note.number, a.phase, known_phases))
            continue
        if a.turn is not None and a.turn not in turns:
            listed = ", ".join(map(str, turns)) or "none: this history has no turns"
            problems.append(f"{where}: turn {a.turn} never happens in this history (turns: {listed})")
            continue
        if a.phase is not None:
            spans = [(p.start, p.end) for p in phases if p.phase == a.phase and (a.turn is None or p.turn == a.turn)]
        else:
            of_turn = [p for p in phases if p.turn == a.turn]
            spans = [(of_turn[0].start, of_turn[-1].end)]
        if not spans:
            problems.append(f"{where}: phase {_show(a.phase)} of turn {a.turn} never happens in this history")
            continue
        out.append(replace(note, spans=tuple(spans)))
    return out
