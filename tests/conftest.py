"""Shared fixtures."""

from __future__ import annotations

from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SHARED = ROOT.parent / "shared"


@pytest.fixture
def battle_opts() -> dict[str, object]:
    return {"attacker": "aragon:2FA,1L,1M,K2", "defender": "anjou:3FA,2L,K1"}
