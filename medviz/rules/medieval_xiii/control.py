"""Control of provinces and Powers (4.2-4.5), map cards entering and leaving play (3.3, 5.3),
florins, rulers and the Powers Table: the pieces every other rule is built from.

Every function changes the state only through ``ctx.change``.
"""

from __future__ import annotations

from collections.abc import Callable

from medviz.engine import Context
from medviz.rules.medieval_xiii.gamedata import RULER_DRM, power_card
from medviz.rules.medieval_xiii.state import MedievalState


def gain(s: MedievalState, ctx: Context, seat: str, amount: int, why: str) -> None:
    """``seat`` receives ``amount`` Fl."""
    if amount:
        ctx.change("florins", actor=seat, seat=seat, delta=amount, why=why)


def pay(s: MedievalState, ctx: Context, seat: str, amount: int, why: str) -> None:
    """``seat`` pays ``amount`` Fl (never more than he has: florins are never negative)."""
    if amount > s.florins[seat]:
        raise RuntimeError(f"{seat} cannot pay {amount} Fl for {why}: holds {s.florins[seat]}")
    if amount:
        ctx.change("florins", actor=seat, seat=seat, delta=-amount, why=why)


def ruler_drm(s: MedievalState, power: str) -> int:
    """The ruler's DRM (4.5): Good +1, Normal 0, Bad -1."""
    return RULER_DRM[s.ruler[power]]


def power_provinces(s: MedievalState, power: str, homes: dict[str, list[str]] | None = None) -> list[str]:
    """The in-play provinces that count for control of ``power`` (4.3): its home provinces, and its
    Knights of Christ provinces (7.2: their joint controller gets the card). ``homes``: the state's
    ``home_provinces_by_power()`` if the caller already has it."""
    out = s.home_provinces(power) if homes is None else list(homes.get(power, ()))
    out += [p for p in s.koc if s.data.provinces[p].power == power and s.in_play(p)]
    return out


def can_still_appear(s: MedievalState, power: str) -> bool:
    """Some province of ``power`` is in play or may yet come into play (its card is in the map deck)."""
    return any(s.data.provinces[p].card in s.map_in_play or s.data.provinces[p].card in s.map_deck
               for p in s.data.provinces_of(power))


def set_control(s: MedievalState, ctx: Context, province: str, seat: str | None, why: str) -> None:
    """Put ``seat``'s control marker on ``province`` (None: remove it), then settle Power cards."""
    if s.control.get(province) != seat:
        ctx.change("control", actor=seat, province=province, seat=seat, why=why)
    settle_powers(s, ctx)


def take_power(s: MedievalState, ctx: Context, seat: str, power: str, why: str) -> None:
    """``seat`` takes ``power``'s card in front of him; Start Fl the first time (4.4)."""
    ctx.change("move_card", actor=seat, card=power_card(power), to=f"front:{seat}", why=why)
    if power not in s.started:
        ctx.change("started", actor=seat, power=power)
        gain(s, ctx, seat, s.data.powers[power].start, f"Start Fl of {s.data.powers[power].name} (4.4)")


def settle_powers(s: MedievalState, ctx: Context) -> None:
    """Apply 4.1's home clarifications and 4.3's card movements until nothing changes.

    A foreign-held home province (France 1B, Spain 3A) becomes its own Power's home once the
    holder of that Power's card controls it. A card in front of a player who controls none of its
    provinces goes to the table; a card of a Power with no province left anywhere is set aside
    (5.3); a card on the table goes to the player who controls all its provinces in play.
    """
    changed = True
    while changed:
        changed = False
        provinces = s.data.provinces
        for prov, home in [(p, h) for p, h in s.home.items() if h != provinces[p].power]:
            own = provinces[prov].power
            if own and s.in_play(prov) and prov not in s.koc:
                holder = s.holder(own)
                if holder is not None and s.control.get(prov) == holder:
                    ctx.change("home", province=prov, power=own, why="4.1 clarification: back to its own Power")
                    changed = True
        # Below, only Power cards and florins move: homes, Knights and the map stay as they are now.
        homes = s.home_provinces_by_power()
        for seat in s.seats:
            for power in s.powers_of(seat):
                provs = power_provinces(s, power, homes)
                if not provs and not can_still_appear(s, power):
                    ctx.change("move_card", card=power_card(power), to="aside",
                               why="5.3: the Power has no province left in play")
                    changed = True
                elif not any(s.control.get(p) == seat for p in provs):
                    ctx.change("move_card", card=power_card(power), to="table",
                               why="4.3: its player controls none of its provinces")
                    changed = True
        for card in list(s.table):
            power = card[6:]
            provs = power_provinces(s, power, homes)
            owners = {s.control.get(p) for p in provs}
            if provs and len(owners) == 1 and None not in owners:
                take_power(s, ctx, owners.pop(), power, "4.3 B: controls all its provinces in play")  # type: ignore[arg-type]
                changed = True
            elif not provs and not can_still_appear(s, power):
                ctx.change("move_card", card=card, to="aside", why="5.3: the Power has no province left in play")
                changed = True


def play_power_card(s: MedievalState, ctx: Context, seat: str, power: str) -> None:
    """Play a Power card from hand (4.3 A, B, C)."""
    provs = power_provinces(s, power)
    free = [p for p in provs if p not in s.control]
    owners = {s.control.get(p) for p in provs}
    name = s.data.powers[power].name
    if free:
        for p in free:
            ctx.change("control", actor=seat, province=p, seat=seat, why="4.3 A")
        take_power(s, ctx, seat, power, f"4.3 A: {name} has uncontrolled provinces in play")
    elif len(owners) == 1 and None not in owners:
        take_power(s, ctx, owners.pop(), power, "4.3 B: controls all its provinces in play")  # type: ignore[arg-type]
    else:
        ctx.change("move_card", actor=seat, card=power_card(power), to="table",
                   why="4.3 C: its provinces are held by different players")
    settle_powers(s, ctx)


def place_map_card(s: MedievalState, ctx: Context, card: str, seat: str) -> None:
    """A map card enters play (3.3); holders of its Powers take its new provinces (4.2)."""
    ctx.change("map_card", actor=seat, card=card, status="play")
    for prov in s.data.provinces_on(card):
        home = s.home.get(prov)
        holder = s.holder(home) if home else None
        if holder is not None and prov not in s.control:
            ctx.change("control", actor=holder, province=prov, seat=holder,
                       why="4.2: the Power's holder takes its newly revealed province")
    settle_powers(s, ctx)


def destroy_map_card(s: MedievalState, ctx: Context, card: str) -> None:
    """The Mongols destroy ``card`` (5.3): its provinces leave play, so do unplayed cards east of it."""
    for prov in s.data.provinces_on(card):
        if prov in s.control:
            ctx.change("control", province=prov, seat=None, why="5.3: the map card is destroyed")
        if prov in s.koc:
            ctx.change("koc", province=prov, on=False)
        if prov in s.heresy:
            ctx.change("heresy", province=prov, on=False)
    ctx.change("map_card", card=card, status="destroyed")
    for other in list(s.map_deck):
        if s.data.east_of(other, card):
            ctx.change("map_card", card=other, status="out", why=f"5.3: lies east of destroyed {card}")
    settle_powers(s, ctx)


def change_ruler(s: MedievalState, ctx: Context, rid: str, power: str, why: str) -> None:
    """Roll on the Leader Table for ``power``'s new ruler (4.5); its marriages end (6.4)."""
    seat = s.holder(power)
    face = ctx.roll(rid, "1d6", actor=seat, purpose=f"new ruler of {s.data.powers[power].name} ({why})",
                    effects={f: s.data.leader_table[f] for f in range(1, 7)})
    ctx.change("ruler", actor=seat, power=power, ruler=s.data.leader_table[face], why=why)
    for pair in [m for m in s.marriages if power in m]:
        ctx.change("marriage", powers=list(pair), on=False, why="6.4: a ruler change ends the marriage")


def roll_powers_table(s: MedievalState, ctx: Context, rid: str, actor: str, purpose: str,
                      eligible: Callable[[str], bool]) -> str | None:
    """Roll 2d6 read red then white on the Powers Table until an eligible Power comes up (8.7, 8.8).

    Knights of Christ Powers are never eligible (7.2). After ``powers_table_rerolls`` tries with
    no eligible Power the roll has no effect (a ruling: the text only says "roll again").
    """
    for n in range(1, s.data.c("powers_table_rerolls") + 1):
        red = ctx.roll(f"{rid}/powers-table-{n}/red", "1d6", actor=actor, purpose=f"{purpose}: red die")
        white = ctx.roll(f"{rid}/powers-table-{n}/white", "1d6", actor=actor, purpose=f"{purpose}: white die")
        power = s.data.powers_table[10 * red + white]
        ok = eligible(power)
        ctx.report("powers-table", actor=actor, roll=10 * red + white, power=power, eligible=ok)
        if ok:
            return power
    return None


def is_knights_power(s: MedievalState, power: str) -> bool:
    """Every province of ``power`` in play is a Knights of Christ province (7.2, reference §3.2)."""
    provs = [p for p in s.data.provinces_of(power) if s.in_play(p)]
    return bool(provs) and all(p in s.koc for p in provs)
