"""Shared fixtures, and the order in which ``make test``'s workers take the files."""

from __future__ import annotations

from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SHARED = ROOT.parent / "shared"

#: The files that take longest, longest first (seconds of one run of ``make test`` at load 8-10 on 2 cores,
#: measured with ``--durations=0``, summed per file; test_typing's mypy has no cache in a fresh clone).
#: ``--dist loadfile`` hands whole files to the two workers in this order, then the rest as collected: the
#: long files start early and the short ones even out the end (xdist's own order, most tests first, left a
#: 100-s notebook in a browser for last on one worker while the other had finished). A file missing here
#: only runs later; re-measure when a file grows past the last one listed.
HEAVIEST_FIRST = (
    "tests/test_placement.py",  # 169
    "tests/test_export_winprob.py",  # 146
    "tests/browser/test_export_page.py",  # 122
    "tests/test_medieval_apps.py",  # 109
    "tests/browser/test_vespers_notebook.py",  # 106
    "tests/test_expert.py",  # 98
    "tests/test_analysis.py",  # 84
    "tests/browser/test_play_notebook.py",  # 63
    "tests/browser/test_export_fits_the_screen.py",  # 62
    "tests/browser/test_export_winprob_page.py",  # 51
    "tests/browser/test_export_step_redraw.py",  # 47
    "tests/test_snapshots.py",  # 47
    "tests/test_override_names.py",  # 47
    "tests/test_export.py",  # 38
    "tests/browser/test_map_text_boxes.py",  # 35
    "tests/test_map_text.py",  # 28
    "tests/test_odds.py",  # 26
    "tests/test_medieval_game.py",  # 26
    "tests/browser/test_jupyterlab.py",  # 25
    "tests/test_fuzz_overrides.py",  # 22
    "tests/test_game_playthrough.py",  # 22
    "tests/test_placement_resume.py",  # 22
    "tests/test_typing.py",  # 20 without mypy's cache
    "tests/test_app_fit.py",  # 20
    "tests/test_fuzz_annotations.py",  # 19
    "tests/test_apps.py",  # 19
    "tests/test_game_overrides.py",  # 19
    "notebooks/medieval-europe.ipynb",  # 18
    "tests/test_fuzz_history.py",  # 18
    "tests/test_export_tree.py",  # 18
    "tests/test_medieval_words.py",  # 18
    "tests/test_state_map.py",  # 16
    "notebooks/play-aragon.ipynb",  # 16
    "tests/test_analysis_cli.py",  # 15
    "notebooks/vespers-1282.ipynb",  # 15
    "notebooks/what-decided-the-war.ipynb",  # 15
    "notebooks/tutorial-empires-revolt.ipynb",  # 12
    "notebooks/tutorials/moving-armies-and-fleets.ipynb",  # 12
    "tests/browser/test_export_tree_page.py",  # 11
    "tests/test_medieval_pinned.py",  # 11
    "notebooks/classroom.ipynb",  # 11
    "tests/test_mutation.py",  # 11
    "notebooks/tutorials/money-and-men.ipynb",  # 9
    "tests/test_app_play.py",  # 9
    "notebooks/five-ways-to-fight.ipynb",  # 8
    "notebooks/tutorial-empires-middle-ages.ipynb",  # 8
    "notebooks/tutorials/kings-popes-stratagems.ipynb",  # 8
    "notebooks/tutorials/politics.ipynb",  # 7
)


def pytest_configure(config: pytest.Config) -> None:
    if hasattr(config.option, "loadscopereorder"):  # pytest-xdist: keep the order set below
        config.option.loadscopereorder = False


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """The files of ``HEAVIEST_FIRST`` first, in its order; each file's own tests keep theirs."""
    rank = {name: i for i, name in enumerate(HEAVIEST_FIRST)}
    items.sort(key=lambda item: rank.get(item.nodeid.split("::", 1)[0], len(rank)))


@pytest.fixture
def battle_opts() -> dict[str, object]:
    return {"attacker": "aragon:2FA,1L,1M,K2", "defender": "anjou:3FA,2L,K1"}
