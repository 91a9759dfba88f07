"""Mutation testing of the engine and the rules: plant one small plausible bug, see a test fail.

A mutant is the module with one change to its syntax tree: an arithmetic or comparison operator
swapped (``*`` for ``+``, ``<=`` for ``<``, ``not in`` for ``in``), ``and``/``or`` swapped, a
``not`` dropped, a whole number moved by one, ``True``/``False`` flipped, a ``min``/``max``
swapped, or a ``return`` of a value made ``return None``. Docstrings, annotations, decorators,
``__all__``, asserts and error messages are not mutated. Each mutant is written into a scratch
copy of the work tree (never into the tree itself) and the module's own tests (``TARGETS``) run
against it with ``-x``, the nbval plugin off; a failing test or a time-out (three times the
unmutated run, plus 10 s) kills it, a green run lets it survive.

    .venv/bin/python tools/mutation.py --list                      # mutants per module
    .venv/bin/python tools/mutation.py --sample 5 --jobs 2 --out m.json --md m.md   # CI's sample
    .venv/bin/python tools/mutation.py --module medviz/engine/dice.py --sample 0  # all of one
    .venv/bin/python tools/mutation.py --rerun m.json --out again.json   # its survivors again

Every mutant has a key (12 hex digits) made of its function, the first line of its statement and
its change, not of its line number, so it keeps its key when other code moves. ``--sample N``
takes, in each module, the N mutants whose key hashed with ``--seed`` is lowest: the same mutants
every run, and editing one function leaves the rest of the sample alone; ``--sample 0`` runs them
all. The report lists every survivor with its place, change and key, and the kill rate; ``--out``
writes it as JSON (the input of ``--rerun``), ``--md`` as markdown. Exit status 1 when the kill
rate is below ``--goal`` (default 0.9). docs/mutation.md has the measured run and its survivors.
"""

from __future__ import annotations

import argparse
import ast
import copy
import hashlib
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import asdict, dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

ENGINE_TESTS = ("tests/test_dice.py", "tests/test_events.py", "tests/test_history.py", "tests/test_history_files.py",
                "tests/test_history_differences.py", "tests/test_history_tree.py", "tests/test_table.py",
                "tests/test_decks.py", "tests/test_golden_games.py")
RULES_TESTS = ("tests/test_game_rules.py", "tests/test_rules_issue10.py", "tests/test_rules_mutants.py", "tests/test_game_setup.py",
               "tests/test_gamedata.py", "tests/test_combat.py", "tests/test_golden_games.py")
#: Module -> the fast tests that should catch its bugs (seconds, not the whole suite).
TARGETS: dict[str, tuple[str, ...]] = {
    "medviz/engine/dice.py": ("tests/test_dice.py", "tests/test_golden_games.py"),
    "medviz/engine/history.py": ENGINE_TESTS,
    "medviz/engine/game.py": (*ENGINE_TESTS, "tests/test_second_game.py", "tests/test_snapshots.py"),
    "medviz/engine/events.py": ENGINE_TESTS,
    "medviz/engine/policy.py": ENGINE_TESTS,
    "medviz/engine/copying.py": ("tests/test_copying.py", *ENGINE_TESTS, "tests/test_snapshots.py"),
    "medviz/engine/definition.py": ("tests/test_definition.py", *ENGINE_TESTS, "tests/test_second_game.py"),
    "medviz/engine/table.py": ("tests/test_table.py",),
    "medviz/engine/files.py": ("tests/test_engine_inputs.py", "tests/test_cli_inputs.py", "tests/test_history_files.py"),
    "medviz/engine/cliargs.py": ("tests/test_engine_inputs.py", "tests/test_cli_inputs.py"),
    "medviz/engine/registry.py": ("tests/test_engine_inputs.py", "tests/test_registry.py", "tests/test_game_cli.py"),
    "medviz/rules/medempires/combat.py": ("tests/test_combat.py", "tests/test_rules_mutants.py", "tests/test_history.py",
                                          "tests/test_golden_games.py"),
    "medviz/rules/medempires/game/battles.py": RULES_TESTS,
    "medviz/rules/medempires/game/changes.py": RULES_TESTS,
    "medviz/rules/medempires/game/operations.py": RULES_TESTS,
    "medviz/rules/medempires/game/politics.py": RULES_TESTS,
    "medviz/rules/medempires/game/recruitment.py": RULES_TESTS,
    "medviz/rules/medempires/game/redistribution.py": RULES_TESTS,
    "medviz/rules/medempires/game/setup.py": (*RULES_TESTS, "tests/test_game_overrides.py"),
    "medviz/rules/medempires/game/deploy.py": RULES_TESTS,
    "medviz/rules/medempires/game/state.py": RULES_TESTS,
    "medviz/rules/medempires/game/turn.py": RULES_TESTS,
}
#: Calls whose string arguments are words for people (errors, reports), not game logic.
_WORDS = {"MalformedInput", "UnknownReference", "IllegalAction", "DataError", "RuntimeError",
          "MedvizError", "ValueError", "TypeError", "KeyError"}
_SWAP_BIN = {ast.Add: ast.Sub, ast.Sub: ast.Add, ast.Mult: ast.FloorDiv, ast.FloorDiv: ast.Mult,
             ast.Div: ast.Mult, ast.Mod: ast.FloorDiv}
_SWAP_CMP = {ast.Lt: ast.LtE, ast.LtE: ast.Lt, ast.Gt: ast.GtE, ast.GtE: ast.Gt, ast.Eq: ast.NotEq,
             ast.NotEq: ast.Eq, ast.In: ast.NotIn, ast.NotIn: ast.In, ast.Is: ast.IsNot, ast.IsNot: ast.Is}


@dataclass(frozen=True)
class Mutant:
    module: str
    index: int  # the index-th mutable place of the module, in walk order
    line: int
    change: str
    where: str = ""  # the enclosing function or class (dotted), "" at module level
    key: str = ""  # names the mutant by where, statement and change: stable when other code moves


@dataclass
class Result:
    mutant: Mutant
    status: str  # killed | survived | timeout | broken (the mutant did not compile)
    seconds: float
    failed: str = ""


def _skip_nodes(tree: ast.Module) -> set[int]:
    """ids of nodes never mutated: docstrings, annotations, __all__, messages of raised errors."""
    skip: set[int] = set()

    def cover(node: ast.AST | None) -> None:
        if node is not None:
            skip.update(id(n) for n in ast.walk(node))

    for node in ast.walk(tree):
        body = getattr(node, "body", None)
        if isinstance(body, list) and body and isinstance(body[0], ast.Expr) \
                and isinstance(body[0].value, ast.Constant) and isinstance(body[0].value.value, str):
            cover(body[0])
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            for dec in node.decorator_list:  # cache sizes, dataclass flags: configuration, not logic
                cover(dec)
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            cover(node.returns)
            for a in (*node.args.posonlyargs, *node.args.args, *node.args.kwonlyargs,
                      node.args.vararg, node.args.kwarg):
                if a is not None:
                    cover(a.annotation)
        elif isinstance(node, ast.AnnAssign):
            cover(node.annotation)
        elif isinstance(node, ast.Assign) and any(isinstance(t, ast.Name) and t.id == "__all__" for t in node.targets):
            cover(node)
        elif isinstance(node, ast.Raise):
            cover(node.exc)
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in _WORDS:
            cover(node)
        elif isinstance(node, (ast.JoinedStr, ast.Assert)):
            cover(node)
    return skip


def _places(tree: ast.Module) -> Iterator[tuple[ast.AST, str]]:
    """Every (node, change) of a module, in a fixed order."""
    skip = _skip_nodes(tree)
    for node in ast.walk(tree):
        if id(node) in skip:
            continue
        if isinstance(node, ast.BinOp) and type(node.op) in _SWAP_BIN:
            yield node, f"{type(node.op).__name__} -> {_SWAP_BIN[type(node.op)].__name__}"
        elif isinstance(node, ast.AugAssign) and type(node.op) in _SWAP_BIN:
            yield node, f"{type(node.op).__name__}= -> {_SWAP_BIN[type(node.op)].__name__}="
        elif isinstance(node, ast.Compare):
            for i, op in enumerate(node.ops):
                if type(op) in _SWAP_CMP:
                    yield node, f"cmp{i} {type(op).__name__} -> {_SWAP_CMP[type(op)].__name__}"
        elif isinstance(node, ast.BoolOp):
            yield node, f"{type(node.op).__name__} -> {'Or' if isinstance(node.op, ast.And) else 'And'}"
        elif isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
            yield node, "drop not"
        elif isinstance(node, ast.Constant) and type(node.value) is bool:
            yield node, f"{node.value} -> {not node.value}"
        elif isinstance(node, ast.Constant) and type(node.value) is int:
            yield node, f"{node.value} -> {node.value + 1}"
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in ("min", "max"):
            yield node, f"{node.func.id} -> {'max' if node.func.id == 'min' else 'min'}"
        elif isinstance(node, ast.Return) and node.value is not None \
                and not (isinstance(node.value, ast.Constant) and node.value.value is None):
            yield node, "return None"


def _context(tree: ast.Module) -> tuple[dict[int, str], dict[int, ast.AST]]:
    """For every node: the dotted name of its enclosing defs, and its smallest enclosing statement."""
    where: dict[int, str] = {}
    stmt: dict[int, ast.AST] = {}

    def visit(node: ast.AST, name: str, statement: ast.AST) -> None:
        where[id(node)] = name
        if isinstance(node, ast.stmt):
            statement = node
        stmt[id(node)] = statement
        inner = f"{name}.{node.name}".lstrip(".") if isinstance(
            node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)) else name
        for child in ast.iter_child_nodes(node):
            visit(child, inner, statement)

    visit(tree, "", tree)
    return where, stmt


def mutants(module: str) -> list[Mutant]:
    """Every mutant of a module, in walk order, each with a key that survives edits elsewhere."""
    tree = ast.parse((ROOT / module).read_text(encoding="utf-8"))
    where, stmt = _context(tree)
    seen: dict[str, int] = {}
    out = []
    for i, (node, change) in enumerate(_places(tree)):
        s = stmt[id(node)]
        # the statement's first line is enough to tell places apart, and keeps keys of
        # mutants in a long block stable when another line of the block changes
        text = ast.unparse(s).splitlines()[0] if not isinstance(s, ast.Module) else ""
        base = f"{module}|{where[id(node)]}|{text}|{ast.unparse(node).splitlines()[0]}|{change}"
        seen[base] = seen.get(base, 0) + 1
        key = hashlib.sha256(f"{base}|{seen[base]}".encode()).hexdigest()[:12]
        out.append(Mutant(module, i, getattr(node, "lineno", 0), change, where[id(node)], key))
    return out


def sample(ms: list[Mutant], n: int, seed: int) -> list[Mutant]:
    """n mutants of one module, the same ones every run: those whose seeded key hash is lowest.

    A mutant's key depends on its function, statement and change, not its line or index, so
    editing one function leaves the rest of the module's sample as it was.
    """
    if n <= 0 or n >= len(ms):
        return list(ms)
    rank = sorted(ms, key=lambda m: hashlib.sha256(f"{seed}|{m.key}".encode()).hexdigest())
    return sorted(rank[:n], key=lambda m: m.index)


def _apply(node: ast.AST, change: str) -> None:
    if isinstance(node, ast.BinOp | ast.AugAssign):
        node.op = _SWAP_BIN[type(node.op)]()
    elif isinstance(node, ast.Compare):
        i = int(change.split()[0][3:])
        node.ops[i] = _SWAP_CMP[type(node.ops[i])]()
    elif isinstance(node, ast.BoolOp):
        node.op = ast.Or() if isinstance(node.op, ast.And) else ast.And()
    elif isinstance(node, ast.UnaryOp):  # drop not: `not x` -> `not not x`, the truth of x
        node.operand = ast.UnaryOp(ast.Not(), node.operand)
    elif isinstance(node, ast.Constant) and type(node.value) is bool:
        node.value = not node.value
    elif isinstance(node, ast.Constant):
        node.value = node.value + 1
    elif isinstance(node, ast.Call):
        node.func = ast.Name("max" if node.func.id == "min" else "min", ast.Load())  # type: ignore[attr-defined]
    elif isinstance(node, ast.Return):
        node.value = ast.Constant(None)


def mutated_source(m: Mutant) -> str:
    tree = ast.parse((ROOT / m.module).read_text(encoding="utf-8"))
    tree = copy.deepcopy(tree)
    for i, (node, change) in enumerate(_places(tree)):
        if i == m.index:
            assert change == m.change, (m, change)
            _apply(node, change)
            return ast.unparse(ast.fix_missing_locations(tree)) + "\n"
    raise IndexError(m)


def _scratch() -> Path:
    """A copy of the work tree without .git, virtualenvs and caches."""
    d = Path(tempfile.mkdtemp(prefix="medviz-mutation-"))
    ignore = shutil.ignore_patterns(".git", ".venv", "__pycache__", ".pytest_cache", ".hypothesis",
                                    "node_modules", "test-artifacts", "mutants")
    shutil.copytree(ROOT, d / "tree", ignore=ignore)
    return d / "tree"


def _pytest(tree: Path, tests: tuple[str, ...], timeout: float) -> tuple[str, float, str]:
    env = dict(os.environ, PYTHONPATH=str(tree), PYTHONDONTWRITEBYTECODE="1", MEDVIZ_SLOW="")
    # nbval (notebooks only) imports nbformat and jsonschema: half the start-up of a small test file
    cmd = [sys.executable, "-m", "pytest", "-x", "-q", "-p", "no:cacheprovider", "-p", "no:nbval", "--no-header",
           "-o", "addopts=", *tests]
    t = time.monotonic()
    try:
        out = subprocess.run(cmd, cwd=tree, env=env, capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return "timeout", time.monotonic() - t, ""
    failed = next((ln.split(" - ")[0] for ln in out.stdout.splitlines() if ln.startswith(("FAILED", "ERROR"))), "")
    return ("survived" if out.returncode == 0 else "killed"), time.monotonic() - t, failed


def run(selected: list[Mutant], jobs: int, log: bool = True) -> list[Result]:
    """Run each mutant against its module's tests in one of ``jobs`` scratch trees."""
    trees: list[Path] = []
    free: list[Path] = []
    pool = ThreadPoolExecutor(jobs)

    def baseline(tests: tuple[str, ...]) -> float:
        tree = free.pop()
        try:
            status, secs, failed = _pytest(tree, tests, 600)
        finally:
            free.append(tree)
        if status != "survived":
            raise SystemExit(f"the tests {' '.join(tests)} fail without any mutant: {failed or status}")
        return secs

    def one(m: Mutant) -> Result:
        tree = free.pop()
        target = tree / m.module
        original = target.read_text(encoding="utf-8")
        try:
            try:
                source = mutated_source(m)
                compile(source, m.module, "exec")
            except (SyntaxError, ValueError):
                return Result(m, "broken", 0.0)
            target.write_text(source, encoding="utf-8")
            status, secs, failed = _pytest(tree, TARGETS[m.module], 3 * base[m.module] + 10)
            return Result(m, status, round(secs, 1), failed)
        finally:
            target.write_text(original, encoding="utf-8")
            free.append(tree)

    results: list[Result] = []
    try:
        for _ in range(jobs):
            trees.append(_scratch())
            free.append(trees[-1])
        # each distinct selection of tests runs once unmutated (green, and timed for the time-out)
        suites = sorted({TARGETS[m.module] for m in selected})
        timed = dict(zip(suites, pool.map(baseline, suites)))
        base = {module: timed[tests] for module, tests in TARGETS.items() if tests in timed}
        for r in pool.map(one, selected):
            results.append(r)
            if log:
                print(f"{r.status:8} {r.seconds:5.1f}s {r.mutant.module}:{r.mutant.line} {r.mutant.change}",
                      flush=True)
    finally:  # on an error or a kill: drop the mutants not started, wait for the running ones, tidy up
        pool.shutdown(wait=True, cancel_futures=True)
        for t in trees:
            shutil.rmtree(t.parent, ignore_errors=True)
    return results


@dataclass
class Report:
    """The results of one run, summed up: kill rate, survivors, time."""

    results: list[Result]
    seconds: int
    command: str

    @property
    def counted(self) -> list[Result]:
        """Results of mutants that compiled."""
        return [r for r in self.results if r.status != "broken"]

    @property
    def killed(self) -> int:
        """Mutants a test caught (a red run or a time-out)."""
        return sum(r.status in ("killed", "timeout") for r in self.counted)

    @property
    def rate(self) -> float:
        """Killed over counted (1.0 when nothing was counted)."""
        return self.killed / len(self.counted) if self.counted else 1.0

    def survivors(self) -> list[Result]:
        """The mutants every selected test let pass."""
        return [r for r in self.counted if r.status == "survived"]

    def summary(self) -> str:
        """One line: killed of counted, rate, time."""
        return (f"{self.killed} of {len(self.counted)} mutants killed ({self.rate:.1%}) in {self.seconds} s; "
                f"{len(self.results) - len(self.counted)} did not compile")

    def json(self) -> str:
        """Every result as JSON (the input of --rerun)."""
        return json.dumps({"command": self.command, "seconds": self.seconds, "rate": self.rate,
                           "killed": self.killed, "counted": len(self.counted),
                           "results": [dict(asdict(r.mutant), status=r.status, seconds=r.seconds, failed=r.failed)
                                       for r in self.results]}, indent=1) + "\n"

    def markdown(self) -> str:
        """The report as markdown: the summary, a table per module and every survivor."""
        lines = ["# Mutation testing report", "", f"`{self.command}`", "", f"**{self.summary()}**", "",
                 "| module | mutants | killed | survived |", "|---|---:|---:|---:|"]
        for module in dict.fromkeys(r.mutant.module for r in self.counted):
            mine = [r for r in self.counted if r.mutant.module == module]
            dead = sum(r.status != "survived" for r in mine)
            lines.append(f"| `{module}` | {len(mine)} | {dead} | {len(mine) - dead} |")
        lines += ["", "Survivors:", ""]
        lines += [f"- `{r.mutant.module}:{r.mutant.line}` in `{r.mutant.where or '(module)'}`: "
                  f"{r.mutant.change} (key `{r.mutant.key}`)" for r in self.survivors()] or ["- none"]
        return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))  # a killed run still removes its scratch trees
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--module", action="append", help="a module of TARGETS (default: all)")
    ap.add_argument("--sample", type=int, default=8, help="mutants per module (0: all)")
    ap.add_argument("--seed", type=int, default=17)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--goal", type=float, default=0.9)
    ap.add_argument("--list", action="store_true", help="count the mutants per module and stop")
    ap.add_argument("--out", type=Path, help="write the results as JSON")
    ap.add_argument("--md", type=Path, help="write the report as markdown")
    ap.add_argument("--rerun", type=Path, help="run again the survivors of an earlier --out file")
    ap.add_argument("--tests", nargs="+", help="run these tests instead of each module's own")
    a = ap.parse_args(argv)
    if a.tests:
        for mod in TARGETS:
            TARGETS[mod] = tuple(a.tests)
    modules = a.module or list(TARGETS)
    for mod in modules:
        if mod not in TARGETS:
            ap.error(f"{mod}: not a target ({', '.join(TARGETS)})")
    per = {mod: mutants(mod) for mod in modules}
    if a.list:
        for mod, ms in per.items():
            print(f"{len(ms):5} {mod}")
        print(f"{sum(map(len, per.values())):5} in all")
        return 0
    selected = [m for mod in modules for m in sample(per[mod], a.sample, a.seed)]
    if a.rerun:  # the earlier survivors, found again by key (their lines may have moved)
        earlier = json.loads(a.rerun.read_text(encoding="utf-8"))["results"]
        wanted = {r["key"] for r in earlier if r["status"] == "survived"}
        selected = [m for mod in modules for m in per[mod] if m.key in wanted]
    t = time.monotonic()
    results = run(selected, a.jobs)
    report = Report(results, round(time.monotonic() - t), " ".join(["tools/mutation.py", *(argv or sys.argv[1:])]))
    print("\n" + report.summary())
    for r in report.survivors():
        print(f"  survived: {r.mutant.module}:{r.mutant.line} {r.mutant.where} {r.mutant.change} [{r.mutant.key}]")
    if a.out:
        a.out.write_text(report.json(), encoding="utf-8")
    if a.md:
        a.md.write_text(report.markdown(), encoding="utf-8")
    return 0 if report.rate >= a.goal else 1


if __name__ == "__main__":
    sys.exit(main())
