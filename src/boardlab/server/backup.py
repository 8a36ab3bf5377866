"""Refuse a damaged database at start-up; back a live one up and restore it (`boardlab backup/restore`).

Why at start-up: a zero-length SQLite file opens as an empty database (every table silently gone),
and a file with a damaged page opens fine, serves 500s on the tables that touch the page and keeps
writing into it. `PRAGMA quick_check` reads every page (a few ms per MB) and catches both before the
server takes a request. Backups use SQLite's online backup API, which copies a consistent snapshot
while the server keeps writing. PostgreSQL has its own tools (`pg_dump`/`pg_restore`, docs/server.md).
"""

from __future__ import annotations

import os
import sqlite3
from pathlib import Path

from sqlalchemy.engine import make_url

from .db import normalize_url


class DamagedDatabase(RuntimeError):
    """The database cannot be trusted; the message says what was found and what to do."""


def sqlite_path(url: str) -> Path | None:
    """The file of a SQLite URL (None for other databases or an in-memory SQLite)."""
    u = make_url(normalize_url(url))
    if not u.drivername.startswith("sqlite") or not u.database or u.database == ":memory:":
        return None
    return Path(u.database)


def quick_check(path: Path) -> list[str]:
    """The problems `PRAGMA quick_check` finds in the SQLite file at `path` ([] when sound)."""
    if path.stat().st_size == 0:
        return ["the file is empty (0 bytes)"]
    try:
        con = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    except sqlite3.Error as e:
        return [str(e)]
    try:
        rows = [r[0] for r in con.execute("PRAGMA quick_check(20)")]
    except sqlite3.DatabaseError as e:
        return [str(e)]
    finally:
        con.close()
    return [] if rows == ["ok"] else rows


def check_integrity(url: str) -> None:
    """Raise DamagedDatabase if `url` is a SQLite file that fails its quick check (a file that does not
    exist yet is fine: it is created)."""
    path = sqlite_path(url)
    if path is None or not path.exists():
        return
    problems = quick_check(path)
    if problems:
        listed = "; ".join(problems[:5])
        raise DamagedDatabase(
            f"the database {path} is damaged ({listed}). The server will not serve it: restore a backup "
            f"with `boardlab restore BACKUP --db sqlite:///{path}` (see docs/server.md), or move the file "
            "away to start with an empty database."
        )


def backup(url: str, dest: Path) -> int:
    """Copy the live SQLite database at `url` to `dest` (online: the server may keep running).
    Returns the number of tables in the copy. The copy is checked before this returns."""
    src_path = sqlite_path(url)
    if src_path is None:
        raise ValueError(
            "only SQLite databases are backed up by boardlab; for PostgreSQL use "
            "`pg_dump --format=custom --file=boardlab.dump DBNAME` (docs/server.md)"
        )
    if not src_path.exists():
        raise FileNotFoundError(f"no database at {src_path}")
    dest = Path(dest)
    if dest.exists():
        raise FileExistsError(f"{dest} exists; choose a new file")
    tmp = dest.with_name(dest.name + ".partial")
    src = sqlite3.connect(f"file:{src_path}?mode=ro", uri=True, timeout=30)
    dst = sqlite3.connect(tmp)
    try:
        src.backup(dst, pages=1024)  # in steps: the writer is never blocked for long
        dst.execute("PRAGMA journal_mode=DELETE")  # a single self-contained file
        n = dst.execute("SELECT count(*) FROM bl_tables").fetchone()[0]
    finally:
        dst.close()
        src.close()
    problems = quick_check(tmp)
    if problems:
        tmp.unlink()
        raise DamagedDatabase(f"the backup failed its check: {'; '.join(problems[:5])}")
    _fsync(tmp)
    os.replace(tmp, dest)
    return int(n)


def restore(backup_file: Path, url: str) -> int:
    """Replace the SQLite database at `url` by `backup_file` (the server must be stopped). The backup is
    checked first; the old file, if any, is kept as `<name>.damaged-<n>`. Returns the number of tables."""
    backup_file = Path(backup_file)
    dest = sqlite_path(url)
    if dest is None:
        raise ValueError("only SQLite databases are restored by boardlab; for PostgreSQL use pg_restore")
    problems = quick_check(backup_file)
    if problems:
        raise DamagedDatabase(f"{backup_file} is not a sound backup: {'; '.join(problems[:5])}")
    dest.parent.mkdir(parents=True, exist_ok=True)
    tmp = dest.with_name(dest.name + ".restoring")
    src = sqlite3.connect(f"file:{backup_file}?mode=ro", uri=True)
    dst = sqlite3.connect(tmp)
    try:
        src.backup(dst)
        n = dst.execute("SELECT count(*) FROM bl_tables").fetchone()[0]
    finally:
        dst.close()
        src.close()
    _fsync(tmp)
    k = 1
    while dest.with_name(f"{dest.name}.damaged-{k}").exists():
        k += 1
    for suffix in ("", "-wal", "-shm"):  # kept aside; the old journal must not be replayed into the new file
        old = dest.with_name(dest.name + suffix)
        if old.exists():
            os.replace(old, dest.with_name(f"{dest.name}.damaged-{k}{suffix}"))
    os.replace(tmp, dest)
    return int(n)


def _fsync(path: Path) -> None:
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)
