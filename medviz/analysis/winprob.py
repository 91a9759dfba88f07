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
from medviz.engine.events import DrawEvent, RollEvent
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


def load_win_probability(path: str | Path, history: History) -> WinProbability:
    """Read a win-probability file (``win_probability(cache=…)`` wrote it) made of ``history``.

    A file that is not JSON, not a medviz win-probability analysis, or of another history is
    ``MalformedInput`` naming the file.
    """
    text = read_text(path, "win-probability file")
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise MalformedInput(f"{path}: win-probability file is not JSON (line {exc.lineno}: {exc.msg})") from None
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise MalformedInput(f"{path}: not a medviz win-probability analysis (expected format {FORMAT!r})")
    if data.get("version") != VERSION:
        raise MalformedInput(f"{path}: win-probability version {data.get('version')!r}, expected {VERSION}")
    if data.get("history") != history_hash(history):
        raise MalformedInput(f"{path}: this analysis is of another history (its hash {str(data.get('history'))[:16]}, "
                             f"this history's {history_hash(history)[:16]}); make one with medviz.analysis.winprob.win_probability")
    points = data.get("points")
    if not isinstance(points, list) or not isinstance(data.get("sides"), list) or not all(
            isinstance(p, dict) and isinstance(p.get("after"), int) and isinstance(p.get("odds"), dict)
            for p in points):
        raise MalformedInput(f"{path}: win-probability file has no valid 'points' and 'sides'")
    return WinProbability(data)


def cached_beside(history: History, directory: str | Path, kind: str = "winprob") -> list[Path]:
    """Analyses of ``history`` cached in ``directory`` or its ``analysis/`` folder (``kind``: "winprob"
    or "pivotal"), the file with the most games first."""
    key = history_hash(history)[:16]
    found = [p for d in (Path(directory), Path(directory) / "analysis") if d.is_dir()
             for p in d.glob(f"{kind}-{key}-*.json") if p.is_file()]

    def games(p: Path) -> int:
        part = p.stem.split("-")[2] if p.stem.count("-") >= 2 else ""
        return int(part[:-1]) if part.endswith("g") and part[:-1].isdigit() else 0

    return sorted(found, key=lambda p: (-games(p), str(p)))


def pivotal_flags(path: str | Path, history: History, top: int = 5) -> list[tuple[int, str, str]]:
    """The ``top`` rolls of a pivotal-roll file of ``history`` by swing: (event, roll id, words)."""
    text = read_text(path, "pivotal-roll file")
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise MalformedInput(f"{path}: pivotal-roll file is not JSON (line {exc.lineno}: {exc.msg})") from None
    if not isinstance(data, dict) or data.get("format") != "medviz-pivotal" or not isinstance(data.get("rolls"), list):
        raise MalformedInput(f"{path}: not a medviz pivotal-roll analysis")
    if (data.get("game"), data.get("scenario"), data.get("history_seed")) != (history.game, history.scenario, history.seed):
        raise MalformedInput(f"{path}: this pivotal-roll analysis is of another history")
    out = []
    for r in data["rolls"]:
        if not (isinstance(r, dict) and isinstance(r.get("seq"), int) and 0 <= r["seq"] < len(history.events)
                and isinstance(history.events[r["seq"]], (RollEvent, DrawEvent))):
            raise MalformedInput(f"{path}: roll {str(r)[:60]} is not a roll of this history")
        out.append((abs(float(r.get("swing") or 0.0)), r["seq"], str(r.get("roll", "")), str(r.get("words", ""))))
    out.sort(key=lambda t: (-t[0], t[1]))
    return [(seq, key, words) for _s, seq, key, words in out[:top]]
