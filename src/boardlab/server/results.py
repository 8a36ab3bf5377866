"""Results and ratings: what a finished table records (results per seat, new ratings of a rated
table) and what the profiles read back. The rating arithmetic is in ratings.py."""

from __future__ import annotations

import logging
import time
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Connection

from . import ratings
from .service import TableService
from .sitedb import ratings_t, results_t
from .siteinfo import SiteInfo, player_key, site_row, write_site_row
from .table import Table

log = logging.getLogger("boardlab.server")


async def record_results(svc: TableService, t: Table, info: SiteInfo) -> None:
    """A finished table's results (every seat with a player key) and, for a rated table, new ratings:
    committed together; the table's state message then shows the new ratings."""
    if info.rated_done:
        return
    info.rated_done = True
    try:
        scores = t.state.scores()
        totals = [float(getattr(s, "total", 0) or 0) for s in scores]
    except Exception:
        totals = [0.0] * t.players
    winners = list(t.state.winners() or [])
    ranking = ratings.ranks(totals, winners, info.leavers)
    keys = [player_key(t, info, s) for s in range(t.players)]
    keyed = [s for s in range(t.players) if keys[s] is not None]
    people = [s for s in keyed if (keys[s] or "").startswith("u:") and _rated_person(info, s)]
    bots = [s for s in keyed if (keys[s] or "").startswith("bot:")]
    rated = info.rated and len(people) >= 2
    # one rating per bot level: a level that plays several seats of a game (two Easy bots) is rated once, on its
    # first seat, so the game counts once and every seat shows the level's one rating (two Easy bots in one
    # Cacao game once showed ★1825 and ★1654, the second update overwriting the first)
    first_of: dict[str, int] = {}
    for s in bots:
        first_of.setdefault(keys[s] or "", s)
    rated_bots = sorted(first_of.values())
    game = t.game.name
    row = site_row(t.id, info)
    stored = info.stored
    info.stored = True

    def write(conn: Connection) -> tuple[dict[int, int], dict[int, int]]:
        now = time.time()
        old: dict[str, tuple[float, float, int, int]] = {}
        for s in keyed:
            k = keys[s]
            assert k is not None
            r = conn.execute(
                sa.select(ratings_t).where(ratings_t.c.player == k, ratings_t.c.game == game)
            ).first()
            old[k] = (r.mu, r.sigma, r.games, r.wins) if r else (ratings.MU, ratings.SIGMA, 0, 0)
        shown_after: dict[int, int] = {}
        counted: dict[int, int] = {}  # seat -> its rated games now
        new: dict[int, tuple[float, float]] = {}
        if rated:  # people among themselves only
            rates = ratings.rate([old[keys[s] or ""][:2] for s in people], [ranking[s] for s in people])
            new = dict(zip(people, rates, strict=True))
        if info.rated and bots and people:  # the bots against the people, who are not rated against bots
            seats = people + rated_bots
            rates = ratings.rate([old[keys[s] or ""][:2] for s in seats], [ranking[s] for s in seats])
            new.update((s, r) for s, r in zip(seats, rates, strict=True) if s in rated_bots)
        for s in keyed:
            k = keys[s]
            assert k is not None
            mu, sigma, games_n, wins = old[k]
            before = ratings.shown(mu, sigma)
            after = before
            if s in new:
                nmu, nsig = new[s]
                after = ratings.shown(nmu, nsig)
                counted[s] = games_n + 1
                vals = {"mu": nmu, "sigma": nsig, "games": games_n + 1, "wins": wins + (ranking[s] == 1),
                        "updated_at": now}
                if games_n or conn.execute(
                    sa.select(ratings_t.c.player).where(ratings_t.c.player == k, ratings_t.c.game == game)
                ).first():
                    conn.execute(
                        ratings_t.update().where(ratings_t.c.player == k, ratings_t.c.game == game).values(**vals)
                    )
                else:
                    conn.execute(ratings_t.insert().values(player=k, game=game, **vals))
            shown_after[s] = after
            conn.execute(
                results_t.insert().values(
                    table_id=t.id, seat=s, player=k, game=game, rank=ranking[s],
                    score=totals[s] if s < len(totals) else None, rated=s in new,
                    before=before if s in new else None, after=after if s in new else None, created_at=now,
                )
            )
        for s in bots:  # a level's other seats show the rating it now has
            twin = first_of[keys[s] or ""]
            if twin != s and twin in new:
                shown_after[s], counted[s] = shown_after[twin], counted[twin]
        row["rated_done"] = True
        write_site_row(conn, t.id, row, stored)
        return shown_after, counted

    try:
        shown_after, counted = await svc.store.write(write)
    except Exception:
        log.exception("cannot store the results of table %s", t.id)
        info.rated_done = False
        return
    if rated or (info.rated and bots and people):
        info.ratings.update(shown_after)
        info.provisional.update((s, ratings.provisional(n)) for s, n in counted.items())
        svc.broadcast(t)


def _rated_person(info: SiteInfo, seat: int) -> bool:
    """May this account's seat be rated (docs/server.md, "Rated tables and ratings")? Only if its player made a
    move themselves (a throwaway account that claims a seat and leaves at once gives nobody a rating: 1500 ->
    3298 in 8 games, issue #32), and no stand-in bot helped decide its result unless the player left (a
    leaver is rated, as a loss)."""
    return seat in info.moved and (seat not in info.stood_in or seat in info.leavers)


def profile(conn: Connection, key: str, name: str) -> dict[str, Any]:
    # recent results, then the counts, then the ratings: a game's result and its rating are committed together,
    # and each statement may see a newer commit than the one before it (no snapshot across statements on
    # PostgreSQL), so reading in this order never shows a result without its count or a rated result without
    # its rating (the recent list read last once showed a result whose game was not yet in "games")
    recent = [
        {"table": r.table_id, "game": r.game, "rank": r.rank, "score": r.score, "rated": bool(r.rated),
         "before": r.before, "after": r.after, "at": r.created_at}
        for r in conn.execute(
            sa.select(results_t).where(results_t.c.player == key).order_by(results_t.c.created_at.desc()).limit(20)
        )
    ]
    played = conn.execute(
        sa.select(results_t.c.game, sa.func.count(), sa.func.sum(sa.case((results_t.c.rank == 1, 1), else_=0)))
        .where(results_t.c.player == key)
        .group_by(results_t.c.game)
    ).all()
    games: dict[str, dict[str, Any]] = {}
    for r in conn.execute(sa.select(ratings_t).where(ratings_t.c.player == key)):
        games[r.game] = {"game": r.game, "rating": ratings.shown(r.mu, r.sigma), "rated_games": r.games,
                         "provisional": ratings.provisional(r.games), "played": 0, "won": 0}
    for r in played:
        g = games.setdefault(
            r[0], {"game": r[0], "rating": None, "rated_games": 0, "provisional": True, "played": 0, "won": 0}
        )
        g["played"], g["won"] = int(r[1]), int(r[2] or 0)
    return {"name": name, "games": sorted(games.values(), key=lambda g: g["game"]), "recent": recent}


def bot_ratings(conn: Connection) -> dict[str, Any]:
    out: dict[str, dict[str, int]] = {}
    for r in conn.execute(sa.select(ratings_t).where(ratings_t.c.player.like("bot:%"))):
        out.setdefault(r.game, {})[r.player[4:]] = ratings.shown(r.mu, r.sigma)
    return {"ratings": out}
