"""No two test files share a basename: pytest imports them as top-level modules (tests/ has no
package files), so a name in both tests/ and tests/browser/ stops the whole run at collection."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

TESTS = Path(__file__).resolve().parent


def test_every_test_file_has_its_own_name() -> None:
    names = Counter(p.name for p in TESTS.rglob("test_*.py"))
    assert not [n for n, k in names.items() if k > 1], sorted(n for n, k in names.items() if k > 1)
