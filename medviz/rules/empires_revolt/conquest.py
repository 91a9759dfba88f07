"""The ``conquest`` scenarios of Empire's Revolt: 2, 3 or 4 players on the reconstructed 300 BCE map.

A game as the post states it: random capital cards (rule 2), one army and one of each resource to
start (rules 6, 7); then each player's turn in seat order: collect resources (rules 46, 63), pay
upkeep or sacrifice (rules 26, 39, 43, 54, 64), destroy armies beyond support (rules 12, 13), then
troop actions (rule 65): build armies (rules 10, 11), ships (26), settlements (34, 35),
fortifications (41), hire mercenaries (52-56); each army has one action (rule 14): march or attack
(17-24), convoy into a ship (27) or out of it, attacking with a die more (28) and with every ship on
the coast adding one (29); ships sail to a sea zone next to theirs (30) and fight ships they meet
(31, 32). Mountain crossings take two turns (67). A player whose capital is taken and not retaken on
its own turn is defeated (70); a player wins by holding the resource regions of its player count
(71-73) or six cities for a whole turn cycle (76).

What the text leaves open is ruled here and listed in docs/rules-coverage-empires_revolt.md, each at
the code that applies it ("ruling:").
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from medviz.engine.errors import MalformedInput
from medviz.engine.events import ChangeEvent
from medviz.engine.game import Context, Task
from medviz.rules.empires_revolt import economy
from medviz.rules.empires_revolt.combat import MAX_THROWS, higher_wins
from medviz.rules.empires_revolt.data import RESOURCES, Rules
from medviz.rules.empires_revolt.mapdata import GameMap

SEAT_IDS = ("A", "B", "C", "D")
COLOURS = {"A": "#c0392b", "B": "#1f5fa8", "C": "#2e8b3a", "D": "#d98c10"}
#: Scenario -> number of players.
SCENARIO_SEATS = {"conquest-2": 2, "conquest-3": 3, "conquest-4": 4}
#: Ruling: a game that has not ended after this many rounds is judged by progress (not in the text).
DEFAULT_MAX_ROUNDS = 40
#: Ruling: a turn ends after this many actions, a bound the text does not need (each unit acts once).
MAX_ACTIONS = 80
#: Ruling (rule 64 does not order them): what an unpaid upkeep sacrifices first.
SACRIFICE_ORDER = ("mercenary", "ship", "fortification", "settlement")
OPTIONS = ("max_rounds", "city_rule", "capital_supply", "map_override")
#: Rule 7 read two ways: "turn" (a ruling, the default): a held capital supplies one of each resource every
#: turn; "start": only the starting stock (the literal reading, under which armies are rarely affordable).
CAPITAL_SUPPLY = ("turn", "start")


@dataclass
class ConquestState:
    """A game on the map: who holds what, the units, the stocks, the turn."""

    scenario: str
    seats: list[str]
    rules: Rules
    map: GameMap
    city_rule: str = "50"
    max_rounds: int = DEFAULT_MAX_ROUNDS
    capital_supply: str = "turn"
    round: int = 0
    player: str = ""
    capital_of: dict[str, str] = field(default_factory=dict)  # seat -> capital card id
    owner: dict[str, str] = field(default_factory=dict)  # land region -> seat
    stock: dict[str, dict[str, int]] = field(default_factory=dict)
    armies: dict[str, dict[str, Any]] = field(default_factory=dict)  # id -> seat, area, ship, merc, crossing
    ships: dict[str, dict[str, Any]] = field(default_factory=dict)  # id -> seat, sea
    settlements: dict[str, int] = field(default_factory=dict)  # region -> order built
    forts: dict[str, int] = field(default_factory=dict)  # region -> order built
    acted: list[str] = field(default_factory=list)  # units that used their action this turn
    trade_mark: dict[str, bool] = field(default_factory=dict)  # six cities held since the seat's last turn
    defeated: list[str] = field(default_factory=list)
    serial: int = 0
    winner: Any = None
    reason: str = ""
    victory: str = ""
    over: bool = False

    # -- reading the state ---------------------------------------------------------------------
    def alive(self) -> list[str]:
        """Seats still in the game."""
        return [s for s in self.seats if s not in self.defeated]

    def held(self, seat: str) -> list[str]:
        """Regions ``seat`` controls."""
        return sorted(a for a, s in self.owner.items() if s == seat)

    def cities(self, seat: str) -> list[str]:
        """Cities ``seat`` controls (rules 48, 76)."""
        return [a for a in self.held(seat) if self.map.areas[a].city]

    def capital_area(self, seat: str) -> str:
        """The region of ``seat``'s capital."""
        return self.map.capital_area(self.capital_of[seat])

    def by_resource(self, seat: str) -> dict[str, int]:
        """Regions held per resource they produce (rules 71-75 count these)."""
        out = {r: 0 for r in RESOURCES}
        for a in self.held(seat):
            out[self.map.areas[a].resource] += 1
        return out

    def armies_of(self, seat: str) -> list[str]:
        """Ids of ``seat``'s armies, in the order raised."""
        return sorted((i for i, x in self.armies.items() if x["seat"] == seat), key=_order)

    def ships_of(self, seat: str) -> list[str]:
        """Ids of ``seat``'s ships, in the order built."""
        return sorted((i for i, x in self.ships.items() if x["seat"] == seat), key=_order)

    def armies_in(self, area: str) -> list[str]:
        """Armies standing in a land region (not aboard a ship), in the order raised."""
        return sorted((i for i, x in self.armies.items() if x["area"] == area and not x["ship"]), key=_order)

    def cargo(self, ship: str) -> str:
        """The army aboard ``ship``, or ``""`` (ruling: a ship carries one army)."""
        return next((i for i, x in sorted(self.armies.items()) if x["ship"] == ship), "")

    def support(self, seat: str) -> int:
        """Armies ``seat`` can support (rules 5, 12): its capital while held, other cities, every 3 other regions."""
        held = self.held(seat)
        cap = self.capital_area(seat)
        cities = sum(1 for a in held if self.map.areas[a].city and a != cap)
        regions = sum(1 for a in held if not self.map.areas[a].city)
        n = economy.army_support(self.rules, self.capital_of[seat], cities, regions)
        if cap not in held and self.rules.capitals[self.capital_of[seat]].supports_army:
            n -= 1  # ruling: a capital supports its army only while its player holds it
        return n

    def holdings(self, seat: str) -> economy.Holdings:
        """What costs ``seat`` upkeep (rules 26, 39, 43, 54)."""
        held = set(self.held(seat))
        return economy.Holdings(len(self.ships_of(seat)), sum(1 for a in self.settlements if a in held),
                                sum(1 for a in self.forts if a in held),
                                sum(1 for i in self.armies_of(seat) if self.armies[i]["merc"]))


def _order(unit_id: str) -> int:
    return int(unit_id.rsplit("-", 1)[1])


# ------------------------------------------------------------------------------------------
# Defence and attack dice on the map
# ------------------------------------------------------------------------------------------
def territory_defence(state: ConquestState, seat: str, area: str) -> tuple[int, str]:
    """Dice a region without an enemy army defends with against ``seat``, and the rule (18-21, 37, 42, 50, 56)."""
    a = state.map.areas[area]
    holder = state.owner.get(area)
    t = state.rules.territories
    if holder is None:
        if a.mercenary:
            return t["illyria"]["dice"], "rule 56 (the Illyrian mercenary region)"
        kind = "own-revolt" if a.nation and a.nation == state.capital_of[seat] else (
            "other-revolt" if a.nation or a.capital else "blank")
        rule = {"own-revolt": "rule 18", "other-revolt": "rule 19", "blank": "rule 19"}[kind]
        return (t[kind]["city_dice"], f"{rule} (a city)") if a.city else (t[kind]["dice"], rule)
    d = state.rules.capitals[state.capital_of[holder]].defence
    if area in state.settlements:
        return d + (1 if area in state.forts else 0), "rules 37, 42 (a settlement, its nation's D; +1 fortified)"
    if a.city:
        if state.city_rule == "21":
            return t["held"]["city_dice"], "rule 21 (another player's city)"
        return d + 1, "rule 50 (a city: D + 1)"
    return t["held"]["dice"], "rules 21, 23 (another player's region, not settled)"


def support_ships(state: ConquestState, seat: str, area: str, carrier: str = "") -> int:
    """Ships of ``seat`` on ``area``'s coast besides the one carrying the attacker: +1 die each (rule 29)."""
    coasts = set(state.map.areas[area].coasts)
    return sum(1 for i in state.ships_of(seat) if i != carrier and state.ships[i]["sea"] in coasts)


def attack_dice(state: ConquestState, seat: str, area: str, carrier: str = "") -> int:
    """The attack dice of ``seat`` against ``area``: A (rule 3), +1 from a ship (28), +1 per ship on the coast (29)."""
    return (state.rules.capitals[state.capital_of[seat]].attack + (1 if carrier else 0)
            + support_ships(state, seat, area, carrier))


def enemy_armies(state: ConquestState, seat: str, area: str) -> list[str]:
    """Armies of other seats standing in ``area``."""
    return [i for i in state.armies_in(area) if state.armies[i]["seat"] != seat]


def fight_dice(state: ConquestState, seat: str, area: str, carrier: str = "") -> tuple[int, int]:
    """(attack, defence) dice of an attack by ``seat`` on ``area``: against an army there, the cards' A and D (rule 24)."""
    a = attack_dice(state, seat, area, carrier)
    enemies = enemy_armies(state, seat, area)
    if enemies:
        return a, state.rules.capitals[state.capital_of[state.armies[enemies[0]]["seat"]]].defence
    return a, territory_defence(state, seat, area)[0]


# ------------------------------------------------------------------------------------------
# The legal actions of a turn (rule 65)
# ------------------------------------------------------------------------------------------
def can_pay(stock: Mapping[str, int], price: Mapping[str, int]) -> bool:
    """True when ``stock`` covers ``price``."""
    return all(stock.get(r, 0) >= n for r, n in price.items())


def legal_actions(state: ConquestState, seat: str) -> list[dict[str, str]]:
    """Every action ``seat`` may take now, ``end`` first (plain JSON options)."""
    m, rules, stock = state.map, state.rules, state.stock[seat]
    held = state.held(seat)
    out: list[dict[str, str]] = [{"do": "end"}]
    cap = state.capital_area(seat)
    regulars = sum(1 for i in state.armies_of(seat) if not state.armies[i]["merc"])
    # rules 10, 11: an army for three food, raised in the capital (ruling: only while held, and only
    # within support, since rule 13 would destroy it at once)
    if state.owner.get(cap) == seat and can_pay(stock, rules.costs["army"]) and regulars < state.support(seat):
        out.append({"do": "army"})
    if can_pay(stock, rules.costs["ship"]):  # rule 26: in a city the player controls, on one of its coasts
        for a in held:
            if m.areas[a].city:
                out += [{"do": "ship", "at": a, "sea": s} for s in m.areas[a].coasts]
    if can_pay(stock, rules.costs["settlement"]):  # rules 34, 35
        out += [{"do": "settle", "area": a} for a in held if not m.areas[a].city and a not in state.settlements]
    if can_pay(stock, rules.costs["fortification"]):  # rule 41
        out += [{"do": "fortify", "area": a} for a in held if a in state.settlements and a not in state.forts]
    can_hire = can_pay(stock, rules.costs["mercenary"])
    if can_hire:  # rule 56: whoever holds the mercenary region hires there, no army needed
        out += [{"do": "hire", "at": a} for a in held if m.areas[a].mercenary]
    for i in state.armies_of(seat):
        x = state.armies[i]
        if i in state.acted or x["crossing"]:
            continue
        if x["ship"]:  # rule 28: out of the ship onto a coast of its sea
            sea = state.ships[x["ship"]]["sea"]
            out += [{"do": "land", "army": i, "to": a} for a in m.areas[sea].coasts]
            continue
        here = x["area"]
        out += [{"do": "march", "army": i, "to": a} for a in m.land_moves(here)]
        for s in m.areas[here].coasts:  # rule 27
            out += [{"do": "embark", "army": i, "ship": k} for k in state.ships_of(seat)
                    if state.ships[k]["sea"] == s and not state.cargo(k)]
        if can_hire and any(m.areas[n].mercenary for n in m.land_moves(here)):  # rules 52, 53
            out.append({"do": "hire", "army": i})
    for k in state.ships_of(seat):  # rule 30
        if k not in state.acted:
            out += [{"do": "sail", "ship": k, "to": s} for s in m.areas[state.ships[k]["sea"]].neighbours]
    return out


# ------------------------------------------------------------------------------------------
# Tasks
# ------------------------------------------------------------------------------------------
def new_state(scenario: str, options: Mapping[str, Any], rules: Rules, game_map: GameMap) -> ConquestState:
    """The state before capitals are drawn, from the scenario's options."""
    unknown = sorted(set(options) - set(OPTIONS))
    if unknown:
        raise MalformedInput(f"empires_revolt {scenario}: unknown option(s) {', '.join(unknown)} "
                             f"(known: {', '.join(OPTIONS)})")
    max_rounds = options.get("max_rounds", DEFAULT_MAX_ROUNDS)
    if isinstance(max_rounds, bool) or not isinstance(max_rounds, int) or not 1 <= max_rounds <= 1000:
        raise MalformedInput(f"empires_revolt {scenario}: option max_rounds must be a whole number 1..1000, "
                             f"not {max_rounds!r}")
    city_rule = str(options.get("city_rule", "50"))
    if city_rule not in ("50", "21"):
        raise MalformedInput(f"empires_revolt {scenario}: option city_rule must be 50 or 21, not {city_rule!r}")
    supply = str(options.get("capital_supply", "turn"))
    if supply not in CAPITAL_SUPPLY:
        raise MalformedInput(f"empires_revolt {scenario}: option capital_supply must be turn or start, not {supply!r}")
    n = SCENARIO_SEATS[scenario]
    return ConquestState(scenario, list(SEAT_IDS[:n]), rules, game_map, city_rule, max_rounds, supply)


def task_setup(state: ConquestState, ctx: Context) -> None:
    """Each player draws a capital card at random (rule 2), holds its region, one army (6) and 1 of each resource (7)."""
    ctx.begin_phase("set-up", turn=0)
    pool = sorted(state.rules.capitals)
    for seat in state.seats:
        capital = ctx.draw(f"set-up/capital/{seat}", pool, actor=seat,
                           purpose=f"Player {seat}'s capital card (rule 2)")
        pool.remove(capital)
        army = state.rules.capitals[capital].supports_army  # rules 5, 6: Alexandria starts without one
        ctx.change("er-capital", actor=seat, seat=seat, capital=capital, area=state.map.capital_area(capital),
                   army=f"army-{state.serial + 1}" if army else "", stock=dict(economy.STARTING_STOCK))
    ctx.schedule(Task.of("er.turn", checkpoint=True, seat=state.seats[0], round=1))


def task_turn(state: ConquestState, ctx: Context, seat: str, round: int) -> None:
    """One player's turn (rules 62-65), then the checks of the game's end (70-76)."""
    if seat in state.defeated:
        _next_turn(state, ctx, seat, round)
        return
    ctx.begin_phase("collect", turn=round)
    ctx.change("er-turn", actor=seat, automatic=True, seat=seat, round=round)
    if state.trade_mark.get(seat) and len(state.cities(seat)) >= state.rules.trade_cities:
        _win(ctx, seat, "trade", f"Player {seat} held {len(state.cities(seat))} cities for a whole turn cycle "
                                 f"(rule 76)")
        return
    _collect(state, ctx, seat)
    ctx.begin_phase("upkeep", turn=round)
    _upkeep(state, ctx, seat)
    ctx.begin_phase("troop-actions", turn=round)
    for i in state.armies_of(seat):  # rule 67: an army in the mountains arrives the turn after
        if i in state.armies and state.armies[i]["crossing"]:
            ctx.change("er-acted", actor=seat, automatic=True, unit=i)
            _enter(state, ctx, seat, i, state.armies[i]["crossing"], f"round-{round}/{seat}/arrive-{i}")
    for k in range(1, MAX_ACTIONS + 1):
        if state.over:
            return
        options = legal_actions(state, seat)
        choice = ctx.decide(f"round-{round}/{seat}/action-{k}", seat, options, kind="action",
                            prompt=f"Player {seat}: an action (rule 65), or end the turn")
        if choice["do"] == "end":
            break
        _act(state, ctx, seat, choice, f"round-{round}/{seat}/action-{k}")
    _end_of_turn(state, ctx, seat)
    if not state.over:
        _next_turn(state, ctx, seat, round)


def _next_turn(state: ConquestState, ctx: Context, seat: str, round: int) -> None:
    i = state.seats.index(seat) + 1
    if i == len(state.seats):
        i, round = 0, round + 1
    if round > state.max_rounds:
        _judge(state, ctx)
        return
    ctx.schedule(Task.of("er.turn", checkpoint=True, seat=state.seats[i], round=round))


def _collect(state: ConquestState, ctx: Context, seat: str) -> None:
    """Rules 46, 63: one of its resource from each region held with an army in it or a settlement; rule 7: the capital's supply."""
    gains = {r: 0 for r in RESOURCES}
    if state.capital_supply == "turn" and state.owner.get(state.capital_area(seat)) == seat:
        for r in RESOURCES:  # rule 7, ruling: every turn while the capital is held
            gains[r] += 1
    for a in state.held(seat):
        if a in state.settlements or any(state.armies[i]["seat"] == seat for i in state.armies_in(a)):
            gains[state.map.areas[a].resource] += 1
    ctx.change("er-collect", actor=seat, automatic=True, seat=seat, gains=gains)


def _upkeep(state: ConquestState, ctx: Context, seat: str) -> None:
    """Rule 64: upkeep paid or the item sacrificed (rules 26, 39, 43, 54); rule 13: armies beyond support destroyed."""
    h = state.holdings(seat)
    left, kept = economy.pay_upkeep(state.rules, state.stock[seat], h, SACRIFICE_ORDER)
    paid = {r: state.stock[seat][r] - left[r] for r in RESOURCES}
    held = set(state.held(seat))
    lost: list[list[str]] = []
    # ruling: the newest item of a kind is sacrificed first
    mercs = [i for i in state.armies_of(seat) if state.armies[i]["merc"]]
    forts = sorted((a for a in state.forts if a in held), key=lambda a: state.forts[a])
    setts = sorted((a for a in state.settlements if a in held), key=lambda a: state.settlements[a])
    for kind, items, n in (("army", mercs, h.mercenaries - kept.mercenaries),
                           ("ship", state.ships_of(seat), h.ships - kept.ships),
                           ("fort", forts, h.fortifications - kept.fortifications),
                           ("settlement", setts, h.settlements - kept.settlements)):
        lost += [[kind, x] for x in (items[-n:][::-1] if n > 0 else [])]
    if any(paid.values()) or lost:
        ctx.change("er-upkeep", actor=seat, automatic=True, seat=seat, paid=paid, lost=lost)
    regulars = [i for i in state.armies_of(seat) if not state.armies[i]["merc"]]
    excess = max(0, len(regulars) - state.support(seat))  # rule 13 (mercenaries are apart, rule 55)
    if excess:
        ctx.change("er-disband", actor=seat, automatic=True, seat=seat, armies=regulars[len(regulars) - excess:])


def _pay(state: ConquestState, ctx: Context, seat: str, item: str) -> None:
    ctx.change("er-pay", actor=seat, seat=seat, item=item, price=dict(state.rules.costs[item]))


def _act(state: ConquestState, ctx: Context, seat: str, c: Mapping[str, str], key: str) -> None:
    """Carry out one chosen action."""
    do = c["do"]
    if do == "army":
        _pay(state, ctx, seat, "army")
        ctx.change("er-raise", actor=seat, seat=seat, army=f"army-{state.serial + 1}", area=state.capital_area(seat),
                   merc=False)
    elif do == "ship":
        _pay(state, ctx, seat, "ship")
        ctx.change("er-ship", actor=seat, seat=seat, ship=f"ship-{state.serial + 1}", at=c["at"], sea=c["sea"])
    elif do == "settle":
        _pay(state, ctx, seat, "settlement")
        ctx.change("er-settle", actor=seat, seat=seat, area=c["area"])
    elif do == "fortify":
        _pay(state, ctx, seat, "fortification")
        ctx.change("er-fortify", actor=seat, seat=seat, area=c["area"])
    elif do == "hire":
        _pay(state, ctx, seat, "mercenary")
        at = c.get("at") or state.armies[c["army"]]["area"]
        if "army" in c:
            ctx.change("er-acted", actor=seat, automatic=True, unit=c["army"])  # rule 53: the troop's action
        ctx.change("er-raise", actor=seat, seat=seat, army=f"army-{state.serial + 1}", area=at, merc=True)
    elif do in ("march", "land"):
        ctx.change("er-acted", actor=seat, automatic=True, unit=c["army"])
        here = state.armies[c["army"]]["area"]
        if do == "march" and state.map.crossing(here, c["to"]):  # rule 67: two turns
            ctx.change("er-crossing", actor=seat, army=c["army"], to=c["to"],
                       terrain=state.map.crossing(here, c["to"]))
        else:
            _enter(state, ctx, seat, c["army"], c["to"], key)
    elif do == "embark":
        ctx.change("er-acted", actor=seat, automatic=True, unit=c["army"])
        ctx.change("er-embark", actor=seat, army=c["army"], ship=c["ship"])
    elif do == "sail":
        ctx.change("er-acted", actor=seat, automatic=True, unit=c["ship"])
        _sail(state, ctx, seat, c["ship"], c["to"], key)
    else:
        raise MalformedInput(f"empires_revolt: unknown action {do!r}")


def dice_off(ctx: Context, key: str, a: int, d: int) -> tuple[str, int]:
    """Throw ``a`` against ``d`` dice until one side shows the single highest die (rule 22): (winner, throws)."""
    for throw in range(1, MAX_THROWS + 1):
        faces = {side: [ctx.roll(f"{key}/throw-{throw}/{side}/die-{i}", "1d6", actor=side,
                                 purpose=f"{side} die {i} of {n} (highest die wins; ties roll again)")
                        for i in range(1, n + 1)] for side, n in (("attacker", a), ("defender", d))}
        winner = higher_wins(faces["attacker"], faces["defender"])
        if winner is not None:
            return winner, throw
    return "defender", MAX_THROWS  # ruling: a thousand ties in a row (chance below 10**-300) hold the defence


def _enter(state: ConquestState, ctx: Context, seat: str, army: str, to: str, key: str) -> None:
    """An army enters ``to``: a move where ``seat`` holds it, else an attack (rules 17-24, 28, 29)."""
    x = state.armies[army]
    carrier = x["ship"]
    from_area = "" if carrier else x["area"]
    enemies = enemy_armies(state, seat, to)
    if not enemies and state.owner.get(to) == seat:
        ctx.change("er-move", actor=seat, army=army, to=to)
        return
    a, d = fight_dice(state, seat, to, carrier)
    from_capital = bool(from_area) and from_area == state.capital_area(seat) and state.owner.get(from_area) == seat
    if enemies:
        rule = "rule 24 (army against army)"
        defender = state.armies[enemies[0]]["seat"]
    else:
        rule = territory_defence(state, seat, to)[1]
        defender = state.owner.get(to, "")
    winner, throws = dice_off(ctx, f"{key}/fight", a, d)
    lost: list[str] = []
    if winner == "attacker":
        if enemies:
            lost = [enemies[0]]  # rule 24: the attacker stays where it attacked from
        else:
            ctx.change("er-attack", actor=seat, seat=seat, defender=defender, target=to, attack=a, defence=d,
                       winner=winner, throws=throws, lost=lost, rule=rule, army=army)
            ctx.change("er-take", actor=seat, seat=seat, army=army, area=to, was=defender)  # rules 23, 38, 45
            return
    elif not from_capital:  # rule 8: an army attacking from its capital is not destroyed
        lost = [army]
    ctx.change("er-attack", actor=seat, seat=seat, defender=defender, target=to, attack=a, defence=d,
               winner=winner, throws=throws, lost=lost, rule=rule, army=army)


def _sail(state: ConquestState, ctx: Context, seat: str, ship: str, to: str, key: str) -> None:
    """A ship sails to a sea zone next to its own (rule 30); meeting enemy ships it fights one (31, 32)."""
    enemies = [k for k in sorted(state.ships, key=_order) if state.ships[k]["sea"] == to and state.ships[k]["seat"] != seat]
    if not enemies:
        ctx.change("er-sail", actor=seat, ship=ship, to=to)
        return
    winner, throws = dice_off(ctx, f"{key}/sea-fight", 1, 1)
    loser = enemies[0] if winner == "attacker" else ship
    ctx.change("er-sea-fight", actor=seat, seat=seat, defender=state.ships[enemies[0]]["seat"], sea=to, ship=ship,
               enemy=enemies[0], winner=winner, throws=throws, sunk=loser, lost=[state.cargo(loser)]
               if state.cargo(loser) else [])
    if winner == "attacker" and len(enemies) == 1:  # ruling: the winner sails in once the zone is clear
        ctx.change("er-sail", actor=seat, ship=ship, to=to)


def _end_of_turn(state: ConquestState, ctx: Context, seat: str) -> None:
    """The checks after a turn: defeat (rule 70), resource victory (71-73), the trade-control mark (76)."""
    if state.owner.get(state.capital_area(seat)) != seat:  # rule 70: not retaken on its own turn
        ctx.change("er-defeated", actor=seat, automatic=True, seat=seat, by=state.owner.get(state.capital_area(seat), ""))
        alive = state.alive()
        if len(alive) == 1:
            _win(ctx, alive[0], "last", f"Player {alive[0]} is the last player standing: every other capital "
                                        f"was taken and not retaken (rule 70)")
        return
    n = len(state.seats)
    have = state.by_resource(seat)
    if economy.resource_victory(state.rules, n, have):
        need = state.rules.victory[n]
        _win(ctx, seat, "resources", f"Player {seat} controls {have['food']} food, {have['gold']} gold and "
                                     f"{have['wood']} wood regions, the target of a {n}-player game "
                                     f"({need['food']}/{need['gold']}/{need['wood']}, rules 71-73)")
        return
    mark = len(state.cities(seat)) >= state.rules.trade_cities
    if mark != bool(state.trade_mark.get(seat)):
        ctx.change("er-mark", actor=seat, automatic=True, seat=seat, on=mark)


def _win(ctx: Context, seat: str, victory: str, reason: str) -> None:
    ctx.change("er-over", automatic=True, winner=seat, victory=victory, reason=reason)


def progress(state: ConquestState, seat: str) -> int:
    """Regions held toward the player count's resource target, each resource counted up to its target."""
    need = state.rules.victory[len(state.seats)]
    have = state.by_resource(seat)
    return sum(min(have[r], need[r]) for r in RESOURCES)


def _judge(state: ConquestState, ctx: Context) -> None:
    """Ruling (not in the text): after ``max_rounds`` the most progress toward rules 71-73 wins, then most regions."""
    alive = state.alive()
    key = {s: (progress(state, s), len(state.held(s))) for s in alive}
    best = max(key.values())
    top = [s for s in alive if key[s] == best]
    winner: Any = top[0] if len(top) == 1 else top
    who = f"Player {top[0]}" if len(top) == 1 else "Players " + " and ".join(top) + " (tied)"
    ctx.change("er-over", automatic=True, winner=winner, victory="rounds",
               reason=f"{who}: nearest the resource target after {state.max_rounds} rounds "
                      f"({best[0]} regions toward it, {best[1]} held; a ruling, the post sets no limit)")


# ------------------------------------------------------------------------------------------
# The reducers
# ------------------------------------------------------------------------------------------
def _kill(s: ConquestState, army: str) -> None:
    s.armies.pop(army, None)


def _sink(s: ConquestState, ship: str) -> None:
    for i in [i for i, x in s.armies.items() if x["ship"] == ship]:
        s.armies.pop(i)  # ruling: an army aboard a sunk ship drowns
    s.ships.pop(ship, None)


def _apply(s: ConquestState, name: str, d: Mapping[str, Any]) -> None:
    if name == "er-capital":
        s.capital_of[d["seat"]] = d["capital"]
        s.owner[d["area"]] = d["seat"]
        s.stock[d["seat"]] = dict(d["stock"])
        s.trade_mark[d["seat"]] = False
        if d["army"]:
            s.serial += 1
            s.armies[d["army"]] = {"seat": d["seat"], "area": d["area"], "ship": "", "merc": False, "crossing": ""}
    elif name == "er-turn":
        s.player, s.round, s.acted = d["seat"], d["round"], []
    elif name == "er-collect":
        for r, n in d["gains"].items():
            s.stock[d["seat"]][r] += n
    elif name == "er-upkeep":
        for r, n in d["paid"].items():
            s.stock[d["seat"]][r] -= n
        for kind, what in d["lost"]:
            if kind == "army":
                _kill(s, what)
            elif kind == "ship":
                _sink(s, what)
            elif kind == "fort":
                s.forts.pop(what, None)
            else:
                s.settlements.pop(what, None)
                s.forts.pop(what, None)
    elif name == "er-disband":
        for i in d["armies"]:
            _kill(s, i)
    elif name == "er-pay":
        for r, n in d["price"].items():
            s.stock[d["seat"]][r] -= n
    elif name == "er-raise":
        s.serial += 1
        s.armies[d["army"]] = {"seat": d["seat"], "area": d["area"], "ship": "", "merc": d["merc"], "crossing": ""}
        s.acted.append(d["army"])  # ruling: a unit acts from the turn after it is raised
    elif name == "er-ship":
        s.serial += 1
        s.ships[d["ship"]] = {"seat": d["seat"], "sea": d["sea"]}
        s.acted.append(d["ship"])
    elif name == "er-settle":
        s.serial += 1
        s.settlements[d["area"]] = s.serial
    elif name == "er-fortify":
        s.serial += 1
        s.forts[d["area"]] = s.serial
    elif name == "er-acted":
        s.acted.append(d["unit"])
    elif name == "er-crossing":
        s.armies[d["army"]]["crossing"] = d["to"]
    elif name == "er-move":
        x = s.armies[d["army"]]
        x["area"], x["ship"], x["crossing"] = d["to"], "", ""
    elif name == "er-embark":
        s.armies[d["army"]]["ship"] = d["ship"]
    elif name == "er-take":
        x = s.armies[d["army"]]
        x["area"], x["ship"], x["crossing"] = d["area"], "", ""
        s.owner[d["area"]] = d["seat"]
        was = d["was"]
        if was and len(s.cities(was)) < s.rules.trade_cities:
            s.trade_mark[was] = False
    elif name == "er-attack":
        for i in d["lost"]:
            _kill(s, i)
        attacker = s.armies.get(d["army"])
        if attacker is not None:
            attacker["crossing"] = ""
    elif name == "er-sea-fight":
        _sink(s, d["sunk"])
    elif name == "er-sail":
        s.ships[d["ship"]]["sea"] = d["to"]
    elif name == "er-mark":
        s.trade_mark[d["seat"]] = d["on"]
    elif name == "er-defeated":
        seat = d["seat"]
        s.defeated.append(seat)
        for i in s.armies_of(seat):
            _kill(s, i)
        for k in s.ships_of(seat):
            _sink(s, k)
        for a in s.held(seat):  # ruling: a defeated player's regions revolt (nobody's)
            del s.owner[a]
            s.settlements.pop(a, None)
            s.forts.pop(a, None)
        s.trade_mark[seat] = False
    elif name == "er-over":
        s.over, s.winner, s.victory, s.reason = True, d["winner"], d["victory"], d["reason"]
    else:
        raise MalformedInput(f"change {name!r} is not part of Empire's Revolt's conquest")


CHANGES = ("er-capital", "er-turn", "er-collect", "er-upkeep", "er-disband", "er-pay", "er-raise", "er-ship",
           "er-settle", "er-fortify", "er-acted", "er-crossing", "er-move", "er-embark", "er-take", "er-attack",
           "er-sea-fight", "er-sail", "er-mark", "er-defeated", "er-over")


def reducer(name: str) -> Any:
    """The reducer of change ``name``."""
    def apply(state: ConquestState, e: ChangeEvent) -> None:
        _apply(state, name, e.data)
    return apply


def outcome(s: ConquestState) -> dict[str, Any]:
    """The outcome contract: winner (a seat or a list of tied seats), scores (regions held), reason."""
    winner = list(s.winner) if isinstance(s.winner, (list, tuple)) else s.winner
    return {"winner": winner, "scores": {seat: len(s.held(seat)) for seat in s.seats},
            "reason": s.reason or "the game has not ended", "victory": s.victory, "round": s.round,
            "capitals": dict(s.capital_of), "defeated": list(s.defeated)}
