"""The whole package is strictly typed (mypy --strict), like python-chess (issue 11.7)."""

from __future__ import annotations

from pathlib import Path

import shutil
import subprocess
import sys

import pytest

ROOT = Path(__file__).resolve().parent.parent



def test_the_package_passes_mypy_strict() -> None:
    if shutil.which("mypy") is None and subprocess.run([sys.executable, "-m", "mypy", "--version"],
                                                      capture_output=True).returncode != 0:
        pytest.skip("mypy is not installed")
    r = subprocess.run([sys.executable, "-m", "mypy", "--strict", "medviz"],
                       cwd=ROOT, capture_output=True, text=True)
    assert r.returncode == 0, r.stdout + r.stderr
