"""The documentation site (``make docs``): it builds strictly, and its pages load nothing from the network.

``mkdocs build --strict`` fails on a broken link between pages, a missing anchor or a page left out
of the navigation. The built site is then served on localhost and opened in chromium with every
non-local request blocked and recorded. The CLI and API pages are generated at build time; the
test reads that they hold the real command and the real classes. It runs in CI's long run
(``MEDVIZ_SLOW=1``), as it takes about a minute.
"""

from __future__ import annotations

import functools
import os
import subprocess
import sys
import threading
from collections.abc import Iterator
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest
from helpers_sample import ROOT

MKDOCS = Path(sys.executable).with_name("mkdocs")
pytestmark = [pytest.mark.slow,
              pytest.mark.skipif(not os.environ.get("MEDVIZ_SLOW"),
                                 reason="the docs site is built in CI's long run (MEDVIZ_SLOW=1); make docs builds it")]


class _Quiet(SimpleHTTPRequestHandler):
    def log_message(self, *_args: Any) -> None:
        pass


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The site built with --strict into a temporary folder, served on localhost; yields its URL."""
    if not MKDOCS.exists():
        pytest.skip("mkdocs is not installed in this environment (pip install -e '.[docs]')")
    out = tmp_path_factory.mktemp("site")
    done = subprocess.run([str(MKDOCS), "build", "--strict", "-d", str(out)], cwd=ROOT,
                          env={**os.environ, "NO_MKDOCS_2_WARNING": "1"}, capture_output=True, text=True)
    assert done.returncode == 0, f"mkdocs build --strict failed:\n{done.stdout}\n{done.stderr}"
    server = ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(_Quiet, directory=str(out)))
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()


@pytest.mark.parametrize(("page", "must_say"), [
    ("index.html", ["Getting started", "make classroom"]),
    ("cli.html", ["medviz play", "medviz branch", "medviz odds --game variant_middle_sea", "--attacker SPEC"]),
    ("api.html", ["ReplayViewer", "DiceLab", "Ruleset", "Classroom"]),
    ("notebooks/vespers-1282.html", ["Vespers", "ReplayViewer"]),
    ("classroom.html", ["make classroom"]),
    ("rules-coverage.html", ["10.3"]),
])
def test_docs_page_shows_its_content_offline(site: str, offline_page: Any, page: str, must_say: list[str]) -> None:
    p = offline_page.page
    response = p.goto(f"{site}/{page}")
    assert response is not None and response.ok, f"{page}: {response and response.status}"
    p.wait_for_load_state("networkidle")
    text = p.inner_text("body")
    missing = [s for s in must_say if s not in text]
    assert not missing, f"{page} does not say {missing}"
    assert not offline_page.errors, offline_page.errors[:3]
