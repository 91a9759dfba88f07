"""Passage (9.5) by land and by sea (10.1): which provinces a Power can reach to attack, and how.

A route is found with a cheapest-first search over (province, naval transport used): passing a
province its player controls, an uncontrolled one, a married Power's (6.4) or the Papal States
with a Pope card (6.5) is free; a province another player controls needs his Permission; one use
of Naval Transport (10.1) may cross connected Naval Areas on map cards in play. Free land is
preferred to the sea, the sea to asking permission.
"""

from __future__ import annotations

import heapq
from collections import OrderedDict
from collections.abc import Set as AbstractSet
from dataclasses import dataclass
from typing import Any

from medviz.rules.medieval_xiii.state import MedievalState

#: Search costs: asking a player for Permission is a last resort; the sea risks interception.
PERMISSION_COST = 10
SEA_COST = 1


@dataclass(frozen=True)
class Route:
    """How an attack reaches its target: the players whose Permission it needs, the seas it crosses."""

    cost: int
    permission: tuple[str, ...] = ()
    seas: tuple[str, ...] = ()

    @property
    def kind(self) -> str:
        """``land``, ``sea`` or ``permission`` (the words the options show)."""
        if self.permission:
            return "permission"
        return "sea" if self.seas else "land"


def _married(s: MedievalState, a: str, b: str) -> bool:
    return sorted((a, b)) in s.marriages


def through(s: MedievalState, seat: str, power: str, province: str) -> tuple[bool, str | None]:
    """Whether ``power`` may pass through ``province`` (9.5), and whose Permission that needs."""
    data = s.data
    info = data.provinces[province]
    if not s.in_play(province):
        return False, None
    if info.uncontrollable:  # the Papal States (6.5)
        ok = bool(s.turn.get("pope_passage")) and data.powers[power].religion == "catholic"
        return ok, None
    home = s.home.get(province, "")
    if power in s.excommunicated and (province in s.koc or (home and home != power
                                                             and data.powers[home].religion == "catholic")):
        return False, None  # 6.3: never through another Catholic Power's province (7.2: Knights' too)
    owner = s.control.get(province)
    if owner is None or owner == seat:
        return True, None
    if home and _married(s, power, home):
        return True, None
    return True, owner


#: Recent answers of ``targets`` by everything they depend on (``_inputs``): a player's options, the
#: heuristic's look and the attack itself ask the same question of the same table several times.
_TARGETS: OrderedDict[tuple[Any, ...], tuple[Any, dict[str, Route]]] = OrderedDict()
_TARGETS_KEPT = 256


def _inputs(s: MedievalState, seat: str, power: str) -> tuple[Any, ...]:
    """Everything ``targets`` reads: the map cards in play, control, homes, Knights, Excommunications,
    Marriages and the Pope's passage this turn (the game's data by identity, see ``targets``)."""
    return (id(s.data), seat, power, tuple(s.map_in_play), tuple(s.control.items()), tuple(s.home.items()),
            tuple(s.koc), tuple(s.excommunicated), tuple(tuple(m) for m in s.marriages),
            bool(s.turn.get("pope_passage")))


def targets(s: MedievalState, seat: str, power: str) -> dict[str, Route]:
    """Every province ``power`` (held by ``seat``) can reach to attack, with its cheapest route.

    Answers are kept for the same inputs (the data object itself is kept with them, so its id
    cannot be reused while they are).
    """
    key = _inputs(s, seat, power)
    kept = _TARGETS.get(key)
    if kept is not None and kept[0] is s.data:
        _TARGETS.move_to_end(key)
        return dict(kept[1])
    found = _search(s, seat, power)
    _TARGETS[key] = (s.data, found)
    if len(_TARGETS) > _TARGETS_KEPT:
        _TARGETS.popitem(last=False)
    return dict(found)


def _search(s: MedievalState, seat: str, power: str) -> dict[str, Route]:
    """The cheapest-first search of ``targets``.

    ``through``, the target test and ``_sea_reach`` depend only on the province within one search,
    so each is worked out once per province (the search asks them hundreds of times each).
    """
    data = s.data
    navy = data.powers[power].navy is not None
    starts = [p for p in s.home_provinces(power) if s.control.get(p) == seat]
    heap: list[tuple[int, str, bool, tuple[str, ...], tuple[str, ...]]] = []
    for p in starts:
        heapq.heappush(heap, (0, p, False, (), ()))
    found: dict[str, Route] = {}
    cards = set(s.map_in_play)
    provinces = data.provinces
    control = s.control
    seas_from: dict[str, dict[str, tuple[str, ...]]] = {}
    #: Province -> (a target, may be passed, whose Permission that needs): ``through`` and the target
    #: test, worked out once per province and read with one look-up per step.
    steps: dict[str, tuple[bool, bool, str | None]] = {}

    def look(q: str) -> tuple[bool, bool, str | None]:
        info = provinces[q]
        ok, asks = through(s, seat, power, q)
        got = steps[q] = (not (info.uncontrollable or info.card not in cards or control.get(q) == seat), ok, asks)
        return got

    borders = data.borders
    push, pop = heapq.heappush, heapq.heappop
    land_best: dict[str, int] = {}  # cheapest cost popped so far, before and after the one sea voyage
    sea_best: dict[str, int] = {}
    far = 1 << 30
    while heap:
        cost, p, used, perm, seas = pop(heap)
        best = sea_best if used else land_best
        if best.get(p, far) <= cost or (used and land_best.get(p, far) <= cost):
            continue
        best[p] = cost
        # A step to a place already reached as cheaply is left out of the heap: it would be popped and
        # skipped, so leaving it out changes nothing but the work. ``offer`` is inlined in both loops.
        # After the voyage, a place reached as cheaply by land before any voyage is such a place too:
        # every step costs the same either way (``through`` does not ask how one came), and that land
        # state comes off the heap first (cost, place, then False before True), so whatever the later
        # one would find at a cost is found at that cost or less, earlier.
        for q in borders[p]:
            a, ok, asks = steps.get(q) or look(q)
            if a:
                old = found.get(q)
                if old is None or cost < old.cost:
                    found[q] = Route(cost, perm, seas)
            if ok:
                nxt = cost + PERMISSION_COST if asks else cost
                if best.get(q, far) > nxt and (not used or land_best.get(q, far) > nxt):
                    push(heap, (nxt, q, used, perm + ((asks,) if asks and asks not in perm else ()), seas))
        if navy and not used:
            reach = seas_from.get(p)
            if reach is None:
                reach = seas_from[p] = _sea_reach(s, p)
            landed = cost + SEA_COST
            for landing, path in reach.items():
                a, ok, asks = steps.get(landing) or look(landing)
                if a:
                    old = found.get(landing)
                    if old is None or landed < old.cost:
                        found[landing] = Route(landed, perm, path)
                if ok:
                    nxt = landed + PERMISSION_COST if asks else landed
                    if sea_best.get(landing, far) > nxt and land_best.get(landing, far) > nxt:
                        push(heap, (nxt, landing, True, perm + ((asks,) if asks and asks not in perm else ()), path))
    return found


#: ``_sea_reach`` answers by (data id, cards in play, province), each with its data object (kept, so
#: its id cannot be reused while the answer is).
_SEA: dict[tuple[int, tuple[str, ...], str], tuple[Any, dict[str, tuple[str, ...]]]] = {}


def _sea_reach(s: MedievalState, province: str) -> dict[str, tuple[str, ...]]:
    """Coastal provinces reachable by one use of Naval Transport from ``province``, with the seas crossed."""
    key = (id(s.data), tuple(s.map_in_play), province)
    kept = _SEA.get(key)
    if kept is not None and kept[0] is s.data:
        return kept[1]
    if len(_SEA) > 4096:
        _SEA.clear()
    out = _sea_search(s, province)
    _SEA[key] = (s.data, out)
    return out


def _sea_search(s: MedievalState, province: str) -> dict[str, tuple[str, ...]]:
    """The breadth-first search of ``_sea_reach``."""
    data = s.data
    frontier = [(sea, (sea.id,)) for sea in data.seas.values() if province in sea.coasts and sea.card in s.map_in_play]
    seen: dict[str, tuple[str, ...]] = {}
    queue: list[tuple[str, tuple[str, ...]]] = [(sea.id, path) for sea, path in frontier]
    while queue:
        sid, path = queue.pop(0)
        if sid in seen:
            continue
        seen[sid] = path
        for nxt in sorted(data.sea_links[sid]):
            if nxt not in seen and data.seas[nxt].card in s.map_in_play:
                queue.append((nxt, path + (nxt,)))
    out: dict[str, tuple[str, ...]] = {}
    for sid, path in seen.items():
        for coast in data.seas[sid].coasts:
            if coast != province and s.in_play(coast) and (coast not in out or len(path) < len(out[coast])):
                out[coast] = path
    return out


def land_linked(s: MedievalState, a: str, b: str, cards: AbstractSet[str]) -> bool:
    """A land path of borders joins provinces ``a`` and ``b`` using only provinces on ``cards`` (11.0)."""
    seen = {a}
    stack = [a]
    while stack:
        p = stack.pop()
        if p == b:
            return True
        for q in s.data.borders[p]:
            if q not in seen and s.data.provinces[q].card in cards and s.in_play(q):
                seen.add(q)
                stack.append(q)
    return False
