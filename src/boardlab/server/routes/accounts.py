"""Accounts: who is signed in, sign-up, sign-in, sign-out, "My games", and keeping a guest seat in
one's account. Sessions, passwords and CSRF are in server/accounts.py."""

from __future__ import annotations

import contextlib
from typing import Any

import sqlalchemy as sa
from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse
from sqlalchemy.engine import Connection

from ..accounts import name_key
from ..db import tables_t
from ..deps import SiteAt, link, site_errors, site_of
from ..errors import ApiError
from ..limits import Gates, client_key
from ..schemas import Credentials, MailSettings, PushEndpoint, PushSubscription
from ..sitedb import seat_users_t


def router(gates: Gates) -> APIRouter:
    r = APIRouter()

    @r.get("/api/me", tags=["accounts"], responses=site_errors())
    async def me(request: Request) -> JSONResponse:
        """The signed-in user (name, CSRF token for changes), or null."""
        u = await site_of(request).accounts.user(request)
        return JSONResponse({"user": None if u is None else {"name": u.name, "csrf": u.csrf}})

    @r.post("/api/account/signup", tags=["accounts"], responses=site_errors(409), status_code=201)
    async def sign_up(body: Credentials, request: Request) -> JSONResponse:
        """Create an account (unique name, 3-20 letters/digits/_/-; password 8-128) and sign in."""
        site = site_of(request)
        u, token = await site.accounts.sign_up(body.name, body.password, client_key(request))
        resp = JSONResponse({"user": {"name": u.name, "csrf": u.csrf}}, status_code=201)
        site.accounts.set_cookie(request, resp, token)
        site.accounts.set_device(request, resp, u.name)
        return resp

    @r.post("/api/account/signin", tags=["accounts"], responses=site_errors(401, 429))
    async def sign_in(body: Credentials, request: Request) -> JSONResponse:
        """Sign in; failed attempts for a name or an address are answered more and more slowly."""
        site = site_of(request)
        accounts = site.accounts
        known = accounts.known_device(request, name_key(body.name or "")[:60])
        u, token = await accounts.sign_in(body.name, body.password, client_key(request), known)
        resp = JSONResponse({"user": {"name": u.name, "csrf": u.csrf}})
        accounts.set_cookie(request, resp, token)
        accounts.set_device(request, resp, u.name)
        return resp

    @r.post("/api/account/signout", tags=["accounts"], responses=site_errors(401, 403))
    async def sign_out(request: Request) -> JSONResponse:
        site = site_of(request)
        await site.accounts.require(request)
        await site.accounts.sign_out(request)
        resp = JSONResponse({"user": None})
        resp.delete_cookie("bl_session", path="/")
        return resp

    @r.post("/api/account/signout/everywhere", tags=["accounts"], responses=site_errors(401, 403))
    async def sign_out_everywhere(request: Request) -> JSONResponse:
        """End every session of the signed-in account, this one included."""
        site = site_of(request)
        user = await site.accounts.require(request)
        ended = await site.accounts.sign_out_everywhere(user)
        resp = JSONResponse({"user": None, "sessions_ended": ended})
        resp.delete_cookie("bl_session", path="/")
        return resp

    @r.get("/api/me/tables", tags=["accounts"], responses=site_errors(401))
    async def my_tables(request: Request) -> JSONResponse:
        """Every table of the signed-in player, those where it is their turn first, with their links."""
        site = site_of(request)
        u = await site.accounts.require(request, csrf=False)
        rows = await site.store.read(lambda c: _my_rows(c, u.id))
        out = []
        for tid, seat, status, game, updated in rows:
            item: dict[str, Any] = {
                "table": tid, "seat": seat, "game": game, "over": status != "playing", "updated": updated,
                "my_turn": False, "link": link(tid, [site.seat_token(tid, seat, u.id)]),
            }
            if status == "playing":
                with contextlib.suppress(Exception):
                    t = await site.svc.get(tid)
                    item["my_turn"] = t.state.current_player == seat and not t.over
                    item["over"] = t.over
            out.append(item)
        out.sort(key=lambda x: (not x["my_turn"], x["over"], -x["updated"]))
        return JSONResponse({"tables": out})

    @r.get("/api/me/mail", tags=["accounts"], responses=site_errors(401))
    async def mail_settings(request: Request) -> JSONResponse:
        """Your-turn e-mails: your address, whether you get them, their language, and whether this site sends
        e-mail at all (`available`)."""
        site = site_of(request)
        u = await site.accounts.require(request, csrf=False)
        return JSONResponse(await site.mail.settings(u.id))

    @r.put("/api/me/mail", tags=["accounts"], responses=site_errors(401, 403, 422))
    async def set_mail(body: MailSettings, request: Request) -> JSONResponse:
        """Ask for (or stop) an e-mail when a table waits for your move and you are not at it; each e-mail has an
        unsubscribe link."""
        site = site_of(request)
        u = await site.accounts.require(request)
        return JSONResponse(await site.mail.set(u.id, body.email, body.turns, body.lang))

    @r.get("/api/push/key", tags=["accounts"], responses=site_errors())
    async def push_key(request: Request) -> JSONResponse:
        """The site's VAPID public key (base64url), the `applicationServerKey` of a browser's push subscription."""
        return JSONResponse({"key": site_of(request).push.public})

    @r.get("/api/me/push", tags=["accounts"], responses=site_errors(401))
    async def push_count(request: Request) -> JSONResponse:
        """How many browsers get your-turn push messages for your account."""
        site = site_of(request)
        u = await site.accounts.require(request, csrf=False)
        return JSONResponse({"subscriptions": await site.push.count(u.id)})

    @r.put("/api/me/push", tags=["accounts"], responses=site_errors(401, 403, 422))
    async def push_subscribe(body: PushSubscription, request: Request) -> JSONResponse:
        """Get a push message in this browser when a table waits for your move and you are not at it (the
        endpoint must be a push service's; at most 10 browsers per account, the oldest dropped)."""
        site = site_of(request)
        u = await site.accounts.require(request)
        n = await site.push.subscribe(u.id, body.endpoint, body.keys.p256dh, body.keys.auth, body.lang)
        return JSONResponse({"subscriptions": n})

    @r.delete("/api/me/push", tags=["accounts"], responses=site_errors(401, 403))
    async def push_unsubscribe(body: PushEndpoint, request: Request) -> JSONResponse:
        """Stop the push messages to this browser (its subscription's endpoint)."""
        site = site_of(request)
        u = await site.accounts.require(request)
        return JSONResponse({"subscriptions": await site.push.unsubscribe(u.id, body.endpoint)})

    @r.get("/api/me/turns", tags=["accounts"], responses=site_errors(401))
    async def my_turns(request: Request) -> JSONResponse:
        """How many of the signed-in player's unfinished tables wait for their move (the header's My games link
        on every page polls it): one indexed query for the unfinished tables, the turn from the live tables."""
        site = site_of(request)
        u = await site.accounts.require(request, csrf=False)
        rows = await site.store.read(lambda c: _my_rows(c, u.id, playing=True))
        waiting = []
        for tid, seat, _status, _game, _updated in rows:
            with contextlib.suppress(Exception):
                t = await site.svc.get(tid)
                if not t.over and t.state.current_player == seat and t.seats[seat].kind == "human":
                    waiting.append(tid)
        return JSONResponse({"count": len(waiting), "tables": waiting})

    @r.post("/api/tables/{table_id}/claim", tags=["seats"], responses=site_errors(401, 403, 404, 409, 429))
    @gates.seats
    async def claim(request: Request, at: SiteAt) -> JSONResponse:
        """Keep a guest seat in your account: needs the seat's token and a signed-in session. The seat's
        token changes to your account's (the old link stops working; "My games" has the new one)."""
        site = site_of(request)
        u = await site.accounts.require(request)
        t, seat = await at.seated()
        info = site.ensure(t)
        if seat in info.users and info.users[seat][0] != u.id:
            raise ApiError(409, "seat_owned", "this seat belongs to another account")
        if any(uid == u.id for s, (uid, _n) in info.users.items() if s != seat):
            raise ApiError(409, "already_seated", "your account already holds another seat here")
        # a block between this account and a player here: the seat is not kept (issue #34, server/social.py)
        await site.social.check_may_sit({uid for s, (uid, _n) in info.users.items() if s != seat}, u.id)
        tok = site.seat_token(t.id, seat, u.id)
        await site.link_seat(t, seat, u, tok)
        site.svc.broadcast(t)
        return JSONResponse({"table": t.id, "seat": seat, "token": tok, "link": link(t.id, [tok])})

    return r


def _my_rows(conn: Connection, user_id: int, playing: bool = False) -> list[tuple[str, int, str, str, float]]:
    q = (
        sa.select(tables_t.c.id, seat_users_t.c.seat, tables_t.c.status, tables_t.c.game, tables_t.c.updated_at)
        .join(seat_users_t, seat_users_t.c.table_id == tables_t.c.id)
        .where(seat_users_t.c.user_id == user_id)
        .order_by(tables_t.c.updated_at.desc())
        .limit(60)
    )
    if playing:  # unfinished tables only
        q = q.where(tables_t.c.status == "playing")
    return [(r.id, r.seat, r.status, r.game, r.updated_at) for r in conn.execute(q)]

