"""What the whole suite shares: the hypothesis profile of the property tests (tests/depth.py), loaded before
any test module is imported, the order in which parallel workers take the test files, and the check that the
suite leaves no process running."""

from __future__ import annotations

import os
import time
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


RUN = "BOARDLAB_TEST_RUN"
"""Set by the run's first process to its pid, so every process the suite starts (workers, servers, their bot
workers) carries it in its environment: what is still running at the end is found by it, orphans included."""


def pytest_configure(config: pytest.Config) -> None:
    if not hasattr(config, "workerinput"):
        os.environ[RUN] = str(os.getpid())


def _left_running(root: int) -> list[str]:
    """Processes started by this run that still run (not zombies), less this process's own resource tracker and
    pool workers, which end with it."""
    mark = f"{RUN}={root}".encode()
    out = []
    for d in Path("/proc").iterdir():
        if not d.name.isdigit() or int(d.name) == root:
            continue
        try:
            if mark not in (d / "environ").read_bytes().split(b"\0"):
                continue
            state, ppid = (d / "stat").read_text().rsplit(")", 1)[1].split()[:2]
            cmd = (d / "cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace").strip()
        except (OSError, ValueError):
            continue
        if state != "Z" and not (int(ppid) == root and "multiprocessing" in cmd):
            out.append(f"{d.name} (parent {ppid}): {cmd[:160]}")
    return out


@pytest.hookimpl(trylast=True)  # after xdist has shut its workers down
def pytest_sessionfinish(session: pytest.Session) -> None:
    """#32: bot workers and resource trackers outlived the servers the suite killed (8 still there 90 minutes after
    `make test`). Whatever the run started must be gone a few seconds after its last test (bot workers notice a
    dead server within half a second); else the run fails and names them."""
    if os.environ.get(RUN) != str(os.getpid()):
        return
    deadline = time.monotonic() + 20
    while (left := _left_running(os.getpid())) and time.monotonic() < deadline:
        time.sleep(0.5)
    if left:
        reporter = session.config.pluginmanager.get_plugin("terminalreporter")
        if reporter is not None:
            reporter.ensure_newline()
            reporter.write_line(f"processes the suite started are still running: {left}", red=True)
        session.exitstatus = pytest.ExitCode.TESTS_FAILED
