"""Each named plan of the heuristic (game/plans.py) fixed for a whole game, against the heuristic.

    PYTHONPATH=. .venv/bin/python tools/plan_rates.py                     # standard, Player A, seeds 0-39
    PYTHONPATH=. .venv/bin/python tools/plan_rates.py --side B --games 100 --scenario vespers-1282
    PYTHONPATH=. .venv/bin/python tools/plan_rates.py --side B --games 200 --scenario vespers-1282 --menu aragon
    PYTHONPATH=. .venv/bin/python tools/plan_rates.py --side B --games 200 --scenario vespers-1282 --menu aragon \
        --option vespers_taken_at_game_end

Prints, per plan, the games its side wins, draws and its mean VP margin, beside the heuristic's own
(the plan ``heuristic``), and the hindsight best: per seed the best result any plan got on that
seed's dice (what choosing one plan per game could give at most, knowing the dice; the expert does
not know them, and changes plan turn by turn). ``--menu courts`` plays, beside the heuristic, a
plan per power that is no player's courting that power first (the allies politics wins, 7.0);
``--menu aragon`` plays the plans of Aragon's war
(``plans.ARAGON_PLANS``); in the Vespers each row also counts the games in which France took no
guarded area (13.0, at any moment, or at the end with ``--option vespers_taken_at_game_end``) and those Aragon ends holding both Sicilian areas and Malta.
"""

from __future__ import annotations

import argparse

from medviz.engine import play
from medviz.rules.medempires.game.plans import MENUS, Plan, Planned
from medviz.rules.medempires.game.players import Heuristic
from medviz.rules.medempires.game.state import PLAYER_POWERS, shipped_data
from medviz.rules.medempires.ruleset import RULESET


def courts() -> dict[str, Plan]:
    """The heuristic's plan and, for every power that is no player's, a plan courting it first (7.0)."""
    return {"heuristic": Plan(), **{p: Plan(court=(p,)) for p in sorted(shipped_data().game_data.powers)
                                    if p not in PLAYER_POWERS}}


def main() -> None:
    """Play every plan on the same seeds and print the table."""
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--scenario", default="standard")
    ap.add_argument("--side", default="A", choices=("A", "B"))
    ap.add_argument("--games", type=int, default=40)
    ap.add_argument("--first-seed", type=int, default=0)
    ap.add_argument("--menu", default="heuristic", choices=sorted(MENUS) + ["courts"])
    ap.add_argument("--option", action="append", default=[], help="an optional rule or reading to switch on")
    args = ap.parse_args()
    plans = MENUS[args.menu] if args.menu != "courts" else courts()
    vespers = args.scenario == "vespers-1282"
    kept: dict[str, list[int]] = {name: [0, 0] for name in plans}  # frontier kept, Sicily and Malta held
    me, foe = args.side, "B" if args.side == "A" else "A"
    rank = {me: 2, "draw": 1, foe: 0}
    best: dict[str, int] = {me: 0, "draw": 0, foe: 0}
    rows: dict[str, list[tuple[str, int]]] = {name: [] for name in plans}
    seeds = range(args.first_seed, args.first_seed + args.games)
    for seed in seeds:
        results = []
        for name, plan in plans.items():
            players = {me: Planned(plan=plan), foe: Heuristic()}
            h = play(RULESET, args.scenario, {o: True for o in args.option}, seed=seed, players=players)
            o = h.outcome
            rows[name].append((o["winner"], o["vp"][me] - o["vp"][foe]))
            if vespers:
                s = h.final_state
                v = s.data.scenarios[args.scenario].victory
                at_end = str(v.get("taken_option", "")) in args.option
                kept[name][0] += not any(s.ctl.get(a) == "A" if at_end else a in s.taken for a in v["a_must_not_take"])
                kept[name][1] += all(s.ctl.get(a) == "B" for a in s.data.scenarios[args.scenario].victory["b_must_control"])
            results.append(o["winner"])
        best[max(results, key=lambda w: rank[w])] += 1
    n = len(seeds)
    print(f"{args.scenario}, each plan as Player {me} against the heuristic, seeds {seeds[0]}-{seeds[-1]} (n = {n}), "
          f"options {sorted(args.option) or 'none'}:")
    for name, res in rows.items():
        wins = sum(w == me for w, _ in res)
        draws = sum(w == "draw" for w, _ in res)
        extra = f"  frontier kept {kept[name][0]:3d}  Sicily and Malta held {kept[name][1]:3d}" if vespers else ""
        print(f"  {name:10s} {plans[name].describe():28s} wins {wins:3d}  draws {draws:3d}  "
              f"mean VP margin {sum(m for _, m in res) / n:+.2f}{extra}")
    print(f"  hindsight best plan per seed: wins {best[me]}, draws {best['draw']}, losses {best[foe]}")


if __name__ == "__main__":
    main()
