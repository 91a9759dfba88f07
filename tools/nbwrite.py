"""Write a generated notebook with stable cell ids (shared by the notebook generators in tools/)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import nbformat as nbf

NOTEBOOKS = Path(__file__).resolve().parent.parent / "notebooks"


def write_notebook(cells: list[Any], name: str, id_prefix: str) -> Path:
    """Write ``notebooks/<name>.ipynb`` from ``cells``; ids ``<id_prefix>-NN`` keep regenerations diffable."""
    nb = nbf.v4.new_notebook()
    nb.cells = cells
    for i, cell in enumerate(nb.cells):
        cell["id"] = f"{id_prefix}-{i:02d}"  # stable ids: regenerating changes only what changed
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    nb.metadata["language_info"] = {"name": "python"}
    out = NOTEBOOKS / f"{name}.ipynb"
    nbf.write(nb, out)
    print(f"wrote {out}")
    return out
