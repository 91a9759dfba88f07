"""Test helpers shared by tests/ and tests/browser/: the sample battle, its map views, JupyterLab.

Import it as ``import helpers_sample`` (pytest puts tests/ on ``sys.path`` when it loads
tests/conftest.py). It is not a conftest: tests/conftest.py and tests/browser/conftest.py would
collide as module names.
"""

from __future__ import annotations

import copy
import os
import secrets
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

from medviz.engine import History, play
from medviz.rules.medempires.odds import Doctrine
from medviz.rules.medempires.ruleset import RULESET
from medviz.rules.medempires.view import setup_view

ROOT = Path(__file__).resolve().parent.parent

#: The sample battle: Aragon attacks Anjou, both sides playing the odds doctrine.
BATTLE_OPTIONS = {"attacker": "aragon:2FA,1L,1M,K2", "defender": "anjou:3FA,2L,K1"}


# -- the sample battle and its map views --------------------------------------------------------
def sample_battle(seed: int = 3) -> History:
    """The sample battle; with seed 3 it is the game ``examples/battle-seed3.json`` records (22 events)."""
    return play(RULESET, "battle", dict(BATTLE_OPTIONS), seed=seed,
                players={"attacker": Doctrine(), "defender": Doctrine()})


def changing_views() -> Callable[[int], dict[str, Any]]:
    """Views derived from the real set-up: Malta changes hands at 5, a battle and a move at 10."""
    v0 = setup_view()

    def view_at(seq: int) -> dict[str, Any]:
        v = copy.deepcopy(v0)
        v["turn"], v["phase"] = 1, "operations-B"
        if seq >= 5:
            v["control"]["malta"] = "B"
            v["units"]["malta"] = {"aragon": {"FA": 1}}
        if seq >= 10:
            v["control"]["naples"] = "partial"
            v["overlays"] = [{"kind": "battle", "area": "naples", "result": "DV", "winner": "attacker"},
                             {"kind": "move", "side": "B", "power": "aragon",
                              "path": ["sicily_west", "tyrrhenian_south", "naples"]}]
        return v

    return view_at


# -- JupyterLab ---------------------------------------------------------------------------------
def free_port() -> int:
    """A free TCP port on localhost."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@contextmanager
def jupyter_lab(runtime: Path, log_path: Path, root: Path = ROOT) -> Iterator[dict[str, Any]]:
    """Run ``jupyter lab`` on 127.0.0.1 (random token, free port, its network features off).

    Yields ``{"base": url, "token": token}``; raises ``RuntimeError`` if it does not start in 60 s.
    The server's root is ``root`` (the repository), so notebooks open by their path in it.
    """
    jupyter = Path(sys.executable).with_name("jupyter")
    token, port = secrets.token_hex(16), free_port()
    env = {**os.environ, "JUPYTER_RUNTIME_DIR": str(runtime), "JUPYTERLAB_WORKSPACES_DIR": str(runtime / "ws")}
    with log_path.open("w") as log:
        proc = subprocess.Popen(
            [str(jupyter), "lab", "--no-browser", "--allow-root", f"--ServerApp.token={token}",
             f"--ServerApp.port={port}", "--ServerApp.port_retries=0", "--ServerApp.ip=127.0.0.1",
             f"--ServerApp.root_dir={root}", "--LabApp.news_url=None", "--LabApp.extension_manager=readonly",
             "--LabApp.check_for_updates_class=jupyterlab.NeverCheckForUpdate",
             "--ContentsManager.pre_save_hook=medviz.apps.saved.drop_widget_views"],  # as `make lab`
            cwd=root, env=env, stdout=log, stderr=subprocess.STDOUT)
        base = f"http://127.0.0.1:{port}"
        with _serving(proc, f"{base}/api/status?token={token}", f"jupyter lab (see {log_path})"):
            yield {"base": base, "token": token}


@contextmanager
def _serving(proc: subprocess.Popen[bytes], url: str, what: str) -> Iterator[None]:
    """Wait (60 s at most) until the server ``proc`` answers ``url`` with 200, then stop it when done;
    ``RuntimeError`` naming ``what`` if it exits or does not answer in time."""
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                with urllib.request.urlopen(url, timeout=2) as r:
                    if r.status == 200:
                        break
            except OSError:
                pass
            if proc.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(f"{what} did not start (exit {proc.poll()})")
            time.sleep(0.5)
        yield
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


#: Voilà in the environment running the tests (``pip install -e '.[lab]'``).
VOILA = Path(sys.executable).with_name("voila")


@contextmanager
def voila(notebook: Path, folder: Path) -> Iterator[str]:
    """``notebook`` (a path in the repository) served by Voilà with the classroom's template on a free localhost
    port; yields its URL. Its log and runtime files go to ``folder``; the test is skipped without Voilà."""
    if not VOILA.exists():
        pytest.skip("voila is not installed in this environment (pip install -e '.[lab]')")
    port = free_port()
    log_path = folder / "voila.log"
    env = {**os.environ, "JUPYTER_PATH": str(ROOT / "classroom"), "JUPYTER_RUNTIME_DIR": str(folder / "runtime")}
    relative = (ROOT / notebook).relative_to(ROOT).as_posix()
    with log_path.open("w") as log:
        proc = subprocess.Popen(
            [str(VOILA), relative, "--template=medviz-classroom", "--no-browser",
             "--Voila.ip=127.0.0.1", f"--port={port}", "--preheat_kernel=True", "--pool_size=1"],
            cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT)
        url = f"http://127.0.0.1:{port}/"
        with _serving(proc, url, f"voila (see {log_path})"):
            yield url


def cleared_copy(notebook: Path, folder: Path, beside: Iterable[Path] = ()) -> Path:
    """A copy of ``notebook`` in a fresh ``folder`` with its saved outputs cleared; ``beside`` folders copied too.

    Everything a test then reads in the page can only come from running the notebook now.
    """
    import nbformat

    nb = nbformat.read(notebook, as_version=4)
    for cell in nb.cells:
        if cell.cell_type == "code":
            cell.outputs = []
            cell.execution_count = None
    if folder.exists():
        shutil.rmtree(folder)
    folder.mkdir(parents=True)
    for extra in beside:
        shutil.copytree(extra, folder / extra.name)
    out = folder / notebook.name
    nbformat.write(nb, out)
    return out


def scratch_notebook(folder: Path, name: str, cells: Iterable[str]) -> Path:
    """A new notebook of ``cells`` in a fresh ``folder``, with the Vespers annotations beside it."""
    import nbformat

    if folder.exists():
        shutil.rmtree(folder)
    folder.mkdir(parents=True)
    shutil.copytree(ROOT / "notebooks" / "annotations", folder / "annotations")
    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_code_cell(c) for c in cells]
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    nb.metadata["language_info"] = {"name": "python"}
    out = folder / name
    nbformat.write(nb, out)
    return out


def open_and_run_all(page: Any, lab: dict[str, Any], notebook: Path, root: Path = ROOT) -> None:
    """Open ``notebook`` (under ``root``) in JupyterLab, wait for its kernel, and Run All Cells."""
    rel = notebook.relative_to(root).as_posix()
    page.goto(f"{lab['base']}/lab/tree/{rel}?token={lab['token']}", timeout=60_000)
    page.wait_for_selector(".jp-Notebook .jp-Cell", timeout=60_000)
    # The kernel must be up before Run All, or the first cells queue behind its start.
    page.locator(".jp-StatusBar-TextItem", has_text="| Idle").first.wait_for(timeout=90_000)
    assert page.locator(".jp-OutputArea-output").count() == 0  # nothing from a previous run
    page.locator(".jp-Notebook").first.click()  # focus the notebook so the Run menu acts on it
    page.get_by_role("menuitem", name="Run", exact=True).click()
    page.get_by_role("menuitem", name="Run All Cells", exact=True).click()


def wait_for(what: str, probe: Callable[[], Any], timeout: float = 30.0, every: float = 0.2) -> Any:
    """Poll ``probe`` until it returns something truthy; fail with ``what`` after ``timeout`` seconds."""
    deadline = time.monotonic() + timeout
    last: Any = None
    while time.monotonic() < deadline:
        last = probe()
        if last:
            return last
        time.sleep(every)
    pytest.fail(f"timed out after {timeout:.0f} s waiting for {what} (last probe: {last!r})")


# -- the scripts in tools/ ------------------------------------------------------------------------
def load_tool(name: str) -> Any:
    """The script ``tools/<name>.py`` as a module (tools/ on the path while it loads, for its own imports)."""
    import importlib.util

    tools = str(ROOT / "tools")
    sys.path.insert(0, tools)
    try:
        spec = importlib.util.spec_from_file_location(name, ROOT / "tools" / f"{name}.py")
        assert spec and spec.loader
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        return module
    finally:
        sys.path.remove(tools)
