"""What the whole suite shares: the hypothesis profile of the property tests (tests/depth.py), loaded before
any test module is imported, and the order in which parallel workers take the test files."""

from __future__ import annotations

from pathlib import Path

import pytest

import depth  # noqa: F401  (registers and loads the profile)

FIRST = ("web", "server", "rl")
"""Directories whose files run first: browser games and real server processes take the longest wall time, and
`make test`'s workers take files in collection order (--dist loadfile --no-loadscope-reorder; xdist's own
order, most tests first, left the few long browser files to the end, to run alone while the other core idled)."""


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    tests = Path(__file__).resolve().parent

    def rank(item: pytest.Item) -> int:
        parts = item.path.relative_to(tests).parts if item.path.is_relative_to(tests) else ()
        return FIRST.index(parts[0]) if parts and parts[0] in FIRST else len(FIRST)

    items.sort(key=rank)  # stable: each file keeps its own order
