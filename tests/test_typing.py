"""The engine is strictly typed (mypy --strict), like python-chess."""

from __future__ import annotations

import shutil
import subprocess
import sys

import pytest

from conftest import ROOT


def test_engine_passes_mypy_strict() -> None:
    if shutil.which("mypy") is None and subprocess.run([sys.executable, "-m", "mypy", "--version"],
                                                      capture_output=True).returncode != 0:
        pytest.skip("mypy is not installed")
    r = subprocess.run([sys.executable, "-m", "mypy", "--strict", "--follow-imports=silent",
                        "medviz/engine", "medviz/rules/datafiles.py"],
                       cwd=ROOT, capture_output=True, text=True)
    assert r.returncode == 0, r.stdout + r.stderr
