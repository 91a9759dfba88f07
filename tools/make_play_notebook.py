"""Write notebooks/play-aragon.ipynb (play Aragon against the heuristic France) from this script.

Run: .venv/bin/python tools/make_play_notebook.py   (the notebook is committed with its outputs
empty; this keeps its source reviewable as code). The notebook runs headless under nbval-lax:
after the table is shown, later cells drive it from code, as a pupil's clicks would.

``--screenshot`` also takes docs/img/app-play.png: a scratch notebook (under the git-ignored
test-artifacts/) shows a table in Aragon's first operations phase, JupyterLab serves it on
localhost, headless Debian chromium (Playwright, every non-local request blocked) runs it, picks
an option and clicks *Choose* in the page, checks that the game moved on, and photographs the app.
"""

from __future__ import annotations

from pathlib import Path

import sys

import nbformat as nbf
from nbwrite import write_notebook

md, code = nbf.v4.new_markdown_cell, nbf.v4.new_code_cell

CELLS = [
    md("""# Play Aragon in 1282

*Mediterranean Empires* (Strategy & Tactics 330), the Sicilian Vespers scenario (13.0). You are
**Player B**: Peter III of Aragon, whose allies the Sicilians have just risen against Charles of Anjou.
The computer plays **Player A**, France and Angevin Naples, with medviz's heuristic player. Aragon
wins only if at the end it holds **both Sicilian areas and Malta** and France never took **Upper
Aragon, Rosselló, the Catalan counties or Urgell**.

The game stops whenever it is your turn to decide. Pick one of the options under the question (the
list only ever holds moves the rules allow) and press **Choose**, or:

* **Let the computer choose** — the heuristic answers this one decision for you;
* **Set up as in 1282** — place the rest of your starting counters where they stood (rule 3.0);
* **Undo** — take back your last move;
* **Finish the game for me** — the heuristic plays your side to the end.

Under the buttons you see what happened since your last move, dice included; the map follows the
game. When the game is over, its history opens in the replay viewer and the dice lab like any other."""),
    code("""from medviz.apps import PlayTable

table = PlayTable(scenario="vespers-1282", side="B", opponent="heuristic", seed=1282)
table"""),
    md("""## Driving the table from code

Everything the buttons do, code can do too — handy for a tutor preparing a position. The cells below
drive a **second** table, `tutor`, so the table above stays where it is: a fresh game, waiting for you
at its first question, even after *Run All*. What does the game ask now, and what may Aragon answer?"""),
    code("""tutor = PlayTable(scenario="vespers-1282", side="B", opponent="heuristic", seed=1282)  # not shown: driven by code
p = tutor.pending
print(p.prompt)
for key, words in zip(p.keys, tutor.model.labels):  # each option's key (what a history records) and words
    print(f"  {key!r:22} {words}")"""),
    md("""Place the first field army in the Kingdom of Majorca, then ask for somewhere the rules forbid: the
refusal names the rule (3.2: Aragon sets up only in its own areas) and the game does not move."""),
    code("""tutor.choose("majorca")
tutor.choose("sicily_east")
print(tutor.model.message)"""),
    md("""Set up the rest as in 1282; the game runs on to your first decision of game turn 1."""),
    code("""tutor.set_up()
print(tutor.model.where(), "—", tutor.model.prompt)
print("TP and VP:", tutor.model.score())"""),
    md("""Make a few decisions yourself (here: always the first option the list offers), let the computer
answer one, take one back, then let the computer finish the game."""),
    code("""for _ in range(3):
    tutor.choose(tutor.pending.options[0])
tutor.auto()
tutor.undo()
tutor.finish()
print("Outcome:", tutor.history.outcome["winner"], "—", tutor.history.outcome["reason"])"""),
    md("""## Replay your war, change a die

The finished game is an ordinary medviz history: save it, load it back, replay it, branch it.
Your own decisions are marked as yours (`source: "human"`)."""),
    code("""from medviz.engine import History
from medviz.rules.medempires.view import history_view
from medviz.apps import ReplayViewer

history = tutor.history  # your own game, once finished: table.history
again = History.from_json(history.to_json())
print(len(history), "events;", sum(d.source == "human" for d in history.decisions()), "decisions were yours;",
      "the saved game loads back identical:", again.to_json() == history.to_json())
set_up = next(s.start for s in history.phases() if s.turn == 1)
ReplayViewer(history, view_at=history_view, start=set_up)"""),
]


ROOT = Path(__file__).resolve().parent.parent

#: The scratch notebook for the picture: Aragon's field army on the march in turn 1 (seed 1282).
SHOT_CELLS = [
    code("""from medviz.apps import PlayTable

table = PlayTable(seed=1282)
table.set_up()
def marching(p):  # an Aragonese force in its operations, one step along its way at least
    moves = [o for o in table.model.view()["overlays"] if o["kind"] == "move"]
    return p.kind == "action" and p.phase == "operations-B" \
        and moves and len(moves[0]["path"]) >= 2 and any(o.verb == "move" for o in p.options)

while table.pending is not None and not marching(table.pending):
    table.auto()
table"""),
]


def screenshot(out: Path) -> None:
    """Run the scratch notebook in JupyterLab (headless chromium, offline), click *Choose*, photograph the app."""
    import re
    import tempfile
    import time
    from urllib.parse import urlparse

    from playwright.sync_api import sync_playwright

    sys.path.insert(0, str(ROOT / "tests"))
    from helpers_sample import cleared_copy, jupyter_lab, open_and_run_all

    nb = nbf.v4.new_notebook()
    nb.cells = SHOT_CELLS
    nb.cells[0]["id"] = "play-shot-00"
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    scratch = ROOT / "test-artifacts" / "play-shot-src" / "play-shot.ipynb"
    scratch.parent.mkdir(parents=True, exist_ok=True)
    nbf.write(nb, scratch)
    blocked: list[str] = []

    def route(r: object) -> None:
        url = r.request.url  # type: ignore[attr-defined]
        parts = urlparse(url)
        if parts.scheme in ("file", "data", "blob") or (parts.hostname or "") in ("localhost", "127.0.0.1", "::1"):
            r.continue_()  # type: ignore[attr-defined]
        else:
            blocked.append(url)
            r.abort()  # type: ignore[attr-defined]

    with tempfile.TemporaryDirectory() as tmp, jupyter_lab(Path(tmp), Path(tmp) / "lab.log") as lab, \
            sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path="/usr/bin/chromium",
                                     args=["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"])
        context = browser.new_context(viewport={"width": 1500, "height": 1600})
        context.route("**/*", route)
        page = context.new_page()
        open_and_run_all(page, lab, cleared_copy(scratch, ROOT / "test-artifacts" / "lab-play"))
        app = page.locator(".jp-OutputArea-output", has_text="Since your last move").first
        app.wait_for(timeout=150_000)
        page.wait_for_function("() => document.querySelector('.js-plotly-plot svg.main-svg')", timeout=60_000)
        page.add_style_tag(content=".Toastify__toast-container { display: none !important; }")
        prompt = app.locator(".widget-html", has_text=re.compile("next action")).first
        try:
            before = prompt.inner_text()
        except Exception:
            page.screenshot(path=str(ROOT / "test-artifacts" / "play-shot-failed.png"), full_page=True)
            raise
        select = app.locator("select").first
        labels = select.locator("option").all_inner_texts()  # ipywidgets shows spaces as no-break spaces
        move = next(i for i, t in enumerate(labels) if t.replace("\u00a0", " ").startswith("move to "))
        select.select_option(index=move)
        app.locator("button", has_text="Choose").first.click()
        deadline = time.monotonic() + 30
        while prompt.inner_text() == before:  # the kernel answers: the game moved on
            if time.monotonic() > deadline:
                raise RuntimeError("clicking Choose did not move the game on")
            time.sleep(0.2)
        page.wait_for_timeout(1500)  # let plotly.js repaint the map
        app.scroll_into_view_if_needed()
        app.screenshot(path=str(out))
        browser.close()
    if blocked:
        raise RuntimeError(f"the page tried to reach the network: {blocked[:5]}")
    print(f"wrote {out}")


def main() -> None:
    write_notebook(CELLS, "play-aragon", "play-aragon")


if __name__ == "__main__":
    main()
    if "--screenshot" in sys.argv[1:]:
        screenshot(ROOT / "docs" / "img" / "app-play.png")
