"""Checks behind the trust property tests: a die re-set to its own value changes nothing, and
every snapshot is the state its events fold to (issue 17). Ruleset-agnostic: they use only the
engine's interface (``setup``, ``apply``, ``copy_state``), so every game's tests can call them.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from typing import Any

from medviz.engine import ChangeEvent, DrawEvent, History, RollEvent
from medviz.engine.copying import shared_mutables


def chance_events(h: History) -> list[RollEvent | DrawEvent]:
    """Every roll and draw of ``h``."""
    return h.rolls()


def sample(items: Sequence[Any], n: int | None) -> list[Any]:
    """``n`` items spread evenly over ``items`` (all of them when ``n`` is None or large enough)."""
    if n is None or n >= len(items):
        return list(items)
    if n <= 0:
        return []
    step = len(items) / n
    return [items[int(i * step)] for i in range(n)]


def _same(a: History, b: History) -> bool:
    """Same events and outcome. Events are frozen dataclasses whose JSON is a pure function of their
    fields, so field equality is byte equality; the branch shares its parent's prefix objects, so
    the comparison costs only the re-run part. The outcome is compared as canonical JSON."""
    return a.events == b.events and json.dumps(a.outcome, sort_keys=True) == json.dumps(b.outcome, sort_keys=True)


def own_value_mismatches(h: History, rolls: Iterable[RollEvent | DrawEvent]) -> list[str]:
    """Roll and draw ids whose branch to their own value does not give the same events and outcome."""
    bad = []
    for e in rolls:
        rid = e.roll if isinstance(e, RollEvent) else e.draw
        child = h.branch(rid, e.value)
        if not _same(child, h):
            bad.append(rid)
        h.children.remove(child)  # keep memory flat over whole games
    return bad


def snapshot_mismatches(h: History) -> list[str]:
    """Problems with ``h``'s snapshots: a stored state unlike the fold of the events before it, or
    a stored state that shares a mutable object with the final state or another snapshot."""
    rs = h.ruleset
    state, _ = rs.setup(h.scenario, h.spec.options)
    problems: list[str] = []
    snaps = sorted(h.snapshots, key=lambda s: s.seq)
    at = 0
    for snap in snaps:
        for e in h.events[at: snap.seq]:
            if isinstance(e, ChangeEvent):
                rs.apply(state, e)
        at = snap.seq
        if snap.state != state:
            problems.append(f"snapshot before event {snap.seq} differs from the fold of events 0..{snap.seq - 1}")
        shared = shared_mutables(snap.state, h.final_state)
        if shared:
            problems.append(f"snapshot before event {snap.seq} shares {shared[:3]} with the final state")
    for a, b in zip(snaps, snaps[1:]):
        shared = shared_mutables(a.state, b.state)
        if shared:
            problems.append(f"snapshots before events {a.seq} and {b.seq} share {shared[:3]}")
    return problems
