"""N seeded games, or N continuations of a history with a what-if: one row per game and a summary
with Wilson 95% intervals, the same bytes whichever workers or scheduler play them."""

from __future__ import annotations

import io
import json
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from medviz.analysis.runner import Base, Batch, Workers, chunk_size, chunks
from medviz.analysis.stats import mean_interval, r4, wilson
from medviz.engine.errors import MalformedInput
from medviz.engine.files import check_output_path, write_atomic
from medviz.engine.dice import check_value
from medviz.engine.events import RollEvent, ShuffleEvent
from medviz.engine.game import Ruleset
from medviz.engine.history import History
from medviz.engine.policy import Policy

if TYPE_CHECKING:
    import pandas as pd


@dataclass
class Simulation:
    """The games played (``frame``: one row per game, ordered by seed) and their ``summary``."""

    frame: pd.DataFrame
    summary: dict[str, Any]

    @property
    def interrupted(self) -> bool:
        """True when Ctrl-C stopped the run: the rows are the games finished before it."""
        return bool(self.summary.get("interrupted"))

    def to_json(self) -> str:
        """The summary as canonical JSON text."""
        return json.dumps(self.summary, indent=2, ensure_ascii=False, sort_keys=False) + "\n"

    def lines(self) -> list[str]:
        """The summary in words."""
        return summary_lines(self.summary)

    def save(self, path: str | Path) -> None:
        """Write the rows as Parquet (``.parquet``) or CSV (``.csv``), atomically."""
        write_atomic(path, frame_bytes(self.frame, path))


def frame_bytes(frame: pd.DataFrame, path: str | Path) -> bytes:
    """The rows as the bytes of a Parquet or CSV file, by ``path``'s suffix."""
    suffix = Path(path).suffix.lower()
    if suffix == ".csv":
        return str(frame.to_csv(index=False, lineterminator="\n")).encode()
    if suffix == ".parquet":
        buf = io.BytesIO()
        frame.to_parquet(buf, index=False, engine="pyarrow")
        return bytes(buf.getvalue())
    raise MalformedInput(f"--out {str(path)[:80]!r}: expected a .parquet or .csv file")


def check_frame_path(path: str | Path) -> Path:
    """An output path the rows can be written to (suffix and directory checked before any game runs)."""
    if Path(path).suffix.lower() not in (".parquet", ".csv"):
        raise MalformedInput(f"--out {str(path)[:80]!r}: expected a .parquet or .csv file")
    return check_output_path(path, "--out")


def simulate(ruleset: Ruleset, scenario: str, options: Mapping[str, Any], players: Mapping[str, Policy | str],
             games: int, first_seed: int = 0, *, workers: int | None = None, scheduler: Any = None,
             progress: bool | None = None) -> Simulation:
    """``games`` seeded games of ``scenario`` (seeds ``first_seed`` on), one row each, and their summary."""
    _check_games(games, first_seed)
    specs = {a: p if isinstance(p, str) else p.spec for a, p in sorted(players.items())}
    base = Base(ruleset.game, scenario, dict(options), specs)
    batches = [Batch(s) for s in chunks(range(first_seed, first_seed + games), chunk_size(games, workers))]
    return _play(base, batches, games, first_seed, workers, scheduler, progress, {"from": None})


def continue_history(history: History, games: int, first_seed: int = 0, *, after: int | None = None,
                     at: Mapping[str, Any] | None = None, workers: int | None = None, scheduler: Any = None,
                     progress: bool | None = None) -> Simulation:
    """``games`` continuations of ``history`` after event ``after``, with the what-ifs ``at`` (roll id ->
    value) applied; ``after`` defaults to just before the earliest what-if roll (else the set-up).

    Every roll, draw and decision up to ``after`` stays as recorded; the rest is new, from each
    continuation's seed. A what-if roll must come after ``after``.
    """
    _check_games(games, first_seed)
    at = dict(at or {})
    seqs = {}
    for key, value in at.items():
        target = history.roll(key)  # unknown ids are refused with near misses
        seqs[key] = target.seq
        at[key] = _checked_value(target, key, value)
    if after is None:
        after = min(seqs.values(), default=0) - 1
    if not -1 <= after < len(history.events):
        raise MalformedInput(f"--after {after}: outside this history (events -1..{len(history.events) - 1})")
    for key, seq in seqs.items():
        if seq <= after:
            raise MalformedInput(f"--at {key}: that roll is event {seq}, at or before --after {after}; "
                                 f"a continuation keeps every roll up to --after as recorded")
    base = Base.of_history(history)
    batches = [Batch(s, after, tuple(sorted(at.items())))
               for s in chunks(range(first_seed, first_seed + games), chunk_size(games, workers))]
    origin = {"history_seed": history.seed, "after": after, "at": dict(sorted(at.items())),
              "recorded_winner": history.outcome.get("winner")}
    return _play(base, batches, games, first_seed, workers, scheduler, progress, {"from": origin})


def _checked_value(target: Any, key: str, value: Any) -> Any:
    """A what-if value the roll, draw or card place ``key`` can show; else ``MalformedInput``."""
    if isinstance(target, RollEvent):
        return check_value(target.dice, value, f"--at {key}: ")
    choices = target.cards if isinstance(target, ShuffleEvent) else target.pool
    if value not in choices:
        raise MalformedInput(f"--at {key}: {value!r} is not one of {', '.join(sorted(set(map(str, choices))))}")
    return value


def _check_games(games: int, first_seed: int) -> None:
    if isinstance(games, bool) or not isinstance(games, int) or games < 1:
        raise MalformedInput(f"--games {games!r}: expected a whole number >= 1")
    if isinstance(first_seed, bool) or not isinstance(first_seed, int) or first_seed < 0:
        raise MalformedInput(f"--first-seed {first_seed!r}: expected a whole number >= 0")


def _play(base: Base, batches: list[Batch], games: int, first_seed: int, workers: int | None, scheduler: Any,
          progress: bool | None, extra: dict[str, Any]) -> Simulation:
    import pandas as pd

    with Workers(base, workers, scheduler, progress) as pool:
        results = pool.run(batches, games)
    rows = sorted((r for rows in results if rows is not None for r in rows), key=lambda r: r["seed"])
    frame = pd.DataFrame(rows)
    head = {"game": base.game, "scenario": base.scenario, "players": dict(base.players),
            "requested": games, "first_seed": first_seed, "interrupted": pool.interrupted, **extra}
    return Simulation(frame, {**head, **summarise(frame)})


def summarise(frame: pd.DataFrame) -> dict[str, Any]:
    """Shares with Wilson 95% intervals (winner, holder of each key area); means of points and turns."""
    n = len(frame)
    out: dict[str, Any] = {"games": n}
    if not n:
        return out

    def shares(column: str) -> dict[str, Any]:
        counts = frame[column].value_counts()
        got = {}
        for value in sorted(counts.index, key=str):
            k = int(counts[value])
            lo, hi = wilson(k, n)
            got[str(value)] = {"games": k, "share": r4(k / n), "low": r4(lo), "high": r4(hi)}
        return got

    out["winner"] = shares("winner")
    means = {}
    for column in [c for c in frame.columns if c not in ("seed", "events", "turns", "what_if_applied")
                   and frame[c].dtype.kind in "iu"] + ["turns", "events"]:
        m, half, _sd = mean_interval([float(v) for v in frame[column]])
        means[column] = {"mean": r4(m), "plus_minus": r4(half) if half != float("inf") else None}
    out["means"] = means
    holds = [c for c in frame.columns if c.startswith("holds_")]
    if holds:
        out["holds"] = {c[len("holds_"):]: shares(c) for c in holds}
    if "what_if_applied" in frame.columns:
        out["what_if_applied"] = int(frame["what_if_applied"].sum())
    return out


def summary_lines(summary: Mapping[str, Any]) -> list[str]:
    """A summary in words: each winner's share with its interval, key areas, mean points."""
    n = summary.get("games", 0)
    head = f"{summary['scenario']}: {n} game{'s' if n != 1 else ''}"
    origin = summary.get("from")
    if origin:
        at = ", ".join(f"{k} = {v}" for k, v in origin["at"].items())
        head += f", continued after event {origin['after']} of the history (seed {origin['history_seed']})"
        head += f" with {at}" if at else ""
    else:
        head += f" from seed {summary['first_seed']}"
    lines = [head + f"; players {', '.join(f'{a} {p}' for a, p in summary['players'].items())}"]
    if summary.get("interrupted"):
        lines.append(f"Interrupted: {n} of {summary['requested']} games finished; these are their results.")
    for who, s in summary.get("winner", {}).items():
        lines.append(f"  {who or 'nobody'} wins {s['share']:6.1%}  (95% {s['low']:.1%}-{s['high']:.1%}, {s['games']} games)")
    for area, held in summary.get("holds", {}).items():
        lines.append(f"  {area}: " + ", ".join(f"{who} {s['share']:.0%}" for who, s in held.items()))
    for column, m in summary.get("means", {}).items():
        pm = f" ± {m['plus_minus']:.2f}" if m["plus_minus"] is not None else ""
        lines.append(f"  mean {column}: {m['mean']:.2f}{pm}")
    if "what_if_applied" in summary:
        lines.append(f"  the what-if roll happened in {summary['what_if_applied']} of {n} continuations")
    return lines


__all__ = ["Simulation", "check_frame_path", "continue_history", "frame_bytes", "simulate", "summarise",
           "summary_lines"]
