"""Rulesets are plug-ins: found by id through the ``medviz.rulesets`` entry-point group.

A game ships as a package that declares, in its ``pyproject.toml``::

    [project.entry-points."medviz.rulesets"]
    mygame = "mygame.ruleset:RULESET"

``get_ruleset("mygame")`` then loads it on first use; nothing generic imports a game package.
``register_ruleset`` adds one for this process only (tests, notebooks that define a game inline).
"""

from __future__ import annotations

import difflib
from importlib import import_module
from importlib.metadata import entry_points
from typing import TYPE_CHECKING

from medviz.engine.errors import MalformedInput, UnknownReference

if TYPE_CHECKING:
    from medviz.engine.game import Ruleset

GROUP = "medviz.rulesets"

#: Rulesets registered in this process (``register_ruleset``), by id: an object or "module:attr".
_REGISTERED: dict[str, object] = {}
_LOADED: dict[str, Ruleset] = {}


def _installed() -> dict[str, str]:
    """Entry points of the group: ruleset id -> "module:attribute"."""
    return {ep.name: ep.value for ep in entry_points(group=GROUP)}


def ruleset_ids() -> list[str]:
    """Ids of every ruleset this medviz can find (installed entry points and registered ones)."""
    return sorted(set(_installed()) | set(_REGISTERED))


def register_ruleset(game: str, ruleset: Ruleset | str) -> None:
    """Make ``ruleset`` (an object, or "module:attribute") known under ``game`` in this process."""
    if not isinstance(game, str) or not game:
        raise MalformedInput(f"a ruleset id must be non-empty text, not {game!r}")
    _REGISTERED[game] = ruleset
    _LOADED.pop(game, None)


def unregister_ruleset(game: str) -> None:
    """Forget a ruleset added with ``register_ruleset`` (installed ones stay)."""
    _REGISTERED.pop(game, None)
    _LOADED.pop(game, None)


def loadable_rulesets() -> tuple[dict[str, Ruleset], dict[str, str]]:
    """Every ruleset that loads, by id, and why each of the others does not (one broken plug-in
    must not take the others down)."""
    ok: dict[str, Ruleset] = {}
    broken: dict[str, str] = {}
    for rid in ruleset_ids():
        try:
            ok[rid] = get_ruleset(rid)
        except (UnknownReference, MalformedInput) as exc:
            broken[rid] = str(exc)
    return ok, broken


def get_ruleset(game: str) -> Ruleset:
    """The ruleset with id ``game``; ``UnknownReference`` naming the known ids if there is none."""
    from medviz.engine.game import Ruleset

    found = _LOADED.get(game)
    if found is not None:
        return found
    target = _REGISTERED.get(game) or _installed().get(game)
    if target is None:
        known = ruleset_ids()
        close = difflib.get_close_matches(str(game), known, n=1)
        hint = f"; did you mean {close[0]!r}?" if close else ""
        raise UnknownReference(f"unknown game {game!r}{hint} (installed: {', '.join(known) or 'none'})")
    if isinstance(target, str):
        module, _, attr = target.partition(":")
        try:
            obj = getattr(import_module(module), attr)
        except (ImportError, AttributeError) as exc:  # a plug-in installed but broken or gone
            raise UnknownReference(f"ruleset {game!r} is installed ({target}) but cannot be loaded: "
                                   f"{type(exc).__name__}: {exc}") from None
    else:
        obj = target
    if not isinstance(obj, Ruleset):
        raise MalformedInput(f"ruleset {game!r} ({target!r}) is a {type(obj).__name__}, not a medviz Ruleset")
    _LOADED[game] = obj
    return obj


def resolve_target(target: str, command: str, *, table: bool = False) -> tuple[Ruleset, str]:
    """The ruleset and scenario a command's TARGET names: ``GAME/SCENARIO``, a scenario that one game has,
    or a game id (its first scenario); a wrong one is refused in one line naming ``command``.

    ``table``: a game id stands for its first scenario a table can play (``Ruleset.table_scenarios``),
    and those are the scenarios a refusal lists.
    """
    rulesets = loadable_rulesets()[0]
    ids = sorted(rulesets)
    game, sep, scenario = target.partition("/")
    if sep:
        if game not in rulesets:
            raise MalformedInput(f"{command}: no game {game[:60]!r} (installed: {', '.join(ids)})")
        rs = get_ruleset(game)
        if scenario not in rs.scenarios():
            raise MalformedInput(f"{command}: {game} has no scenario {scenario[:60]!r} "
                                 f"(it has {', '.join(rs.scenarios())})")
        return rs, scenario
    if target in rulesets:
        rs = get_ruleset(target)
        return rs, (rs.table_scenarios() if table else rs.scenarios())[0]
    found = [(rid, rs) for rid, rs in rulesets.items() if target in rs.scenarios()]
    if len(found) == 1:
        return found[0][1], target
    if found:
        raise MalformedInput(f"{command}: several games have a scenario {target!r}: write "
                             f"{' or '.join(f'{rid}/{target}' for rid, _ in found)}")
    known = sorted({s for rs in rulesets.values() for s in (rs.table_scenarios() if table else rs.scenarios())}
                   | set(ids))
    close = difflib.get_close_matches(target, known, n=1)
    hint = f"; did you mean {close[0]!r}?" if close else ""
    raise MalformedInput(f"{command}: no game or scenario {target[:60]!r}{hint} (known: {', '.join(known)})")
