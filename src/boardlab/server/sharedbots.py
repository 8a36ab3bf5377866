"""The bot queue shared by every server process through Redis (issue #37; docs/server.md, "Many processes").

Why a Redis list of jobs rather than per-process pools with a shared fairness counter: with per-process pools a
process whose tables have many hard bots has a long queue while another's workers sit idle, and a client spread
over N processes gets N shares. Here every process pushes its bots' jobs into one queue, served round-robin over
clients (the fair queue of botpool.py, with its turn order kept in Redis), and every process's workers take jobs
from it: the site's workers serve whoever waits longest in turn, whatever process holds the table. The table's
owner keeps applying the move (a worker only computes): the lease, the log and its key still decide who writes.

Keys (a prefix per site): `<p>:clients` the clients with jobs waiting, in turn order; `<p>:q:<client>` that
client's jobs, oldest first; `<p>:wake` one token per job pushed (workers block on it); `<p>:r:<job>` the replies
for one job ("taken", then the answer), kept a minute. Pushing and taking are one Lua script each (atomic).

Failures cost time, never a move: a job nobody took within `BOARDLAB_BOT_QUEUE_WAIT` seconds, a worker that died
with it, or Redis away make the owner fall back to a random move, as a timed-out bot always did; a job whose
owner gave up (its deadline passed) is dropped by the worker that takes it.
"""

from __future__ import annotations

import asyncio
import logging
import os
import secrets
import time
from dataclasses import asdict
from typing import Any

import orjson

from .bots import BotJob, BotRunner, run_timed_job

log = logging.getLogger("boardlab.server")

PUSH = """
local n = redis.call('RPUSH', KEYS[2], ARGV[2])
if n == 1 then redis.call('RPUSH', KEYS[1], ARGV[1]) end
redis.call('RPUSH', KEYS[3], '1')
return n
"""
TAKE = """
local c = redis.call('LPOP', KEYS[1])
if not c then return false end
local q = ARGV[1] .. c
local job = redis.call('LPOP', q)
if redis.call('LLEN', q) > 0 then redis.call('RPUSH', KEYS[1], c) end
return job
"""
REPLY_TTL = 60


class SharedBotQueue:
    """Feeds this process's bot jobs to the site's queue and serves it with this process's workers."""

    def __init__(self, redis: Any, prefix: str, bots: BotRunner, slots: int) -> None:
        self.redis, self.prefix, self.bots, self.slots = redis, prefix, bots, max(1, slots)
        self.wait = float(os.environ.get("BOARDLAB_BOT_QUEUE_WAIT", "120"))
        self._push = redis.register_script(PUSH)
        self._take = redis.register_script(TAKE)
        self._tasks: list[asyncio.Task[Any]] = []
        self._untaken: dict[str, tuple[str, bytes]] = {}  # jobs pushed and not yet taken: job -> (client, body)
        self.asked = 0  # jobs this process pushed
        self.served = 0  # jobs this process's workers computed (for any process)

    def start(self) -> None:
        loop = asyncio.get_running_loop()
        self._tasks = [loop.create_task(self._serve()) for _ in range(self.slots)]

    def close(self) -> None:
        for task in self._tasks:
            task.cancel()

    async def choose(self, client: str, job: BotJob) -> str:
        """The bot's move, computed by whichever process's worker takes the job first in the fair order; raises
        (the caller falls back to random) when nobody takes it within `wait` s or the worker does not answer
        within the bot's grace. A hidden decision is answered `pace` after a worker took it (bots.py)."""
        jid = secrets.token_hex(8)
        reply = f"{self.prefix}:r:{jid}"
        d = asdict(job) | {"seed": str(job.seed)}  # a table's seed may exceed 64 bits (JSON numbers here do not)
        body = {"reply": reply, "deadline": time.time() + self.wait, "job": d}
        self.asked += 1
        self._untaken[jid] = (client, orjson.dumps(body))
        try:
            await self._send(client, self._untaken[jid][1])
            if await self._pop(reply, self.wait) is None:
                raise TimeoutError("no bot worker took the job")
        finally:
            self._untaken.pop(jid, None)
        taken = time.monotonic()  # the pace counts from here, as from a local worker's start
        deadline = taken + self.bots.grace + 1.0
        while True:  # a job sent again after a Redis restart may be taken twice: its second "taken" is skipped
            got = await self._pop(reply, deadline - time.monotonic())
            if got is None:
                raise TimeoutError("the bot worker did not answer")
            answer = orjson.loads(got)
            if "taken" not in answer:
                break
        if "error" in answer:
            raise (TimeoutError if answer.get("timeout") else RuntimeError)(answer["error"])
        await self.bots.hold(answer["kind"], taken)
        return str(answer["text"])

    async def _send(self, client: str, body: bytes) -> None:
        await self._push(keys=[f"{self.prefix}:clients", f"{self.prefix}:q:{client}", f"{self.prefix}:wake"],
                         args=[client, body])

    async def resend(self) -> None:
        """After the link to Redis came back (a restart empties it), send again the jobs nobody took yet; a job
        that was not lost is then taken twice and answered twice, and the second answer is not read."""
        for client, body in list(self._untaken.values()):
            try:
                await self._send(client, body)
            except Exception as e:
                log.warning("bot queue: cannot send a job again (%r)", e)

    async def _serve(self) -> None:
        """One worker slot: take the next job in the fair order (any process's), compute it, answer."""
        loop = asyncio.get_running_loop()
        while True:
            try:
                await self.redis.blpop([f"{self.prefix}:wake"], timeout=1)
                raw = await self._take(keys=[f"{self.prefix}:clients"], args=[f"{self.prefix}:q:"])
                if raw is None:
                    continue
                body = orjson.loads(raw)
                if body["deadline"] < time.time():
                    continue  # its owner gave up on it (and played a random move)
                reply = body["reply"]
                await self._answer(reply, {"taken": True})
                d = body["job"]
                job = BotJob(**{**d, "seed": int(d["seed"]), "modules": tuple(d["modules"]),
                                  "actions": tuple(d["actions"])})
                try:
                    fut = loop.run_in_executor(self.bots.pool, run_timed_job, job)
                    text, kind, started = await asyncio.wait_for(fut, timeout=self.bots.grace)
                    if kind is not None:  # a quick answer holds the slot a full budget (botpool.fair_choose)
                        await asyncio.sleep(max(0.0, started + self.bots.seconds - time.monotonic()))
                    answer: dict[str, Any] = {"text": text, "kind": kind}
                except Exception as e:
                    answer = {"error": repr(e)[:200], "timeout": isinstance(e, TimeoutError)}
                self.served += 1
                await self._answer(reply, answer)
            except asyncio.CancelledError:
                raise
            except Exception as e:
                log.warning("bot queue worker: %r (Redis away?); trying again", e)
                await asyncio.sleep(0.5)

    async def _pop(self, key: str, seconds: float) -> bytes | None:
        """BLPOP `key` for up to `seconds`, in steps shorter than the client's socket time-out (redis-py's 5 s
        default would end a longer BLPOP as a read time-out)."""
        deadline = time.monotonic() + seconds
        while (left := deadline - time.monotonic()) > 0:
            got = await self.redis.blpop([key], timeout=min(2.0, max(0.01, left)))
            if got is not None:
                return bytes(got[1])
        return None

    async def _answer(self, reply: str, msg: dict[str, Any]) -> None:
        async with self.redis.pipeline(transaction=True) as p:
            p.rpush(reply, orjson.dumps(msg))
            p.expire(reply, REPLY_TTL)
            await p.execute()

