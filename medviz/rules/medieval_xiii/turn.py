"""The flow of a game: set-up (2.0), the Player Turn (3.1) with its Action Phase, the end (3.5)
and victory (12.0). Each ``task_*`` function is one task of the game definition.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from typing import Any

from medviz.engine import Context, Task
from medviz.engine.events import FrozenDict
from medviz.rules.medieval_xiii import battle, cards, trade
from medviz.rules.medieval_xiii.decisions import Decision
from medviz.rules.medieval_xiii.control import (
    can_still_appear,
    gain,
    place_map_card,
    play_power_card,
    power_provinces,
    settle_powers,
)
from medviz.rules.medieval_xiii.gamedata import GameData, card_power, power_card
from medviz.rules.medieval_xiii.interrupts import holding, kind_of
from medviz.rules.medieval_xiii.passage import targets
from medviz.rules.medieval_xiii.state import MedievalState

SEAT_IDS = ("A", "B", "C", "D", "E")
SCENARIO_SEATS: Mapping[str, int] = {"three-players": 3, "four-players": 4, "five-players": 5}


def initial_state(scenario: str, data: GameData, max_rounds: int = 60) -> MedievalState:
    """The table before set-up: every card in its box; the homes of 2.3 (France 1B English, Spain 3A Almoravid)."""
    seats = SEAT_IDS[:SCENARIO_SEATS[scenario]]
    home = {p: (v.home_at_start or v.power) for p, v in data.provinces.items() if v.power}
    powers = [power_card(p) for p in data.powers]
    return MedievalState(
        scenario=scenario, data=data, seats=seats, florins={s: 0 for s in seats},
        hands={s: [] for s in seats}, front={s: [] for s in seats},
        table=[c for c in powers if data.powers[c[6:]].draft],
        aside=[c for c in powers if not data.powers[c[6:]].draft] + sorted(data.action_cards),
        map_deck=[c for c in data.cards if not data.cards[c].start],
        map_in_play=[c for c in data.cards if data.cards[c].start],
        home=home, ruler={p: v.ruler for p, v in data.powers.items()}, max_rounds=max_rounds,
    )


# -- set-up (2.0) ----------------------------------------------------------------------------

def draft_order(seats: list[str], picks_each: int) -> list[str]:
    """Reverse-draft order (2.2): 1-2-3 then 3-2-1, alternating, one Power per pick."""
    out: list[str] = []
    for r in range(picks_each):
        out += seats if r % 2 == 0 else list(reversed(seats))
    return out


def powers_border(s: MedievalState, a: str, b: str) -> bool:
    """Two Powers share a land border on map cards in play, counting held foreign homes (2.2)."""
    pa = [p for p, h in s.home.items() if h == a and s.in_play(p)]
    pb = {p for p, h in s.home.items() if h == b and s.in_play(p)}
    return any(q in pb for p in pa for q in s.data.borders[p])


def task_prepare(s: MedievalState, ctx: Context) -> None:
    """2.1-2.2: the Map Deck is shuffled; a marker from the cup says who selects first."""
    ctx.begin_phase("set-up", turn=0)
    order = ctx.shuffle("map-deck", s.map_deck, purpose="2.1: the Map Deck")
    ctx.change("map_deck", order=list(order))
    first = ctx.draw("first-selector", list(s.seats), purpose="2.2: who selects a Power first")
    i = s.seats.index(first)
    seats = list(s.seats[i:] + s.seats[:i])
    picks = 3 if len(s.seats) == 3 else 2
    ctx.schedule(*[Task.of("draft_pick", n=n, seat=seat) for n, seat in enumerate(draft_order(seats, picks), 1)],
                 Task.of("deal"))


def task_draft_pick(s: MedievalState, ctx: Context, n: int, seat: str) -> None:
    """One pick of the draft (2.2): no Power bordering one already chosen, unless nothing else is left."""
    pool = [card_power(c) or "" for c in s.table]
    mine = s.powers_of(seat)
    allowed = [p for p in pool if not any(powers_border(s, p, m) for m in mine)] or pool
    power = ctx.decide(f"setup/pick-{n}", seat, allowed, prompt="Select a Power (2.2)", kind=Decision.SELECT_POWER)
    ctx.change("move_card", actor=seat, card=power_card(power), to=f"front:{seat}", why="2.2: selected")


def task_deal(s: MedievalState, ctx: Context) -> None:
    """2.3-2.7: control markers, Start Fl, the Action Deck, four cards each, the player order."""
    ctx.begin_phase("set-up", turn=0)
    for seat in s.seats:
        for power in s.powers_of(seat):
            ctx.change("started", actor=seat, power=power)
            gain(s, ctx, seat, s.data.powers[power].start, f"Start Fl of {s.data.powers[power].name} (2.4)")
    for prov in sorted(s.home):
        holder = s.holder(s.home[prov])
        if holder is not None and s.in_play(prov):
            ctx.change("control", actor=holder, province=prov, seat=holder, why="2.3")
    deck = list(s.table) + [c for c in s.aside]
    order = ctx.shuffle("action-deck", deck, purpose="2.5: the Action Deck")
    ctx.change("action_deck", order=list(order), taken=deck)
    for seat in s.seats:
        for _ in range(s.data.c("hand_size")):
            ctx.change("draw_card", actor=seat, seat=seat, card=s.action_deck[0], why="2.6")
    first = ctx.draw("first-player", list(s.seats), purpose="2.7: who plays first")
    i = s.seats.index(first)
    ctx.change("order", order=list(s.seats[i:] + s.seats[:i]))
    ctx.schedule(Task.of("player_turn", checkpoint=True, round=1, index=0))


# -- the Player Turn (3.1) --------------------------------------------------------------------

def last_mongol_out(s: MedievalState) -> bool:
    """Every Mongol card has been played as an event (3.5)."""
    return s.mongols_resolved >= len(s.data.card_id("mongols"))


def end_game(s: MedievalState, ctx: Context, reason: str) -> None:
    """The game is over (3.5)."""
    if not s.over:
        ctx.change("game_over", reason=reason)


def task_player_turn(s: MedievalState, ctx: Context, round: int, index: int) -> None:
    """One Player Turn: A draw, B map card, C mandatory cards, D actions (3.1); then the next player."""
    seat = s.order[index]
    prefix = f"T{round}/{seat}"
    ctx.begin_phase("draw", turn=round)
    marked = [p for p in s.excommunicated + s.disaster if s.holder(p) is not None]
    ctx.change("begin_turn", actor=seat, round=round,
               turn={"seat": seat, "prefix": prefix, "attacks": 0, "attacked_with": [], "map_drawn": False,
                     "pope_passage": False, "crusade": False, "mercenaries_used": False, "income": False,
                     "marked": sorted(set(marked)), "pope_played": False})
    phase_draw(s, ctx, seat)
    if not s.over:
        ctx.begin_phase("map card", turn=round)
        phase_map(s, ctx, seat, prefix)
    if not s.over:
        ctx.begin_phase("mandatory cards", turn=round)
        phase_mandatory(s, ctx, seat, prefix)
    if not s.over:
        ctx.begin_phase("actions", turn=round)
        phase_actions(s, ctx, seat, prefix)
    if not s.over and not s.action_deck:
        end_game(s, ctx, "the last Action Card has been drawn and its player's turn is over (3.5)")
    nxt = index + 1
    if not s.over and nxt == len(s.order) and round >= s.max_rounds:
        end_game(s, ctx, f"the round limit ({s.max_rounds}) was reached (a ruling: option max_rounds)")
    if not s.over:
        ctx.schedule(Task.of("player_turn", checkpoint=True, round=round + (nxt == len(s.order)),
                             index=nxt % len(s.order)))


def phase_draw(s: MedievalState, ctx: Context, seat: str) -> None:
    """3.1 A: draw up to four; after the last Mongol, drawing a Power card ends the game at once (3.5)."""
    while len(s.hands[seat]) < s.data.c("hand_size") and s.action_deck:
        card = s.action_deck[0]
        ctx.change("draw_card", actor=seat, seat=seat, card=card, why="3.1 A")
        if card.startswith("power-") and last_mongol_out(s):
            ctx.report("revealed", actor=seat, card=card, rule="3.5")
            end_game(s, ctx, f"a Power card ({s.data.powers[card[6:]].name}) was drawn after the last Mongol card (3.5)")
            return


def phase_map(s: MedievalState, ctx: Context, seat: str, prefix: str) -> None:
    """3.1 B / 3.3: Spies may look at the next map card first (8.1); drawing one limits the turn."""
    if not s.map_deck:
        return
    spies = holding(s, seat, "spies")
    if spies is not None:
        look = ctx.decide(f"{prefix}/map-spies", seat, [{"do": "no-spies"}, {"do": "spies", "card": spies}],
                          prompt="Play Spies to look at the next map card (8.1)?", kind=Decision.MAP_SPIES)
        if look["do"] == "spies":
            cards.play_spies(s, ctx, f"{prefix}/map-spies", seat, spies, {"use": "map"})
    draw = ctx.decide(f"{prefix}/map-card", seat, [{"do": "no-map-card"}, {"do": "draw-map-card"}],
                      prompt="Draw a map card? (then no Pope card and only one Attack this turn, 3.3)",
                      kind=Decision.MAP_CARD)
    if draw["do"] == "draw-map-card":
        ctx.change("turn_flag", key="map_drawn", value=True)
        place_map_card(s, ctx, s.map_deck[0], seat)


def phase_mandatory(s: MedievalState, ctx: Context, seat: str, prefix: str) -> None:
    """3.1 C / 3.2: every Mandatory card in hand is played, in the order the player likes."""
    n = 0
    while not s.over:
        mandatory = [c for c in s.hands[seat] if not c.startswith("power-")
                     and s.data.action_cards[c] in s.data.mandatory_kinds]
        if not mandatory:
            return
        n += 1
        rid = f"{prefix}/mandatory-{n}"
        kinds = {s.data.action_cards[c]: c for c in mandatory}
        card = ctx.decide(rid, seat, sorted(kinds.values()), prompt="Which Mandatory card first (3.2)?",
                          kind=Decision.MANDATORY_ORDER)
        kind = s.data.action_cards[card]
        if kind == "mongols":
            cards.play_mongols(s, ctx, rid, seat, card)
            if last_mongol_out(s) and not s.action_deck:
                end_game(s, ctx, "the last Mongol card was played with no Action Card left (3.5)")
        elif kind == "disaster":
            cards.play_disaster(s, ctx, rid, seat, card)
        else:
            cards.play_change_of_ruler(s, ctx, rid, seat, card)


def income(s: MedievalState, seat: str) -> int:
    """Income of ``seat``'s provinces (3.4): not Knights of Christ (7.2), Heresy (8.5) or Civil War (8.3)."""
    total = 0
    for prov, owner in s.control.items():
        if owner != seat or not s.in_play(prov) or prov in s.koc or prov in s.heresy:
            continue
        if s.home.get(prov) in s.civil_war:
            continue
        total += s.data.provinces[prov].income
    return total


def attack_limit(s: MedievalState) -> int:
    """Attacks allowed this turn: two, one after drawing a map card (3.1 D, 3.3)."""
    return s.data.c("attacks_after_map_draw") if s.turn["map_drawn"] else s.data.c("attacks_per_turn")


@functools.lru_cache(maxsize=4096)
def _attack_option(power: str, target: str, route: str) -> FrozenDict:
    """The option of one attack, frozen once: the same attacks are offered at every action of a turn
    (a decision freezes its options; a frozen one passes through as it is)."""
    return FrozenDict({"do": "attack", "power": power, "target": target, "route": route})


def action_options(s: MedievalState, seat: str) -> list[Mapping[str, Any]]:
    """Every action the player may take now in his Action Phase (3.1 D), the end of it first."""
    data = s.data
    opts: list[Mapping[str, Any]] = [{"do": "end"}]
    can_attack = s.turn["attacks"] < attack_limit(s)
    for card in sorted(set(s.hands[seat])):
        kind = kind_of(s, card)
        if kind == "power":
            power = card[6:]
            if power_provinces(s, power):
                opts.append({"do": "play", "card": card})
            elif not can_still_appear(s, power):
                opts.append({"do": "discard", "card": card})  # ruling: a dead Power's card may go (5.3)
            continue
        if kind not in data.mandatory_kinds:
            opts.append({"do": "discard", "card": card})
        if kind == "pope" and not s.turn["map_drawn"]:
            opts += [{"do": "play", "card": card, **u} for u in cards.pope_uses(s, seat)]
        elif kind == "spies":
            opts += [{"do": "play", "card": card, "use": "hand", "seat": o} for o in s.seats if o != seat and s.hands[o]]
            if s.action_deck:
                opts.append({"do": "play", "card": card, "use": "deck"})
        elif kind == "assassin":
            opts += [{"do": "play", "card": card, "power": p} for o in s.seats for p in s.powers_of(o)]
        elif kind == "civil_war":
            opts += [{"do": "play", "card": card, "power": p} for p in cards.civil_war_targets(s)]
        elif kind == "heresy":
            opts += [{"do": "play", "card": card, "province": p} for p in cards.heresy_targets(s)]
        elif kind == "knights_of_christ" and can_attack:
            opts += [{"do": "knights-attack", "card": card, "target": p} for p in knights_targets(s, seat)]
    if can_attack and s.florins[seat] >= data.c("attack_cost"):
        for power in s.powers_of(seat):
            if power in s.turn["attacked_with"]:
                continue
            if power in s.civil_war:
                opts.append({"do": "end-civil-war", "power": power})
                continue
            for target, route in sorted(targets(s, seat, power).items()):
                opts.append(_attack_option(power, target, route.kind))
        for prov in sorted(p for p in s.heresy if s.control.get(p) == seat):
            opts.append({"do": "end-heresy", "province": prov})
    if s.trading:
        opts += trade.offer_options(s, seat)
    return opts


def knights_targets(s: MedievalState, seat: str) -> list[str]:
    """Provinces a Knights of Christ card may attack (7.1): striped ones not held by ``seat`` nor by Knights."""
    return [p for p, v in s.data.provinces.items()
            if v.koc_target and s.in_play(p) and p not in s.koc and s.control.get(p) != seat]


def phase_actions(s: MedievalState, ctx: Context, seat: str, prefix: str) -> None:
    """3.1 D: collect income and nothing else, or act: cards, discards and Attacks, then end."""
    choice = ctx.decide(f"{prefix}/income-or-act", seat, [{"do": "act"}, {"do": "collect-income"}],
                        prompt="Collect Income (and do nothing else), or act (3.1 D)?", kind=Decision.INCOME_OR_ACT)
    if choice["do"] == "collect-income":
        amount = income(s, seat)
        ctx.change("turn_flag", key="income", value=True)
        gain(s, ctx, seat, amount, "Income Collection (3.4)")
        ctx.report("income", actor=seat, amount=amount, rule="3.4")
        for power in s.powers_of(seat):
            if power in s.disaster:
                ctx.change("disaster", actor=seat, power=power, on=False, why="3.4: removed by Income Collection")
        return
    n = 0
    while not s.over:
        n += 1
        rid = f"{prefix}/action-{n}"
        opt = ctx.decide(rid, seat, action_options(s, seat), prompt="Your action (3.1 D)", kind=Decision.ACTION)
        do = opt["do"]
        if do == "end":
            return
        if do == "discard":
            ctx.change("move_card", actor=seat, card=opt["card"], to="discard", why="3.2: discarded")
        elif do == "play":
            play_card(s, ctx, rid, seat, opt)
        elif do == "attack":
            route = targets(s, seat, opt["power"]).get(opt["target"])
            assert route is not None
            battle.attack(s, ctx, rid, seat, opt["power"], opt["target"], route)
        elif do == "knights-attack":
            battle.knights_attack(s, ctx, rid, seat, opt["card"], opt["target"])
        elif do == "end-civil-war":
            battle.end_civil_war(s, ctx, rid, seat, opt["power"])
        elif do == "end-heresy":
            battle.end_heresy(s, ctx, seat, opt["province"])
        elif do == "offer":
            trade.make_offer(s, ctx, rid, seat, opt)
        settle_powers(s, ctx)


def play_card(s: MedievalState, ctx: Context, rid: str, seat: str, opt: Mapping[str, Any]) -> None:
    """Play one card from hand in the Action Phase."""
    card = opt["card"]
    kind = kind_of(s, card)
    if kind == "power":
        play_power_card(s, ctx, seat, card[6:])
    elif kind == "pope":
        ctx.change("turn_flag", key="pope_played", value=True)
        cards.play_pope(s, ctx, rid, seat, card, dict(opt))
    elif kind == "spies":
        cards.play_spies(s, ctx, rid, seat, card, dict(opt))
    elif kind == "assassin":
        cards.play_assassin(s, ctx, rid, seat, card, opt["power"])
    elif kind == "civil_war":
        cards.play_civil_war(s, ctx, rid, seat, card, opt["power"])
    elif kind == "heresy":
        cards.play_heresy(s, ctx, rid, seat, card, opt["province"])


# -- victory (12.0) --------------------------------------------------------------------------

def victory_points(s: MedievalState) -> dict[str, int]:
    """VPs (12.0): the income of every province controlled (Knights of Christ ones too), plus one for
    each multi-province Power all of whose provinces in play the player controls."""
    data = s.data
    vp = {seat: 0 for seat in s.seats}
    for prov, owner in s.control.items():
        if s.in_play(prov):
            vp[owner] += data.provinces[prov].income
    for power in data.powers:
        if len(data.provinces_of(power)) < 2:
            continue
        provs = s.home_provinces(power)
        owners = {s.control.get(p) for p in provs}
        if provs and len(owners) == 1 and None not in owners:
            vp[owners.pop()] += data.c("whole_power_bonus")  # type: ignore[index]
    return vp


def outcome(s: MedievalState) -> dict[str, Any]:
    """The winner by VPs (12.0); ties share the win. Florins break nothing (the text names no tie-break)."""
    vp = victory_points(s)
    best = max(vp.values())
    winners = [seat for seat in s.seats if vp[seat] == best]
    return {"winner": winners[0] if len(winners) == 1 else winners, "scores": vp,
            "reason": s.over or "the game stopped", "florins": dict(s.florins), "round": s.round}
