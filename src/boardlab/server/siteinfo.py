"""What the site keeps per table beside the game (rated, bot level, clock, leavers, accounts per seat,
shown ratings, chat count), and its rows in the database (schema in sitedb.py)."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

import sqlalchemy as sa
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.engine import Connection

from . import botseed, ratings
from .db import tables_t
from .sitedb import chat_t, ratings_t, results_t, seat_users_t, site_secret_t, table_site_t, users_t
from .table import Table

LEVEL_OF = {"random": "easy", "greedy": "medium", "mcts": "hard"}


@dataclass
class SiteInfo:
    rated: bool = False
    bot_level: str = "medium"
    pace: float | None = None  # None: the server default (BOARDLAB_BOT_DELAY)
    clock: dict[str, Any] | None = None
    clock_state: dict[str, Any] | None = None
    leavers: list[int] = field(default_factory=list)
    stood_in: list[int] = field(default_factory=list)  # a person's seats a bot moved for: not rated (results.py)
    moved: list[int] = field(default_factory=list)  # seats whose player moved themselves (results.py)
    provisional: dict[int, bool] = field(default_factory=dict)  # seat -> its rating is still provisional
    rated_done: bool = False
    stored: bool = False  # has a bl_table_site row
    users: dict[int, tuple[int, str]] = field(default_factory=dict)  # seat -> (user id, name)
    ratings: dict[int, int] = field(default_factory=dict)  # seat -> shown rating
    # seat -> this table's rating change {before, after, provisional_before, provisional_after}, once rated
    # (results.py); the game-over box shows it (issue #34)
    changes: dict[int, dict[str, Any]] = field(default_factory=dict)
    results_stored: bool = False  # the finished table's results are committed (`rated_done` is set before)
    chat_n: int = 0
    chat_times: dict[int, list[float]] = field(default_factory=dict)
    handover: dict[int, float] = field(default_factory=dict)
    handed: dict[int, dict[str, Any]] = field(default_factory=dict)  # seat -> {by, name, at}: handed over by another


def player_key(t: Table, info: SiteInfo, seat: int) -> str | None:
    """Who a seat's result belongs to: its account, else the bot level playing it, else nobody."""
    if seat in info.users:
        return f"u:{info.users[seat][0]}"
    s = t.seats[seat]
    if s.kind == "bot" and seat not in info.leavers:
        return f"bot:{LEVEL_OF.get(s.bot or '', s.bot)}"
    return None



def read_secret(conn: Connection) -> bytes:
    r = conn.execute(sa.select(site_secret_t.c.secret).where(site_secret_t.c.id == 1)).first()
    return r.secret.encode() if r else b""


def clocked_tables(conn: Connection) -> list[str]:
    q = (
        sa.select(tables_t.c.id)
        .join(table_site_t, table_site_t.c.table_id == tables_t.c.id)
        .where(tables_t.c.status == "playing", table_site_t.c.clock.is_not(None))
    )
    return [r.id for r in conn.execute(q)]


def lobby_site(conn: Connection, ids: list[str]) -> dict[str, dict[str, Any]]:
    """What the lobby list shows of each table's site settings: rated, and the clock ({mode, bank, per_move,
    cap, speed} or None)."""
    if not ids:
        return {}
    q = sa.select(table_site_t.c.table_id, table_site_t.c.rated, table_site_t.c.clock).where(
        table_site_t.c.table_id.in_(ids)
    )
    return {
        r.table_id: {"rated": bool(r.rated), "clock": json.loads(r.clock) if r.clock else None}
        for r in conn.execute(q)
    }


def site_row(tid: str, info: SiteInfo) -> dict[str, Any]:
    return {
        "rated": info.rated,
        "bot_level": info.bot_level,
        "bot_pace": -1.0 if info.pace is None else info.pace,
        "clock": None if info.clock is None else json.dumps(info.clock),
        "clock_state": None if info.clock_state is None else json.dumps(info.clock_state),
        "leavers": json.dumps(info.leavers),
        "seat_play": json.dumps({"stood_in": info.stood_in, "moved": info.moved}),
        "rated_done": info.rated_done,
    }


def load_info(conn: Connection, t: Table) -> SiteInfo:
    info = SiteInfo()
    r = conn.execute(sa.select(table_site_t).where(table_site_t.c.table_id == t.id)).first()
    if r is not None:
        info.stored = True
        info.rated = bool(r.rated)
        info.bot_level = r.bot_level
        info.pace = None if r.bot_pace < 0 else r.bot_pace
        info.clock = json.loads(r.clock) if r.clock else None
        info.clock_state = json.loads(r.clock_state) if r.clock_state else None
        info.leavers = json.loads(r.leavers)
        play = json.loads(r.seat_play) if r.seat_play else {}
        info.stood_in, info.moved = play.get("stood_in", []), play.get("moved", [])
        info.rated_done = bool(r.rated_done)
    for row in conn.execute(
        sa.select(seat_users_t.c.seat, users_t.c.id, users_t.c.name)
        .join(users_t, users_t.c.id == seat_users_t.c.user_id)
        .where(seat_users_t.c.table_id == t.id)
    ):
        info.users[row.seat] = (row.id, row.name)
    load_ratings(conn, t, info)
    if info.rated_done:
        info.changes = load_changes(conn, t.id)
        info.results_stored = True
    n = conn.execute(sa.select(sa.func.max(chat_t.c.n)).where(chat_t.c.table_id == t.id)).scalar()
    info.chat_n = 0 if n is None else int(n) + 1
    return info


def load_ratings(conn: Connection, t: Table, info: SiteInfo) -> None:
    keys = {s: player_key(t, info, s) for s in range(t.players)}
    wanted = [k for k in keys.values() if k]
    if not wanted:
        return
    rows = {
        r.player: (ratings.shown(r.mu, r.sigma), r.games)
        for r in conn.execute(
            sa.select(ratings_t).where(ratings_t.c.game == t.game.name, ratings_t.c.player.in_(wanted))
        )
    }
    for s, k in keys.items():
        if k:
            mu, sigma, prior = botseed.start(k, t.game.name)  # a bot level's ladder rating, if it has no other
            shown, games = rows.get(k, (ratings.shown(mu, sigma), 0))
            info.ratings[s] = shown
            info.provisional[s] = ratings.provisional(prior + games)



def load_changes(conn: Connection, tid: str) -> dict[int, dict[str, Any]]:
    """A finished table's rating change per rated seat, as its results recorded it; provisional as it was then
    (the player's rated games of that game before this one)."""
    out: dict[int, dict[str, Any]] = {}
    rows = conn.execute(
        sa.select(results_t).where(results_t.c.table_id == tid, results_t.c.rated.is_(True))
    ).all()
    for r in rows:
        earlier = conn.execute(
            sa.select(sa.func.count()).where(
                results_t.c.player == r.player, results_t.c.game == r.game, results_t.c.rated.is_(True),
                results_t.c.created_at < r.created_at,
            )
        ).scalar() or 0
        out[r.seat] = change(int(r.before), int(r.after), int(earlier) + botseed.prior_games(r.player, r.game))
    return out


def change(before: int, after: int, games_before: int) -> dict[str, Any]:
    """One seat's rating change as the state message carries it. `delta` is the signed change to show, or None
    for a game played on a provisional rating: its figures move far (a new player's first loss 1500 -> 1317, a
    first win 1500 -> 1844: sigma barely shrinks in one 2-player game), so the page shows the new figure with
    "?" and "game n of 5" instead of a drop or jump that says little (docs/server.md, issue #34)."""
    prov = ratings.provisional(games_before)
    return {"before": before, "after": after, "provisional_before": prov,
            "provisional_after": ratings.provisional(games_before + 1),
            "delta": None if prov else after - before, "rated_games": games_before + 1,
            "settles_at": ratings.PROVISIONAL_GAMES}


def write_site_row(conn: Connection, tid: str, row: dict[str, Any], stored: bool) -> None:
    """Store a table's site row: update it if it is `stored` already, else insert it. An insert that finds a row
    there leaves that row alone (SQLite and PostgreSQL): in a cluster another process, the table's owner now, stored
    it after this one read the table, so its row is the newer (a process stopped past its lease woke up to a save it
    had queued: "duplicate key", test_a_stalled_owner_checks_its_lease_before_it_writes)."""
    if stored:
        conn.execute(table_site_t.update().where(table_site_t.c.table_id == tid).values(**row))
        return
    keeping = INSERT_KEEPING.get(conn.dialect.name)
    if keeping is not None:
        conn.execute(keeping(table_site_t).values(table_id=tid, **row).on_conflict_do_nothing())
    else:
        conn.execute(table_site_t.insert().values(table_id=tid, **row))


INSERT_KEEPING = {"postgresql": postgresql.insert, "sqlite": sqlite.insert}
"""The dialects whose insert can leave a row already there alone (`on_conflict_do_nothing`)."""
