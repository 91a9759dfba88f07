"""Reading user files with clear errors, and writing files atomically (never half-written).

Reading refuses anything that is not a regular file (a FIFO, ``/dev/zero``, a folder) before
opening it, and any file larger than a cap, so a bad argument cannot hang or exhaust memory.

Writing goes to a temporary sibling ``.NAME.PID-RANDOM.tmp`` and renames it onto the target, so
the target is never half-written. A process killed between the two leaves its temporary file
behind; the next write to the same target removes such leftovers (their process is gone, or they
are older than ``STALE_AFTER`` seconds), so they never collect.
"""

from __future__ import annotations

import os
import re
import secrets
import stat
import time
from pathlib import Path

from medviz.engine.errors import MalformedInput

#: The largest file ``read_text`` reads unless told otherwise (a history of a long game is ~5 MB).
MAX_READ_BYTES = 64 * 1024 * 1024

#: A leftover temporary file this old is removed even if its process id is in use again.
STALE_AFTER = 600.0


def _kind(mode: int) -> str:
    if stat.S_ISDIR(mode):
        return "a folder"
    if stat.S_ISFIFO(mode):
        return "a pipe (FIFO)"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    if stat.S_ISSOCK(mode):
        return "a socket"
    return "not a regular file"


def read_bytes(path: str | Path, what: str = "file", max_bytes: int = MAX_READ_BYTES) -> bytes:
    """The bytes of the regular file ``path`` (at most ``max_bytes``); anything else is ``MalformedInput``."""
    p = Path(path)
    if not str(path):
        raise MalformedInput(f"empty {what} name")
    try:
        st = os.stat(p)
    except FileNotFoundError:
        raise MalformedInput(f"{p}: {what} not found") from None
    except OSError as exc:
        raise MalformedInput(f"{p}: cannot read {what} ({exc.strerror or exc})") from None
    if not stat.S_ISREG(st.st_mode):
        raise MalformedInput(f"{p}: {what} is {_kind(st.st_mode)}, not a regular file")
    if st.st_size > max_bytes:
        raise MalformedInput(f"{p}: {what} is {st.st_size:,} bytes, more than the {max_bytes:,} allowed")
    try:
        # O_NONBLOCK: should the path have become a FIFO since the stat, opening it does not hang.
        fd = os.open(p, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    except OSError as exc:
        raise MalformedInput(f"{p}: cannot read {what} ({exc.strerror or exc})") from None
    with os.fdopen(fd, "rb") as f:
        if not stat.S_ISREG(os.fstat(f.fileno()).st_mode):
            raise MalformedInput(f"{p}: {what} is not a regular file")
        data = f.read(max_bytes + 1)
    if len(data) > max_bytes:
        raise MalformedInput(f"{p}: {what} is more than the {max_bytes:,} bytes allowed")
    return data


def read_text(path: str | Path, what: str = "file", max_bytes: int = MAX_READ_BYTES) -> str:
    """The UTF-8 text of ``path``; a missing, unreadable, non-regular or too large file is ``MalformedInput``."""
    p = Path(path)
    data = read_bytes(path, what, max_bytes)
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        raise MalformedInput(f"{p}: {what} is not UTF-8 text") from None


def _temp_pattern(name: str) -> re.Pattern[str]:
    return re.compile(rf"^\.{re.escape(name)}\.(\d+)-[0-9a-f]+\.tmp$")


def _process_gone(pid: int) -> bool:
    if pid == os.getpid():
        return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    except OSError:  # it exists but belongs to someone else
        return False
    return False


def remove_stale_temporaries(path: str | Path) -> list[Path]:
    """Remove temporary files an interrupted write to ``path`` left behind; the removed paths."""
    p = Path(path)
    folder = p.parent if str(p.parent) else Path(".")
    pattern = _temp_pattern(p.name)
    removed: list[Path] = []
    try:
        names = os.listdir(folder)
    except OSError:
        return removed
    now = time.time()
    for name in names:
        m = pattern.match(name)
        if not m:
            continue
        leftover = folder / name
        try:
            old = now - leftover.lstat().st_mtime > STALE_AFTER
            if old or _process_gone(int(m.group(1))):
                leftover.unlink()
                removed.append(leftover)
        except OSError:
            continue
    return removed


def check_output_path(path: str | Path, what: str = "--out") -> Path:
    """``path`` as a place ``write_atomic`` can write, checked before any work: ``MalformedInput`` if not.

    Refused: an empty name, an existing folder or non-regular file (a device, a FIFO), a missing
    folder, and a folder where no file can be created (read-only, ``/proc``); the last is probed
    by creating and removing a temporary file there.
    """
    if path is None or not str(path).strip():
        raise MalformedInput(f"{what}: empty file name; give a file such as game.json")
    p = Path(path)
    try:
        st = os.stat(p)
    except FileNotFoundError:
        st = None
    except OSError as exc:
        raise MalformedInput(f"{what} {p}: cannot write there ({exc.strerror or exc})") from None
    if st is not None and not stat.S_ISREG(st.st_mode):
        raise MalformedInput(f"{what} {p}: is {_kind(st.st_mode)}; give a file name such as game.json")
    folder = p.parent if str(p.parent) else Path(".")
    if not folder.is_dir():
        raise MalformedInput(f"{what} {p}: folder {folder} does not exist")
    probe = folder / f".{p.name}.{os.getpid()}-{secrets.token_hex(4)}.tmp"
    try:
        fd = os.open(probe, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except OSError as exc:
        raise MalformedInput(f"{what} {p}: cannot write in folder {folder} ({exc.strerror or exc})") from None
    os.close(fd)
    probe.unlink(missing_ok=True)
    return p


def write_atomic(path: str | Path, text: str | bytes, what: str = "file") -> None:
    """Write ``text`` (or bytes) to ``path`` via a temporary sibling, then rename; never half-written.

    Leftovers of earlier interrupted writes to ``path`` are removed first. Any refusal (empty
    name, a folder, a read-only or missing folder) is one-line ``MalformedInput`` naming the file.
    """
    p = check_output_path(path, what)
    folder = p.parent if str(p.parent) else Path(".")
    remove_stale_temporaries(p)
    data = text.encode("utf-8") if isinstance(text, str) else bytes(text)
    tmp = folder / f".{p.name}.{os.getpid()}-{secrets.token_hex(6)}.tmp"
    try:
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)  # the umask applies, as for open()
    except OSError as exc:
        raise MalformedInput(f"{what} {p}: cannot write in folder {folder} ({exc.strerror or exc})") from None
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
        os.replace(tmp, p)
    except BaseException as exc:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        if isinstance(exc, OSError):
            raise MalformedInput(f"{what} {p}: cannot write ({exc.strerror or exc})") from None
        raise
