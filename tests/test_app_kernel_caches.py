"""What the apps keep between clicks (issue 15, the kernel's share of a click) shows exactly what a fresh start shows."""

from __future__ import annotations

import gzip
from pathlib import Path

import pytest

import medviz.rules.medempires.game  # noqa: F401  (registers the whole-game scenarios)
from medviz.engine.events import ChangeEvent
from medviz.engine.history import History
from medviz.rules.medempires import words

GOLDEN = Path(__file__).parent / "golden" / "vespers-1282-seed-1.json.gz"


@pytest.fixture(scope="module")
def vespers() -> History:
    return History.from_json(gzip.decompress(GOLDEN.read_bytes()).decode("utf-8"), GOLDEN.name)


def _battle_by_scan(history: History, roll_id: str) -> ChangeEvent | None:
    """The latest battle-opened event whose prefix the roll id starts with, by a pass over every event."""
    found = None
    for e in history.events:
        if isinstance(e, ChangeEvent) and e.change == "battle-opened" and roll_id.startswith(str(e.data["prefix"]) + "/"):
            found = e
    return found


def test_a_rolls_battle_found_by_the_index_is_the_one_a_scan_finds(vespers: History) -> None:
    branch = vespers.branch(vespers.rolls()[len(vespers.rolls()) // 2].roll, 1)
    for h in (vespers, branch):
        rolls = [str(getattr(r, "roll", None) or getattr(r, "draw", "")) for r in h.rolls()]
        found = [words._battle_of(h, rid) for rid in rolls]
        assert found == [_battle_by_scan(h, rid) for rid in rolls]
        assert sum(f is not None for f in found) > 20  # the war's battles name most of its rolls
    # ids that start like a battle's prefix without its "/" are no roll of it
    prefix = str(next(e for e in vespers.events if isinstance(e, ChangeEvent) and e.change == "battle-opened").data["prefix"])
    assert words._battle_of(vespers, prefix + "x/round-1/attacker") is None
    assert words._battle_of(vespers, prefix + "/round-1/attacker") is _battle_by_scan(vespers, prefix + "/round-1/attacker")
