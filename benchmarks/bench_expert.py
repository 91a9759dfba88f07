"""The expert player's cost: seconds per whole game at a budget, beside the heuristic's, and its rollouts.

    PYTHONPATH=. .venv/bin/python benchmarks/bench_expert.py                 # Vespers, default budget, 3 games
    PYTHONPATH=. .venv/bin/python benchmarks/bench_expert.py --games 5 --budget 4 --scenario standard
    PYTHONPATH=. .venv/bin/python benchmarks/bench_expert.py --scenario standard --budget 10 --width 2 \
        --horizon 1 --side A --games 3 --against /work/main      # this checkout and another, in turns

The expert plays Player B against the heuristic (``--side A`` for the other seat), seeds 0..GAMES-1
(``--first-seed`` moves them); ``--horizon`` as in the expert's spec.
Prints seconds per game (wall and CPU), rollouts per game and per second, and the ratio to a
heuristic-only game of the same seed measured in the same run. Goal (issue 10): a whole Vespers
game in 30 s or less with the default budget on the project's 2-core machine.

``--against DIR`` plays every seed in a fresh process in this checkout and in DIR (another checkout
of medviz), in turns (which goes first alternates seed by seed, so a change of load hits both), and
prints each game's time side by side with the sha256 of its history (``History.to_json()``): equal
hashes are the same game, event for event. A rollout is counted as one ``run`` of the expert module
(``of plans``: those started by its plan search), the same count in both checkouts.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from medviz.engine import play
from medviz.engine.policy import Policy
from medviz.rules.medempires.game import expert as expert_module
from medviz.rules.medempires.game.expert import BUDGET, PLAN_ROLLOUTS, WIDTH, Expert
from medviz.rules.medempires.game.players import Heuristic
from medviz.rules.medempires.ruleset import RULESET

_COUNT = [0, 0]  # rollouts in all, of them plan rollouts (started by the plan search)
_RUN = getattr(expert_module, "run")


def _counted_run(*args: Any, **kwargs: Any) -> Any:
    """``run`` as the expert module calls it, counting each call (a rollout)."""
    _COUNT[0] += 1
    _COUNT[1] += sys._getframe(1).f_code.co_name.startswith("_plan")
    return _RUN(*args, **kwargs)


setattr(expert_module, "run", _counted_run)


def one_game(args: argparse.Namespace, seed: int) -> dict[str, Any]:
    """One expert game of ``seed``: wall and CPU seconds, rollouts, winner, the history's sha256."""
    players: dict[str, Policy] = {"A": Heuristic(), "B": Heuristic()}
    players[args.side] = Expert(budget=args.budget, width=args.width, horizon=args.horizon, plans=args.plans)
    _COUNT[:] = [0, 0]
    t, c = time.perf_counter(), time.process_time()
    h = play(RULESET, args.scenario, {}, seed=seed, players=players)
    dw, dc = time.perf_counter() - t, time.process_time() - c
    return {"wall": dw, "cpu": dc, "rollouts": _COUNT[0], "plan_rollouts": _COUNT[1], "winner": h.outcome["winner"],
            "sha256": hashlib.sha256(h.to_json().encode()).hexdigest()}


def _child(tree: str, argv: list[str], seed: int) -> dict[str, Any]:
    """``one_game`` of ``seed`` in a fresh process whose medviz is ``tree``'s."""
    env = {**os.environ, "PYTHONPATH": tree}
    out = subprocess.run([sys.executable, str(Path(__file__).resolve()), *argv, "--child", str(seed)],
                         env=env, cwd=tree, capture_output=True, text=True, check=False)
    if out.returncode:
        sys.exit(f"bench_expert: seed {seed} in {tree} failed: {out.stderr.strip().splitlines()[-1:]}")
    result: dict[str, Any] = json.loads(out.stdout.strip().splitlines()[-1])
    return result


def against(args: argparse.Namespace, argv: list[str]) -> None:
    """Every seed in this checkout and in ``args.against``, in turns; times and hashes side by side."""
    here = str(Path(__file__).resolve().parents[1])
    there = str(Path(args.against).resolve())
    trees = {"this": here, "other": there}
    total = {name: [0.0, 0.0] for name in trees}
    same = 0
    print(f"{args.scenario}, expert as Player {args.side} vs heuristic; this = {here}, other = {there}; "
          f"load {os.getloadavg()[0]:.2f}", flush=True)
    for n, seed in enumerate(range(args.first_seed, args.first_seed + args.games)):
        order = list(trees) if n % 2 == 0 else list(reversed(trees))
        res = {name: _child(trees[name], argv, seed) for name in order}
        for name in trees:
            total[name][0] += res[name]["wall"]
            total[name][1] += res[name]["cpu"]
        same += res["this"]["sha256"] == res["other"]["sha256"]
        print(f"seed {seed}: this {res['this']['wall']:.1f} s wall {res['this']['cpu']:.1f} s CPU "
              f"{res['this']['rollouts']} rollouts ({res['this']['plan_rollouts']} of plans) | other "
              f"{res['other']['wall']:.1f} s wall {res['other']['cpu']:.1f} s CPU {res['other']['rollouts']} rollouts "
              f"({res['other']['plan_rollouts']} of plans) | winner {res['this']['winner']}/{res['other']['winner']} "
              f"sha256 {res['this']['sha256'][:16]} {'==' if res['this']['sha256'] == res['other']['sha256'] else '!='} "
              f"{res['other']['sha256'][:16]}", flush=True)
    n = args.games
    print(f"per game: this {total['this'][0] / n:.1f} s wall {total['this'][1] / n:.1f} s CPU; other "
          f"{total['other'][0] / n:.1f} s wall {total['other'][1] / n:.1f} s CPU; CPU ratio this/other "
          f"{total['this'][1] / total['other'][1]:.2f}; same history on {same} of {n} seeds; load {os.getloadavg()[0]:.2f}")


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
    ap.add_argument("--against", metavar="DIR", help="another medviz checkout, played in turns with this one")
    ap.add_argument("--child", type=int, metavar="SEED", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.child is not None:
        print(json.dumps(one_game(args, args.child)))
        return
    if args.against:
        passed = [a for a in sys.argv[1:] if not a.startswith("--against") and a != args.against]
        against(args, passed)
        return
    wall = cpu = plain = 0.0
    rollouts = plan_rollouts = 0
    wins = 0
    for seed in range(args.first_seed, args.first_seed + args.games):
        t = time.perf_counter()
        play(RULESET, args.scenario, {}, seed=seed, players={"A": Heuristic(), "B": Heuristic()})
        plain += time.perf_counter() - t
        g = one_game(args, seed)
        wall += g["wall"]
        cpu += g["cpu"]
        rollouts += g["rollouts"]
        plan_rollouts += g["plan_rollouts"]
        wins += g["winner"] == args.side
        print(f"seed {seed}: {g['wall']:.1f} s wall, {g['cpu']:.1f} s CPU, {g['rollouts']} rollouts "
              f"({g['plan_rollouts']} of plans), winner {g['winner']}, sha256 {g['sha256'][:16]}", flush=True)
    n = args.games
    spec = Expert(budget=args.budget, width=args.width, horizon=args.horizon, plans=args.plans).spec
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
