"""The per-client caps kept in Redis when several processes serve one site (issue #37; docs/server.md, "Many
processes", and "Limits").

Why: `Holdings` counts what a client holds in one process's memory, so a client spread over N processes (any
load balancer without affinity by client) could hold N times the unfinished tables, lobby tables and bot tables
it may; and a table created through process A is finished on whichever process owns it then, which never saw it
counted. Here the counts live in Redis sets, one per client and kind, and the table's creator in one hash, so
every process counts and uncounts the same tables. The request-rate limits move to Redis the same way (slowapi's
storage URI, app.py). Calls are synchronous (as slowapi's are), a local round trip of well under a millisecond, and
only on the routes that create, seat or finish a table. If Redis does not answer within half a second the
check lets the request through (logged): a cap is a guard against floods, not the correctness of a move.
"""

from __future__ import annotations

import logging
from typing import Any

from .limits import Holdings, Limits

log = logging.getLogger("boardlab.server")


class _Owners:
    """table -> the client that created it, in a Redis hash (the part of `dict` that Holdings' users need)."""

    def __init__(self, shared: SharedHoldings) -> None:
        self.s = shared
        self._known: dict[str, str] = {}  # creators seen here (they never change): no round trip for the bots

    def get(self, table: str, default: Any = None) -> Any:
        if table in self._known:
            return self._known[table]
        got = self.s._call(lambda r: r.hget(self.s.key("owner"), table))
        if got is None:
            return default
        self._known[table] = got.decode()
        return self._known[table]

    def __setitem__(self, table: str, client: str) -> None:
        self._known[table] = client
        self.s._call(lambda r: r.hset(self.s.key("owner"), table, client))

    def pop(self, table: str, default: Any = None) -> Any:
        client = self.get(table, default)
        self._known.pop(table, None)
        self.s._call(lambda r: r.hdel(self.s.key("owner"), table))
        return client


class SharedHoldings(Holdings):
    """`Holdings` whose counts are the site's, in Redis, rather than this process's."""

    def __init__(self, redis_url: str) -> None:
        super().__init__()
        import redis  # only in a cluster

        self.r = redis.Redis.from_url(redis_url, socket_timeout=0.5, socket_connect_timeout=0.5)
        self.prefix = "boardlab:unset:hold"  # set by `for_site` once the site's secret is known
        self.owner = _Owners(self)  # type: ignore[assignment]

    def for_site(self, site: str) -> None:
        self.prefix = f"boardlab:{site}:hold"

    def key(self, kind: str, client: str = "") -> str:
        return f"{self.prefix}:{kind}:{client}" if client else f"{self.prefix}:{kind}"

    def _call(self, fn: Any) -> Any:
        try:
            return fn(self.r)
        except Exception as e:
            log.warning("per-client caps: Redis does not answer (%r); not counted", e)
            return None

    def add(self, client: str, table: str, lobby: bool, bots: bool) -> None:
        self.owner[table] = client
        kinds = ["t"] + (["l"] if lobby else []) + (["b"] if bots else [])

        def go(r: Any) -> None:
            p = r.pipeline(transaction=False)
            for k in kinds:
                p.sadd(self.key(k, client), table)
            p.execute()

        self._call(go)

    def unlist(self, table: str) -> None:
        client = self.owner.get(table)
        if client is not None:
            self._call(lambda r: r.srem(self.key("l", client), table))

    def mark_bots(self, table: str) -> None:
        client = self.owner.get(table)
        if client is not None:
            self._call(lambda r: r.sadd(self.key("b", client), table))

    def finish(self, table: str) -> None:
        client = self.owner.pop(table, None)
        if client is None:
            return

        def go(r: Any) -> None:
            p = r.pipeline(transaction=False)
            for k in ("t", "l", "b"):
                p.srem(self.key(k, client), table)
            p.execute()

        self._call(go)

    def reserve_bots(self, table: str, lim: Limits) -> bool:
        client = self.owner.get(table)
        if client is None or self._call(lambda r: r.sismember(self.key("b", client), table)):
            return False
        self.check_caps(client, False, True, lim, tables=False)
        self._call(lambda r: r.sadd(self.key("b", client), table))
        return True

    def release_bots(self, table: str) -> None:
        client = self.owner.get(table)
        if client is not None:
            self._call(lambda r: r.srem(self.key("b", client), table))

    def check_caps(self, client: str, lobby: bool, thinking_bots: bool, lim: Limits, tables: bool = True) -> None:
        def go(r: Any) -> list[int]:
            p = r.pipeline(transaction=False)
            for k in ("t", "l", "b"):
                p.scard(self.key(k, client))
            return list(p.execute())

        counts = self._call(go)
        if counts is None:
            return
        self._refuse(lim, (tables and counts[0] >= lim.max_tables, "unfinished tables", lim.max_tables),
                     (lobby and counts[1] >= lim.max_lobby, "tables in the lobby", lim.max_lobby),
                     (thinking_bots and counts[2] >= lim.max_bot_tables, "unfinished tables with thinking bots",
                      lim.max_bot_tables))
