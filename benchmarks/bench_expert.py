"""The expert player's cost: seconds per whole game at a budget, beside the heuristic's, and its rollouts.

    PYTHONPATH=. .venv/bin/python benchmarks/bench_expert.py                 # Vespers, default budget, 3 games
    PYTHONPATH=. .venv/bin/python benchmarks/bench_expert.py --games 5 --budget 4 --scenario standard

The expert plays Player B against the heuristic (``--side A`` for the other seat), seeds 0..GAMES-1
(``--first-seed`` moves them); ``--horizon`` as in the expert's spec.
Prints seconds per game (wall and CPU), rollouts per game and per second, and the ratio to a
heuristic-only game of the same seed measured in the same run. Goal (issue 10): a whole Vespers
game in 30 s or less with the default budget on the project's 2-core machine.
"""

from __future__ import annotations

import argparse
import time
from typing import Any

from medviz.engine import play
from medviz.engine.game import RunningGame
from medviz.engine.policy import DecisionPoint, Policy
from medviz.rules.medempires.game import expert as expert_module
from medviz.rules.medempires.game.expert import BUDGET, PLAN_ROLLOUTS, WIDTH, Expert
from medviz.rules.medempires.game.plans import Plan
from medviz.rules.medempires.game.players import Heuristic
from medviz.rules.medempires.ruleset import RULESET


class _Counted(Expert):
    """The expert, counting its rollouts (for the rates below)."""

    def _rollout(self, game: RunningGame, point: DecisionPoint, choice: Any, k: int, horizon: int | None = None) -> float:
        _COUNT[0] += 1
        return super()._rollout(game, point, choice, k, horizon)

    def _plan_rollout(self, game: RunningGame, me: str, turn: int, first: int, plan: Plan, k: int) -> float:
        _COUNT[0] += 1
        _COUNT[1] += 1
        return super()._plan_rollout(game, me, turn, first, plan, k)


_COUNT = [0, 0]  # rollouts in all, of them plan rollouts (to the game's end, at a game turn's first decision)


def main() -> None:
    """Time GAMES games of the expert against the heuristic, and the same seeds heuristic-only."""
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--games", type=int, default=3)
    ap.add_argument("--budget", type=int, default=BUDGET)
    ap.add_argument("--width", type=int, default=WIDTH)
    ap.add_argument("--scenario", default="vespers-1282")
    ap.add_argument("--side", default="B", choices=("A", "B"))
    ap.add_argument("--horizon", type=int, default=0, help="game turns a rollout plays after the current one (0: to the end)")
    ap.add_argument("--plans", type=int, default=PLAN_ROLLOUTS, help="rollouts per plan and game turn (0: no plan search)")
    ap.add_argument("--first-seed", type=int, default=0)
    args = ap.parse_args()
    wall = cpu = plain = 0.0
    rollouts = plan_rollouts = 0
    wins = 0
    for seed in range(args.first_seed, args.first_seed + args.games):
        t = time.perf_counter()
        play(RULESET, args.scenario, {}, seed=seed, players={"A": Heuristic(), "B": Heuristic()})
        plain += time.perf_counter() - t
        players: dict[str, Policy] = {"A": Heuristic(), "B": Heuristic()}
        players[args.side] = _Counted(budget=args.budget, width=args.width, horizon=args.horizon, plans=args.plans)
        _COUNT[:] = [0, 0]
        t, c = time.perf_counter(), time.process_time()
        h = play(RULESET, args.scenario, {}, seed=seed, players=players)
        dw, dc = time.perf_counter() - t, time.process_time() - c
        wall += dw
        cpu += dc
        rollouts += _COUNT[0]
        plan_rollouts += _COUNT[1]
        wins += h.outcome["winner"] == args.side
        print(f"seed {seed}: {dw:.1f} s wall, {dc:.1f} s CPU, {_COUNT[0]} rollouts ({_COUNT[1]} of plans), winner {h.outcome['winner']}",
              flush=True)
    n = args.games
    spec = _Counted(budget=args.budget, width=args.width, horizon=args.horizon, plans=args.plans).spec
    print(f"{args.scenario}, {spec} as Player {args.side} vs heuristic, "
          f"{n} games (module {expert_module.__name__}):")
    print(f"  {wall / n:.1f} s wall and {cpu / n:.1f} s CPU per game (goal for Vespers at the default budget: <= 30 s)")
    print(f"  {rollouts / n:.0f} rollouts per game ({plan_rollouts / n:.0f} of plans), "
          f"{rollouts / cpu:.1f} rollouts per CPU second")
    print(f"  heuristic-only game of the same seeds: {plain / n:.3f} s; expert game / heuristic game = "
          f"{wall / plain:.0f}x")
    print(f"  expert won {wins} of {n}")


if __name__ == "__main__":
    main()
