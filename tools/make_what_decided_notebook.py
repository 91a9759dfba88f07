"""Write notebooks/what-decided-the-war.ipynb (the Vespers replay's win probability, its most pivotal
rolls and one what-if as a shifted distribution) from this script, outputs empty.

    .venv/bin/python tools/make_what_decided_notebook.py            # the notebook
    .venv/bin/python tools/make_what_decided_notebook.py --analyse  # and its cached analyses

The analyses take minutes (about 6,000 continuations); ``--analyse`` writes them to
``notebooks/analysis/`` (files named by the history's content hash and the settings), which is
committed, so the notebook (and its nbval run) reads them in a second. If the engine's rules change,
the history's hash changes: run ``--analyse`` again.
"""

from __future__ import annotations

import sys

import nbformat as nbf
from nbwrite import NOTEBOOKS, write_notebook

md, code = nbf.v4.new_markdown_cell, nbf.v4.new_code_cell

#: The analyses the notebook shows (the same settings make the same cache files).
SETUP = """from medviz.analysis import continue_history
from medviz.analysis.pivotal import pivotal
from medviz.analysis.winprob import win_probability
from medviz.engine import play
from medviz.rules.medempires.ruleset import RULESET
from medviz.viz.winprob import win_probability_figure

historical = RULESET.policies["historical"]()
history = play(RULESET, "vespers-1282", {}, seed=1490, players={"A": historical, "B": historical})
# Cached in analysis/ (tools/make_what_decided_notebook.py --analyse made them); absent, they are played here.
chart = win_probability(history, games=40, cache="analysis", progress=False)
swings = pivotal(history, budget=8, first=4, target=0.25, measure="vp_B", cache="analysis", progress=False)
print(history.outcome["reason"])"""

CELLS = [
    md("""# What decided the war? Luck and the Sicilian Vespers, 1282–1310

The replay of `vespers-1282.ipynb` (the historical players, seed 1490) ends as history did in the
south — Aragon's side holds both Sicilian areas and has taken Malta — but France and Anjou took
Rosselló, Upper Aragon and the Catalan counties on the way, and that makes it a French win (13.0:
Aragon must hold both Sicilian areas and Malta **and** lose none of its guarded lands).

Was it luck? A single replay cannot say. Here medviz plays the game on from every phase of the replay
many times — each continuation keeps everything up to that point as it was and rolls new dice
after it — and asks three questions:

1. **How likely was each side to win**, phase by phase?
2. **Which dice mattered?** For every roll and draw, the game is continued under each face it could
   have shown, on the *same* futures (common random numbers), and we measure how far the face shown
   moved the outcome.
3. **What if** the most pivotal die had fallen the other way — not one alternative story, but the
   whole distribution of outcomes?

The analyses are long (about 6,000 continuations); they are cached in `analysis/`, so this notebook
reads them. `medviz simulate` and `medviz pivotal` run the same analyses from a terminal, on local
processes or a Dask cluster (docs/scale.md)."""),
    code(SETUP),
    md("""## 1. Who wins from here?

After every phase, 40 continuations: the line is the share each side won, the band its 95% interval
(Wilson). Hover over a point for the phase and the count."""),
    code("""ranked = swings.ranked()
flags = [(r.seq, r.words) for r in ranked[:5]]
win_probability_figure(chart, history, flagged=flags, width=950)"""),
    code("""best = max(chart.points, key=lambda p: p["odds"]["B"]["share"])
print(f"Aragon's best chance at any moment: {best['odds']['B']['share']:.1%} "
      f"({best['odds']['B']['low']:.0%}-{best['odds']['B']['high']:.0%}), {best['label']}")"""),
    md("""The line hardly moves: from the set-up to the last phase, France and Anjou win all the
continuations, or all but a handful (the cell above prints Aragon's best chance at any moment), even
in this replay where Aragon keeps Sicily and takes Malta. Under 13.0 as these players play it, Aragon must keep every one of its guarded lands for three game
turns while holding Sicily and Malta; the French always break in somewhere. **The war was not decided
by the dice** — in this model it was decided by the victory conditions and the players' doctrine.

That makes a better question: what did the dice decide? Aragon's 13.0 score (`vp_B`: how many of the
two Sicilian areas and Malta it holds at the end) varies from 0 to 3. Which rolls moved it?"""),
    md("""## 2. The five rolls that moved Aragon's hold on Sicily and Malta

For each roll, the swing is the change in Aragon's expected score (out of 3) between the face shown and
the roll's average over its faces; ± is the 95% interval. Rolls on which no face changed any continuation
stopped after the first round (4 continuations per face); the others got a second round, 8 per face in
all — a small budget, so the intervals are wide (about ±0.5 of a point): the ranking is a first screen,
and `medviz pivotal --measure vp_B --budget 200` narrows every roll to about ±0.05 in some ten minutes of
CPU (49,264 continuations of this replay: 601 s of CPU, 16 minutes of wall time on one busy core)."""),
    code("""print("\\n".join(swings.lines(5)))"""),
    md("""Told as history:

- **Battles at sea and landings decide islands.** Sicily and Malta can only be reached by sea: the rolls
  that count most are the combat-table rolls of landings and of fleets meeting on the way, as at the
  Battle of Malta (July 1283), where Roger of Lauria destroyed the Angevin galleys and Malta passed to
  Aragon.
- **Operation points are distance.** A 2d6 for operation points (10.0) is how far a force can go and how
  many actions it gets: a high roll lets a fleet carry troops to an island and fight the same turn.
- **The swing is measured on the same futures.** Every face of a roll is played on the same continuation
  seeds, so the difference between faces is the roll's own effect, not the noise of different futures.

The list below gives each pivotal roll in full:"""),
    code("""for i, r in enumerate(ranked[:5], 1):
    swing, plus = r.swing()
    print(f"{i}. {swings.sentence(r)}")
    print(f"   swing {swing:+.2f} (±{plus:.2f}) of Aragon's 3 points, {r.n} continuations per face; {r.stopped}")"""),
    md("""## 3. One what-if, as a distribution

Take the most pivotal roll and play the game on from just before it, 30 times with the face it showed
and 30 times with the face that would have hurt Aragon most — the same 30 futures each time. The bars are
how often Aragon ended with 0, 1, 2 or 3 of its key areas."""),
    code("""import plotly.graph_objects as go

top = ranked[0]
worst = min((f for f, _p in top.faces), key=lambda f: top.mean(f)[0])
shown = continue_history(history, 30, at={top.key: top.value}, progress=False)
what_if = continue_history(history, 30, at={top.key: worst}, progress=False)
fig = go.Figure()
for label, sim, colour in ((f"as rolled ({top.value})", shown, "#1f77b4"), (f"what if {worst}", what_if, "#d62728")):
    counts = sim.frame["vp_B"].value_counts().reindex(range(4), fill_value=0)
    fig.add_bar(x=list(counts.index), y=list(counts.values), name=label, marker_color=colour)
fig.update_layout(barmode="group", width=700, height=320, xaxis_title="Aragon's key areas held at the end (vp_B)",
                  yaxis_title="continuations", title={"text": top.words.replace(": ", ":<br>", 1), "font": {"size": 12}})
fig"""),
    code("""for label, sim in (("as rolled", shown), ("what if", what_if)):
    w = sim.summary["winner"]
    print(label, {k: f"{v['share']:.0%} ({v['low']:.0%}-{v['high']:.0%})" for k, v in w.items()},
          "mean vp_B", sim.summary["means"]["vp_B"]["mean"])"""),
    md("""## 4. The chart under the replay

The same chart as a strip under the replay viewer's map (`ReplayViewer(win_probability=…)`): its
dotted line follows the replay, and a click on a red flag (a pivotal roll) moves the replay there and
opens the roll in the DiceLab below, where you can change it and see the branch. The exported page
draws the same strip: `medviz export vespers.json --html vespers.html` finds the analysis cached
beside the history (see docs/export.md)."""),
    code("""import ipywidgets as widgets

from medviz.apps import DiceLab, ReplayViewer
from medviz.rules.medempires.view import history_view

lab = DiceLab(history, view_at=history_view)
viewer = ReplayViewer(history, view_at=history_view, win_probability=chart, dicelab=lab,
                      pivotal=[(r.seq, r.key, r.words) for r in ranked[:5]])
widgets.VBox([viewer, lab])"""),
    md("""Even the most pivotal die shifts *how much* of Sicily and Malta Aragon keeps, not *who wins*: the
French still win every continuation. The lesson for a class: in this war, chance decided the map;
the rules of victory decided the war.

From a terminal, the same analyses:

```
medviz play vespers-1282 --seed 1490 --player-a historical --player-b historical --out vespers.json
medviz pivotal vespers.json --measure vp_B --budget 8 --first 4 --target 0.25 --workers 2
medviz simulate vespers-1282 --games 200 --from vespers.json --at ROLL_ID=1 --out what-if.parquet
```"""),
]


def analyse() -> None:
    """Play the notebook's analyses once and cache them in notebooks/analysis/ (minutes)."""
    import os

    os.chdir(NOTEBOOKS)
    (NOTEBOOKS / "analysis").mkdir(exist_ok=True)
    scope: dict[str, object] = {}
    exec(compile(SETUP.replace("progress=False", "progress=True"), "setup", "exec"), scope)  # noqa: S102


if __name__ == "__main__":
    write_notebook(CELLS, "what-decided-the-war", "decided")
    if "--analyse" in sys.argv[1:]:
        analyse()
