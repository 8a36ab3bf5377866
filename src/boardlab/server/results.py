"""Results and ratings: what a finished table records (results per seat, new ratings of a rated
table) and what the profiles read back. The rating arithmetic is in ratings.py."""

from __future__ import annotations

import json
import logging
import time
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Connection

from . import botseed, ratings
from .db import seats_t
from .service import TableService
from .sitedb import ratings_t, results_t, seat_users_t, table_site_t, users_t
from .siteinfo import SiteInfo, change, player_key, site_row, write_site_row
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

    def write(conn: Connection) -> tuple[dict[int, int], dict[int, int], dict[int, dict[str, Any]]]:
        now = time.time()
        old: dict[str, tuple[float, float, int, int]] = {}
        for s in keyed:
            k = keys[s]
            assert k is not None
            r = conn.execute(
                sa.select(ratings_t).where(ratings_t.c.player == k, ratings_t.c.game == game)
            ).first()
            # a bot level not rated here yet starts from its ladder rating (botseed.py)
            old[k] = (r.mu, r.sigma, r.games, r.wins) if r else (*botseed.start(k, game)[:2], 0, 0)
        shown_after: dict[int, int] = {}
        counted: dict[int, int] = {}  # seat -> its rated games now
        changes: dict[int, dict[str, Any]] = {}  # seat -> its rating change (the game-over box)
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
                prior = botseed.prior_games(k, game)  # a seeded bot level's ladder games
                counted[s] = prior + games_n + 1
                changes[s] = change(before, after, prior + games_n)
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
        return shown_after, counted, changes

    try:
        shown_after, counted, changes = await svc.store.write(write)
    except Exception:
        log.exception("cannot store the results of table %s", t.id)
        info.rated_done = False
        return
    if rated or (info.rated and bots and people):
        info.ratings.update(shown_after)
        info.provisional.update((s, ratings.provisional(n)) for s, n in counted.items())
        info.changes.update(changes)
    info.results_stored = True
    if info.rated:  # the game-over box waits for the changes, or for word that there are none
        svc.broadcast(t)


def _rated_person(info: SiteInfo, seat: int) -> bool:
    """May this account's seat be rated (docs/server.md, "Rated tables and ratings")? Only if its player made a
    move themselves (a throwaway account that claims a seat and leaves at once gives nobody a rating: 1500 ->
    3298 in 8 games, issue #32), and no stand-in bot helped decide its result unless the player left (a
    leaver is rated, as a loss)."""
    return seat in info.moved and (seat not in info.stood_in or seat in info.leavers)


PROFILE_PAGE = 20
"""Games a profile page lists (`?page=` for earlier ones)."""


def profile(conn: Connection, key: str, name: str, page: int = 0) -> dict[str, Any]:
    """A player's profile, as of one moment. Its reads are separate statements, and each may see a newer commit
    than the one before it (no snapshot across statements, on SQLite as on PostgreSQL): a game finishing between
    them showed in the recent list but not in "games" (one order) or in "games" but not in the recent list (the
    other). Results are only ever added, so the profile is read between two counts of the player's results and
    read again when they differ: equal counts mean no result landed in between."""
    count = sa.select(sa.func.count()).select_from(results_t).where(results_t.c.player == key)
    out: dict[str, Any] = {}
    for _ in range(5):
        before = conn.execute(count).scalar_one()
        out = _profile_once(conn, key, name, page)
        if conn.execute(count).scalar_one() == before:
            break
    return out


def _profile_once(conn: Connection, key: str, name: str, page: int) -> dict[str, Any]:
    # recent results, then the counts, then the ratings: a game's result and its rating are committed together
    rows = conn.execute(
        sa.select(results_t).where(results_t.c.player == key)
        .order_by(results_t.c.created_at.desc(), results_t.c.table_id)
        .offset(page * PROFILE_PAGE).limit(PROFILE_PAGE + 1)
    ).all()
    more = len(rows) > PROFILE_PAGE
    rows = rows[:PROFILE_PAGE]
    tables = _tables_of(conn, [r.table_id for r in rows])
    nth = _provisional_games(conn, key, {r.game for r in rows if r.rated})
    recent = [
        {"table": r.table_id, "game": r.game, "rank": r.rank, "score": r.score, "rated": bool(r.rated),
         "before": r.before, "after": r.after, "at": r.created_at, "seat": r.seat,
         # the rating change as the game-over box showed it: no signed figure while provisional (siteinfo.change)
         **(_change_of(r.before, r.after, nth.get(r.table_id)) if r.rated else {}),
         "players": len(tables.get(r.table_id, [])) or None,
         "left": any(x["seat"] == r.seat and x["left"] for x in tables.get(r.table_id, [])),
         "opponents": [x for x in tables.get(r.table_id, []) if x["seat"] != r.seat]}
        for r in rows
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
    return {"name": name, "games": sorted(games.values(), key=lambda g: g["game"]), "recent": recent,
            "page": page, "more": more}


def _change_of(before: int, after: int, nth: int | None) -> dict[str, Any]:
    """A profile row's change, as the game-over box showed it; `nth`: which of the player's provisional games of
    that game it was (None: a game on a settled rating, whose count the profile does not need)."""
    if nth is not None:
        return change(before, after, nth - 1)
    c = change(before, after, ratings.PROVISIONAL_GAMES)
    del c["rated_games"]
    return c


def _provisional_games(conn: Connection, key: str, games: set[str]) -> dict[str, int]:
    """table -> n for the player's first PROVISIONAL_GAMES rated games of each of `games` (n = 1 for the first):
    the games played on a provisional rating, in the order `load_changes` counts them."""
    out: dict[str, int] = {}
    for game in sorted(games):
        q = (sa.select(results_t.c.table_id)
             .where(results_t.c.player == key, results_t.c.game == game, results_t.c.rated.is_(True))
             .order_by(results_t.c.created_at, results_t.c.table_id).limit(ratings.PROVISIONAL_GAMES))
        out.update((r.table_id, n) for n, r in enumerate(conn.execute(q), 1))
    return out


def _tables_of(conn: Connection, tids: list[str]) -> dict[str, list[dict[str, Any]]]:
    """Every seat of these finished tables: its name, kind (person, guest or bot), account, place and whether its
    player left (the profile lists each game with its opponents, issue #34)."""
    if not tids:
        return {}
    out: dict[str, list[dict[str, Any]]] = {}
    accounts = {
        (r.table_id, r.seat): r.name
        for r in conn.execute(
            sa.select(seat_users_t.c.table_id, seat_users_t.c.seat, users_t.c.name)
            .join(users_t, users_t.c.id == seat_users_t.c.user_id).where(seat_users_t.c.table_id.in_(tids))
        )
    }
    ranks = {
        (r.table_id, r.seat): r.rank
        for r in conn.execute(
            sa.select(results_t.c.table_id, results_t.c.seat, results_t.c.rank).where(results_t.c.table_id.in_(tids))
        )
    }
    leavers = {
        r.table_id: set(json.loads(r.leavers or "[]"))
        for r in conn.execute(
            sa.select(table_site_t.c.table_id, table_site_t.c.leavers).where(table_site_t.c.table_id.in_(tids))
        )
    }
    for r in conn.execute(sa.select(seats_t).where(seats_t.c.table_id.in_(tids)).order_by(seats_t.c.seat)):
        account = accounts.get((r.table_id, r.seat))
        left = r.seat in leavers.get(r.table_id, set())
        kind = "account" if account else ("bot" if r.kind == "bot" and not left else "guest")
        out.setdefault(r.table_id, []).append(
            {"seat": r.seat, "name": account or r.name, "kind": kind, "rank": ranks.get((r.table_id, r.seat)),
             "left": left}
        )
    return out


def bot_ratings(conn: Connection) -> dict[str, Any]:
    """Every bot level's rating per game: the stored one, else the ladder's (`ladder` lists the levels whose
    figure is still the ladder's, not yet moved by a game against people)."""
    out: dict[str, dict[str, int]] = {}
    for r in conn.execute(sa.select(ratings_t).where(ratings_t.c.player.like("bot:%"))):
        out.setdefault(r.game, {})[r.player[4:]] = ratings.shown(r.mu, r.sigma)
    seeded: dict[str, list[str]] = {}
    for game, levels in botseed.ladder_seeds().items():
        for level, lr in levels.items():
            if level not in out.get(game, {}):
                out.setdefault(game, {})[level] = ratings.shown(lr.mu, lr.sigma)
                seeded.setdefault(game, []).append(level)
    return {"ratings": out, "ladder": seeded}
