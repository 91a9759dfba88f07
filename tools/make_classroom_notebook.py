"""Write notebooks/classroom.ipynb: the no-code classroom app that `make classroom` serves (issue 16).

Run: .venv/bin/python tools/make_classroom_notebook.py   (committed with its outputs empty).
Voilà runs the notebook and shows only its outputs: the students see the Vespers replay, the dice
lab and a table to play Aragon, in three tabs, and no code. The same notebook opens in JupyterLab,
where a teacher can read how it is built; nbval runs it in `make test`.
"""

from __future__ import annotations

import nbformat as nbf
from nbwrite import write_notebook

md, code = nbf.v4.new_markdown_cell, nbf.v4.new_code_cell

CELLS = [
    md("""# The Sicilian Vespers, 1282 — classroom

*Mediterranean Empires* (Strategy & Tactics 330), scenario 13.0. Three apps, one button each:

* **Replay** — the war of 1282–1285 as the historical players fight it, phase by phase, with notes on
  what really happened. Step with the buttons or jump to a moment.
* **What if?** — pick any die of that war, give it another face, and press *Branch here*: the war is
  played again from that die with every other die kept, and the map shows what changed.
* **Play Aragon** — you are Peter III of Aragon; the computer plays France and Angevin Naples.
  Choose among the moves the rules allow; *Undo* takes a move back."""),
    code("""from medviz.apps import Classroom, DiceLab, PlayTable, ReplayViewer
from medviz.engine import play
from medviz.export.annotations import load_annotations
from medviz.rules.medempires.ruleset import RULESET
from medviz.rules.medempires.view import history_view

historical = RULESET.policies["historical"]()
history = play(RULESET, "vespers-1282", {}, seed=1490, players={"A": historical, "B": historical})
notes = load_annotations("annotations/vespers-1282.toml", history)
set_up = next(p.start for p in history.phases() if p.turn == 1)

classroom = Classroom({
    "Replay 1282–1285": lambda: ReplayViewer(history, view_at=history_view, annotations=notes, start=set_up),
    "What if? (dice lab)": lambda: DiceLab(history, view_at=history_view),
    "Play Aragon": lambda: PlayTable(scenario="vespers-1282", side="B", opponent="heuristic", seed=1282),
})
classroom"""),
]

if __name__ == "__main__":
    write_notebook(CELLS, "classroom", "classroom")
