"""A heuristic player for Medieval, for any seat: it drafts rich Powers, saves money and collects
income until it can attack well, plays its Power cards, bids Militia by the odds, defends what
is worth defending and uses its cards against the other players. It decides only from its own
observation (``point.state``, see ``MedievalRuleset.observe``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from medviz.engine import DecisionPoint
from medviz.engine.dice import natural_index
from medviz.rules.medieval_xiii.battle import Side, defender_side
from medviz.rules.medieval_xiii.control import ruler_drm
from medviz.rules.medieval_xiii.decisions import Decision
from medviz.rules.medieval_xiii.passage import targets
from medviz.rules.medieval_xiii.state import MedievalState

#: How much Militia (+DRM) the heuristic wants above the defence before it attacks.
EDGE = 2


@dataclass
class HeuristicPolicy:
    """Rule-of-thumb play for every decision of the game (spec ``heuristic:SEED``; the seed breaks ties)."""

    seed: int = 0

    @classmethod
    def from_spec(cls, arg: str = "0") -> HeuristicPolicy:
        """Build from the spec argument (``heuristic:SEED``)."""
        return cls(int(arg or 0))

    @property
    def spec(self) -> str:
        return f"heuristic:{self.seed}"

    def choose(self, point: DecisionPoint) -> Any:
        s: MedievalState = point.state
        me = point.actor
        k = point.kind
        opts = point.options
        if k == Decision.SELECT_POWER:
            return max(opts, key=lambda p: (self._power_value(s, p), -opts.index(p)))
        if k == Decision.INCOME_OR_ACT:
            return self._income_or_act(s, me, opts)
        if k == Decision.ACTION:
            return self._action(s, me, opts)
        if k in (Decision.MILITIA_ATTACKER, Decision.MILITIA_DEFENDER):
            return self._militia(s, me, point.decision, k == Decision.MILITIA_DEFENDER, opts)
        if k == Decision.MONGOL_TARGET:
            return min(opts, key=lambda c: sum(s.data.provinces[p].income for p in s.data.provinces_on(c)
                                                if s.control.get(p) == me))
        if k == Decision.SEA_INTERCEPT:
            battle = s.turn.get("battle") or {}
            return 0 if 0 in opts and s.control.get(battle.get("target", "")) == me else -1
        if k == Decision.NAVAL_DRM:
            return opts[min(1, len(opts) - 1)]
        if k == Decision.CRUSADE_COMMIT:
            return max(opts, key=lambda o: self._commit_value(s, o))
        if k in (Decision.PERMISSION, Decision.TRADE):  # it lets nobody through and trades with nobody (10.1, 13.1)
            return next(o for o in opts if o["do"] == "refuse")
        if k in (Decision.EXCOMMUNICATE, Decision.JIHAD, Decision.MERCENARIES, Decision.KNIGHTS,
                 Decision.SPIES_ATTACKER, Decision.ASSASSIN_COUNTER):
            return opts[-1]
        return opts[0]  # map card (keep two attacks), Spies on the map deck or as defender, Deus ex Machina: wait

    # -- judgement --------------------------------------------------------------------------
    @staticmethod
    def _power_value(s: MedievalState, power: str) -> float:
        data = s.data
        income = sum(data.provinces[p].income for p in s.home_provinces(power))
        pw = data.powers[power]
        return pw.start + 2 * income + 2 * pw.army + {"good": 1, "normal": 0, "bad": -1}[pw.ruler]

    def _attack_score(self, s: MedievalState, me: str, power: str, target: str, route: str,
                      defences: dict[str, Side] | None = None) -> float:
        """Expected VPs of an attack, minus a cost for the money the defence may pour in (``defences``:
        ``defender_side`` by target, kept by the caller while the state stays as it is)."""
        if route == "permission":
            return -1.0
        data = s.data
        value = data.provinces[target].income
        if defences is None:
            defence = defender_side(s, target)
        else:
            defence = defences.get(target) or defences.setdefault(target, defender_side(s, target))
        edge = data.powers[power].army + ruler_drm(s, power) - defence.army - defence.ruler
        d_money = s.florins[defence.seat] // data.c("militia_cost") if defence.seat and defence.militia_ok else 0
        my_money = (s.florins[me] - data.c("attack_cost")) // data.c("militia_cost")
        margin = edge + min(my_money, 4) - min(d_money, 3)
        if route == "sea":
            margin -= 1
        return value * max(0.0, min(1.0, 0.5 + 0.12 * margin)) - (0.6 if defence.seat else 0.0)

    def _income_or_act(self, s: MedievalState, me: str, opts: Any) -> Any:
        act = next(o for o in opts if o["do"] == "act")
        income = next(o for o in opts if o["do"] == "collect-income")
        if any(c.startswith("power-") and s.data.powers[c[6:]] and s.home_provinces(c[6:]) for c in s.hands[me]):
            return act
        if s.florins[me] < 9:
            return income
        best = 0.0
        defences: dict[str, Side] = {}
        for power in s.powers_of(me):
            if power in s.civil_war:
                return act
            for target, route in targets(s, me, power).items():
                best = max(best, self._attack_score(s, me, power, target, route.kind, defences))
                if best >= 1.0:  # one paying attack is enough to act
                    return act
        return income

    def _action(self, s: MedievalState, me: str, opts: Any) -> Any:
        data = s.data
        scored: list[tuple[float, int, Any]] = []  # (score, option's place, option)
        defences: dict[str, Side] = {}
        for i, o in enumerate(opts):
            do = o["do"]
            score = 0.0
            if do == "play" and o["card"].startswith("power-"):
                score = 10.0
            elif do == "end-civil-war":
                score = 6.0
            elif do == "end-heresy":
                score = 1.5 * data.provinces[o["province"]].income
            elif do == "knights-attack":
                d = defender_side(s, o["target"])
                score = data.provinces[o["target"]].income * (0.7 if d.seat is None else 0.35)
            elif do == "attack":
                score = self._attack_score(s, me, o["power"], o["target"], o["route"], defences)
            elif do == "play":
                kind = data.action_cards[o["card"]]
                if kind == "pope":
                    score = 2.0 if o["use"] == "crusade" else 0.0
                elif kind == "assassin":
                    holder = s.holder(o["power"])
                    score = 1.2 if holder != me and s.ruler[o["power"]] == "good" else 0.0
                elif kind == "heresy":
                    owner = s.control.get(o["province"])
                    income = data.provinces[o["province"]].income
                    score = income * (6 - income) / 6 if owner != me else 0.0
                elif kind == "civil_war":
                    score = 2.5 if s.holder(o["power"]) != me else 0.0
            elif do == "discard":
                kind = data.action_cards.get(o["card"], "power")
                islamic = any(data.powers[p].religion == "islam" for p in s.powers_of(me))
                score = 0.1 if kind == "jihad" and not islamic else 0.0
            if score > 0.5 or (do == "discard" and score > 0):
                scored.append((score, i, o))
        if not scored:
            return next(o for o in opts if o["do"] == "end")
        top = max(t[0] for t in scored)
        best = [t for t in scored if t[0] == top]
        if len(best) == 1:
            return best[0][2]
        # Ties among the best go by a seeded draw per option (drawn only when needed: it is pure).
        return max(best, key=lambda t: -natural_index(self.seed, f"tie/{t[1]}", 1000))[2]

    def _militia(self, s: MedievalState, me: str, decision: str, defending: bool, opts: Any) -> Any:
        data = s.data
        battle = s.turn.get("battle") or {}
        target = battle.get("target")
        top = opts[-1]
        if target is None:  # a Civil War: beat the rebels' 0 by a margin
            return min(top, 2)
        value = data.provinces[target].income
        if defending:
            want = min(top, value + 1, s.florins[me] // data.c("militia_cost") // 2 + 1)
            return max(0, want)
        defence = defender_side(s, target)
        power = battle.get("power", "")
        mine = data.powers[power].army + ruler_drm(s, power) if power in data.powers else data.c("knights_army")
        gap = defence.army + defence.ruler - mine
        seen = [p for p in s.peeks.get(me, []) if p.get("what") == "militia" and p.get("at") == decision.split("/militia/")[0]]
        d_bid = seen[-1]["bid"] if seen else (min(3, s.florins[defence.seat] // 6) if defence.seat and defence.militia_ok else 0)
        want = max(0, gap + d_bid + EDGE)
        return min(top, want, value + 2)

    @staticmethod
    def _commit_value(s: MedievalState, option: Any) -> float:
        commit = option["commit"]
        if commit == "none":
            return 0.0
        if commit == "knights":
            return s.data.c("knights_army") + 0.5
        return s.data.powers[commit].army + ruler_drm(s, commit) + 0.5
