"""Chat routes: say something at a table, read its chat. The rules (who, how long, how often) are in
server/chat.py."""

from __future__ import annotations

from fastapi import APIRouter, Query, Request
from fastapi.responses import JSONResponse

from ..chat import PAGE_MAX, read_chat, say
from ..deps import SiteAt, site_errors, site_of
from ..limits import client_key
from ..schemas import ChatIn


def router() -> APIRouter:
    r = APIRouter()

    @r.post("/api/tables/{table_id}/chat", tags=["chat"], responses=site_errors(401, 403, 404, 429))
    async def chat_post(body: ChatIn, request: Request, at: SiteAt) -> JSONResponse:
        """Say something at the table (seats only; 300 characters, 5 messages per 10 s per seat, 20 per 10 s per
        client at all tables). Bots never read it."""
        t, seat = await at.seated()
        return JSONResponse(await say(site_of(request), t, seat, body.text, client_key(request)))

    @r.get("/api/tables/{table_id}/chat", tags=["chat"], responses=site_errors(404))
    async def chat_get(
        request: Request,
        at: SiteAt,
        before: int | None = Query(None, ge=0, le=2**31, description="only messages numbered below this (older)"),
        limit: int | None = Query(None, ge=1, le=PAGE_MAX, description="at most this many (default 100), the newest"),
    ) -> JSONResponse:
        """A page of the table's chat (kept with the table, also shown in replays): the newest `limit` messages
        below `before`, oldest first; `more` says whether older ones remain (ask again with `before` = the first
        message's `n`)."""
        t = await at.table()
        page, more = await read_chat(site_of(request), t, before, limit)
        return JSONResponse({"table": t.id, "chat": page, "more": more})

    return r
