"""Friends, blocks, chat reports and who may read which chat channel (issue #34).

* Friends: a one-way list of accounts (like a follow); the lobby shows open tables where a friend sits first.
* Blocks: an account you block cannot take a seat at a table where you sit (join and claim are refused, 403
  `blocked`), and its chat lines, in either channel, are not sent or shown to you. Blocking is checked both
  ways for seats (you cannot sit down with someone you blocked either: 403 `you_blocked`), so a blocked pair
  never shares a table through a new seat.
* Reports: a signed-in reader reports a chat line (not their own); the line is copied as it was, with who wrote
  it, who reported it and when, for the admins (`BOARDLAB_ADMINS`, account names). At most
  `BOARDLAB_REPORTS_PER_HOUR` reports per account an hour (counted in the database, so a restart forgets none).
* Channels: seats talk in "players"; signed-in spectators in "spectators". Spectators read both; players read the
  spectators' channel except during a rated game (after it ends they may), so nobody watching can coach a player.

The blocks are kept in memory per account once read (one server process per database, docs/server.md), so the
chat's push asks the database nothing per message.
"""

from __future__ import annotations

import os
import time
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Connection
from sqlalchemy.exc import IntegrityError

from .accounts import User, name_key
from .errors import ApiError
from .sitedb import blocks_t, chat_t, friends_t, reports_t, seat_users_t, users_t

PLAYERS, SPECTATORS = "players", "spectators"
CHANNELS = (PLAYERS, SPECTATORS)
REPORTS_PER_HOUR = int(os.environ.get("BOARDLAB_REPORTS_PER_HOUR", "10"))
ADMINS = frozenset(name_key(x.strip()) for x in os.environ.get("BOARDLAB_ADMINS", "").split(",") if x.strip())
LIST_MAX = 500  # friends or blocks one account may keep (bounded rows and memory)


def spectators_hidden_from_players(rated: bool, over: bool) -> bool:
    """During a rated game the players do not read the spectators' chat (a spectator could coach them)."""
    return rated and not over


class Social:
    """Friends and blocks of accounts (blocks cached in memory), reports, admins."""

    def __init__(self, store: Any) -> None:
        self.store = store
        self._blocks: dict[int, frozenset[int]] = {}

    # -- look-ups -------------------------------------------------------------------------------------------
    async def other(self, u: User, name: str) -> tuple[int, str]:
        """The account called `name` (404 no_user), never the asker's own (409 self)."""
        key = name_key(name or "")[:60]
        row = await self.store.read(
            lambda c: c.execute(sa.select(users_t.c.id, users_t.c.name).where(users_t.c.name_key == key)).first()
        )
        if row is None:
            raise ApiError(404, "no_user", "no such player")
        if row.id == u.id:
            raise ApiError(409, "self", "that is your own account")
        return int(row.id), str(row.name)

    async def blocks_of(self, user_id: int) -> frozenset[int]:
        """The accounts `user_id` blocks (read once, then kept)."""
        got = self._blocks.get(user_id)
        if got is None:
            rows = await self.store.read(
                lambda c: c.execute(sa.select(blocks_t.c.blocked_id).where(blocks_t.c.user_id == user_id)).all()
            )
            got = frozenset(int(r.blocked_id) for r in rows)
            if len(self._blocks) > 50_000:  # bounded memory: read again when needed
                self._blocks.clear()
            self._blocks[user_id] = got
        return got

    async def blocked_set(self, viewers: set[int]) -> frozenset[int]:
        """Every account blocked by any of `viewers` (a connection may hold several seats)."""
        out: frozenset[int] = frozenset()
        for v in viewers:
            out |= await self.blocks_of(v)
        return out

    # -- friends and blocks -----------------------------------------------------------------------------------
    async def names(self, table: sa.Table, col: str, user_id: int) -> list[str]:
        other = table.c[col]

        def read(c: Connection) -> list[str]:
            q = (
                sa.select(users_t.c.name)
                .join(table, other == users_t.c.id)
                .where(table.c.user_id == user_id)
                .order_by(users_t.c.name_key)
            )
            return [str(r.name) for r in c.execute(q)]

        return list(await self.store.read(read))

    async def friends(self, user_id: int) -> list[str]:
        return await self.names(friends_t, "friend_id", user_id)

    async def blocked(self, user_id: int) -> list[str]:
        return await self.names(blocks_t, "blocked_id", user_id)

    async def friend_ids(self, user_id: int) -> set[int]:
        rows = await self.store.read(
            lambda c: c.execute(sa.select(friends_t.c.friend_id).where(friends_t.c.user_id == user_id)).all()
        )
        return {int(r.friend_id) for r in rows}

    async def _add(self, table: sa.Table, col: str, u: User, other: int, also: Any = None) -> None:
        def write(c: Connection) -> bool:
            """Returns False when the list is full (no error raised inside a write: the writer would redo
            the other writes of its group one by one)."""
            if also is not None:
                also(c)
            exists = c.execute(
                sa.select(table.c.user_id).where(table.c.user_id == u.id, table.c[col] == other)
            ).first()
            if exists is not None:
                return True
            count = c.execute(sa.select(sa.func.count()).select_from(table).where(table.c.user_id == u.id)).scalar()
            if int(count or 0) >= LIST_MAX:
                return False
            c.execute(table.insert().values(user_id=u.id, created_at=time.time(), **{col: other}))
            return True

        try:
            ok = await self.store.write(write)
        except IntegrityError:  # the same request twice at once: the row is there, which is what was asked
            ok = True
        if not ok:
            raise ApiError(409, "list_full", f"at most {LIST_MAX} players in one list")

    async def _remove(self, table: sa.Table, col: str, u: User, other: int) -> None:
        await self.store.write(
            lambda c: c.execute(table.delete().where(table.c.user_id == u.id, table.c[col] == other))
        )

    async def add_friend(self, u: User, name: str) -> str:
        other, shown = await self.other(u, name)
        if other in await self.blocks_of(u.id):
            raise ApiError(409, "blocked_friend", "unblock this player first")
        await self._add(friends_t, "friend_id", u, other)
        return shown

    async def remove_friend(self, u: User, name: str) -> str:
        other, shown = await self.other(u, name)
        await self._remove(friends_t, "friend_id", u, other)
        return shown

    async def block(self, u: User, name: str) -> str:
        """Block `name` (and drop them from your friends: a friend you block is no friend)."""
        other, shown = await self.other(u, name)

        def unfriend(c: Connection) -> None:
            c.execute(friends_t.delete().where(friends_t.c.user_id == u.id, friends_t.c.friend_id == other))

        await self._add(blocks_t, "blocked_id", u, other, also=unfriend)
        self._blocks.pop(u.id, None)
        return shown

    async def unblock(self, u: User, name: str) -> str:
        other, shown = await self.other(u, name)
        await self._remove(blocks_t, "blocked_id", u, other)
        self._blocks.pop(u.id, None)
        return shown

    async def check_may_sit(self, seated: set[int], user_id: int) -> None:
        """Refuse a seat to `user_id` at a table where `seated` accounts sit if a block lies between them."""
        for other in seated - {user_id}:
            if user_id in await self.blocks_of(other):
                raise ApiError(403, "blocked", "a player at this table has blocked you: you cannot sit here")
        if seated & await self.blocks_of(user_id):
            raise ApiError(403, "you_blocked", "you blocked a player at this table: unblock them to sit here")

    # -- reports -------------------------------------------------------------------------------------------------
    async def report(self, u: User, table_id: str, n: int, may_read: Any) -> dict[str, Any]:
        """Store a report of chat line `n` at the table, copied as it is now. `may_read(channel)` says whether the
        reporter may read that channel (a line they cannot see cannot be reported: 404 as for no line)."""
        line = await self.store.read(
            lambda c: c.execute(sa.select(chat_t).where(chat_t.c.table_id == table_id, chat_t.c.n == n)).first()
        )
        if line is None or not may_read(line.channel):
            raise ApiError(404, "no_message", "no such chat message")
        if line.user_id is not None and int(line.user_id) == u.id:
            raise ApiError(409, "own_message", "you cannot report your own message")
        since = time.time() - 3600

        def write(c: Connection) -> dict[str, Any] | str:
            """The stored row, or why not (no error raised inside a write: see `_add`)."""
            done = c.execute(
                sa.select(reports_t.c.id).where(
                    reports_t.c.reporter_id == u.id, reports_t.c.table_id == table_id, reports_t.c.n == n
                )
            ).first()
            if done is not None:
                return "already_reported"
            count = c.execute(
                sa.select(sa.func.count())
                .select_from(reports_t)
                .where(reports_t.c.reporter_id == u.id, reports_t.c.created_at > since)
            ).scalar()
            if int(count or 0) >= REPORTS_PER_HOUR:
                return "too_many_reports"
            row = {
                "reporter_id": u.id, "table_id": table_id, "n": n, "channel": line.channel,
                "author_name": line.name, "author_id": line.user_id, "text": line.text, "created_at": time.time(),
            }
            c.execute(reports_t.insert().values(**row))
            return row

        try:
            row = await self.store.write(write)
        except IntegrityError:  # the same report twice at once
            row = "already_reported"
        if row == "already_reported":
            raise ApiError(409, "already_reported", "you reported this message already")
        if row == "too_many_reports":
            raise ApiError(429, "too_many_reports", f"at most {REPORTS_PER_HOUR} reports an hour")
        assert isinstance(row, dict)
        return {"table": table_id, "n": n, "author": row["author_name"], "text": row["text"], "at": row["created_at"]}

    @staticmethod
    def is_admin(u: User) -> bool:
        return name_key(u.name) in ADMINS

    async def reports(self, limit: int = 200) -> list[dict[str, Any]]:
        """The newest reports first, for the admins."""
        reporter = users_t.alias("reporter")

        def read(c: Connection) -> list[dict[str, Any]]:
            q = (
                sa.select(reports_t, reporter.c.name.label("reporter"))
                .join(reporter, reporter.c.id == reports_t.c.reporter_id)
                .order_by(reports_t.c.id.desc())
                .limit(limit)
            )
            return [
                {"id": r.id, "at": r.created_at, "reporter": r.reporter, "table": r.table_id, "n": r.n,
                 "channel": r.channel, "author": r.author_name, "author_account": r.author_id is not None,
                 "text": r.text}
                for r in c.execute(q)
            ]

        return list(await self.store.read(read))


def seated_accounts(conn: Connection, ids: list[str]) -> dict[str, dict[int, str]]:
    """For each table of `ids`, the accounts seated there: {table: {user id: name}}."""
    if not ids:
        return {}
    q = (
        sa.select(seat_users_t.c.table_id, users_t.c.id, users_t.c.name)
        .join(users_t, users_t.c.id == seat_users_t.c.user_id)
        .where(seat_users_t.c.table_id.in_(ids))
    )
    out: dict[str, dict[int, str]] = {}
    for r in conn.execute(q):
        out.setdefault(r.table_id, {})[int(r.id)] = str(r.name)
    return out
