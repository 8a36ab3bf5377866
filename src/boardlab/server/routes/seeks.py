"""Play now (issue #34): asking for a seek (`POST /api/seeks`, the table-creation budget), the lists the lobby shows
(`GET /api/seeks`), and the WebSocket a page holds while it waits (`/ws/seeks`): the seek lives as long as it
does. The pairing itself is in server/seeks.py."""

from __future__ import annotations

import asyncio
import contextlib
import json
from typing import Any

from fastapi import APIRouter, Request, WebSocket, WebSocketDisconnect
from fastapi.responses import JSONResponse

from ..accounts import check_csrf
from ..deps import site_errors, site_of
from ..errors import ApiError
from ..limits import Gates, client_key
from ..schemas import SeekIn
from ..seeks import Seeks


def seeks_of(request: Request | WebSocket) -> Seeks:
    seeks: Seeks = request.app.state.seeks
    return seeks


def router(gates: Gates) -> APIRouter:
    r = APIRouter()

    @r.post("/api/seeks", status_code=201, tags=["lobby"], responses=site_errors(400, 401, 403, 404, 429))
    @gates.create
    async def seek(body: SeekIn, request: Request) -> JSONResponse:
        """Ask to be seated with strangers: `{game, players, rated?}` → the seek's id and secret token, for the
        hello of `/ws/seeks`, which must follow within 20 s. Rated by default when signed in."""
        site = site_of(request)
        u = await site.accounts.user(request)
        if u is not None:
            check_csrf(request, u.csrf)
        rated = u is not None if body.rated is None else body.rated
        s, token = seeks_of(request).add(body.game, body.players, rated, client_key(request), u)
        return JSONResponse({"seek": s.id, "token": token, "rated": s.rated}, status_code=201)

    @r.get("/api/seeks", tags=["lobby"])
    async def waiting(request: Request) -> JSONResponse:
        """How many players wait to be seated, per game, player count and rated."""
        return JSONResponse({"seeks": seeks_of(request).listing()})

    @r.websocket("/ws/seeks")
    async def ws_seek(ws: WebSocket) -> None:
        """First message {"type":"hello","seek","token"}; then {"type":"waiting","waiting","players"} whenever the
        list changes and at last {"type":"seated","table","seat","link"}. Closing the socket withdraws the seek."""
        svc = ws.app.state.svc
        client = ws.client.host if ws.client and ws.client.host else "unknown"
        refused = svc.sockets.admit(client, svc.limits)
        await ws.accept()
        if refused is not None:
            await _close(ws, {"type": "error", "error": "too_many_sockets", "status": 429, "detail": refused}, 4429)
            return
        try:
            await _serve(ws, seeks_of(ws))
        finally:
            svc.sockets.release(client)

    return r


async def _serve(ws: WebSocket, seeks: Seeks) -> None:
    try:
        hello = json.loads((await asyncio.wait_for(ws.receive_text(), 15))[:1000])
        s = seeks.find(str(hello["seek"]), str(hello["token"]))
    except ApiError as e:
        await _close(ws, {"type": "error", **e.to_json(), "status": e.status}, 4403)
        return
    except (TimeoutError, ValueError, KeyError, TypeError, WebSocketDisconnect):
        await _close(ws, {"type": "error", "error": "bad_hello", "status": 400,
                          "detail": 'send {"type":"hello","seek":...,"token":...} first'}, 4400)
        return
    reader = asyncio.create_task(_read_until_closed(ws))
    try:
        await seeks.enter(s)
        while True:
            getter = asyncio.create_task(s.outbox.get())
            done, _ = await asyncio.wait({getter, reader}, return_when=asyncio.FIRST_COMPLETED)
            if getter not in done:  # the page went away
                getter.cancel()
                return
            msg = getter.result()
            await ws.send_text(json.dumps(msg))
            if msg["type"] in ("seated", "error"):
                with contextlib.suppress(Exception):
                    await ws.close(1000)
                return
    except (WebSocketDisconnect, RuntimeError):
        return
    finally:
        seeks.leave(s)
        reader.cancel()


async def _read_until_closed(ws: WebSocket) -> None:
    """Pings and anything else the page sends are read and ignored; the task ends when the socket closes."""
    with contextlib.suppress(Exception):
        while True:
            msg: Any = await ws.receive()
            if msg.get("type") == "websocket.disconnect":
                return


async def _close(ws: WebSocket, msg: dict[str, Any], code: int) -> None:
    with contextlib.suppress(Exception):
        await asyncio.wait_for(ws.send_text(json.dumps(msg)), 5)
        await asyncio.wait_for(ws.close(code), 5)
