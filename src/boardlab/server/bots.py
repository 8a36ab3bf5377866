"""Server-side bots, run off the event loop with a time budget.

Bots are CPU-bound Python; in a thread they would hold the GIL and stall every table's I/O, so
by default they run in a process pool. A worker gets only what it needs to rebuild the position
(game, configuration, seed, effective log) and replays it itself: the live state never crosses
the process boundary, and the bot only ever sees `observe(state, seat)` of its own seat.
If a bot fails or overruns its budget, the move falls back to a seeded random legal action, so a
table never hangs on a bot.

Pacing: where the number of options of a decision is itself hidden (`Game.decision_kind`, e.g. a
"do / skip" asked even when the hand lacks the colour), a bot's reply comes after a constant time per
decision kind (`BotRunner.pace`), so how long it thought cannot tell the table about the hand.
"""

from __future__ import annotations

import asyncio
import concurrent.futures as cf
import importlib
import logging
import multiprocessing
import os
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from boardlab.bots import DEFAULT_SECONDS
from boardlab.core import Rng, get_game, observe

log = logging.getLogger("boardlab.server")

PACE_MARGIN = 0.2
"""Seconds added to the bot budget for paced decisions (replaying the log in a worker, pool overhead)."""

BOT_KINDS = ("random", "greedy", "mcts")
"""Bot kinds a seat may have; "easy"/"medium"/"hard" levels from boardlab.bots are accepted too."""


def known_bot_kinds() -> list[str]:
    """Kinds and levels the bots package offers (only "random" when it is not installed)."""
    try:
        from boardlab.bots import BOT_KINDS as kinds
        from boardlab.bots import LEVELS
    except ImportError:
        return ["random"]
    return [*kinds, *LEVELS]


def game_modules() -> tuple[str, ...]:
    """Modules that register the games, so bot worker processes know every game this one knows."""
    from boardlab.core import games
    from boardlab.core.registry import _GAMES

    games()
    return tuple(sorted({type(g).__module__ for g in _GAMES.values()}))


@dataclass(frozen=True)
class BotJob:
    """Everything a worker needs to decide, as plain picklable values."""

    game: str
    modules: tuple[str, ...]
    players: int
    seed: int
    options: dict[str, Any]
    actions: tuple[str, ...]
    seat: int
    kind: str
    bot_seed: int
    seconds: float


def _import_modules(modules: Sequence[str]) -> None:
    for m in modules:
        importlib.import_module(m)


def run_job(job: BotJob) -> str:
    """Rebuild the position, ask the bot of `job.kind`, and return the chosen action's notation."""
    return run_paced_job(job)[0]


def run_paced_job(job: BotJob) -> tuple[str, str | None]:
    """`run_job`, plus the decision's kind when its option count is hidden (None: public)."""
    return run_timed_job(job)[:2]


def run_timed_job(job: BotJob) -> tuple[str, str | None, float]:
    """`run_paced_job`, plus when this worker took the job (`time.monotonic()`, one clock for every process of
    the machine): the constant pace of a hidden decision counts from there, so the queue wait before it
    (other tables' bots) is added to every reply alike and the bot's own thinking never shows (issue #32)."""
    started = time.monotonic()
    _import_modules(job.modules)
    game = get_game(job.game)
    state = game.replay(job.players, job.seed, job.actions, **job.options)
    if state.current_player != job.seat:
        raise RuntimeError(f"bot for seat {job.seat} asked while seat {state.current_player} decides")
    kind = game.decision_kind(state)
    obs = observe(state, job.seat)
    return str(_make(job.kind, job.bot_seed, job.seconds, game.name).choose(obs)), kind, started


def random_choice(legal: Sequence[Any], seed: int) -> Any:
    """The fallback move: a seeded uniform choice, so replays stay reproducible."""
    return Rng(seed).choice(list(legal))


class _FallbackRandom:
    def __init__(self, seed: int) -> None:
        self.seed = seed

    def choose(self, obs: Any) -> Any:
        return random_choice(obs.legal_actions, self.seed)


def _make(kind: str, seed: int, seconds: float, game: str | None = None) -> Any:
    try:
        from boardlab.bots import bot_options, make_bot
    except ImportError:
        return _FallbackRandom(seed)
    try:
        opts = bot_options(kind)
    except ValueError:
        return _FallbackRandom(seed)
    budget = {"seconds": seconds} if "seconds" in opts else {}
    return make_bot(kind, seed=seed, game=game, **budget)


def _end_with_parent(parent: int) -> None:
    """Worker initializer: a bot worker ends as soon as the server that started it is gone, SIGKILL included
    (then no shutdown code runs and the pool never stops its workers). A daemon thread watches the parent: an
    orphan is re-parented, so its parent pid changes. Polling rather than a parent-death signal, which Linux
    sends when the *thread* that spawned the worker ends, not the process."""
    import threading
    import time

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(0.5)
        os._exit(0)

    threading.Thread(target=watch, name="boardlab-parent-watch", daemon=True).start()


class BotRunner:
    """A pool of bot workers (processes by default; BOARDLAB_BOT_EXECUTOR=thread for threads)."""

    def __init__(
        self, workers: int | None = None, executor: str | None = None, seconds: float | None = None
    ) -> None:
        executor = executor or os.environ.get("BOARDLAB_BOT_EXECUTOR", "process")
        workers = (
            workers or int(os.environ.get("BOARDLAB_BOT_WORKERS", "0")) or max(1, (os.cpu_count() or 2) - 1)
        )
        self.seconds = (
            seconds if seconds is not None else float(os.environ.get("BOARDLAB_BOT_SECONDS", str(DEFAULT_SECONDS)))
        )
        self.grace = 2.0 + self.seconds  # wall-clock limit before the random fallback
        self.pace_margin = PACE_MARGIN
        self.pool: cf.Executor
        if executor == "thread":
            self.pool = cf.ThreadPoolExecutor(max_workers=workers, thread_name_prefix="boardlab-bot")
        else:
            ctx = multiprocessing.get_context("spawn")
            self.pool = cf.ProcessPoolExecutor(max_workers=workers, mp_context=ctx, initializer=_end_with_parent,
                                               initargs=(os.getpid(),))

    def pace(self, kind: str) -> float:
        """The constant reply time for decisions of `kind` whose option count is hidden: the thinking
        budget (a search stops within it) plus a margin for rebuilding the position and the pool."""
        return self.seconds + self.pace_margin

    async def choose(self, job: BotJob) -> str:
        """Ask a worker; raises TimeoutError past the budget (the caller falls back to random). A
        decision whose option count is hidden is answered no sooner than `pace(kind)` after a worker took it
        (`run_timed_job`: a busy pool's queue must not let the bot's thinking time show)."""
        loop = asyncio.get_running_loop()
        fut = loop.run_in_executor(self.pool, run_timed_job, job)
        text, kind, started = await asyncio.wait_for(fut, timeout=self.grace)
        await self.hold(kind, started)
        return text

    async def hold(self, kind: str | None, started: float) -> None:
        """Wait until `pace(kind)` after `started` (a worker took the job) when the decision's option count is
        hidden (`kind` not None)."""
        if kind is not None:
            await asyncio.sleep(max(0.0, started + self.pace(kind) - time.monotonic()))

    def close(self) -> None:
        self.pool.shutdown(wait=False, cancel_futures=True)
