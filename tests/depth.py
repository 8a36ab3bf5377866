"""The depth of the property tests, shared by the whole suite (loaded by tests/conftest.py, so before any test).

`make test` runs the property tests at CI depth: every property over every player count and option, with
enough random games per test to cover the rare rules (each test's count is tuned to a few seconds on a
2-core machine). `BOARDLAB_DEEP=1` runs ten times as many games per test (a long run, outside `make test`):

    BOARDLAB_DEEP=1 .venv/bin/pytest -n auto tests/games

A property test takes its count from `examples(n)`: `@settings(max_examples=examples(200))`.
"""

from __future__ import annotations

import os

from hypothesis import HealthCheck, settings

DEEP = os.environ.get("BOARDLAB_DEEP") == "1"
DEPTH = 10 if DEEP else 1
"""How many times the CI count of random games each property test plays."""

# A random game is drawn from its seed: shrinking finds nothing simpler and can take minutes, and a failure
# prints the seed (and `print_blob` the way to replay it) — so no shrinking and no deadline per example.
settings.register_profile(
    "ci", deadline=None, print_blob=True, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
settings.register_profile("deep", parent=settings.get_profile("ci"), max_examples=100 * DEPTH)
settings.load_profile("deep" if DEEP else "ci")


def examples(ci: int) -> int:
    """The number of random games a property test plays: `ci` in `make test`, ten times that when deep."""
    return ci * DEPTH
