"""Chat routes: say something at a table, read its chat. The rules (who, how long, how often) are in
server/chat.py."""

from __future__ import annotations

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse

from ..chat import read_chat, say
from ..deps import SiteAt, site_errors, site_of
from ..schemas import ChatIn


def router() -> APIRouter:
    r = APIRouter()

    @r.post("/api/tables/{table_id}/chat", tags=["chat"], responses=site_errors(401, 403, 404, 429))
    async def chat_post(body: ChatIn, request: Request, at: SiteAt) -> JSONResponse:
        """Say something at the table (seats only; 300 characters, 5 messages per 10 s). Bots never read it."""
        t, seat = await at.seated()
        return JSONResponse(await say(site_of(request), t, seat, body.text))

    @r.get("/api/tables/{table_id}/chat", tags=["chat"], responses=site_errors(404))
    async def chat_get(request: Request, at: SiteAt) -> JSONResponse:
        """The table's chat, kept with the table (also shown in replays)."""
        t = await at.table()
        return JSONResponse({"table": t.id, "chat": await read_chat(site_of(request), t)})

    return r
