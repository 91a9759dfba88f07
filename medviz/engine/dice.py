"""Dice addressed by meaning: a roll's natural value is a pure function of (seed, roll id).

A counter-based generator: BLAKE2b of the seed, the roll id and the die index gives each die
its face. Changing one roll therefore never shifts any other roll that happens for the same
purpose, which is what a teacher means by "change only this die" (DESIGN.md).
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Sequence
from fractions import Fraction
from functools import lru_cache

from medviz.engine.errors import MalformedInput

#: The largest seed a history keeps (a signed 64-bit whole number, so every JSON reader keeps it exactly).
SEED_MAX = 2**63 - 1

_DICE_RE = re.compile(r"^([1-9][0-9]?)d([1-9][0-9]*)$")


@lru_cache(maxsize=64)
def parse_dice(dice: str) -> tuple[int, int]:
    """Parse ``"2d6"`` into ``(2, 6)``."""
    m = _DICE_RE.match(dice)
    if not m:
        raise MalformedInput(f"dice {dice!r}: expected the form NdF, e.g. '1d6' or '2d6'")
    return int(m.group(1)), int(m.group(2))


def _uniform(seed: int, key: str, n: int) -> int:
    """A uniform integer in 0..n-1 from (seed, key); bias below 2**-50 for small n."""
    digest = hashlib.blake2b(f"{seed}\x1f{key}".encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big") % n


def natural_faces(seed: int, roll_id: str, dice: str) -> tuple[int, ...]:
    """The natural faces of the roll ``roll_id`` under ``seed`` (pure, stable across processes)."""
    count, faces = parse_dice(dice)
    if count == 1:  # the usual roll: the same key as below, without the generator
        return (_uniform(seed, roll_id + "#0", faces) + 1,)
    return tuple(_uniform(seed, f"{roll_id}#{i}", faces) + 1 for i in range(count))


def natural_index(seed: int, key: str, n: int) -> int:
    """A natural draw among ``n`` equally likely items, addressed by ``key`` (cups, random policies)."""
    if n <= 0:
        raise MalformedInput(f"{key}: cannot draw from an empty pool")
    return _uniform(seed, key, n)


@lru_cache(maxsize=64)
def distribution(dice: str) -> dict[int, Fraction]:
    """Exact distribution of the total of ``dice``."""
    count, faces = parse_dice(dice)
    dist: dict[int, Fraction] = {0: Fraction(1)}
    for _ in range(count):
        nxt: dict[int, Fraction] = {}
        for total, p in dist.items():
            for f in range(1, faces + 1):
                nxt[total + f] = nxt.get(total + f, Fraction(0)) + p / faces
        dist = nxt
    return dist


def probability(dice: str, value: int) -> Fraction:
    """Probability that ``dice`` total ``value``."""
    return distribution(dice).get(value, Fraction(0))


def check_value(dice: str, value: object, where: str = "") -> int:
    """Validate a die value for ``dice``; returns it as int or raises ``MalformedInput``."""
    count, faces = parse_dice(dice)
    if isinstance(value, bool) or not isinstance(value, int):
        raise MalformedInput(f"{where}value {value!r} is not a whole number for {dice}")
    if not count <= value <= count * faces:
        raise MalformedInput(
            f"{where}value {value} is impossible on {dice} (must be {count}..{count * faces})"
        )
    return value


def faces_for_total(dice: str, total: int, natural: Sequence[int]) -> tuple[int, ...]:
    """Faces showing ``total``: the natural faces when they already do, else a plain split."""
    count, faces = parse_dice(dice)
    if sum(natural) == total:
        return tuple(natural)
    out = []
    remaining = total
    for i in range(count):
        left = count - i - 1
        f = min(faces, remaining - left)
        out.append(f)
        remaining -= f
    return tuple(out)
