"""Chat routes: say something at a table (players' or spectators' channel), read a channel, report a line. The
rules (who, how long, how often) are in server/chat.py; who reads which channel, blocks and reports in
server/social.py."""

from __future__ import annotations

from typing import Literal

from fastapi import APIRouter, Query, Request
from fastapi import Path as PathParam
from fastapi.responses import JSONResponse

from ..accounts import COOKIE
from ..chat import PAGE_MAX, Reader, read_chat, say
from ..deps import SiteAt, site_errors, site_of
from ..errors import ApiError
from ..limits import client_key
from ..schemas import ChatIn
from ..social import PLAYERS, SPECTATORS
from ..table import Table

Channel = Literal["players", "spectators"]


def router() -> APIRouter:
    r = APIRouter()

    @r.post("/api/tables/{table_id}/chat", tags=["chat"], responses=site_errors(401, 403, 404, 409, 429))
    async def chat_post(body: ChatIn, request: Request, at: SiteAt) -> JSONResponse:
        """Say something at the table: a seat in the players' channel (its token), a signed-in spectator with
        `channel: "spectators"` in the spectators' (session and CSRF; a seat's holder is refused 409
        `not_a_spectator`). 300 characters, 5 messages per 10 s per seat or spectator, 20 per 10 s per client at
        all tables. Bots never read it."""
        site = site_of(request)
        if body.channel == SPECTATORS:
            user = await site.accounts.require(request)
            t, seat = await at.viewing()
            if seat is not None:
                raise ApiError(409, "not_a_spectator", "you hold a seat here: talk in the players' chat")
            return JSONResponse(await say(site, t, None, body.text, client_key(request), user, SPECTATORS))
        t, seat = await at.seated()
        return JSONResponse(await say(site, t, seat, body.text, client_key(request)))

    @r.get("/api/tables/{table_id}/chat", tags=["chat"], responses=site_errors(403, 404))
    async def chat_get(
        request: Request,
        at: SiteAt,
        before: int | None = Query(None, ge=0, le=2**31, description="only messages numbered below this (older)"),
        limit: int | None = Query(None, ge=1, le=PAGE_MAX, description="at most this many (default 100), the newest"),
        channel: Channel = Query(PLAYERS, description="players (default) or spectators"),
    ) -> JSONResponse:
        """A page of one channel of the table's chat (kept with the table, also shown in replays): the newest
        `limit` messages below `before`, oldest first; `more` says whether older ones remain (ask again with
        `before` = the first message's `n`). Lines of players the reader (seat token, session) blocked are left
        out; a player reads the spectators' channel of a rated game only once it is over (403
        `spectator_chat_hidden`)."""
        site = site_of(request)
        t, seat = await at.viewing()
        reader = await _reader(request, t, seat)
        page, more = await read_chat(site, t, before, limit, channel, reader)
        return JSONResponse({"table": t.id, "chat": page, "more": more, "channel": channel})

    @r.post("/api/tables/{table_id}/chat/{n}/report", tags=["chat"], status_code=201,
            responses=site_errors(401, 403, 404, 409, 429))
    async def report(request: Request, at: SiteAt, n: int = PathParam(ge=0, le=2**31)) -> JSONResponse:
        """Report chat line `n` (signed in, CSRF; not your own line, 409 `own_message`; once per line, 409
        `already_reported`; `BOARDLAB_REPORTS_PER_HOUR` an hour, 429 `too_many_reports`). The line is kept as it
        was, with its author, the reporter and the time, for the admins (`GET /api/admin/reports`)."""
        site = site_of(request)
        user = await site.accounts.require(request)
        t, seat = await at.viewing()
        reader = await _reader(request, t, seat, user.id)
        info = site.ensure(t)
        out = await site.social.report(user, t.id, n, lambda ch: reader.may_read(t, info, ch))
        return JSONResponse(out, status_code=201)

    @r.get("/api/admin/reports", tags=["chat"], responses=site_errors(401, 403))
    async def reports(request: Request) -> JSONResponse:
        """The reported chat lines, newest first (admins only: the account names in `BOARDLAB_ADMINS`)."""
        site = site_of(request)
        user = await site.accounts.require(request, csrf=False)
        if not site.social.is_admin(user):
            raise ApiError(403, "not_admin", "only the site's admins read the reports")
        return JSONResponse({"reports": await site.social.reports()})

    return r


async def _reader(request: Request, t: Table, seat: int | None, user_id: int | None = None) -> Reader:
    """Who reads: the token's seat and the session's account (if signed in)."""
    site = site_of(request)
    if user_id is None and request.cookies.get(COOKIE):
        u = await site.accounts.user(request)
        user_id = None if u is None else u.id
    return Reader(site.ensure(t), [seat], user_id)
