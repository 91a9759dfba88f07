"""Shared settings of the fuzz suite (issue 17): a bounded run in ``make test``, a longer one in CI.

``make test`` runs each fuzz property with ``FUZZ_EXAMPLES`` examples; CI's long run
(``MEDVIZ_SLOW=1``) with ten times as many. ``MEDVIZ_FUZZ_EXAMPLES`` sets the number outright.
"""

from __future__ import annotations

import os

from hypothesis import HealthCheck, settings

FUZZ_EXAMPLES = int(os.environ.get("MEDVIZ_FUZZ_EXAMPLES") or (1000 if os.environ.get("MEDVIZ_SLOW") else 100))

#: Decorate a fuzz property with this: its example count, no deadline (machines are noisy).
fuzz = settings(max_examples=FUZZ_EXAMPLES, deadline=None, derandomize=not os.environ.get("MEDVIZ_SLOW"),
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
