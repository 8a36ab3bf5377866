"""SIGKILL the server in the middle of games, start it again: no game and no acknowledged move lost."""

from __future__ import annotations

import random
import threading
import time
from pathlib import Path
from typing import Any

import httpx
import pytest
from srvkit import Server, auth, db_url_for, make_table, wait_for


def _player(
    url: str, table: dict[str, Any], acked: list[tuple[int, int, str]], stop: threading.Event
) -> None:
    """Plays random moves for both seats over HTTP, recording each acknowledged (200) move."""
    toks = [s["token"] for s in table["seats"]]
    rng = random.Random(table["id"])
    with httpx.Client(base_url=url, timeout=5) as c:
        while not stop.is_set():
            try:
                s = c.get(f"/api/tables/{table['id']}", headers=auth(toks[0])).json()
                me = s["current"]
                s = c.get(f"/api/tables/{table['id']}", headers=auth(toks[me])).json()
                legal = [m["action"] for m in s["legal"] if not m["action"].startswith(("play", "draw"))]
                a = rng.choice(legal)
                r = c.post(
                    f"/api/tables/{table['id']}/actions",
                    headers=auth(toks[me]),
                    json={"move": s["version"], "action": a},
                )
            except (httpx.HTTPError, ValueError, KeyError):
                return  # the server died under us: this move was not acknowledged
            if r.status_code == 200:
                acked.append((s["version"], me, a))


@pytest.mark.slow
def test_sigkill_loses_no_acknowledged_move(backend: str, tmp_path: Path) -> None:
    with db_url_for(backend, tmp_path) as url:
        srv = Server(url, tmp_path / "server.log").start()
        try:
            with httpx.Client(base_url=srv.url) as c:
                tables = [make_table(c, options={"target": 10_000}) for _ in range(6)]
                bot_table = make_table(
                    c, seats=[{"kind": "bot", "bot": "random"}] * 2, options={"target": 10_000}
                )
            acked: dict[str, list[tuple[int, int, str]]] = {t["id"]: [] for t in tables}
            stop = threading.Event()
            threads = [
                threading.Thread(target=_player, args=(srv.url, t, acked[t["id"]], stop)) for t in tables
            ]
            for th in threads:
                th.start()
            # at least 2 s of traffic and more than 50 acknowledged moves (a loaded machine is slower), then kill
            start = time.monotonic()
            wait_for(lambda: time.monotonic() - start >= 2.0 and sum(len(v) for v in acked.values()) > 50,
                     "more than 50 acknowledged moves", timeout=60)
            srv.kill()  # mid-traffic: requests are in flight right now
            stop.set()
            for th in threads:
                th.join(10)
            assert sum(len(v) for v in acked.values()) > 50, "too little traffic to mean anything"
            srv.start()
            with httpx.Client(base_url=srv.url, timeout=10) as c:
                for t in tables:
                    toks = [s["token"] for s in t["seats"]]
                    logs = [
                        c.get(f"/api/tables/{t['id']}/log", headers=auth(tok)).json()["log"] for tok in toks
                    ]
                    state = c.get(f"/api/tables/{t['id']}", headers=auth(toks[0])).json()
                    mine = acked[t["id"]]
                    assert len(mine) <= state["version"] <= len(mine) + 1  # at most the one in flight
                    for n, seat, action in mine:
                        assert logs[seat][n]["action"] == action and logs[seat][n]["seat"] == seat
                    # and the game goes on
                    me = state["current"]
                    r = c.post(
                        f"/api/tables/{t['id']}/actions",
                        headers=auth(toks[me]),
                        json={"move": state["version"], "action": "end"},
                    )
                    assert r.status_code == 200, r.text
                # the all-bot table is resumed by the restarted server
                v0 = c.get(f"/api/tables/{bot_table['id']}").json()["version"]
                deadline = time.monotonic() + 10
                while c.get(f"/api/tables/{bot_table['id']}").json()["version"] <= v0 + 5:
                    assert time.monotonic() < deadline, "bots did not resume after the restart"
                    time.sleep(0.1)
        finally:
            srv.stop()


def _descendants(pid: int) -> set[int]:
    """Every live process below `pid`, read from /proc."""
    children: dict[int, list[int]] = {}
    for d in Path("/proc").iterdir():
        if d.name.isdigit():
            try:
                ppid = int((d / "stat").read_text().rsplit(")", 1)[1].split()[1])
            except (OSError, ValueError, IndexError):
                continue
            children.setdefault(ppid, []).append(int(d.name))
    out: set[int] = set()
    todo = [pid]
    while todo:
        for child in children.get(todo.pop(), []):
            out.add(child)
            todo.append(child)
    return out


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (OSError, IndexError):
        return False
    return state != "Z"


def test_bot_workers_end_with_a_killed_server(tmp_path: Path) -> None:
    """SIGKILL the server while its bots play: the bot worker processes (and the pool's resource tracker)
    end too, within seconds, instead of idling on for hours (the workers watch their parent)."""
    srv = Server(f"sqlite:///{tmp_path / 'b.db'}", tmp_path / "server.log",
                 {"BOARDLAB_BOT_EXECUTOR": "process", "BOARDLAB_BOT_WORKERS": "2"}).start()
    assert srv.proc is not None
    try:
        with httpx.Client(base_url=srv.url, timeout=10) as c:
            t = make_table(c, seats=[{"kind": "bot", "bot": "greedy"}] * 2, options={"target": 10**5})
            deadline = time.monotonic() + 30
            while len(_descendants(srv.proc.pid)) < 2 and time.monotonic() < deadline:
                c.get(f"/api/tables/{t['id']}")
                time.sleep(0.2)
        below = _descendants(srv.proc.pid)
        assert len(below) >= 2, "the bots never started a worker process"
    finally:
        srv.kill()
    deadline = time.monotonic() + 15
    while any(_alive(p) for p in below) and time.monotonic() < deadline:
        time.sleep(0.2)
    assert not [p for p in below if _alive(p)], "bot workers outlived the killed server"
