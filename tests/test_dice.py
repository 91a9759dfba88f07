"""Dice addressed by meaning."""

from __future__ import annotations

from collections import Counter
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from medviz.engine import MalformedInput
from medviz.engine.dice import check_value, distribution, faces_for_total, natural_faces, probability


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
