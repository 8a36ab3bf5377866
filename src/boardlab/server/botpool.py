"""A fair queue in front of the bot workers: one client's tables cannot starve everyone's bots.

Why: the worker pool is first come, first served. Thirty tables of hard bots from one client filled
it, every other table's bot waited behind them, overran its budget and fell back to a random move
(issue #11: 310 fallbacks, replies up to 14.8 s). Here a job goes to a worker only when one is free
(so a bot's time budget starts when it really starts thinking, not while it queues), and the next
job is taken round-robin over clients: with k clients waiting, each gets 1/k of the workers
whatever the length of its own queue. A table has at most one bot thinking at a time, so within a
client the order is round-robin over its tables too. `tests/server/test_botpool.py` measures it.
"""

from __future__ import annotations

import asyncio
import time
from collections import OrderedDict, deque
from collections.abc import Awaitable, Callable
from typing import TypeVar

from .bots import BotJob, BotRunner, run_timed_job

T = TypeVar("T")


class FairPool:
    """At most `slots` jobs at once; waiting jobs are served round-robin by key (the client)."""

    def __init__(self, slots: int) -> None:
        self.slots = max(1, slots)
        self.busy = 0
        self._waiting: OrderedDict[str, deque[asyncio.Future[None]]] = OrderedDict()

    @property
    def queued(self) -> int:
        return sum(len(q) for q in self._waiting.values())

    async def run(self, key: str, job: Callable[[], Awaitable[T]]) -> T:
        """Run `job()` when a slot is free and it is `key`'s turn."""
        await self._acquire(key)
        try:
            return await job()
        finally:
            self._release()

    async def _acquire(self, key: str) -> None:
        if self.busy < self.slots and not self._waiting:
            self.busy += 1
            return
        fut: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._waiting.setdefault(key, deque()).append(fut)
        try:
            await fut
        except asyncio.CancelledError:
            if fut.done() and not fut.cancelled():  # the slot was handed over just now: pass it on
                self._release()
            else:
                q = self._waiting.get(key)
                if q is not None and fut in q:
                    q.remove(fut)
                    if not q:
                        del self._waiting[key]
            raise

    def _release(self) -> None:
        self.busy -= 1
        while self._waiting and self.busy < self.slots:
            key, q = next(iter(self._waiting.items()))
            fut = q.popleft()
            if q:
                self._waiting.move_to_end(key)  # this client's next job waits for the others' turn
            else:
                del self._waiting[key]
            if not fut.done():
                self.busy += 1
                fut.set_result(None)


async def fair_choose(pool: FairPool, bots: BotRunner, owner: str, job: BotJob) -> str:
    """`BotRunner.choose`, with the worker reached through the fair queue: the queue slot is held while
    a worker computes, not during the constant-time pacing that follows (bots.py), which would leave
    the worker idle (measured: 10 Cacao bot tables made 28 moves in 30 s with the pace inside the
    slot). The pace counts from the moment a worker took the job, not from when the decision was asked:
    counted from the asking, a queue longer than the pace let the bot's own thinking show on top of it
    (issue #32: a quick and a slow answer told apart 8 times in 8 under load; tests/server/test_bot_pace.py).
    And a quick answer to such a decision holds its queue slot for the whole budget, as a search does: else the
    next job's queue wait would tell how long this one took."""
    loop = asyncio.get_running_loop()

    async def compute() -> tuple[str, str | None, float]:
        fut = loop.run_in_executor(bots.pool, run_timed_job, job)
        text, kind, started = await asyncio.wait_for(fut, timeout=bots.grace)
        if kind is not None:  # a quick answer keeps its slot as long as a full search: the next job's wait
            await asyncio.sleep(max(0.0, started + bots.seconds - time.monotonic()))  # must not tell it either
        return text, kind, started

    text, kind, started = await pool.run(owner, compute)
    await bots.hold(kind, started)
    return text
