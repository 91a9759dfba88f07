"""Win rates of every pair of Mediterranean Empires players on each side of both scenarios.

    PYTHONPATH=. .venv/bin/python tools/winrates.py                      # the full table, 200 games a row
    PYTHONPATH=. .venv/bin/python tools/winrates.py --games 20 --players heuristic,expert --jobs 2
    PYTHONPATH=. .venv/bin/python tools/winrates.py --update-doc         # rewrite the table in docs/rules-coverage.md

Each row plays seeds FIRST..FIRST+GAMES-1 with one player as Player A and one as Player B (a
random player's seed is the game's seed, as ``medviz play`` makes it). Finished games are kept in
a cache file (JSON, one entry per game), so a long run can stop and go on, and a table can be
built from what has been played so far: each row says how many games it counts and gives the
Wilson 95% interval of each side's share of wins. ``--expert SPEC`` sets the expert's settings
(default ``expert``, its default budget); ``--expert-for SCENARIO=SPEC`` gives one scenario its own
(the standard game is seven turns long: a smaller budget keeps its rows within reach). Runs in
parallel write separate caches (``--cache``) and one table reads them all (``--merge``).

The cache keys a game by the players' names, not by their code: after a change of a player's play,
``--forget SCENARIO:PLAYER`` drops that scenario's cached games in which the player (or, for the
heuristic, the expert that rolls it out) takes a side, so the next run plays them again.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

from medviz.analysis.stats import wilson  # the Wilson score interval (95%), shared with medviz simulate

SCENARIOS = ("vespers-1282", "standard")
PLAYERS = ("random", "heuristic", "historical", "expert")
DOC = Path("docs/rules-coverage.md")
BEGIN = "<!-- winrates: begin (tools/winrates.py --update-doc) -->"
END = "<!-- winrates: end -->"



def _policy(name: str, side: str, seed: int, expert: str) -> Any:
    from medviz.engine.policy import RandomPolicy, parse_policy
    from medviz.rules.medempires.ruleset import RULESET

    if name == "random":
        return RandomPolicy(seed * 2 + (0 if side == "A" else 1))
    return parse_policy(expert if name == "expert" else name, RULESET.policies)


def play_one(job: tuple[str, str, str, int, str]) -> dict[str, Any]:
    """Play one game; the result as a cache entry."""
    from medviz.engine import play
    from medviz.rules.medempires.ruleset import RULESET

    scenario, a, b, seed, expert = job
    t = time.perf_counter()
    h = play(RULESET, scenario, {}, seed=seed,
             players={"A": _policy(a, "A", seed, expert), "B": _policy(b, "B", seed, expert)})
    return {"scenario": scenario, "A": a, "B": b, "seed": seed, "expert": expert,
            "winner": h.outcome["winner"], "vp": h.outcome["vp"], "seconds": round(time.perf_counter() - t, 3)}


def _key(e: dict[str, Any]) -> str:
    uses_expert = "expert" in (e["A"], e["B"])
    return f"{e['scenario']}|{e['A']}|{e['B']}|{e['seed']}|{e['expert'] if uses_expert else ''}"


def load_cache(path: Path) -> dict[str, dict[str, Any]]:
    """Games already played, by key (an absent file: none)."""
    if not path.exists():
        return {}
    try:
        entries = json.loads(path.read_text())
    except json.JSONDecodeError as exc:
        raise SystemExit(f"winrates: {path} is not a JSON cache of games ({exc})") from None
    return {_key(e): e for e in entries}


def save_cache(path: Path, cache: dict[str, dict[str, Any]]) -> None:
    """Write the cache whole (through a temporary file, so a stop never leaves half a file)."""
    tmp = path.with_suffix(path.suffix + ".tmp")
    tmp.write_text(json.dumps(sorted(cache.values(), key=_key), indent=0))
    tmp.replace(path)


def forget(cache: dict[str, dict[str, Any]], scenario: str, player: str) -> int:
    """Drop ``scenario``'s games in which ``player`` plays (the heuristic: the expert's too); how many went."""
    who = {player, "expert"} if player == "heuristic" else {player}
    gone = [k for k, e in cache.items() if e["scenario"] == scenario and who & {e["A"], e["B"]}]
    for k in gone:
        del cache[k]
    return len(gone)


def table(cache: dict[str, dict[str, Any]], scenarios: tuple[str, ...], players: tuple[str, ...],
          first: int, games: int, experts: dict[str, str]) -> str:
    """The markdown table of what the cache holds for these rows and seeds."""
    said = "; ".join(f"`{experts[sc]}` in {sc}" for sc in scenarios)
    lines = [f"Expert as {said}; seeds {first} to {first + games - 1}; 95% Wilson intervals of each side's "
             "share of wins; s/game is wall time on the shared 2-core machine.",
             "", "| scenario | Player A | Player B | games | A wins | B wins | draws | A share (95%) | "
             "B share (95%) | s/game |", "|---|---|---|---|---|---|---|---|---|---|"]
    for sc in scenarios:
        for a in players:
            for b in players:
                rows = [e for s in range(first, first + games)
                        if (e := cache.get(_key({"scenario": sc, "A": a, "B": b, "seed": s,
                                                 "expert": experts[sc]})))]
                n = len(rows)
                if n == 0:
                    lines.append(f"| {sc} | {a} | {b} | 0 | — | — | — | not played | not played | — |")
                    continue
                wa = sum(e["winner"] == "A" for e in rows)
                wb = sum(e["winner"] == "B" for e in rows)
                dr = n - wa - wb
                la, ha = wilson(wa, n)
                lb, hb = wilson(wb, n)
                secs = sum(e["seconds"] for e in rows) / n
                lines.append(f"| {sc} | {a} | {b} | {n} | {wa} | {wb} | {dr} | {wa / n:.0%} ({la:.0%}–{ha:.0%}) | "
                             f"{wb / n:.0%} ({lb:.0%}–{hb:.0%}) | {secs:.2f} |")
    return "\n".join(lines)


def paired(cache: dict[str, dict[str, Any]], scenarios: tuple[str, ...], first: int, games: int,
           experts: dict[str, str]) -> str:
    """The expert against the heuristic seed by seed: its side's result beside the heuristic's own on that seed."""
    lines = ["Seed by seed: the expert's side against the heuristic, beside the heuristic in its seat on the "
             "same seed (heuristic against heuristic); better = a win where the heuristic drew or lost, or a "
             "draw where it lost.", "",
             "| scenario | expert plays | seeds | better | same | worse |", "|---|---|---|---|---|---|"]
    rank = {"A": {"A": 2, "draw": 1, "B": 0}, "B": {"B": 2, "draw": 1, "A": 0}}
    for sc in scenarios:
        for side, a, b in (("A", "expert", "heuristic"), ("B", "heuristic", "expert")):
            counts = [0, 0, 0]
            for s in range(first, first + games):
                x = cache.get(_key({"scenario": sc, "A": a, "B": b, "seed": s, "expert": experts[sc]}))
                h = cache.get(_key({"scenario": sc, "A": "heuristic", "B": "heuristic", "seed": s, "expert": ""}))
                if x and h:
                    d = rank[side][x["winner"]] - rank[side][h["winner"]]
                    counts[0 if d > 0 else 1 if d == 0 else 2] += 1
            lines.append(f"| {sc} | Player {side} | {sum(counts)} | {counts[0]} | {counts[1]} | {counts[2]} |")
    return "\n".join(lines)


def update_doc(text: str, doc: Path = DOC) -> None:
    """Replace the table between the markers in ``doc``."""
    body = doc.read_text()
    if BEGIN not in body or END not in body:
        raise SystemExit(f"winrates: {doc} has no {BEGIN} ... {END} markers")
    head, _, rest = body.partition(BEGIN)
    _, _, tail = rest.partition(END)
    doc.write_text(f"{head}{BEGIN}\n{text}\n{END}{tail}")


def main(argv: list[str] | None = None) -> int:
    """Play the missing games of the chosen rows, then print (and optionally write) the table."""
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--games", type=int, default=200, help="games per row (default 200)")
    ap.add_argument("--first-seed", type=int, default=0)
    ap.add_argument("--scenarios", default=",".join(SCENARIOS))
    ap.add_argument("--players", default=",".join(PLAYERS), help="players to pair (every pair, each side)")
    ap.add_argument("--rows", help="only these rows, e.g. vespers-1282:expert:heuristic (comma-separated)")
    ap.add_argument("--expert", default="expert", help="the expert's spec (default: expert)")
    ap.add_argument("--expert-for", action="append", default=[], metavar="SCENARIO=SPEC",
                    help="the expert's spec in one scenario (repeatable)")
    ap.add_argument("--merge", action="append", default=[], metavar="FILE",
                    help="another cache to read for the table (repeatable; never written)")
    ap.add_argument("--jobs", type=int, default=1, help="worker processes (default 1)")
    ap.add_argument("--cache", default="benchmarks/winrates-cache.json", help="JSON file of games played")
    ap.add_argument("--play", action=argparse.BooleanOptionalAction, default=True,
                    help="play missing games (--no-play: only print the table of the cache)")
    ap.add_argument("--update-doc", action="store_true", help=f"rewrite the table in {DOC}")
    ap.add_argument("--forget", action="append", default=[], metavar="SCENARIO:PLAYER",
                    help="drop the cached games of SCENARIO in which PLAYER plays (repeatable; after a change of play)")
    args = ap.parse_args(argv)
    scenarios = tuple(s for s in args.scenarios.split(",") if s)
    players = tuple(p for p in args.players.split(",") if p)
    bad = [s for s in scenarios if s not in SCENARIOS] + [p for p in players if p not in PLAYERS]
    if bad or args.games < 1 or args.jobs < 1:
        print(f"winrates: unknown scenario or player {bad}, or games/jobs below 1", file=sys.stderr)
        return 2
    experts = {sc: args.expert for sc in SCENARIOS}
    for item in args.expert_for:
        sc, eq, spec = item.partition("=")
        if sc not in SCENARIOS or not eq or not spec.startswith("expert"):
            print(f"winrates: --expert-for {item!r}: give SCENARIO=expert[:settings]", file=sys.stderr)
            return 2
        experts[sc] = spec
    cache_path = Path(args.cache)
    cache = load_cache(cache_path)
    for item in args.forget:
        sc, colon, who = item.partition(":")
        if sc not in SCENARIOS or not colon or who not in PLAYERS:
            print(f"winrates: --forget {item!r}: give SCENARIO:PLAYER ({', '.join(SCENARIOS)}; "
                  f"{', '.join(PLAYERS)})", file=sys.stderr)
            return 2
        gone = forget(cache, sc, who)
        print(f"winrates: forgot {gone} cached {sc} games of {who}", file=sys.stderr)
    if args.forget:
        save_cache(cache_path, cache)
    extra: dict[str, dict[str, Any]] = {}
    for other in args.merge:
        extra.update(load_cache(Path(other)))
    rows = [(sc, a, b) for sc in scenarios for a in players for b in players]
    if args.rows:
        wanted = {tuple(r.split(":")) for r in args.rows.split(",")}
        rows = [r for r in rows if r in wanted]
    if args.play:
        jobs = [(sc, a, b, s, experts[sc]) for sc, a, b in rows
                for s in range(args.first_seed, args.first_seed + args.games)
                if _key({"scenario": sc, "A": a, "B": b, "seed": s, "expert": experts[sc]}) not in cache]
        jobs.sort(key=lambda j: (j[3], j[:3]))  # seed by seed across rows: a stopped run leaves every row counted
        done = 0
        with ProcessPoolExecutor(args.jobs) as pool:
            for entry in pool.map(play_one, jobs, chunksize=1):
                cache[_key(entry)] = entry
                done += 1
                save_cache(cache_path, cache)  # every game: a stopped run loses none
                if done % 10 == 0 or done == len(jobs):
                    print(f"{done}/{len(jobs)} games", file=sys.stderr, flush=True)
    everything = {**extra, **cache}
    text = table(everything, scenarios, players, args.first_seed, args.games, experts)
    if "expert" in players and "heuristic" in players:
        text += "\n\n" + paired(everything, scenarios, args.first_seed, args.games, experts)
    print(text)
    if args.update_doc:
        update_doc(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
