"""One WebSocket connection's outgoing side: the seats it holds, its language, its bounded queue
and the back-pressure that drops a client which stops reading."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable

log = logging.getLogger("boardlab.server")


class Conn:
    """One WebSocket: which seats it holds, its language, and its outgoing queue.

    Back-pressure: the queue is bounded (`BOARDLAB_WS_QUEUE`) and every send must leave within
    `BOARDLAB_WS_SEND_TIMEOUT` seconds; a client that stops reading trips one or the other and is
    dropped: `drop()` does not go through the (full) queue, it cancels the sender, sets `gone` (the
    handler then detaches the seats and returns) and logs why."""

    def __init__(
        self,
        seats: list[int | None],
        lang: str,
        send: Callable[[str], Awaitable[None]],
        max_queue: int = 256,
        send_timeout: float = 10.0,
    ) -> None:
        self.seats = seats
        self.lang = lang
        self.queue: asyncio.Queue[str | None] = asyncio.Queue(maxsize=max_queue)
        self._send = send
        self.send_timeout = send_timeout
        self.task: asyncio.Task[None] | None = None
        self.gone = asyncio.Event()
        self.why: str | None = None
        self.user_id: int | None = None  # the account of the session cookie, if any: chat blocks (social.py)

    def push(self, text: str) -> None:
        if self.gone.is_set():
            return
        try:
            self.queue.put_nowait(text)
        except asyncio.QueueFull:  # a client that does not read: drop it rather than buffer forever
            self.drop(f"{self.queue.maxsize} messages queued")

    def close(self) -> None:
        """Finish sending what is queued, then stop (or drop at once if the queue is full)."""
        try:
            self.queue.put_nowait(None)
        except asyncio.QueueFull:
            self.drop(f"{self.queue.maxsize} messages queued at close")

    def drop(self, why: str) -> None:
        """Give up on this client now, whatever is queued."""
        if self.gone.is_set():
            return
        self.why = why
        log.warning("dropping a WebSocket that does not keep up (%s; seats %s)", why, self.seats)
        self.gone.set()
        if self.task is not None and not self.task.done():
            self.task.cancel()

    async def run(self) -> None:
        try:
            while True:
                text = await self.queue.get()
                if text is None:
                    return
                try:  # a timeout scope, not wait_for: wait_for wraps every send in a task of its own
                    async with asyncio.timeout(self.send_timeout):
                        await self._send(text)
                except TimeoutError:
                    self.drop(f"a message took over {self.send_timeout:g} s to leave")
                    return
        finally:
            self.gone.set()


