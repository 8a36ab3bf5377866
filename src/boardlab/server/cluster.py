"""Several `boardlab serve` processes on one PostgreSQL database and one Redis (issue #37; docs/server.md,
"Many processes").

A table is owned by one process at a time through a lease: a row of `bl_leases` (owner, expiry on the
database's clock) taken or renewed by one conditional `INSERT ... ON CONFLICT DO UPDATE ... WHERE` (the owner
itself, or an expired lease) that returns a row only to its winner. Only the owner writes a table's log and
runs its bots and its clock. A process asked to change a table it does not own asks the owner over Redis to
let go (the owner does so between two changes, under the table's lock), or waits for the lease to expire
when the owner is dead, takes it, and rebuilds the table from the log before changing it. Every change is
announced on Redis pub/sub, with the log row it appended; the other processes holding the table apply that row
to their copy (or read the rows after their copy's last one, or rebuild it from the log when in doubt: an undo, a
row that does not apply exactly) and push it to their sockets.

Nothing here is imported by a single server (`--redis` not given): the embedded default has no Redis.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import secrets
import time
from collections.abc import Callable
from typing import Any

import orjson
import sqlalchemy as sa
from sqlalchemy.engine import Connection

from .errors import ApiError
from .store import Store

log = logging.getLogger("boardlab.server")

NOW = "EXTRACT(EPOCH FROM clock_timestamp())"
TAKE = sa.text(
    f"""INSERT INTO bl_leases (table_id, owner, expires_at) VALUES (:t, :me, {NOW} + :ttl)
    ON CONFLICT (table_id) DO UPDATE SET owner = EXCLUDED.owner, expires_at = EXCLUDED.expires_at
    WHERE bl_leases.owner = EXCLUDED.owner OR bl_leases.expires_at < {NOW}
    RETURNING owner"""
)
RENEW = sa.text(
    f"UPDATE bl_leases SET expires_at = {NOW} + :ttl WHERE owner = :me AND table_id = ANY(:ids) RETURNING table_id"
)
STRAY = sa.text("DELETE FROM bl_leases WHERE owner = :me AND NOT (table_id = ANY(:ids))")
"""Rows of ours for tables this process no longer answers for (it forgot a table and its delete failed, or it was
told another process changed it): renewing them would keep them from everyone for good (cluster_faults.py)."""
RELEASE = sa.text("DELETE FROM bl_leases WHERE table_id = :t AND owner = :me")
RELEASE_ALL = sa.text("DELETE FROM bl_leases WHERE owner = :me RETURNING table_id")
ORPHANS = sa.text(
    f"""SELECT t.id FROM bl_tables t LEFT JOIN bl_leases l ON l.table_id = t.id
    WHERE t.status = 'playing' AND (l.table_id IS NULL OR l.expires_at < {NOW})
    AND (EXISTS (SELECT 1 FROM bl_seats s WHERE s.table_id = t.id AND s.kind = 'bot')
         OR EXISTS (SELECT 1 FROM bl_table_site x WHERE x.table_id = t.id AND x.clock IS NOT NULL))
    ORDER BY t.updated_at LIMIT 500"""
)
"""Unfinished tables with a bot or a clock whose owner is gone (lease expired) or that never had one: someone
must run their bots and clocks."""


LOG_ENDS = sa.text(
    """SELECT i.id AS table_id, (SELECT l.n FROM bl_log l WHERE l.table_id = i.id ORDER BY l.n DESC LIMIT 1) + 1 AS v
    FROM unnest(CAST(:ids AS text[])) AS i(id)"""
)
"""Each table's last row through the log's key, backwards: one index entry per table, where `max(n) ... GROUP BY`
read every row of every watched table's log at each look-up (O(moves))."""


def log_ends(conn: Connection, ids: list[str]) -> dict[str, int]:
    """How many log rows each of these tables has (its version): a copy behind it missed a change."""
    return {r.table_id: int(r.v) for r in conn.execute(LOG_ENDS, {"ids": ids}) if r.v is not None}


def take_lease(conn: Connection, table_id: str, owner: str, ttl: float) -> bool:
    """Take (or renew) `table_id`'s lease for `owner` if nobody else holds an unexpired one; True if it did."""
    return conn.execute(TAKE, {"t": table_id, "me": owner, "ttl": ttl}).first() is not None


def orphans(conn: Connection) -> list[str]:
    return [r.id for r in conn.execute(ORPHANS)]


def _noop(_conn: Connection) -> None:
    """A write that orders a later step after every write queued before it (the writer is first in, first out)."""


class Cluster:
    """This process's leases and its link to the others (Redis pub/sub, one channel per site)."""

    def __init__(self, store: Store, redis_url: str, ttl: float | None = None) -> None:
        if not store.url.startswith(("postgresql", "postgres")):
            raise ValueError("several server processes (--redis) need a PostgreSQL database (--db postgresql://...)")
        self.store = store
        self.redis_url = redis_url
        self.me = secrets.token_hex(8)  # a new owner at every start: a restarted process holds no old lease
        self.ttl = ttl if ttl is not None else float(os.environ.get("BOARDLAB_LEASE_SECONDS", "5"))
        self.owned: dict[str, int] = {}  # table -> the number of the take that won it (see `_renew`)
        self.confirmed: dict[str, float] = {}  # table -> when (monotonic) the last take or renewal that held it began
        self._takes = 0
        self._taking: dict[str, int] = {}  # tables whose take is under way: table -> how many
        self.channel = ""
        self.on_event: Callable[[dict[str, Any]], None] = lambda _m: None
        self.on_lost: Callable[[str], None] = lambda _t: None
        self._redis: Any = None
        self._released: dict[str, asyncio.Event] = {}
        self._tasks: set[asyncio.Task[Any]] = set()

    # -- leases -------------------------------------------------------------------------------------------
    async def take(self, table_id: str) -> bool:
        """Take the lease if it is free, expired or ours. Through the store's writer, so it is ordered after
        every write this process queued before (and a release after every write of the table before it)."""
        self._taking[table_id] = self._taking.get(table_id, 0) + 1  # a renewal meanwhile must not drop its row
        began = time.monotonic()
        try:
            won = bool(await self.store.write(lambda c: take_lease(c, table_id, self.me, self.ttl)))
        finally:
            self._taking[table_id] -= 1
            if not self._taking[table_id]:
                del self._taking[table_id]
        if won:
            self.confirmed[table_id] = began
            if table_id not in self.owned:
                self._takes += 1
                self.owned[table_id] = self._takes
        return won

    def doubtful(self, table_id: str) -> bool:
        """Has more than half a lease passed since a take or renewal last held `table_id`? Renewals come every
        third of a lease, so only a process that stalled (stopped, swapped out, its event loop starved) gets here,
        and its lease may have expired and been taken meanwhile: it must check before it writes (`service.own`),
        or its write meets the other process's row (a 503 "nothing changed" and a reload, found in the fault runs
        at 1.5 s leases)."""
        return time.monotonic() - self.confirmed.get(table_id, float("-inf")) > self.ttl / 2

    async def acquire(self, table_id: str) -> None:
        """Take the lease, asking its owner to let go; wait at most until it would have expired (owner dead)."""
        deadline = time.monotonic() + self.ttl + 2.0
        while not await self.take(table_id):
            if time.monotonic() > deadline:
                raise ApiError(
                    503, "table_busy", "another server process is playing this table; nothing changed, try again"
                )
            ev = self._released.setdefault(table_id, asyncio.Event())
            await self.publish({"op": "release", "table": table_id, "to": self.me})
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(ev.wait(), 0.25)
            if self._released.get(table_id) is ev:
                del self._released[table_id]

    async def release(self, table_id: str) -> None:
        """Let go of a table (after every write of it this process queued: the writer is first in, first out).
        Forgotten here only once the row is gone: a failed delete (a dropped connection) must leave the table ours,
        or the renewals, which renew every row of ours, would keep a lease nobody here answers for, and no other
        process could ever take it (found by benchmarks/cluster_faults.py: a table stuck after dropped connections)."""
        await self.store.write(lambda c: c.execute(RELEASE, {"t": table_id, "me": self.me}))
        self.owned.pop(table_id, None)
        self.confirmed.pop(table_id, None)
        await self.publish({"op": "released", "table": table_id})

    async def _renew(self) -> None:
        """Renew every lease we hold; a table whose lease we no longer hold (expired while this process was
        stalled, and taken by another) is lost: its bots and clock stop here. Takes won after the renewal
        began are not counted as lost."""
        started, began = self._takes, time.monotonic()
        ids = list(set(self.owned) | set(self._taking))

        def renew(c: Connection) -> list[Any]:
            c.execute(STRAY, {"me": self.me, "ids": ids})
            return list(c.execute(RENEW, {"me": self.me, "ttl": self.ttl, "ids": ids}).all())

        rows = await self.store.write(renew)
        held = {r.table_id for r in rows}
        for tid, n in list(self.owned.items()):
            if tid in held:
                self.confirmed[tid] = max(began, self.confirmed.get(tid, began))
            elif n <= started:
                del self.owned[tid]
                self.confirmed.pop(tid, None)
                self.on_lost(tid)

    # -- messages between processes ----------------------------------------------------------------------
    async def start(self, site_name: str) -> None:
        """Connect to Redis (the start fails if it does not answer) and listen; renew the leases."""
        import redis.asyncio as aioredis  # only here: a single server never imports Redis

        self.channel = f"boardlab:{site_name}:events"
        self._redis = aioredis.from_url(self.redis_url)
        await self._redis.ping()
        pubsub = self._redis.pubsub()
        await pubsub.subscribe(self.channel)
        self._spawn(self._listen(pubsub))
        self._spawn(self._renew_loop())

    def shared_bots(self, bots: Any, slots: int) -> Any:
        """The site's bot queue, served by this process's `slots` workers too (server/sharedbots.py); started."""
        from .sharedbots import SharedBotQueue

        q = SharedBotQueue(self._redis, self.channel.removesuffix(":events") + ":bots", bots, slots)
        q.start()
        return q

    async def publish(self, msg: dict[str, Any]) -> None:
        """Tell the other processes; a failure is logged (the change itself is stored: they catch up on the
        table's next change or when they take it)."""
        msg["from"] = self.me
        try:
            await self._redis.publish(self.channel, orjson.dumps(msg))
        except Exception as e:
            log.warning("cannot publish to Redis (%s): %r", msg.get("op"), e)

    def announce(self, table_id: str, version: int, row: tuple[Any, ...] | None = None) -> None:
        """A table changed here: tell the others once the change and every write before it are committed; with the
        log row it appended, which their copies apply (service._catch_up) instead of reading the log again."""
        msg: dict[str, Any] = {"op": "changed", "table": table_id, "v": version}
        if row is not None:
            msg["row"] = list(row)

        async def go() -> None:
            await self.store.write(_noop)
            await self.publish(msg)

        self._spawn(go())

    async def _listen(self, pubsub: Any) -> None:
        first = True
        while True:
            try:
                if not first:
                    await pubsub.subscribe(self.channel)
                    self.on_event({"op": "resync"})  # messages may have been missed while disconnected
                first = False
                async for m in pubsub.listen():
                    if m.get("type") != "message":
                        continue
                    msg = orjson.loads(m["data"])
                    if msg.get("from") == self.me:
                        continue
                    if msg.get("op") == "released":
                        ev = self._released.get(msg.get("table"))
                        if ev is not None:
                            ev.set()
                        continue
                    try:
                        self.on_event(msg)
                    except Exception:
                        log.exception("cannot handle a message from another server process: %r", msg)
            except asyncio.CancelledError:
                raise
            except Exception as e:
                log.warning("Redis subscription lost (%r); reconnecting", e)
                await asyncio.sleep(0.5)

    async def _renew_loop(self) -> None:
        while True:
            await asyncio.sleep(self.ttl / 3)
            try:
                await self._renew()
            except Exception:
                log.exception("cannot renew the table leases")

    def _spawn(self, coro: Any) -> None:
        task = asyncio.get_running_loop().create_task(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def close(self) -> None:
        """Graceful stop: let go of every table at once so the others take them over now, not at expiry."""
        for task in list(self._tasks):
            task.cancel()
        try:
            rows = await self.store.write(lambda c: c.execute(RELEASE_ALL, {"me": self.me}).all())
            for r in rows:
                await self.publish({"op": "released", "table": r.table_id})
        except Exception:
            log.exception("cannot release the table leases at shutdown")
        self.owned.clear()
        self.confirmed.clear()
        if self._redis is not None:
            with contextlib.suppress(Exception):
                await self._redis.aclose()
