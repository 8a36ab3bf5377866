"""A small synchronous WebSocket client for the tests (websockets' sync client)."""

from __future__ import annotations

import json
import time
from typing import Any

from websockets.sync.client import ClientConnection, connect


class Ws:
    """One connection to a table; collects every message it receives (for the leak checks)."""

    def __init__(self, base: str, table: str, tokens: list[str] | None = None, lang: str = "en") -> None:
        self.conn: ClientConnection = connect(
            f"{base}/ws/tables/{table}", open_timeout=10, max_size=2**22
        ).__enter__()
        self.conn.send(json.dumps({"type": "hello", "tokens": tokens or [], "lang": lang}))
        self.seen: list[dict[str, Any]] = []

    def recv(self, timeout: float = 10) -> dict[str, Any]:
        msg = json.loads(self.conn.recv(timeout=timeout))
        self.seen.append(msg)
        return dict(msg)

    def until(self, pred: Any, timeout: float = 15) -> dict[str, Any]:
        """Read messages until one satisfies `pred`."""
        deadline = time.monotonic() + timeout
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError("no matching message")
            m = self.recv(left)
            if pred(m):
                return m

    def state(
        self, seat: int | None = None, version: int | None = None, timeout: float = 15
    ) -> dict[str, Any]:
        return self.until(
            lambda m: (
                m.get("type") == "state"
                and (seat is None or m["seat"] == seat)
                and (version is None or m["version"] >= version)
            ),
            timeout,
        )

    def send(self, msg: dict[str, Any]) -> None:
        self.conn.send(json.dumps(msg))

    def close(self) -> None:
        self.conn.close()

    def __enter__(self) -> Ws:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
