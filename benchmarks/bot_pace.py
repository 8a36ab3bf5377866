"""Bot reply times under load, one-option against two-option decisions (issue #32, "Done means").

    python benchmarks/bot_pace.py [--decisions 40] [--budget 0.5] [--load 2]

Starts a real server (tests/server's, SQLite, one bot worker) with the test game `tally_hold`, whose every decision
counts as hidden (`decision_kind` "hold", as Pocket Mars's "do / skip" questions) and alternates between two
options and one. Another client (its own address) keeps the worker busy with `--load` tables of hard bots; the
probe table (two mcts bots, of a third address) plays `--decisions` decisions. A bot answers a one-option question
at once and searches a two-option one for its whole budget, so without pacing their reply times tell the options
apart (and with them the hand, in Pocket Mars). Prints per class the reply times (from the log's commit times) and
how often a two-option reply took longer than a one-option one (P: 0.5 cannot tell, 1.0 always tells). Run with
another checkout's PYTHONPATH for that checkout's figures.
"""

from __future__ import annotations

import argparse
import itertools
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

import httpx
import sqlalchemy as sa

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests" / "server"))

from srvkit import Server  # noqa: E402

from boardlab.server.db import log_t, make_engine  # noqa: E402


def reply_times(url: str, tid: str) -> dict[int, list[float]]:
    """Seconds from each log row to the next, by the next decision's option count (1 after an `add1`, else 2)."""
    engine = make_engine(url)
    try:
        with engine.connect() as c:
            q = sa.select(log_t.c.text, log_t.c.created_at).where(log_t.c.table_id == tid).order_by(log_t.c.n)
            rows = list(c.execute(q))
    finally:
        engine.dispose()
    out: dict[int, list[float]] = {1: [], 2: []}
    for prev, row in itertools.pairwise(rows):
        out[1 if prev.text == "add1" else 2].append(row.created_at - prev.created_at)
    return out


def told_apart(one: list[float], two: list[float]) -> float:
    """P(a two-option reply is slower than a one-option one), ties half: 0.5 means they cannot be told apart."""
    pairs = [(a > b) + 0.5 * (a == b) for a in two for b in one]
    return sum(pairs) / len(pairs)


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--decisions", type=int, default=40)
    p.add_argument("--budget", type=float, default=0.5)
    p.add_argument("--load", type=int, default=2, help="tables of hard bots, each of another client")
    a = p.parse_args()
    print(f"{time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}, {os.cpu_count()} cores, "
          f"load average {os.getloadavg()[0]:.1f}", flush=True)
    with tempfile.TemporaryDirectory() as tmp:
        url = f"sqlite:///{Path(tmp) / 'pace.sqlite3'}"
        env = {"BOARDLAB_BOT_WORKERS": "1", "BOARDLAB_BOT_SECONDS": str(a.budget),
               "BOARDLAB_RATE_LIMIT": "100000/second", "BOARDLAB_TEST_GAMES": "tally_hold"}
        srv = Server(url, Path(tmp) / "server.log", env=env).start()
        try:
            def create(address: str, bot: str) -> str:
                with httpx.Client(base_url=srv.url, timeout=30, headers={"X-Forwarded-For": address}) as c:
                    r = c.post("/api/tables", json={"game": "tally_hold", "players": 2, "options": {"target": 10**6},
                                                    "seats": [{"kind": "bot", "bot": bot}] * 2})
                    assert r.status_code == 201, r.text
                    return str(r.json()["id"])

            for i in range(a.load):
                create(f"10.77.0.{i + 1}", "hard")
            probe = create("10.77.1.1", "mcts")
            deadline = time.monotonic() + 60 + 10 * a.decisions * a.budget * (a.load + 1)
            with httpx.Client(base_url=srv.url, timeout=30) as c:
                while c.get(f"/api/tables/{probe}").json()["log_len"] < a.decisions + 1:
                    if time.monotonic() > deadline:
                        sys.exit("the probe table's bots did not play")
                    time.sleep(0.5)
        finally:
            srv.stop()
        got = reply_times(url, probe)
    print(f"load average {os.getloadavg()[0]:.1f} at the end; budget {a.budget} s, 1 worker, "
          f"{a.load} tables of hard bots of other clients")
    for k in (1, 2):
        xs = got[k]
        print(f"{k}-option decisions: {len(xs)}, median {statistics.median(xs):.3f} s "
              f"(min {min(xs):.3f}, max {max(xs):.3f})")
    print(f"P(two-option reply slower than one-option) = {told_apart(got[1], got[2]):.2f}")


if __name__ == "__main__":
    main()
