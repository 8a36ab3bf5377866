"""A bot's reply time must not tell its hand when the bot pool is busy (issue #32): with other tables' search
bots keeping the one worker busy, a paced decision (its option count is hidden: `Game.decision_kind`) was
answered after the queue wait plus the bot's own thinking, so a quick answer (one option, or a quick bot) and
a slow one could be told apart (2.87 s against 3.82-4.86 s, 8 of 8). Now the constant pace is held from the
moment a worker takes the job, so the reply is the queue wait plus a constant.

Measured on a real server (one bot worker, 0.5 s budget, pace 0.7 s) with the reply times taken from the
log's commit times: a table whose two seats are a quick bot (greedy) and a slow one (mcts, its whole budget)
while two all-mcts tables keep the worker busy. The quick seat's replies must not be told from the slow
seat's: their medians must differ by less than half the budget (before: by about the whole budget)."""

from __future__ import annotations

import itertools
import os
import statistics
import time
from pathlib import Path

import httpx
import pytest
import sqlalchemy as sa
from srvkit import Server, make_table

from boardlab.server.db import log_t, make_engine

BUDGET = 0.5
DECISIONS = int(os.environ.get("BOARDLAB_PACE_DECISIONS", "16"))  # of the probe table (more: a measurement)


def replies(url: str, tid: str) -> dict[int, list[float]]:
    """Seconds from each log row to the next, per seat of the next row (the bot's reply time)."""
    engine = make_engine(url)
    try:
        with engine.connect() as c:
            q = sa.select(log_t.c.seat, log_t.c.created_at).where(log_t.c.table_id == tid).order_by(log_t.c.n)
            rows = list(c.execute(q))
    finally:
        engine.dispose()
    out: dict[int, list[float]] = {0: [], 1: []}
    for prev, row in itertools.pairwise(rows):
        out[row.seat].append(row.created_at - prev.created_at)
    return out


@pytest.mark.slow
def test_paced_replies_do_not_tell_a_quick_bot_from_a_slow_one_under_load(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'pace.sqlite3'}"
    env = {"BOARDLAB_BOT_WORKERS": "1", "BOARDLAB_BOT_SECONDS": str(BUDGET), "BOARDLAB_RATE_LIMIT": "100000/second"}
    srv = Server(url, tmp_path / "server.log", env=env).start()
    try:
        with httpx.Client(base_url=srv.url, timeout=20) as c:
            opts = {"target": 10**6}
            mcts = {"kind": "bot", "bot": "mcts"}
            for _ in range(2):  # the load: two all-mcts tables keep the one worker busy
                make_table(c, seats=[mcts, mcts], options=opts)
            probe = make_table(c, seats=[{"kind": "bot", "bot": "greedy"}, mcts], options=opts)
            deadline = time.monotonic() + 120
            while c.get(f"/api/tables/{probe['id']}").json()["log_len"] < DECISIONS + 1:
                assert time.monotonic() < deadline, "the probe table's bots did not play"
                time.sleep(0.2)
    finally:
        srv.stop()
    got = replies(url, probe["id"])
    quick, slow = statistics.median(got[0]), statistics.median(got[1])
    print(f"reply medians under load: greedy {quick:.3f} s, mcts {slow:.3f} s "
          f"(greedy {sorted(round(x, 2) for x in got[0])}, mcts {sorted(round(x, 2) for x in got[1])})")
    assert abs(slow - quick) < BUDGET / 2, (quick, slow, got)
