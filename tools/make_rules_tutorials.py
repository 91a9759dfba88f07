"""Write the rules tutorials of Mediterranean Empires (notebooks/tutorials/), outputs empty.

Run: .venv/bin/python tools/make_rules_tutorials.py [NAME ...]   (default: all of them; the
notebooks are committed, this keeps their source reviewable as code). Each is a 10-20 minute
lesson in our own words with rule numbers, built on the real engine; every code cell runs top to
bottom under nbval and asserts what it shows; each lesson ends with exercises that check
themselves (``medviz.apps.odds_chart.Quiz``, ``medviz.apps.quiz.ChoiceQuiz``).
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import Any

import nbformat as nbf
from nbwrite import NOTEBOOKS, write_notebook

md, code = nbf.v4.new_markdown_cell, nbf.v4.new_code_cell


# ------------------------------------------------------------------------------------------------
# A battle, step by step (10.3)
# ------------------------------------------------------------------------------------------------
def battle() -> list[Any]:
    """Cells of tutorials/battle-step-by-step: avoid, initiative, table, results; explorer; one die; quizzes."""
    return [
        md("""# A battle, step by step — *Mediterranean Empires*, rule 10.3

*A lesson of about 15 minutes. Run the cells from top to bottom (Run → Run All Cells).*

In *Mediterranean Empires* (S&T 330) a battle is not one roll but a short procedure. When a force that
is carrying out an action shares an area with enemy units, its player may spend OPs to attack **all** of
them (10.3, 10.3.1). Then, in our own words:

1. **Avoid?** The side attacked may try to slip away (10.3.1): one die, plus its King's military value,
   minus one if the attackers are raiders only. A 6 or better and it avoids the whole attack; exactly 5
   and it avoids everything but raiders. Anything less and the battle is fought.
2. **Initiative** (10.3.2 step 2): both sides secretly decide how many military-advantage or ambush
   markers to spend, then both roll a die, add their King's value and one per marker. The higher total
   wins the initiative; **a tie goes to the defender**.
3. **The table** (step 3): the side with the initiative chooses the **Field** table or the **Raid**
   table. Field armies and mercenaries count double on the Field table, raiders on the Raid table — so
   the choice decides how strong the attack is counted. Fleets fight only on the Field/Naval table (11.3).
4. **One die on the table** (steps 4–6): the attacker counts its units (Kings are not units; doubles as
   the table says; more than 10 reads the 8–10 column), rolls one die and modifies it: + its King, −
   the defender's King, +1 if it has mercenaries, −1 if the defender has, and one stratagem marker each.
5. **The result**: **CA** counterattack (each side loses a unit and the side attacked may strike back on
   the same table), **NE** no effect, **BB** bloodbath (both lose, the defender as many as the attacker),
   **DV** decisive victory (the defender loses up to the attacking count, the attacker one unit), **DV+S**
   (the defender is wiped out and the attacker may draw a stratagem marker).

medviz plays every one of these steps with the rule code of the full game, records each die as an event
with an id that says what it is for, and can compute the odds of a whole battle **exactly**."""),
        code(r'''from fractions import Fraction

import ipywidgets as w
import pandas as pd

from medviz.apps import DiceLab
from medviz.apps.odds_chart import OddsExplorer, Quiz, distribution_figure, percent, side_by_side_figure
from medviz.apps.quiz import ChoiceQuiz
from medviz.engine import diff, play
from medviz.engine.dice import distribution
from medviz.rules.medempires import combat
from medviz.rules.medempires.odds import Doctrine, battle_odds, table_roll_odds
from medviz.rules.medempires.ruleset import RULESET, new_battle

one_die = distribution("1d6")  # each face 1/6
assert sum(one_die.values()) == 1'''),
        md("""## Step 1 — trying to avoid combat (10.3.1)

The defender rolls one die. The table below lists, for each modifier, the chance of each outcome.
A King with military value 2 makes escape much likelier; an attack by raiders alone (−1) makes it harder."""),
        code(r'''def avoid_odds(modifier: int) -> dict[str, Fraction]:
    out = {"fought": Fraction(0), "avoids all but raiders": Fraction(0), "avoids everything": Fraction(0)}
    names = {"fails": "fought", "raiders-only": "avoids all but raiders", "all": "avoids everything"}
    for face, p in one_die.items():
        out[names[combat.avoid_result(face + modifier)]] += p
    return out

avoid = pd.DataFrame({f"modifier {m:+d}": {k: percent(v) for k, v in avoid_odds(m).items()} for m in (-1, 0, 1, 2)})
assert avoid_odds(0)["avoids everything"] == Fraction(1, 6) and avoid_odds(2)["fought"] == Fraction(1, 3)
avoid'''),
        md("""## Step 2 — the initiative (10.3.2 step 2)

Both sides roll; each adds its King and the markers it spends. Ties go to the defender, so with nothing
added the attacker wins the initiative only when its die is strictly higher: 15 of the 36 pairs."""),
        code(r'''def attacker_initiative(attacker_bonus: int, defender_bonus: int) -> Fraction:
    return sum((pa * pd for a, pa in one_die.items() for d, pd in one_die.items()
                if a + attacker_bonus > d + defender_bonus), Fraction(0))

initiative = pd.DataFrame({f"defender +{d}": {f"attacker +{a}": percent(attacker_initiative(a, d)) for a in range(4)}
                           for d in range(4)})
assert attacker_initiative(0, 0) == Fraction(15, 36)
initiative'''),
        md("""## Step 3 — Field or Raid? (10.3.2 steps 3–4)

The same force counts differently on the two tables. Aragon's 2 field armies, 1 levy and 1 mercenary
count 4 + 1 + 2 = **7** on the Field table but only **4** on the Raid table; 3 raiders count 6 on the Raid
table and 3 on the Field table. Below, one roll of the attacker's die on each table for the same force,
with a +1 modifier."""),
        code(r'''aragon = {("aragon", "FA"): 2, ("aragon", "L"): 1, ("aragon", "M"): 1}
counts = {t: combat.table_count(aragon, t) for t in ("field", "raid")}
assert counts == {"field": 7, "raid": 4}
side_by_side_figure({f"Field table, {counts['field']} units": table_roll_odds("field", counts["field"], 1),
                     f"Raid table, {counts['raid']} units": table_roll_odds("raid", counts["raid"], 1)},
                    title="One attacker's roll (+1), by table", height=300)'''),
        md("""The Field table is bloodier: with this force it gives a decisive victory (DV or DV+S) on half the
faces, where the Raid table gives one on a third. That is why the side with the initiative matters: a
defender that wins it may push the attacker onto the table that suits the defence.

## Step 4 — the whole battle, exactly

A battle can go on: a CA lets the side struck back, an NE lets the attacker attack again while it has OPs.
medviz runs the real rule code over **every** face of every die and adds up the chances — no sampling.
Both sides follow stated choices (a *doctrine*: spend markers, counterattack, take losses cheapest first).

Choose the forces and the choices below; the chart is redrawn with the exact odds."""),
        code(r'''def force(power: str, fa: int, levies: int, mercs: int, raiders: int, king: int, markers: int) -> str:
    items = [f"{n}{code}" for n, code in ((fa, "FA"), (levies, "L"), (mercs, "M"), (raiders, "R"), (markers, "MA")) if n]
    return f"{power}:{','.join(items + ([f'K{king}'] if king else []))}"

def battle_distribution(a_fa, a_l, a_m, a_r, a_king, a_ma, d_fa, d_l, d_king, avoid, table):
    spec = {"attacker": force("aragon", a_fa, a_l, a_m, a_r, a_king, a_ma),
            "defender": force("anjou", d_fa, d_l, 0, 0, d_king, 0)}
    odds = battle_odds(new_battle(spec), Doctrine(avoid=avoid, table=table))
    fought_both_stand = odds.both_stand - odds.avoided
    return {"avoided": odds.avoided, "both stand": fought_both_stand, "Aragon wins": odds.attacker_wins,
            "Anjou wins": odds.defender_wins, "both destroyed": odds.both_destroyed}

slider = lambda text, lo, hi, v: w.IntSlider(value=v, min=lo, max=hi, description=text, style={"description_width": "130px"})
explorer = OddsExplorer({
    "a_fa": slider("Aragon field armies", 0, 4, 2), "a_l": slider("Aragon levies", 0, 4, 1),
    "a_m": slider("Aragon mercenaries", 0, 2, 1), "a_r": slider("Aragon raiders", 0, 3, 0),
    "a_king": slider("Peter III (value)", 0, 3, 2), "a_ma": slider("Aragon mil. advantage", 0, 1, 0),
    "d_fa": slider("Anjou field armies", 0, 4, 3), "d_l": slider("Anjou levies", 0, 4, 2),
    "d_king": slider("Charles I (value)", 0, 3, 1),
    "avoid": w.Checkbox(value=False, description="Anjou tries to avoid"),
    "table": w.Dropdown(options=["best", "field", "raid"], value="best", description="table chosen"),
}, battle_distribution, describe=lambda **v: "Exact outcome of the battle")
assert sum(explorer.current.values()) == 1 and explorer.current["Aragon wins"] == Fraction(31, 72)
explorer'''),
        md("""Try it: let Charles try to avoid (tick the box) and watch the "avoided" bar grow with his King's value.
Take away Aragon's mercenary: the +1 on every table roll goes, and so does a unit that counts double on
the Field table — Aragon's chance of destroying the Angevins falls from 31/72 (43%) to 19/72 (26%).
Trying to avoid halves it instead: Charles escapes half the time, and when he stays the odds are as before."""),
        code(r'''with_avoid = explorer.set(avoid=True)
no_mercs = explorer.set(avoid=False, a_m=0)
# Charles (value 1): a die of 4 makes a modified 5, which escapes all but raiders (Aragon has none); 5 or 6 escapes all.
assert with_avoid["avoided"] == Fraction(1, 2)
assert with_avoid["Aragon wins"] == Fraction(31, 144)
assert no_mercs["Aragon wins"] == Fraction(19, 72) and explorer.set(a_m=1)["Aragon wins"] == Fraction(31, 72)
{"avoided, Charles trying": percent(with_avoid["avoided"]), "Aragon wins without mercenaries": percent(no_mercs["Aragon wins"])}'''),
        md("""## One battle, one die changed

Now a single battle, played by the engine with the same doctrine on both sides. Every die has an id that
says what it is for (`battle-1/combat-1/initiative/defender`), and the log tells the story step by step."""),
        code(r'''forces = {"attacker": "aragon:2FA,1L,1M,K2", "defender": "anjou:3FA,2L,K1"}
fought = play(RULESET, "battle", forces, seed=3, players={"attacker": Doctrine(), "defender": Doctrine()})
for e in fought:
    if e.kind in ("roll", "decision", "report") and not (e.kind == "decision" and e.legal_options == 1):
        print(f"[{e.seq:2}] {fought.describe(e)}")
assert fought.outcome["results"] == ["DV+S"]'''),
        md("""Charles won the initiative, 7 against 5, and chose the Raid table, where Aragon's field
armies count single. Aragon still rolled a 6 (+2 for Peter III) and wiped the Angevins out. **What if the
defender's initiative die had been a 1 instead of a 6?** We change that one die and nothing else: the
branch re-runs from the last snapshot before it, and every other die keeps its value."""),
        code(r'''die = "battle-1/combat-1/initiative/defender"
branch = fought.branch(die, 1)
print(diff(fought, branch).summary(fought.describe))
print()
for e in branch.events_in():
    if e.kind == "decision" and e.decision.endswith("/table"):
        print("In the branch:", branch.describe(e))
assert branch.roll(die).value == 1 and branch.outcome["winner"] == "attacker"'''),
        md("""With the initiative, Peter III picks the Field table, where his army counts 7 instead of 4 (and the result is
the same DV+S: a 6 +2 is the best row of either table). The Dice Lab
below lets you click any die of this battle and try another face (the forces table updates)."""),
        code(r'''lab = DiceLab(fought)
lab'''),
        md("""## Exercises

Each answer is checked when you press *Check* (or Enter); a wrong answer says why."""),
        code(r'''q1 = Quiz("Aragon attacks with 3 field armies and 2 levies. How many units does it count on the Field table?",
          combat.table_count({("aragon", "FA"): 3, ("aragon", "L"): 2}, "field"), unit="number",
          explain="Field armies count double on the Field table (its note, 10.3.2 step 4): 3×2 + 2 = 8, the 8–10 column.",
          hint="Which units count twice on the Field table?")
q2 = Quiz("No King, no markers: what is the probability that the attacker wins the initiative?",
          attacker_initiative(0, 0),
          explain="The attacker needs a strictly higher die: 15 of the 36 pairs (ties go to the defender).",
          hint="Count the pairs of dice in which the attacker's is strictly higher — and remember who wins ties.")
q3 = ChoiceQuiz("Both initiative rolls come to 4. Who chooses between the Field and the Raid table?",
                ["the attacker", "the defender", "they roll again"], "the defender",
                explain="10.3.2 steps 2–3: the defender wins every tie, and the side with the initiative picks the table.",
                why_not={"the attacker": "The attacker chooses only with a strictly higher total.",
                         "they roll again": "Nobody re-rolls: ties are settled in the defender's favour."})
q4 = Quiz("Charles I (military value 1) tries to avoid combat. Probability that his modified roll reaches 6, so that he escapes even raiders?",
          avoid_odds(1)["avoids everything"],
          explain="He needs a modified 6: a 5 or a 6 on the die (5+1, 6+1), so 2/6 = 1/3.",
          hint="Add his King's value to the die; which faces then reach 6?")
assert q1.is_right("8") and not q1.is_right("5")
assert q2.is_right("15/36") and q2.is_right("41.7%") and not q2.is_right("1/2")
assert q3.is_right("the defender") and not q3.is_right("the attacker")
assert q4.is_right("1/3") and not q4.is_right("1/6")
w.VBox([q1, q2, q3, q4])'''),
        md("""## What to remember

- A battle is a procedure: **avoid → initiative → table → one die → result**, and a CA or NE can start the
  next round (10.3.1, 10.3.2).
- The defender wins ties at the initiative; the initiative decides the table, and the table decides how
  the attacking force is counted.
- Kings, mercenaries and stratagem markers are die-roll modifiers; a King also adds to avoiding combat.
- Every die in medviz has an id that says what it is for: change one and only that one changes.

Next: *Moving armies and fleets* (10.0–11.4) — how a force gets into the area where it fights."""),
    ]

# ------------------------------------------------------------------------------------------------
# Money and men (6.x)
# ------------------------------------------------------------------------------------------------
def money() -> list[Any]:
    """Cells of tutorials/money-and-men: treasury, the 10-TP cap (6.1's example), recruitment and placement."""
    return [
        md("""# Money and men — *Mediterranean Empires*, rules 6.0–6.2

*A lesson of about 15 minutes. Run the cells from top to bottom (Run → Run All Cells).*

Armies cost money. Once a turn, in the **Joint Recruitment Phase** (5.1), both players collect treasury
points (TP) and spend them on new units. In our own words:

- **Who keeps the purse** (6.0): Player A keeps one treasury for France, Anjou and all of their allies;
  Player B one for Aragon and its allies. Allies never have a treasury of their own.
- **Income** (6.1): one TP for every city in a land area the side controls totally (its allies' areas
  count too); for each city held by a *vassal*, a die: 1–4 gives one TP; and the Gold and Trade
  Concession stratagem markers.
- **The cap** (6.1): a treasury never holds more than **10 TP**. Whatever would take it higher is lost,
  whenever it comes — at collection or from a stratagem. Unspent TP carry over to the next turn.
- **Recruiting** (6.2): a field army, a mercenary or a raider costs 1 TP, a fleet 2, a levy ½ — but a
  levy bought alone still costs a whole TP. The counters in the box are the limit.
- **Placing** (6.2): a new land unit goes into an area the side controls totally, at most three new
  units per area; an ally's unit (at most one per ally whose home area the side controls) only where
  there is a city; a fleet into a sea next to a totally controlled land area with a city.

We follow a real game: the 1282 scenario played by medviz's *historical* players, seed 0."""),
        code(r'''from fractions import Fraction
from math import ceil

import ipywidgets as w
import pandas as pd

from medviz.apps.odds_chart import Quiz, distribution_figure, percent
from medviz.apps.quiz import ChoiceQuiz
from medviz.engine import play
from medviz.engine.dice import distribution
from medviz.engine.policy import parse_policy
from medviz.rules.medempires.ruleset import RULESET

# 8.1 as written: a dead King's successor is drawn at random from his crown's pool
game = play(RULESET, "vespers-1282", {"dead_kings_stay_dead": False}, seed=0,
            players={side: parse_policy("historical", RULESET.policies) for side in ("A", "B")})
rules = game.final_state.data.operations  # the game's own cost and cap data (operations.toml, rule 6.x)
CAP = rules.treasury["tp_cap"]
assert CAP == 10 and rules.recruiting["F"] == 2 and rules.recruiting["L"] == 0.5 and rules.single_levy_cost == 1
treasury = [e for e in game.events if e.kind == "change" and e.change == "treasury" and e.turn == 1]
for e in treasury:
    print(f"[{e.seq}] {game.describe(e)}")'''),
        md("""Read the first line of turn 1's collection: France and Anjou had 6 TP, took 7 from their cities and 1 from
a Gold marker — 14 — and kept **10**: four TP were lost to the cap. Aragon, with 4 TP and 9 cities, lost
three. Then the players take turns buying, one purchase at a time, and every purchase shows up as a
payment.

## Where the money comes from

The cities a side totally controls when the treasury is collected:"""),
        code(r'''collection = next(e for e in treasury if e.data.get("why") == "collection (6.1)")
before = game.state_at(collection.seq - 1)  # the state just before the first collection of turn 1
cities = {side: sorted(before.map.areas[a].city for a, c in before.ctl.items() if c == side and before.map.areas[a].city)
          for side in ("A", "B")}
assert len(cities["B"]) == before.city_count("B") == 9 and before.tp == {"A": 6, "B": 4}
pd.DataFrame({"side": ["Player A (France and Anjou)", "Player B (Aragon)"],
              "TP held": [before.tp["A"], before.tp["B"]],
              "cities": [", ".join(cities["A"]), ", ".join(cities["B"])]})'''),
        md("""## The cap of 10 (6.1)

The rule's own example: a player has 9 TP left from the last turn; however rich the collection, only
**one** TP can be added. The sum is simple — and we can check it against every collection the engine made
in this whole game."""),
        code(r'''def after_collection(held: int, gained: int) -> int:
    """6.1: what the treasury holds after adding ``gained`` to ``held`` (the excess is lost)."""
    return min(held + gained, CAP)

checked = 0
for e in game.events:
    if e.kind == "change" and e.change == "treasury" and e.data.get("why") == "collection (6.1)":
        d = e.data
        held = game.state_at(e.seq - 1).tp[d["side"]]
        gained = max(0, d["cities"] + d["vassals"] + d["gold"] + d["trade"] + d["piracy"])
        assert after_collection(held, gained) == d["tp"] and held + gained - d["tp"] == d["forfeited"]
        checked += 1
assert after_collection(9, 7) == 10  # the rule's example: from 9, one TP can be added
print(f"{checked} collections in this game follow the rule; from 9 TP a collection of 7 leaves {after_collection(9, 7)}.")'''),
        md("""Because of the cap, money saved is money at risk: a side sitting on 8 TP gains at most 2 next turn. It pays
to spend before the next collection.

## Vassals: a die per city (6.1)

A vassal's cities pay only on a roll of 1–4. The number of TP from a vassal with several cities is the sum
of such dice; its exact distribution:"""),
        code(r'''pays = sum(p for face, p in distribution("1d6").items() if face <= 4)  # 2/3

def vassal_income(cities: int) -> dict[str, Fraction]:
    dist = {0: Fraction(1)}
    for _ in range(cities):
        nxt: dict[int, Fraction] = {}
        for tp, p in dist.items():
            nxt[tp + 1] = nxt.get(tp + 1, Fraction(0)) + p * pays
            nxt[tp] = nxt.get(tp, Fraction(0)) + p * (1 - pays)
        dist = nxt
    return {f"{tp} TP": dist[tp] for tp in sorted(dist)}

assert pays == Fraction(2, 3) and vassal_income(2)["0 TP"] == Fraction(1, 9)
distribution_figure(vassal_income(3), title="TP from a vassal with 3 cities (6.1)", height=320)'''),
        md("""## Spending: what turn 1's purchases cost (6.2)

Each purchase below is a decision the engine offered among the legal ones only (a unit with no counter left,
or one the treasury cannot pay, is not offered). `2L` is two levies bought together for ½ TP each."""),
        code(r'''def price(code: str) -> float:
    """6.2: the cost of one purchase (``FA``, ``L`` alone, ``2L`` two levies, ``F``...)."""
    return 2 * rules.recruiting["L"] if code == "2L" else rules.single_levy_cost if code == "L" else rules.recruiting[code]

buys = [e for e in game.decisions() if e.turn == 1 and "/recruit/" in e.decision and "/pick-" in e.decision
        and not e.decision.endswith("/area") and e.choice != "done"]
rows = [{"side": e.actor, "bought": e.choice, "cost (TP)": price(e.choice.split(":")[1])} for e in buys]
spent = {side: sum(r["cost (TP)"] for r in rows if r["side"] == side) for side in ("A", "B")}
after = game.state_at(next(e.seq for e in game.events if e.turn == 1 and e.phase != "recruitment" and e.seq > buys[-1].seq))
assert {side: CAP - spent[side] for side in ("A", "B")} == after.tp  # both started buying with 10 TP
pd.DataFrame(rows)'''),
        md("""Both sides spent down from 10: Aragon to 4 TP, France and Anjou to 1.

## Placing (6.2)

Where may a new unit go? The engine asked the buyer and offered only the legal areas. Look at Player A's
purchase at pick 10: the County of Toulouse, where three new units already stood, is no longer offered — the
limit of three per area (6.2). The third line is Aragon's fleet: only seas are offered for it."""),
        code(r'''placements = {e.decision: e for e in game.decisions() if e.turn == 1 and e.decision.endswith("/area")}
names = game.final_state.map.areas
# Aragon's fleet: the placement whose choice is a sea (a fleet goes to a port's sea, not to land).
fleet = next(e.decision for e in placements.values() if e.actor == "B" and names[e.choice].kind == "sea")
for key in ("GT1/recruit/A/pick-2/area", "GT1/recruit/A/pick-10/area", fleet):
    e = placements[key]
    print(f"{key}: chose {names[e.choice].name}; offered {', '.join(names[o].name for o in e.options)}")
assert "county_of_toulouse" in placements["GT1/recruit/A/pick-2/area"].options
assert "county_of_toulouse" not in placements["GT1/recruit/A/pick-10/area"].options
assert all(names[o].kind == "sea" for o in placements[fleet].options)'''),
        md("""## Plan a purchase

You hold the TP below. Choose what to buy; the tutorial prices the plan by rule 6.2 (levies paired at ½ TP,
a levy left over at 1 TP) and says whether the treasury can pay and what is left for next turn."""),
        code(r'''def plan_cost(fa: int = 0, levies: int = 0, mercs: int = 0, raiders: int = 0, fleets: int = 0) -> float:
    """6.2: the cheapest way to pay for a plan (two levies at a time where possible)."""
    return (fa * price("FA") + mercs * price("M") + raiders * price("R") + fleets * price("F")
            + (levies // 2) * price("2L") + (levies % 2) * price("L"))

def plan_words(budget: int, **plan: int) -> str:
    cost = plan_cost(**plan)
    if cost > budget:
        return f"<b style='color:#b8322a'>Costs {cost:g} TP: {cost - budget:g} more than the {budget} TP you hold (6.2).</b>"
    return f"<b style='color:#3c8d5a'>Costs {cost:g} TP; {budget - cost:g} TP left, carried over (6.1).</b>"

spin = lambda text, v=0: w.BoundedIntText(value=v, min=0, max=8, description=text, layout=w.Layout(width="210px"))
planner = {"budget": w.IntSlider(value=10, min=0, max=CAP, description="TP held"),
           "fa": spin("field armies", 1), "levies": spin("levies", 3), "mercs": spin("mercenaries"),
           "raiders": spin("raiders"), "fleets": spin("fleets", 1)}
verdict = w.HTML()
def redraw(_change=None):
    values = {k: c.value for k, c in planner.items()}
    verdict.value = plan_words(values.pop("budget"), **values)
for c in planner.values():
    c.observe(redraw, names="value")
redraw()
assert plan_cost(fa=1, levies=3, fleets=1) == 5 and "5 TP left" in verdict.value
w.VBox([*planner.values(), verdict])'''),
        md("""## Exercises"""),
        code(r'''q1 = Quiz("A side holds 8 TP and collects 5 from its cities. How many TP does it hold afterwards?",
          after_collection(8, 5), unit="number",
          explain="6.1: never more than 10; the three TP above the cap are lost.",
          hint="Is there a limit to what a treasury may hold?")
q2 = Quiz("What do three levies and one fleet cost, bought in one phase?", Fraction(plan_cost(levies=3, fleets=1)).limit_denominator(),
          unit="number", explain="Two levies for ½ TP each (1 TP), the third alone for a whole TP, the fleet 2: 4 TP.",
          hint="A levy costs ½ TP only when bought with another; a fleet costs more than an army.")
q3 = ChoiceQuiz("Where may Aragon place a fleet it has just bought?",
                ["in any sea area", "in a sea next to a land area it totally controls that has a city",
                 "only in a sea next to Barcelona"],
                "in a sea next to a land area it totally controls that has a city",
                explain="6.2: fleets are placed next to a friendly, totally controlled land area with a city — a port.",
                why_not={"in any sea area": "A new fleet needs a friendly port on the sea's coast.",
                         "only in a sea next to Barcelona": "Any city of a totally controlled land area will do, not only the capital."})
q4 = Quiz("A vassal holds two cities. Probability that it brings its master at least one TP?",
          1 - vassal_income(2)["0 TP"],
          explain="Each city pays on 1–4 (2/3); both fail with (1/3)² = 1/9, so at least one pays with 8/9.",
          hint="It is easier to count the chance that both dice miss.")
assert q1.is_right("10") and not q1.is_right("13")
assert q2.is_right("4") and not q2.is_right("3.5")
assert q3.is_right("in a sea next to a land area it totally controls that has a city") and not q3.is_right("in any sea area")
assert q4.is_right("8/9") and not q4.is_right("2/3")
w.VBox([q1, q2, q3, q4])'''),
        md("""## What to remember

- One treasury per player (allies included), collected once a turn: cities, vassal dice, Gold, Trade
  Concession (6.0, 6.1).
- **Never more than 10 TP**: the excess is lost, so saving has a ceiling (6.1).
- Levies ½ TP in pairs, 1 TP alone; armies, mercenaries, raiders 1; fleets 2; no more than the counters (6.2).
- New units go to totally controlled areas, three at most per area; allies' only to cities; fleets to a
  friendly port's sea (6.2).

Next: *Politics* (7.x) — how a side wins allies and vassals, whose cities then pay."""),
    ]

# ------------------------------------------------------------------------------------------------
# Politics (7.x)
# ------------------------------------------------------------------------------------------------
def politics() -> list[Any]:
    """Cells of tutorials/politics: rounds and limits, thwarting, the Diplomacy Table, the 5.1 example played out."""
    return [
        md("""# Politics — *Mediterranean Empires*, rule 7

*A lesson of about 15 minutes. Run the cells from top to bottom (Run → Run All Cells).*

France, Anjou and Aragon cannot be talked round (7.0), but every other power on the map can: Genoa, Venice,
Castile, the Papal States… In our own words:

- **Rounds** (5.1, 7.0): the Joint Political Phase has three rounds; in each, Player A then Player B may
  make one attempt, paying one Diplomacy stratagem marker for it.
- **One of each kind per turn** (5.1, 7.0): at most one **diplomacy** attempt (make a neutral an ally, or
  push the opponent's ally or vassal back to neutrality, 7.1), one **vassalage** attempt (a neutral
  becomes a vassal, 7.2) and one **rebellion** (raise a conquered power against its conqueror, 7.3). Each
  time a player passes, one of the kinds still open is forfeited.
- **Thwarting** (7.0): the other player may spend a marker of his own to try to stop the attempt. Both
  roll a die, each may add a King's diplomacy rating, +1 for holding the Pope, +1 for one TP spent; if
  the attempting player's total is **at least** the other's, the attempt goes ahead.
- **The Diplomacy Table**: the attempting player rolls one die (with the same kinds of modifiers) and
  reads the column of the attempt: an alliance needs 5 or more, a vassalage 4 or more, a rebellion 5 or
  more.

We play the rule book's own example (5.1) with medviz's **record mode**: we enter the dice ourselves, as a
class would at a real table, and the engine checks every step."""),
        code(r'''from fractions import Fraction

import ipywidgets as w
import pandas as pd

from medviz.apps.odds_chart import OddsExplorer, Quiz, percent
from medviz.apps.quiz import ChoiceQuiz
from medviz.engine import IllegalAction
from medviz.engine.dice import distribution
from medviz.engine.record import Recorder

one_die = distribution("1d6")
rec = Recorder("medempires", "vespers-1282")  # every side played "at the table"; dice entered by us
table = rec.state.data.politics                 # the Diplomacy Table as the game reads it
columns = ("diplomacy", "vassalage", "rebellion")
pd.DataFrame({col: {("7+" if roll == 7 else roll): table.result(col, roll) for roll in range(1, 8)} for col in columns})'''),
        md("""## How likely is an attempt?

With a modifier *m* (a King's diplomacy rating, +1 for the Pope, +1 for a TP), the chance that one die
reaches each column's threshold:"""),
        code(r'''success = {"diplomacy": "alliance", "vassalage": "vassalage", "rebellion": "rebellion"}

def attempt_odds(column: str, modifier: int) -> Fraction:
    return sum((p for face, p in one_die.items() if table.result(column, face + modifier) == success[column]), Fraction(0))

odds = pd.DataFrame({f"modifier +{m}": {col: percent(attempt_odds(col, m)) for col in columns} for m in range(4)})
assert attempt_odds("diplomacy", 0) == Fraction(1, 3) and attempt_odds("vassalage", 0) == Fraction(1, 2)
odds'''),
        md("""## Thwarting (7.0)

Both sides roll; the attempt goes ahead when the attempting player's total is at least the other's — ties
favour the attempt. Move the sliders: the chart shows the exact chance that the thwart fails."""),
        code(r'''def thwart(attempting_bonus: int, thwarting_bonus: int) -> dict[str, Fraction]:
    goes_ahead = sum((pa * pt for a, pa in one_die.items() for t, pt in one_die.items()
                      if a + attempting_bonus >= t + thwarting_bonus), Fraction(0))
    return {"the attempt goes ahead": goes_ahead, "thwarted": 1 - goes_ahead}

thwart_explorer = OddsExplorer({"attempting_bonus": w.IntSlider(value=0, min=0, max=4, description="attempting +"),
                                "thwarting_bonus": w.IntSlider(value=0, min=0, max=4, description="thwarting +")},
                               thwart, describe=lambda **v: "Thwart attempt (7.0)", height=300, width=520)
assert thwart_explorer.current["the attempt goes ahead"] == Fraction(21, 36)
thwart_explorer'''),
        md("""## The 5.1 example, played out

The rule book's example: a player tries to make an ally of a power and fails; in the next round he may
still try to make it a **vassal** — but not another alliance, with anyone, that turn.

First the set-up (the computer places the counters as in 1282) and the stratagem draws, which we enter as
if drawn from a real cup: each player gets two Diplomacy markers."""),
        code(r'''rec.set_up()
cup = {"A": ["diplomacy", "diplomacy", "gold", "military_advantage"], "B": ["diplomacy", "ambush", "gold", "piracy"]}
while rec.pending_chance is not None and rec.pending_chance.kind == "draw":
    drawn = rec.pending_chance
    rec.enter(cup[drawn.actor].pop(0))
assert rec.pending is not None and rec.pending.decision == "GT1/politics/round-1/A"
print(rec.pending.prompt, "—", len(rec.pending.options), "legal options, e.g.", ", ".join(rec.pending.keys[1:7]))'''),
        md("""**Round 1.** Player A (France and Anjou) tries to ally with **Genoa**. Aragon lets it stand, A adds no King
and spends no TP — and the die shows a **1**: no effect."""),
        code(r'''def answer_all(prefix: str, choice: str) -> None:
    """Answer every decision under ``prefix`` with ``choice`` (thwart? King? TP?)."""
    while rec.pending is not None and rec.pending.decision.startswith(prefix):
        rec.choose(choice if choice in rec.pending.keys else rec.pending.keys[0])

start = len(rec.events)
rec.choose("diplomacy:genoa")
answer_all("GT1/politics/round-1/A/", "none")
rec.enter(1)                                     # the die the table rolled
for e in rec.events[start:]:
    if e.kind in ("decision", "roll", "report"):
        print(rec.describe(e))
assert rec.state.status["genoa"] == "neutral"'''),
        md("""Player B passes (and forfeits one kind of attempt). **Round 2**: what may A try now? The engine offers only
legal attempts; a second alliance — with Castile, say — is refused, and the refusal names its rule."""),
        code(r'''rec.choose("pass")
answer_all("GT1/politics/round-1/B", "rebellion")
offered = rec.pending.keys  # the options as keys ("diplomacy:genoa"); .options holds them typed
print("offered to A in round 2:", ", ".join(o for o in offered if "genoa" in o or o == "pass"), "…")
assert not any(o.startswith("diplomacy:") for o in offered) and "vassalage:genoa" in offered
try:
    rec.choose("diplomacy:castile")
except IllegalAction as refusal:
    print("refused:", refusal)
    assert "7.0" in str(refusal)'''),
        md("""So A tries vassalage against Genoa — the same power, a different kind of attempt. The die shows a **4**:
the Vassalage column needs 4 or more."""),
        code(r'''start = len(rec.events)
rec.choose("vassalage:genoa")
answer_all("GT1/politics/round-2/A/", "none")
rec.enter(4)
for e in rec.events[start:]:
    if e.kind in ("roll", "report", "change") and "may still" not in rec.describe(e):
        print(rec.describe(e))
assert rec.state.status["genoa"] == "vassal:A"'''),
        md("""What if the table had rolled a 3? Record mode can take an entry back (*undo*) and enter another die —
the same thing a class does when it discovers a mistake. Genoa then stays neutral."""),
        code(r'''rec.undo()           # takes back the die
rec.enter(3)
three = rec.state.status["genoa"]
rec.undo(); rec.enter(4)  # and back to what the table rolled
assert three == "neutral" and rec.state.status["genoa"] == "vassal:A"
print("with a 3:", three, "— with the 4 the table rolled:", rec.state.status["genoa"])'''),
        md("""## Exercises"""),
        code(r'''q1 = Quiz("Neither side adds anything to a thwart attempt. Probability that the attempt goes ahead?",
          thwart(0, 0)["the attempt goes ahead"],
          explain="The attempting player needs at least the other's die: 21 of the 36 pairs (ties go to the attempt).",
          hint="Who wins a tie when thwarting?")
q2 = ChoiceQuiz("Player A's alliance attempt with Genoa failed in round 1. What may A attempt in round 2?",
                ["another alliance, with Castile", "vassalage against Genoa", "nothing more this turn"],
                "vassalage against Genoa",
                explain="5.1's example: one attempt of each kind per turn, and a different kind against the same power is allowed.",
                why_not={"another alliance, with Castile": "Only one diplomacy attempt per game turn (7.0), whatever the target.",
                         "nothing more this turn": "A has used only its diplomacy attempt; vassalage and rebellion remain."})
q3 = Quiz("A King with diplomacy rating 1 helps a vassalage attempt. Probability of success?", attempt_odds("vassalage", 1),
          explain="The Vassalage column needs 4 or more: with +1, a die of 3 to 6 — 4/6 = 2/3.",
          hint="Find the lowest die that reaches the column's first success, once the +1 is added.")
assert q1.is_right("21/36") and not q1.is_right("15/36")
assert q2.is_right("vassalage against Genoa") and not q2.is_right("another alliance, with Castile")
assert q3.is_right("2/3") and not q3.is_right("1/2")
w.VBox([q1, q2, q3])'''),
        md("""## What to remember

- Three rounds; A then B; one Diplomacy marker per attempt; **one attempt of each kind per turn**, and a pass
  forfeits a kind (5.1, 7.0).
- A thwart is a die-off in which **ties favour the attempt**; Kings, the Pope and one TP add to either side (7.0).
- The Diplomacy Table: alliance 5+, vassalage 4+, rebellion 5+ — a vassal is the easiest to win and pays
  its master by dice (6.1).

Record mode, used here to enter the dice, records a whole real game the same way: see `docs/apps.md`,
*RecordTable*."""),
    ]

# ------------------------------------------------------------------------------------------------
# Moving armies and fleets (10.0-11.4)
# ------------------------------------------------------------------------------------------------
def moving() -> list[Any]:
    """Cells of tutorials/moving-armies-and-fleets: OPs, costs, interception, transport, 11.1 on the map, a priced plan."""
    return [
        md("""# Moving armies and fleets — *Mediterranean Empires*, rules 10.0–11.4

*A lesson of about 20 minutes. Run the cells from top to bottom (Run → Run All Cells).*

In the Operations Phase a player activates one **force** at a time: the units of one power that stand in
one area (10.0). In our own words:

- **Operation Points** (10.0): the force rolls two dice, adds its King's military value and up to two
  Military Advantage markers; the total, never more than **15**, is what the force may spend.
- **Costs** (Operation Point Cost Table): 1 OP for each land area a land force enters, or each sea area a
  fleet enters; 2 more to leave an area that holds enemy units; 2 to declare a combat; loading and
  unloading troops is free, except an **amphibious landing** into an enemy-held area (+1 OP, and the
  fleet's action ends, 11.2). A force cannot start an action it cannot pay for (10.1).
- **Where** (10.1): land units stay on land, fleets at sea; troops cross the straits between Sicily and
  Italy, or Sardinia and Corsica, only aboard a fleet. Entering a neutral power's land is an invasion: the
  neutral joins the other side.
- **Interception** (10.2): when a force enters or leaves an area with enemy units, the other player may try
  to stop it: one die, 4–6 succeeds; +1 if the force is leaving, −1 if several powers intercept, −1
  against raiders alone, ±1 for a Military Advantage marker of either side. A successful interception is a
  field battle the moving side cannot avoid, and costs the interceptor nothing.
- **Fleets** (11.1, 11.2): a fleet carries two land units and any number of Kings. Its first duty: if it
  does not start next to a friendly port — a totally controlled land area whose **city** is on that sea —
  it must first sail to such a sea, and do nothing else on the way."""),
        code(r'''from fractions import Fraction

import ipywidgets as w
import pandas as pd

from medviz.apps.common import MapPane
from medviz.apps.odds_chart import OddsExplorer, Quiz, percent
from medviz.apps.quiz import ChoiceQuiz
from medviz.engine import IllegalAction
from medviz.engine.dice import distribution
from medviz.engine.game import GameSpec, Snapshot, Task, run
from medviz.engine.policy import FirstOptionPolicy, HumanSeat
from medviz.rules.medempires.game.deploy import set_up_state
from medviz.rules.medempires.game.legality import HumanPlayer
from medviz.rules.medempires.game.state import refresh_control
from medviz.rules.medempires.ruleset import RULESET

def position(units):
    """The standard map with only ``units`` on it: (area, power, unit code) triples (control follows them)."""
    s = set_up_state("standard", {})
    s.units, s.kings = {}, {}
    refresh_control(s)
    for area, power, code in units:
        here = s.units.setdefault(area, {})
        here[(power, code)] = here.get((power, code), 0) + 1
        refresh_control(s, (area,))
    return s

costs = position([]).data.operations.costs  # the Operation Point Cost Table as the game reads it
assert costs["ground_move"] == costs["naval_move"] == 1 and costs["combat"] == 2 and costs["leave_enemy_area"] == 2
pd.Series(costs, name="OPs")'''),
        md("""## How many OPs? (10.0)

Two dice plus a King and markers, capped at 15. Move the sliders: the chart is the exact distribution."""),
        code(r'''def ops(king: int, markers: int) -> dict[str, Fraction]:
    out: dict[str, Fraction] = {}
    for total, p in distribution("2d6").items():
        key = f"{min(total + king + markers, 15)}"
        out[key] = out.get(key, Fraction(0)) + p
    return out

ops_explorer = OddsExplorer({"king": w.IntSlider(value=0, min=0, max=3, description="King's value"),
                             "markers": w.IntSlider(value=0, min=0, max=2, description="Mil. advantage")},
                            ops, describe=lambda **v: "OPs of one force (10.0)", height=300, width=560)
assert ops_explorer.current["7"] == Fraction(1, 6) and ops(3, 2)["15"] == Fraction(6, 36)
ops_explorer'''),
        md("""With Peter III (3) and two markers, every roll of 10 or more gives 15 — the cap takes the rest.

## Interception (10.2)

One die, 4 or more succeeds, with the modifiers above:"""),
        code(r'''def interception(leaving: bool = False, several_powers: bool = False, raiders_only: bool = False,
                 interceptor_marker: bool = False, mover_marker: bool = False) -> Fraction:
    m = int(leaving) - int(several_powers) - int(raiders_only) + int(interceptor_marker) - int(mover_marker)
    return sum((p for face, p in distribution("1d6").items() if face + m >= 4), Fraction(0))

cases = {"entering": interception(), "leaving": interception(leaving=True),
         "entering, raiders only": interception(raiders_only=True),
         "leaving, interceptor spends a marker": interception(leaving=True, interceptor_marker=True)}
assert cases["entering"] == Fraction(1, 2) and cases["leaving"] == Fraction(2, 3)
pd.Series({k: percent(v) for k, v in cases.items()}, name="interception succeeds")'''),
        md("""## The 11.1 example, step by step on the map

The rule book's example: an Angevin fleet lies in the sea south-west of Sardinia. Caralis (Cagliari) is
Anjou's, but Cagliari's harbour is on the *other* sea, south-east of the island — so this sea has no
friendly port and the fleet must sail before it may do anything else. It enters the Balearic Sea (1 OP;
Majorca is Anjou's), the Sea of Sardinia (1 OP), takes aboard a levy from Arborea (free), sails into the
Gulf of Lion (1 OP) and lands the levy in Provence (free): **3 OPs** in all.

We run it through the real rules, one action at a time (the OP roll is set to 7)."""),
        code(r'''EXAMPLE = [("sea_sw_sardinia", "anjou", "F"), ("caralis", "anjou", "L"), ("majorca", "anjou", "L"),
           ("arborea", "anjou", "L"), ("bougie", "aragon", "R"), ("provence", "france", "L")]
P = "GT1/ops-A/force-1"
STEPS = [(P, "sea_sw_sardinia|anjou|all"), (f"{P}/action-1", "move:balearic_sea"), (f"{P}/action-2", "move:sardinian_sea"),
         (f"{P}/action-3", "embark:arborea:anjou:L"), (f"{P}/action-4", "move:gulf_of_lion"),
         (f"{P}/action-5", "debark:provence:anjou:L"), (f"{P}/action-6", "end")]

def play_force(units, choices, side="A", ops=7, then=None):
    """Run one force's action from a hand-built position; ``then`` answers what the choices leave open
    (None: stop there). Illegal choices are refused with their rule (IllegalAction)."""
    player = HumanPlayer(dict(choices), then if then is not None else HumanSeat())
    spec = GameSpec(RULESET, "standard", {}, 0, {"A": player, "B": player}, {f"GT1/ops-{side}/force-1/ops": ops})
    return run(spec, Snapshot(0, position(units), (Task.of("game.activate", side=side, n=1),), 1, None), ())

def spent(result) -> int:
    return sum(e.data["ops"] for e in result.events if e.kind == "change" and e.change == "force-spends")

stages = [play_force(EXAMPLE, STEPS[:k]) for k in range(1, len(STEPS) + 1)]  # stage k: just after STEPS[k]
for k, r in enumerate(stages):
    print(f"step {k}: {STEPS[k][1]:28} OPs spent so far: {spent(r)}")
assert spent(stages[-1]) == 3 and ("anjou", "L") in stages[-1].state.units["provence"]
first_moves = stages[0].pending.keys
assert all(o == "end" or o.startswith("move:") for o in first_moves)  # 11.1: only sailing until a friendly port
print("offered before reaching a friendly port:", ", ".join(first_moves))'''),
        md("""Before the fleet reaches a friendly port, the engine offers only moves; asked to take the Caralis levy
aboard at once, it refuses and names the rule:"""),
        code(r'''try:
    play_force(EXAMPLE, STEPS[:1] + [(f"{P}/action-1", "embark:caralis:anjou:L")])
except IllegalAction as refusal:
    print(refusal)
    assert refusal.rule == "11.1"'''),
        md("""Step through the example on the map (the force's path is drawn as it goes):"""),
        code(r'''views = [RULESET.live_view(r.state, r.events, 1, "operations-A") for r in stages]
pane = MapPane(views[0], 900, 520, ruleset=RULESET)
step = w.IntSlider(value=0, min=0, max=len(views) - 1, description="step")
words = w.HTML()
def show(_change=None):
    pane.show(views[step.value])
    words.value = f"<b>step {step.value}</b>: {STEPS[step.value][1]} — {spent(stages[step.value])} OP(s) spent"
step.observe(show, names="value")
show()
assert views[-1]["units"]["provence"]
w.VBox([w.HBox([step, words]), pane.figure])'''),
        md("""## Plan a march — the tutorial prices it

An Aragonese field army stands in the Kingdom of Valencia, alone on the map with a French levy in Provence.
Write its march as the areas it enters, in order (ids as on the map, e.g. `lower_aragon, upper_aragon`), and
choose the OPs it rolled. The real rules run the march: they price it, or refuse it with the rule."""),
        code(r'''MARCH = [("valencia", "aragon", "FA"), ("provence", "france", "L")]
Q = "GT1/ops-B/force-1"

def price_march(path: str, ops: int = 12) -> str:
    areas = [a.strip() for a in path.split(",") if a.strip()]
    choices = [(Q, "valencia|aragon|all")] + [(f"{Q}/action-{i}", f"move:{a}") for i, a in enumerate(areas, 1)]
    choices.append((f"{Q}/action-{len(areas) + 1}", "end"))
    try:
        r = play_force(MARCH, choices, side="B", ops=ops, then=FirstOptionPolicy())
    except IllegalAction as refusal:
        return f"Refused: {refusal}"
    moved = sum(1 for e in r.events if e.kind == "change" and e.change == "force-moved")
    words = f"{moved} area(s) entered: {spent(r)} OP(s) of {ops}; {ops - spent(r)} left."
    if moved < len(areas):
        words += f" The march stops at {areas[moved - 1] if moved else 'the start'}: no OPs left for the next area (10.1)."
    notes = [RULESET.describe_in(r.state, e) for e in r.events if e.kind == "report"]
    return " ".join([words, *notes])

route = w.Text(value="murcia, new_castile", description="march", layout=w.Layout(width="520px"))
rolled = w.IntSlider(value=7, min=2, max=12, description="OPs rolled")
verdict = w.HTML()
def reprice(_change=None):
    verdict.value = price_march(route.value, rolled.value)
for c in (route, rolled):
    c.observe(reprice, names="value")
reprice()
assert price_march("lower_aragon, upper_aragon", 7).startswith("2 area(s) entered: 2 OP(s)")
assert price_march("murcia, majorca").startswith("Refused") and "rule 10.1" in price_march("murcia, majorca")
assert "stops at catalan_counties" in price_march("lower_aragon, catalan_counties, rossello", 2)
assert "Castile joins the other side" in price_march("murcia, new_castile")
w.VBox([route, rolled, verdict])'''),
        md("""Try `lower_aragon, catalan_counties, rossello` with 2 OPs rolled, a jump across the sea to `majorca`, or the
default march into New Castile — a neutral's land: an invasion (10.1).

## Exercises"""),
        code(r'''q1 = Quiz("In the 11.1 example, how many OPs does the whole action cost?", spent(stages[-1]), unit="number",
          explain="Three seas entered at 1 OP each; taking the levy aboard and landing it in a friendly area are free (11.2).",
          hint="What costs OPs at sea: entering a sea, or loading troops too?")
q2 = Quiz("A force with no King and no markers: probability of at least 10 OPs?",
          sum((p for k, p in ops(0, 0).items() if int(k) >= 10), Fraction(0)),
          explain="Two dice reach 10 or more in 6 of 36 ways (4+6, 5+5, 6+4, 5+6, 6+5, 6+6).",
          hint="Count the pairs of dice that total 10, 11 or 12.")
q3 = ChoiceQuiz("A fleet starts its action in a sea with no friendly port on its coast. What may it do first?",
                ["take troops aboard from a friendly area on that sea", "sail towards a sea with a friendly port, and nothing else until there",
                 "nothing: it must stay where it is"],
                "sail towards a sea with a friendly port, and nothing else until there",
                explain="11.1: it pays OPs to reach such a sea first; only there may it embark, land or fight.",
                why_not={"take troops aboard from a friendly area on that sea": "Not before it reaches a friendly port (11.1) — the engine refuses it.",
                         "nothing: it must stay where it is": "It may move; it just may not do anything else on the way."})
q4 = Quiz("An enemy force leaves an area where your army stands. Probability your interception succeeds (no markers)?",
          interception(leaving=True),
          explain="4–6 succeeds; leaving adds +1, so 3–6: 4/6 = 2/3.",
          hint="Which modifier applies to a force that is leaving the area?")
assert q1.is_right("3") and not q1.is_right("5")
assert q2.is_right("1/6") and not q2.is_right("1/12")
assert q3.is_right("sail towards a sea with a friendly port, and nothing else until there")
assert not q3.is_right("take troops aboard from a friendly area on that sea")
assert q4.is_right("2/3") and not q4.is_right("1/2")
w.VBox([q1, q2, q3, q4])'''),
        md("""## What to remember

- A force's OPs: 2d6 + King + up to two markers, never more than 15 (10.0).
- 1 OP per area entered; +2 to leave enemy company; 2 per combat; troops on and off a fleet free, except an
  amphibious landing (+1) (cost table, 11.2).
- Straits need a fleet; invading a neutral makes it the enemy's ally (10.1).
- Interception: 4–6 on a die, +1 against a force that leaves (10.2).
- A fleet away from a friendly port sails to one first (11.1).

Next: *Money and men* (6.x) — where the armies come from."""),
    ]

# ------------------------------------------------------------------------------------------------
# Kings, Popes and stratagems (8, 9, 12)
# ------------------------------------------------------------------------------------------------
def kings() -> list[Any]:
    """Cells of tutorials/kings-popes-stratagems: ratings, deaths and successors, the Pope, the stratagem cup."""
    return [
        md("""# Kings, Popes and stratagems — *Mediterranean Empires*, rules 8, 9 and 12

*A lesson of about 15 minutes. Run the cells from top to bottom (Run → Run All Cells).*

In our own words:

- **Kings** (8.0) carry two ratings: **diplomacy** (added to political rolls, once a turn, 7.0) and
  **military** (added to OP rolls, initiative, avoiding combat and combat rolls, as often as needed). Player A
  has two Kings, France's and Naples'; Player B one, Aragon's.
- **A King dies** (8.1) when every unit with him is destroyed in battle, or at the end of each turn on a
  die of **5 or 6** (disease, old age). In the next Recruitment Phase his side draws a successor at random
  from that crown's pool and sets him with his own power's units. (medviz's games follow ruling D by
  default: the successor is the next of the crown's line whose reign reaches the turn, so Kings come in
  their time — `docs/rulings.md`. This lesson plays 8.1 as written, option `dead_kings_stay_dead` off, to
  show the draw.)
- **The Pope** (8.2) is a stratagem marker placed in Rome by a side that controls it; he adds to one
  political roll a turn. At each end of turn the side that last held him rolls: on a **6** he dies and goes
  back to the cup.
- **Stratagem markers** (9.0): in each Stratagem Phase A and B draw in turn, blind, until each has four (no
  passing). They are kept secret until used; some act when drawn (Plague, Crusade, the Pope), most wait for
  their moment (12.0). Markers of the two sides cancel each other: two Military Advantages on one roll add
  nothing.

The rules name the starting Kings and the kinds of markers, but **not** the successors nor how many of each
marker the cup holds: medviz reconstructs both from history and says so in every entry (see
`docs/data-provenance.md`); a teacher may load other data."""),
        code(r'''from fractions import Fraction
from math import comb

import ipywidgets as w
import pandas as pd

from medviz.apps.odds_chart import Quiz, distribution_figure, percent
from medviz.apps.quiz import ChoiceQuiz
from medviz.engine import diff, play
from medviz.engine.dice import distribution
from medviz.engine.policy import parse_policy
from medviz.rules.medempires.ruleset import RULESET

# 8.1 as written: a dead King's successor is drawn at random from his crown's pool
game = play(RULESET, "vespers-1282", {"dead_kings_stay_dead": False}, seed=0,
            players={side: parse_policy("historical", RULESET.policies) for side in ("A", "B")})
data = game.final_state.data
kings = pd.DataFrame([{"King": k.name, "crown": data.powers[k.pool].name, "diplomacy": k.diplomacy, "military": k.military,
                       "reign": k.reign, "source": k.provenance.get("rule") and f"rule {k.provenance['rule']}" or "reconstructed"}
                      for k in data.kings.values()])
assert (data.kings["peter_iii"].diplomacy, data.kings["peter_iii"].military) == (2, 2)
kings'''),
        md("""## How long does a King live? (8.1, 8.2)

At each end of turn a King survives with probability 4/6 = 2/3, the Pope with 5/6. Over the seven turns of a
full game (1.1) a King's chance to reach the end alive is small:"""),
        code(r'''one_die = distribution("1d6")
king_lives = sum(p for face, p in one_die.items() if face <= 4)
pope_lives = sum(p for face, p in one_die.items() if face <= 5)
survival = {f"after {n} turn{'s' if n > 1 else ''}": king_lives ** n for n in range(1, 8)}
assert king_lives == Fraction(2, 3) and pope_lives == Fraction(5, 6) and survival["after 7 turns"] == Fraction(128, 2187)
distribution_figure(survival, title="A King still alive (8.1: he dies on 5-6 each end of turn)", height=320)'''),
        md("""## The Kings of a real game

medviz's *historical* players, seed 0. Every death roll has an id that names its King; so does the draw of a
successor."""),
        code(r'''for e in game.events:
    key = getattr(e, "roll", "") or getattr(e, "draw", "")
    if e.turn in (1, 2) and ("king" in key or "pope" in key):
        print(f"[{e.seq}] {key:32} {game.describe(e)}")
death = "GT1/end/king-death/philip_iii"
successor = "GT2/recruit/new-king/france"
assert game.value_of(death) == 6 and game.value_of(successor) == "louis_x"'''),
        md("""Philip III dies at the end of the first turn (a 6), and France draws **Louis X**, who adds nothing to
diplomacy or war. Two questions a class might ask, each answered by changing one chance event and nothing else:

1. *What if Philip III had rolled a 2?*
2. *What if France had drawn Philip IV the Fair (diplomacy 2) instead?*"""),
        code(r'''lived = game.branch(death, 2)
print("1.", "\n   ".join(diff(game, lived).summary(game.describe).splitlines()[:4]))
assert lived.value_of(death) == 2
assert not any(getattr(e, "draw", "") == successor for e in lived.events)  # no successor needed in turn 2
fair = game.branch(successor, "philip_iv")
print("2.", "\n   ".join(diff(game, fair).summary(game.describe).splitlines()[:4]))
assert fair.value_of(successor) == "philip_iv"
for label, h in (("as played", game), ("Philip III lives", lived), ("Philip IV drawn", fair)):
    print(f"{label:18} winner {h.outcome['winner']}, VP {h.outcome['vp']}")
assert not diff(game, fair).identical and not diff(game, lived).identical'''),
        md("""A different King is not just a name: with Philip IV the game goes another way from his first political
attempt on (compare the winners and VP printed above). Open either branch in the replay viewer (`medviz.apps.ReplayViewer(fair)`) to see where.

## The stratagem cup (9.0, 12.0)

The cup as it stood at the first draw of the game, with medviz's summary of each marker:"""),
        code(r'''first_draw = next(e for e in game.events if e.kind == "draw" and "/stratagems/" in e.draw)
cup = {m: first_draw.pool.count(m) for m in sorted(set(first_draw.pool))}
pd.DataFrame([{"marker": data.stratagems[m].name, "in the cup": n, "what it does": data.stratagems[m].summary} for m, n in cup.items()])'''),
        md("""A player draws four markers. The chance that at least one of them is a Diplomacy marker — without one,
that player can make no political attempt this turn (7.0) — follows from counting the ways to draw four
markers among those in the cup:"""),
        code(r'''def at_least_one(kind: str, draws: int = 4) -> Fraction:
    total, good = len(first_draw.pool), cup.get(kind, 0)
    return 1 - Fraction(comb(total - good, draws), comb(total, draws))

chances = {data.stratagems[m].name: at_least_one(m) for m in ("diplomacy", "military_advantage", "gold", "pope")}
assert len(first_draw.pool) == 26 and cup["diplomacy"] == 6
distribution_figure(chances, title="At least one in four draws", height=320)'''),
        md("""## Exercises"""),
        code(r'''q1 = Quiz("Probability that a King survives one end-of-turn roll?", king_lives,
          explain="He dies on 5 or 6 (8.1), so he lives on 1-4: 4/6 = 2/3.",
          hint="Which faces kill him?")
q2 = ChoiceQuiz("Both players spend a Military Advantage marker on the same combat roll. What is the net modifier?",
                ["+1 for the attacker", "0: the markers cancel", "-2 for the attacker"], "0: the markers cancel",
                explain="9.0's example: the attacker's +1 and the defender's -1 cancel each other.",
                why_not={"+1 for the attacker": "The defender's marker counts too: -1 against the attacker.",
                         "-2 for the attacker": "Each marker is worth one, in opposite directions."})
q3 = Quiz("Probability that the Pope dies at a given end of turn?", 1 - pope_lives,
          explain="8.2: only a 6 kills him: 1/6.", hint="He is hardier than a King: which single face ends his reign?")
q4 = Quiz("Four draws from the cup of 26 with 6 Diplomacy markers: probability of at least one Diplomacy?",
          at_least_one("diplomacy"),
          explain="1 - C(20,4)/C(26,4) = 1 - 4845/14950 ≈ 67.6%.",
          hint="Count the ways to draw four markers none of which is Diplomacy.")
assert q1.is_right("2/3") and not q1.is_right("1/3")
assert q2.is_right("0: the markers cancel") and not q2.is_right("+1 for the attacker")
assert q3.is_right("1/6") and not q3.is_right("1/3")
assert q4.is_right("67.6%") and not q4.is_right("6/26")
w.VBox([q1, q2, q3, q4])'''),
        md("""## What to remember

- Kings: diplomacy for politics (once a turn), military for OPs and battles (every time) (8.0).
- A King dies with his last unit, or on 5–6 at each end of turn; a successor is drawn next turn (8.1).
- The Pope helps one political roll a turn; he dies on a 6 (8.2).
- Four blind draws each per turn; markers are secret until used and cancel each other (9.0, 12.0).
- Successors and the cup's mix are reconstructed by medviz, with their sources; change one die or one draw
  and only that changes."""),
    ]


NOTEBOOKS_HERE: dict[str, tuple[str, Callable[[], list[Any]]]] = {
    "battle-step-by-step": ("rt-battle", battle),
    "moving-armies-and-fleets": ("rt-moving", moving),
    "money-and-men": ("rt-money", money),
    "politics": ("rt-politics", politics),
    "kings-popes-stratagems": ("rt-kings", kings),
}


def main(names: list[str]) -> None:
    """Write the tutorials named (all when none) into notebooks/tutorials/."""
    (NOTEBOOKS / "tutorials").mkdir(exist_ok=True)
    for name in names or list(NOTEBOOKS_HERE):
        prefix, cells = NOTEBOOKS_HERE[name]
        write_notebook(cells(), f"tutorials/{name}", prefix)


if __name__ == "__main__":
    main(sys.argv[1:])
