"""Chat at a table: seats only, short messages, a burst limit per seat and one per client across every table
(one client stored 98 messages/s spread over 150 tables, each within its seat's limit); kept with the table
(shown in replays, read a page at a time) and pushed to every connection of the table. Bots never read it.
Two channels (issue #34): the players' and the spectators' (signed-in spectators only); who reads which, and
blocked authors, are decided by server/social.py. Routes: routes/chat.py."""

from __future__ import annotations

import json
import os
import time
from collections import defaultdict
from typing import Any

import sqlalchemy as sa

from .accounts import User
from .errors import ApiError
from .site import Site
from .sitedb import chat_t
from .siteinfo import SiteInfo
from .social import PLAYERS, SPECTATORS, spectators_hidden_from_players
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
    """A stored line as sent: `seat` is null and `channel` "spectators" for a spectator's line; `user` is the
    author's account name (the page offers Report on lines that are not the reader's own), null for a guest."""
    spectator = x.channel == SPECTATORS
    return {
        "type": "chat", "n": x.n, "seat": None if spectator else x.seat, "name": x.name, "text": x.text,
        "at": x.created_at, "channel": x.channel, "user": x.name if x.user_id is not None else None,
    }


class Reader:
    """Who reads a table's chat: the accounts behind them (their seats' and their session's) and whether they
    hold a seat there (a player)."""

    def __init__(self, info: SiteInfo, seats: list[int | None], user_id: int | None) -> None:
        self.ids = {info.users[s][0] for s in seats if s is not None and s in info.users}
        seated = {uid for uid, _n in info.users.values()}
        self.player = any(s is not None for s in seats) or (user_id is not None and user_id in seated)
        if user_id is not None:
            self.ids.add(user_id)

    def may_read(self, t: Table, info: SiteInfo, channel: str) -> bool:
        return channel == PLAYERS or not (self.player and spectators_hidden_from_players(info.rated, t.over))


async def say(
    site: Site, t: Table, seat: int | None, text: str, client: str, user: User | None = None,
    channel: str = PLAYERS,
) -> dict[str, Any]:
    """Store and push a line: a seat's in the players' channel, or (`seat` None) a signed-in spectator's in the
    spectators' channel. Each connection gets it only if it may read that channel and has not blocked its author."""
    if site.svc.cluster is not None:  # several processes: the table's owner numbers its chat (server/cluster.py)
        async with t.lock:
            await site.svc.own(t)
            return await _say(site, t, seat, text, client, user, channel)
    return await _say(site, t, seat, text, client, user, channel)


async def _say(
    site: Site, t: Table, seat: int | None, text: str, client: str, user: User | None, channel: str
) -> dict[str, Any]:
    text = "".join(ch for ch in (text or "") if ch == " " or ch.isprintable()).strip()
    if not text:
        raise ApiError(422, "empty_chat", "say something")
    if len(text) > CHAT_MAX:
        raise ApiError(422, "chat_too_long", f"a message is at most {CHAT_MAX} characters")
    info = site.ensure(t)
    if channel == SPECTATORS:
        if user is None:
            raise ApiError(401, "not_signed_in", "sign in to talk with the other spectators")
        if user.id in {uid for uid, _n in info.users.values()}:
            raise ApiError(409, "not_a_spectator", "you hold a seat here: talk in the players' chat")
        author_id: int | None = user.id
        key, name, seat_no = -1 - user.id, user.name, -1  # the spectator's own burst count
    else:
        assert seat is not None
        author_id = info.users[seat][0] if seat in info.users else None
        key, name, seat_no = seat, info.users[seat][1] if seat in info.users else t.seats[seat].name, seat
    now = time.monotonic()
    times = _recent(info.chat_times.get(key, []), now)
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
    info.chat_times[key] = times
    n = info.chat_n
    info.chat_n += 1
    row = {"table_id": t.id, "n": n, "seat": seat_no, "name": name, "text": text, "created_at": time.time(),
           "channel": channel, "user_id": author_id}
    await site.store.write(lambda c: c.execute(chat_t.insert().values(**row)))
    msg = chat_json(_Row(row))
    await deliver(site, t, msg, channel, author_id)
    if site.svc.cluster is not None:  # and to the sockets of the other processes, which filter it the same way
        await site.svc.cluster.publish(
            {"op": "chat", "table": t.id, "msg": msg, "channel": channel, "author": author_id}
        )
    return msg


async def deliver(site: Site, t: Table, msg: dict[str, Any], channel: str, author_id: int | None) -> None:
    """Push a stored line to this process's sockets of the table: each only if it may read the channel and has not
    blocked the author."""
    info = site.ensure(t)
    if type(msg.get("n")) is int:  # a line stored by the table's owner: a copy here counts it (the next line's number)
        info.chat_n = max(info.chat_n, msg["n"] + 1)
    out = json.dumps(msg, ensure_ascii=False)
    for c in list(t.conns):
        if c.user_id is None and c.seats == [None]:  # an anonymous spectator (most sockets): reads both, blocks none
            c.push(out)
            continue
        reader = Reader(info, c.seats, c.user_id)
        if not reader.may_read(t, info, channel):
            continue
        if author_id is not None and reader.ids and author_id in await site.social.blocked_set(reader.ids):
            continue  # a blocked author's lines are not delivered to whoever blocked them
        c.push(out)


class _Row:
    """A row dict read as a database row (chat_json takes either)."""

    def __init__(self, row: dict[str, Any]) -> None:
        self.__dict__.update(row)



async def read_chat(
    site: Site, t: Table, before: int | None = None, limit: int | None = None, channel: str = PLAYERS,
    reader: Reader | None = None,
) -> tuple[list[dict[str, Any]], bool]:
    """A page of one channel of the table's chat: the newest `limit` messages numbered below `before` (all when
    None), oldest first, and whether older ones remain. Paged because a table's whole chat was sent on every read.
    The reader's blocked authors are left out; a player asking for the spectators' channel during a rated game
    is refused (403 `spectator_chat_hidden`)."""
    limit = max(1, min(limit or PAGE, PAGE_MAX))
    info = site.ensure(t)
    if reader is not None and not reader.may_read(t, info, channel):
        raise ApiError(403, "spectator_chat_hidden", "players read the spectators' chat once a rated game is over")
    blocked = sorted(await site.social.blocked_set(reader.ids)) if reader is not None else []

    def read(c: Any) -> list[Any]:
        q = sa.select(chat_t).where(chat_t.c.table_id == t.id, chat_t.c.channel == channel)
        if blocked:
            q = q.where(sa.or_(chat_t.c.user_id.is_(None), chat_t.c.user_id.not_in(blocked)))
        if before is not None:
            q = q.where(chat_t.c.n < before)
        return list(c.execute(q.order_by(chat_t.c.n.desc()).limit(limit + 1)).all())

    rows = await site.store.read(read)
    return [chat_json(x) for x in reversed(rows[:limit])], len(rows) > limit
