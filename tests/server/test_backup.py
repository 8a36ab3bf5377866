"""Damaged databases are refused at start-up; `boardlab backup` of a live server restores and its games
finish (issue #11, item 9). Real server processes and the real CLI."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest
from srvkit import ROOT, Server, auth, make_table

CLI = [sys.executable, "-c", "from boardlab.cli import app; app()"]


def _cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([*CLI, *args], cwd=ROOT, capture_output=True, text=True, timeout=120)


def _start_fails(db: Path, log: Path) -> str:
    with pytest.raises(RuntimeError) as e:
        Server(f"sqlite:///{db}", log).start(timeout=30)
    return str(e.value)


def _play(c: httpx.Client, t: dict, moves: int) -> None:
    toks = [s["token"] for s in t["seats"]]
    for _ in range(moves):
        s = c.get(f"/api/tables/{t['id']}", headers=auth(toks[0])).json()
        if s["over"]:
            return
        me = s["current"]
        action = (
            "add2"
            if any(
                m["action"] == "add2" for m in c.get(f"/api/tables/{t['id']}", headers=auth(toks[me])).json()["legal"]
            )
            else "end"
        )
        r = c.post(
            f"/api/tables/{t['id']}/actions", headers=auth(toks[me]), json={"move": s["version"], "action": action}
        )
        assert r.status_code == 200, r.text


def test_zero_length_file_is_refused(tmp_path: Path) -> None:
    db = tmp_path / "empty.sqlite3"
    db.touch()
    msg = _start_fails(db, tmp_path / "server.log")
    assert "is damaged" in msg and "empty (0 bytes)" in msg and "boardlab restore" in msg
    assert db.stat().st_size == 0  # nothing was written into it


def test_overwritten_pages_are_refused_and_a_backup_restores(tmp_path: Path) -> None:
    db = tmp_path / "boardlab.sqlite3"
    srv = Server(f"sqlite:///{db}", tmp_path / "server.log", env={"BOARDLAB_RATE_CREATE": "1000/second"}).start()
    try:
        with httpx.Client(base_url=srv.url, timeout=20) as c:
            tables = [make_table(c, options={"target": 30}) for _ in range(20)]
            bots = make_table(c, seats=[{"kind": "bot", "bot": "random"}] * 2, options={"target": 10**5})
            for t in tables:
                _play(c, t, 6)
            # backup while the server is live (and its bots keep writing)
            r = _cli("backup", str(tmp_path / "snap.sqlite3"), "--db", f"sqlite:///{db}")
            assert r.returncode == 0, r.stdout + r.stderr
            assert "backed up 21 tables" in r.stdout
            versions = {t["id"]: c.get(f"/api/tables/{t['id']}").json()["version"] for t in tables}
            bot_v = c.get(f"/api/tables/{bots['id']}").json()["version"]
            assert bot_v > 0
    finally:
        srv.stop()
    # damage: 4 KiB of noise in the middle of the file
    size = db.stat().st_size
    assert size > 64 * 1024, size
    with open(db, "r+b") as f:
        f.seek((size // 2) // 4096 * 4096)
        f.write(os.urandom(4096))
    msg = _start_fails(db, tmp_path / "server2.log")
    assert "is damaged" in msg and "boardlab restore" in msg
    # a damaged file is no backup either
    r = _cli("restore", str(db), "--db", f"sqlite:///{tmp_path / 'other.sqlite3'}")
    assert r.returncode == 2 and "not a sound backup" in r.stdout
    # restore the live backup and finish every game
    r = _cli("restore", str(tmp_path / "snap.sqlite3"), "--db", f"sqlite:///{db}")
    assert r.returncode == 0, r.stdout + r.stderr
    assert "restored 21 tables" in r.stdout
    assert list(tmp_path.glob("boardlab.sqlite3.damaged-1*"))  # the damaged file is kept aside
    srv = Server(f"sqlite:///{db}", tmp_path / "server3.log").start()
    try:
        with httpx.Client(base_url=srv.url, timeout=20) as c:
            for t in tables:
                s = c.get(f"/api/tables/{t['id']}").json()
                assert s["version"] == versions[t["id"]]  # the backup held every move made before it
                _play(c, t, 200)
                assert c.get(f"/api/tables/{t['id']}").json()["over"]
            v0 = c.get(f"/api/tables/{bots['id']}").json()["version"]
            deadline = time.monotonic() + 10
            while c.get(f"/api/tables/{bots['id']}").json()["version"] <= v0 + 5:  # the bots resume
                assert time.monotonic() < deadline
                time.sleep(0.1)
    finally:
        srv.stop()


def test_postgres_backup_points_to_pg_dump(tmp_path: Path) -> None:
    r = _cli("backup", str(tmp_path / "x"), "--db", "postgresql://u@127.0.0.1/db")
    assert r.returncode == 2 and "pg_dump" in r.stdout
