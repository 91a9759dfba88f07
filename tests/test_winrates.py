"""tools/winrates.py: Wilson intervals, the table from a cache of games, the doc rewrite, one real game."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def winrates() -> ModuleType:
    spec = importlib.util.spec_from_file_location("winrates", ROOT / "tools" / "winrates.py")
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def test_wilson_interval_matches_the_formula(winrates: ModuleType) -> None:
    lo, hi = winrates.wilson(10, 20)
    assert lo == pytest.approx(0.2993, abs=1e-4) and hi == pytest.approx(0.7007, abs=1e-4)
    lo, hi = winrates.wilson(0, 10)
    assert lo == 0.0 and hi == pytest.approx(0.2775, abs=1e-4)
    assert winrates.wilson(0, 0) == (0.0, 1.0)


def test_a_played_game_goes_into_the_table_and_the_doc(winrates: ModuleType, tmp_path: Path) -> None:
    entry = winrates.play_one(("vespers-1282", "heuristic", "random", 0, "expert"))
    assert entry["winner"] in ("A", "B", "draw") and set(entry["vp"]) == {"A", "B"}
    cache = tmp_path / "cache.json"
    winrates.save_cache(cache, {winrates._key(entry): entry})
    loaded = winrates.load_cache(cache)
    experts = {"vespers-1282": "expert", "standard": "expert"}
    text = winrates.table(loaded, ("vespers-1282",), ("heuristic", "random"), 0, 1, experts)
    wins = {"A": "1 | 0", "B": "0 | 1", "draw": "0 | 0"}[entry["winner"]]
    assert f"| vespers-1282 | heuristic | random | 1 | {wins} |" in text
    assert "| vespers-1282 | random | heuristic | 0 | — | — | — | not played |" in text
    doc = tmp_path / "doc.md"
    doc.write_text(f"before\n{winrates.BEGIN}\nold\n{winrates.END}\nafter\n")
    winrates.update_doc(text, doc)
    body = doc.read_text()
    assert body.startswith("before\n") and body.endswith("after\n") and "old" not in body and text in body


def test_bad_arguments_exit_2(winrates: ModuleType, tmp_path: Path) -> None:
    assert winrates.main(["--players", "wizard", "--cache", str(tmp_path / "c.json"), "--no-play"]) == 2
    assert winrates.main(["--expert-for", "standard=heuristic", "--cache", str(tmp_path / "c.json")]) == 2


def test_the_expert_is_compared_seed_by_seed_with_the_heuristic(winrates: ModuleType) -> None:
    def game(a: str, b: str, seed: int, winner: str) -> dict[str, object]:
        return {"scenario": "standard", "A": a, "B": b, "seed": seed, "expert": "expert:budget=4",
                "winner": winner, "vp": {"A": 0, "B": 0}, "seconds": 1.0}

    entries = [game("heuristic", "heuristic", 0, "B"), game("heuristic", "heuristic", 1, "draw"),
               game("heuristic", "heuristic", 2, "A"), game("expert", "heuristic", 0, "draw"),
               game("expert", "heuristic", 1, "draw"), game("expert", "heuristic", 2, "B"),
               game("heuristic", "expert", 0, "B"), game("heuristic", "expert", 1, "B")]
    cache = {winrates._key(e): e for e in entries}
    text = winrates.paired(cache, ("standard",), 0, 3, {"standard": "expert:budget=4", "vespers-1282": "expert"})
    assert "| standard | Player A | 3 | 1 | 1 | 1 |" in text  # a draw for a loss, a draw kept, a win lost
    assert "| standard | Player B | 2 | 1 | 1 | 0 |" in text  # seed 2 unplayed; a win for a draw


def test_forget_drops_a_players_games_in_one_scenario(winrates: ModuleType, tmp_path: Path) -> None:
    def game(sc: str, a: str, b: str) -> dict[str, object]:
        return {"scenario": sc, "A": a, "B": b, "seed": 0, "expert": "expert", "winner": "A",
                "vp": {"A": 0, "B": 0}, "seconds": 1.0}

    games = [game("vespers-1282", "heuristic", "random"), game("vespers-1282", "random", "expert"),
             game("vespers-1282", "random", "historical"), game("standard", "heuristic", "heuristic")]
    cache = tmp_path / "c.json"
    winrates.save_cache(cache, {winrates._key(e): e for e in games})
    assert winrates.main(["--forget", "vespers-1282:heuristic", "--cache", str(cache), "--no-play",
                          "--scenarios", "standard", "--players", "heuristic"]) == 0
    left = {(e["scenario"], e["A"], e["B"]) for e in winrates.load_cache(cache).values()}
    assert left == {("vespers-1282", "random", "historical"), ("standard", "heuristic", "heuristic")}
    assert winrates.main(["--forget", "vespers-1282", "--cache", str(cache), "--no-play"]) == 2
    assert winrates.main(["--forget", "marathon:heuristic", "--cache", str(cache), "--no-play"]) == 2
