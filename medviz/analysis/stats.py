"""Intervals for shares and means: Wilson's score interval, a normal interval for a mean."""

from __future__ import annotations

import math
from collections.abc import Sequence

#: The normal quantile of a two-sided 95% interval.
Z95 = 1.959963984540054


def wilson(successes: int, trials: int, z: float = Z95) -> tuple[float, float]:
    """Wilson's score interval (95% by default) for ``successes`` of ``trials``; (0, 1) for no trials."""
    if trials <= 0:
        return 0.0, 1.0
    p = successes / trials
    denom = 1 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denom
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / denom
    return max(0.0, centre - half), min(1.0, centre + half)


def mean_interval(values: Sequence[float], z: float = Z95) -> tuple[float, float, float]:
    """(mean, half-width of its normal 95% interval) and the sample standard deviation."""
    n = len(values)
    if n == 0:
        return 0.0, math.inf, 0.0
    mean = math.fsum(values) / n
    if n == 1:
        return mean, math.inf, 0.0
    sd = math.sqrt(math.fsum((v - mean) ** 2 for v in values) / (n - 1))
    return mean, z * sd / math.sqrt(n), sd


def r4(x: float) -> float:
    """A float rounded to 4 places (stable JSON)."""
    return round(float(x), 4)
