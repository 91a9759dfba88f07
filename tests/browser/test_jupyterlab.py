"""JupyterLab on localhost, driven by chromium: open the battle notebook, run it, read the branch.

The server runs from the repository (``--ServerApp.root_dir``) with a random token on a free
port, with JupyterLab's own network features off (news feed, update check, PyPI extension
manager). The notebook is opened from a copy with its saved outputs cleared, under the
git-ignored test-artifacts/, so the text we wait for can only come from running it now.
"""

from __future__ import annotations

import os
import secrets
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]
NOTEBOOK = ROOT / "notebooks" / "battle-branching.ipynb"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture(scope="module")
def lab(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Any]]:
    jupyter = Path(sys.executable).with_name("jupyter")
    if not jupyter.exists():
        pytest.skip("jupyter is not installed in this environment (pip install -e '.[lab]')")
    token, port = secrets.token_hex(16), free_port()
    runtime = tmp_path_factory.mktemp("jupyter-runtime")
    env = {**os.environ, "JUPYTER_RUNTIME_DIR": str(runtime), "JUPYTERLAB_WORKSPACES_DIR": str(runtime / "ws")}
    log = (tmp_path_factory.mktemp("lab-log") / "lab.log").open("w")
    proc = subprocess.Popen(
        [str(jupyter), "lab", "--no-browser", "--allow-root", f"--ServerApp.token={token}",
         f"--ServerApp.port={port}", "--ServerApp.port_retries=0", "--ServerApp.ip=127.0.0.1",
         f"--ServerApp.root_dir={ROOT}", "--LabApp.news_url=None", "--LabApp.extension_manager=readonly",
         "--LabApp.check_for_updates_class=jupyterlab.NeverCheckForUpdate"],
        cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT)
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                with urllib.request.urlopen(f"{base}/api/status?token={token}", timeout=2) as r:
                    if r.status == 200:
                        break
            except OSError:
                pass
            if proc.poll() is not None or time.monotonic() > deadline:
                pytest.fail(f"jupyter lab did not start (exit {proc.poll()}); see {log.name}")
            time.sleep(0.5)
        yield {"base": base, "token": token}
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
        log.close()


@pytest.fixture
def cleared_notebook(artifacts: Path) -> Path:
    import nbformat

    nb = nbformat.read(NOTEBOOK, as_version=4)
    for cell in nb.cells:
        if cell.cell_type == "code":
            cell.outputs = []
            cell.execution_count = None
    folder = artifacts / "lab"
    folder.mkdir(exist_ok=True)
    out = folder / NOTEBOOK.name
    nbformat.write(nb, out)
    return out


def test_battle_notebook_runs_in_jupyterlab(lab: dict[str, Any], cleared_notebook: Path, offline_page: Any,
                                            artifacts: Path) -> None:
    page = offline_page.page
    rel = cleared_notebook.relative_to(ROOT).as_posix()
    page.goto(f"{lab['base']}/lab/tree/{rel}?token={lab['token']}", timeout=60_000)
    page.wait_for_selector(".jp-Notebook .jp-Cell", timeout=60_000)
    # The kernel must be up before Run All, or the first cells queue behind its start.
    page.locator(".jp-StatusBar-TextItem", has_text="| Idle").first.wait_for(timeout=90_000)
    assert page.locator(".jp-OutputArea-output").count() == 0  # nothing from a previous run
    page.locator(".jp-Notebook").first.click()  # focus the notebook so the Run menu acts on it
    page.get_by_role("menuitem", name="Run", exact=True).click()
    page.get_by_role("menuitem", name="Run All Cells", exact=True).click()
    branch = page.locator(".jp-OutputArea-output", has_text="They part at event 12")
    branch.first.wait_for(timeout=120_000)
    page.locator(".jp-OutputArea-output", has_text="none ['NE']").first.wait_for(timeout=60_000)
    text = branch.first.inner_text()
    assert "decisive roll: battle-1/combat-1/round-1/attacker = 6" in text
    assert not page.locator(".jp-OutputArea-output[data-mime-type='application/vnd.jupyter.stderr']").count()
    branch.first.scroll_into_view_if_needed()
    page.screenshot(path=str(artifacts / "jupyterlab-battle-branching.png"))
