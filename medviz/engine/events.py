"""Immutable, typed events: the history of a game is a list of these.

Kinds: ``phase`` (a phase begins), ``decision`` (a player chose among legal options),
``roll`` (dice), ``draw`` (a random draw from a pool, e.g. a stratagem marker from the cup),
``change`` (a state change, applied by the ruleset's reducer) and ``report`` (a result worth
showing that changes nothing by itself, e.g. the table result of a combat roll).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, fields
from fractions import Fraction
from typing import Any, ClassVar

from medviz.engine import dice as _dice
from medviz.engine.errors import MalformedInput
from medviz.engine.frozen import quick_init


class FrozenDict(dict[str, Any]):
    """A read-only, hashable mapping used inside events (a ``dict`` underneath, so reading it runs at
    the dict's own speed; every method that would change it raises ``TypeError``)."""

    __slots__ = ("_h",)

    def __init__(self, data: Mapping[str, Any] | None = None) -> None:
        if data:  # (module-level names bound once: an event's data is built some 1,000 times a game)
            if _all_atoms(map(type, data.values())):
                _dict_init(self, data)
            else:
                _dict_init(self, {k: v if type(v) in _ATOMS else freeze(v) for k, v in data.items()})
        self._h: int | None = None

    def _read_only(self, *args: Any, **kwargs: Any) -> Any:
        raise TypeError("a FrozenDict is read-only (event data never changes)")

    __setitem__ = _read_only
    __delitem__ = _read_only
    __ior__ = _read_only
    clear = _read_only
    pop = _read_only
    popitem = _read_only
    setdefault = _read_only
    update = _read_only

    def as_dict(self) -> dict[str, Any]:
        """A plain (shallow) dict of the same items: a new one, so changing it changes nothing here."""
        return dict(self)

    def __hash__(self) -> int:  # type: ignore[override]
        if self._h is None:  # order-free, as == is: equal mappings hash alike whatever their key order
            self._h = hash(frozenset(self.items()))
        return self._h

    def __eq__(self, other: object) -> bool:
        if isinstance(other, dict):
            return dict.__eq__(self, other)
        if isinstance(other, Mapping):
            return dict.__eq__(self, dict(other))
        return NotImplemented

    def __ne__(self, other: object) -> bool:
        eq = self.__eq__(other)
        return eq if eq is NotImplemented else not eq

    def __repr__(self) -> str:
        return f"FrozenDict({dict.__repr__(self)})"

    def __reduce__(self) -> tuple[Any, ...]:
        return (FrozenDict, (dict(self),))

    def __copy__(self) -> FrozenDict:
        return self

    def __deepcopy__(self, memo: Any) -> FrozenDict:
        return self


#: Immutable leaf types ``freeze`` passes through untouched (checked by exact type, cheaply).
_ATOMS: frozenset[type] = frozenset({str, int, float, bool, type(None)})
_all_atoms = _ATOMS.issuperset
_dict_init = dict.__init__


def freeze(value: Any) -> Any:
    """Deep-freeze JSON-like data: dicts become ``FrozenDict``, lists become tuples."""
    t = type(value)
    if t in _KEPT:
        return value
    if t is tuple:
        if _ATOMS.issuperset(map(type, value)):
            return value
        return tuple(map(freeze, value))
    if t is list:
        return tuple(map(freeze, value))
    if t is dict or isinstance(value, Mapping):
        return FrozenDict(value)
    if isinstance(value, (list, tuple)):
        return tuple(map(freeze, value))
    _KEPT.add(t)  # neither a mapping nor a sequence (a typed option, say): kept as it is, known next time
    return value


def freeze_each(values: Iterable[Any]) -> tuple[Any, ...]:
    """``tuple(map(freeze, values))``, without a call per value when every one is kept as it is."""
    out = tuple(values)
    if _KEPT.issuperset(map(type, out)):
        return out
    return tuple(map(freeze, out))


#: Types ``freeze`` keeps as they are: the atoms, ``FrozenDict`` and those it has found to be neither
#: mappings, lists nor tuples (a typed option, say).
_KEPT: set[type] = {*_ATOMS, FrozenDict}


def thaw(value: Any) -> Any:
    """Turn frozen data back into plain JSON-ready dicts and lists."""
    t = type(value)
    if t in _ATOMS:  # the usual leaf: no generic isinstance check against the Mapping ABC
        return value
    if t is FrozenDict:
        return {k: thaw(v) for k, v in dict.items(value)}
    if isinstance(value, Mapping):
        return {k: thaw(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [thaw(v) for v in value]
    return value


@quick_init
@dataclass(frozen=True, slots=True)
class Event:
    """Fields every event has; ``automatic`` marks transitions nobody chose."""

    kind: ClassVar[str] = "event"
    seq: int
    turn: int | None = None
    phase: str | None = None
    actor: str | None = None
    automatic: bool = False

    def to_dict(self) -> dict[str, Any]:
        """A plain-JSON dict with ``kind`` first; ``None`` fields and false flags are left out."""
        out: dict[str, Any] = {"seq": self.seq, "kind": self.kind}
        for f in fields(self):
            if f.name == "seq":
                continue
            v = getattr(self, f.name)
            if v is None or (f.name in _OMIT_FALSE and v is False):
                continue
            out[f.name] = thaw(v)
        return out


_OMIT_FALSE = frozenset({"automatic", "secret"})


@quick_init
@dataclass(frozen=True, slots=True)
class PhaseEvent(Event):
    """A phase (or the game's end) begins."""

    kind: ClassVar[str] = "phase"
    name: str = ""


@quick_init
@dataclass(frozen=True, slots=True)
class RollEvent(Event):
    """A roll of dice with a stable id naming what it is for."""

    kind: ClassVar[str] = "roll"
    roll: str = ""
    dice: str = "1d6"
    faces: tuple[int, ...] = ()
    natural: int = 0
    value: int = 0
    overridden: bool = False
    purpose: str = ""
    effects: FrozenDict | None = None  # face -> what it would mean, where the rules code knows
    #: Where the natural value came from: None, the seed; ``entered``, a physical die entered at a table (record mode).
    source: str | None = None

    @property
    def probability(self) -> Fraction:
        """Probability of the value shown (not of the natural value)."""
        return _dice.probability(self.dice, self.value)


@quick_init
@dataclass(frozen=True, slots=True)
class DrawEvent(Event):
    """A random draw from a pool (a stratagem marker from the cup, a replacement King)."""

    kind: ClassVar[str] = "draw"
    draw: str = ""
    pool: tuple[str, ...] = ()  # every item in the pool, repeated by multiplicity, sorted
    natural: str = ""
    value: str = ""
    overridden: bool = False
    purpose: str = ""
    #: Where the natural value came from: None, the seed; ``entered``, drawn from a real cup at a table.
    source: str | None = None

    @property
    def probability(self) -> Fraction:
        """Probability of drawing the value shown."""
        return Fraction(self.pool.count(self.value), len(self.pool)) if self.pool else Fraction(0)


@quick_init
@dataclass(frozen=True, slots=True)
class ShuffleEvent(Event):
    """A deck shuffled: its order as one chance event; card ``n`` (1 = top) is addressed ``<shuffle>/<n>``.

    Changing the card at one place swaps it with that card's old place, so every other card of
    the deck stays where it was (``Context.shuffle``).
    """

    kind: ClassVar[str] = "shuffle"
    shuffle: str = ""
    cards: tuple[str, ...] = ()    # the deck's cards, repeated by multiplicity, sorted
    natural: tuple[str, ...] = ()  # the order the seed gives, top card first
    order: tuple[str, ...] = ()    # the order played (natural, with any overrides swapped in)
    overridden: bool = False
    purpose: str = ""

    def card_at(self, place: int) -> str:
        """The card at ``place`` (1 = the top card)."""
        return self.order[place - 1]

    def probability(self, card: str) -> Fraction:
        """Probability that a given place holds ``card``."""
        return Fraction(self.cards.count(card), len(self.cards)) if self.cards else Fraction(0)


@quick_init
@dataclass(frozen=True, slots=True)
class DecisionEvent(Event):
    """A player chose among the legal options at a decision point with a stable id."""

    kind: ClassVar[str] = "decision"
    decision: str = ""
    options: tuple[Any, ...] = ()
    choice: Any = None
    legal_options: int = 0
    source: str = "policy"  # policy | recorded | forced
    prompt: str = ""
    secret: bool = False  # one of several choices made at once, none seeing the others (decide_secretly)


@quick_init
@dataclass(frozen=True, slots=True)
class ChangeEvent(Event):
    """A state change, applied to the state by the ruleset's reducer."""

    kind: ClassVar[str] = "change"
    change: str = ""
    data: FrozenDict = field(default_factory=FrozenDict)


@quick_init
@dataclass(frozen=True, slots=True)
class ReportEvent(Event):
    """A result worth showing that does not itself change the state."""

    kind: ClassVar[str] = "report"
    report: str = ""
    data: FrozenDict = field(default_factory=FrozenDict)


EVENT_TYPES: dict[str, type[Event]] = {
    cls.kind: cls for cls in (PhaseEvent, RollEvent, DrawEvent, ShuffleEvent, DecisionEvent, ChangeEvent,
                               ReportEvent)
}


#: Decision sources: a player's policy, a human at a table, a choice put on record, or the only option.
SOURCES = ("policy", "human", "recorded", "forced")

#: Chance sources: a roll or draw without one came from the seed; ``entered`` came from a real table.
CHANCE_SOURCES = ("entered",)

#: The JSON type each event field must have, by event kind (``?``: may also be null).
_FIELD_TYPES: dict[str, dict[str, str]] = {
    kind: {"seq": "int", "turn": "int?", "phase": "str?", "actor": "str?", "automatic": "bool", **own}
    for kind, own in {
        "phase": {"name": "str"},
        "roll": {"roll": "str", "dice": "str", "faces": "ints", "natural": "int", "value": "int",
                 "overridden": "bool", "purpose": "str", "effects": "object?", "source": "str?"},
        "draw": {"draw": "str", "pool": "strs", "natural": "str", "value": "str", "overridden": "bool",
                 "purpose": "str", "source": "str?"},
        "decision": {"decision": "str", "options": "list", "choice": "any", "legal_options": "int",
                     "source": "str", "prompt": "str", "secret": "bool"},
        "shuffle": {"shuffle": "str", "cards": "strs", "natural": "strs", "order": "strs", "overridden": "bool",
                    "purpose": "str"},
        "change": {"change": "str", "data": "object"},
        "report": {"report": "str", "data": "object"},
    }.items()
}
_WANTED = {"int": "a whole number", "str": "text", "bool": "true or false", "object": "an object",
           "list": "a list", "ints": "a list of whole numbers", "strs": "a list of texts"}


def json_type(value: Any) -> str:
    """What a JSON value is, in words: ``null``, ``true/false``, ``a whole number``, ``text``..."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true/false"
    if isinstance(value, int):
        return "a whole number"
    if isinstance(value, float):
        return "a number"
    if isinstance(value, str):
        return "text"
    if isinstance(value, (list, tuple)):
        return "a list"
    if isinstance(value, Mapping):
        return "an object"
    return type(value).__name__


def has_type(value: Any, wanted: str) -> bool:
    """True when JSON ``value`` is of the field type ``wanted`` (``int``, ``str?``, ``ints``...)."""
    if wanted.endswith("?"):
        return value is None or has_type(value, wanted[:-1])
    if wanted == "int":
        return isinstance(value, int) and not isinstance(value, bool)
    if wanted == "str":
        return isinstance(value, str)
    if wanted == "bool":
        return isinstance(value, bool)
    if wanted == "object":
        return isinstance(value, Mapping)
    if wanted == "list":
        return isinstance(value, list)
    if wanted == "ints":
        return isinstance(value, list) and all(has_type(v, "int") for v in value)
    if wanted == "strs":
        return isinstance(value, list) and all(isinstance(v, str) for v in value)
    return wanted == "any"


def expect(value: Any, wanted: str, where: str) -> None:
    """Raise ``MalformedInput`` naming ``where`` unless ``value`` has the field type ``wanted``."""
    if not has_type(value, wanted):
        words = _WANTED[wanted.rstrip("?")] + (" or null" if wanted.endswith("?") else "")
        raise MalformedInput(f"{where}: expected {words}, got {json_type(value)}")


def event_from_dict(d: Mapping[str, Any], where: str = "event") -> Event:
    """Rebuild an event from its JSON dict; an unknown kind or field, or a wrong type, is ``MalformedInput``.

    ``where`` names the event (``game.json: events[12]``); messages add the field
    (``game.json: events[12].kind: expected text, got a list``).
    """
    if not isinstance(d, Mapping):
        raise MalformedInput(f"{where}: expected an object, got {json_type(d)}")
    if "kind" not in d:
        raise MalformedInput(f"{where}: missing field 'kind'")
    kind = d["kind"]
    expect(kind, "str", f"{where}.kind")
    cls = EVENT_TYPES.get(kind)
    if cls is None:
        raise MalformedInput(f"{where}.kind: unknown event kind {kind!r} (known: {', '.join(EVENT_TYPES)})")
    types = _FIELD_TYPES[kind]
    extra = [k for k in d if k != "kind" and k not in types]
    if extra:
        raise MalformedInput(f"{where}: unexpected field(s) {sorted(map(str, extra))} for a {kind} event")
    if "seq" not in d:
        raise MalformedInput(f"{where}: missing field 'seq'")
    for name, value in d.items():
        if name != "kind":
            expect(value, types[name], f"{where}.{name}")
    if kind == "decision" and "source" in d and d["source"] not in SOURCES:
        raise MalformedInput(f"{where}.source: {d['source']!r} is not one of {', '.join(SOURCES)}")
    if kind in ("roll", "draw") and d.get("source") is not None and d["source"] not in CHANCE_SOURCES:
        raise MalformedInput(f"{where}.source: {d['source']!r} is not one of {', '.join(CHANCE_SOURCES)} (or absent)")
    return cls(**{k: freeze(v) for k, v in d.items() if k != "kind"})


def current_phase(events: Sequence[Event]) -> Sequence[Event]:
    """The events of the current phase so far: from the latest ``PhaseEvent`` on (all of them when there is none)."""
    for i in range(len(events) - 1, -1, -1):
        if isinstance(events[i], PhaseEvent):
            return events[i:]
    return events
