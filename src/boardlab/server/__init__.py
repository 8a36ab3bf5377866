"""The boardlab web server: lobby, tables, live play in the browser against bots or friends.

`serve()` is what `boardlab serve` calls; `create_app()` gives the ASGI app (for tests, or to run
under another ASGI server). See docs/server.md.
"""

from __future__ import annotations

import gc
import logging
import os
import sys

from .db import default_db_url, normalize_url


def create_app(db_url: str | None = None, *, resume: bool = True, redis_url: str | None = None):  # type: ignore[no-untyped-def]
    """The FastAPI application over `db_url` (default: BOARDLAB_DATABASE_URL or a SQLite file)."""
    from .app import create_app as _create

    return _create(db_url or default_db_url(), resume=resume, redis_url=redis_url)


def serve(host: str = "127.0.0.1", port: int = 8000, db_url: str | None = None, redis_url: str | None = None) -> None:
    """Run the server until interrupted; prints the address to open in a browser. With `redis_url`, one of
    several processes on one PostgreSQL database (docs/server.md, "Many processes")."""
    import uvicorn
    from sqlalchemy.engine import make_url

    url = db_url or default_db_url()
    if redis_url is not None and not normalize_url(url).startswith("postgresql"):
        print(
            "boardlab server: --redis (several processes) needs a PostgreSQL database: --db postgresql://...",
            file=sys.stderr,
            flush=True,
        )
        raise SystemExit(2)
    _check_port(host, port)  # before printing an address that would not work
    from .backup import DamagedDatabase, check_integrity

    try:  # before anything opens (and writes into) the file
        check_integrity(url)
    except DamagedDatabase as e:
        print(f"boardlab server: {e}", file=sys.stderr, flush=True)
        raise SystemExit(2) from None
    shown = make_url(normalize_url(url)).render_as_string(hide_password=True)
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    logging.getLogger("alembic.runtime.plugins").setLevel(logging.WARNING)
    from boardlab.sim.bot_ladder import LadderFileError

    try:
        app = create_app(url, redis_url=redis_url)
    except LadderFileError as e:  # the bot ladder file (docs/server.md, "The bot ladder"): say where, no traceback
        print(f"boardlab server: bad bot ladder file: {e}", file=sys.stderr, flush=True)
        raise SystemExit(2) from None
    # Garbage collection pauses were the server's latency tail (docs/benchmarks.md). What is loaded by
    # now (modules, classes, functions: ~65k objects) lives as long as the process: frozen, no later
    # full collection walks it again (~45 ms a pass). Full collections still walk every live table and
    # connection (~50 ms at 200 tables), so they run after 100 middle-generation passes instead of 10;
    # little cyclic garbage waits for them (logs are flat tuples, states die by reference counting).
    gc.collect()
    gc.freeze()
    young, middle, _ = gc.get_threshold()
    gc.set_threshold(young, middle, 100)
    shown_host = f"[{host}]" if ":" in host else host
    also = "" if redis_url is None else f"; one of several processes, Redis {redis_url.rsplit('@', 1)[-1]}"
    print(f"boardlab server: http://{shown_host}:{port}/  (database: {shown}{also}; Ctrl-C stops)", flush=True)
    from .limits import Limits
    from .protocol import GuardedWebSocketProtocol, http_protocol

    lim = Limits.from_env()
    # no per-message deflate: views are small, and compressing them cost ~10% of the CPU per move.
    # h11 with a header size limit and a header deadline, WebSocket pings for presence, a cap on
    # connections (503 past it): docs/server.md, "Limits".
    uvicorn.run(
        app,
        host=host,
        port=port,
        http=http_protocol(lim.header_timeout),
        ws=GuardedWebSocketProtocol,
        h11_max_incomplete_event_size=lim.max_header_bytes,
        limit_concurrency=lim.max_connections,
        ws_ping_interval=lim.ws_ping,
        ws_ping_timeout=lim.ws_ping,
        ws_max_size=64 * 1024,
        ws_per_message_deflate=False,
        log_level="warning",
        access_log=os.environ.get("BOARDLAB_ACCESS_LOG") == "1",
        timeout_graceful_shutdown=3,
    )
    sys.stdout.flush()


def _check_port(host: str, port: int) -> None:
    """Exit with a clear message when the port is taken, instead of printing an address and failing."""
    import errno
    import socket

    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    with socket.socket(family, socket.SOCK_STREAM) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as uvicorn binds
        try:
            probe.bind((host, port))
        except OSError as e:
            busy = e.errno == errno.EADDRINUSE
            why = "is already in use (another server?)" if busy else f"cannot be used ({e.strerror})"
            print(
                f"boardlab server: port {port} on {host} {why}.\n"
                f"Pick another port: boardlab serve --port {port + 1}   (or: make run PORT={port + 1})",
                file=sys.stderr,
                flush=True,
            )
            raise SystemExit(1) from None


__all__ = ["create_app", "serve"]
