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


def create_app(db_url: str | None = None, *, resume: bool = True):  # type: ignore[no-untyped-def]
    """The FastAPI application over `db_url` (default: BOARDLAB_DATABASE_URL or a SQLite file)."""
    from .app import create_app as _create

    return _create(db_url or default_db_url(), resume=resume)


def serve(host: str = "127.0.0.1", port: int = 8000, db_url: str | None = None) -> None:
    """Run the server until interrupted; prints the address to open in a browser."""
    import uvicorn
    from sqlalchemy.engine import make_url

    url = db_url or default_db_url()
    shown = make_url(normalize_url(url)).render_as_string(hide_password=True)
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    logging.getLogger("alembic.runtime.plugins").setLevel(logging.WARNING)
    app = create_app(url)
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
    print(f"boardlab server: http://{shown_host}:{port}/  (database: {shown}; Ctrl-C stops)", flush=True)
    # no per-message deflate: views are small, and compressing them cost ~10% of the CPU per move
    uvicorn.run(
        app,
        host=host,
        port=port,
        ws_max_size=64 * 1024,
        ws_per_message_deflate=False,
        log_level="warning",
        access_log=os.environ.get("BOARDLAB_ACCESS_LOG") == "1",
        timeout_graceful_shutdown=3,
    )
    sys.stdout.flush()


__all__ = ["create_app", "serve"]
