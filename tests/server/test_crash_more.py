"""SIGKILL the server while people play against bots and take moves back, start it again: every
acknowledged action and undo is in the log, bots resume, every game can go on (issue #11, "Done means").

The first crash test (test_crash.py) plays human tables over HTTP; this one adds tables where bots
(random and greedy, in the process pool) answer, and players who undo."""

from __future__ import annotations

import random
import threading
import time
from pathlib import Path
from typing import Any

import httpx
import pytest
import sqlalchemy as sa
from srvkit import Server, auth, db_url_for, make_table

from boardlab.server.db import log_t, make_engine

Acked = list[tuple[int, int, str, str]]  # (log n, seat, kind, action or "")


def _player(url: str, table: dict[str, Any], acked: Acked, stop: threading.Event, seed: int) -> None:
    """Plays every human seat of `table`: random legal moves (never a draw) and, one time in four when
    allowed, an undo. Records what the server acknowledged (200)."""
    toks = {s["seat"]: s["token"] for s in table["seats"] if s["token"]}
    rng = random.Random(seed)
    with httpx.Client(base_url=url, timeout=5) as c:
        while not stop.is_set():
            try:
                any_tok = next(iter(toks.values()))
                s = c.get(f"/api/tables/{table['id']}", headers=auth(any_tok)).json()
                me = s["current"]
                if s["over"]:
                    return
                if me not in toks:  # a bot is thinking
                    time.sleep(0.01)
                    continue
                s = c.get(f"/api/tables/{table['id']}", headers=auth(toks[me])).json()
                v = s["version"]
                if s["can_undo"] and rng.random() < 0.25:
                    r = c.post(f"/api/tables/{table['id']}/undo", headers=auth(toks[me]), json={"move": v})
                    if r.status_code == 200:
                        acked.append((v, me, "undo", ""))
                    continue
                legal = [m["action"] for m in s["legal"] if m["action"] != "draw"]
                a = rng.choice(legal)
                r = c.post(f"/api/tables/{table['id']}/actions", headers=auth(toks[me]), json={"move": v, "action": a})
            except (httpx.HTTPError, ValueError, KeyError, StopIteration):
                return  # the server died under us: this one was not acknowledged
            if r.status_code == 200:
                acked.append((v, me, "act", a))


def _log_rows(url: str, tid: str) -> dict[int, tuple[int, str, str]]:
    engine = make_engine(url)
    try:
        with engine.connect() as c:
            q = sa.select(log_t.c.n, log_t.c.seat, log_t.c.kind, log_t.c.text).where(log_t.c.table_id == tid)
            return {r.n: (r.seat, r.kind, r.text) for r in c.execute(q)}
    finally:
        engine.dispose()


@pytest.mark.slow
def test_sigkill_with_bots_and_undos(backend: str, tmp_path: Path) -> None:
    with db_url_for(backend, tmp_path) as url:
        srv = Server(url, tmp_path / "server.log", env={"BOARDLAB_RATE_LIMIT": "100000/second"}).start()
        try:
            opts = {"target": 10_000}
            with httpx.Client(base_url=srv.url, timeout=10) as c:
                humans = [make_table(c, options=opts) for _ in range(3)]
                vs_bots = [
                    make_table(c, seats=[{"kind": "human"}, {"kind": "bot", "bot": kind}], options=opts)
                    for kind in ("random", "greedy", "greedy")
                ]
                all_bots = [
                    make_table(c, seats=[{"kind": "bot", "bot": a}, {"kind": "bot", "bot": b}], options=opts)
                    for a, b in (("random", "random"), ("greedy", "random"))
                ]
            played = humans + vs_bots
            acked: dict[str, Acked] = {t["id"]: [] for t in played}
            stop = threading.Event()
            threads = [
                threading.Thread(target=_player, args=(srv.url, t, acked[t["id"]], stop, i))
                for i, t in enumerate(played)
            ]
            for th in threads:
                th.start()
            time.sleep(3.0)
            srv.kill()  # mid-traffic: moves, undos and bot moves are in flight right now
            stop.set()
            for th in threads:
                th.join(10)
            undos = sum(1 for v in acked.values() for a in v if a[2] == "undo")
            assert sum(len(v) for v in acked.values()) > 40 and undos >= 3, acked
            for t in played:
                rows = _log_rows(url, t["id"])
                for n, seat, kind, action in acked[t["id"]]:
                    assert n in rows, f"acknowledged {kind} #{n} of {t['id']} is not in the log"
                    assert rows[n][:2] == (seat, kind) and (kind == "undo" or rows[n][2] == action)
                assert sorted(rows) == list(range(len(rows)))  # no hole in the log
            srv.start()
            with httpx.Client(base_url=srv.url, timeout=10) as c:
                for t in played:  # the games go on, from the position the log gives
                    rows = _log_rows(url, t["id"])
                    toks = {x["seat"]: x["token"] for x in t["seats"] if x["token"]}
                    deadline = time.monotonic() + 15
                    while True:
                        s = c.get(f"/api/tables/{t['id']}", headers=auth(toks[0])).json()
                        if s["current"] in toks:
                            break
                        assert time.monotonic() < deadline, "the bot did not answer after the restart"
                        time.sleep(0.05)
                    tok = toks[s["current"]]
                    assert s["version"] >= len(rows)
                    r = c.post(
                        f"/api/tables/{t['id']}/actions",
                        headers=auth(tok),
                        json={"move": s["version"], "action": "end"},
                    )
                    assert r.status_code == 200, r.text
                for t in all_bots:  # the all-bot tables resume by themselves
                    v0 = c.get(f"/api/tables/{t['id']}").json()["version"]
                    deadline = time.monotonic() + 20
                    while c.get(f"/api/tables/{t['id']}").json()["version"] <= v0 + 3:
                        assert time.monotonic() < deadline, "bots did not resume after the restart"
                        time.sleep(0.1)
        finally:
            srv.stop()
