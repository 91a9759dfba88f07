"""Saved notebooks without dead widget views: a Jupyter server pre-save hook, and a command for a notebook.

A widget's output in a notebook only names a model in the kernel that drew it; reopened with another
kernel, JupyterLab shows "Error displaying widget: model not found" where the app was. ``make lab``
runs JupyterLab with ``drop_widget_views`` as its pre-save hook, so a notebook is saved with a short
note in place of each app ("run the cell to bring it back"), and without embedded widget state (which
would make a notebook megabytes). ``python -m medviz.apps.saved NOTEBOOK...`` does the same to notebooks
saved elsewhere (``make lab`` runs it on the notebook it opens: no kernel is running then, so every
widget view in it is dead).
"""

from __future__ import annotations

import json
import os
import sys
import tempfile
from pathlib import Path
from typing import Any

__all__ = ["WIDGET_VIEW", "drop_widget_views", "main", "without_widget_views"]

#: The MIME type of an ipywidgets output: a reference to a model in the kernel, nothing to draw by itself.
WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"

#: What stands where an app was, until its cell runs again.
NOTE_TEXT = "This app ran in an earlier session. Run the cell to bring it back."
NOTE_HTML = ("<div class='medviz-saved-app' style='color:#6b5b45;font-style:italic;padding:4px 0'>"
             "This app ran in an earlier session. Run the cell to bring it back.</div>")


def without_widget_views(nb: dict[str, Any]) -> int:
    """Replace every widget view among ``nb``'s outputs by a note, and drop saved widget state; returns how many."""
    n = 0
    for cell in nb.get("cells") or []:
        outputs = cell.get("outputs") if isinstance(cell, dict) else None
        for out in outputs if isinstance(outputs, list) else []:
            data = out.get("data") if isinstance(out, dict) else None
            if isinstance(data, dict) and WIDGET_VIEW in data:
                out["data"] = {"text/plain": NOTE_TEXT, "text/html": NOTE_HTML}
                n += 1
    meta = nb.get("metadata")
    if isinstance(meta, dict) and "widgets" in meta:
        del meta["widgets"]
        n += 1
    return n


def drop_widget_views(model: dict[str, Any], **_kwargs: Any) -> None:
    """Jupyter server pre-save hook (``ContentsManager.pre_save_hook``): a notebook is saved without dead views."""
    if model.get("type") == "notebook" and isinstance(model.get("content"), dict):
        without_widget_views(model["content"])


def clean_file(path: Path) -> int:
    """Rewrite the notebook at ``path`` without widget views (atomically; untouched if it had none)."""
    try:
        nb = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise SystemExit(f"{path}: not a readable notebook ({exc})") from None
    if not isinstance(nb, dict):
        raise SystemExit(f"{path}: not a notebook (its JSON is not an object)")
    n = without_widget_views(nb)
    if n:
        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
        try:
            with os.fdopen(fd, "w", encoding="utf-8") as f:
                json.dump(nb, f, indent=1, ensure_ascii=False)
                f.write("\n")
            os.replace(tmp, path)
        except BaseException:
            Path(tmp).unlink(missing_ok=True)
            raise
    return n


def main(argv: list[str] | None = None) -> int:
    """``python -m medviz.apps.saved NOTEBOOK...``: replace dead widget views in saved notebooks by a note."""
    paths = [Path(a) for a in (sys.argv[1:] if argv is None else argv)]
    if not paths:
        print("usage: python -m medviz.apps.saved NOTEBOOK.ipynb...", file=sys.stderr)
        return 2
    try:
        for p in paths:
            if p.exists():
                n = clean_file(p)
                if n:
                    print(f"{p}: {n} widget output(s) of an earlier session replaced by a note")
    except SystemExit as exc:
        print(exc, file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
