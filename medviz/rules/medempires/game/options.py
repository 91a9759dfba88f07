"""The whole game's typed options: what a force, an attempt, a recruit or a placement is, as fields.

Rule code offers these at its decisions (``choices.Decision`` names each decision's kind);
players read the fields, never the text. ``key`` is exactly the text a history has always
recorded; ``words`` are the log's words for it (``describe.describe_choice``, shipped names;
``MedEmpires.describe_option`` words it with a game's own data).
"""

from __future__ import annotations

from dataclasses import dataclass

from medviz.engine.policy import Option
from medviz.rules.medempires.game.describe import describe_choice


class _Worded(Option):
    """An option worded as the log words its key (``describe.describe_choice``, shipped names)."""

    __slots__ = ()

    @property
    def words(self) -> str:
        """The option in plain words."""
        return describe_choice(self.key)


@dataclass(frozen=True, slots=True)
class Place(_Worded):
    """An area to put something in; at set-up, the ``counter`` (``FA-2``, ``king``, ``F-1``) of ``power``."""

    area: str
    power: str = ""
    counter: str = ""

    @property
    def key(self) -> str:
        return self.area


@dataclass(frozen=True, slots=True)
class ForcePick(_Worded):
    """A force to activate (10.0): ``power``'s units in ``area``: ``all``, one unit ``CODE``, or ``pick``."""

    area: str
    power: str
    what: str

    @property
    def key(self) -> str:
        return f"{self.area}|{self.power}|{self.what}"


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


@dataclass(frozen=True, slots=True)
class Cede(_Worded):
    """A territorial concession (14.3): cede ``area`` to Castile."""

    area: str

    @property
    def key(self) -> str:
        return f"cede:{self.area}"


@dataclass(frozen=True, slots=True)
class Purchase(_Worded):
    """A recruit (6.2): one unit ``code`` of ``power`` (``2L``: two levies)."""

    power: str
    code: str

    @property
    def key(self) -> str:
        return f"{self.power}:{self.code}"


@dataclass(frozen=True, slots=True)
class UnitIn(_Worded):
    """One unit ``code`` of ``power`` in ``area`` (redistribution 5.2: ``2L`` moves two levies; the Crusade)."""

    area: str
    power: str
    code: str

    @property
    def key(self) -> str:
        return f"{self.area}|{self.power}|{self.code}"


@dataclass(frozen=True, slots=True)
class StackUnit(_Worded):
    """A unit of ``power`` to eliminate over the stacking limit (5.2)."""

    power: str
    code: str

    @property
    def key(self) -> str:
        return f"{self.power}|{self.code}"


