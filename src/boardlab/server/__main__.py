"""`python -m boardlab.server [--host H] [--port P] [--db URL]` (same as `boardlab serve`)."""

from __future__ import annotations

import argparse

from . import serve


def main(argv: list[str] | None = None) -> None:
    p = argparse.ArgumentParser(prog="python -m boardlab.server", description=__doc__)
    p.add_argument("--host", default="127.0.0.1")
    p.add_argument("--port", type=int, default=8000)
    p.add_argument(
        "--db", default=None, help="database URL (default: BOARDLAB_DATABASE_URL or a SQLite file)"
    )
    p.add_argument(
        "--redis", default=None, help="Redis URL: run as one of several processes on one PostgreSQL database"
    )
    a = p.parse_args(argv)
    serve(a.host, a.port, a.db, a.redis)


if __name__ == "__main__":
    main()
