"""ASGI middleware of the application: security headers on every response, and request-body limits."""

from __future__ import annotations

import asyncio
import json
from typing import Any

from starlette.types import ASGIApp, Message, Receive, Scope, Send

MAX_BODY = 64 * 1024


SECURITY_HEADERS = [
    (
        b"content-security-policy",
        b"default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; "
        b"connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'",
    ),
    (b"x-frame-options", b"DENY"),
    (b"referrer-policy", b"no-referrer"),
    (b"x-content-type-options", b"nosniff"),
]
"""On every HTTP response: scripts only from this server (no inline script, so an injected name
cannot run), the pages cannot be framed (clickjacking), no Referer leaves, no MIME sniffing."""


class SecurityHeaders:
    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def with_headers(msg: Message) -> None:
            if msg["type"] == "http.response.start":
                msg["headers"] = [*msg.get("headers", []), *SECURITY_HEADERS]
            await send(msg)

        await self.app(scope, receive, with_headers)


class RequestGuard:
    """Refuse, before any route runs, a request whose path or query holds NUL, raw or as %00 (400): PostgreSQL
    can neither store nor compare text with NUL and answered such a user name with a 500; and one whose request
    line and headers together exceed `max_header_bytes` (431): the HTTP parser enforces that limit only while
    headers are still arriving, so a whole 60 KB header that came in one read was accepted. A WebSocket is
    closed before it opens instead."""

    def __init__(self, app: ASGIApp, max_header_bytes: int) -> None:
        self.app = app
        self.max_header_bytes = max_header_bytes

    def _refusal(self, scope: Scope) -> tuple[int, int, dict[str, str]] | None:
        """(HTTP status, WebSocket close code, JSON body) of the refusal, or None when the request may go on."""
        path, query = scope.get("path", ""), scope.get("query_string", b"")
        if "\x00" in path or b"\x00" in query or b"%00" in query:
            return 400, 1008, {"error": "bad_request", "detail": "a request path or query may not hold NUL"}
        size = len(scope.get("raw_path") or b"") + len(query)
        size += sum(len(k) + len(v) + 4 for k, v in scope.get("headers", []))
        if size > self.max_header_bytes:
            return 431, 1009, {"error": "too_large",
                               "detail": f"request headers are at most {self.max_header_bytes} bytes"}
        return None

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        refusal = self._refusal(scope) if scope["type"] in ("http", "websocket") else None
        if refusal is None:
            await self.app(scope, receive, send)
        elif scope["type"] == "websocket":
            await send({"type": "websocket.close", "code": refusal[1]})
        else:
            await _json_response(send, refusal[0], refusal[2])


class BodyLimit:
    """Refuse request bodies over MAX_BODY before they are read into memory (413), and bodies whose
    next chunk takes over `body_timeout` seconds to arrive (408: a slow sender holds a connection)."""

    def __init__(self, app: ASGIApp, body_timeout: float = 10.0) -> None:
        self.app = app
        self.body_timeout = body_timeout

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        for k, v in scope.get("headers", []):
            if k == b"content-length" and (not v.isdigit() or int(v) > MAX_BODY):
                await _too_large(send)
                return
        seen = 0

        async def limited() -> Message:
            nonlocal seen
            try:
                msg = await asyncio.wait_for(receive(), self.body_timeout)
            except TimeoutError:
                raise _TooSlow from None
            if msg["type"] == "http.request":
                seen += len(msg.get("body", b""))
                if seen > MAX_BODY:
                    raise _TooLarge
            return msg

        try:
            await self.app(scope, limited, send)
        except _TooLarge:
            await _too_large(send)
        except _TooSlow:
            await _json_response(send, 408, {"error": "too_slow", "detail": "the request body came too slowly"})


class _TooLarge(Exception):
    pass


class _TooSlow(Exception):
    pass


async def _json_response(send: Send, status: int, payload: dict[str, Any]) -> None:
    body = json.dumps(payload).encode()
    headers = [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())]
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": body})


async def _too_large(send: Send) -> None:
    await _json_response(send, 413, {"error": "too_large", "detail": f"request bodies are at most {MAX_BODY} bytes"})
