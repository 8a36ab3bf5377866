"""uvicorn's protocols with the limits a public server needs below the application.

Why subclasses: what arrives before a request reaches the application (its headers) and what is
stuck in a socket after the application let go of it (a WebSocket whose peer stopped reading) are
the protocol's business, and uvicorn leaves both open-ended:

* the httptools parser (uvicorn's default) accepts headers of any size: h11 is used instead, with
  its incomplete-event limit (`max_header_bytes`, answered 400), and a client has `header_timeout`
  seconds to finish sending the headers of each request (slowloris), else the socket is closed;
* a closed WebSocket whose peer does not read keeps its unsent bytes (in the transport and in the
  kernel), and `transport.close()` waits for them for ever: a socket still open `ABORT_AFTER` seconds
  after the application returned is aborted instead; so is one whose peer does not answer a ping.
"""

from __future__ import annotations

import asyncio
import contextlib
import socket
import struct
from typing import Any

import h11
from uvicorn.protocols.http.h11_impl import H11Protocol
from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol

ABORT_AFTER = 2.0
"""Seconds a finished WebSocket may spend flushing its last bytes before its socket is aborted."""


def reset(transport: asyncio.BaseTransport) -> None:
    """Close with a TCP reset: `transport.abort()` alone closes the socket gracefully, and the kernel
    then keeps (and retries) up to megabytes of unsent data for a peer that never reads."""
    sock = transport.get_extra_info("socket")
    if sock is not None:
        with contextlib.suppress(OSError):
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
    transport.abort()


class GuardedH11Protocol(H11Protocol):
    header_timeout = 10.0

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._header_timer: asyncio.TimerHandle | None = None

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._arm()

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm()
        super().connection_lost(exc)

    def data_received(self, data: bytes) -> None:
        super().data_received(data)
        if self.conn.their_state is h11.IDLE and self.transport.get_protocol() is self:
            if self._header_timer is None:  # a (next) request has begun: its headers are on the clock
                self._arm()
        else:
            self._disarm()

    def handle_websocket_upgrade(self, event: h11.Request) -> None:
        self._disarm()
        super().handle_websocket_upgrade(event)

    def _arm(self) -> None:
        self._disarm()
        self._header_timer = self.loop.call_later(self.header_timeout, self._headers_too_slow)

    def _disarm(self) -> None:
        if self._header_timer is not None:
            self._header_timer.cancel()
            self._header_timer = None

    def _headers_too_slow(self) -> None:
        self._header_timer = None
        if self.conn.their_state is h11.IDLE and self.transport.get_protocol() is self:
            reset(self.transport)


class GuardedWebSocketProtocol(WebSocketsSansIOProtocol):
    async def run_asgi(self) -> None:
        await super().run_asgi()
        self.loop.call_later(ABORT_AFTER, self._abort_if_stuck)

    def _abort_if_stuck(self) -> None:
        # the application is done with this socket; a peer that has not finished closing by now is
        # not reading (its unsent bytes may sit in the kernel, not only in the transport's buffer)
        if not self.disconnected:
            reset(self.transport)

    def keepalive_timeout(self) -> None:
        super().keepalive_timeout()
        self.loop.call_later(ABORT_AFTER, self._abort_if_stuck)


def http_protocol(header_timeout: float) -> type[GuardedH11Protocol]:
    """The HTTP protocol class for uvicorn with this header timeout."""
    return type("BoardlabH11Protocol", (GuardedH11Protocol,), {"header_timeout": header_timeout})
