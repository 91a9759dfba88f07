"""Every page in docs/ and every notebook is in the documentation site's navigation (mkdocs.yml).

``mkdocs build --strict`` (CI's long run, tests/browser/test_docs_site.py) refuses a page left out
of the navigation; this check says so in a second, in every ``make test``.
"""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_every_docs_page_and_notebook_is_in_the_site_navigation() -> None:
    config = (ROOT / "mkdocs.yml").read_text(encoding="utf-8")
    nav = config[config.index("\nnav:"):]
    listed = set(re.findall(r":\s*([\w./-]+\.(?:md|ipynb))\s*$", nav, flags=re.M))
    pages = {p.name for p in (ROOT / "docs").glob("*.md")}
    notebooks = {f"notebooks/{p.name}" for p in (ROOT / "notebooks").glob("*.ipynb")}
    notebooks |= {f"notebooks/{p.relative_to(ROOT / 'notebooks').as_posix()}"
                  for p in (ROOT / "notebooks").glob("*/*.ipynb") if not p.parent.name.startswith(".")}
    missing = sorted((pages | notebooks) - listed)
    assert not missing, f"add these to the nav of mkdocs.yml: {missing}"
    gone = sorted(p for p in listed if not (ROOT / "docs" / p).exists())
    assert not gone, f"mkdocs.yml lists pages that do not exist: {gone}"
