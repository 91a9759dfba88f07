"""Write the tutorial notebooks (one per mechanics module) and five-ways-to-fight, outputs empty.

Run: .venv/bin/python tools/make_tutorial_notebooks.py [NAME ...]   (default: all of them; the
notebooks are committed, this keeps their source reviewable as code). Every code cell also runs
top to bottom without a person at the keyboard (nbval) and asserts the numbers it shows.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import Any

import nbformat as nbf
from nbwrite import write_notebook

md, code = nbf.v4.new_markdown_cell, nbf.v4.new_code_cell


# ------------------------------------------------------------------------------------------------
# Variant Middle Sea
# ------------------------------------------------------------------------------------------------
def variant_middle_sea() -> list[Any]:
    """Cells of tutorial-variant-middle-sea: per-unit dice, leaders, a branched battle, three quizzes."""
    return [
        md("""# Variant Middle Sea — every unit rolls its own die

*Variant Middle Sea* (Wilf Backhaus, 1996/1999) is a variant of FGU's *Middle Sea*. Its battles are the
simplest of the rule sets medviz knows, and for that reason the easiest to reason about exactly.

**The mechanic, in our words** (the text has no rule numbers; we cite its sections by name):

- *Combat*: when enemy forces share a province or a sea zone, the player who moved in attacks. Every unit
  present rolls one six-sided die. A unit kills one enemy unit when its die reaches the **kill face** of
  its class and posture: attacking, defending in the open, or defending behind walls (land); attacking or
  defending at sea.
- Both sides roll before any loss is removed: fire is **simultaneous**, so a unit that dies still shoots.
- *Leaders* add to the dice of the group they are with: a one-star leader (x) +2 when attacking, the higher
  ranks (xx, xxx, xxxx) +1, +2, +3 when defending. Ships *manned with troops* add +1.
- Two things the text leaves open, which medviz states as choices: the owner removes losses (the odds take
  them from the last group of the force first), and whether a battle goes on after one exchange (option
  `rounds`: 1 by default, or `all` to fight until one side is gone). See
  `docs/rules-coverage-variant_middle_sea.md`.

Because each die is independent, the number of kills in one exchange is a sum of coin flips with known
weights; a whole battle is a chain of such exchanges. medviz computes its odds **exactly**, as fractions.

Run the cells from top to bottom (*Run → Run All Cells*)."""),
        code(r'''from fractions import Fraction

import ipywidgets as w
import pandas as pd

from medviz.apps import DiceLab
from medviz.apps.odds_chart import OddsExplorer, Quiz, distribution_figure, percent
from medviz.engine import FirstOptionPolicy, diff, play
from medviz.rules.variant_middle_sea.combat import kill_chance
from medviz.rules.variant_middle_sea.odds import hits_distribution
from medviz.rules.variant_middle_sea.ruleset import RULESET

rules = RULESET.rules
rows = []
for c in rules.classes.values():
    faces = [("attack", c.kill_on_attack), ("defence", c.kill_on_defence), ("defence behind walls", c.kill_on_defence_fort)]
    rows += [{"class": c.id, "name": c.name, "domain": c.domain, "posture": p, "kills on": f"{k}+",
              "chance per die": percent(kill_chance(k))} for p, k in faces if k is not None]
kill_faces = pd.DataFrame(rows)
assert rules.classes["INF"].kill_on_attack == 6 and rules.classes["INF"].kill_on_defence_fort == 4
assert rules.classes["GAL"].kill_on_attack == 5 and rules.classes["GAL"].kill_on_defence == 6
kill_faces'''),
        md("""Infantry attacks badly (only a 6 kills) and defends well behind walls (4+); cavalry kills on 5+ in
every posture. Galleys are good attackers and poor defenders — at sea the side that strikes first has
the edge.

## One exchange, exactly

Four infantry led by a one-star leader (+2: they kill on 4+) and two cavalry (5+) attack. The number of
kills is the sum of six independent dice with those chances; `hits_distribution` multiplies it out."""),
        code(r'''one_exchange = hits_distribution([(4, kill_chance(6 - 2)), (2, kill_chance(5))])
dist = {f"{k} kill{'s' if k != 1 else ''}": p for k, p in enumerate(one_exchange)}
assert sum(one_exchange) == 1
assert one_exchange[0] == Fraction(1, 2) ** 4 * Fraction(2, 3) ** 2  # every die misses: 1/36
distribution_figure(dist, title="Kills by 4 INF (x leader) and 2 CAV in one exchange", colors=["#1f5fa8"])'''),
        md("""## Try it yourself

Choose the two forces, the leaders, the walls and how long the battle lasts. The chart is redrawn with the
exact chance of each result (hover over a bar for the fraction). A leader goes with the first group of
its side."""),
        code(r'''OUTCOMES = {"attacker wins": "attacker_wins", "defender wins": "defender_wins",
            "both stand": "both_stand", "both destroyed": "both_destroyed"}
RANKS = ["none", "x", "xx", "xxx", "xxxx"]


def force(inf: int, cav: int, leader: str, walls: bool = False) -> str:
    """A SPEC such as 4INF@x,2CAV: the leader goes with the first group; walls for every group."""
    groups = [[f"{n}{cls}"] for n, cls in ((inf, "INF"), (cav, "CAV")) if n]
    if groups and leader != "none":
        groups[0].append("@" + leader)
    return ",".join("".join(g) + ("+fort" if walls else "") for g in groups)


def chances(attacker: str, defender: str, rounds: str) -> dict[str, Fraction]:
    """The exact chance of each result, from the ruleset's own odds."""
    exact = RULESET.battle_odds(attacker, defender, {"rounds": rounds})["exact"]
    return {label: Fraction(exact[key]) for label, key in OUTCOMES.items()}


def land_battle(a_inf: int, a_cav: int, a_leader: str, d_inf: int, d_cav: int, d_leader: str, walls: bool,
                rounds: str) -> dict[str, Fraction]:
    """The explorer's computation: the controls' values to the exact distribution."""
    return chances(force(a_inf, a_cav, a_leader), force(d_inf, d_cav, d_leader, walls), rounds)


controls = {
    "a_inf": w.IntSlider(4, 0, 8, description="att. INF"), "a_cav": w.IntSlider(2, 0, 6, description="att. CAV"),
    "a_leader": w.Dropdown(options=RANKS, value="x", description="att. leader"),
    "d_inf": w.IntSlider(5, 0, 8, description="def. INF"), "d_cav": w.IntSlider(0, 0, 6, description="def. CAV"),
    "d_leader": w.Dropdown(options=RANKS, value="none", description="def. leader"),
    "walls": w.Checkbox(True, description="defender behind walls"),
    "rounds": w.Dropdown(options=["1", "3", "all"], value="all", description="rounds"),
}
explorer = OddsExplorer(controls, land_battle, describe=lambda **v: (
    f"{force(v['a_inf'], v['a_cav'], v['a_leader']) or '—'} against "
    f"{force(v['d_inf'], v['d_cav'], v['d_leader'], v['walls']) or '—'}, rounds={v['rounds']}"))
assert f"{float(explorer.current['attacker wins']):.4f}" == "0.7067"
explorer'''),
        md("""What is the one-star leader worth in that battle? And a four-star leader inside the walls? The
explorer answers the same question the sliders do:"""),
        code(r'''with_x = explorer.current["attacker wins"]
without = explorer.set(a_leader="none")["attacker wins"]
walls_xxxx = explorer.set(a_leader="x", d_leader="xxxx")["attacker wins"]
explorer.set(d_leader="none")  # back to the first battle
print(f"attacker wins: with the x leader {percent(with_x)}, without {percent(without)}, "
      f"against a xxxx leader behind walls {percent(walls_xxxx)}")
assert without < with_x and walls_xxxx < with_x
assert (f"{float(with_x):.4f}", f"{float(without):.4f}") == ("0.7067", "0.1394")'''),
        md("""## A battle, replayed — and branched

The same battle, played out by medviz's engine: each side removes losses from the last group first (the
`first-option` player). Every die has an id that says what it is for: `battle-1/round-2/defender/g1-INF/unit-3`
is the third defending infantryman's die in round 2."""),
        code(r'''players = {"attacker": FirstOptionPolicy(), "defender": FirstOptionPolicy()}
battle = {"attacker": "4INF@x,2CAV", "defender": "5INF+fort", "rounds": "all"}
history = play(RULESET, "battle", battle, seed=4, players=players)


def faces(h, rnd: int, side: str) -> list[int]:
    """The dice ``side`` rolled in round ``rnd`` of history ``h``."""
    return [r.value for r in h.rolls() if r.roll.startswith(f"battle-1/round-{rnd}/{side}/")]


def show(h) -> None:
    """Each round's dice and losses, then the result."""
    for rnd in range(1, h.outcome["rounds"] + 1):
        print(f"round {rnd}: attacker rolls {faces(h, rnd, 'attacker')}, defender rolls {faces(h, rnd, 'defender')}")
    print("result:", h.outcome["result"], "| losses:", h.outcome["losses"])


show(history)
assert history.outcome["result"] == "defender" and history.outcome["rounds"] == 3'''),
        md("""An upset: the attacker had a 71% chance and lost. Defenders behind walls kill on 4+. Take the first
defending die that killed in the last round and make it a 1. `History.branch` re-runs the battle from the
snapshot before that die; every other die keeps its value, because dice are addressed by meaning."""),
        code(r'''last = history.outcome["rounds"]
die = next(r for r in history.rolls() if r.roll.startswith(f"battle-1/round-{last}/defender/") and r.value >= 4)
branch = history.branch(die.roll, 1)
print(f"changed {die.roll}: {die.value} -> 1\n")
show(branch)
print()
print(diff(history, branch).summary(history.describe))
assert branch.outcome["result"] == "both destroyed" and branch.outcome["rounds"] == 4'''),
        md("""One die turns a defender's victory into mutual destruction a round later: the surviving attacker and
the last defender kill each other in the same exchange. The Dice Lab lets you try any die (pick a roll,
a face, press *Branch here*):"""),
        code(r'''DiceLab(history)'''),
        md("""## Exercises

Work each answer out on paper, then type it in (a fraction, a decimal or a percentage). The notebook
computes the right answer from the same exact odds."""),
        code(r'''q1 = 1 - hits_distribution([(4, kill_chance(6))])[0]
assert q1 == 1 - Fraction(5, 6) ** 4 == Fraction(671, 1296)
quiz1 = Quiz("1. Four infantry attack in the open, no leader. What is the chance they kill at least one "
             "defender in one exchange?", q1, explain="Each die misses with 5/6; all four miss with (5/6)^4.")
assert quiz1.is_right("671/1296") and quiz1.is_right("51.8%") and not quiz1.is_right("2/3")
quiz1'''),
        code(r'''q2 = 1 - hits_distribution([(4, kill_chance(6 - 2))])[0]
assert q2 == Fraction(15, 16)
quiz2 = Quiz("2. A one-star leader (x) joins the same four. The chance of at least one kill now?", q2,
             explain="+2 turns 'a 6' into '4, 5 or 6': each die misses with 1/2, all four with 1/16.")
assert quiz2.is_right("0.9375")
quiz2'''),
        code(r'''q3 = chances("3INF", "3INF+fort", "all")["defender wins"]
quiz3 = Quiz("3. Three infantry attack three infantry behind walls and fight to the end. "
             "What is the chance the defender wins?", q3,
             explain="Attackers kill on 6, defenders behind walls on 4+: the walls are worth far more than numbers.")
assert q3 > Fraction(3, 4) and quiz3.is_right(str(q3))
quiz3'''),
    ]


NOTEBOOKS: dict[str, tuple[str, Callable[[], list[Any]]]] = {
    "tutorial-variant-middle-sea": ("vms", variant_middle_sea),
}


def main(names: list[str]) -> None:
    """Write the notebooks named (all when none)."""
    for name in names or list(NOTEBOOKS):
        prefix, cells = NOTEBOOKS[name]
        write_notebook(cells(), name, prefix)


if __name__ == "__main__":
    main(sys.argv[1:])
