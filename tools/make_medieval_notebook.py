"""Write notebooks/medieval-europe.ipynb (an annotated four-player game of Medieval) from this script, outputs empty.

Run: .venv/bin/python tools/make_medieval_notebook.py   (the notebook is committed; this keeps its
source reviewable as code).
"""

from __future__ import annotations

import nbformat as nbf
from nbwrite import write_notebook

md, code = nbf.v4.new_markdown_cell, nbf.v4.new_code_cell

CELLS = [
    md("""# Europe in the XIIIth century — an annotated game of *Medieval*

*Medieval: The XIIIth Century in Europe* is a card game for three to five players. Each player drafts
Powers — France, the Holy Roman Empire, Venice, the Seljuks of Rum… — and plays Action Cards: Popes who
call Crusades and excommunicate, Spies, Assassins, Heresy, Civil War, Disasters, and the **Mongols**,
whose cards end the game by destroying the map cards of the east one after another. The map is not a
board: it is nineteen map cards laid out as Europe, eight of them face up at the start and the rest
drawn as the game goes on.

Here four players (seats A–D) are played by medviz's heuristic player. The notes beside the replay
tie the game's cards and dice to what happened in the century — the Fourth Crusade, Frederick II and
the popes, the Albigensian and Baltic crusades, the Reconquista, the Mongol invasion of 1237–1242.
They come from `annotations/medieval-europe.toml`, a file you can copy and edit.

Run the cells from top to bottom (*Run → Run All Cells*)."""),
    code("""from medviz.engine import get_ruleset, play
from medviz.export.annotations import load_annotations
from medviz.rules.medieval_xiii.players import HeuristicPolicy
from medviz.viz import state_map
from medviz.apps import DiceLab, ReplayViewer

medieval = get_ruleset("medieval-xiii")
players = {seat: HeuristicPolicy.from_spec(str(i)) for i, seat in enumerate("ABCD")}
history = play(medieval, "four-players", {}, seed=3, players=players)
notes = load_annotations("annotations/medieval-europe.toml", history)
print(f"{len(history):,} events, {len(history.rolls())} dice rolls and draws, {len(history.shuffles())} shuffled decks")
print("Winner:", history.outcome["winner"], "— VP", history.outcome["scores"], "—", history.outcome["reason"])"""),
    md("""## The table after the draft

Each province takes the colour of the player whose control marker is on it. Map cards not yet drawn lie
**face down** (striped card-back brown); the panel on the right gives each player's victory points
(12.0: the income of the provinces held, plus one for each whole Power), florins, cards in hand and
Powers."""),
    code("""first_turn = next(p.start for p in history.phases() if p.turn == 1)
state_map(medieval.view_at(history, first_turn), ruleset=medieval, width=1200, height=720)"""),
    md("""## Step through the game

Press ▶ or drag the slider; the drop-down jumps to a round and phase. A gold star is a province taken
in battle this step, a grey star a province that held, a red star a Mongol attack. The **seen by**
menu shows the table as one player sees it: his own hand, only the number of cards in the others'."""),
    code("""ReplayViewer(history, annotations=notes, start=first_turn)"""),
    md("""## The Mongols at the end

By the last card the Mongols have destroyed map cards in the east (dark, cross-hatched in red); the
cards east of a destroyed one left the game unplayed (grey)."""),
    code("""state_map(medieval.view_at(history, len(history) - 1), ruleset=medieval, width=1200, height=720)"""),
    md("""## What if Rus' had held? Change one die

Every die has an id that says what it is for. The first Mongol attack of this game falls on map card
1D; its defence die is `T6/A/mandatory-1/map-card`. Give it a 6 and let the game run on: every other
die keeps its value where the same roll happens again. Do the Mongols still take the Russian lands?"""),
    code("""die = "T6/A/mandatory-1/map-card"
print(die, "was", history.value_of(die), "—", history.roll(die).purpose)
held = history.branch(die, 6)
battle = next(e for e in held.events if e.kind == "report" and e.report == "mongol-battle" and e.seq > held.roll(die).seq)
print(f"The Mongols {battle.data['mongols']} against map card {battle.data['card']} {battle.data['defence']}:",
      "destroyed" if battle.data["winner"] == "mongols" else "it holds")
print("1D at the end of the game:", medieval.view_at(held, len(held) - 1)["cards"]["1D"])
print("Winner now:", held.outcome["winner"], "— VP", held.outcome["scores"])
for line in medieval.compare_views(medieval.view_at(history, len(history) - 1), medieval.view_at(held, len(held) - 1)):
    print(line)"""),
    md("""## What if Gregory IX had never been in Player C's hand? Change one card

The Action Deck is one shuffle, `action-deck`; the card at place *n* (1 = the top) is
`action-deck/n`. Put a Heresy card where Pope Gregory IX lay: the two cards swap places and every
other card stays where it was. Player C is dealt Heresy instead of the Pope who called the first
Crusade, and Gregory turns up later, in another hand. Count the crusades and see who wins now."""),
    code("""deck = history.roll("action-deck/1")
place = f"action-deck/{deck.order.index('pope-gregory_ix') + 1}"
print(place, "holds", history.value_of(place))
no_pope = history.branch(place, "heresy-1")
crusades = lambda h: sum(1 for e in h.events if e.kind == "report" and e.report == "crusade")  # noqa: E731
print("Crusades called:", crusades(history), "as played,", crusades(no_pope), "without Gregory IX there")
print("Winner now:", no_pope.outcome["winner"], "— VP", no_pope.outcome["scores"])
for line in medieval.compare_views(medieval.view_at(history, len(history) - 1), medieval.view_at(no_pope, len(no_pope) - 1)):
    print(line)"""),
    code("""state_map(medieval.view_at(no_pope, len(no_pope) - 1), ruleset=medieval, width=1200, height=720)"""),
    md("""## Your turn: the dice lab

Pick any die — or any card place of a shuffled deck, listed after the dice — see how likely it was,
change it and watch the branch; the tree keeps every branch you explored."""),
    code("""DiceLab(history)"""),
    md("""## The dice lab from one seat

A seat's own lab: the map shows Player A's hand and only how many cards the others hold, the dice are
told in the words Player A may read, and the decks stay face down (no card places to change)."""),
    code("""DiceLab(history, seat="A", map_size=(None, 560))"""),
    md("""## Play it yourselves: one laptop, four players

A hot-seat table: four students share the screen. Before each decision the table hides everything
and names the player whose turn it is; only that player presses *Show my cards*, and sees the map
with their own hand (the others' hands only as a count), the question and its options. When the
decision passes to another seat (a Militia bid, a Permission, a Crusade), the screen comes up again."""),
    code("""from medviz.apps import PlayTable

table = PlayTable("four-players", ("A", "B", "C", "D"), seed=7, game="medieval-xiii", map_size=(None, 560))
table"""),
]

if __name__ == "__main__":
    write_notebook(CELLS, "medieval-europe", "medieval")
