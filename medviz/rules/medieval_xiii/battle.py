"""Attacks (9.0): passage and permission (9.5), naval transport and interception (10.1-10.3),
Jihad (8.4), Mercenaries (11.0), Knights of Christ in defence (7.1), secret Militia bids with
Spies (9.2, 8.1), and the land battle itself (9.6). Also the Knights of Christ attack (7.1) and
the attacks on a Civil War (8.3) and on Heretics (8.5).
"""

from __future__ import annotations

from dataclasses import dataclass

from medviz.engine import Context
from medviz.engine.game import SecretAsk
from medviz.rules.medieval_xiii.decisions import Decision
from medviz.rules.medieval_xiii.control import change_ruler, pay, ruler_drm, set_control, settle_powers
from medviz.rules.medieval_xiii.interrupts import cancelled, holding, left_of, spies_stopped
from medviz.rules.medieval_xiii.passage import Route, land_linked
from medviz.rules.medieval_xiii.state import MedievalState

#: At most this many Militia DRM are offered in one bid (a ruling to keep the options finite; a
#: +20 militia already costs 60 Fl, more than any player holds in practice).
MAX_BID = 20


@dataclass(frozen=True)
class Side:
    """One side of a land battle: who decides for it and its fixed DRMs."""

    seat: str | None
    army: int
    ruler: int
    militia_ok: bool
    words: str


def defender_side(s: MedievalState, target: str) -> Side:
    """The defence of ``target`` (9.1, 9.3, 7.2, 4.2): army and ruler only for the holder of its Power card."""
    data = s.data
    seat = s.control.get(target)
    if target in s.koc:
        return Side(seat, data.c("knights_army"), 0, False, "the Knights of Christ")
    home = s.home.get(target, "")
    if not home:  # Sardinia/Corsica: no army, no militia (4.2)
        return Side(seat, 0, 0, False, data.provinces[target].name)
    if seat is not None and s.holder(home) == seat:
        return Side(seat, data.powers[home].army, ruler_drm(s, home), True, data.powers[home].name)
    return Side(seat, 0, 0, seat is not None, data.provinces[target].name)


def bid_options(florins: int, cost: int) -> list[int]:
    """Militia DRMs a player can pay for (9.2): 0, 1, ... as far as his florins go."""
    return list(range(0, min(florins // cost, MAX_BID) + 1))


def mercenary_powers(s: MedievalState, seat: str, power: str, target: str) -> list[str]:
    """Mercenary Powers (11.0) ``seat`` may add to an attack on ``target``: the Cumans or Polovtsy he
    holds, with a province he controls on the target's card or an adjacent one, joined to the target
    by land (not across a Naval Area) over the mercenary's card and the cards that share an edge with
    it (ruling R9: this gives the text's example, 1D by way of 2C but not Byzantium round the Black Sea)."""
    if s.turn.get("mercenaries_used"):
        return []
    data = s.data
    tcard = data.provinces[target].card
    out = []
    for merc in s.powers_of(seat):
        if merc == power or not data.powers[merc].mercenary or merc in s.civil_war:
            continue
        for prov in s.home_provinces(merc):
            pcard = data.provinces[prov].card
            if s.control.get(prov) != seat or not (pcard == tcard or data.edge_adjacent(pcard, tcard)):
                continue
            if land_linked(s, prov, target, data.near_cards(pcard)):
                out.append(merc)
                break
    return out


def _counter_spies(s: MedievalState, ctx: Context, rid: str, side: str, seat: str, other: str | None) -> bool:
    """Offer ``seat`` his Spies against the other side's Militia (8.1 clarification); True if it works."""
    spies = holding(s, seat, "spies")
    if spies is None or other is None:
        return False
    choice = ctx.decide(f"{rid}/spies/{side}", seat, [{"do": "no-spies"}, {"do": "spies", "card": spies}],
                        prompt="Play Spies to see the other side's Militia (8.1)?",
                        kind=Decision.SPIES_ATTACKER if side == "attacker" else Decision.SPIES_DEFENDER)
    if choice["do"] != "spies":
        return False
    ctx.change("move_card", actor=seat, card=spies, to="discard", why="8.1: Spies played in battle")
    return not spies_stopped(s, ctx, rid, spies, seat, other)


def land_battle(s: MedievalState, ctx: Context, rid: str, attacker: str, attack: Side, target: str,
                defence: Side, *, militia_cost: int, extra: int = 0, defence_extra: int = 0,
                defender_roller: str | None = None) -> bool:
    """Secret Militia bids, Spies, the two dice and the totals (9.6); True when the attacker wins."""
    asks = [SecretAsk(f"{rid}/militia/attacker", attacker, bid_options(s.florins[attacker], militia_cost),
                      f"Militia for the attack on {s.data.provinces[target].name} (9.2; {militia_cost} Fl per +1)",
                      Decision.MILITIA_ATTACKER)]
    if defence.militia_ok and defence.seat is not None:
        asks.append(SecretAsk(f"{rid}/militia/defender", defence.seat,
                              bid_options(s.florins[defence.seat], s.data.c("militia_cost")),
                              f"Militia to defend {s.data.provinces[target].name} (9.2)", Decision.MILITIA_DEFENDER))
    bids = ctx.decide_secretly(asks)
    a_bid = bids[0]
    d_bid = bids[1] if len(bids) > 1 else 0
    if len(bids) > 1:
        d_seat = defence.seat
        assert d_seat is not None
        if _counter_spies(s, ctx, rid, "defender", d_seat, attacker):
            ctx.change("peek", seat=d_seat, seen={"what": "militia", "of": attacker, "bid": a_bid, "at": rid})
            d_bid = ctx.decide(f"{rid}/militia/defender/after-spies", d_seat,
                               bid_options(s.florins[d_seat], s.data.c("militia_cost")),
                               prompt=f"The attacker bid +{a_bid}: change your Militia (8.1)?",
                               kind=Decision.MILITIA_DEFENDER)
        elif _counter_spies(s, ctx, rid, "attacker", attacker, d_seat):
            ctx.change("peek", seat=attacker, seen={"what": "militia", "of": d_seat, "bid": d_bid, "at": rid})
            a_bid = ctx.decide(f"{rid}/militia/attacker/after-spies", attacker,
                               bid_options(s.florins[attacker], militia_cost),
                               prompt=f"The defender bid +{d_bid}: change your Militia (8.1)?",
                               kind=Decision.MILITIA_ATTACKER)
    ctx.report("militia", actor=attacker, attacker=a_bid, defender=d_bid, rule="9.6 step 3")
    pay(s, ctx, attacker, a_bid * militia_cost, "Militia (9.2)")
    if d_bid and defence.seat is not None:
        pay(s, ctx, defence.seat, d_bid * s.data.c("militia_cost"), "Militia (9.2)")
    a_die = ctx.roll(f"{rid}/attacker", "1d6", actor=attacker, purpose=f"{attack.words} attacks")
    d_roller = defence.seat or defender_roller or left_of(s, attacker)
    d_die = ctx.roll(f"{rid}/defender", "1d6", actor=d_roller, purpose=f"{defence.words} defends")
    a_total = a_die + attack.army + attack.ruler + a_bid + extra
    d_total = d_die + defence.army + defence.ruler + d_bid + defence_extra
    won = a_total > d_total
    ctx.report("battle", actor=attacker, target=target, attacker_total=a_total, defender_total=d_total,
               attacker_die=a_die, defender_die=d_die, winner="attacker" if won else "defender",
               rule="9.6 step 4: ties to the defender")
    return bool(won)


def naval_passage(s: MedievalState, ctx: Context, rid: str, seat: str, power: str, seas: tuple[str, ...]) -> bool:
    """Naval Transport through ``seas`` (10.1), interceptions per card (10.2) and sea battles (10.3)."""
    data = s.data
    mover_navy = data.powers[power].navy or 0
    drm = ctx.decide(f"{rid}/naval-drm", seat, bid_options(s.florins[seat], data.c("naval_drm_cost")),
                     prompt="Naval DRM for the whole voyage (10.3)", kind=Decision.NAVAL_DRM)
    pay(s, ctx, seat, drm * data.c("naval_drm_cost"), "naval DRM (10.3)")
    cards: list[str] = []
    for sid in seas:
        if data.seas[sid].card not in cards:
            cards.append(data.seas[sid].card)
    for card in cards:
        crossed = [sid for sid in seas if data.seas[sid].card == card]
        candidates: list[tuple[int, int, str, str]] = []
        for other in s.seats:
            if other == seat:
                continue
            for pw in s.powers_of(other):
                if data.powers[pw].navy is None or pw in s.civil_war:
                    continue
                coasts = [p for sid in crossed for p in data.seas[sid].coasts
                          if s.control.get(p) == other and s.home.get(p) == pw]
                if coasts:
                    on_island = any(data.provinces[p].island for p in coasts)
                    candidates.append((0 if on_island else 1, -(data.powers[pw].navy or 0), pw, other))
        ranked: list[tuple[int, int, int, str, str]] = []
        for island, navy, pw, other in candidates:
            tie = sum(1 for c in candidates if c[:2] == (island, navy))
            die = ctx.roll(f"{rid}/sea-{card}/order/{pw}", "1d6", actor=other,
                           purpose="who intercepts first among equal navies (10.2)") if tie > 1 else 0
            ranked.append((island, navy, -die, pw, other))
        for _i, _n, _d, pw, other in sorted(ranked):
            cost = data.c("interception_cost")
            if s.florins[other] < cost:
                continue
            opts: list[int] = [-1] + bid_options(s.florins[other] - cost, data.c("naval_drm_cost"))
            choice = ctx.decide(f"{rid}/sea-{card}/intercept/{pw}", other, opts, kind=Decision.SEA_INTERCEPT,
                                prompt=f"Intercept {data.powers[power].name} at sea on {card} with "
                                       f"{data.powers[pw].name}? (-1: no; n: yes with +n, 10.2)")
            if choice < 0:
                continue
            pay(s, ctx, other, cost + choice * data.c("naval_drm_cost"), "interception (10.2, 10.3)")
            m = ctx.roll(f"{rid}/sea-{card}/{pw}/mover", "1d6", actor=seat, purpose="naval transport")
            i = ctx.roll(f"{rid}/sea-{card}/{pw}/interceptor", "1d6", actor=other, purpose="interception")
            mt, it = m + mover_navy + drm, i + (data.powers[pw].navy or 0) + choice
            moved = mt > it or (mt == it and mover_navy >= (data.powers[pw].navy or 0))
            ctx.report("sea-battle", actor=seat, card=card, interceptor=pw, mover_total=mt, interceptor_total=it,
                       winner="mover" if moved else "interceptor", rule="10.3: ties to the higher navy, else the mover")
            if not moved:
                return False
    return True


def attack(s: MedievalState, ctx: Context, rid: str, seat: str, power: str, target: str, route: Route) -> None:
    """One Attack by ``power`` on ``target`` (9.4-9.6)."""
    data = s.data
    pay(s, ctx, seat, data.c("attack_cost"), "Attack (9.4)")
    ctx.change("turn_flag", key="attacks", value=s.turn["attacks"] + 1)
    ctx.change("turn_flag", key="attacked_with", value=power, append=True)
    ctx.report("attack", actor=seat, power=power, target=target, route=route.kind, rule="9.4")
    ctx.change("turn_flag", key="battle", value={"attacker": seat, "power": power, "target": target})
    for other in route.permission:
        ok = ctx.decide(f"{rid}/permission/{other}", other, [{"do": "refuse"}, {"do": "grant"}],
                        kind=Decision.PERMISSION,
                        prompt=f"Let {data.powers[power].name} pass through your provinces to attack "
                               f"{data.provinces[target].name} (9.5)?")
        if ok["do"] != "grant":
            ctx.report("no-passage", actor=seat, refused_by=other, rule="9.4: the attack is lost, and its Fl")
            return
    if route.seas and not naval_passage(s, ctx, rid, seat, power, route.seas):
        ctx.report("no-passage", actor=seat, rule="10.3: passage denied at sea; the attack is lost")
        return
    defence = defender_side(s, target)
    mine = data.powers[power]
    t_religion = s.religion_of(target)
    cost = data.c("militia_cost")
    jihad = holding(s, seat, "jihad")
    if jihad and mine.religion == "islam" and t_religion in ("catholic", "orthodox"):
        use = ctx.decide(f"{rid}/jihad", seat, [{"do": "no-jihad"}, {"do": "jihad", "card": jihad}],
                         prompt="Declare a Jihad: Militia at 2 Fl per +1 (8.4)?", kind=Decision.JIHAD)
        if use["do"] == "jihad":
            ctx.change("move_card", actor=seat, card=jihad, to="discard", why="8.4: Jihad played")
            if not cancelled(s, ctx, f"{rid}/jihad", jihad, seat, "Jihad"):
                cost = data.c("jihad_militia_cost")
    extra = 0
    mercs = mercenary_powers(s, seat, power, target)
    if mercs:
        pick = ctx.decide(f"{rid}/mercenaries", seat, [{"do": "none"}] + [{"do": "hire", "power": m} for m in mercs],
                          prompt="Add Mercenaries to the attack (11.0)?", kind=Decision.MERCENARIES)
        if pick["do"] == "hire":
            extra = data.powers[pick["power"]].army
            ctx.change("turn_flag", key="mercenaries_used", value=True)
    defence_extra = 0
    if defence.seat is not None and defence.militia_ok and t_religion == "catholic" and target not in s.koc \
            and mine.religion in ("pagan", "islam"):
        knights = holding(s, defence.seat, "knights_of_christ")
        if knights is not None:
            use = ctx.decide(f"{rid}/knights", defence.seat, [{"do": "no-knights"}, {"do": "knights", "card": knights}],
                             prompt="Add a Knights of Christ card to the defence (7.1)?", kind=Decision.KNIGHTS)
            if use["do"] == "knights":
                ctx.change("move_card", actor=defence.seat, card=knights, to="discard", why="7.1: support")
                defence_extra = data.c("knights_army")
    side = Side(seat, mine.army, ruler_drm(s, power), True, mine.name)
    won = land_battle(s, ctx, rid, seat, side, target, defence, militia_cost=cost, extra=extra,
                      defence_extra=defence_extra)
    home = s.home.get(target, "")
    if won:
        if target in s.koc:
            ctx.change("koc", province=target, on=False, why="7.2: conquered, it reverts to its normal status")
            own = data.provinces[target].power
            if own:
                ctx.change("home", province=target, power=own)
        set_control(s, ctx, target, seat, "9.6: the attacker wins")
    if home and sorted((power, home)) in s.marriages:
        ctx.change("marriage", powers=sorted((power, home)), on=False, why="6.4: an attack ends the marriage")


def knights_attack(s: MedievalState, ctx: Context, rid: str, seat: str, card: str, target: str) -> None:
    """A Knights of Christ card attacks a Pagan or Crusader-coast province (7.1): no Fl, no passage,
    no Militia for the Knights; if they win the province becomes a Knights of Christ province."""
    data = s.data
    ctx.change("move_card", actor=seat, card=card, to="discard", why="7.1: Knights of Christ attack")
    ctx.change("turn_flag", key="attacks", value=s.turn["attacks"] + 1)
    ctx.report("attack", actor=seat, power="knights_of_christ", target=target, route="none", rule="7.1")
    ctx.change("turn_flag", key="battle", value={"attacker": seat, "power": "knights_of_christ", "target": target})
    defence = defender_side(s, target)
    side = Side(seat, data.c("knights_army"), 0, True, "the Knights of Christ")
    won = land_battle(s, ctx, rid, seat, side, target, defence, militia_cost=10**6)
    if won:
        ctx.change("home", province=target, power="", why="7.2: no longer part of its Power")
        ctx.change("koc", province=target, on=True, why="7.1: the Knights win")
        if target in s.heresy:
            ctx.change("heresy", province=target, on=False)
        set_control(s, ctx, target, seat, "7.1: the Knights win")


def end_civil_war(s: MedievalState, ctx: Context, rid: str, seat: str, power: str) -> None:
    """A Power attacks its own Civil War (8.3): the rebels have army 0; a loss or tie changes the ruler."""
    data = s.data
    pay(s, ctx, seat, data.c("attack_cost"), "Attack on a Civil War (8.3, 9.4)")
    ctx.change("turn_flag", key="attacks", value=s.turn["attacks"] + 1)
    ctx.change("turn_flag", key="attacked_with", value=power, append=True)
    mine = data.powers[power]
    side = Side(seat, mine.army, ruler_drm(s, power), True, mine.name)
    rebels = Side(None, 0, 0, False, f"the rebels of {mine.name}")
    home = s.home_provinces(power)
    target = home[0] if home else data.provinces_of(power)[0]
    if land_battle(s, ctx, rid, seat, side, target, rebels, militia_cost=data.c("militia_cost")):
        ctx.change("civil_war", actor=seat, power=power, on=False, why="8.3: the Civil War is over")
    else:
        change_ruler(s, ctx, f"{rid}/new-ruler", power, "8.3: the Civil War goes on")
    settle_powers(s, ctx)


def end_heresy(s: MedievalState, ctx: Context, seat: str, province: str) -> None:
    """Declaring an Attack on the Heretics removes Heresy without a battle (8.5); it costs an Attack."""
    pay(s, ctx, seat, s.data.c("attack_cost"), "Attack on Heretics (8.5, 9.4)")
    ctx.change("turn_flag", key="attacks", value=s.turn["attacks"] + 1)
    ctx.change("heresy", actor=seat, province=province, on=False, why="8.5: the Heretics are driven out")
