"""Alembic environment: migrations run on the connection the server hands over (see db.migrate),
or, from the command line, on BOARDLAB_DATABASE_URL."""

from __future__ import annotations

from alembic import context

from boardlab.server.db import default_db_url, make_engine, metadata

target_metadata = metadata


def run() -> None:
    conn = context.config.attributes.get("connection")
    if conn is not None:
        context.configure(connection=conn, target_metadata=target_metadata)
        with context.begin_transaction():
            context.run_migrations()
        return
    engine = make_engine(default_db_url())
    with engine.begin() as conn:
        context.configure(connection=conn, target_metadata=target_metadata)
        with context.begin_transaction():
            context.run_migrations()


run()
