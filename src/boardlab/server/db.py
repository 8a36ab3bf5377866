"""Persistence schema and engine set-up: one code path for SQLite (default) and PostgreSQL.

A table is stored as its configuration, its seed and an append-only numbered log of records
(actions and undos); the live state is never stored, it is rebuilt by replay. The schema is
owned by the Alembic migrations shipped in `migrations/`, run at every start-up.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Engine

from .dbmeta import metadata

tables_t = sa.Table(
    "bl_tables",
    metadata,
    sa.Column("id", sa.String(32), primary_key=True),
    sa.Column("game", sa.String(64), nullable=False),
    sa.Column("players", sa.Integer, nullable=False),
    sa.Column("seed", sa.String(64), nullable=False),  # decimal: 128-bit seeds overflow BIGINT (migration 0003)
    sa.Column("options", sa.Text, nullable=False),
    sa.Column("public", sa.Boolean, nullable=False),
    sa.Column("status", sa.String(16), nullable=False),
    sa.Column("rematch_of", sa.String(32), nullable=True),
    sa.Column("rematch_id", sa.String(32), nullable=True),
    sa.Column("created_at", sa.Float, nullable=False),
    sa.Column("updated_at", sa.Float, nullable=False),
    # "tutorial": a guided first game (core/tutorial.py: the game's script, then free play); NULL: a normal table (0006)
    sa.Column("mode", sa.String(16), nullable=True),
    sa.Index("ix_bl_tables_status", "status", "public"),
)

seats_t = sa.Table(
    "bl_seats",
    metadata,
    sa.Column("table_id", sa.String(32), sa.ForeignKey("bl_tables.id"), primary_key=True),
    sa.Column("seat", sa.Integer, primary_key=True, autoincrement=False),
    sa.Column("kind", sa.String(8), nullable=False),
    sa.Column("bot", sa.String(16), nullable=True),
    sa.Column("name", sa.String(64), nullable=False),
    sa.Column("token_hash", sa.String(64), nullable=True),
)

log_t = sa.Table(
    "bl_log",
    metadata,
    sa.Column("table_id", sa.String(32), sa.ForeignKey("bl_tables.id"), primary_key=True),
    sa.Column("n", sa.Integer, primary_key=True, autoincrement=False),
    sa.Column("seat", sa.Integer, nullable=False),
    sa.Column("kind", sa.String(8), nullable=False),
    sa.Column("text", sa.Text, nullable=False),
    sa.Column("created_at", sa.Float, nullable=False),
    # the state after this row (table.state_digest): a restarted server checks its replay against it (0004)
    sa.Column("digest", sa.String(24), nullable=True),
)

leases_t = sa.Table(
    "bl_leases",
    metadata,
    # which server process owns a table (writes its log, runs its bots and clock) until `expires_at` (epoch
    # seconds of the database's clock); only used by a cluster of processes (server/cluster.py, migration 0009_leases)
    sa.Column("table_id", sa.String(32), primary_key=True),
    sa.Column("owner", sa.String(32), nullable=False),
    sa.Column("expires_at", sa.Float, nullable=False),
)


def default_db_url() -> str:
    """BOARDLAB_DATABASE_URL, else a SQLite file in the user's data directory."""
    env = os.environ.get("BOARDLAB_DATABASE_URL")
    if env:
        return env
    base = Path(os.environ.get("XDG_DATA_HOME") or Path.home() / ".local" / "share") / "boardlab"
    base.mkdir(parents=True, exist_ok=True)
    return f"sqlite:///{base / 'boardlab.sqlite3'}"


def normalize_url(url: str) -> str:
    """Accept plain `postgresql://` URLs (as people write them) and use the psycopg 3 driver."""
    for prefix in ("postgresql://", "postgres://"):
        if url.startswith(prefix):
            return "postgresql+psycopg://" + url[len(prefix) :]
    return url


def make_engine(url: str) -> Engine:
    """An engine with SQLite tuned for one writer: WAL, so readers never block the log writer."""
    url = normalize_url(url)
    kwargs: dict[str, Any] = {"future": True}
    if url.startswith("sqlite"):
        kwargs["connect_args"] = {"check_same_thread": False, "timeout": 30}
    else:
        kwargs.update(pool_size=8, max_overflow=4, pool_pre_ping=True)
    engine = sa.create_engine(url, **kwargs)
    if url.startswith("sqlite"):
        sync = os.environ.get("BOARDLAB_SQLITE_SYNC", "FULL").upper()
        if sync not in ("OFF", "NORMAL", "FULL", "EXTRA"):
            raise ValueError(f"BOARDLAB_SQLITE_SYNC must be NORMAL, FULL or EXTRA, not {sync!r}")

        @sa.event.listens_for(engine, "connect")
        def _pragmas(dbapi_conn: Any, _record: Any) -> None:
            cur = dbapi_conn.cursor()
            cur.execute("PRAGMA journal_mode=WAL")
            cur.execute(f"PRAGMA synchronous={sync}")
            cur.execute("PRAGMA foreign_keys=ON")
            cur.close()

    return engine


def migrate(engine: Engine) -> None:
    """Bring the schema to the newest migration (idempotent; safe at every start-up)."""
    from alembic import command
    from alembic.config import Config

    cfg = Config()
    cfg.set_main_option("script_location", str(Path(__file__).parent / "migrations"))
    with engine.begin() as conn:
        cfg.attributes["connection"] = conn
        command.upgrade(cfg, "head")


from . import sitedb as _sitedb  # noqa: E402,F401  (the site's tables join `metadata`: one schema, one migration chain)
