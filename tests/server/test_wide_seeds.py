"""128-bit table seeds (issue #11): new tables store a wide seed that survives a restart and is never
sent to anyone; migration 0003 turns the BIGINT seed column into decimal text with old rows intact (and
only downgrades while every seed fits a BIGINT). SQLite and PostgreSQL (marker `postgres`)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx
import pytest
import sqlalchemy as sa
from alembic import command
from alembic.autogenerate import compare_metadata
from alembic.config import Config
from alembic.migration import MigrationContext
from sqlalchemy.engine import Engine
from srvkit import Server, auth, db_url_for, make_table

from boardlab.core import get_game
from boardlab.server.db import make_engine, metadata, migrate
from boardlab.server.tokens import hash_token

MIGRATIONS = Path(__file__).resolve().parents[2] / "src" / "boardlab" / "server" / "migrations"
OLD_SEED = 2**63 - 1  # the widest seed the BIGINT column held


@contextmanager
def engine_for(backend: str, tmp: Path) -> Iterator[tuple[str, Engine]]:
    with db_url_for(backend, tmp) as url:
        engine = make_engine(url)
        try:
            yield url, engine
        finally:
            engine.dispose()


def alembic_to(engine: Engine, revision: str, down: bool = False) -> None:
    """db.migrate, to a chosen revision (or down to it)."""
    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS))
    with engine.begin() as conn:
        cfg.attributes["connection"] = conn
        (command.downgrade if down else command.upgrade)(cfg, revision)


def stored_seed(engine: Engine, tid: str) -> Any:
    with engine.connect() as conn:
        return conn.execute(sa.text("SELECT seed FROM bl_tables WHERE id = :id"), {"id": tid}).scalar_one()


def insert_table(engine: Engine, tid: str, seed: int | str, token: str, log: list[str]) -> None:
    """A tally table as the server writes one: 2 human seats, a log of seat 0's moves."""
    with engine.begin() as conn:
        conn.execute(
            sa.text(
                "INSERT INTO bl_tables (id, game, players, seed, options, public, status, rematch_of, rematch_id,"
                " created_at, updated_at) VALUES (:id, 'tally', 2, :seed, '{}', :pub, 'playing', NULL, NULL, 1, 1)"
            ),
            {"id": tid, "seed": seed, "pub": False},
        )
        for seat in (0, 1):
            conn.execute(
                sa.text("INSERT INTO bl_seats (table_id, seat, kind, bot, name, token_hash)"
                        " VALUES (:id, :seat, 'human', NULL, :name, :hash)"),
                {"id": tid, "seat": seat, "name": f"#{seat + 1}", "hash": hash_token(token) if seat == 0 else None},
            )
        for n, text in enumerate(log):
            conn.execute(
                sa.text("INSERT INTO bl_log (table_id, n, seat, kind, text, created_at)"
                        " VALUES (:id, :n, 0, 'act', :text, 1)"),
                {"id": tid, "n": n, "text": text},
            )


def jsonable(x: Any) -> Any:
    return json.loads(json.dumps(x))


def test_tables_get_wide_seeds_that_survive_a_restart_and_stay_secret(backend: str, tmp_path: Path) -> None:
    """The stored seed is >= 2**64 (129 bits: 128 secret ones over a marker), is the deal's seed (the hand
    the API shows is the one `new_game` deals from it), and after a restart the same game goes on. No
    response, even of the finished game and its replay, holds the seed."""
    with engine_for(backend, tmp_path) as (url, engine):
        srv = Server(url, tmp_path / "server.log").start()
        try:
            with httpx.Client(base_url=srv.url, timeout=20) as c:
                tables = [make_table(c, options={"target": 3}) for _ in range(3)]
                before = {t["id"]: c.get(f"/api/tables/{t['id']}", headers=auth(t["seats"][0]["token"])).json()
                          for t in tables}
            seeds = {t["id"]: stored_seed(engine, t["id"]) for t in tables}
            for tid, seed in seeds.items():
                assert isinstance(seed, str) and int(seed) >= 2**64 and int(seed).bit_length() == 129
                dealt = get_game("tally").new_game(2, int(seed), target=3)
                assert before[tid]["view"]["hand"] == dealt.view(0)["hand"]
            assert len(set(seeds.values())) == 3
            srv.stop()
            srv.start()
            texts: list[str] = []
            with httpx.Client(base_url=srv.url, timeout=20) as c:
                t = tables[0]
                tid, tok = t["id"], t["seats"][0]["token"]
                after = c.get(f"/api/tables/{tid}", headers=auth(tok)).json()
                assert after["view"] == before[tid]["view"]
                for move, action in ((0, "add2"), (1, "add1")):
                    r = c.post(f"/api/tables/{tid}/actions", headers=auth(tok), json={"move": move, "action": action})
                    assert r.status_code == 200, r.text
                for path in (f"/api/tables/{tid}", f"/api/tables/{tid}/log", f"/api/tables/{tid}/replay?step=1"):
                    for headers in (auth(tok), {}):
                        r = c.get(path, headers=headers)
                        assert r.status_code == 200, r.text
                        texts.append(r.text)
                assert json.loads(texts[0])["over"] is True
                texts.append(c.get("/api/tables").text)
            assert stored_seed(engine, tid) == seeds[tid]
            seed = int(seeds[tid])
            for text in texts:
                for form in (str(seed), f"{seed:x}", f"{seed:X}", str(seed & (2**64 - 1))):
                    assert form not in text
                assert '"seed"' not in text
        finally:
            srv.stop()


def test_migration_0003_keeps_old_seeds(backend: str, tmp_path: Path) -> None:
    """A database at 0002 with a 63-bit seed and a game in progress: after the start-up migration the seed
    reads back as the same number, the schema matches the models, and a real server resumes the game
    from it exactly (same deal, same move)."""
    token = "old-seat-token"
    with engine_for(backend, tmp_path) as (url, engine):
        alembic_to(engine, "0002")
        insert_table(engine, "oldtable", OLD_SEED, token, ["add1"])
        insert_table(engine, "small", 12345, token, [])
        migrate(engine)
        migrate(engine)  # idempotent
        assert stored_seed(engine, "oldtable") == str(OLD_SEED) and stored_seed(engine, "small") == "12345"
        with engine.connect() as conn:
            assert compare_metadata(MigrationContext.configure(conn), metadata) == []
            assert conn.execute(sa.text("SELECT count(*) FROM bl_log WHERE table_id = 'oldtable'")).scalar_one() == 1
            if backend == "sqlite":
                assert conn.execute(sa.text("PRAGMA foreign_key_check")).all() == []
        want = get_game("tally").replay(2, OLD_SEED, ["add1"])
        srv = Server(url, tmp_path / "server.log").start()
        try:
            with httpx.Client(base_url=srv.url, timeout=20) as c:
                s = c.get("/api/tables/oldtable", headers=auth(token)).json()
                assert s["version"] == 1 and s["view"] == jsonable(want.view(0))
                r = c.post("/api/tables/oldtable/actions", headers=auth(token), json={"move": 1, "action": "draw"})
                assert r.status_code == 200, r.text
                want.apply_text("draw", 0)
                assert r.json()["view"] == jsonable(want.view(0))
                new = make_table(c)
            assert int(stored_seed(engine, new["id"])) >= 2**64
        finally:
            srv.stop()


def test_migration_0003_downgrades_only_narrow_seeds(backend: str, tmp_path: Path) -> None:
    """Down to 0002 works (seeds are BIGINTs again) while no seed is wider; with a wide seed it refuses
    and changes nothing."""
    with engine_for(backend, tmp_path) as (_url, engine):
        migrate(engine)
        insert_table(engine, "old", str(OLD_SEED), "t", [])
        alembic_to(engine, "0002", down=True)
        assert stored_seed(engine, "old") == OLD_SEED
        migrate(engine)
        insert_table(engine, "wide", str(2**128 + 5), "t", [])
        with pytest.raises(RuntimeError, match="wider than a BIGINT"):
            alembic_to(engine, "0002", down=True)
        assert stored_seed(engine, "wide") == str(2**128 + 5) and stored_seed(engine, "old") == str(OLD_SEED)
