"""Faults under load on several server processes (issue #37): kill -9 one of 4, restart Redis, drop PostgreSQL.

    python benchmarks/cluster_faults.py [--cycles 20] [--processes 4] [--seed 1] [--lease 1.5]

Starts a Redis of its own (`redis-server` on a free port: the system's Redis on 6379, shared with others, is
never touched), a PostgreSQL schema of its own (database `test` on 127.0.0.1, dropped at the end) and N server
processes on them whose database connections carry an `application_name` of this run only. Each process gets,
created through it (so it owns them): two tables of people, a person against a bot and an all-bot table (tally,
tests/server/toygame.py). Then, for the whole run, one client thread per table of people plays every human seat
(moves and undos) through "its" process, and moves on to the next process when that one does not answer (as a
load balancer would); one WebSocket spectator per table watches it through another process and reconnects the
same way. Then `--cycles` rounds of each fault, interleaved, each under that load:

* `kill`: SIGKILL a random process; its tables' leases expire and the others take them; it is started again
  (a new process id) once every table moved again, while the next faults run (the next kill waits for it);
* `redis`: stop this run's redis-server (SIGTERM) and start it again on the same port;
* `pg`: `pg_terminate_backend` every connection whose application_name is this run's (the servers' only).

After each fault it waits until every table has a new log row and every client has an acknowledged move and
every spectator a pushed state newer than the fault (or gives up after `--recover` s: a client that never
recovers). It counts: acknowledged changes lost (every 200 answer is in the log, with its seat and action), duplicate
bot moves (a log that does not replay row by row from its seed, or a duplicate-key error in a server log),
clients that never recover, and the time from the fault until each dead process's table moves again.
Exit status 1 if anything was lost or wrong. Results go to docs/benchmarks.md by hand.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import secrets
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

import httpx

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests" / "server"))

from srvkit import OwnRedis, Server, auth, make_table, pg_schema, postgres_dsn  # noqa: E402
from test_one_copy import DUPLICATE  # noqa: E402

from boardlab.core import get_game  # noqa: E402

OPTS = {"target": 10**6}
FAULTS = ("kill", "redis", "pg")


class Player(threading.Thread):
    """Plays every human seat of one table through the servers, from `home` on; on a connection error it moves on
    to the next server. Records every acknowledged (200) move and undo, and when the last one came."""

    def __init__(self, run: Run, table: dict[str, Any], home: int, seed: int) -> None:
        super().__init__(daemon=True)
        self.run_, self.table, self.at = run, table, home
        self.toks = {s["seat"]: s["token"] for s in table["seats"] if s["token"]}
        self.rng = random.Random(seed)
        self.acked: list[tuple[int, int, str, str]] = []
        self.last_ack = 0.0
        self.refused: dict[str, int] = {}

    def run(self) -> None:
        tid = self.table["id"]
        while not self.run_.stop.is_set():
            srv = self.run_.servers[self.at % len(self.run_.servers)]
            try:
                with httpx.Client(base_url=srv.url, timeout=10) as c:
                    while not self.run_.stop.is_set():
                        s = c.get(f"/api/tables/{tid}", headers=auth(next(iter(self.toks.values())))).json()
                        me = s["current"]
                        if me not in self.toks:  # a bot is thinking
                            time.sleep(0.02)
                            continue
                        s = c.get(f"/api/tables/{tid}", headers=auth(self.toks[me])).json()
                        v = s["version"]
                        if not s["legal"]:  # the turn passed between the two reads
                            continue
                        if s["can_undo"] and self.rng.random() < 0.2:
                            r = c.post(f"/api/tables/{tid}/undo", headers=auth(self.toks[me]), json={"move": v})
                            what = (v, me, "undo", "")
                        else:
                            a = self.rng.choice([m["action"] for m in s["legal"]])
                            r = c.post(f"/api/tables/{tid}/actions", headers=auth(self.toks[me]),
                                       json={"move": v, "action": a})
                            what = (v, me, "act", a)
                        if r.status_code == 200:
                            self.acked.append(what)
                            self.last_ack = time.monotonic()
                        else:
                            err = r.json().get("error", str(r.status_code)) if r.content else str(r.status_code)
                            self.refused[err] = self.refused.get(err, 0) + 1
                            time.sleep(0.05)
                        time.sleep(self.rng.uniform(0.0, 0.05))
            except (httpx.HTTPError, ValueError, KeyError, IndexError):
                self.at += 1  # this server does not answer (killed): the next one, as a load balancer would
                time.sleep(0.1)


class Spectator(threading.Thread):
    """Watches one table through a WebSocket to a server other than its creator's; reconnects (to the next server)
    when the socket closes. Records when it last saw a newer version."""

    def __init__(self, run: Run, tid: str, home: int) -> None:
        super().__init__(daemon=True)
        self.run_, self.tid, self.at = run, tid, home
        self.version = -1
        self.last_new = 0.0
        self.reconnects = 0

    def run(self) -> None:
        from websockets.sync.client import connect

        while not self.run_.stop.is_set():
            srv = self.run_.servers[self.at % len(self.run_.servers)]
            try:
                with connect(f"{srv.ws_url}/ws/tables/{self.tid}", open_timeout=5) as ws:
                    ws.send(json.dumps({"type": "hello", "tokens": [], "lang": "en"}))
                    while not self.run_.stop.is_set():
                        try:
                            m = json.loads(ws.recv(timeout=1))
                        except TimeoutError:
                            continue
                        if m.get("type") == "state" and m["version"] > self.version:
                            self.version = m["version"]
                            self.last_new = time.monotonic()
            except Exception:
                self.reconnects += 1
                self.at += 1
                time.sleep(0.1)


class Run:
    def __init__(self, tmp: Path, url: str, redis: OwnRedis, n: int, lease: float, rng: random.Random) -> None:
        self.tmp, self.url, self.redis, self.rng = tmp, url, redis, rng
        self.app = f"bl_faults_{secrets.token_hex(4)}"
        env = {"BOARDLAB_LEASE_SECONDS": str(lease), "BOARDLAB_BOT_DELAY": "0.02",
               "BOARDLAB_RATE_LIMIT": "100000/second", "BOARDLAB_BOT_WORKERS": "1"}
        db = f"{url}&application_name={self.app}"
        self.servers = [Server(db, tmp / f"server{i}.log", env=env, redis=redis.url) for i in range(n)]
        self.stop = threading.Event()
        self.tables: list[tuple[dict[str, Any], int, str]] = []  # (table, creator, kind)
        self.players: list[Player] = []
        self.spectators: list[Spectator] = []
        self.recover_s: dict[str, list[float]] = {f: [] for f in FAULTS}  # fault -> time until its tables moved
        self.clients_s: dict[str, list[float]] = {f: [] for f in FAULTS}
        self.never: list[str] = []
        self.problems: list[str] = []
        self.done: dict[str, int] = dict.fromkeys(FAULTS, 0)
        self.restarting: threading.Thread | None = None
        self.restart_failures: list[str] = []

    def setup(self) -> None:
        for srv in self.servers:
            srv.start(timeout=240)  # a busy shared machine: a start may take a minute
        for i, srv in enumerate(self.servers):
            with httpx.Client(base_url=srv.url, timeout=20) as c:
                for kind, seats in (("people", None), ("people", None),
                                    ("vs_bot", [{"kind": "human"}, {"kind": "bot", "bot": "greedy"}]),
                                    ("bots", [{"kind": "bot", "bot": "random"}, {"kind": "bot", "bot": "greedy"}])):
                    self.tables.append((make_table(c, seats, options=OPTS), i, kind))
        for j, (t, i, kind) in enumerate(self.tables):
            if kind != "bots":
                self.players.append(Player(self, t, i, self.rng.randrange(1 << 30)))
            self.spectators.append(Spectator(self, t["id"], i + 1 + j % (len(self.servers) - 1)))
        for th in self.players + self.spectators:
            th.start()

    def lengths(self) -> dict[str, int]:
        import psycopg

        dsn, _ = postgres_dsn()
        schema = self.url.split("search_path%3D")[1]
        with psycopg.connect(f"{dsn} options=-csearch_path={schema}") as c:
            rows = c.execute("SELECT table_id, count(*) FROM bl_log GROUP BY table_id").fetchall()
        return {r[0]: int(r[1]) for r in rows}

    def owners(self) -> dict[str, str]:
        import psycopg

        dsn, _ = postgres_dsn()
        schema = self.url.split("search_path%3D")[1]
        with psycopg.connect(f"{dsn} options=-csearch_path={schema}") as c:
            return {r[0]: r[1] for r in c.execute("SELECT table_id, owner FROM bl_leases").fetchall()}

    def _restart(self, srv: Server) -> None:
        """Start a killed process again, as a supervisor would (systemd's Restart=on-failure): a start that meets a
        dropped database connection (the next fault) exits, and is tried again."""
        for attempt in range(5):
            try:
                srv.start(timeout=240)
                return
            except Exception as e:
                self.restart_failures.append(f"start {attempt + 1} failed: {str(e)[-200:]!r}")

    def describe(self, tid: str) -> str:
        """What each process serves of a stuck table, and who holds its lease (for whoever reads a failure)."""
        kind = next(k for t, _, k in self.tables if t["id"] == tid)
        seen = []
        for i, srv in enumerate(self.servers):
            try:
                s = httpx.get(f"{srv.url}/api/tables/{tid}", timeout=5).json()
                seen.append(f"{i}: v{s['version']} cur {s['current']} thinking {s['thinking']}")
            except Exception as e:
                seen.append(f"{i}: {e!r}")
        return f"{kind}, log {self.lengths().get(tid)}, lease {self.owners().get(tid)}, served {'; '.join(seen)}"

    def fault(self, kind: str, recover: float) -> None:
        before = self.lengths()
        victim = self.rng.randrange(len(self.servers))
        watched = [t["id"] for t, _, _ in self.tables]  # every table must move again after any fault
        if kind == "kill":
            if self.restarting is not None:
                self.restarting.join()  # one of 4 processes: the last one killed is back first
            srv = self.servers[victim]
            me = httpx.get(srv.url + "/healthz", timeout=10).json()["process"]
            watched = [tid for tid, o in self.owners().items() if o == me] or watched
            t0 = time.monotonic()
            srv.kill()
        elif kind == "redis":
            t0 = time.monotonic()
            self.redis.stop()
            self.redis.start()
        else:
            import psycopg

            dsn, _ = postgres_dsn()
            t0 = time.monotonic()
            with psycopg.connect(dsn, autocommit=True) as c:
                n = c.execute("SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity "
                              "WHERE application_name = %s", (self.app,)).fetchone()
            if not n or not n[0]:
                self.problems.append("pg: no connection of this run to terminate")
        deadline = t0 + recover
        moved: dict[str, float] = {}
        while time.monotonic() < deadline and len(moved) < len(watched):
            now = self.lengths()
            for tid in watched:
                if tid not in moved and now.get(tid, 0) != before.get(tid, 0):
                    moved[tid] = time.monotonic() - t0
            time.sleep(0.05)
        for tid in watched:
            if tid not in moved:
                self.problems.append(f"{kind}: table {tid} did not move within {recover} s: {self.describe(tid)}")
        if moved:
            self.recover_s[kind].append(max(moved.values()))
        # every client (a player, a spectator) gets a new acknowledged move / a newer pushed state
        for c in self.players + self.spectators:
            stamp = (lambda c=c: c.last_ack) if isinstance(c, Player) else (lambda c=c: c.last_new)
            while stamp() < t0 and time.monotonic() < deadline:
                time.sleep(0.05)
            if stamp() < t0:
                who = c.table["id"] if isinstance(c, Player) else c.tid
                self.never.append(f"{kind}: {type(c).__name__} of table {who} did not recover within {recover} s: "
                                  f"{self.describe(who)}")
            else:
                self.clients_s[kind].append(stamp() - t0)
        if kind == "kill":  # started again while the next faults run (a start takes a minute on a busy machine)
            self.restarting = threading.Thread(target=self._restart, args=(self.servers[victim],))
            self.restarting.start()
        self.done[kind] += 1

    def check(self) -> dict[str, Any]:
        """Every acknowledged change is in the log; every log replays from its seed (no bot move twice)."""
        import psycopg

        dsn, _ = postgres_dsn()
        schema = self.url.split("search_path%3D")[1]
        game = get_game("tally")
        lost: list[str] = []
        replay_bad: list[str] = []
        # the acknowledgements as they stand before the log is read: a move acknowledged while the check reads (play
        # goes on during a run's "so far" checks) is in the log, but after the rows read here (it read as lost)
        acked = {id(p): list(p.acked) for p in self.players}
        with psycopg.connect(f"{dsn} options=-csearch_path={schema}") as c:
            for t, _, _ in self.tables:
                tid = t["id"]
                rows = c.execute("SELECT n, seat, kind, text FROM bl_log WHERE table_id = %s ORDER BY n",
                                 (tid,)).fetchall()
                trow = c.execute("SELECT seed, players, options FROM bl_tables WHERE id = %s", (tid,)).fetchone()
                state = game.new_game(trow[1], int(trow[0]), **json.loads(trow[2]))
                if [r[0] for r in rows] != list(range(len(rows))):
                    replay_bad.append(f"table {tid}: log has a hole")
                stack = [state]  # an undo row pops the action it undoes
                for r in rows:
                    if r[2] == "undo":
                        stack.pop()
                        continue
                    cur = stack[-1]
                    if cur.current_player != r[1]:
                        replay_bad.append(f"table {tid}: row {r[0]} by seat {r[1]}, seat {cur.current_player} to move")
                        break
                    nxt = cur.clone()
                    nxt.apply(game.parse_action(nxt, r[3]), r[1])
                    stack.append(nxt)
                stored = {r[0]: (r[1], r[2], r[3]) for r in rows}
                for p in self.players:
                    if p.table["id"] != tid:
                        continue
                    for n, seat, kind, action in acked[id(p)]:
                        got = stored.get(n)
                        if got is None or got[:2] != (seat, kind) or (kind == "act" and got[2] != action):
                            lost.append(f"table {tid}: acknowledged {kind} {action!r} of seat {seat} as row {n}; "
                                        f"the log has {got}")
        dup_logged = sum(srv.log_path.read_text(errors="replace").count(d) for srv in self.servers for d in DUPLICATE)
        tracebacks = sum(srv.log_path.read_text(errors="replace").count("Traceback") for srv in self.servers)
        self.wrong = lost + replay_bad
        refused: dict[str, int] = {}
        for p in self.players:
            for k, v in p.refused.items():
                refused[k] = refused.get(k, 0) + v
        return {
            "faults": self.done,
            "acknowledged": sum(len(p.acked) for p in self.players),
            "lost": len(lost), "duplicate_bot_moves": len(replay_bad),
            # a write by a process that had lost the table unknowingly (its renewals late), refused by the log's key
            "writes_refused_by_the_log_key": dup_logged // 2,  # (each is logged with two lines naming the key)
            "never_recovered": len(self.never),
            "tables_move_again_s": {k: _spread(v) for k, v in self.recover_s.items()},
            "clients_recover_s": {k: _spread(v) for k, v in self.clients_s.items()},
            "refused_answers": refused, "spectator_reconnects": sum(s.reconnects for s in self.spectators),
            "tracebacks_in_server_logs": tracebacks,
            "starts_that_failed_and_were_retried": len(self.restart_failures),
        }


def _spread(xs: list[float]) -> str:
    if not xs:
        return "-"
    xs = sorted(xs)
    return f"median {statistics.median(xs):.2f}, p90 {xs[int(0.9 * (len(xs) - 1))]:.2f}, max {xs[-1]:.2f}"


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--cycles", type=int, default=20, help="rounds of each fault")
    p.add_argument("--processes", type=int, default=4)
    p.add_argument("--lease", type=float, default=1.5, help="BOARDLAB_LEASE_SECONDS of the servers")
    p.add_argument("--recover", type=float, default=30.0, help="seconds a table or client may take to recover")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--only", choices=FAULTS, action="append", help="only these faults (default: all three)")
    a = p.parse_args()
    rng = random.Random(a.seed)
    print(f"{time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}, {os.cpu_count()} cores, "
          f"load average {os.getloadavg()[0]:.2f}", flush=True)
    kinds = a.only or list(FAULTS)
    with tempfile.TemporaryDirectory(prefix="cluster-faults-") as d, pg_schema() as url:
        redis = OwnRedis(Path(d))
        redis.start()
        run = Run(Path(d), url, redis, a.processes, a.lease, rng)
        try:
            run.setup()
            time.sleep(2)  # the load under way
            shown = 0
            for i in range(a.cycles):
                for kind in kinds:
                    run.fault(kind, a.recover)
                print(f"round {i + 1}/{a.cycles}: never recovered {len(run.never)}, problems {len(run.problems)}, "
                      f"load average {os.getloadavg()[0]:.2f}", flush=True)
                for line in (run.never + run.problems)[shown:]:
                    print("  ", line, flush=True)
                shown = len(run.never) + len(run.problems)
                print("   so far:", json.dumps(run.check()), flush=True)  # what an interrupted run still reports
            if run.restarting is not None:
                run.restarting.join()
            run.stop.set()
            for th in run.players + run.spectators:
                th.join(15)
            figures = run.check()
            run.problems += run.wrong
        finally:
            run.stop.set()
            for srv in run.servers:
                srv.stop()
            redis.stop()
            for i, srv in enumerate(run.servers):
                kept = Path(tempfile.gettempdir()) / f"cluster-faults-server{i}.log"
                kept.write_bytes(srv.log_path.read_bytes())
    print(json.dumps(figures, indent=1))
    print(f"load average at the end {os.getloadavg()[0]:.2f}; server logs kept in "
          f"{tempfile.gettempdir()}/cluster-faults-server*.log")
    for line in run.never + run.problems:
        print("WRONG:", line)
    return 1 if run.never or run.problems or figures["lost"] or figures["duplicate_bot_moves"] else 0


if __name__ == "__main__":
    sys.exit(main())
