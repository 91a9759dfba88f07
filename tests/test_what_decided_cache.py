"""The analyses notebooks/what-decided-the-war.ipynb reads are those of today's Vespers replay.

The notebook's win-probability and pivotal-roll files in notebooks/analysis/ are named by the
replay's content hash. A rule or player change that alters the replay would leave them behind, and
the notebook would then recompute them under nbval (about 15 minutes). This test names the fix.
"""

from __future__ import annotations

from pathlib import Path

from medviz.analysis.winprob import history_hash
from medviz.engine import play
from medviz.rules.medempires.ruleset import RULESET

ANALYSIS = Path(__file__).resolve().parent.parent / "notebooks" / "analysis"


def test_the_notebooks_cached_analyses_belong_to_todays_replay() -> None:
    historical = RULESET.policies["historical"]()
    history = play(RULESET, "vespers-1282", {}, seed=1490, players={"A": historical, "B": historical})
    tag = history_hash(history)[:16]
    names = sorted(p.name for p in ANALYSIS.glob("*.json"))
    for kind in ("winprob", "pivotal"):
        assert any(n.startswith(f"{kind}-{tag}-") for n in names), (
            f"notebooks/analysis/ has no {kind} file for today's Vespers replay ({tag}); it holds {names}. "
            "Run: .venv/bin/python tools/make_what_decided_notebook.py --analyse, and commit the new files "
            "(and remove the old ones)")
