"""Many games on one engine: seeded games or continuations of a history, in batches, on local
processes or a Dask cluster.

A batch names its starting point (``after``: the last event of the history kept as it was; -1 for a
game from its set-up), its what-if overrides and its seeds. A game is a pure function of those and
of the ``Base`` (game, scenario, options, players, history), so rows are the same bytes whichever
worker plays them; callers order them by seed.

A continuation from event ``after`` re-runs from the latest snapshot at or before it, with every
roll, draw and decision between that snapshot and ``after`` held to its recorded value; everything
after ``after`` is new: natural dice of the continuation's own seed, decisions by the players.
"""

from __future__ import annotations

import bisect
import hashlib
import os
import signal
import sys
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from medviz.engine.errors import MalformedInput, MedvizError
from medviz.engine.events import DecisionEvent, Event
from medviz.engine.game import GameSpec, Ruleset, chance_event, chance_keys, chance_value, run
from medviz.engine.history import History, parse_player
from medviz.engine.registry import get_ruleset


@dataclass(frozen=True)
class Base:
    """What every game of one analysis shares; ``history``: the JSON text of the history continued."""

    game: str
    scenario: str
    options: Mapping[str, Any]
    players: Mapping[str, str]
    history: str | None = None

    @property
    def key(self) -> str:
        """A content hash: equal bases give equal games."""
        h = hashlib.sha256()
        h.update(repr((self.game, self.scenario, sorted(self.players.items()))).encode())
        h.update(repr(sorted((k, repr(v)) for k, v in self.options.items())).encode())
        h.update((self.history or "").encode())
        return h.hexdigest()[:20]

    @staticmethod
    def of_history(history: History) -> Base:
        """The base of continuations of ``history`` (its game, options, players and events)."""
        return Base(history.game, history.scenario, dict(history.spec.options),
                    {a: p.spec for a, p in sorted(history.spec.players.items())}, history.to_json())


@dataclass(frozen=True)
class Batch:
    """Games to play: from after event ``after`` (-1: from the set-up), with ``overrides``, one per seed."""

    seeds: tuple[int, ...]
    after: int = -1
    overrides: tuple[tuple[str, Any], ...] = ()
    tag: Any = None


@dataclass
class Loaded:
    """A base made ready in one process: the ruleset, players and history (replayed once)."""

    ruleset: Ruleset
    players: dict[str, Any]
    history: History | None
    key_areas: tuple[str, ...] = ()
    points: dict[int, tuple[Any, dict[str, Any], dict[str, tuple[str, Any]]]] = field(default_factory=dict)


_LOADED: dict[str, Loaded] = {}


def load(base: Base) -> Loaded:
    """The base ready to play, cached per process by its content hash."""
    key = base.key
    got = _LOADED.get(key)
    if got is None:
        rs = get_ruleset(base.game)
        history = History.from_json(base.history, "history") if base.history is not None else None
        players = {a: parse_player(spec, rs) for a, spec in base.players.items()}
        got = Loaded(rs, players, history, tuple(rs.key_areas(base.scenario)))
        _LOADED.clear()  # one base at a time per process: histories are large
        _LOADED[key] = got
    return got


def _point(loaded: Loaded, after: int) -> tuple[Any, dict[str, Any], dict[str, tuple[str, Any]]]:
    """The snapshot to re-run from and what to hold between it and event ``after``."""
    got = loaded.points.get(after)
    if got is not None:
        return got
    h = loaded.history
    assert h is not None
    keys = [s.seq for s in h.snapshots]
    snap = h.snapshots[max(bisect.bisect_right(keys, after + 1) - 1, 0)]
    kept = h.events[snap.seq: after + 1]
    fixed = {k: chance_value(e, k) for k in chance_keys(kept) if (e := chance_event(kept, k)) is not None}
    recorded = {e.decision: (e.actor or "", e.choice) for e in kept
                if isinstance(e, DecisionEvent) and e.source != "forced"}
    loaded.points[after] = (snap, fixed, recorded)
    return snap, fixed, recorded


def play_one(base: Base, loaded: Loaded, seed: int, after: int, overrides: Mapping[str, Any]) -> dict[str, Any]:
    """One game (or continuation) and its row."""
    rs = loaded.ruleset
    if loaded.history is None:
        spec = GameSpec(rs, base.scenario, base.options, seed, loaded.players, dict(overrides))
        result = run(spec, keep_snapshots=False)
    else:
        snap, fixed, recorded = _point(loaded, after)
        spec = GameSpec(rs, base.scenario, loaded.history.spec.options, seed, loaded.players,
                        {**fixed, **overrides}, recorded)
        result = run(spec, snap, loaded.history.events[: snap.seq], keep_snapshots=False)
    if result.pending is not None:
        raise MedvizError(f"game of seed {seed} stopped at decision {result.pending.decision}: player "
                          f"{result.pending.actor} has no computer stand-in")
    return game_row(rs, loaded.key_areas, seed, rs.outcome(result.state), result.events, overrides)


def game_row(rs: Ruleset, key_areas: Sequence[str], seed: int, outcome: Mapping[str, Any],
             events: Sequence[Event], overrides: Mapping[str, Any]) -> dict[str, Any]:
    """One game as a flat row: seed, winner, points by seat, who holds each key area, turns, events."""
    row: dict[str, Any] = {"seed": seed, "winner": str(outcome.get("winner", ""))}
    for name, value in outcome.items():
        if isinstance(value, Mapping) and value and all(isinstance(v, int) and not isinstance(v, bool)
                                                        for v in value.values()):
            for seat, points in sorted(value.items()):
                row[f"{name}_{seat}"] = points
    control = outcome.get("control")
    for area in key_areas:
        row[f"holds_{area}"] = str(control.get(area, "")) if isinstance(control, Mapping) else ""
    turns = [e.turn for e in events if e.turn is not None]
    row["turns"] = max(turns) if turns else 0
    row["events"] = len(events)
    if overrides:
        happened = set(chance_keys(events))
        row["what_if_applied"] = all(k in happened for k in overrides)
    return row


def play_batch(base: Base, batch: Batch) -> list[dict[str, Any]]:
    """Play every seed of ``batch`` (the unit of work sent to a process or a Dask worker)."""
    loaded = load(base)
    overrides = dict(batch.overrides)
    return [play_one(base, loaded, s, batch.after, overrides) for s in batch.seeds]


# -- where the games run ----------------------------------------------------------------------
_BASE: Base | None = None


def _init_process(base: Base) -> None:
    """A local worker process: ignore Ctrl-C (the parent stops it) and keep the base."""
    global _BASE
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    _BASE = base


def _play_in_process(item: tuple[int, Batch]) -> tuple[int, list[dict[str, Any]]]:
    assert _BASE is not None
    return item[0], play_batch(_BASE, item[1])


def default_workers() -> int:
    """Local processes by default: one per core this process may use."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # not every platform has affinity
        return max(1, os.cpu_count() or 1)


class Workers:
    """Local processes (``workers``) or a Dask cluster (``scheduler``: an address, a ``Client`` or a
    cluster) that play batches of one base; a context manager that stops what it started.

    ``run`` returns each batch's rows in the order given; after Ctrl-C it returns the batches done
    so far (None for the rest) and sets ``interrupted``.
    """

    def __init__(self, base: Base, workers: int | None = None, scheduler: Any = None,
                 progress: bool | None = None, desc: str = "games") -> None:
        if workers is not None and scheduler is not None:
            raise MalformedInput("give --workers or --scheduler, not both")
        if workers is not None and workers < 1:
            raise MalformedInput(f"--workers {workers}: expected a whole number >= 1")
        self.base = base
        self.workers = workers if workers is not None else (None if scheduler is not None else default_workers())
        self.scheduler = scheduler
        self.progress = progress
        self.desc = desc
        self.interrupted = False
        self._pool: Any = None
        self._client: Any = None
        self._own_client = False
        self._base_future: Any = None

    def __enter__(self) -> Workers:
        if self.scheduler is not None:
            self._client, self._own_client = _dask_client(self.scheduler)
            self._base_future = self._client.scatter(self.base, broadcast=True, hash=False)
        elif self.workers and self.workers > 1:
            import multiprocessing

            method = "fork" if "fork" in multiprocessing.get_all_start_methods() else "spawn"
            self._pool = multiprocessing.get_context(method).Pool(self.workers, _init_process, (self.base,))
        return self

    def __exit__(self, *exc: Any) -> None:
        if self._pool is not None:
            self._pool.terminate() if self.interrupted or exc[0] is not None else self._pool.close()
            self._pool.join()
            self._pool = None
        if self._client is not None and self._own_client:
            self._client.close()
        self._client = None

    @property
    def where(self) -> str:
        """Where the games run, in words."""
        if self.scheduler is not None:
            return f"Dask scheduler {getattr(self._client, 'scheduler', None) and self._client.scheduler.address}"
        return f"{self.workers} local process{'es' if self.workers != 1 else ''}"

    def run(self, batches: Sequence[Batch], total: int | None = None) -> list[list[dict[str, Any]] | None]:
        """Play every batch; results in the order of ``batches`` (None: not played, after Ctrl-C)."""
        out: list[list[dict[str, Any]] | None] = [None] * len(batches)
        if not batches or self.interrupted:
            return out
        bar = _bar(total if total is not None else sum(len(b.seeds) for b in batches), self.desc, self.progress)
        try:
            for i, rows in self._results(batches):
                out[i] = rows
                bar.update(len(batches[i].seeds))
        except KeyboardInterrupt:
            self.interrupted = True
            self._stop()
        finally:
            bar.close()
        return out

    def _results(self, batches: Sequence[Batch]) -> Iterator[tuple[int, list[dict[str, Any]]]]:
        if self._client is not None:
            from dask.distributed import as_completed

            futures = {self._client.submit(play_batch, self._base_future, b, pure=False): i
                       for i, b in enumerate(batches)}
            self._futures = list(futures)
            for fut in as_completed(futures):  # type: ignore[no-untyped-call]
                yield futures[fut], fut.result()
            return
        if self._pool is not None:
            yield from self._pool.imap_unordered(_play_in_process, list(enumerate(batches)))
            return
        for i, b in enumerate(batches):
            yield i, play_batch(self.base, b)

    def _stop(self) -> None:
        if self._pool is not None:
            self._pool.terminate()
            self._pool.join()
            self._pool = None
        if self._client is not None:
            self._client.cancel(getattr(self, "_futures", []))


def _dask_client(scheduler: Any) -> tuple[Any, bool]:
    """A Dask client for an address, a cluster or a client; True when this code made it (and closes it)."""
    try:
        from dask.distributed import Client
    except ImportError:  # pragma: no cover - a dependency of medviz
        raise MalformedInput("--scheduler needs dask.distributed (pip install 'dask[distributed]')") from None
    if isinstance(scheduler, Client):
        return scheduler, False
    if isinstance(scheduler, str):
        try:
            return Client(scheduler, timeout=10), True  # type: ignore[no-untyped-call]
        except (OSError, TimeoutError, ValueError) as exc:
            raise MalformedInput(f"--scheduler {scheduler[:80]!r}: cannot reach a Dask scheduler there "
                                 f"({type(exc).__name__}: {str(exc).splitlines()[0][:120] if str(exc) else ''})") from None
    if hasattr(scheduler, "scheduler_address"):
        return Client(scheduler), True  # type: ignore[no-untyped-call]
    raise MalformedInput(f"scheduler {scheduler!r}: expected an address, a dask Client or a cluster")


class _NoBar:
    def update(self, n: int) -> None:
        """Nothing to show."""

    def close(self) -> None:
        """Nothing to close."""


def _bar(total: int, desc: str, progress: bool | None) -> Any:
    """A tqdm bar (a widget in a notebook); ``progress`` None: only on a terminal."""
    if progress is False:
        return _NoBar()
    if progress is None and not sys.stderr.isatty():
        return _NoBar()
    from tqdm.auto import tqdm

    return tqdm(total=total, desc=desc, unit="game", smoothing=0.1)


def chunks(seeds: Sequence[int], size: int) -> list[tuple[int, ...]]:
    """``seeds`` cut into runs of at most ``size``."""
    return [tuple(seeds[i: i + size]) for i in range(0, len(seeds), size)]


def chunk_size(games: int, workers: int | None) -> int:
    """Batches small enough to share out and to stop quickly, large enough to cost little to send."""
    return max(1, min(25, games // (8 * (workers or 4)) or 1))


ProgressFn = Callable[[int], None]
