"""Chat at a table: seats only, short messages, a burst limit per seat and one per client across every table
(one client stored 98 messages/s spread over 150 tables, each within its seat's limit); kept with the table
(shown in replays, read a page at a time) and pushed to every connection of the table. Bots never read it.
Routes: routes/chat.py."""

from __future__ import annotations

import json
import os
import time
from collections import defaultdict
from typing import Any

import sqlalchemy as sa

from .errors import ApiError
from .site import Site
from .sitedb import chat_t
from .table import Table

CHAT_MAX = 300
CHAT_BURST, CHAT_WINDOW = 5, 10.0
CHAT_PER_CLIENT = int(os.environ.get("BOARDLAB_CHAT_PER_CLIENT", "20"))  # messages per CHAT_WINDOW, all tables
PAGE_MAX = 200
PAGE = min(PAGE_MAX, int(os.environ.get("BOARDLAB_CHAT_PAGE", "100")))  # messages a page when not asked for

_by_client: defaultdict[str, list[float]] = defaultdict(list)
"""When each client's recent messages were said, across tables (in memory, like every rate of the server)."""


def _recent(times: list[float], now: float) -> list[float]:
    return [x for x in times if now - x < CHAT_WINDOW]


def chat_json(x: Any) -> dict[str, Any]:
    return {"type": "chat", "n": x.n, "seat": x.seat, "name": x.name, "text": x.text, "at": x.created_at}


async def say(site: Site, t: Table, seat: int, text: str, client: str) -> dict[str, Any]:
    if site.svc.cluster is not None:  # several processes: the table's owner numbers its chat (server/cluster.py)
        async with t.lock:
            await site.svc.own(t)
            return await _say(site, t, seat, text, client)
    return await _say(site, t, seat, text, client)


async def _say(site: Site, t: Table, seat: int, text: str, client: str) -> dict[str, Any]:
    text = "".join(ch for ch in (text or "") if ch == " " or ch.isprintable()).strip()
    if not text:
        raise ApiError(422, "empty_chat", "say something")
    if len(text) > CHAT_MAX:
        raise ApiError(422, "chat_too_long", f"a message is at most {CHAT_MAX} characters")
    info = site.ensure(t)
    now = time.monotonic()
    times = _recent(info.chat_times.get(seat, []), now)
    if len(times) >= CHAT_BURST:
        raise ApiError(429, "chat_too_fast", f"at most {CHAT_BURST} messages in {CHAT_WINDOW:g} s")
    mine = _recent(_by_client.pop(client, []), now)
    if len(mine) >= CHAT_PER_CLIENT:
        _by_client[client] = mine
        raise ApiError(429, "chat_flood", f"at most {CHAT_PER_CLIENT} messages in {CHAT_WINDOW:g} s at all tables")
    if len(_by_client) > 100_000:  # bounded memory, as the sign-in throttle
        _by_client.clear()
    _by_client[client] = [*mine, now]
    times.append(now)
    info.chat_times[seat] = times
    n = info.chat_n
    info.chat_n += 1
    name = info.users[seat][1] if seat in info.users else t.seats[seat].name
    row = {"table_id": t.id, "n": n, "seat": seat, "name": name, "text": text, "created_at": time.time()}
    await site.store.write(lambda c: c.execute(chat_t.insert().values(**row)))
    msg = {"type": "chat", "n": n, "seat": seat, "name": name, "text": text, "at": row["created_at"]}
    out = json.dumps(msg, ensure_ascii=False)
    for c in list(t.conns):
        c.push(out)
    if site.svc.cluster is not None:  # and the sockets of the other processes
        await site.svc.cluster.publish({"op": "chat", "table": t.id, "text": out})
    return msg



async def read_chat(
    site: Site, t: Table, before: int | None = None, limit: int | None = None
) -> tuple[list[dict[str, Any]], bool]:
    """A page of the table's chat: the newest `limit` messages numbered below `before` (all when None), oldest
    first, and whether older ones remain. Paged because a table's whole chat was sent on every read."""
    limit = max(1, min(limit or PAGE, PAGE_MAX))

    def read(c: Any) -> list[Any]:
        q = sa.select(chat_t).where(chat_t.c.table_id == t.id)
        if before is not None:
            q = q.where(chat_t.c.n < before)
        return list(c.execute(q.order_by(chat_t.c.n.desc()).limit(limit + 1)).all())

    rows = await site.store.read(read)
    return [chat_json(x) for x in reversed(rows[:limit])], len(rows) > limit
