"""Leaderboards and player search (issue #34): the queries behind `GET /api/leaderboard/{game}` and `GET /api/users`.

A rating is per game (ratings.py); a leaderboard per game and player count ranks, by that rating, the accounts
that played rated games at that count, with how many. Ranked by the shown (conservative) rating, as everywhere;
provisional ratings are listed and marked, as a new site has few settled ones.
"""

from __future__ import annotations

from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Connection

from . import ratings
from .db import tables_t
from .sitedb import ratings_t, results_t, users_t

LEADERS_PAGE = 50
SEARCH_LIMIT = 20


def leaderboard(conn: Connection, game: str, players: int, page: int) -> dict[str, Any]:
    """One page of the game's leaderboard at this player count, best first."""
    here = (
        sa.select(results_t.c.player, sa.func.count().label("n"))
        .join(tables_t, tables_t.c.id == results_t.c.table_id)
        .where(results_t.c.game == game, results_t.c.rated.is_(True), tables_t.c.players == players,
               results_t.c.player.like("u:%"))
        .group_by(results_t.c.player)
        .subquery()
    )
    total = conn.execute(sa.select(sa.func.count()).select_from(here)).scalar() or 0
    q = (
        sa.select(ratings_t.c.player, ratings_t.c.mu, ratings_t.c.sigma, ratings_t.c.games, here.c.n)
        .join(here, here.c.player == ratings_t.c.player)
        .where(ratings_t.c.game == game)
        .order_by((ratings_t.c.mu - 3 * ratings_t.c.sigma).desc(), ratings_t.c.player)
        .offset(page * LEADERS_PAGE)
        .limit(LEADERS_PAGE)
    )
    rows = conn.execute(q).all()
    ids = [int(r.player[2:]) for r in rows]
    names = {r.id: r.name for r in conn.execute(sa.select(users_t.c.id, users_t.c.name).where(users_t.c.id.in_(ids)))}
    return {
        "game": game, "players": players, "page": page, "per_page": LEADERS_PAGE, "total": int(total),
        "rows": [
            {"place": page * LEADERS_PAGE + i + 1, "name": names.get(int(r.player[2:]), "?"),
             "rating": ratings.shown(r.mu, r.sigma), "provisional": ratings.provisional(r.games),
             "rated_games": r.games, "games_here": int(r.n)}
            for i, r in enumerate(rows)
        ],
    }


def search(conn: Connection, prefix_key: str) -> list[str]:
    """Account names that begin with this prefix (compared as names are: NFKC and case folded), A-Z."""
    escaped = prefix_key.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")
    q = (
        sa.select(users_t.c.name)
        .where(users_t.c.name_key.like(f"{escaped}%", escape="\\"))
        .order_by(users_t.c.name_key)
        .limit(SEARCH_LIMIT)
    )
    return [r.name for r in conn.execute(q)]
