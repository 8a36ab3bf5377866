"""The tables service's database reads and writes (schema in db.py): log rows, seats, loading."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Connection

from .db import log_t, seats_t, tables_t
from .store import RowInsert
from .table import Table


def insert_table(t: Table, options_json: str, now: float) -> Callable[[Connection], None]:
    """A new table's row and its seats' rows (and, for a rematch, the old table's link to it)."""

    def write(conn: Connection) -> None:
        conn.execute(
            tables_t.insert().values(
                id=t.id,
                game=t.game.name,
                players=t.players,
                seed=str(t.seed),
                options=options_json,
                public=t.public,
                status=t.status,
                rematch_of=t.rematch_of,
                rematch_id=None,
                mode="tutorial" if t.tutorial is not None else None,
                created_at=now,
                updated_at=now,
            )
        )
        conn.execute(
            seats_t.insert(),
            [
                {
                    "table_id": t.id,
                    "seat": s.seat,
                    "kind": s.kind,
                    "bot": s.bot,
                    "name": s.name,
                    "token_hash": s.token_hash,
                }
                for s in t.seats
            ],
        )
        if t.rematch_of is not None:
            conn.execute(tables_t.update().where(tables_t.c.id == t.rematch_of).values(rematch_id=t.id))

    return write


def append_row(
    tid: str, n: int, seat: int, kind: str, text: str, over: bool, digest: str | None = None
) -> Callable[[Connection], None]:
    """Log row `n`; `digest` is the state it leads to (table.state_digest), checked when the log is replayed."""
    now = time.time()
    row = {"table_id": tid, "n": n, "seat": seat, "kind": kind, "text": text, "created_at": now, "digest": digest}
    if not over:
        return RowInsert(log_t, row)

    def write(conn: Connection) -> None:
        conn.execute(log_t.insert(), [row])
        if over:
            conn.execute(
                tables_t.update().where(tables_t.c.id == tid).values(status="finished", updated_at=now)
            )

    return write


def seat_update(tid: str, seat: int, **values: Any) -> Callable[[Connection], None]:
    def write(conn: Connection) -> None:
        conn.execute(
            seats_t.update().where(seats_t.c.table_id == tid, seats_t.c.seat == seat).values(**values)
        )

    return write


def log_row(conn: Connection, tid: str, n: int) -> Any:
    return conn.execute(
        sa.select(log_t.c.seat, log_t.c.kind, log_t.c.text).where(log_t.c.table_id == tid, log_t.c.n == n)
    ).first()


def load_rows(conn: Connection, tid: str) -> tuple[Any, list[Any], list[Any]] | None:
    """A table's row, its seats and its whole log."""
    return rows_after(conn, tid, 0)


def rows_after(conn: Connection, tid: str, n: int) -> tuple[Any, list[Any], list[Any]] | None:
    """What `load_rows` reads, but only the log rows from `n` on: a copy at version `n` catches up with them."""
    trow = conn.execute(sa.select(tables_t).where(tables_t.c.id == tid)).first()
    if trow is None:
        return None
    srows = conn.execute(sa.select(seats_t).where(seats_t.c.table_id == tid).order_by(seats_t.c.seat)).all()
    lrows = conn.execute(
        sa.select(log_t).where(log_t.c.table_id == tid, log_t.c.n >= n).order_by(log_t.c.n)
    ).all()
    return trow, list(srows), list(lrows)


def tables_with_bots(conn: Connection) -> list[str]:
    q = (
        sa.select(tables_t.c.id)
        .where(tables_t.c.status == "playing")
        .where(tables_t.c.id.in_(sa.select(seats_t.c.table_id).where(seats_t.c.kind == "bot")))
    )
    return [r.id for r in conn.execute(q)]


def open_rows(conn: Connection) -> list[dict[str, Any]]:
    open_ids = sa.select(seats_t.c.table_id).where(seats_t.c.kind == "open")
    q = (
        sa.select(tables_t)
        .where(tables_t.c.public.is_(True), tables_t.c.status == "playing", tables_t.c.id.in_(open_ids))
        .order_by(tables_t.c.created_at.desc())
        .limit(100)
    )
    trows = conn.execute(q).all()
    if not trows:
        return []
    seats = conn.execute(
        sa.select(seats_t).where(seats_t.c.table_id.in_([t.id for t in trows])).order_by(seats_t.c.seat)
    ).all()
    by: dict[str, list[dict[str, Any]]] = {}
    for s in seats:
        by.setdefault(s.table_id, []).append(
            {"seat": s.seat, "kind": s.kind, "bot": s.bot, "name": s.name, "connected": False}
        )
    return [
        {
            "id": t.id,
            "game": t.game,
            "players": t.players,
            "seats": by.get(t.id, []),
            "created_at": t.created_at,
        }
        for t in trows
    ]
