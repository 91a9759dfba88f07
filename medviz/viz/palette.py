"""Colour arithmetic for maps: tints, contrast, and a colour-vision-deficiency check.

The check simulates protanopia, deuteranopia and tritanopia with the matrices of Machado,
Oliveira and Fernandes (2009, severity 1.0, applied in linear sRGB) and measures how far apart
two colours stay in CIELAB (CIE76 ΔE). It needs nothing beyond the standard library.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from itertools import combinations

# The arithmetic a game's portrayal needs too lives with the portrayal contract (no UI there).
from medviz.engine.portrayal import blend, contrast_text, hex_to_rgb, relative_luminance, rgb_to_hex

__all__ = [
    "CVD_KINDS", "PairCheck", "blend", "contrast_text", "cvd_pairs", "delta_e", "hex_to_rgb",
    "relative_luminance", "rgb_to_hex", "simulate",
]

#: Machado et al. (2009) simulation matrices at full severity, for linear sRGB.
MACHADO: dict[str, tuple[tuple[float, float, float], ...]] = {
    "protanopia": ((0.152286, 1.052583, -0.204868),
                   (0.114503, 0.786281, 0.099216),
                   (-0.003882, -0.048116, 1.051998)),
    "deuteranopia": ((0.367322, 0.860646, -0.227968),
                     (0.280085, 0.672501, 0.047413),
                     (-0.011820, 0.042940, 0.968881)),
    "tritanopia": ((1.255528, -0.076749, -0.178779),
                   (-0.078411, 0.930809, 0.147602),
                   (0.004733, 0.691367, 0.303900)),
}
CVD_KINDS = ("normal", *MACHADO)


def _linear(c: float) -> float:
    return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4


def _gamma(c: float) -> float:
    c = min(1.0, max(0.0, c))
    return 12.92 * c if c <= 0.0031308 else 1.055 * c ** (1 / 2.4) - 0.055


def simulate(colour: str, kind: str) -> str:
    """How ``colour`` looks to a viewer with the given colour vision (``normal`` = unchanged)."""
    if kind == "normal":
        return colour
    if kind not in MACHADO:
        raise ValueError(f"unknown colour vision {kind!r}; one of {', '.join(CVD_KINDS)}")
    lin = [_linear(c) for c in hex_to_rgb(colour)]
    out = [sum(m * c for m, c in zip(row, lin)) for row in MACHADO[kind]]
    return rgb_to_hex([_gamma(c) for c in out])


def _lab(colour: str) -> tuple[float, float, float]:
    r, g, b = (_linear(c) for c in hex_to_rgb(colour))
    x = (0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047
    y = 0.2126 * r + 0.7152 * g + 0.0722 * b
    z = (0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883

    def f(t: float) -> float:
        return t ** (1 / 3) if t > (6 / 29) ** 3 else t / (3 * (6 / 29) ** 2) + 4 / 29

    fx, fy, fz = f(x), f(y), f(z)
    return 116 * fy - 16, 500 * (fx - fy), 200 * (fy - fz)


def delta_e(a: str, b: str) -> float:
    """CIE76 colour difference (ΔE*ab): about 2.3 is just noticeable, above 20 is plainly distinct."""
    return math.dist(_lab(a), _lab(b))


@dataclass(frozen=True)
class PairCheck:
    """Two named colours and their smallest ΔE over the simulated colour visions."""

    a: str
    b: str
    worst_kind: str
    worst_delta_e: float


def cvd_pairs(colours: Mapping[str, str], pairs: Sequence[tuple[str, str]] | None = None) -> list[PairCheck]:
    """For each pair of named colours (all pairs by default), the worst ΔE across colour visions."""
    names = list(colours)
    out = []
    for a, b in pairs if pairs is not None else combinations(names, 2):
        worst = min(((delta_e(simulate(colours[a], k), simulate(colours[b], k)), k) for k in CVD_KINDS))
        out.append(PairCheck(a, b, worst[1], round(worst[0], 1)))
    return sorted(out, key=lambda p: p.worst_delta_e)
