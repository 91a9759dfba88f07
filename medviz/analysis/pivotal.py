"""Pivotal rolls: how much each roll or draw of a history moved the odds of the side that won.

For each roll, continuations of the history from just before it are played under every face it
could have shown, with the same continuation seeds for every face (common random numbers: the
faces are compared on the same futures). The **swing** is P(recorded winner | the face shown)
minus P(recorded winner) before the roll (the faces weighted by their chances); its 95% interval
comes from the paired per-continuation differences. Rounds of ``first`` continuations per face
go on until the swing is known to ``target``, or no face changed any continuation's winner (the
roll did not matter: its swing is then reported as 0 +/- 3/n, the rule of three), or the ``budget``
is spent. Every stop decision depends only on results, so the analysis is the same bytes on any workers.
"""

from __future__ import annotations

import hashlib
import json
import math
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path
from typing import Any

from medviz.analysis.runner import Base, Batch, Workers
from medviz.analysis.stats import mean_interval, r4, wilson
from medviz.engine.dice import distribution
from medviz.engine.errors import MalformedInput
from medviz.engine.events import DrawEvent, RollEvent
from medviz.engine.files import read_text, write_atomic
from medviz.engine.history import History

FORMAT = "medviz-pivotal"


@dataclass
class RollSwing:
    """One roll's analysis: the odds under each face and its swing of the recorded winner's odds."""

    key: str
    seq: int
    turn: int | None
    phase: str | None
    value: Any
    words: str
    faces: list[tuple[Any, Fraction]]
    winners: dict[Any, list[str]] = field(default_factory=dict)
    values: dict[Any, list[float]] = field(default_factory=dict)
    stopped: str = ""
    #: The measure lies in [0, 1] (the winner's odds, a share): an unmoved roll's swing is then bounded.
    bounded: bool = True

    @property
    def n(self) -> int:
        """Continuations per face played."""
        return min((len(w) for w in self.winners.values()), default=0)

    def mean(self, face: Any) -> tuple[float, float]:
        """The measure's mean under ``face`` and the half-width of its 95% interval."""
        m, half, _sd = mean_interval(self.values.get(face, []))
        return m, half

    def share(self, face: Any, who: str) -> tuple[float, float, float]:
        """P(``who`` wins | ``face``) with its Wilson 95% interval."""
        got = self.winners.get(face, [])
        k = sum(1 for w in got if w == who)
        lo, hi = wilson(k, len(got))
        return (k / len(got) if got else 0.0), lo, hi

    def differences(self) -> list[float]:
        """Per continuation: the measure under the face shown minus the faces weighted by their chance."""
        out = []
        for k in range(self.n):
            before = math.fsum(float(p) * self.values[f][k] for f, p in self.faces)
            out.append(self.values[self.value][k] - before)
        return out

    def swing(self) -> tuple[float, float]:
        """(swing, half-width of its 95% interval).

        When no face changed any of the ``n`` continuations the paired differences are all 0, yet a
        face may change a future not played: by the rule of three the chance that one does is below
        3/n (95%), and a measure in [0, 1] moves by at most that, so the swing is 0 +/- 3/n (0 +/- 0
        for an unbounded measure such as a VP mean, where no such bound follows).
        """
        d = self.differences()
        if not d:
            return 0.0, 1.0
        if self.unmoved():
            return 0.0, (min(1.0, 3 / self.n) if self.bounded else 0.0)
        mean, half, _sd = mean_interval(d)
        return mean, half

    def unmoved(self) -> bool:
        """True when every face gave the same measure in every continuation played."""
        columns = [self.values[f] for f, _p in self.faces]
        return all(len(set(c[k] for c in columns)) == 1 for k in range(self.n))


@dataclass
class Pivotal:
    """The rolls of a history ranked by how much they moved the recorded winner's odds."""

    history: History
    rolls: list[RollSwing]
    settings: dict[str, Any]
    interrupted: bool = False

    @property
    def winner(self) -> str:
        """Who won the history."""
        return str(self.history.outcome.get("winner", ""))

    @property
    def measure(self) -> str:
        """What a swing moves: ``winner`` (the recorded winner's odds), a column's mean, or ``COLUMN=VALUE``'s share."""
        return str(self.settings.get("measure", "winner"))

    def ranked(self) -> list[RollSwing]:
        """The rolls analysed, the biggest swing first (ties: in the order they were rolled)."""
        done = [r for r in self.rolls if r.n]
        return sorted(done, key=lambda r: (-round(abs(r.swing()[0]), 6), r.seq))

    def sentence(self, r: RollSwing) -> str:
        """The roll in plain words, with the face that would have hurt the winner most."""
        rs, h = self.history.ruleset, self.history
        who = self.winner
        if self.measure != "winner":
            shown = r.mean(r.value)[0]
            far = max((f for f, _p in r.faces), key=lambda f: (abs(r.mean(f)[0] - shown), str(f)))
            m, half = r.mean(far)
            what = _measure_words(self.measure)
            return f"{r.words}; with {_face(far)} {what} would have been {m:.2f} (±{half:.2f}) instead of {shown:.2f}"
        seats = [s.id for s in rs.seats(h.scenario)]
        other = next((s for s in seats if s != who), None)
        worst = min((f for f, _p in r.faces), key=lambda f: (r.share(f, who)[0], str(f)))
        p_shown = r.share(r.value, who)[0]
        p_worst, lo, hi = r.share(worst, who)
        if other is not None and len(seats) == 2:
            name = rs.seat_title(other, h.scenario, h.final_state)
            q_shown, q_worst = r.share(r.value, other)[0], r.share(worst, other)
            plus = max(q_worst[0] - q_worst[1], q_worst[2] - q_worst[0])
            return (f"{r.words}; with {_face(worst)} {name} would have won {q_worst[0]:.0%} (±{plus * 100:.0f}) "
                    f"instead of {q_shown:.0%}")
        plus = max(p_worst - lo, hi - p_worst)
        return (f"{r.words}; with {_face(worst)} the winner's odds would have been {p_worst:.0%} "
                f"(±{plus * 100:.0f}) instead of {p_shown:.0%}")

    def to_dict(self) -> dict[str, Any]:
        """The analysis as JSON data: each roll's faces, odds, swing and interval, biggest swing first."""
        who = self.winner
        rows = []
        for r in self.ranked():
            swing, half = r.swing()
            faces = []
            for f, p in r.faces:
                share, lo, hi = r.share(f, who)
                m, m_half = r.mean(f)
                faces.append({"face": f, "chance": str(p), "winner_wins": r4(share), "low": r4(lo), "high": r4(hi),
                              "measure": r4(m), "measure_plus_minus": r4(m_half) if math.isfinite(m_half) else None})
            rows.append({"roll": r.key, "seq": r.seq, "turn": r.turn, "phase": r.phase, "value": r.value,
                         "words": r.words, "sentence": self.sentence(r), "continuations": r.n,
                         "swing": r4(swing), "plus_minus": r4(half), "stopped": r.stopped, "faces": faces})
        return {"format": FORMAT, "game": self.history.game, "scenario": self.history.scenario,
                "history_seed": self.history.seed, "winner": who, "settings": self.settings,
                "interrupted": self.interrupted, "rolls": rows}

    def to_json(self) -> str:
        """Canonical JSON text (the same analysis gives the same bytes)."""
        return json.dumps(self.to_dict(), indent=1, ensure_ascii=False) + "\n"

    def lines(self, top: int = 10) -> list[str]:
        """The ``top`` rolls in words."""
        h = self.history
        out = [f"{h.game}/{h.scenario}, seed {h.seed}: winner {self.winner}; "
               f"{sum(1 for r in self.rolls if r.n)} rolls analysed, "
               f"{sum(r.n * len(r.faces) for r in self.rolls)} continuations"]
        if self.interrupted:
            out.append("Interrupted: the rolls below are those whose rounds finished.")
        for i, r in enumerate(self.ranked()[:top], 1):
            swing, half = r.swing()
            if self.measure == "winner":
                out.append(f"{i:2}. swing {swing * 100:+5.1f} (±{half * 100:.1f}) points  [{r.key}, {r.n} per face]")
            else:
                out.append(f"{i:2}. swing {swing:+.3f} (±{half:.3f}) in {_measure_words(self.measure)}  "
                           f"[{r.key}, {r.n} per face]")
            out.append(f"    {self.sentence(r)}")
        return out


def _measure_words(measure: str) -> str:
    column, sep, value = measure.partition("=")
    return f"the share of games with {column} = {value}" if sep else f"the mean {column}"


def measure_of(measure: str, winner: str) -> Callable[[dict[str, Any]], float]:
    """A row's value of ``measure``: the recorded winner won (1/0), a number column, or ``COLUMN=VALUE`` (1/0)."""
    if measure == "winner":
        return lambda row: float(row["winner"] == winner)
    column, sep, value = measure.partition("=")

    def of(row: dict[str, Any]) -> float:
        if column not in row:
            raise MalformedInput(f"--measure {measure!r}: no column {column!r} in a game's row "
                                 f"(columns: {', '.join(row)})")
        got = row[column]
        if sep:
            return float(str(got) == value)
        if isinstance(got, bool) or not isinstance(got, (int, float)):
            raise MalformedInput(f"--measure {measure!r}: column {column!r} is not a number; write {column}=VALUE")
        return float(got)
    return of


def _face(face: Any) -> str:
    """A face in words: ``a 1`` (``an 8``, ``an 11``) or a drawn item's text."""
    if isinstance(face, int):
        return f"an {face}" if face in (8, 11, 18) else f"a {face}"
    return str(face)


def faces_of(event: RollEvent | DrawEvent) -> list[tuple[Any, Fraction]]:
    """Every value the roll or draw could have shown, with its chance."""
    if isinstance(event, RollEvent):
        return sorted(distribution(event.dice).items())
    counts = Counter(event.pool)
    return [(item, Fraction(n, len(event.pool))) for item, n in sorted(counts.items())]


def cache_path(history: History, directory: str | Path, settings: dict[str, Any]) -> Path:
    """Where an analysis of ``history`` with ``settings`` is cached in ``directory``."""
    from medviz.analysis.winprob import history_hash

    tag = hashlib.sha256(json.dumps(settings, sort_keys=True).encode()).hexdigest()[:8]
    return Path(directory) / f"pivotal-{history_hash(history)[:16]}-{tag}.json"


def pivotal(history: History, *, budget: int = 200, first: int = 16, target: float = 0.05, first_seed: int = 0,
            rolls: Sequence[str] | None = None, measure: str = "winner", workers: int | None = None,
            scheduler: Any = None, progress: bool | None = None, cache: str | Path | None = None,
            share: bool = True) -> Pivotal:
    """Rank the rolls and draws of ``history`` (or only ``rolls``, by id) by their swing of the winner's odds
    (or of ``measure``: a column of the games' rows, its mean, or ``COLUMN=VALUE``, its share).

    With ``cache`` (a directory), a finished analysis is written there, keyed by the history's content
    hash and the settings, and read back next time instead of being played again. ``share`` (the default)
    plays one continuation for the faces of a roll that leave the same game (``runner.play_faces``); the
    results are the same bytes as with ``share=False``, which plays every face in full.
    """
    if budget < 1 or first < 1 or not 0 < target < 1:
        raise MalformedInput(f"pivotal: budget {budget} and first {first} must be >= 1, target {target} in (0, 1)")
    chance = [e for e in history.events if isinstance(e, (RollEvent, DrawEvent))]
    if rolls is not None:
        wanted = set(rolls)
        for key in wanted:
            history.roll(key)  # an unknown id is refused with near misses
        chance = [e for e in chance if (e.roll if isinstance(e, RollEvent) else e.draw) in wanted]
    swings = []
    for e in chance:
        key = e.roll if isinstance(e, RollEvent) else e.draw
        words = f"{_when(history, e.turn, e.phase)}: {history.describe(e)}"
        swings.append(RollSwing(key, e.seq, e.turn, e.phase, e.value, words, faces_of(e),
                                bounded=measure == "winner" or "=" in measure))
    settings = {"budget": budget, "first": first, "target": target, "first_seed": first_seed, "measure": measure,
                "rolls": sorted(rolls) if rolls is not None else None}
    result = Pivotal(history, swings, settings)
    path = cache_path(history, cache, settings) if cache is not None else None
    if path is not None and path.exists():
        raw = json.loads(read_text(path, "pivotal cache")).get("raw", {})
        if all(r.key in raw for r in swings):
            for r in swings:
                faces = {str(f): f for f, _p in r.faces}
                r.stopped = raw[r.key]["stopped"]
                r.winners = {faces[k]: list(v) for k, v in raw[r.key]["winners"].items()}
                r.values = {faces[k]: [float(x) for x in v] for k, v in raw[r.key]["values"].items()}
            return result
    value_of = measure_of(measure, result.winner)
    active = [r for r in swings if len(r.faces) > 1]
    for r in swings:
        if len(r.faces) <= 1:
            r.stopped = "only one face"
    n = 0
    with Workers(Base.of_history(history), workers, scheduler, progress, desc="continuations") as pool:
        while active and n < budget:
            m = min(first, budget - n)
            seeds = tuple(range(first_seed + n, first_seed + n + m))
            if share:  # one batch a roll: faces that leave the same game share their continuation
                batches = [Batch(seeds, r.seq - 1, tag=(i, None), roll=r.key, faces=tuple(f for f, _p in r.faces))
                           for i, r in enumerate(active)]
            else:
                batches = [Batch(seeds, r.seq - 1, ((r.key, f),), tag=(i, f))
                           for i, r in enumerate(active) for f, _p in r.faces]
            results = pool.run(batches)
            got: dict[int, dict[Any, list[dict[str, Any]]]] = {}
            for b, rows in zip(batches, results):
                if rows is None:
                    continue
                if b.faces:
                    got[b.tag[0]] = {f: rows[k * m: (k + 1) * m] for k, f in enumerate(b.faces)}
                else:
                    got.setdefault(b.tag[0], {})[b.tag[1]] = rows
            n += m
            still = []
            for i, r in enumerate(active):
                faces = got.get(i, {})
                if len(faces) < len(r.faces):  # interrupted in this round: keep the rounds finished
                    continue
                for f, rows in faces.items():
                    r.winners.setdefault(f, []).extend(row["winner"] for row in rows)
                    r.values.setdefault(f, []).extend(value_of(row) for row in rows)
                if r.unmoved():
                    r.stopped = f"no face changed the outcome in {r.n} continuations"
                elif r.swing()[1] <= target:
                    r.stopped = (f"swing known to ±{target * 100:g} points" if measure == "winner"
                                 else f"swing known to ±{target:g}")
                elif r.n >= budget:
                    r.stopped = f"budget of {budget} continuations per face spent"
                else:
                    still.append(r)
            if pool.interrupted:
                result.interrupted = True
                break
            active = still
    if path is not None and not result.interrupted:
        data = result.to_dict()
        data["raw"] = {r.key: {"stopped": r.stopped, "winners": {str(f): w for f, w in r.winners.items()},
                               "values": {str(f): v for f, v in r.values.items()}} for r in swings}
        write_atomic(path, json.dumps(data, ensure_ascii=False, separators=(",", ":")) + "\n")
    return result


def _when(history: History, turn: int | None, phase: str | None) -> str:
    """Where in the game a roll fell, in the ruleset's words (``turn 2, operations``)."""
    rs = history.ruleset
    label = rs.turn_label(history.scenario, turn) if turn is not None else ""
    name = rs.phase_names().get(phase or "", phase or "")
    return ", ".join(x for x in (label, name) if x)
