"""The fragment's own numbers (``data/rules.toml``) and a user's year cards and Unrest & Rebellion Table.

The year cards and the table are not in the rules text: ``load_cards(path)`` reads a user file
with the schema documented in ``data/sample_year_cards.toml`` (an illustrative, invented sample
that ships only to exercise the code), validating every entry and reporting all problems at once.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

from medviz.engine.errors import DataError
from medviz.rules.datafiles import (
    MAX_OVERRIDE_BYTES,
    Field,
    load_toml,
    patched_tables,
)
from medviz.rules.schema import Column, Table, declared_problems

DATA = Path(__file__).parent / "data"
ENDEAVOURS = ("conquest", "pillage", "diplomacy", "fortification", "ruling")
#: Result codes each endeavour may show (10.3, 11.2, 12.3, 14.2, 15.2).
RESULT_CODES = {"conquest": ("C",), "pillage": ("-1>", "-1<", "G"), "diplomacy": ("T", "C", "T/C>"),
                "fortification": ("F", "-1<"), "ruling": ("+1>", "-1<")}
_CODE_RE = re.compile(r"^(C|T|G|F|T/C\((-?\d{1,2}) ?>\)|([+-]1)\((?:(-?\d{1,2}) ?>|< ?(-?\d{1,2}))\))$")

#: The tables of ``data/rules.toml``, declared once (checks and docs/data-schema.md).
DECLARED: Mapping[str, Table] = {
    "plunder_gold": Table("Gold a pillage earns on each face of the die (11.3); `id` is the face 1..6.", {
        "gold": Column(Field("int", lo=0, hi=100), "gold earned")}),
    "modifier": Table("A modifier to an endeavour's effectiveness rating.", {
        "rating": Column(Field("int", lo=-50, hi=50), "what it adds to the rating")}),
    "constant": Table("A number the rules state.", {
        "value": Column(Field("int", lo=-50, hi=100), "the number")}),
}
#: The tables of a user's year-card file (``data/sample_year_cards.toml`` shows one), declared once.
CARD_DECLARED: Mapping[str, Table] = {
    "card": Table("One year card: for each endeavour, the result codes it lists (10.3-15.2; absent: none).", {
        e: Column(Field("texts"), f"{e} results: codes such as C, T, T/C(6>), -1(4>), -1(<2), G, F, +1(5>)",
                  required=False) for e in ENDEAVOURS}),
    "unrest_rebellion": Table("A row of the Unrest & Rebellion Table (16.1): rebellion values and their 2d6 totals.", {
        "rv_min": Column(Field("int", lo=-100, hi=100), "the lowest rebellion value of the row"),
        "rv_max": Column(Field("int", lo=-100, hi=100), "the highest rebellion value of the row"),
        "unrest": Column(Field("list", values=Field("int", lo=2, hi=12)), "2d6 totals that give unrest",
                         required=False),
        "rebellion": Column(Field("list", values=Field("int", lo=2, hi=12)), "2d6 totals that give rebellion",
                            required=False)}),
}
#: The tables an override file may hold.
SCHEMA = tuple(DECLARED)


@dataclass(frozen=True)
class Result:
    """One result code of a year card: its kind and the rating bound it needs (``-1(4>)``, ``G``)."""

    code: str
    kind: str  # "C", "T", "G", "F", "T/C>", "+1>", "-1>", "-1<"
    bound: int | None = None

    def applies(self, rating: int) -> bool:
        """Whether the result takes effect at effectiveness ``rating`` (``#>``: at least; ``<#``: at most)."""
        if self.kind.endswith(">") and self.kind != "T/C>":
            return rating >= (self.bound or 0)
        if self.kind.endswith("<"):
            return rating <= (self.bound or 0)
        return True


def parse_result(code: str) -> Result:
    """Parse a result code as printed (``C``, ``T/C(6>)``, ``-1(4>)``, ``-1(<2)``, ``+1(5>)``)."""
    m = _CODE_RE.match(code.strip())
    if not m:
        raise ValueError(f"{code!r} is not a result code (C, T, G, F, T/C(#>), +1(#>), -1(#>), -1(<#))")
    if m.group(2) is not None:
        return Result(code, "T/C>", int(m.group(2)))
    if m.group(3):
        if m.group(4) is not None:
            return Result(code, f"{m.group(3)}>", int(m.group(4)))
        return Result(code, f"{m.group(3)}<", int(m.group(5)))
    return Result(code, m.group(1))


@dataclass(frozen=True)
class Cards:
    """A user's year cards (by id) and Unrest & Rebellion Table rows, parsed."""

    cards: Mapping[str, Mapping[str, tuple[Result, ...]]]
    table: tuple[tuple[int, int, frozenset[int], frozenset[int]], ...]
    origin: str
    illustrative: bool

    def rebellion_row(self, rebellion_value: int) -> tuple[frozenset[int], frozenset[int]]:
        """The (unrest, rebellion) 2d6 totals for ``rebellion_value``; DataError if no row covers it."""
        for lo, hi, unrest, rebel in self.table:
            if lo <= rebellion_value <= hi:
                return unrest, rebel
        raise DataError([f"no Unrest & Rebellion row covers rebellion value {rebellion_value}"], self.origin)


@dataclass(frozen=True)
class Rules:
    """The fragment's numbers: plunder gold by die face, rating modifiers, constants."""

    plunder_gold: Mapping[int, int]
    modifiers: Mapping[str, int]
    constants: Mapping[str, int]


def build_rules(raw: Mapping[str, Any], origin: str) -> Rules:
    """Validate and build the fragment's numbers."""
    problems = declared_problems(raw, DECLARED, origin)
    if not problems:
        faces = sorted(str(e["id"]) for e in raw["plunder_gold"])
        if faces != [str(f) for f in range(1, 7)]:
            problems.append(f"{origin} [[plunder_gold]]: needs exactly the faces 1..6, not {faces}")
    if problems:
        raise DataError(problems, origin)
    return Rules({int(e["id"]): e["gold"] for e in raw["plunder_gold"]},
                 {e["id"]: e["rating"] for e in raw["modifier"]}, {e["id"]: e["value"] for e in raw["constant"]})


@lru_cache(maxsize=1)
def shipped_rules() -> Rules:
    """The fragment's numbers as shipped."""
    return build_rules(load_toml(DATA / "rules.toml"), "rules.toml")


def load_rules(override: str | Path | Mapping[str, Any] | None = None) -> Rules:
    """The shipped numbers patched by a user override (same tables, entries by id)."""
    if override is None:
        return shipped_rules()
    merged, origin = patched_tables(load_toml(DATA / "rules.toml"), override, SCHEMA, MAX_OVERRIDE_BYTES)
    return build_rules(merged, f"rules.toml with override {origin}")


def build_cards(raw: Mapping[str, Any], origin: str) -> Cards:
    """Validate a year-card file (schema in ``sample_year_cards.toml``) and parse its codes."""
    problems = declared_problems(raw, CARD_DECLARED, origin)
    cards: dict[str, dict[str, tuple[Result, ...]]] = {}
    table = []
    if not problems:
        for e in raw["card"]:
            parsed: dict[str, tuple[Result, ...]] = {}
            for end in ENDEAVOURS:
                got = []
                for code in e.get(end, []):
                    try:
                        r = parse_result(code)
                    except ValueError as exc:
                        problems.append(f"{origin} [[card]] {e['id']!r}: {end}: {exc}")
                        continue
                    if r.kind not in RESULT_CODES[end]:
                        problems.append(f"{origin} [[card]] {e['id']!r}: {end}: {code!r} is not a {end} result "
                                        f"({', '.join(RESULT_CODES[end])})")
                    got.append(r)
                parsed[end] = tuple(got)
            cards[e["id"]] = parsed
        for e in raw["unrest_rebellion"]:
            if e["rv_min"] > e["rv_max"]:
                problems.append(f"{origin} [[unrest_rebellion]] {e['id']!r}: needs rv_min <= rv_max")
                continue
            un, reb = frozenset(e.get("unrest", [])), frozenset(e.get("rebellion", []))
            if un & reb:
                problems.append(f"{origin} [[unrest_rebellion]] {e['id']!r}: totals {sorted(un & reb)} are both "
                                f"unrest and rebellion")
            table.append((e["rv_min"], e["rv_max"], un, reb))
        table.sort()
        for (a_lo, a_hi, _, _), (b_lo, _, _, _) in zip(table, table[1:]):
            if b_lo <= a_hi:
                problems.append(f"{origin} [[unrest_rebellion]]: rows overlap at rebellion value {b_lo}")
        if not cards:
            problems.append(f"{origin}: no [[card]]")
    if problems:
        raise DataError(problems, origin)
    illustrative = all("illustrative" in str(e.get("reconstructed", "")) for e in raw["card"])
    return Cards(cards, tuple(table), origin, illustrative)


def load_cards(path: str | Path | Mapping[str, Any] | None = None) -> Cards:
    """A user's year cards and table (a TOML file or its content); ``None``: the illustrative sample."""
    if path is None:
        return sample_cards()
    if isinstance(path, Mapping):
        return build_cards(path, "year cards")
    return build_cards(load_toml(path, MAX_OVERRIDE_BYTES), str(path))


@lru_cache(maxsize=1)
def sample_cards() -> Cards:
    """The shipped ILLUSTRATIVE sample (invented values, not the game's cards)."""
    return build_cards(load_toml(DATA / "sample_year_cards.toml"), "sample_year_cards.toml")
