"""Passage (9.5) by land and by sea (10.1): which provinces a Power can reach to attack, and how.

A route is found with a cheapest-first search over (province, naval transport used): passing a
province its player controls, an uncontrolled one, a married Power's (6.4) or the Papal States
with a Pope card (6.5) is free; a province another player controls needs his Permission; one use
of Naval Transport (10.1) may cross connected Naval Areas on map cards in play. Free land is
preferred to the sea, the sea to asking permission.
"""

from __future__ import annotations

import heapq
from dataclasses import dataclass

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


def targets(s: MedievalState, seat: str, power: str) -> dict[str, Route]:
    """Every province ``power`` (held by ``seat``) can reach to attack, with its cheapest route."""
    data = s.data
    navy = data.powers[power].navy is not None
    starts = [p for p in s.home_provinces(power) if s.control.get(p) == seat]
    best: dict[tuple[str, bool], int] = {}
    heap: list[tuple[int, str, bool, tuple[str, ...], tuple[str, ...]]] = []
    for p in starts:
        heapq.heappush(heap, (0, p, False, (), ()))
    found: dict[str, Route] = {}

    def offer(target: str, cost: int, perm: tuple[str, ...], seas: tuple[str, ...]) -> None:
        info = data.provinces[target]
        if info.uncontrollable or not s.in_play(target) or s.control.get(target) == seat:
            return
        old = found.get(target)
        if old is None or cost < old.cost:
            found[target] = Route(cost, perm, seas)

    while heap:
        cost, p, used, perm, seas = heapq.heappop(heap)
        if best.get((p, used), 1 << 30) <= cost:
            continue
        best[(p, used)] = cost
        for q in data.borders[p]:
            offer(q, cost, perm, seas)
            ok, asks = through(s, seat, power, q)
            if ok:
                step = PERMISSION_COST if asks else 0
                heapq.heappush(heap, (cost + step, q, used, perm + ((asks,) if asks and asks not in perm else ()),
                                      seas))
        if navy and not used:
            for landing, path in _sea_reach(s, p).items():
                offer(landing, cost + SEA_COST, perm, path)
                ok, asks = through(s, seat, power, landing)
                if ok:
                    step = SEA_COST + (PERMISSION_COST if asks else 0)
                    heapq.heappush(heap, (cost + step, landing, True,
                                          perm + ((asks,) if asks and asks not in perm else ()), path))
    return found


def _sea_reach(s: MedievalState, province: str) -> dict[str, tuple[str, ...]]:
    """Coastal provinces reachable by one use of Naval Transport from ``province``, with the seas crossed."""
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


def land_linked(s: MedievalState, a: str, b: str, cards: set[str]) -> bool:
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
