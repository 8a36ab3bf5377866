"""Database access off the event loop, with group commit for writes.

Why a single writer thread: every accepted action must be committed before it is acknowledged,
and one commit per action would cap throughput at the disk's fsync rate. The writer drains all
pending writes into one transaction (group commit), so each caller still waits for a real commit
of its own write, but hundreds of tables share each fsync. If a batch fails, its writes are
retried one by one so that only the faulty write reports an error.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import queue
import threading
from collections.abc import Callable
from typing import Any, TypeVar

from sqlalchemy.engine import Connection, Engine

from .db import make_engine, migrate

log = logging.getLogger("boardlab.server")
T = TypeVar("T")
WriteFn = Callable[[Connection], Any]
_STOP = object()
MAX_BATCH = 512


class RowInsert:
    """A write that is one row inserted into `table`: the writer inserts all such rows of a batch
    with one executemany (the callers guarantee no two of a batch depend on each other)."""

    __slots__ = ("row", "table")

    def __init__(self, table: Any, row: dict[str, Any]) -> None:
        self.table = table
        self.row = row

    def __call__(self, conn: Connection) -> None:
        conn.execute(self.table.insert(), [self.row])


class Store:
    """Owns the engine, the writer thread, and runs reads in worker threads."""

    def __init__(self, url: str) -> None:
        self.url = url
        from .backup import check_integrity

        check_integrity(url)  # a damaged SQLite file is refused, not served (server/backup.py)
        self.engine: Engine = make_engine(url)
        migrate(self.engine)
        self._queue: queue.SimpleQueue[Any] = queue.SimpleQueue()
        self._thread = threading.Thread(target=self._writer, name="boardlab-db-writer", daemon=True)
        self._thread.start()
        self.commits = 0
        self.writes = 0

    async def write(self, fn: WriteFn) -> Any:
        """Run `fn(conn)` inside a committed transaction; returns once the commit is durable."""
        loop = asyncio.get_running_loop()
        fut: asyncio.Future[Any] = loop.create_future()
        self._queue.put((fn, fut, loop))
        return await fut

    async def read(self, fn: Callable[[Connection], T]) -> T:
        return await asyncio.to_thread(self.read_sync, fn)

    def read_sync(self, fn: Callable[[Connection], T]) -> T:
        with self.engine.connect() as conn:
            return fn(conn)

    def close(self) -> None:
        self._queue.put(_STOP)
        self._thread.join(timeout=10)
        self.engine.dispose()

    # -- writer thread --------------------------------------------------------------------------
    def _writer(self) -> None:
        conn: Connection | None = None
        while True:
            item = self._queue.get()
            if item is _STOP:
                break
            batch = [item]
            stop = False
            while len(batch) < MAX_BATCH:
                try:
                    nxt = self._queue.get_nowait()
                except queue.Empty:
                    break
                if nxt is _STOP:
                    stop = True
                    break
                batch.append(nxt)
            try:
                if conn is None or conn.closed or conn.invalidated:
                    conn = self.engine.connect()
                self._run_batch(conn, batch)
            except Exception as e:  # connection lost: fail the batch, reconnect next time
                log.exception("database write failed")
                for _fn, fut, loop in batch:
                    self._resolve(loop, fut, None, e)
                if conn is not None:
                    with contextlib.suppress(Exception):
                        conn.close()
                conn = None
            if stop:
                break
        if conn is not None:
            conn.close()

    def _run_batch(self, conn: Connection, batch: list[Any]) -> None:
        results: list[Any] = []
        try:
            with conn.begin():
                rows: dict[Any, list[dict[str, Any]]] = {}
                for fn, _fut, _loop in batch:
                    if isinstance(fn, RowInsert):  # many rows, one executemany per table
                        rows.setdefault(fn.table, []).append(fn.row)
                        results.append(None)
                    else:
                        results.append(fn(conn))
                for table, values in rows.items():
                    conn.execute(table.insert(), values)
        except Exception as e:
            if len(batch) == 1:
                _fn, fut, loop = batch[0]
                self._resolve(loop, fut, None, e)
                return
            for fn, fut, loop in batch:  # isolate the faulty write
                try:
                    with conn.begin():
                        res = fn(conn)
                except Exception as e:
                    self._resolve(loop, fut, None, e)
                else:
                    self.commits += 1
                    self._resolve(loop, fut, res, None)
            return
        self.commits += 1
        self.writes += len(batch)
        self._resolve_all([(loop, fut, res) for (_fn, fut, loop), res in zip(batch, results, strict=True)])

    @classmethod
    def _resolve_all(cls, done: list[tuple[asyncio.AbstractEventLoop, asyncio.Future[Any], Any]]) -> None:
        """Wake each loop once per committed batch, not once per write: every `call_soon_threadsafe` writes to
        the loop's wake-up pipe (a system call here and a read there), and a batch holds up to MAX_BATCH writes."""
        by_loop: dict[asyncio.AbstractEventLoop, list[tuple[asyncio.Future[Any], Any]]] = {}
        for loop, fut, res in done:
            by_loop.setdefault(loop, []).append((fut, res))
        for loop, futs in by_loop.items():

            def settle(futs: list[tuple[asyncio.Future[Any], Any]] = futs) -> None:
                for fut, res in futs:
                    if not fut.done():
                        fut.set_result(res)

            with contextlib.suppress(RuntimeError):  # loop closed during shutdown
                loop.call_soon_threadsafe(settle)

    @staticmethod
    def _resolve(
        loop: asyncio.AbstractEventLoop, fut: asyncio.Future[Any], res: Any, err: BaseException | None
    ) -> None:
        def done() -> None:
            if fut.done():
                return
            if err is not None:
                fut.set_exception(err)
            else:
                fut.set_result(res)

        with contextlib.suppress(RuntimeError):  # loop closed during shutdown
            loop.call_soon_threadsafe(done)
