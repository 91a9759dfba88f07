"""Write notebooks/vespers-1282.ipynb (the annotated replay) from this script, outputs empty.

Run: .venv/bin/python tools/make_vespers_notebook.py   (the notebook is committed; this keeps its
source reviewable as code).

The replay's seed (``SEED``) is one that teaches the real war (``teaches_the_war``): with the
historical players on both sides, Aragon's side holds both Sicilian areas and Malta at the end, it
fights for Malta in GT1 (1283), Philip III dies in GT1 (1285), and a naval battle is fought in the
sea on Malta's coast (the what-if below). Pick it again whenever the players change; among such
seeds keep the one in use, since the classroom and what-decided notebooks and their tests replay it
too. After issue 10's historical decisions seeds 107, 141, 155, 190, 191, 236, 243, 254, 270, 293
and 298 of 0-299 qualify, and 1490 (before them it did not: Aragon ended with Malta alone).
"""

from __future__ import annotations

from typing import Any

import nbformat as nbf
from nbwrite import write_notebook
from vespers_why import history_marks

md, code = nbf.v4.new_markdown_cell, nbf.v4.new_code_cell

SEED = 1490


def teaches_the_war(history: Any) -> bool:
    """The replay keeps Sicily and Malta Aragonese, fights for Malta in GT1, loses Philip III in GT1, fights off Malta at sea."""
    s = history.final_state
    ctl = history.outcome["control"]
    return (all(ctl.get(a) == "B" for a in ("sicily_west", "sicily_east", "malta"))
            and history_marks(history)["Malta fought for in GT1"]
            and {"king": "philip_iii", "turn": 1} in [{"king": k["king"], "turn": k["turn"]} for k in s.chronicle["kings_died"]]
            and any(b["kind"] == "sea" and b["area"] in s.map.areas["malta"].coasts and b["results"]
                    for b in s.chronicle["battles"]))

CELLS = [
    md("""# The War of the Sicilian Vespers, 1282–1310 — an annotated replay

*Mediterranean Empires* (Strategy & Tactics 330), scenario 13.0: three game turns of ten years each.
**Player A** is France and Angevin Naples (blues); **Player B** is Aragon with its Sicilian allies
(red and gold). Aragon wins only if, at the end, it holds **both Sicilian areas** (Val di Mazara; Val
Demone and Val di Noto) **and Malta**, **and** it kept France from taking **any** of the four Aragonese
areas — **Upper Aragon, Rosselló, the Catalan counties and Urgell** — at any moment of the game.
Anything else is a French and Angevin victory (rule 13.0; medviz counts an area as taken once Player A
held it in total control, even for a moment: see `docs/rulings.md`).

Both sides are played by medviz's **historical players**: they steer toward what really happened —
Peter III's landing in Sicily, the naval war around Malta and Naples, the French crusade into Catalonia
in 1285 — wherever the dice allow, and play sensibly once history is out of reach. Notes in the margin
tie the game to the dated history; they come from `annotations/vespers-1282.toml`, a file you can copy
and edit for your own replays (see `docs/annotations.md`).

The replay below is the game of seed 1490, one that teaches the real war. Peter III's army lands in
Sicily and Anjou never wins the island back; Aragonese troops besiege and take Malta in the first
decade (Malta was Aragonese from July 1283), carry the war into Calabria, and win a sea battle off
Malta in the last decade. Philip III dies in the first decade (in battle here; at Perpignan in 1285
in history) and Philip IV follows him (8.1). But the French crusade breaks into Rosselló, Upper
Aragon and the Catalan counties, as Philip III took Girona in 1285 — and under 13.0 that alone is a
French win, though Aragon's side ends holding both Sicilian areas and Malta, as history did. Change
the seed to play another war.

Run the cells from top to bottom (*Run → Run All Cells*)."""),
    code("""from medviz.engine import play, diff
from medviz.rules.medempires.ruleset import RULESET
from medviz.rules.medempires.view import history_view
from medviz.export.annotations import load_annotations
from medviz.viz import state_map
from medviz.apps import ReplayViewer, DiceLab

historical = RULESET.policies["historical"]()
history = play(RULESET, "vespers-1282", {}, seed={SEED}, players={"A": historical, "B": historical})
notes = load_annotations("annotations/vespers-1282.toml", history)
print(f"{len(history):,} events, {len(history.rolls())} dice rolls and draws")
print("Outcome:", history.outcome["winner"], "—", history.outcome["reason"])""".replace("{SEED}", str(SEED))),
    md("""## The board in 1282

The players have placed their counters (rule 3.0: Player A first, then Player B, then the neutral,
vassal and allied powers, each by the player the rules name; the replay below shows every
placement). Each land area is coloured by who controls it (rule 3.4); neutral powers keep their own colours,
allies are dotted and vassals cross-hatched in their side's colour. Badges count the units of each
power (FA field army, L levy, R raiders, M mercenaries, F fleet; ♛ a King)."""),
    code("""set_up = next(p.start for p in history.phases() if p.turn == 1)  # the first event of game turn 1
board = state_map(history_view(history, set_up), height=750)
board.update_layout(width=None, autosize=True)  # as wide as the notebook (its panel is laid out for 1,200 px)"""),
    md("""## Step through the war

Press ▶ to play, or drag the slider; the drop-down jumps to a turn and phase. The step's line of the
log and its note sit above the map, the log around it below; the map is drawn as tall as your screen
has room for. **Full screen** (top right) shows the viewer alone on the screen, for a projector."""),
    code("""ReplayViewer(history, view_at=history_view, annotations=notes, start=set_up)  # step back to watch the set-up"""),
    md("""## Where the game and history agree — and where they part"""),
    code("""import pandas as pd

from medviz.rules.medempires.gamedata import default_game_data
from medviz.rules.medempires.mapdata import load_map

kings, areas = default_game_data().kings, load_map().areas  # names of the Kings and areas, by id
chronicle = history.final_state.chronicle
control = history.outcome["control"]
facts = [
    ("Sicily stays with Aragon's side (Caltabellotta, 1302)", "Aragon's ally holds both areas",
     "held" if control.get("sicily_west") == "B" and control.get("sicily_east") == "B" else "lost"),
    ("Malta passes to Aragon (Lauria, July 1283)", "Aragon takes Malta",
     "taken" if control.get("malta") == "B" else "not taken"),
    ("The French crusade of 1285 takes Girona, then retreats", "France takes a Catalan area during the game",
     ", ".join(areas[a].name for a in history.final_state.taken) or "none taken"),
    ("All three kings die in 1285", "Kings who died in the game",
     ", ".join(f"{kings[k['king']].name} (turn {k['turn']})" for k in chronicle["kings_died"]) or "none"),
    ("Popes die in 1285 (Martin IV), 1287 (Honorius IV), 1292 (Nicholas IV), 1296 (Celestine V, who had "
     "abdicated in 1294), 1303 (Boniface VIII) and 1304 (Benedict XI)", "Popes who died in the game",
     str(len(chronicle["popes_died"]))),
]
pd.DataFrame(facts, columns=["history", "in the game", "this replay"])"""),
    code("""def battle_row(b):
    other = {"A": "B", "B": "A"}[b["attacker"]]
    winner = {"attacker": f"Player {b['attacker']}", "defender": f"Player {other}"}.get(b["winner"], "nobody")
    return {"game turn": b["turn"], "where": areas[b["area"]].name, "at": "sea" if b["kind"] == "sea" else "land",
            "attacker": f"Player {b['attacker']}", "results (Combat Results)": ", ".join(b["results"]) or "no combat",
            "winner": winner, "units left: attacker / defender": f"{b['left']['attacker']} / {b['left']['defender']}"}

battles = pd.DataFrame([battle_row(b) for b in chronicle["battles"]])
battles.head(20) if len(battles) else "no battles were fought\""""),
    md("""## What if? Change a die of the war at sea

Every die has an id that says what it is for, so we can change exactly one of them and let the game
run on from there; every other die that is rolled for the same purpose keeps its value. On 8 July
1283 Roger of Lauria destroyed the Angevin relief fleet in Malta's Grand Harbour. Below we take the
**naval** battles of this replay, those in the sea on Malta's coast (the Strait of Sicily) first if
there are any (in this replay Aragon's fleet attacks there in the last decade), and
read the exact effect of every face of each deciding roll on the battle table. We keep only faces
whose result differs from the one rolled, try the one farthest from it first, and stop at the first
change that leaves some area in other hands at the end of the war — a what-if the map can show."""),
    code("""from medviz.engine import ChangeEvent
from medviz.apps import BranchCompare

rs = history.ruleset
off_malta = {a for a, area in areas.items() if area.kind == "sea" and "malta" in area.coasts}
results = ["CA", "NE", "BB", "DV", "DV+S"]  # the roller's worst result to its best (Combat Results)

def deciding_rolls(battle):
    prefix = battle.data["prefix"] + "/"
    return [r for r in history.rolls() if getattr(r, "roll", "").startswith(prefix) and "/round-" in r.roll]

def other_faces(roll):  # faces whose result differs from the one rolled, the farthest from it first
    shown = results.index(roll.effects[str(roll.value)])
    faces = [int(f) for f, r in roll.effects.items() if r != roll.effects[str(roll.value)]]
    return sorted(faces, key=lambda f: -abs(results.index(roll.effects[str(f)]) - shown))

naval = [e for e in history.events if isinstance(e, ChangeEvent) and e.change == "battle-opened"
         and e.data["kind"] == "sea" and deciding_rolls(e)]
naval.sort(key=lambda e: e.data["area"] not in off_malta)
what_if = None
for battle in naval:
    roll = deciding_rolls(battle)[-1]
    for face in other_faces(roll):
        branch = history.branch(roll.roll, face)
        if branch.outcome["control"] != history.outcome["control"]:
            what_if = branch
            break
    if what_if:
        break
if what_if:
    rolled, tried = roll.effects[str(roll.value)], roll.effects[str(face)]
    key = dict(rs.result_key(roll))
    print(f"The roll: {rs.describe_roll(history, roll)}.")
    print(f"As played it showed {roll.value}: {rolled} — {key.get(rolled, '')}")
    print(f"What if it had shown {face}: {tried} — {key.get(tried, '')}")
    print()
    print("As played:", rs.describe_outcome(history) + ".")
    print("What if:  ", rs.describe_outcome(what_if) + ".")
else:
    print("no naval battle of this replay changes an area's owner with another face: change the seed")"""),
    md("""The two wars side by side: the map at the end of the phase in which the die was rolled, and at
the end of the game. The areas that look different are outlined on both maps."""),
    code("""BranchCompare(what_if, view_at=history_view) if what_if else None"""),
    md("""## Your turn: the dice lab

It opens on the roll of the what-if above. Pick any roll, see how likely it was and what each face
would have meant (the key says what each result does), change it and watch the branch appear; the
branch tree keeps everything you explored."""),
    code("""DiceLab(history, view_at=history_view, roll=roll.roll if what_if else None)  # opens on the what-if's roll"""),
]


def main() -> None:
    write_notebook(CELLS, "vespers-1282", "vespers")


if __name__ == "__main__":
    main()
