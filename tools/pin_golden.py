"""Write the golden whole-game histories in tests/golden/ (tests/test_golden_games.py checks them).

Each file is the gzip of ``History.to_json()`` for one whole game between two heuristic players,
shipped data, no options: ``<scenario>-seed-<n>.json.gz``. A rule, data or player change that
alters a real game makes the test fail and name the first differing event.

Regenerating is a deliberate act, never a way to make a red test green:

    .venv/bin/python tools/pin_golden.py            # rewrite every file in tests/golden/
    .venv/bin/python tools/pin_golden.py standard 4 # add or rewrite one game

then commit the files with the reason for the change in the commit message (which rule, which
fix, why the games now differ). The script prints, for each file it rewrites, the first event at
which the old and new games part.
"""

from __future__ import annotations

import gzip
import json
import re
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
GOLDEN = ROOT / "tests" / "golden"
NAME = re.compile(r"^(?P<scenario>[a-z0-9-]+)-seed-(?P<seed>[0-9]+)\.json\.gz$")
#: The games pinned when the folder is empty: one whole game per whole-game scenario.
DEFAULT = (("vespers-1282", 1), ("standard", 1))


def path_for(scenario: str, seed: int) -> Path:
    """The golden file of one game."""
    return GOLDEN / f"{scenario}-seed-{seed}.json.gz"


def pinned_games() -> list[tuple[str, int, Path]]:
    """(scenario, seed, path) of every golden file, sorted by name."""
    out = []
    for p in sorted(GOLDEN.glob("*.json.gz")):
        m = NAME.match(p.name)
        if m is None:
            raise SystemExit(f"{p}: not a golden file name (<scenario>-seed-<n>.json.gz)")
        out.append((m["scenario"], int(m["seed"]), p))
    return out


def fresh_game(scenario: str, seed: int) -> Any:
    """The game as the current code plays it: two heuristic players, shipped data, no options."""
    from medviz.engine import play
    from medviz.rules.medempires.game.players import Heuristic
    from medviz.rules.medempires.ruleset import RULESET

    return play(RULESET, scenario, {}, seed=seed, players={"A": Heuristic(), "B": Heuristic()})


def compress(text: str) -> bytes:
    """Deterministic gzip (no timestamp, no file name): the same game gives the same bytes."""
    return gzip.compress(text.encode("utf-8"), compresslevel=9, mtime=0)


def read_pinned(path: Path) -> str:
    """The pinned JSON text of a golden file."""
    return gzip.decompress(path.read_bytes()).decode("utf-8")


def first_difference(old: str, new: str) -> str:
    """Where two saved games part, in a line (the event index, or the outcome)."""
    a, b = json.loads(old), json.loads(new)
    for i, (x, y) in enumerate(zip(a["events"], b["events"])):
        if x != y:
            return f"event {i}: {x} -> {y}"
    if len(a["events"]) != len(b["events"]):
        return f"lengths {len(a['events'])} -> {len(b['events'])} events"
    return "same events; other fields differ" if a != b else "identical"


def pin(scenario: str, seed: int) -> None:
    """Play one game and write its golden file, saying what changed."""
    path = path_for(scenario, seed)
    text = fresh_game(scenario, seed).to_json()
    if path.exists():
        old = read_pinned(path)
        print(f"{path.relative_to(ROOT)}: {first_difference(old, text)}")
    else:
        print(f"{path.relative_to(ROOT)}: new")
    GOLDEN.mkdir(parents=True, exist_ok=True)
    path.write_bytes(compress(text))
    print(f"  {len(text):,} bytes of JSON, {path.stat().st_size:,} gzipped")


def main(argv: list[str]) -> int:
    if len(argv) == 2:
        pin(argv[0], int(argv[1]))
    elif not argv:
        games = [(s, n) for s, n, _ in pinned_games()] or list(DEFAULT)
        for scenario, seed in games:
            pin(scenario, seed)
    else:
        print(__doc__)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
