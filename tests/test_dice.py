"""Dice addressed by meaning."""

from __future__ import annotations

import hashlib
from collections import Counter
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from medviz.engine import MalformedInput
from medviz.engine.dice import (
    check_value,
    distribution,
    faces_for_total,
    natural_faces,
    natural_index,
    probability,
)


def test_natural_faces_are_a_pure_function_of_seed_and_id() -> None:
    a = natural_faces(7, "battle-1/combat-1/round-1/attacker", "1d6")
    assert a == natural_faces(7, "battle-1/combat-1/round-1/attacker", "1d6")
    ids = [f"x/{i}" for i in range(200)]
    assert [natural_faces(7, i, "1d6") for i in ids] != [natural_faces(8, i, "1d6") for i in ids]


def test_faces_are_uniform_enough() -> None:
    counts = Counter(natural_faces(1, f"r{i}", "1d6")[0] for i in range(60_000))
    assert set(counts) == {1, 2, 3, 4, 5, 6}
    for n in counts.values():  # expected 10,000; 5 standard deviations is about 456
        assert abs(n - 10_000) < 500


def test_two_dice_distribution_is_exact() -> None:
    d = distribution("2d6")
    assert d[7] == Fraction(1, 6) and d[2] == Fraction(1, 36) and sum(d.values()) == 1
    assert probability("1d6", 0) == 0


@pytest.mark.parametrize("value", [0, 7, -1, 3.5, "4", True])
def test_impossible_d6_values_are_refused(value: object) -> None:
    with pytest.raises(MalformedInput):
        check_value("1d6", value)


def test_bad_dice_spec() -> None:
    with pytest.raises(MalformedInput, match="NdF"):
        distribution("d6")


@given(st.integers(2, 12), st.integers(1, 6), st.integers(1, 6))
def test_faces_for_total_sum_to_total(total: int, a: int, b: int) -> None:
    faces = faces_for_total("2d6", total, (a, b))
    assert sum(faces) == total and all(1 <= f <= 6 for f in faces)


# --------------------------------------------------------------------------------------------
# Pinned values: a change to the generator changes every saved game, so it must show here.
# --------------------------------------------------------------------------------------------
PINNED = [
    (0, "battle-1/combat-1/round-1/attacker", "1d6", (2,)),
    (7, "battle-1/combat-1/round-1/attacker", "1d6", (5,)),
    (3, "GT1/recruit/initiative/A", "1d6", (3,)),
    (12345, "x", "1d6", (1,)),
    (0, "GT1/ops-A/force-1/ops", "2d6", (4, 3)),
    (1, "GT1/ops-A/force-1/ops", "2d6", (2, 2)),
    (42, "GT2/ops-B/force-3/ops", "2d6", (1, 5)),
    (7, "a", "2d6", (6, 3)),
    (7, "b", "2d6", (6, 5)),
    (0, "z", "3d6", (4, 3, 3)),
]


@pytest.mark.parametrize(("seed", "roll_id", "dice", "faces"), PINNED)
def test_natural_faces_pinned(seed: int, roll_id: str, dice: str, faces: tuple[int, ...]) -> None:
    assert natural_faces(seed, roll_id, dice) == faces


@pytest.mark.parametrize(("seed", "roll_id", "dice", "faces"), PINNED)
def test_natural_faces_follow_the_documented_scheme(seed: int, roll_id: str, dice: str,
                                                    faces: tuple[int, ...]) -> None:
    """Die i is BLAKE2b-64 of 'seed US roll_id#i', big-endian, modulo the faces, plus one."""
    count, sides = int(dice.split("d")[0]), int(dice.split("d")[1])
    own = tuple(int.from_bytes(hashlib.blake2b(f"{seed}\x1f{roll_id}#{i}".encode(), digest_size=8).digest(),
                               "big") % sides + 1 for i in range(count))
    assert own == faces


def test_natural_index_pinned() -> None:
    assert natural_index(5, "cup", 10) == 2 and natural_index(0, "policy/x", 3) == 0
    with pytest.raises(MalformedInput, match="empty pool"):
        natural_index(0, "cup", 0)


def test_two_dice_show_doubles_a_sixth_of_the_time_and_totals_fit_the_exact_distribution() -> None:
    n = 36_000
    rolls = [natural_faces(1, f"r{i}", "2d6") for i in range(n)]
    doubles = sum(a == b for a, b in rolls)
    # Binomial(36,000, 1/6): mean 6,000, standard deviation about 71; five of them is 354.
    assert abs(doubles - n / 6) < 354
    totals = Counter(a + b for a, b in rolls)
    dist = distribution("2d6")
    chi2 = sum((totals[t] - n * float(p)) ** 2 / (n * float(p)) for t, p in dist.items())
    assert set(totals) == set(range(2, 13))
    assert chi2 < 29.6  # chi-square, 10 degrees of freedom: exceeded with probability 0.001


@pytest.mark.parametrize(("dice", "total", "natural", "faces"), [
    ("2d6", 7, (3, 4), (3, 4)),    # the natural faces already show the total: kept
    ("2d6", 7, (1, 1), (6, 1)),    # otherwise a plain split, high die first
    ("2d6", 2, (6, 6), (1, 1)),
    ("2d6", 12, (1, 2), (6, 6)),
    ("1d6", 4, (2,), (4,)),
    ("3d6", 4, (1, 1, 1), (2, 1, 1)),
    ("3d6", 17, (1, 1, 1), (6, 6, 5)),
])
def test_faces_for_total_cases(dice: str, total: int, natural: tuple[int, ...], faces: tuple[int, ...]) -> None:
    assert faces_for_total(dice, total, natural) == faces


@pytest.mark.parametrize(("dice", "value"), [("1d6", 1), ("1d6", 6), ("2d6", 2), ("2d6", 12), ("3d6", 18)])
def test_every_possible_value_is_accepted_and_returned(dice: str, value: int) -> None:
    assert check_value(dice, value) == value


def test_one_and_three_dice_distributions_are_exact() -> None:
    assert distribution("1d6") == {f: Fraction(1, 6) for f in range(1, 7)}
    d3 = distribution("3d6")
    assert (d3[3], d3[10], d3[11], d3[18]) == (Fraction(1, 216), Fraction(27, 216), Fraction(27, 216), Fraction(1, 216))
    assert sum(d3.values()) == 1 and min(d3) == 3 and max(d3) == 18


def test_a_pool_of_one_always_gives_it() -> None:
    assert {natural_index(s, f"cup/{s}", 1) for s in range(20)} == {0}
