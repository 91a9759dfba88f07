"""Medieval's log in plain words: every event of seeded 3, 4 and 5-player games (random players, which
reach the most corners, and heuristic ones, with and without trading) is told without a raw id of a
Power, province, card, change, report or decision, in the teacher's view and in each seat's view;
the options of a decision too (the play table's buttons)."""

from __future__ import annotations

import re
from collections import Counter
import pytest

from medviz.engine import ChangeEvent, DecisionEvent, DecisionPoint, Event, History, RandomPolicy, ReportEvent, play
from medviz.rules.medieval_xiii.gamedata import load_game_data
from medviz.rules.medieval_xiii.players import HeuristicPolicy
from medviz.rules.medieval_xiii.ruleset import RULESET

DATA = load_game_data()
#: Ids that must never reach a reader: data ids (all lowercase; names are capitalised), and the names
#: of changes, reports and options the rule code uses.
RAW = ({*DATA.powers, *DATA.provinces, *DATA.action_cards, *(f"power-{p}" for p in DATA.powers)}
       | {"no-passage", "sea-battle", "mongol-battle", "mongols-no-event", "mongols-no-target", "powers-table",
          "recorded-choice-illegal", "collect-income", "draw-map-card", "no-map-card", "let-it-be", "no-spies",
          "no-knights", "no-jihad", "end-civil-war", "end-heresy", "knights-attack", "papal-passage", "map-deck",
          "action-deck", "first-selector", "first-player"})
#: Option names are what a user types (``--option max_rounds=8``), so a reason may name one.
OPTIONS = set(RULESET.options("three-players"))
TOKEN = re.compile(r"[A-Za-z0-9_\-]+")


def raw_bits(text: str) -> list[str]:
    """What in ``text`` is an id rather than a word."""
    bits = [t for t in TOKEN.findall(text) if (t in RAW or "_" in t) and t not in OPTIONS]
    bits += re.findall(r"\bT\d+/\S*|FrozenDict|\w+=|[{}\[\]]", text)
    return bits


def games() -> list[History]:
    out = []
    for n, scenario in ((3, "three-players"), (4, "four-players"), (5, "five-players")):
        seats = "ABCDE"[:n]
        for seed in (1, 2):
            out.append(play(RULESET, scenario, {}, seed=seed, players={s: RandomPolicy(seed * 9 + i) for i, s in enumerate(seats)}))
        out.append(play(RULESET, scenario, {}, seed=3, players={s: HeuristicPolicy(i) for i, s in enumerate(seats)}))
        out.append(play(RULESET, scenario, {"trading": True, "max_rounds": 8}, seed=4,
                        players={s: RandomPolicy(40 + i) for i, s in enumerate(seats)}))
    return out


@pytest.fixture(scope="module")
def histories() -> list[History]:
    return games()


def kind(e: Event) -> str:
    if isinstance(e, ChangeEvent):
        return f"change:{e.change}" + (f":{e.data['key']}" if e.change == "turn_flag" else "")
    if isinstance(e, ReportEvent):
        return f"report:{e.report}"
    if isinstance(e, DecisionEvent):
        return "decision:" + re.sub(r"^T\d+/[A-E]/|/[A-E]$|-\d+", "", e.decision).split("/")[-1]
    return e.kind


def test_every_event_of_many_games_is_told_in_words_without_ids(histories: list[History]) -> None:
    seen: Counter[str] = Counter()
    for h in histories:
        seats = [s.id for s in RULESET.seats(h.scenario)]
        for e in h.events:
            seen[kind(e)] += 1
            words = h.describe(e)
            assert words and not raw_bits(words), f"{h.scenario} seed {h.seed} {kind(e)}: {words!r} {raw_bits(words)}"
            for seat in seats:
                mine = h.describe(e, seat)
                assert mine and not raw_bits(mine), f"{seat}: {mine!r}"
    # the games reach every kind of event the rules record (so every kind was checked above)
    for needed in ("change:move_card", "change:draw_card", "change:florins", "change:control", "change:home",
                   "change:ruler", "change:map_card", "change:excommunicated", "change:marriage", "change:disaster",
                   "change:civil_war", "change:heresy", "change:peek", "change:game_over", "change:turn_flag:battle",
                   "change:turn_flag:traded", "report:battle", "report:militia", "report:attack", "report:crusade",
                   "report:mongol-battle", "report:mongols-no-event", "report:powers-table", "report:income",
                   "report:trade", "report:cancelled", "roll", "draw", "shuffle", "phase", "decision:attacker",
                   "decision:commit", "decision:permission", "decision:trade", "decision:naval-drm"):
        assert seen[needed], f"no {needed} in the sample games: {sorted(seen)}"


def test_a_seat_reads_neither_other_hands_nor_a_secret_bid_before_it_is_revealed(histories: list[History]) -> None:
    h = histories[0]
    draw = next(e for e in h.events if isinstance(e, ChangeEvent) and e.change == "draw_card" and e.data["seat"] == "B")
    assert h.describe(draw, "B") == h.describe(draw) and "card" in h.describe(draw)
    assert h.describe(draw, "A") == "Player B draws a card"
    bid = next(e for e in h.events if isinstance(e, DecisionEvent) and e.secret)
    other = next(s for s in "ABC" if s != bid.actor)
    assert "in secret" in h.describe(bid, other) and "in secret" not in h.describe(bid, bid.actor)
    shuffle = h.shuffles()[0]
    assert "face down" in h.describe(shuffle, "A") and "top one" in h.describe(shuffle)


def test_every_option_of_every_decision_has_words(histories: list[History]) -> None:
    for h in histories[:4]:
        for e in h.decisions():
            state = h.state_at(e.seq)
            point = DecisionPoint(e.decision, e.actor or "", e.options, RULESET.observe(state, e.actor or "A"))
            for o in e.options:
                words = RULESET.describe_option(point, o)
                assert words and not raw_bits(words), f"{e.decision}: {o!r} -> {words!r}"


def test_words_name_things_as_the_data_does() -> None:
    from medviz.rules.medieval_xiii.words import card, option_words

    assert card(DATA, "pope-innocent_iii") == "the Pope card Innocent III"
    assert card(DATA, "knights_of_christ-templars_1") == "the Knights of Christ card Templars"
    assert card(DATA, "spies-2") == "a Spies card" and card(DATA, "assassin-1") == "an Assassin card"
    assert card(DATA, "power-france") == "the Power card of France"
    assert option_words(DATA, {"do": "attack", "power": "france", "target": "hre_2b", "route": "land"}) == \
        f"attack {DATA.provinces['hre_2b'].name} with France by land"
    assert option_words(DATA, -1) == "no" and option_words(DATA, 2) == "+2"
