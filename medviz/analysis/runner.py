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
from medviz.engine.events import ChangeEvent, DecisionEvent, DrawEvent, Event, ReportEvent, RollEvent
from medviz.engine.game import GameSpec, Ruleset, RunResult, Snapshot, chance_event, chance_keys, chance_value, run
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
    """Games to play: from after event ``after`` (-1: from the set-up), with ``overrides``, one per seed.

    With ``faces``, one game per seed for each face of roll or draw ``roll`` (the event just after
    ``after``), face by face: ``play_faces``.
    """

    seeds: tuple[int, ...]
    after: int = -1
    overrides: tuple[tuple[str, Any], ...] = ()
    tag: Any = None
    roll: str = ""
    faces: tuple[Any, ...] = ()

    @property
    def games(self) -> int:
        """How many rows the batch gives."""
        return len(self.seeds) * max(1, len(self.faces))


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
    return _row(rs, loaded, seed, result, overrides)


#: How many task boundaries after a roll ``play_faces`` watches for a face's game joining another's.
WATCH_TASKS = 32


def play_faces(base: Base, loaded: Loaded, seed: int, after: int, key: str, faces: Sequence[Any],
               watch: int = WATCH_TASKS) -> list[dict[str, Any]]:
    """The continuation of ``seed`` under each face of roll (or draw) ``key``, the event just after ``after``:
    one row per face, each the row ``play_one`` gives with the override ``key=face``.

    Faces whose games meet share the rest: at each of the first ``watch`` task boundaries after the roll,
    a face's game is compared with the games of the faces played before it at the same number of events;
    when the state, the agenda, the turn and phase and the events so far are equal, the rest of its game
    is the other's, and so is its row. The events are compared whole, save for the roll itself and the
    data of the changes and reports after it (the state holds what the changes did); a ruleset whose
    rules or players read those back (``Ruleset.reads_past_events``) has every face played in full.
    """
    rs = loaded.ruleset
    if loaded.history is None or rs.reads_past_events or watch < 1:
        return [play_one(base, loaded, seed, after, {key: f}) for f in faces]
    snap, fixed, recorded = _point(loaded, after)
    prefix = loaded.history.events[: snap.seq]
    at = after + 1
    seen: dict[int, list[_Meeting]] = {}
    rows = []
    for face in faces:
        overrides = {key: face}
        spec = GameSpec(rs, base.scenario, loaded.history.spec.options, seed, loaded.players,
                        {**fixed, **overrides}, recorded)
        mine = _Meeting.Watch(rs, key, at, watch, snap, seen)
        result = run(spec, snap, prefix, keep_snapshots=False, pause_when=mine)
        if mine.met is not None:
            row = dict(mine.met.row)
        else:
            row = _row(rs, loaded, seed, result, overrides)
        for m in mine.marks:
            m.row = row
        rows.append(row)
    return rows


class _Meeting:
    """A face's game at one task boundary after the roll: what the rest of the game depends on.

    Its state is not copied as the game goes on: when another face's game has matched everything else,
    it is made again from the snapshot the continuation started at and the change events since
    (the state is a fold of the changes, as ``Snapshot.folded`` makes it).
    """

    __slots__ = ("n", "turn", "phase", "agenda", "events", "start", "rs", "_state", "row")

    def __init__(self, rs: Ruleset, ctx: Any, start: Snapshot) -> None:
        self.n = len(ctx.events)
        self.turn, self.phase, self.agenda = ctx.turn, ctx.phase, tuple(ctx.agenda)
        self.events: list[Event] = ctx.events  # the run's own list: it only grows, the first n stay
        self.start, self.rs = start, rs
        self._state: Any = None
        self.row: dict[str, Any] = {}

    @property
    def state(self) -> Any:
        """The state at this boundary, made again from the start and the changes since."""
        if self._state is None:
            self._state = Snapshot.folded(self.n, self.start, tuple(self.events[self.start.seq: self.n]), self.rs,
                                          self.agenda, self.turn, self.phase).state
        return self._state

    def same(self, ctx: Any, at: int) -> bool:
        """True when the game of ``ctx`` (as many events, the roll at ``at``) is this one from here on."""
        if (self.turn, self.phase) != (ctx.turn, ctx.phase) or self.agenda != tuple(ctx.agenda):
            return False
        if not all(map(_same_after_roll, self.events[at + 1: self.n], ctx.events[at + 1:])):
            return False
        return bool(self.events[:at] == ctx.events[:at] and self.state == ctx.state)

    class Watch:
        """``run``'s ``pause_when``: marks this face's first boundaries, stops where it meets another face."""

        def __init__(self, rs: Ruleset, key: str, at: int, tasks: int, start: Snapshot,
                     seen: dict[int, list[_Meeting]]) -> None:
            self.rs, self.key, self.at, self.left, self.start, self.seen = rs, key, at, tasks, start, seen
            self.marks: list[_Meeting] = []
            self.met: _Meeting | None = None

        def __call__(self, ctx: Any) -> bool:
            n = len(ctx.events)
            if self.left <= 0 or n <= self.at:
                return False
            if not self.marks and not _is_roll(ctx.events[self.at], self.key):
                self.left = 0  # the roll is not where it was recorded: nothing to compare
                return False
            self.left -= 1
            for m in self.seen.get(n, ()):
                if m.same(ctx, self.at):
                    self.met = m
                    return True
            mark = _Meeting(self.rs, ctx, self.start)
            self.marks.append(mark)
            self.seen.setdefault(n, []).append(mark)
            return False


def _is_roll(e: Event, key: str) -> bool:
    return isinstance(e, RollEvent) and e.roll == key or isinstance(e, DrawEvent) and e.draw == key


def _same_after_roll(a: Event, b: Event) -> bool:
    """Two events after the roll the same but for a change's or a report's data (the state holds the changes)
    and the options a decision offered (the state's); its id and choice are compared."""
    if type(a) is not type(b):
        return False
    if isinstance(a, ChangeEvent) and isinstance(b, ChangeEvent):
        return (a.seq, a.turn, a.phase, a.actor, a.automatic, a.change) == (b.seq, b.turn, b.phase, b.actor,
                                                                            b.automatic, b.change)
    if isinstance(a, DecisionEvent) and isinstance(b, DecisionEvent):  # the options offered are the state's
        return ((a.seq, a.turn, a.phase, a.actor, a.automatic, a.decision, a.source, a.secret, type(a.choice))
                == (b.seq, b.turn, b.phase, b.actor, b.automatic, b.decision, b.source, b.secret, type(b.choice))
                and a.choice == b.choice)
    if isinstance(a, ReportEvent) and isinstance(b, ReportEvent):
        return (a.seq, a.turn, a.phase, a.actor, a.automatic, a.report) == (b.seq, b.turn, b.phase, b.actor,
                                                                            b.automatic, b.report)
    return a == b


def _row(rs: Ruleset, loaded: Loaded, seed: int, result: RunResult, overrides: Mapping[str, Any]) -> dict[str, Any]:
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
    """Play every seed of ``batch`` (the unit of work sent to a process or a Dask worker); with faces, the
    rows face by face, each face's in the order of the seeds."""
    loaded = load(base)
    if batch.faces:
        by_seed = [play_faces(base, loaded, s, batch.after, batch.roll, batch.faces) for s in batch.seeds]
        return [rows[i] for i in range(len(batch.faces)) for rows in by_seed]  # face by face, seeds in order
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
        bar = _bar(total if total is not None else sum(b.games for b in batches), self.desc, self.progress)
        try:
            for i, rows in self._results(batches):
                out[i] = rows
                bar.update(batches[i].games)
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
