"""Chat at a table: seats only, short messages, a burst limit; kept with the table (shown in replays)
and pushed to every connection of the table. Bots never read it. Routes: routes/chat.py."""

from __future__ import annotations

import json
import time
from typing import Any

import sqlalchemy as sa

from .errors import ApiError
from .site import Site
from .sitedb import chat_t
from .table import Table

CHAT_MAX = 300
CHAT_BURST, CHAT_WINDOW = 5, 10.0


def chat_json(x: Any) -> dict[str, Any]:
    return {"type": "chat", "n": x.n, "seat": x.seat, "name": x.name, "text": x.text, "at": x.created_at}


async def say(site: Site, t: Table, seat: int, text: str) -> dict[str, Any]:
    text = "".join(ch for ch in (text or "") if ch == " " or ch.isprintable()).strip()
    if not text:
        raise ApiError(422, "empty_chat", "say something")
    if len(text) > CHAT_MAX:
        raise ApiError(422, "chat_too_long", f"a message is at most {CHAT_MAX} characters")
    info = site.ensure(t)
    now = time.monotonic()
    times = [x for x in info.chat_times.get(seat, []) if now - x < CHAT_WINDOW]
    if len(times) >= CHAT_BURST:
        raise ApiError(429, "chat_too_fast", f"at most {CHAT_BURST} messages in {CHAT_WINDOW:g} s")
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
    return msg



async def read_chat(site: Site, t: Table) -> list[dict[str, Any]]:
    """The table's chat, oldest first."""
    rows = await site.store.read(
        lambda c: c.execute(sa.select(chat_t).where(chat_t.c.table_id == t.id).order_by(chat_t.c.n)).all()
    )
    return [chat_json(x) for x in rows]
