"""Fixtures for the server tests: a real server process per backend (see srvkit.py).

Every test that takes `server` runs twice: on SQLite and on PostgreSQL (marker `postgres`,
skipped with the reason when no PostgreSQL answers at 127.0.0.1:5432).
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

from srvkit import Server, db_url_for


@pytest.fixture(scope="session", params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def backend(request: pytest.FixtureRequest) -> str:
    return str(request.param)


@pytest.fixture(scope="session")
def server(backend: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    tmp = tmp_path_factory.mktemp(f"server-{backend}")
    with db_url_for(backend, tmp) as url:
        srv = Server(url, tmp / "server.log").start()
        try:
            yield srv
        finally:
            srv.stop()


@pytest.fixture
def client(server: Server) -> Iterator[httpx.Client]:
    with httpx.Client(base_url=server.url, timeout=20) as c:
        yield c
