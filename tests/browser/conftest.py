"""Real-browser fixtures: Debian's chromium driven by Playwright, cut off from the network.

Never runs ``playwright install`` (downloads are blocked): the browser is /usr/bin/chromium
(``apt-get install -y chromium``). Every test here skips, with the reason, when chromium or the
``playwright`` package is missing. Each page gets a route handler that aborts every request
that is not to localhost (or a file:, data: or blob: URL) and records it; the test fails if
anything tried to reach the network. Screenshots go to test-artifacts/ (git-ignored).
"""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlparse

import pytest

ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = ROOT / "test-artifacts"
CHROMIUM = os.environ.get("MEDVIZ_CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
                 "--disable-sync", "--no-first-run", "--disable-dev-shm-usage"]
LOCAL_HOSTS = {"localhost", "127.0.0.1", "::1", "[::1]"}


def _skip_reason() -> str | None:
    if not Path(CHROMIUM).is_file():
        return f"chromium not found at {CHROMIUM} (apt-get install -y chromium, or set MEDVIZ_CHROMIUM)"
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        return "the playwright package is not installed (pip install playwright; never `playwright install`)"
    return None


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    reason = _skip_reason()
    here = Path(__file__).parent
    for item in items:
        if Path(str(item.fspath)).is_relative_to(here):
            item.add_marker(pytest.mark.browser)
            if reason:
                item.add_marker(pytest.mark.skip(reason=reason))


@pytest.fixture(scope="session")
def artifacts() -> Path:
    ARTIFACTS.mkdir(exist_ok=True)
    return ARTIFACTS


@pytest.fixture(scope="module")
def lab(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Any]]:
    """A JupyterLab server on localhost per test module: ``{"base": url, "token": token}``.

    Per module, not per session: a server remembers the notebooks opened before (its workspace),
    and their hidden tabs would answer the page-wide locators of the next test.
    """
    from helpers_sample import jupyter_lab

    if not Path(sys.executable).with_name("jupyter").exists():
        pytest.skip("jupyter is not installed in this environment (pip install -e '.[lab]')")
    runtime = tmp_path_factory.mktemp("jupyter-runtime")
    log = tmp_path_factory.mktemp("lab-log") / "lab.log"
    with jupyter_lab(runtime, log) as info:  # a server that does not start errors the tests, with its log
        yield info


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        b = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield b
        b.close()


class OfflinePage:
    """A page whose every non-local request is aborted and recorded."""

    def __init__(self, browser: Any, width: int = 1500, height: int = 1000) -> None:
        self.context = browser.new_context(viewport={"width": width, "height": height})
        self.page = self.context.new_page()
        self.blocked: list[str] = []
        self.errors: list[str] = []
        self.context.route("**/*", self._route)
        self.page.on("pageerror", lambda exc: self.errors.append(str(exc)))

    def _route(self, route: Any) -> None:
        url = route.request.url
        parts = urlparse(url)
        if parts.scheme in ("file", "data", "blob") or (parts.hostname or "") in LOCAL_HOSTS:
            route.continue_()
        else:
            self.blocked.append(url)
            route.abort()

    def close(self) -> None:
        self.context.close()


@pytest.fixture
def offline_page(browser: Any) -> Iterator[OfflinePage]:
    p = OfflinePage(browser)
    yield p
    blocked = list(p.blocked)
    p.close()
    assert not blocked, f"the page tried to reach the network: {blocked[:5]}"
