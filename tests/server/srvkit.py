"""Helpers that run the server as a real process (uvicorn on a free 127.0.0.1 port).

Every test that takes `server` runs twice: on SQLite (a file in a temporary directory) and on
PostgreSQL (marker `postgres`; a schema of its own per test run, dropped at the end). When no
PostgreSQL answers at 127.0.0.1:5432 the PostgreSQL half is skipped with the reason.
"""

from __future__ import annotations

import contextlib
import os
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
sys.path.insert(0, str(HERE))

import toygame  # noqa: E402,F401  (the test game, registered in this process too)

PG_USERS = ("postgres", "root")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def postgres_dsn() -> tuple[str | None, str]:
    """A working libpq DSN for the test database, or None and why not."""
    try:
        import psycopg
    except ImportError:
        return None, "psycopg is not installed"
    err = ""
    for user in PG_USERS:
        dsn = f"host=127.0.0.1 port=5432 dbname=test user={user}"
        try:
            with psycopg.connect(dsn, connect_timeout=3):
                return dsn, ""
        except Exception as e:
            err = str(e).strip().splitlines()[0] if str(e).strip() else type(e).__name__
    return None, f"no PostgreSQL at 127.0.0.1:5432 (database test): {err}"


@contextlib.contextmanager
def pg_schema() -> Iterator[str]:
    """A fresh schema for this run; yields the server URL that uses it; drops it afterwards."""
    import psycopg

    dsn, why = postgres_dsn()
    if dsn is None:
        pytest.skip(f"PostgreSQL tests skipped: {why}")
    user = dsn.split("user=")[1]
    schema = f"bl_test_{secrets.token_hex(6)}"
    with psycopg.connect(dsn, autocommit=True) as c:
        c.execute(f'CREATE SCHEMA "{schema}"')
    try:
        yield f"postgresql://{user}@127.0.0.1:5432/test?options=-csearch_path%3D{schema}"
    finally:
        with psycopg.connect(dsn, autocommit=True) as c:
            c.execute(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE')


class PortTaken(RuntimeError):
    """The server found its port taken (by another test worker's server) and exited."""


class Server:
    """A server subprocess: start, wait until it answers, stop, or SIGKILL it."""

    def __init__(
        self, db_url: str, log_path: Path, env: dict[str, str] | None = None, redis: str | None = None
    ) -> None:
        self.db_url = db_url
        self.redis = redis  # one of several processes on db_url (`--redis`, server/cluster.py)
        self.log_path = log_path
        self.extra_env = env or {}
        self.port = 0
        self.proc: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def ws_url(self) -> str:
        return f"ws://127.0.0.1:{self.port}"

    def start(self, timeout: float = 40, tries: int = 3) -> Server:
        """Start on a free port. Parallel test workers pick ports independently, so another worker's server
        can take the port between `free_port` and the bind: the server then exits saying so, and we retry."""
        for _ in range(tries - 1):
            try:
                return self._start(timeout)
            except PortTaken:
                continue
        return self._start(timeout)

    def _start(self, timeout: float) -> Server:
        self.port = free_port()
        size = self.log_path.stat().st_size if self.log_path.exists() else 0
        env = {
            **os.environ,
            "BOARDLAB_BOT_SECONDS": "0.2",
            "BOARDLAB_ABSENT_GRACE": "1",
            "PYTHONUNBUFFERED": "1",
            **self.extra_env,
        }
        env.pop("BOARDLAB_DATABASE_URL", None)
        log = open(self.log_path, "ab")  # noqa: SIM115
        self.proc = subprocess.Popen(
            [sys.executable, str(HERE / "launch.py"), "--port", str(self.port), "--db", self.db_url]
            + (["--redis", self.redis] if self.redis else []),
            cwd=ROOT,
            env=env,
            stdout=log,
            stderr=subprocess.STDOUT,
        )
        log.close()
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                if "is already in use" in self.log_path.read_text(errors="replace")[size:]:
                    raise PortTaken(self.port)
                raise RuntimeError(
                    f"server exited ({self.proc.returncode}): {self.log_path.read_text()[-3000:]}"
                )
            with contextlib.suppress(httpx.HTTPError):
                if httpx.get(self.url + "/healthz", timeout=1).status_code == 200:
                    return self
            time.sleep(0.1)
        self.stop()
        raise RuntimeError(f"server did not start: {self.log_path.read_text()[-3000:]}")

    def stop(self) -> None:
        if self.proc and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(5)

    def kill(self) -> None:
        """SIGKILL: no shutdown code runs, like a crash or a power cut of the process."""
        assert self.proc is not None
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait(10)


@contextlib.contextmanager
def db_url_for(backend: str, tmp: Path) -> Iterator[str]:
    if backend == "sqlite":
        yield f"sqlite:///{tmp / 'boardlab.sqlite3'}"
    else:
        with pg_schema() as url:
            yield url


@contextlib.contextmanager
def serving(backend: str, tmp: Path, env: dict[str, str] | None = None) -> Iterator[Server]:
    """A started server on `backend` ("sqlite" or "postgres", a database of its own under `tmp`), stopped after."""
    with db_url_for(backend, tmp) as url:
        srv = Server(url, tmp / "server.log", env=env).start()
        try:
            yield srv
        finally:
            srv.stop()


REDIS_URL = "redis://127.0.0.1:6379/0"


def redis_or_skip() -> str:
    """The test Redis (as on CI), or skip saying why. Tests share it safely: a cluster's messages go to a channel
    named after its site (a hash of the site secret), so two tests' clusters on two schemas never hear each other."""
    try:
        import redis
    except ImportError:
        pytest.skip("cluster tests skipped: the redis package is not installed (pip install -e '.[scale]')")
    try:
        redis.Redis.from_url(REDIS_URL, socket_connect_timeout=3).ping()
    except Exception as e:
        pytest.skip(f"cluster tests skipped: no Redis at {REDIS_URL}: {e}")
    return REDIS_URL


@contextlib.contextmanager
def cluster(tmp: Path, n: int = 2, env: dict[str, str] | None = None) -> Iterator[list[Server]]:
    """`n` server processes on one PostgreSQL schema of their own and one Redis (a cluster: docs/server.md, "Many
    processes"), started one after the other, stopped after."""
    with pg_schema() as url:
        redis = redis_or_skip()
        servers: list[Server] = []
        try:
            for i in range(n):
                # a start migrates or checks the schema and imports everything: on a busy shared machine over 40 s
                servers.append(Server(url, tmp / f"server{i}.log", env=env, redis=redis).start(timeout=120))
            yield servers
        finally:
            for srv in servers:
                srv.stop()


class OwnRedis:
    """A redis-server of this run only, on a free port, that can be restarted (no persistence: a restart loses
    every message, as a crash would)."""

    def __init__(self, tmp: Path) -> None:
        self.port = free_port()
        self.tmp = tmp
        self.proc: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> None:
        import redis

        if shutil.which("redis-server") is None:
            pytest.skip("no redis-server on this machine to start a Redis of this test's own")
        self.proc = subprocess.Popen(
            ["redis-server", "--port", str(self.port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no",
             "--dir", str(self.tmp)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        deadline = time.monotonic() + 20
        while True:
            try:
                redis.Redis(port=self.port, socket_connect_timeout=1).ping()
                return
            except Exception:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.05)

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            self.proc.wait(10)


def wait_for(pred: Callable[[], Any], what: str, timeout: float = 30) -> Any:
    """Poll `pred` until it gives something true (returned); fail naming `what` after `timeout` seconds. Tests wait
    on the server's state this way, never on a fixed sleep."""
    deadline = time.monotonic() + timeout
    while True:
        got = pred()
        if got:
            return got
        assert time.monotonic() < deadline, f"timed out waiting for {what}"
        time.sleep(0.05)


def auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def make_table(
    c: httpx.Client,
    seats: list[dict[str, Any]] | None = None,
    players: int = 2,
    game: str = "tally",
    **kw: Any,
) -> dict[str, Any]:
    seats = seats or [{"kind": "human"}] * players
    r = c.post("/api/tables", json={"game": game, "players": players, "seats": seats, **kw})
    assert r.status_code == 201, r.text
    return dict(r.json())
