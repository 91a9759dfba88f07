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


# ------------------------------------------------------------------------------------------------
# Empire's Revolt
# ------------------------------------------------------------------------------------------------
def empires_revolt() -> list[Any]:
    """Cells of tutorial-empires-revolt: the dice-off, runs of fights, a branched fight, three quizzes, a whole game on the map."""
    return [
        md("""# Empire's Revolt — the highest die wins

*Empire's Revolt* (Ian Hacker, 2018, a set of blog rules for a 300 BCE Mediterranean) settles every fight
with a **dice-off**. medviz cites the post's items as "rule N".

**The mechanic, in our words:**

- The attacker rolls as many dice as the A number of its capital card; the defender rolls its D number, or
  the defence dice of the territory attacked (rules 3, 18-21). Whoever shows the **single highest die** wins;
  if the two highest dice are equal, both sides roll again (rule 22) — as often as it takes.
- Landing from a ship adds one attack die (rule 28); every ship supporting from the coast adds another (rule 29).
- Army against army, the loser's army dies and a winning attacker stays where it was (rule 24). An army that
  attacks out of its own capital is not destroyed when it loses (rule 8). Ships fight ships with one die each
  (rule 32).
- Several armies fight one after another: a **run of fights**, each one killing one army.

Only the highest die counts, so an extra die helps less each time; and nothing but the number of dice
matters — there are no leaders and no modifiers. The exact odds of one dice-off have a closed form: a
throw is won, lost or tied, and the ties form a geometric series.

Run the cells from top to bottom (*Run → Run All Cells*)."""),
        code(r'''from fractions import Fraction

import ipywidgets as w
import pandas as pd

from medviz.apps import DiceLab
from medviz.apps.odds_chart import OddsExplorer, Quiz, distribution_figure, percent
from medviz.engine import diff, play
from medviz.rules.empires_revolt import combat
from medviz.rules.empires_revolt.odds import dice_off, fight_odds_of
from medviz.rules.empires_revolt.ruleset import RULESET

table = pd.DataFrame({f"{d} defence dice": {f"{a} attack dice": percent(dice_off(a, d).attacker)
                                            for a in range(1, 5)} for d in range(1, 5)})
assert dice_off(1, 1).attacker == Fraction(1, 2) and dice_off(1, 1).throw_tie == Fraction(1, 6)
# 2 dice against 1, by hand: a throw is won with 125/216, lost with 55/216, so the dice-off with 125/180
assert dice_off(2, 1).attacker == Fraction(125, 180) == Fraction(25, 36)
table'''),
        md("""Read a row: with 2 dice against 1 the attacker wins 25/36 (69%) of dice-offs; a third die adds less than
the second did. Equal dice are always 50%: the rule has no bias toward attacker or defender.

## Try it yourself

Set up a run of fights. The chart shows the exact chance of every end: which side is left (blue the
attacker, red the defender), and with how many armies (hover for the fraction)."""),
        code(r'''DEFENDERS = ["army", "blank", "blank+city", "own-revolt", "other-revolt", "vacated", "illyria"]


def attacker_spec(armies: int, dice: int, convoy: bool, support: int, capital: bool) -> str:
    """An attacker SPEC such as 3xA2+support1."""
    return (f"{armies}xA{dice}" + ("+convoy" if convoy else "") + (f"+support{support}" if support else "")
            + ("+capital" if capital else ""))


def defender_spec(kind: str, d_dice: int, d_armies: int) -> str:
    """A defender SPEC: N armies of D dice, or a territory (one place)."""
    return f"{d_armies}xarmy:D{d_dice}" if kind == "army" else kind


def ends(attacker: str, defender: str) -> dict[str, Fraction]:
    """The exact chance of each end of the run of fights: the winner and what it has left."""
    b = combat.new_battle({"attacker": attacker, "defender": defender}, RULESET.rules)
    odds = fight_odds_of(b)
    out: dict[str, Fraction] = {}
    for (a, d), p in sorted(odds.distribution.items(), key=lambda kv: (-kv[0][0], kv[0][1])):
        label = f"attacker, {a} left" if d == 0 else f"defender, {d} left"
        out[label] = out.get(label, Fraction(0)) + p
    return out


def fight(armies: int, dice: int, convoy: bool, support: int, capital: bool, kind: str, d_dice: int,
          d_armies: int) -> dict[str, Fraction]:
    """The explorer's computation: the controls' values to the exact distribution."""
    return ends(attacker_spec(armies, dice, convoy, support, capital), defender_spec(kind, d_dice, d_armies))


controls = {
    "armies": w.IntSlider(3, 1, 5, description="att. armies"), "dice": w.IntSlider(2, 1, 4, description="A dice"),
    "convoy": w.Checkbox(False, description="landing from a ship (+1)"),
    "support": w.IntSlider(0, 0, 3, description="ships (+1 each)"),
    "capital": w.Checkbox(False, description="from the capital"),
    "kind": w.Dropdown(options=DEFENDERS, value="army", description="defender"),
    "d_dice": w.IntSlider(2, 1, 4, description="D dice"), "d_armies": w.IntSlider(3, 1, 5, description="def. armies"),
}
def side_colour(label: str) -> str:
    """Blue when the attacker is left, red when the defender is."""
    return "#1f5fa8" if label.startswith("attacker") else "#b8322a"


explorer = OddsExplorer(controls, fight, colors=side_colour, describe=lambda **v: (
    f"{attacker_spec(v['armies'], v['dice'], v['convoy'], v['support'], v['capital'])} against "
    f"{defender_spec(v['kind'], v['d_dice'], v['d_armies'])}"))
assert sum(explorer.current.values()) == 1
assert explorer.current["attacker, 3 left"] == Fraction(1, 8)  # three dice-offs in a row at 1/2
explorer'''),
        md("""Three armies against three with equal dice: either side wins half the time, and a clean sweep (3 left)
takes three won dice-offs in a row, 1/8. One supporting ship changes the picture:"""),
        code(r'''even = sum(p for k, p in explorer.current.items() if k.startswith("attacker"))
supported = sum(p for k, p in explorer.set(support=1).items() if k.startswith("attacker"))
explorer.set(support=0)
print(f"attacker wins the run of fights: {percent(even)} with equal dice, {percent(supported)} with one ship in support")
assert even == Fraction(1, 2) and f"{float(supported):.4f}" == "0.7278"'''),
        md("""## A fight, replayed — and branched

Three armies of two dice attack three of two dice. Every die has an id that says what it is for:
`fight-1/throw-2/defender/die-1` is the defender's first die on the second throw (after a tie) of the first fight."""),
        code(r'''history = play(RULESET, "battle", {"attacker": "3xA2", "defender": "3xarmy:D2"}, seed=4, players={})


def show(h) -> None:
    """Each throw's dice and each fight's winner, then the end."""
    for e in h:
        if e.kind == "change" and e.change == "er-fight":
            k = e.data["fight"]
            throws = [(r.roll.split("/")[1], r.roll.split("/")[2], r.value) for r in h.rolls() if r.roll.startswith(f"fight-{k}/")]
            dice = {}
            for throw, side, v in throws:
                dice.setdefault(throw, {}).setdefault(side, []).append(v)
            print(f"fight {k}: " + "; ".join(f"{t}: attacker {d['attacker']} defender {d['defender']}" for t, d in dice.items())
                  + f" -> {e.data['winner']} wins")
    print("end:", h.outcome["winner"], "wins with", h.outcome["left"])


show(history)
assert history.outcome["winner"] == "defender" and history.outcome["left"] == {"attacker": 0, "defender": 3}'''),
        md("""A clean sweep for the defender. Its first fight was won by a single 6 against the attacker's 5. Make that
6 a 1 and re-run from the snapshot before it; every other die keeps its value (dice are addressed by meaning)."""),
        code(r'''branch = history.branch("fight-1/throw-1/defender/die-2", 1)
show(branch)
print()
print(diff(history, branch).summary(history.describe))
assert branch.outcome["winner"] == "attacker" and branch.outcome["left"] == {"attacker": 1, "defender": 0}'''),
        md("""One die reverses the whole run: the attacker now wins the first fight, and the later fights — dice
unchanged, but fought between different armies — go the other way too. Try any die in the Dice Lab:"""),
        code(r'''DiceLab(history)'''),
        md("""## Exercises

Type a fraction, a decimal or a percentage; the notebook checks it against the exact odds."""),
        code(r'''q1 = dice_off(1, 1).throw_tie
assert q1 == Fraction(6, 36)
quiz1 = Quiz("1. One die against one die: what is the chance that a single throw is a tie (and must be rolled again)?",
             q1, explain="Six of the 36 pairs of faces are doubles.")
assert quiz1.is_right("1/6") and not quiz1.is_right("1/36")
quiz1'''),
        code(r'''q2 = dice_off(3, 2).attacker
quiz2 = Quiz("2. An A2 army attacks an army of D2 with one supporting ship (3 dice against 2). "
             "What is the attacker's chance to win the dice-off, ties rolled again?", q2,
             explain="Per throw: win w, lose l; ties repeat, so the answer is w / (w + l).")
one = dice_off(3, 2)
assert q2 == one.throw_attacker / (one.throw_attacker + one.throw_defender) and quiz2.is_right(str(q2))
quiz2'''),
        code(r'''q3 = dice_off(2, 2).expected_throws
quiz3 = Quiz("3. Two dice against two: how many throws does a dice-off take on average?", q3, unit="number",
             tolerance=Fraction(1, 100), explain="A throw decides with chance 1 - t, so it takes 1 / (1 - t) throws on average.")
assert 1 < q3 < Fraction(3, 2) and quiz3.is_right(f"{float(q3):.3f}")
quiz3'''),
        md("""## A whole game on the map of 300 BCE

The scenarios `conquest-2`, `conquest-3` and `conquest-4` play the whole game for 2, 3 or 4 players on a small
**reconstructed** map of the Mediterranean of 300 BCE (23 land regions, 7 sea zones; the post's own map is only
a picture we do not have, so every region, border and resource is a reconstruction that says why). Each player
draws a capital card (rule 2) and starts with its capital, one army and one of each resource (rules 6-7). A turn:
collect resources from regions with an army or a settlement (rule 63), pay upkeep or sacrifice (rule 64), then
act: raise armies, build ships, settlements and fortifications, hire mercenaries; every army has one action —
march or attack with the dice-off above, board a ship, land from it with a die more (rules 14-30). A player wins
by holding the resource regions of its player count (rules 71-73), six cities for a whole round (rule 76), or
by being the last whose capital stands (rule 70). Where the post is silent, medviz rules and says so (see
`docs/rules-coverage-empires_revolt.md`) — e.g. a game stops after 40 rounds and the player nearest the resource
target wins."""),
        code(r'''from medviz.engine.policy import RandomPolicy
from medviz.rules.empires_revolt.players import HeuristicPolicy
from medviz.viz import state_map

game = play(RULESET, "conquest-3", {}, seed=4, players={"A": HeuristicPolicy(), "B": RandomPolicy(41), "C": HeuristicPolicy()})
for line in RULESET.summary_lines(game, RULESET.summary(game)):
    print(line)
assert game.outcome["winner"] and set(game.outcome["scores"]) == {"A", "B", "C"}'''),
        md("""The map half-way through: every region in the colour of the player who holds it, ⚔ armies and ⚓ ships
under the names, the panel with each player's stock and its regions against the target. Hover a region for what
it produces and who holds it."""),
        code(r'''turns = [e for e in game.events if e.kind == "change" and e.change == "er-turn"]
middle = turns[len(turns) // 2].seq
view = RULESET.view_at(game, middle)
assert set(view["owner"].values()) <= {"A", "B", "C"}
state_map(view, ruleset=RULESET, width=1100, height=660, fit_height=True)  # only as tall as the wide map needs'''),
        md("""Step through the whole game, or change any die of any fight in the Dice Lab and see where the game goes
instead (the branch re-runs from the turn before the die; the players decide again where the board differs)."""),
        code(r'''first_fight = next(r for r in game.rolls() if "/fight/throw-1/attacker/die-1" in getattr(r, "roll", ""))
branch = game.branch(first_fight.roll, 1 if first_fight.value != 1 else 6)
print(diff(game, branch).summary(game.describe))
assert branch.parent is game and branch.roll(first_fight.roll).value != first_fight.value
DiceLab(game)'''),
    ]


# ------------------------------------------------------------------------------------------------
# Empires of the Middle Ages
# ------------------------------------------------------------------------------------------------
def empires_middle_ages() -> list[Any]:
    """Cells of tutorial-empires-middle-ages: a card read at a rating, a branched endeavour, three quizzes."""
    return [
        md("""# Empires of the Middle Ages — a card read at a rating

*Empires of the Middle Ages* (SPI) has no battle dice at all. A ruler undertakes an **endeavour** — conquest,
pillage, diplomacy, fortification or ruling — and turns over a **year card**. Each card lists, for every
endeavour, results that apply only at some **effectiveness ratings**. Only a fragment of the rules
(10.3x–16.2) survives in our sources; medviz cites its rule numbers.

**The mechanic, in our words:**

- The rating the card is read at starts from the leader's effectiveness, plus rating points bought with gold
  (9.33). Fortifications subtract their strength (14.31). If the owner answers with a **defense endeavour**,
  its combat stature and the gold it spends come off too (13.21); so do earlier conquest results against the
  attacker's own base (10.33). Diplomacy loses an opponent's diplomatic stature, or 3 against independents, 5
  against Venice or a magnate (12.17–12.20).
- A result such as `-1(5>)` applies from rating 5 up; `-1(<2)` below 2 (11.2, 15.2). `C` is one conquest
  result: an area falls when its C results reach its population (10.3). `G` sends the pillager to the
  Pillage/Plunder table, one die (11.3).
- When a defended endeavour's rating drops **below zero**, every result that would help the attacker is
  ignored (13.22): defence is a wall, not a dice modifier.

**The year cards are not in the text.** medviz ships a five-card sample, **invented and marked illustrative**,
so every number below is about that sample; load your own cards with `EmpiresMiddleAges(cards=PATH)` (see
`docs/rules-coverage-empires_middle_ages.md`). Luck here is one card out of the deck, and sometimes one die.

Run the cells from top to bottom (*Run → Run All Cells*)."""),
        code(r'''from fractions import Fraction

import ipywidgets as w
import pandas as pd

from medviz.apps import DiceLab
from medviz.apps.odds_chart import OddsExplorer, Quiz, distribution_figure, percent
from medviz.engine import FirstOptionPolicy, diff, play
from medviz.rules.empires_middle_ages.odds import rating_table
from medviz.rules.empires_middle_ages.ruleset import RULESET

cards = RULESET.cards
assert cards.illustrative and len(cards.cards) == 5
deck = pd.DataFrame({cid: {k: " ".join(r.code for r in v) or "—" for k, v in res.items()}
                     for cid, res in cards.cards.items()})
deck'''),
        md("""## The rating is a set of thresholds

Pillage at every rating from -2 to 6, undefended. The card decides *what kind* of result you get; the rating
only moves the conditional results: below 2 the pillager's own base suffers (`-1(<2)`), from 3 or 5 up the
target does. The plunder roll (`G`) needs no rating at all."""),
        code(r'''NAMES = {"conquest": "C (conquest)", "tie": "T (tie)", "target-1": "target -1", "target+1": "target +1",
         "base-1": "own base -1", "fortify": "F (fortify)", "plunder-roll": "G (plunder roll)", "nothing": "nothing"}
pillage = rating_table({"endeavour": "pillage"}, range(-2, 7))
pd.DataFrame({r: {NAMES.get(k, k): (percent(v, 0) if k != "expected_gold" else f"{float(v):.2f}")
                  for k, v in row.items()} for r, row in pillage.items()})'''),
        code(r'''gold_table = RULESET.rules.plunder_gold
at5 = pillage[5]
gold = {0: 1 - at5["plunder-roll"]}
for face, g in gold_table.items():
    gold[g] = gold.get(g, Fraction(0)) + at5["plunder-roll"] * Fraction(1, 6)
gold_dist = {f"{g} gold": p for g, p in sorted(gold.items())}
assert sum(gold.values()) == 1 and sum(g * p for g, p in gold.items()) == at5["expected_gold"] == Fraction(9, 10)
distribution_figure(gold_dist, title="Gold from one pillage at rating 5: a card, then (on G) one die", colors=["#d08c2a"])'''),
        md("""## Try it yourself

Choose the endeavour, the leader's effectiveness and what stands against him. The chart shows the exact
chance of each kind of result — a card may carry two, so the bars need not add up to 100%. A combination the
rules forbid (a defense against diplomacy, a fortification of strength 1) is refused with its rule number."""),
        code(r'''def endeavour(kind: str, rating: int, gold: int, fort: int, defended: bool, stature: int, d_gold: int) -> dict[str, Fraction]:
    """The explorer's computation: the exact chance of each kind of result, from the ruleset's own odds."""
    attacker = f"{kind}:{rating}" + (f"+gold{gold}" if gold else "")
    items = ([f"fort{fort}"] if fort else []) + ([f"defend{stature}", f"dgold{d_gold}"] if defended else [])
    exact = RULESET.battle_odds(attacker, ",".join(items), {})["exact"]
    return {NAMES[k]: Fraction(v) for k, v in exact.items() if k in NAMES}


def title(kind: str, rating: int, gold: int, fort: int, defended: bool, stature: int, d_gold: int) -> str:
    """The effective rating the card is read at, in words."""
    spent = rating + gold - (fort if kind in ("conquest", "pillage") else 0) - ((stature + d_gold) if defended else 0)
    return f"{kind} at effective rating {spent}" + (" — below zero: helpful results ignored (13.22)" if defended and spent < 0 else "")


controls = {
    "kind": w.Dropdown(options=["conquest", "pillage", "diplomacy", "fortification", "ruling"], value="conquest",
                       description="endeavour"),
    "rating": w.IntSlider(3, -3, 8, description="effectiveness"), "gold": w.IntSlider(0, 0, 3, description="gold (+1 each)"),
    "fort": w.Dropdown(options=[0, 2, 3], value=0, description="fortification"),
    "defended": w.Checkbox(True, description="defense endeavour (13.0)"),
    "stature": w.IntSlider(2, 0, 5, description="combat stature"), "d_gold": w.IntSlider(0, 0, 3, description="def. gold"),
}
explorer = OddsExplorer(controls, endeavour, describe=title)
assert explorer.current["C (conquest)"] == Fraction(3, 5)  # rating 3 - 2 = 1: three cards in five carry a C
assert explorer.set(fort=2)["C (conquest)"] == 0  # rating -1, defended: the C is ignored (13.22)
explorer.set(fort=0)
explorer'''),
        md("""In this sample deck the leader's effectiveness works like a key: any rating from 0 up opens the same three conquest
cards, and one point below zero shuts them all. A better leader does not make a conquest more likely here —
he keeps the door open against forts, stature and gold.

## An endeavour, replayed — and branched

A leader of effectiveness 5 pillages an undefended area. The draw has an id, `endeavour-1/active/year-card`,
so we can ask: what if another card had come up?"""),
        code(r'''players = {"active": FirstOptionPolicy(), "defender": FirstOptionPolicy()}
history = play(RULESET, "endeavour", {"endeavour": "pillage", "rating": 5}, seed=4, players=players)
for e in history:
    if e.kind in ("draw", "roll", "change"):
        print(history.describe(e))
print("outcome:", {k: history.outcome[k] for k in ("effects", "gold", "target_social")})
assert history.outcome["effects"] == [] and history.outcome["gold"] == 0'''),
        md("""Card 3 says nothing to a pillager at rating 5 (its only result, `-1(<2)`, needs a rating below 2). Turn
card 2 instead: `History.branch` re-runs from the snapshot before the draw. Card 2 asks for a plunder roll,
which the first history never made, so the branch rolls a fresh die."""),
        code(r'''branch = history.branch("endeavour-1/active/year-card", "sample-2")
print(diff(history, branch).summary(history.describe))
assert branch.outcome["effects"] == ["target-1", "plunder-roll"] and branch.outcome["target_social"] == -1
assert branch.outcome["gold"] in set(RULESET.rules.plunder_gold.values())'''),
        code(r'''DiceLab(history)'''),
        md("""## Exercises

Type a fraction, a decimal or a percentage (or a number of gold pieces); the notebook checks it against the
exact odds of the sample cards."""),
        code(r'''q1 = endeavour("conquest", 4, 0, 2, True, 3, 0)["C (conquest)"]
assert q1 == 0
quiz1 = Quiz("1. A leader of effectiveness 4 attempts a conquest of an area with a fortification of strength 2; "
             "the owner defends with combat stature 3. What is the chance of a C result?", q1,
             explain="4 - 2 - 3 = -1: below zero, every helpful result is ignored (13.22).")
assert quiz1.is_right("0")
quiz1'''),
        code(r'''q2 = Fraction(RULESET.battle_odds("pillage:5", "", {})["exact"]["expected_gold"])
assert q2 == Fraction(3, 5) * Fraction(sum(RULESET.rules.plunder_gold.values()), 6)
quiz2 = Quiz("2. How much gold does one undefended pillage at rating 5 bring on average?", q2, unit="number",
             tolerance=Fraction(1, 100), explain="3 cards in 5 carry a G; the plunder die pays 0,1,1,2,2,3: 1.5 on average.")
assert quiz2.is_right("0.9")
quiz2'''),
        code(r'''q3 = pillage[1]["base-1"]
quiz3 = Quiz("3. A weak leader (rating 1) pillages. What is the chance that his own base loses a social state?", q3,
             explain="Below 2, card 3's -1(<2) strikes the pillager's base; below 0, card 5's -1(<0) too.")
assert q3 == Fraction(1, 5) and pillage[-1]["base-1"] == Fraction(2, 5)
quiz3'''),
    ]


# ------------------------------------------------------------------------------------------------
# Five ways to fight
# ------------------------------------------------------------------------------------------------
def five_ways() -> list[Any]:
    """Cells of five-ways-to-fight: the Gulf of Naples, 1284, under all five systems, with the leader's worth."""
    return [
        md("""# Five ways to fight: the Gulf of Naples, 5 June 1284

In June 1284 the Catalan–Aragonese fleet of **Roger of Lauria** lay off Naples. Charles of Salerno, the heir of
Charles of Anjou, took the Angevin galleys out against it; Lauria's crews beat them in the bay and Charles
himself was taken prisoner. It is a clean test case for five rule systems:

- **comparable forces**: the chroniclers' figures differ, but they put the two fleets within a few galleys of
  each other (some thirty each, give or take). So in every system below the two sides get **the same force**:
  the same number of fleet counters, galleys or ships, or the same navy rating. What is left to decide the
  fight is the system's luck, its attack-or-defence asymmetries — and the **leader**. Lauria was the one
  commander of genius in the bay; for each system we compute, exactly, what a leader on the Catalan side is
  worth: the odds with him and without him.
- **one clash, five mechanics**: a combat results *table* (Mediterranean Empires), an *opposed roll* with
  modifiers (Medieval), *per-unit dice* (Variant Middle Sea), a *dice-off* (Empire's Revolt) and an
  *effectiveness rating* read off a card (Empires of the Middle Ages).

Lauria's fleet is the attacker throughout (he drew the Angevins out and then turned on them); the Angevins
defend. Every number here is exact (fractions, no sampling). Run the cells from top to bottom."""),
        code(r'''from fractions import Fraction
from math import sqrt

import pandas as pd

from medviz.apps.odds_chart import distribution_figure, percent, side_by_side_figure
from medviz.rules.empires_middle_ages.ruleset import RULESET as EOTMA
from medviz.rules.empires_revolt import combat as er_combat
from medviz.rules.empires_revolt.odds import fight_odds_of
from medviz.rules.empires_revolt.ruleset import RULESET as ER
from medviz.rules.medempires.gamedata import default_game_data
from medviz.rules.medempires.odds import Doctrine, battle_odds
from medviz.rules.medempires.one_battle import new_battle
from medviz.rules.medieval_xiii.gamedata import RULER_DRM, load_game_data
from medviz.rules.variant_middle_sea import combat as vms_combat
from medviz.rules.variant_middle_sea.odds import battle_odds_of
from medviz.rules.variant_middle_sea.ruleset import RULESET as VMS

CATALAN, ANGEVIN, UNDECIDED, BOTH = "Catalan side wins", "Angevin side wins", "no decision", "both fleets destroyed"
COLOURS = {CATALAN: "#c8102e", ANGEVIN: "#1f5fa8", UNDECIDED: "#b0b0b0", BOTH: "#4d4d4d"}


def spread(dist: dict[int, Fraction], force: int) -> tuple[Fraction, float]:
    """Expected losses as a share of ``force``, and their standard deviation (the same share)."""
    mean = sum(k * p for k, p in dist.items())
    var = sum((k - mean) ** 2 * p for k, p in dist.items())
    return mean / force, sqrt(var) / force


results: dict[str, dict[str, dict]] = {}  # system -> "without"/"with" the leader -> its distribution and losses'''),
        md("""## 1. Mediterranean Empires — a combat results table

*What we used.* A naval battle (11.3) of two fleet counters each — Anjou starts the 1282 scenario with two
fleets — fought on the Field/Naval table: initiative, then one die for the whole force, read in the column
of its size and modified by Kings, mercenaries and stratagems (10.3.2). Losses follow the stated doctrine
(cheapest units first). *The leader.* The game rates only **Kings** (military value, 8.0); Lauria is not a
counter and no King was at sea that day, so the leader we measure is the one the game offers: Peter III
(military 2) at the head of the Catalan fleet."""),
        code(r'''peter = default_game_data().kings["peter_iii"]
assert peter.military == 2


def medempires(leader: bool) -> dict[str, object]:
    """Exact odds of aragon:2F (with Peter III or not) attacking anjou:2F at sea."""
    att = "aragon:2F" + (f",K{peter.military}" if leader else "")
    odds = battle_odds(new_battle({"attacker": att, "defender": "anjou:2F"}), Doctrine())
    s = odds.exact_summary()
    lost: dict[int, Fraction] = {}
    for row in odds.outcomes():
        k = 2 - sum(row["attacker_left"].values())
        lost[k] = lost.get(k, Fraction(0)) + row["probability"]
    return {"dist": {CATALAN: s["attacker_wins"], ANGEVIN: s["defender_wins"], UNDECIDED: s["both_stand"],
                     BOTH: s["both_destroyed"]}, "losses": spread(lost, 2), "king_killed": s["attacker_king_killed"]}


results["Mediterranean Empires"] = {"without": medempires(False), "with": medempires(True)}
me = results["Mediterranean Empires"]
assert me["without"]["dist"][CATALAN] == Fraction(1, 2) and me["with"]["dist"][CATALAN] == Fraction(5, 6)
pd.DataFrame({k: {o: percent(p) for o, p in v["dist"].items()} for k, v in me.items()})'''),
        md("""## 2. Medieval — an opposed roll with modifiers

*What we used.* Medieval has no Kingdom of Naples or of Aragon: its **Spain** card stands for the Iberian
kingdoms (its navy proposal is labelled "Aragonese Mediterranean") and **France** for the Angevins, Charles of
Anjou being Louis IX's brother and Philip III's uncle. Both have navy +1. Fleets meet only when one intercepts the other's
naval transport (10.2–10.3): each side rolls one die and adds its navy and any DRM bought with florins (4 Fl
per +1); a tie goes to the higher navy, else to the side moving — here Lauria's fleet at sea. Nobody loses a
counter: the loser's voyage (or interception) fails. *The leader.* At sea nothing but navy and money counts:
the ruler's +1 of a Good ruler (4.5) applies to land attacks only (9.6). So the leader's effect at sea is
exactly zero; we also show what the same +1 does in a land attack, and what 4 florins buy at sea."""),
        code(r'''medieval = load_game_data()
navy = {"catalan": medieval.powers["spain"].navy or 0, "angevin": medieval.powers["france"].navy or 0}
assert navy == {"catalan": 1, "angevin": 1}


def sea_battle(catalan_drm: int = 0, angevin_drm: int = 0) -> dict[str, Fraction]:
    """10.3, every pair of faces: the mover (Catalan) wins ties when its navy is at least the interceptor's."""
    win = Fraction(0)
    for m in range(1, 7):
        for i in range(1, 7):
            mt, it = m + navy["catalan"] + catalan_drm, i + navy["angevin"] + angevin_drm
            win += Fraction(1, 36) if mt > it or (mt == it and navy["catalan"] >= navy["angevin"]) else 0
    return {CATALAN: win, ANGEVIN: 1 - win, UNDECIDED: Fraction(0), BOTH: Fraction(0)}


def land_attack(attacker_drm: int) -> Fraction:
    """9.6: the attacker wins when its total is higher; ties go to the defender."""
    return sum((Fraction(1, 36) for a in range(1, 7) for d in range(1, 7) if a + attacker_drm > d), Fraction(0))


good = RULER_DRM["good"]
results["Medieval"] = {"without": {"dist": sea_battle()}, "with": {"dist": sea_battle()}}
bought = sea_battle(catalan_drm=1)[CATALAN]
assert results["Medieval"]["without"]["dist"][CATALAN] == Fraction(21, 36) and bought == Fraction(26, 36)
assert (land_attack(0), land_attack(good)) == (Fraction(15, 36), Fraction(21, 36))
print(f"at sea: the Catalan fleet gets through {percent(Fraction(21, 36))}; with +1 bought for 4 Fl {percent(bought)}")
print(f"on land, a Good ruler's +1 takes an attack from {percent(land_attack(0))} to {percent(land_attack(good))}")'''),
        md("""## 3. Variant Middle Sea — every galley rolls

*What we used.* A sea battle of six galleys against six, fought to the end (`rounds=all`): every galley rolls
a die each exchange, attackers kill on 5+, defenders at sea only on a 6 (Combat, sea tables). The counter
scale is not in the text; what matters is that the sides are equal. *The leader.* Lauria as a one-star leader
(x: +2 on attack) — the only rank that helps an attacker; the higher ranks help only in defence (Leaders)."""),
        code(r'''def vms(leader: bool) -> dict[str, object]:
    """Exact odds of 6GAL (with an x leader or not) attacking 6GAL, fought to the end."""
    b = vms_combat.new_battle({"attacker": "6GAL" + ("@x" if leader else ""), "defender": "6GAL", "rounds": "all"},
                              VMS.rules)
    odds = battle_odds_of(b)
    lost: dict[int, Fraction] = {}
    for (a, _d), p in odds.distribution.items():
        lost[6 - a] = lost.get(6 - a, Fraction(0)) + p
    return {"dist": {CATALAN: odds.attacker_wins, ANGEVIN: odds.defender_wins, UNDECIDED: odds.both_stand,
                     BOTH: odds.both_destroyed}, "losses": spread(lost, 6)}


results["Variant Middle Sea"] = {"without": vms(False), "with": vms(True)}
v = results["Variant Middle Sea"]
assert f"{float(v['without']['dist'][CATALAN]):.4f}" == "0.8914" and f"{float(v['with']['dist'][CATALAN]):.4f}" == "0.9966"'''),
        md("""## 4. Empire's Revolt — a dice-off

*What we used.* Ship against ship (rules 31–32): one die each, the higher die wins, ties are rolled again;
the loser is sunk (the text does not say; medviz's stated reading). Three ships a side fight one after
another until one side has none. *The leader.* The system has **no leaders** and no modifiers at sea: only
the number of dice counts, and ships always roll one. The leader's effect is exactly zero."""),
        code(r'''def er() -> dict[str, object]:
    """Exact odds of a run of fights, three ships against three."""
    odds = fight_odds_of(er_combat.new_battle({"attacker": "3xship", "defender": "3xship"}, ER.rules))
    lost: dict[int, Fraction] = {}
    for (a, _d), p in odds.distribution.items():
        lost[3 - a] = lost.get(3 - a, Fraction(0)) + p
    wins = sum((p for (a, d), p in odds.distribution.items() if d == 0), Fraction(0))
    return {"dist": {CATALAN: wins, ANGEVIN: 1 - wins, UNDECIDED: Fraction(0), BOTH: Fraction(0)},
            "losses": spread(lost, 3)}


results["Empire's Revolt"] = {"without": er(), "with": er()}
assert results["Empire's Revolt"]["without"]["dist"][CATALAN] == Fraction(1, 2)'''),
        md("""## 5. Empires of the Middle Ages — an effectiveness rating

*What we used.* The fragment has no battles and no fleets: a clash is a **conquest endeavour answered by a
defense endeavour** (13.0). The rating the year card is read at is the attacker's effectiveness less the
defender's combat stature and the gold it spends (13.21); below zero every helpful result is ignored (13.22).
Comparable forces: an ordinary Catalan commander's effectiveness equals Charles of Salerno's stature (2 and 2,
rating 0). *The leader.* Lauria is one point better (3). A `C` on the card is the Catalan success; anything
else leaves the Angevins where they were. **The year cards are medviz's invented, illustrative sample** —
these numbers show the shape of the mechanic, not the published game."""),
        code(r'''def eotma(effectiveness: int, defender: str = "defend2") -> dict[str, Fraction]:
    """Exact chance that the conquest endeavour gets a C against the defense."""
    exact = EOTMA.battle_odds(f"conquest:{effectiveness}", defender, {})["exact"]
    c = Fraction(exact["conquest"])
    return {CATALAN: c, ANGEVIN: Fraction(0), UNDECIDED: 1 - c, BOTH: Fraction(0)}


results["Empires of the Middle Ages"] = {"without": {"dist": eotma(2)}, "with": {"dist": eotma(3)}}
with_gold = {"without": eotma(2, "defend2,dgold1")[CATALAN], "with": eotma(3, "defend2,dgold1")[CATALAN]}
assert results["Empires of the Middle Ages"]["without"]["dist"][CATALAN] == eotma(3)[CATALAN] == Fraction(3, 5)
assert with_gold == {"without": 0, "with": Fraction(3, 5)}
print(f"rating 0 or 1: a C {percent(Fraction(3, 5))} either way; if Charles also spends 1 gold: "
      f"{percent(with_gold['without'])} without Lauria, {percent(with_gold['with'])} with him")'''),
        md("""## Side by side

Each bar is one system, split into the chance of each result; every system has two bars, the Catalan
fleet without its leader and with him. Hover over a segment for the exact fraction."""),
        code(r'''series = {}
for system, r in results.items():
    series[f"{system} — no leader"] = r["without"]["dist"]
    series[f"{system} — with leader"] = r["with"]["dist"]
for dist in series.values():
    assert sum(dist.values()) == 1
side_by_side_figure(series, title="Gulf of Naples, 1284: the Catalan attack under five systems", colors=COLOURS,
                    height=520)'''),
        code(r'''rows = []
for system, r in results.items():
    lo, hi = r["without"]["dist"][CATALAN], r["with"]["dist"][CATALAN]
    losses = r["without"].get("losses")
    rows.append({"system": system, "Catalan wins, no leader": percent(lo), "with leader": percent(hi),
                 "leader's worth": f"{float(hi - lo) * 100:+.1f} points",
                 "decided at all": percent(1 - r["without"]["dist"][UNDECIDED]),
                 "Catalan losses (share, ± sd)": f"{float(losses[0]):.0%} ± {losses[1]:.0%}" if losses else "no units lost"})
table = pd.DataFrame(rows).set_index("system")
worth = {s: r["with"]["dist"][CATALAN] - r["without"]["dist"][CATALAN] for s, r in results.items()}
assert worth["Mediterranean Empires"] == Fraction(1, 3) and worth["Empire's Revolt"] == 0 and worth["Medieval"] == 0
assert worth["Empires of the Middle Ages"] == 0 and Fraction(1, 10) < worth["Variant Middle Sea"] < Fraction(1, 9)
table'''),
        md("""## What each design does to luck, attrition and the leader

**A combat results table** (Mediterranean Empires). One die, read for the whole force, decides the battle: the
luck is concentrated in a single roll (after initiative), and the table's coarse results — no effect, a
counterattack, a bloodbath, a defeat — make half of these fleet battles end with both sides still afloat (28%) or
both sunk (22%). Attrition comes in fixed lumps that the table prescribes, so losses are lumpy too. A leader is a
**die-roll modifier on every roll of the battle**: Peter III's +2 shifts the whole table by two rows and takes
the Catalan win from 1/2 to 5/6 — the largest leader effect of the five. (A King can also die in battle, 8.1:
none does in this fight.)

**An opposed roll with modifiers** (Medieval). Two dice, one per side, plus fixed numbers: luck is large but
simple (a single difference of two dice), the tie rule gives the side at sea the edge (21/36), and there is no
attrition at all — the interception decides whether a voyage happens. The only "leader" the game knows is the
ruler, worth a flat +1 and only on land (from 15/36 to 21/36 in an attack); at sea, money does the leader's work.

**Per-unit dice** (Variant Middle Sea). Dozens of dice over several exchanges: individual luck averages out
(the law of large numbers), so the result follows the kill faces closely — and the galleys' kill faces favour
the attacker so much (5+ against 6) that the Catalans win 89% with equal numbers. Attrition is total: fought to
the end, the loser is destroyed and the winner loses about 40% of its galleys. A leader multiplies: +2 on each
die turns a 1/3 kill chance into 2/3, doubling the fleet's firepower; but there is little left to win (to 99.7%).

**A dice-off** (Empire's Revolt). The highest single die wins; ties are rolled again; equal dice means a coin
flip, every fight. Luck is maximal for equal forces (exactly 1/2), attrition is one ship per fight, and there is
nothing a leader can do: only the number of dice matters, and at sea it is always one.

**An effectiveness rating** (Empires of the Middle Ages). No dice: one year card, read at a rating. Luck is the
card; the rating is a set of thresholds, so the leader's worth is **all or nothing**. With Charles's stature
matched, Lauria's extra point changes nothing (3/5 either way); but if Charles adds one gold to his defence, the
ordinary commander falls below zero and loses every helpful result (13.22), while Lauria keeps the 3/5. No units
are lost: conquest results accumulate instead (10.3)."""),
    ]


NOTEBOOKS: dict[str, tuple[str, Callable[[], list[Any]]]] = {
    "tutorial-variant-middle-sea": ("vms", variant_middle_sea),
    "tutorial-empires-revolt": ("er", empires_revolt),
    "tutorial-empires-middle-ages": ("eotma", empires_middle_ages),
    "five-ways-to-fight": ("five", five_ways),
}


def main(names: list[str]) -> None:
    """Write the notebooks named (all when none)."""
    for name in names or list(NOTEBOOKS):
        prefix, cells = NOTEBOOKS[name]
        write_notebook(cells(), name, prefix)


if __name__ == "__main__":
    main(sys.argv[1:])
