"""Argument helpers shared by the ``medviz`` command and the games' own subcommands.

Generic: whole numbers in a range, ``ROLL_ID=VALUE`` overrides, die or draw values, JSON output with
exact fractions. Every refusal is one line (an argparse usage error or ``MalformedInput``).
"""

from __future__ import annotations

import argparse
import json
import re
from collections.abc import Callable
from fractions import Fraction
from typing import Any

from medviz.engine.errors import MalformedInput

_INT_RE = re.compile(r"^[+-]?[0-9]{1,18}$")


def bounded(name: str, lo: int, hi: int, why: str) -> Callable[[str], int]:
    """An argparse type: a whole number ``lo``..``hi``; anything else is a one-line usage error."""

    def parse(text: str) -> int:
        value = text.strip()
        if not _INT_RE.match(value):
            raise argparse.ArgumentTypeError(f"{text[:40]!r} is not a whole number")
        n = int(value)
        if not lo <= n <= hi:
            raise argparse.ArgumentTypeError(f"{n} is out of range {lo}..{hi} ({why})")
        return n

    parse.__name__ = name
    return parse


def parse_override(text: str, flag: str = "--override") -> tuple[str, Any]:
    """``ROLL_ID=VALUE`` of ``--override``; the id is everything before the first ``=``."""
    roll, sep, value = text.partition("=")
    if not sep or not roll.strip():
        raise MalformedInput(f"{flag} {text[:80]!r}: expected ROLL_ID=VALUE")
    return roll.strip(), parse_value(value, f"{flag} {text[:80]!r}")


def parse_value(text: str, where: str) -> Any:
    """A die value (a whole number, ASCII digits, at most 18 of them) or a draw's or card's text.

    Text that starts like a number but is not one (``--5``, ``²``, ``1e3``, 5,000 digits) is refused.
    """
    text = text.strip()
    if not text:
        raise MalformedInput(f"{where}: empty value")
    if _INT_RE.match(text):
        return int(text)
    if text[0] in "+-" or text[0].isdigit() or text[0].isnumeric():
        raise MalformedInput(f"{where}: {text[:40]!r} is not a whole number (write e.g. 3)")
    if len(text) > 200 or not text.isprintable():
        raise MalformedInput(f"{where}: {text[:40]!r} is not a value any roll or draw can take")
    return text


def fmt_p(p: Fraction | float) -> str:
    """A probability as a padded percentage."""
    return f"{float(p):7.2%}"


def print_json(data: Any) -> None:
    """Print ``data`` as indented JSON; a ``Fraction`` becomes a float rounded to 4 places."""
    print(json.dumps(data, indent=2, ensure_ascii=False, default=_json_default))


def _json_default(v: Any) -> Any:
    if isinstance(v, Fraction):
        return round(float(v), 4)
    raise TypeError(repr(v))
