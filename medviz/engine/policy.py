"""Players: a ``Policy`` chooses among the legal options at a decision point.

Policies here are ruleset-agnostic. A ruleset may offer more (heuristic, historical) and
registers them by name so a saved history can name its players (``spec``) and be re-run.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol, runtime_checkable

from medviz.engine.dice import natural_index
from medviz.engine.errors import MalformedInput, MedvizError
from medviz.engine.frozen import quick_init


class Option:
    """A typed option: a small structured value with its own ``key`` and ``words``.

    Rule code offers subclasses (frozen dataclasses with ``slots=True``) at a decision point;
    policies and apps read their fields and words. A history records only the ``key``, the
    plain JSON value (text, number or object) that names the option for good, so a saved
    game replays by key. A plain JSON value offered as an option is its own key and words.
    """

    __slots__ = ()

    @property
    def key(self) -> Any:
        """The option as a history records it (plain JSON: text, a number or an object)."""
        raise NotImplementedError(f"{type(self).__name__} must define key")

    @property
    def words(self) -> str:
        """The option in plain words, for people (default: its key as text)."""
        return str(self.key)


def option_key(option: Any) -> Any:
    """What a history records for ``option``: a typed option's ``key``, else the value itself."""
    return option.key if isinstance(option, Option) else option


def option_words(option: Any) -> str:
    """``option`` in plain words: a typed option's ``words``, else its text."""
    return option.words if isinstance(option, Option) else str(option)


@quick_init
@dataclass(frozen=True, slots=True)
class DecisionPoint:
    """What a policy sees: a stable id, who decides, the legal options and the state.

    ``kind`` is the decision's family as its ruleset declares it (``Ruleset.decision_kinds``):
    policies dispatch on it, never on the shape of the id. ``options`` are the values rule
    code offered (typed ``Option``s or plain JSON values); ``keys`` what a history records.
    """

    decision: str
    actor: str
    options: tuple[Any, ...]
    state: Any = None
    prompt: str = ""
    turn: int | None = None
    phase: str | None = None
    kind: str = ""

    @property
    def keys(self) -> tuple[Any, ...]:
        """The options as a history records them (``option_key`` of each)."""
        return tuple(option_key(o) for o in self.options)

    def option(self, choice: Any) -> Any:
        """The legal option that ``choice`` (a typed option or its key) names, or None."""
        i = option_index(self.options, choice)
        return None if i is None else self.options[i]


@runtime_checkable
class Policy(Protocol):
    """Chooses one of ``point.options``; must be deterministic for a given point and state."""

    @property
    def spec(self) -> str:
        """A short text that names the policy and rebuilds it (``random:7``)."""
        ...

    def choose(self, point: DecisionPoint) -> Any: ...


def canonical(option: Any) -> str:
    """A stable text form of an option, for comparing recorded choices with legal ones."""
    return json.dumps(option, sort_keys=True, separators=(",", ":"), default=_jsonable)


def _jsonable(value: Any) -> Any:
    if isinstance(value, Option):
        return value.key
    if isinstance(value, Mapping):
        return dict(value)
    raise TypeError(f"not JSON-able: {value!r}")


@dataclass
class RandomPolicy:
    """Uniformly random among legal options, addressed by (seed, decision id) like dice."""

    seed: int = 0

    @property
    def spec(self) -> str:
        return f"random:{self.seed}"

    def choose(self, point: DecisionPoint) -> Any:
        return point.options[natural_index(self.seed, "policy/" + point.decision, len(point.options))]


@dataclass
class FirstOptionPolicy:
    """Always the first legal option (rules code lists the conservative option first)."""

    spec: str = "first"

    def choose(self, point: DecisionPoint) -> Any:
        return point.options[0]


@dataclass
class ScriptedPolicy:
    """Plays recorded choices by decision id; falls back to another policy for the rest."""

    choices: Mapping[str, Any] = field(default_factory=dict)
    fallback: Policy = field(default_factory=FirstOptionPolicy)

    @property
    def spec(self) -> str:
        return f"scripted/{self.fallback.spec}"

    def choose(self, point: DecisionPoint) -> Any:
        if point.decision not in self.choices:
            return self.fallback.choose(point)
        i = option_index(point.options, self.choices[point.decision])
        if i is None:
            raise self.refusal(point, self.choices[point.decision])
        return point.options[i]

    def refusal(self, point: DecisionPoint, choice: Any) -> MedvizError:
        """The error for a scripted choice that is not legal here (subclasses name the rule)."""
        return MalformedInput(
            f"decision {point.decision}: scripted choice {option_words(choice)!r} is not among the legal options "
            f"({'; '.join(option_words(o) for o in point.options)})"
        )


@dataclass
class HumanSeat:
    """A human's seat: pauses the run at each of the human's decisions (``AwaitingDecision``).

    With a ``fallback`` it answers instead: every decision (as in a finished table's history,
    spec ``human/<fallback>``), or only those ``delegate`` accepts (``Table.auto_while``).
    """

    fallback: Policy | None = None
    delegate: Callable[[DecisionPoint], bool] | None = None

    @property
    def spec(self) -> str:
        """``human`` or ``human/<fallback spec>``."""
        return "human" if self.fallback is None else f"human/{self.fallback.spec}"

    def choose(self, point: DecisionPoint) -> Any:
        """The fallback's choice where it may answer; otherwise pause the game here."""
        if self.fallback is not None and (self.delegate is None or self.delegate(point)):
            return self.fallback.choose(point)
        raise AwaitingDecision(point)


def parse_policy(spec: str, extra: Mapping[str, Any] | None = None) -> Policy:
    """Build a policy from its spec: ``random:SEED``, ``first``, or a name in ``extra``."""
    name, _, arg = spec.partition(":")
    if name == "random":
        try:
            return RandomPolicy(int(arg or 0))
        except ValueError:
            raise MalformedInput(f"policy {spec!r}: the seed after 'random:' must be a whole number") from None
    if name == "first":
        return FirstOptionPolicy()
    if extra and name in extra:
        factory = extra[name]
        try:
            policy: Policy = factory(arg) if arg else factory()
        except (ValueError, TypeError) as exc:  # a setting that does not parse, e.g. doctrine:initiative_markers=x
            raise MalformedInput(f"policy {spec!r}: {exc}") from None
        return policy
    known = ["random[:SEED]", "first", *sorted(extra or ())]
    raise MalformedInput(f"unknown policy {spec!r}; known: {', '.join(known)}")


def choose_checked(policy: Policy, point: DecisionPoint) -> Any:
    """Ask ``policy`` and check that its answer is one of the legal options.

    Returns the legal option itself: a policy may answer with a typed option or its key.
    """
    choice = policy.choose(point)
    options = point.options
    for o in options:  # the usual case: the policy handed back one of the options
        if o is choice:
            return choice
    kind = type(choice)
    if kind is str or isinstance(choice, Option):  # equal text or fields: equal canonical forms, no JSON needed
        for o in options:
            if type(o) is kind and o == choice:
                return o if isinstance(o, Option) else choice
    i = option_index(options, choice)
    if i is None:
        raise MalformedInput(
            f"decision {point.decision}: policy {policy.spec} chose {option_words(choice)!r}, "
            f"which is not a legal option"
        )
    return point.options[i] if isinstance(point.options[i], Option) else choice


def option_index(options: Sequence[Any], choice: Any) -> int | None:
    """Index of ``choice`` among ``options`` by canonical form (a typed option's: its key), or ``None``."""
    wanted = canonical(choice)
    for i, o in enumerate(options):
        if canonical(o) == wanted:
            return i
    return None


class AwaitingDecision(Exception):
    """Raised by a policy that cannot answer yet (a human's turn at a table): the run pauses there.

    Not an error: ``run`` catches it and returns the run so far with ``pending`` set to the point.
    """

    def __init__(self, point: DecisionPoint) -> None:
        self.point = point
        super().__init__(f"decision {point.decision} awaits {point.actor}")
