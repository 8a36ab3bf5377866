"""kill -9 a real server again and again under traffic; count what it acknowledged and lost (issue #32).

    python benchmarks/kill9.py [--cycles 20] [--db sqlite|postgres|both] [--seed 1]

For each database (SQLite in a temporary directory; PostgreSQL at 127.0.0.1:5432, database `test`, a schema of
its own, dropped at the end) it creates a few tables once — people only, people against bots (one of them with a
turn-based clock, from the site's route), bots only — and then runs `--cycles` cycles of: start the server
process on the same database, check what the last cycle left (below), drive every table at once from concurrent
clients (moves and undos, tests/server/test_crash_more.py's player, and chat lines) for a random 1-4 s, SIGKILL
the server mid-traffic. After each kill, and again after each start, it checks that:

* every change the server acknowledged (a 200 answer: a move, an undo, a chat line) is in the database, with the
  seat, kind and action it was sent with, and the log has no hole;
* the restarted server serves the log as it was (the rows written before the kill are untouched, a table of people
  is served at exactly its log's move, a table with bots at it or after) and
  reports no replay mismatch (its own digest check: a table served differently
  before the crash than its log gives after it) and no duplicate log row (two copies of a table writing);
* the bots carry on: every all-bot table moves again by itself, every table with a bot comes back to a person.

It prints, per database: cycles, acknowledged changes by kind, lost (must be 0), duplicate bot moves, and the time
to come back (server start to `/healthz`, and to every table served). Exit status 1 if anything was lost or
wrong. The server is the one under tests/server (its helpers, `srvkit.Server`, start and kill it).
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import tempfile
import threading
import time
from collections import Counter
from pathlib import Path
from typing import Any

import httpx

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests" / "server"))

from srvkit import Server, auth, db_url_for, make_table, wait_for  # noqa: E402
from test_crash_more import Acked, _log_rows, _player  # noqa: E402
from test_one_copy import DUPLICATE  # noqa: E402

MISMATCH = "gives another state than the one served before"
OPTS = {"target": 10**6}
START = 120
"""Seconds a server may take to answer `/healthz` after a start (40 s was too short at load average ~30)."""


def _chatter(url: str, table: dict[str, Any], said: list[str], stop: threading.Event, seed: int) -> None:
    """Says numbered lines at `table` from its first seat; records each line the server acknowledged (200)."""
    tok = next(s["token"] for s in table["seats"] if s["token"])
    rng = random.Random(seed)
    with httpx.Client(base_url=url, timeout=5) as c:
        while not stop.wait(rng.uniform(0.2, 0.6)):  # under the per-seat chat limit (5 per 10 s) most of the time
            text = f"k9 {table['id'][:6]} {seed} {rng.getrandbits(40):x}"
            try:
                r = c.post(f"/api/tables/{table['id']}/chat", headers=auth(tok), json={"text": text})
            except httpx.HTTPError:
                return  # the server died under us: not acknowledged
            if r.status_code == 200:
                said.append(text)


def _chat_texts(c: httpx.Client, tid: str) -> set[str]:
    """Every chat line of a table, through the paged history."""
    out: set[str] = set()
    before: int | None = None
    while True:
        params = {"limit": 100} | ({"before": before} if before is not None else {})
        page = c.get(f"/api/tables/{tid}/chat", params=params).json()
        out |= {m["text"] for m in page["chat"]}
        if not page["more"] or not page["chat"]:
            return out
        before = page["chat"][0]["n"]


def _site_table(c: httpx.Client, seats: list[str], clock: dict[str, Any]) -> dict[str, Any]:
    """A table made through the lobby's route (where clocks are set)."""
    r = c.post("/api/site/tables", json={"game": "tally", "players": len(seats), "options": OPTS,
                                         "bot_level": "easy", "clock": clock, "seats": [{"kind": k} for k in seats]})
    assert r.status_code == 201, r.text
    return dict(r.json())


class Run:
    """One database: its tables, what was acknowledged so far, and the figures."""

    def __init__(self, url: str, tmp: Path, rng: random.Random) -> None:
        self.srv = Server(url, tmp / "server.log", env={"BOARDLAB_RATE_LIMIT": "100000/second"})
        self.url, self.rng = url, rng
        self.acked: dict[str, Acked] = {}
        self.said: dict[str, list[str]] = {}
        self.rows: dict[str, dict[int, tuple[int, str, str]]] = {}
        self.lost: list[str] = []
        self.problems: list[str] = []
        self.duplicates = 0
        self.up: list[float] = []
        self.served: list[float] = []
        self.cycles = 0

    def setup(self) -> None:
        self.srv.start(timeout=START)
        with httpx.Client(base_url=self.srv.url, timeout=20) as c:
            self.humans = [make_table(c, options=OPTS) for _ in range(3)]
            self.vs_bots = [make_table(c, seats=[{"kind": "human"}, {"kind": "bot", "bot": b}], options=OPTS)
                            for b in ("random", "greedy")]
            self.vs_bots.append(_site_table(c, ["human", "bot"], {"mode": "turn", "per_move": 3600}))
            self.all_bots = [make_table(c, seats=[{"kind": "bot", "bot": a}, {"kind": "bot", "bot": b}],
                                        options=OPTS) for a, b in (("random", "random"), ("greedy", "random"))]
        for t in self.humans + self.vs_bots:
            self.acked[t["id"]], self.said[t["id"]] = [], []

    def play_and_kill(self, seed: int) -> None:
        stop = threading.Event()
        played = self.humans + self.vs_bots
        threads = [threading.Thread(target=_player, args=(self.srv.url, t, self.acked[t["id"]], stop, seed * 100 + i))
                   for i, t in enumerate(played)]
        threads += [threading.Thread(target=_chatter, args=(self.srv.url, t, self.said[t["id"]], stop, seed * 100 + i))
                    for i, t in enumerate(played)]
        for th in threads:
            th.start()
        time.sleep(self.rng.uniform(1.0, 4.0))  # a random moment: moves, undos, bot moves and chat in flight
        self.srv.kill()
        stop.set()
        for th in threads:
            th.join(15)
        self.cycles += 1

    def check_database(self) -> None:
        """What the dead server acknowledged is in the database; the log has no hole; old rows are unchanged."""
        for t in self.humans + self.vs_bots + self.all_bots:
            tid = t["id"]
            rows = _log_rows(self.url, tid)
            for n, seat, kind, action in self.acked.get(tid, []):
                if n not in rows or rows[n][:2] != (seat, kind) or (kind == "act" and rows[n][2] != action):
                    self.lost.append(f"cycle {self.cycles}: table {tid} acknowledged {kind} {action!r} by seat "
                                     f"{seat} as log row {n}; the database has {rows.get(n)}")
            if sorted(rows) != list(range(len(rows))):
                self.problems.append(f"cycle {self.cycles}: table {tid} log has a hole: {sorted(rows)[:5]}...")
            old = self.rows.get(tid, {})
            changed = [n for n in old if rows.get(n) != old[n]]
            if changed:
                self.problems.append(f"cycle {self.cycles}: table {tid} log rows {changed[:5]} changed")
            self.rows[tid] = rows

    def restart_and_check(self) -> None:
        """Start again; time it; every table served from its log; chat kept; bots carry on."""
        size = self.srv.log_path.stat().st_size
        t0 = time.monotonic()
        self.srv.start(timeout=START)
        self.up.append(time.monotonic() - t0)
        try:
            self._check_served(t0)
        except (httpx.HTTPError, ValueError, KeyError) as e:  # the restarted server failed a request: say how
            alive = self.srv.proc is not None and self.srv.proc.poll() is None
            tail = self.srv.log_path.read_text(errors="replace")[size:][-1500:]
            self.problems.append(f"cycle {self.cycles}: after the restart a request failed ({e!r}); "
                                 f"server alive: {alive}; its log since the start:\n{tail}")
            self.srv.stop()
            self.srv.start(timeout=START)  # go on with the next cycle on the same database
        text = self.srv.log_path.read_text(errors="replace")[size:]
        self.duplicates += sum(text.count(d) for d in DUPLICATE)
        if MISMATCH in text:
            self.problems += [f"cycle {self.cycles}: {line.strip()}" for line in text.splitlines() if MISMATCH in line]

    def _check_served(self, t0: float) -> None:
        everything = self.humans + self.vs_bots + self.all_bots
        with httpx.Client(base_url=self.srv.url, timeout=30) as c:
            for t in everything:
                r = c.get(f"/api/tables/{t['id']}")
                n = len(self.rows[t["id"]])  # a person-only table is at exactly its log; a bot may have moved since
                if r.status_code != 200 or not (r.json()["version"] == n or (t not in self.humans
                                                and r.json()["version"] > n)):
                    self.problems.append(f"cycle {self.cycles}: table {t['id']} served {r.status_code} "
                                         f"{r.text[:200]} after the restart; log has {len(self.rows[t['id']])} rows")
            self.served.append(time.monotonic() - t0)
            for t in self.humans + self.vs_bots:
                missing = set(self.said[t["id"]]) - _chat_texts(c, t["id"])
                self.lost += [f"cycle {self.cycles}: table {t['id']} acknowledged chat line {m!r} is gone"
                              for m in sorted(missing)]
            for t in self.vs_bots:  # the bot answers: a person's turn comes back
                toks = {s["seat"]: s["token"] for s in t["seats"] if s["token"]}
                try:
                    wait_for(lambda t=t, toks=toks: _persons_turn(c.get(f"/api/tables/{t['id']}").json(), toks),
                             "a bot's answer", 30)
                except AssertionError as e:
                    self.problems.append(f"cycle {self.cycles}: table {t['id']}: {e}")
            for t in self.all_bots:  # the all-bot tables resume by themselves
                v0 = c.get(f"/api/tables/{t['id']}").json()["version"]
                try:
                    wait_for(lambda t=t, v0=v0: c.get(f"/api/tables/{t['id']}").json()["version"] > v0 + 2,
                             "the bots to carry on", 30)
                except AssertionError as e:
                    self.problems.append(f"cycle {self.cycles}: table {t['id']}: {e}")

    def report(self, name: str) -> dict[str, Any]:
        kinds = Counter(a[2] for v in self.acked.values() for a in v)
        chat = sum(len(v) for v in self.said.values())
        return {
            "database": name, "cycles": self.cycles,
            "acknowledged": {"moves": kinds["act"], "undos": kinds["undo"], "chat": chat,
                             "total": kinds["act"] + kinds["undo"] + chat},
            "bot_moves_logged": sum(1 for t in self.humans + self.vs_bots + self.all_bots
                                    for r in self.rows[t["id"]].values()
                                    if r[1] == "act" and r[0] not in {s["seat"] for s in t["seats"] if s.get("token")}),
            "lost": len(self.lost), "duplicate_bot_moves": self.duplicates, "problems": len(self.problems),
            "healthz_s": _spread(self.up), "all_tables_served_s": _spread(self.served),
        }


def _persons_turn(state: dict[str, Any], toks: dict[int, str]) -> bool:
    return state["current"] in toks and not state["thinking"]


def _spread(xs: list[float]) -> str:
    return f"median {statistics.median(xs):.2f}, max {max(xs):.2f}" if xs else "-"


def run(backend: str, cycles: int, seed: int) -> tuple[dict[str, Any], list[str]]:
    with tempfile.TemporaryDirectory(prefix="kill9-") as d, db_url_for(backend, Path(d)) as url:
        r = Run(url, Path(d), random.Random(seed))
        r.setup()
        try:
            for i in range(cycles):
                r.play_and_kill(seed * 1000 + i)
                r.check_database()
                r.restart_and_check()
                print(f"{backend} cycle {i + 1}/{cycles}: lost {len(r.lost)}, problems {len(r.problems)}",
                      flush=True)
        finally:
            r.srv.stop()
            kept = Path(tempfile.gettempdir()) / f"kill9-{backend}-server.log"
            kept.write_bytes(r.srv.log_path.read_bytes())  # the server's own log, for whoever reads a failure
            print(f"server log kept in {kept}", flush=True)
        return r.report(backend), r.lost + r.problems


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--cycles", type=int, default=20)
    p.add_argument("--db", choices=("sqlite", "postgres", "both"), default="both")
    p.add_argument("--seed", type=int, default=1)
    a = p.parse_args()
    bad: list[str] = []
    print(f"{time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}, {os.cpu_count()} cores, "
          f"load average {os.getloadavg()[0]:.2f}", flush=True)
    for backend in ("sqlite", "postgres") if a.db == "both" else (a.db,):
        figures, wrong = run(backend, a.cycles, a.seed)
        print(figures, flush=True)
        bad += wrong
    print(f"load average at the end {os.getloadavg()[0]:.2f}")
    for line in bad:
        print("WRONG:", line)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
