"""Shared fixtures, and the order in which ``make test``'s workers take the files."""

from __future__ import annotations

from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SHARED = ROOT.parent / "shared"

#: The files that take longest, longest first (seconds of one run of ``make test`` at load 8-10 on 2 cores,
#: measured with ``--durations=0``, summed per file, session 11; test_typing's mypy has no cache in a fresh clone;
#: the notebooks of ``RUN_WHOLE_IN_LAB`` are left out: their browser tests run them).
#: ``--dist loadfile`` hands whole files to the two workers in this order, then the rest as collected: the
#: long files start early and the short ones even out the end (xdist's own order, most tests first, left a
#: 100-s notebook in a browser for last on one worker while the other had finished). A file missing here
#: only runs later; re-measure when a file grows past the last one listed.
HEAVIEST_FIRST = (
    "tests/browser/test_vespers_notebook.py",  # 170
    "tests/test_placement.py",  # 115
    "tests/test_medieval_apps.py",  # 105
    "tests/test_export.py",  # 90
    "tests/browser/test_export_fits_the_screen.py",  # 84
    "tests/test_override_names.py",  # 74
    "tests/test_analysis.py",  # 64
    "tests/test_export_winprob.py",  # 62
    "tests/test_expert.py",  # 62
    "tests/test_snapshots.py",  # 56
    "tests/test_game_overrides.py",  # 56
    "tests/browser/test_export_page.py",  # 55
    "tests/browser/test_export_step_redraw.py",  # 53
    "tests/test_app_fit.py",  # 52
    "tests/test_medieval_game.py",  # 50
    "tests/test_typing.py",  # 47
    "tests/test_fuzz_history.py",  # 39
    "tests/browser/test_play_notebook.py",  # 39
    "tests/test_game_playthrough.py",  # 38
    "tests/browser/test_export_winprob_page.py",  # 37
    "tests/test_medieval_pinned.py",  # 35
    "tests/test_basemap_cache.py",  # 35
    "tests/test_odds.py",  # 31
    "tests/test_apps.py",  # 31
    "notebooks/medieval-europe.ipynb",  # 31
    "tests/browser/test_map_text_boxes.py",  # 28
    "tests/browser/test_jupyterlab.py",  # 28
    "tests/test_fuzz_annotations.py",  # 25
    "tests/test_map_text.py",  # 24
    "tests/test_state_map.py",  # 22
    "tests/test_fuzz_overrides.py",  # 21
    "tests/test_reads_past_events.py",  # 20
    "tests/test_export_tree.py",  # 20
    "tests/test_app_play.py",  # 19
    "tests/test_analysis_cli.py",  # 19
    "notebooks/what-decided-the-war.ipynb",  # 19
    "tests/test_medieval_words.py",  # 18
    "notebooks/classroom.ipynb",  # 18
    "tests/test_aragon_plans.py",  # 16
    "tests/browser/test_export_tree_page.py",  # 16
    "notebooks/tutorials/moving-armies-and-fleets.ipynb",  # 16
    "notebooks/tutorial-empires-revolt.ipynb",  # 16
    "notebooks/tutorials/politics.ipynb",  # 15
    "tests/test_mutation.py",  # 14
    "notebooks/tutorial-empires-middle-ages.ipynb",  # 13
    "notebooks/five-ways-to-fight.ipynb",  # 13
    "notebooks/tutorials/kings-popes-stratagems.ipynb",  # 12
    "tests/test_placement_resume.py",  # 11
    "tests/test_basemap.py",  # 11
    "tests/test_replay_winprob.py",  # 10
    "tests/test_record.py",  # 10
    "tests/test_empires_revolt_conquest.py",  # 10
    "tests/browser/test_medieval_hot_seat_panel.py",  # 10
    "notebooks/tutorials/battle-step-by-step.ipynb",  # 10
    "tests/test_cli_inputs.py",  # 9
    "notebooks/tutorials/money-and-men.ipynb",  # 9
    "notebooks/tutorial-variant-middle-sea.ipynb",  # 9
    "tests/test_empires_revolt_apps.py",  # 8
    "tests/test_game_players_historical.py",  # 7
)


def pytest_configure(config: pytest.Config) -> None:
    if hasattr(config.option, "loadscopereorder"):  # pytest-xdist: keep the order set below
        config.option.loadscopereorder = False


#: Notebooks a browser test runs whole in JupyterLab (Run All from a cleared copy, then it fails on any error or
#: stderr output and drives their apps): nbval's ``--nbval-lax`` run of them checks less (that their cells run; none
#: has an ``NBVAL_CHECK_OUTPUT`` cell), so in a session where that browser test runs too, nbval leaves them to it.
RUN_WHOLE_IN_LAB = {
    "notebooks/vespers-1282.ipynb": "tests/browser/test_vespers_notebook.py",
    "notebooks/play-aragon.ipynb": "tests/browser/test_play_notebook.py",
}


def _runs_in_lab(items: list[pytest.Item]) -> set[str]:
    """The notebooks of ``RUN_WHOLE_IN_LAB`` whose browser test is collected and will run (not skipped)."""
    import sys

    if not Path(sys.executable).with_name("jupyter").exists():  # the lab fixture would skip
        return set()
    files = {item.nodeid.split("::", 1)[0] for item in items if not item.get_closest_marker("skip")}
    return {nb for nb, test in RUN_WHOLE_IN_LAB.items()
            if test in files and "NBVAL_CHECK_OUTPUT" not in (ROOT / nb).read_text(encoding="utf-8")}


@pytest.hookimpl(trylast=True)  # after tests/browser/conftest.py has marked its tests skipped (no chromium)
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """The files of ``HEAVIEST_FIRST`` first, in its order; each file's own tests keep theirs. The cells of a
    notebook the session also runs whole in JupyterLab are skipped, with the test that runs it as the reason."""
    rank = {name: i for i, name in enumerate(HEAVIEST_FIRST)}
    items.sort(key=lambda item: rank.get(item.nodeid.split("::", 1)[0], len(rank)))
    in_lab = _runs_in_lab(items)
    for item in items:
        notebook = item.nodeid.split("::", 1)[0]
        if notebook in in_lab:
            item.add_marker(pytest.mark.skip(reason=f"run whole in JupyterLab by {RUN_WHOLE_IN_LAB[notebook]}"))


@pytest.fixture
def battle_opts() -> dict[str, object]:
    return {"attacker": "aragon:2FA,1L,1M,K2", "defender": "anjou:3FA,2L,K1"}
