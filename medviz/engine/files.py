"""Reading user files with clear errors, and writing files atomically (never half-written)."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

from medviz.engine.errors import MalformedInput


def read_text(path: str | Path, what: str = "file") -> str:
    """The UTF-8 text of ``path``; a missing or unreadable file is ``MalformedInput`` naming it."""
    p = Path(path)
    try:
        return p.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise MalformedInput(f"{p}: {what} not found") from None
    except UnicodeDecodeError:
        raise MalformedInput(f"{p}: {what} is not UTF-8 text") from None
    except OSError as exc:
        raise MalformedInput(f"{p}: cannot read {what} ({exc.strerror or exc})") from None


def write_atomic(path: str | Path, text: str) -> None:
    """Write ``text`` to ``path`` via a temporary file in the same folder, then rename."""
    p = Path(path)
    folder = p.parent if str(p.parent) else Path(".")
    if not folder.is_dir():
        raise MalformedInput(f"{p}: folder {folder} does not exist")
    fd, tmp = tempfile.mkstemp(prefix=f".{p.name}.", suffix=".tmp", dir=folder)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(text)
        os.replace(tmp, p)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise
