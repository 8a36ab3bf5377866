"""The WebSocket protocol of a table (/ws/tables/{id}): the hello with seat tokens, the pushed state
messages, the client's act/undo/ping, and closing. docs/server.md, "WebSocket"; the outgoing queue and
its back-pressure are in server/conn.py, the uvicorn protocol below it in server/protocol.py."""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from typing import Any

import orjson
from fastapi import APIRouter, WebSocket, WebSocketDisconnect

from ..accounts import COOKIE
from ..conn import Conn
from ..errors import ApiError
from ..policy import lang_of
from ..service import TableService
from ..table import Table

log = logging.getLogger("boardlab.server")


def router() -> APIRouter:
    r = APIRouter()

    @r.websocket("/ws/tables/{table_id}")
    async def ws_table(ws: WebSocket, table_id: str) -> None:
        """First message {"type":"hello","tokens":[...],"lang":"en"}; then the server pushes a
        state message per held seat after every change; the client may send act/undo/ping."""
        svc: TableService = ws.app.state.svc
        client = ws.client.host if ws.client and ws.client.host else "unknown"
        refused = svc.sockets.admit(client, svc.limits)  # counted from here to the end of the handler
        if refused is not None:
            await ws.accept()
            await _send_close(ws, _too_many(refused), 4429)
            return
        try:
            await ws.accept()
            await _serve(ws, svc, table_id)
        finally:
            svc.sockets.release(client)

    return r


def _too_many(detail: str) -> dict[str, Any]:
    return {"type": "error", "error": "too_many_sockets", "status": 429, "detail": detail}


async def _serve(ws: WebSocket, svc: TableService, table_id: str) -> None:
    """One accepted WebSocket of a table, from its hello to its close."""
    try:
        hello = orjson.loads(await asyncio.wait_for(ws.receive_text(), 15))  # depth-limited parser
        tokens = hello.get("tokens") or []
        if (
            not isinstance(tokens, list)
            or len(tokens) > 16
            or not all(isinstance(x, str) for x in tokens)
        ):
            raise ValueError("tokens must be a list of strings")
        t = await svc.get(table_id)
    except ApiError as e:
        await _send_close(ws, {"type": "error", **e.to_json(), "status": e.status}, 4404)
        return
    except (TimeoutError, ValueError, AttributeError, KeyError, TypeError, WebSocketDisconnect):
        await _send_close(
            ws,
            {
                "type": "error",
                "error": "bad_hello",
                "status": 400,
                "detail": 'send {"type":"hello","tokens":[...]} first',
            },
            4400,
        )
        return
    seats: list[int | None] = []
    for tok in tokens:
        s = t.seat_of(tok)
        if s is None:
            await _send_close(
                ws,
                {
                    "type": "error",
                    "error": "bad_token",
                    "status": 403,
                    "detail": "a token holds no seat at this table",
                },
                4403,
            )
            return
        if s not in seats:
            seats.append(s)
    lim = svc.limits
    if not seats and sum(c.seats == [None] for c in t.conns) >= lim.max_spectators:
        await _send_close(ws, _too_many(f"this table has {lim.max_spectators} spectators already"), 4429)
        return
    conn = Conn(seats or [None], lang_of(hello.get("lang")), ws.send_text, lim.ws_queue, lim.ws_send_timeout)
    if ws.cookies.get(COOKIE):  # a signed-in reader: whose chat lines they blocked, and if they sit here (social.py)
        with contextlib.suppress(Exception):
            u = await ws.app.state.site.accounts.user(ws)
            conn.user_id = None if u is None else u.id

    async def sender() -> None:
        try:
            await conn.run()
        except asyncio.CancelledError:
            pass  # dropped: Conn.drop logged why
        except Exception as e:  # the socket failed under a send; the reader sees the disconnect too
            log.info("WebSocket send failed at table %s: %r", t.id, e)

    async def reader() -> None:
        while True:
            msg = await ws.receive()
            if msg["type"] == "websocket.disconnect":
                return
            raw = msg.get("text")
            if raw is None:
                reply: dict[str, Any] | None = {
                    "type": "error",
                    "id": None,
                    "status": 400,
                    "error": "bad_message",
                    "detail": "messages are JSON text frames",
                }
            else:
                reply = await _ws_command(svc, t, conn, raw)
            if reply is not None:
                conn.push(json.dumps(reply, ensure_ascii=False))

    conn.task = asyncio.create_task(sender())
    svc.attach(t, conn)
    reading = asyncio.create_task(reader())
    gone = asyncio.create_task(conn.gone.wait())
    try:
        await asyncio.wait({reading, gone}, return_when=asyncio.FIRST_COMPLETED)
    finally:
        svc.detach(t, conn)  # presence follows the socket: the seat is free for a bot from now
        gone.cancel()
        reading.cancel()
        with contextlib.suppress(BaseException):
            await reading
        if conn.why is None:
            conn.close()  # the client left (or the table is reloaded): flush what is queued
            with contextlib.suppress(BaseException):
                await asyncio.wait_for(asyncio.shield(conn.task), lim.ws_send_timeout)
        # a dropped client gets a close frame if its socket takes one; if not, the protocol
        # aborts the socket once this handler returns (server/protocol.py)
        with contextlib.suppress(BaseException):
            await asyncio.wait_for(ws.close(1008 if conn.why else 1000), 1)


async def _ws_command(svc: TableService, t: Table, conn: Conn, raw: str) -> dict[str, Any] | None:
    """Handle one client message; the reply (ack or error) goes to this connection only."""
    msg_id: Any = None
    try:
        msg = orjson.loads(raw)  # depth-limited (1024): `"[" * 60000` is a clean JSONDecodeError
        if not isinstance(msg, dict):
            raise ApiError(400, "bad_message", "messages are JSON objects")
        msg_id = msg.get("id")
        if not isinstance(msg_id, int | str | None) or (isinstance(msg_id, str) and len(msg_id) > 64):
            msg_id = None
        kind = msg.get("type")
        if kind == "ping":
            return {"type": "pong", "id": msg_id}
        if kind not in ("act", "undo"):
            raise ApiError(400, "bad_message", "type must be act, undo or ping")
        held = [s for s in conn.seats if s is not None]
        seat = msg.get("seat", held[0] if len(held) == 1 else None)
        if not held:
            raise ApiError(401, "no_token", "spectators cannot act")
        if type(seat) is not int or seat not in held:  # not 1.0 (== 1 in Python), not True
            raise ApiError(403, "bad_token", "this connection holds no such seat")
        move = msg.get("move")
        if not isinstance(move, int) or isinstance(move, bool):
            raise ApiError(400, "bad_message", "move must be an integer")
        if kind == "act":
            text = msg.get("action")
            if not isinstance(text, str):
                raise ApiError(400, "bad_message", "action must be a string")
            await svc.act(t, seat, move, text, conn.lang, reply=False)  # a refusal in the page's language
        else:
            await svc.undo(t, seat, move, conn.lang)
        return {"type": "ack", "id": msg_id, "version": t.version}
    except ApiError as e:
        return {"type": "error", "id": msg_id, "status": e.status, **e.to_json()}
    except (json.JSONDecodeError, UnicodeError, RecursionError):
        return {"type": "error", "id": msg_id, "status": 400, "error": "bad_message", "detail": "not JSON"}
    except Exception:  # a bug, not the client's fault: log it, answer, keep the connection
        log.exception("WebSocket message failed at table %s", t.id)
        return {"type": "error", "id": msg_id, "status": 500, "error": "internal", "detail": "internal error"}


async def _send_close(ws: WebSocket, msg: dict[str, Any], code: int) -> None:
    with contextlib.suppress(Exception):
        await asyncio.wait_for(ws.send_text(json.dumps(msg)), 5)
        await asyncio.wait_for(ws.close(code), 5)
