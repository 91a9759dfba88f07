"""The whole game's typed options: what a force, an attempt, a recruit or a placement is, as fields.

Rule code offers these at its decisions (``choices.Decision`` names each decision's kind);
players read the fields, never the text. ``key`` is exactly the text a history has always
recorded; ``words_in(pair)`` words the option from its fields with a game's own data
(``words``: the shipped names). ``describe_choice`` words any option, typed or as recorded.

A history records keys only. ``typed_option`` reads a recorded key back as its typed option
through ``KEY_FORMS``, the one declared reading of the key format (each form beside the class
whose ``key`` writes it; tests/test_typed_options.py checks every offered option reads back to
itself), so no rule or wording code takes a key string apart.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Protocol, TypeVar, cast

from medviz.engine.frozen import quick_init
from medviz.engine.policy import Option, option_key
from medviz.rules.medempires.choices import BattleUnit
from medviz.rules.medempires.combat import UNIT_NAMES
from medviz.rules.medempires.game.datapair import DataPair, shipped_data
from medviz.rules.medempires.game.describe import area_name, king_name, short_power, token_words, unit_word


class _Worded(Option):
    """An option worded from its fields with a game's data (``words``: the shipped data)."""

    __slots__ = ()

    def words_in(self, w: DataPair) -> str:
        """The option in plain words, with the names of ``w``."""
        raise NotImplementedError(f"{type(self).__name__} must define words_in")

    @property
    def words(self) -> str:
        """The option in plain words (shipped names)."""
        return self.words_in(shipped_data())


_O = TypeVar("_O", bound=Option)


class _Shared(Protocol):
    def __call__(self, cls: type[_O], *fields: str) -> _O: ...


def _shared(cls: type[_O], *fields: str) -> _O:
    """``cls(*fields)``, one value kept per type and fields: options are immutable values, and rule code
    offers the same ones over and over (areas to place in, forces to pick), so a look-up replaces a build."""
    return cls(*fields)


#: ``_shared`` with its values kept (a look-up in C, no Python call when the option was built before).
shared = cast(_Shared, lru_cache(maxsize=65536)(_shared))


def _units_in(w: DataPair, area: str, power: str, what: str, key: str) -> str:
    if power not in w.game_data.powers:
        return key
    if what == "all":
        return f"all {short_power(w, power)} units in {area_name(w, area)}"
    if what == "pick":
        return f"some {short_power(w, power)} units in {area_name(w, area)} (you name them)"
    return f"{short_power(w, power)} {unit_word(what)} in {area_name(w, area)}"


@quick_init
@dataclass(frozen=True, slots=True)
class Place(_Worded):
    """An area to put something in; at set-up, the ``counter`` (``FA-2``, ``king``, ``F-1``) of ``power``."""

    area: str
    power: str = ""
    counter: str = ""

    @property
    def key(self) -> str:
        return self.area

    def words_in(self, w: DataPair) -> str:
        """The area's name."""
        return token_words(w, self.area)


@quick_init
@dataclass(frozen=True, slots=True)
class ForcePick(_Worded):
    """A force to activate (10.0): ``power``'s units in ``area``: ``all``, one unit ``CODE``, or ``pick``."""

    area: str
    power: str
    what: str

    @property
    def key(self) -> str:
        return f"{self.area}|{self.power}|{self.what}"

    def words_in(self, w: DataPair) -> str:
        """'all Anjou units in Calabria', 'Aragon field army in Urgell'."""
        return _units_in(w, self.area, self.power, self.what, self.key)


_EMBARK_WAY = {"embark": "from", "debark": "into", "embark-king": "from", "debark-king": "into"}


@quick_init
@dataclass(frozen=True, slots=True)
class Action(_Worded):
    """A force's next action (10.1-11.4): ``verb`` and what it acts on.

    ``end``, ``attack``; ``move``/``land``/``raid`` to ``area``; ``pickup``/``drop`` a ``unit``;
    ``embark``/``debark`` a ``power``'s ``unit`` from/into ``area``; ``embark-king``/``debark-king``.
    """

    verb: str
    area: str = ""
    power: str = ""
    unit: str = ""
    king: str = ""

    @property
    def key(self) -> str:
        v = self.verb
        if v in ("move", "land", "raid"):
            return f"{v}:{self.area}"
        if v in ("pickup", "drop"):
            return f"{v}:{self.unit}"
        if v in ("embark", "debark"):
            return f"{v}:{self.area}:{self.power}:{self.unit}"
        if v in ("embark-king", "debark-king"):
            return f"{v}:{self.area}:{self.king}"
        return v

    def words_in(self, w: DataPair) -> str:
        """'move to Sicily (Val di Mazara)', 'embark Anjou field army from Calabria'."""
        v = self.verb
        if v == "move":
            return f"move to {area_name(w, self.area)}"
        if v == "land":
            return f"land {area_name(w, self.area)} (amphibious landing)"
        if v == "raid":
            return f"raid the coast of {area_name(w, self.area)}"
        if v in ("embark", "debark"):
            return f"{v} {short_power(w, self.power)} {unit_word(self.unit)} {_EMBARK_WAY[v]} {area_name(w, self.area)}"
        if v in ("embark-king", "debark-king"):
            go = "embark" if v == "embark-king" else "debark"
            return f"{go} {king_name(w, self.king)} {_EMBARK_WAY[v]} {area_name(w, self.area)}"
        if v in ("drop", "pickup"):
            return f"{'drop off' if v == 'drop' else 'pick up'} a {unit_word(self.unit)}"
        return token_words(w, v)


_ATTEMPT_WORDS = {"diplomacy": "diplomacy with", "vassalage": "vassalage over", "rebellion": "rebellion of"}


@quick_init
@dataclass(frozen=True, slots=True)
class Attempt(_Worded):
    """A political attempt (7.0): ``kind`` (diplomacy, vassalage, rebellion) on ``power`` (rebellion: in ``home``)."""

    kind: str
    power: str
    home: str = ""

    @property
    def key(self) -> str:
        return f"{self.kind}:{self.power}" + (f"@{self.home}" if self.home else "")

    @property
    def target(self) -> str:
        """``power`` or ``power@home``, as the political result reports it."""
        return f"{self.power}@{self.home}" if self.home else self.power

    def words_in(self, w: DataPair) -> str:
        """'diplomacy with Papal States', 'rebellion of Sardinia in Arborea'."""
        where = f" in {area_name(w, self.home)}" if self.home else ""
        return f"{_ATTEMPT_WORDS[self.kind]} {short_power(w, self.power)}{where}"


@quick_init
@dataclass(frozen=True, slots=True)
class Cede(_Worded):
    """A territorial concession (14.3): cede ``area`` to Castile."""

    area: str

    @property
    def key(self) -> str:
        return f"cede:{self.area}"

    def words_in(self, w: DataPair) -> str:
        """'cede Murcia'."""
        return f"cede {area_name(w, self.area)}"


@quick_init
@dataclass(frozen=True, slots=True)
class Purchase(_Worded):
    """A recruit (6.2): one unit ``code`` of ``power`` (``2L``: two levies)."""

    power: str
    code: str

    @property
    def key(self) -> str:
        return f"{self.power}:{self.code}"

    def words_in(self, w: DataPair) -> str:
        """'Aragon two levies'."""
        if self.power not in w.game_data.powers:
            return f"{self.power} {token_words(w, self.code)}"
        return f"{short_power(w, self.power)} {unit_word(self.code)}"


@quick_init
@dataclass(frozen=True, slots=True)
class UnitIn(_Worded):
    """One unit ``code`` of ``power`` in ``area`` (redistribution 5.2: ``2L`` moves two levies; the Crusade)."""

    area: str
    power: str
    code: str

    @property
    def key(self) -> str:
        return f"{self.area}|{self.power}|{self.code}"

    def words_in(self, w: DataPair) -> str:
        """'Aragon field army in Urgell'."""
        return _units_in(w, self.area, self.power, self.code, self.key)


@quick_init
@dataclass(frozen=True, slots=True)
class StackUnit(_Worded):
    """A unit of ``power`` to eliminate over the stacking limit (5.2)."""

    power: str
    code: str

    @property
    def key(self) -> str:
        return f"{self.power}|{self.code}"

    def words_in(self, w: DataPair) -> str:
        """'France field army'."""
        if self.power in w.game_data.powers:
            return f"{short_power(w, self.power)} {unit_word(self.code)}"
        return f"{unit_word(self.code)} in {area_name(w, self.power)}"


@quick_init
@dataclass(frozen=True, slots=True)
class OnlyPower(_Worded):
    """An interception by only ``power``'s units in the area, when several powers' units are there (10.2)."""

    power: str

    @property
    def key(self) -> str:
        return f"only {self.power}"

    def words_in(self, w: DataPair) -> str:
        """'only Aragon'."""
        return f"only {token_words(w, self.power)}"


# --------------------------------------------------------------------------------------------
# Reading a recorded key back as its typed option
# --------------------------------------------------------------------------------------------
_ID = r"[^|:@]+"
_WORD = r"[^|:@ ]+"
_CODE = "|".join(sorted((*UNIT_NAMES, "2L"), key=len, reverse=True))

#: Each form a typed option's ``key`` takes, as a pattern whose named groups are the option's fields
#: (a verb or kind the pattern names is a field too), tried in order: the first that matches reads it.
KEY_FORMS: tuple[tuple[re.Pattern[str], type[Option]], ...] = tuple((re.compile(p), cls) for p, cls in (
    # a unit in an area (``UnitIn``) has the key of a force of one unit there, and the same words
    (rf"(?P<area>{_ID})\|(?P<power>{_ID})\|(?P<what>{_ID})", ForcePick),
    (rf"(?P<power>{_ID})\|(?P<code>{_ID})", StackUnit),
    (r"(?P<verb>end|attack)", Action),
    (rf"(?P<verb>move|land|raid):(?P<area>{_ID})", Action),
    (rf"(?P<verb>pickup|drop):(?P<unit>{_ID})", Action),
    (rf"(?P<verb>embark|debark):(?P<area>{_ID}):(?P<power>{_ID}):(?P<unit>{_ID})", Action),
    (rf"(?P<verb>embark-king|debark-king):(?P<area>{_ID}):(?P<king>{_ID})", Action),
    (rf"(?P<kind>diplomacy|vassalage|rebellion):(?P<power>{_ID})(?:@(?P<home>{_ID}))?", Attempt),
    (rf"cede:(?P<area>{_ID})", Cede),
    (rf"(?P<power>{_ID}):(?P<code>{_ID})", Purchase),
    (rf"only (?P<power>{_WORD})", OnlyPower),
    (rf"(?P<power>{_WORD}) (?P<code>{_CODE})", BattleUnit),
))


def typed_option(choice: Any) -> Any:
    """The typed option a recorded key names (by ``KEY_FORMS``); a typed option, or a plain word, as it is."""
    if isinstance(choice, Option) or not isinstance(choice, str):
        return choice
    for form, cls in KEY_FORMS:
        m = form.fullmatch(choice)
        if m is not None:
            return cls(**{k: v for k, v in m.groupdict().items() if v is not None})
    return choice


def describe_choice(choice: Any, pair: DataPair | None = None) -> str:
    """An option in plain words: ``urgell|aragon|FA`` -> 'Aragon field army in Urgell'.

    ``choice`` is a typed option or a key as a history records it (read back by ``typed_option``);
    names come from ``pair`` (the game's own data), else from the shipped data.
    """
    w = pair if pair is not None else shipped_data()
    option = typed_option(choice)
    if isinstance(option, _Worded):
        return option.words_in(w)
    if isinstance(option, BattleUnit):
        if option.power not in w.game_data.powers:
            return f"{token_words(w, option.power)} {token_words(w, option.code)}"
        return f"{short_power(w, option.power)} {unit_word(option.code)}"
    text = str(option_key(option))
    if text == "pick":
        return "some of the units there (you name them)"
    return token_words(w, text)


__all__ = ["KEY_FORMS", "Action", "Attempt", "Cede", "ForcePick", "OnlyPower", "Place", "Purchase", "StackUnit",
           "UnitIn", "describe_choice", "shared", "typed_option"]
