"""Misbehaving clients on raw sockets: a WebSocket that stops reading, slow senders, huge headers.

The well-behaved clients (httpx, websockets) cannot misbehave on purpose, so these speak the bytes.
"""

from __future__ import annotations

import base64
import json
import os
import socket
import struct
from typing import Any


def connect(port: int, rcvbuf: int | None = None, timeout: float = 10) -> socket.socket:
    s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    if rcvbuf is not None:  # before connect, so the window the server sees is small from the start
        s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, rcvbuf)
    s.settimeout(timeout)
    s.connect(("127.0.0.1", port))
    return s


def frame(text: str, opcode: int = 1) -> bytes:
    """One masked client frame (RFC 6455)."""
    data = text.encode()
    head = bytes([0x80 | opcode])
    n = len(data)
    if n < 126:
        head += bytes([0x80 | n])
    elif n < 65536:
        head += bytes([0x80 | 126]) + struct.pack("!H", n)
    else:
        head += bytes([0x80 | 127]) + struct.pack("!Q", n)
    mask = os.urandom(4)
    return head + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(data))


def ws_open(port: int, table: str, hello: dict[str, Any], rcvbuf: int | None = None) -> socket.socket:
    """Handshake and send `hello`; the caller then reads (or, to test back-pressure, does not)."""
    s = connect(port, rcvbuf)
    key = base64.b64encode(os.urandom(16)).decode()
    s.sendall(
        (
            f"GET /ws/tables/{table} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nUpgrade: websocket\r\n"
            f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n"
        ).encode()
    )
    got = b""
    while b"\r\n\r\n" not in got:  # byte by byte: leave every frame after the handshake unread
        b = s.recv(1)
        if not b:
            raise ConnectionError("closed during the handshake")
        got += b
    assert got.startswith(b"HTTP/1.1 101"), got
    s.sendall(frame(json.dumps(hello)))
    return s


def http_status(s: socket.socket) -> int | None:
    """The status of the response on `s`, or None if the server closed it without one."""
    try:
        data = s.recv(4096)
    except (ConnectionResetError, TimeoutError):
        return None
    if not data:
        return None
    return int(data.split(b" ", 2)[1])
