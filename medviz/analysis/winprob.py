"""Win probability through a replay: P(each side wins) after every phase, from continuations, with
Wilson 95% bands; cached in a JSON file named by the history's content hash, so a notebook and an
export that ask again read it instead of playing the games twice."""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from medviz.analysis.runner import Base, Batch, Workers, chunk_size, chunks
from medviz.analysis.stats import r4, wilson
from medviz.engine.errors import MalformedInput
from medviz.engine.files import read_text, write_atomic
from medviz.engine.history import History

FORMAT = "medviz-winprob"
VERSION = 1


def history_hash(history: History) -> str:
    """The content hash of a history (its canonical JSON): the key of every analysis cached for it."""
    return hashlib.sha256(history.to_json().encode()).hexdigest()


@dataclass
class WinProbability:
    """P(each side wins) after each point of a replay (``points``: JSON-ready rows, in order)."""

    data: dict[str, Any]

    @property
    def points(self) -> list[dict[str, Any]]:
        """One row per point: ``after`` (event), ``turn``, ``phase``, ``label``, ``games``, ``odds`` by side."""
        return list(self.data["points"])

    @property
    def sides(self) -> list[str]:
        """The outcomes charted (the seats, then any other result such as a draw)."""
        return list(self.data["sides"])

    @property
    def interrupted(self) -> bool:
        """True when Ctrl-C stopped the analysis (such a result is never cached)."""
        return bool(self.data.get("interrupted"))

    def to_json(self) -> str:
        """Canonical JSON text."""
        return json.dumps(self.data, indent=1, ensure_ascii=False) + "\n"


def cache_path(history: History, directory: str | Path, games: int, first_seed: int) -> Path:
    """Where the analysis of ``history`` with these settings is cached in ``directory``."""
    return Path(directory) / f"winprob-{history_hash(history)[:16]}-{games}g-s{first_seed}.json"


def win_probability(history: History, games: int = 100, first_seed: int = 0, *, workers: int | None = None,
                    scheduler: Any = None, progress: bool | None = None,
                    cache: str | Path | None = None) -> WinProbability:
    """P(each side wins) at the set-up and after every phase of ``history``, ``games`` continuations each.

    With ``cache`` (a directory), a finished analysis is written there and read back next time.
    """
    if isinstance(games, bool) or not isinstance(games, int) or games < 1:
        raise MalformedInput(f"games {games!r}: expected a whole number >= 1")
    key = history_hash(history)
    path = cache_path(history, cache, games, first_seed) if cache is not None else None
    if path is not None and path.exists():
        data = json.loads(read_text(path, "win-probability cache"))
        if data.get("format") == FORMAT and data.get("version") == VERSION and data.get("history") == key:
            return WinProbability(data)
    rs = history.ruleset
    sides = [s.id for s in rs.seats(history.scenario)]
    marks = [(-1, 0, "set-up", "before the game")] + [
        (p.end - 1, p.turn, p.phase, f"{rs.turn_label(history.scenario, p.turn) if p.turn is not None else ''}, "
                                      f"{rs.phase_names().get(p.phase, p.phase)}")
        for p in history.phases()]
    size = chunk_size(games, workers)
    batches = [Batch(seeds, after, tag=i) for i, (after, *_rest) in enumerate(marks)
               for seeds in chunks(range(first_seed, first_seed + games), size)]
    with Workers(Base.of_history(history), workers, scheduler, progress, desc="continuations") as pool:
        results = pool.run(batches)
    winners: dict[int, list[str]] = {}
    complete: dict[int, bool] = {}
    for b, rows in zip(batches, results):
        complete[b.tag] = complete.get(b.tag, True) and rows is not None
        winners.setdefault(b.tag, []).extend(r["winner"] for r in rows or [])
    seen = sorted({w for ws in winners.values() for w in ws} - set(sides))
    points = []
    for i, (after, turn, phase, label) in enumerate(marks):
        if not complete.get(i):
            continue
        got = winners[i]
        odds = {}
        for side in sides + seen:
            k = sum(1 for w in got if w == side)
            lo, hi = wilson(k, len(got))
            odds[side] = {"share": r4(k / len(got)), "low": r4(lo), "high": r4(hi)}
        points.append({"after": after, "turn": turn, "phase": phase, "label": label.strip(", "),
                       "games": len(got), "odds": odds})
    data = {"format": FORMAT, "version": VERSION, "history": key, "game": history.game,
            "scenario": history.scenario, "history_seed": history.seed, "games": games,
            "first_seed": first_seed, "winner": history.outcome.get("winner"), "sides": sides + seen,
            "interrupted": pool.interrupted, "points": points}
    result = WinProbability(data)
    if path is not None and not pool.interrupted:
        write_atomic(path, result.to_json())
    return result
