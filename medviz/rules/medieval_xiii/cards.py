"""Action Cards: the Mongols (5.0), Pope cards (6.0), Spies (8.1), Assassins (8.2), Civil War (8.3),
Heresy (8.5), Disaster (8.7) and Change of Ruler (8.8). Jihad, Knights of Christ and Deus ex
Machina act inside attacks and interruptions (``battle``, ``interrupts``).
"""

from __future__ import annotations

from typing import Any

from medviz.engine import Context
from medviz.rules.medieval_xiii.decisions import Decision
from medviz.rules.medieval_xiii.control import (
    change_ruler,
    destroy_map_card,
    gain,
    is_knights_power,
    pay,
    roll_powers_table,
    ruler_drm,
)
from medviz.rules.medieval_xiii.interrupts import cancelled, left_of, seats_after
from medviz.rules.medieval_xiii.state import MedievalState


def catholic_powers_in_play(s: MedievalState) -> list[str]:
    """Catholic Powers whose cards are in front of a player (targets of Pope cards, 6.3, 6.4)."""
    return [p for seat in s.seats for p in s.powers_of(seat) if s.data.powers[p].religion == "catholic"]


# -- the Mongols (5.0) -------------------------------------------------------------------------

def mongol_targets(s: MedievalState) -> list[str]:
    """Easternmost map cards in play that have a Mongol Defense Rating (5.2)."""
    in_play = set(s.map_in_play)
    return [c for c in s.data.cards if c in in_play and s.data.cards[c].mdr is not None
            and s.data.easternmost(c, in_play)]


def play_mongols(s: MedievalState, ctx: Context, rid: str, seat: str, card: str) -> None:
    """A Mongol card: the first three are No Event and then return to the deck (5.1); after that the
    Mongols attack an easternmost map card of the player's choice (5.2) and destroy it on a win or tie (5.3)."""
    data = s.data
    if s.mongols_no_event < data.c("mongol_no_events"):
        ctx.change("move_card", actor=seat, card=card, to="aside", why="5.1: No Event")
        ctx.change("mongols", no_event=1)
        ctx.report("mongols-no-event", actor=seat, count=s.mongols_no_event, rule="5.1")
        if s.mongols_no_event == data.c("mongol_no_events"):
            back = [c for c in s.aside if not c.startswith("power-") and data.action_cards[c] == "mongols"]
            order = ctx.shuffle(f"{rid}/mongols-return", list(s.action_deck) + back, actor=seat,
                                purpose="5.1: the three Mongols are shuffled back into the Action Deck")
            ctx.change("action_deck", order=list(order), taken=back)
        return
    ctx.change("move_card", actor=seat, card=card, to="discard", why="5.2: the Mongols attack")
    ctx.change("mongols", resolved=1)
    targets = mongol_targets(s)
    if not targets:
        ctx.report("mongols-no-target", actor=seat, rule="5.2")
        return
    target = ctx.decide(f"{rid}/mongol-target", seat, targets,
                        prompt="Which easternmost map card do the Mongols attack (5.2)?", kind=Decision.MONGOL_TARGET)
    defence = data.cards[target].mdr or 0
    if any(p in s.koc for p in data.provinces_on(target)):
        defence += data.c("knights_vs_mongols_province")
    catholic_holders = []
    for prov in data.provinces_on(target):
        home = s.home.get(prov, "")
        holder = s.holder(home) if home else None
        if holder and data.powers[home].religion == "catholic" and s.in_play(prov) and holder not in catholic_holders:
            catholic_holders.append(holder)
    for other in [seat] + seats_after(s, seat):
        if other not in catholic_holders:
            continue
        knights = next((c for c in s.hands[other] if not c.startswith("power-")
                        and data.action_cards[c] == "knights_of_christ"), None)
        if knights is None:
            continue
        use = ctx.decide(f"{rid}/knights/{other}", other, [{"do": "no-knights"}, {"do": "knights", "card": knights}],
                         prompt=f"Add Knights of Christ (+{data.c('knights_army')}) to the defence of {target} (7.3 A)?",
                         kind=Decision.KNIGHTS)
        if use["do"] == "knights":
            ctx.change("move_card", actor=other, card=knights, to="discard", why="7.3 A")
            defence += data.c("knights_army")
    m = ctx.roll(f"{rid}/mongols", "1d6", actor=seat, purpose=f"the Mongols attack {target}")
    d = ctx.roll(f"{rid}/map-card", "1d6", actor=left_of(s, seat), purpose=f"map card {target} defends")
    won = m + data.c("mongol_strength") >= d + defence
    ctx.report("mongol-battle", actor=seat, card=target, mongols=m + data.c("mongol_strength"), defence=d + defence,
               winner="mongols" if won else "map card", rule="5.3: ties to the Mongols")
    if won:
        destroy_map_card(s, ctx, target)


# -- Disaster (8.7) and Change of Ruler (8.8) -------------------------------------------------

def play_disaster(s: MedievalState, ctx: Context, rid: str, seat: str, card: str) -> None:
    """Disaster strikes a controlled Power without a Disaster marker (8.7): its player loses 1d6 Fl,
    and goes into Civil War if he cannot pay it all."""
    ctx.change("move_card", actor=seat, card=card, to="discard", why="8.7: Disaster played")
    if cancelled(s, ctx, rid, card, seat, "Disaster"):
        return
    power = roll_powers_table(s, ctx, rid, seat, "Disaster: which Power",
                              lambda p: s.holder(p) is not None and p not in s.disaster
                              and not is_knights_power(s, p))
    if power is None:
        return
    victim = s.holder(power)
    assert victim is not None
    ctx.change("disaster", actor=victim, power=power, on=True, why="8.7")
    loss = ctx.roll(f"{rid}/loss", "1d6", actor=victim, purpose=f"Fl lost to the Disaster in {s.data.powers[power].name}")
    paid = min(loss, s.florins[victim])
    pay(s, ctx, victim, paid, "Disaster (8.7)")
    if loss > paid and power not in s.civil_war:
        ctx.change("civil_war", actor=victim, power=power, on=True, why="8.7: could not pay the Disaster")


def play_change_of_ruler(s: MedievalState, ctx: Context, rid: str, seat: str, card: str) -> None:
    """A controlled Power, found on the Powers Table, gets a new ruler from the Leader Table (8.8)."""
    ctx.change("move_card", actor=seat, card=card, to="discard", why="8.8: Change of Ruler played")
    if cancelled(s, ctx, rid, card, seat, "Change of Ruler"):
        return
    power = roll_powers_table(s, ctx, rid, seat, "Change of Ruler: which Power",
                              lambda p: s.holder(p) is not None and not is_knights_power(s, p))
    if power is not None:
        change_ruler(s, ctx, f"{rid}/new-ruler", power, "8.8: Change of Ruler")


# -- Pope cards (6.0) --------------------------------------------------------------------------

def pope_uses(s: MedievalState, seat: str) -> list[dict[str, Any]]:
    """What a Pope card can do now for ``seat`` (6.1): one option per use and target."""
    data = s.data
    out: list[dict[str, Any]] = []
    if not s.turn.get("crusade"):
        out.append({"use": "crusade"})
    catholic = catholic_powers_in_play(s)
    for p in catholic:
        if p not in s.excommunicated:
            out.append({"use": "excommunicate", "power": p})
        elif s.florins[seat] >= data.c("lift_excommunication_cost"):
            out.append({"use": "lift", "power": p})
    mine = [p for p in s.powers_of(seat) if data.powers[p].religion == "catholic"]
    for a in mine:
        for b in catholic:
            if b != a and sorted((a, b)) not in s.marriages and not (b in mine and b < a):
                out.append({"use": "marriage", "power": a, "with": b})
    if not s.turn.get("pope_passage") and mine:
        out.append({"use": "papal-passage"})
    return out


def play_pope(s: MedievalState, ctx: Context, rid: str, seat: str, card: str, use: dict[str, Any]) -> None:
    """A Pope card (6.1): Knights of Christ provinces are paid (7.2), then its one use."""
    data = s.data
    ctx.change("move_card", actor=seat, card=card, to="discard", why="6.1: Pope card played")
    for prov in s.koc:
        owner = s.control.get(prov)
        if owner is not None and s.in_play(prov):
            gain(s, ctx, owner, data.provinces[prov].income, "Knights of Christ income (7.2)")
    kind = use["use"]
    if kind == "crusade":
        crusade(s, ctx, rid, seat)
    elif kind == "excommunicate":
        ctx.change("excommunicated", actor=seat, power=use["power"], on=True, why="6.3")
    elif kind == "lift":
        pay(s, ctx, seat, data.c("lift_excommunication_cost"), "lifting an Excommunication (6.3)")
        ctx.change("excommunicated", actor=seat, power=use["power"], on=False, why="6.3")
    elif kind == "marriage":
        ctx.change("marriage", actor=seat, powers=sorted((use["power"], use["with"])), on=True, why="6.4")
    elif kind == "papal-passage":
        ctx.change("turn_flag", key="pope_passage", value=True)


def crusade(s: MedievalState, ctx: Context, rid: str, pope: str) -> None:
    """Call a Crusade (6.2): the fee from every player with a Catholic province, commitments, 2d6 infidels."""
    data = s.data
    ctx.change("turn_flag", key="crusade", value=True)
    fee = data.c("crusade_fee_three_players") if len(s.seats) == 3 else data.c("crusade_fee_more_players")
    unable: list[str] = []
    for other in seats_after(s, pope):
        has_catholic = any(s.religion_of(p) == "catholic" and s.in_play(p)
                           for p, owner in s.control.items() if owner == other)
        if not has_catholic:
            continue
        if s.florins[other] >= fee:
            pay(s, ctx, other, fee, "Crusade fee (6.2)")
            gain(s, ctx, pope, fee, "Crusade fee (6.2)")
        else:
            unable.append(other)
            victims = [p for p in s.powers_of(other) if data.powers[p].religion == "catholic"
                       and p not in s.excommunicated]
            if victims:
                pick = ctx.decide(f"{rid}/excommunicate/{other}", pope, [{"power": "none"}] + [{"power": p} for p in victims],
                                  prompt=f"{other} cannot pay the Crusade fee: excommunicate one of his Powers (6.2)?",
                                  kind=Decision.EXCOMMUNICATE)
                if pick["power"] != "none":
                    ctx.change("excommunicated", actor=pope, power=pick["power"], on=True, why="6.2: could not pay")
    strength = 0
    committed: list[str] = []
    for seat in [pope] + seats_after(s, pope):
        if seat in unable:
            continue
        eligible = [p for p in s.powers_of(seat) if data.powers[p].religion == "catholic"
                    and p not in s.civil_war and p not in s.disaster]
        knights = [prov for prov in s.koc if s.control.get(prov) == seat and s.in_play(prov)]
        opts: list[dict[str, Any]] = [{"commit": "none"}] + [{"commit": p} for p in eligible] \
            + [{"commit": "knights", "province": prov} for prov in knights]
        if len(opts) == 1:
            continue
        pick = ctx.decide(f"{rid}/crusade/commit/{seat}", seat, opts, prompt="Commit one Catholic Power to the Crusade (6.2)",
                          kind=Decision.CRUSADE_COMMIT)
        if pick["commit"] == "none":
            continue
        if pick["commit"] == "knights":
            strength += data.c("knights_army")
        else:
            power = pick["commit"]
            strength += data.powers[power].army + ruler_drm(s, power)
            if power in s.excommunicated:
                ctx.change("excommunicated", actor=seat, power=power, on=False, why="6.3: went on Crusade")
            if seat == s.turn.get("seat"):
                ctx.change("turn_flag", key="attacked_with", value=power, append=True)  # 6.2: may not attack now
        committed.append(seat)
        card = next((c for c in s.hands[seat] if not c.startswith("power-")
                     and data.action_cards[c] == "knights_of_christ"), None)
        if card is not None:
            use = ctx.decide(f"{rid}/crusade/knights/{seat}", seat, [{"do": "no-knights"}, {"do": "knights", "card": card}],
                             prompt="Add a Knights of Christ card to the Crusade (7.1)?", kind=Decision.KNIGHTS)
            if use["do"] == "knights":
                ctx.change("move_card", actor=seat, card=card, to="discard", why="7.1: Crusade support")
                strength += data.c("knights_army")
    if not committed:
        ctx.report("crusade", actor=pope, strength=0, infidels=None, won=False, rule="6.2")
        return
    infidels = ctx.roll(f"{rid}/crusade/infidels", "2d6", actor=left_of(s, pope),
                        purpose="the infidels' Defense Strength (6.2)")
    won = strength > infidels
    ctx.report("crusade", actor=pope, strength=strength, infidels=infidels, won=won, rule="6.2")
    if won:
        for seat in committed:
            gain(s, ctx, seat, strength - infidels, "Crusade spoils (6.2)")


# -- Spies, Assassins, Civil War, Heresy (8.1-8.5) ---------------------------------------------

def play_spies(s: MedievalState, ctx: Context, rid: str, seat: str, card: str, use: dict[str, Any]) -> None:
    """Spies (8.1): see a player's hand, or the next two Action Cards (the map-card look is in phase B)."""
    from medviz.rules.medieval_xiii.interrupts import spies_stopped

    ctx.change("move_card", actor=seat, card=card, to="discard", why="8.1: Spies played")
    if spies_stopped(s, ctx, rid, card, seat, use.get("seat")):
        return
    if use["use"] == "hand":
        ctx.change("peek", seat=seat, seen={"what": "hand", "of": use["seat"], "cards": list(s.hands[use["seat"]]),
                                             "at": rid})
    elif use["use"] == "deck":
        ctx.change("peek", seat=seat, seen={"what": "action-deck", "cards": list(s.action_deck[:2]), "at": rid})
    elif use["use"] == "map":
        ctx.change("peek", seat=seat, seen={"what": "map-deck", "cards": list(s.map_deck[:1]), "at": rid})


def play_assassin(s: MedievalState, ctx: Context, rid: str, seat: str, card: str, power: str) -> None:
    """An Assassin tries to kill ``power``'s ruler: 5-6 succeeds and its player rolls a new one (8.2)."""
    ctx.change("move_card", actor=seat, card=card, to="discard", why="8.2: Assassin played")
    if cancelled(s, ctx, rid, card, seat, "Assassin"):
        return
    die = ctx.roll(f"{rid}/assassin", "1d6", actor=seat, purpose=f"assassinate the ruler of {s.data.powers[power].name}",
                   effects={f: ("success" if f >= s.data.c("assassin_success_from") else "failure") for f in range(1, 7)})
    if die >= s.data.c("assassin_success_from"):
        change_ruler(s, ctx, f"{rid}/new-ruler", power, "8.2: Assassination")


def civil_war_targets(s: MedievalState) -> list[str]:
    """Powers that started this turn Excommunicated or with a Disaster and are not in Civil War (8.3)."""
    return [p for p in s.turn.get("marked", []) if s.holder(p) is not None and p not in s.civil_war]


def play_civil_war(s: MedievalState, ctx: Context, rid: str, seat: str, card: str, power: str) -> None:
    """Civil War (8.3) on a Power that started the turn Excommunicated or with a Disaster."""
    ctx.change("move_card", actor=seat, card=card, to="discard", why="8.3: Civil War played")
    if cancelled(s, ctx, rid, card, seat, "Civil War"):
        return
    ctx.change("civil_war", actor=seat, power=power, on=True, why="8.3")


def heresy_targets(s: MedievalState) -> list[str]:
    """Catholic provinces controlled by a player, not Knights of Christ, without Heresy (8.5)."""
    out = []
    for prov, owner in s.control.items():
        home = s.home.get(prov, "")
        if home and prov not in s.koc and prov not in s.heresy and s.in_play(prov) \
                and s.data.powers[home].religion == "catholic":
            out.append(prov)
    return sorted(out)


def play_heresy(s: MedievalState, ctx: Context, rid: str, seat: str, card: str, province: str) -> None:
    """Heresy (8.5): a die higher than the province's income puts Heresy there."""
    ctx.change("move_card", actor=seat, card=card, to="discard", why="8.5: Heresy played")
    if cancelled(s, ctx, rid, card, seat, "Heresy"):
        return
    income = s.data.provinces[province].income
    die = ctx.roll(f"{rid}/heresy", "1d6", actor=seat, purpose=f"Heresy in {s.data.provinces[province].name}",
                   effects={f: ("heresy" if f > income else "nothing") for f in range(1, 7)})
    if die > income:
        ctx.change("heresy", actor=seat, province=province, on=True, why="8.5")
