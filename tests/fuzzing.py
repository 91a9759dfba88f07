"""Shared settings of the fuzz suite (issue 17): a bounded run in ``make test``, a longer one in CI.

``make test`` runs each fuzz property with ``FUZZ_EXAMPLES`` examples; CI's long run
(``MEDVIZ_SLOW=1``) with ten times as many. ``MEDVIZ_FUZZ_EXAMPLES`` sets the number outright.

Both runs are derandomized, as Hypothesis's own ``ci`` profile is: a gate that passes or fails
by luck would let a red main depend on the draw. Exploring new inputs is a separate, random run:
``MEDVIZ_FUZZ_RANDOM=1 MEDVIZ_FUZZ_EXAMPLES=5000 pytest tests/test_fuzz_*.py``; what it finds
becomes a named regression test (see ``test_fuzz_history.py``).
"""

from __future__ import annotations

import os

from hypothesis import HealthCheck, settings

FUZZ_EXAMPLES = int(os.environ.get("MEDVIZ_FUZZ_EXAMPLES") or (1000 if os.environ.get("MEDVIZ_SLOW") else 100))

#: Decorate a fuzz property with this: its example count, no deadline (machines are noisy).
fuzz = settings(max_examples=FUZZ_EXAMPLES, deadline=None, derandomize=not os.environ.get("MEDVIZ_FUZZ_RANDOM"),
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
