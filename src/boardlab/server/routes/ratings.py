"""Ratings: a player's profile (ratings and results per game, recent tables) and the bots' ratings.
What a finished table records is in server/results.py; the arithmetic in server/ratings.py."""

from __future__ import annotations

from fastapi import APIRouter, Query, Request
from fastapi import Path as PathParam
from fastapi.responses import JSONResponse

from boardlab.core import games, get_game

from ..accounts import name_key
from ..deps import site_errors, site_of
from ..errors import ApiError
from ..leaders import leaderboard as read_leaderboard
from ..leaders import search as read_search
from ..results import bot_ratings as read_bot_ratings
from ..results import profile as read_profile

NAME = PathParam(min_length=1, max_length=60)


def router() -> APIRouter:
    r = APIRouter()

    @r.get("/api/users/{name}", tags=["accounts"], responses=site_errors(404))
    async def profile(request: Request, name: str = NAME, page: int = Query(0, ge=0, le=10_000)) -> JSONResponse:
        """A player's profile: ratings and results per game, and the games played (20 a page, newest first), each
        with its date, place, rating change, opponents, and who left."""
        site = site_of(request)
        row = await site.accounts.find(name)
        if row is None:
            raise ApiError(404, "no_user", "no such player")
        return JSONResponse(await site.store.read(lambda c: read_profile(c, f"u:{row.id}", row.name, page)))

    @r.get("/api/bots/ratings", tags=["accounts"], responses=site_errors())
    async def bot_ratings(request: Request) -> JSONResponse:
        """The bots' ratings per game and level (how strong "hard" really is)."""
        return JSONResponse(await site_of(request).store.read(read_bot_ratings))

    @r.get("/api/leaderboard/{game}", tags=["accounts"], responses=site_errors(404))
    async def leaderboard(
        request: Request, game: str, players: int = Query(..., ge=1, le=16), page: int = Query(0, ge=0, le=10_000)
    ) -> JSONResponse:
        """The game's leaderboard at one player count, 50 a page: the accounts that played rated games at that
        count, by their rating in the game (the conservative figure), with how many of those games."""
        if game not in games():
            raise ApiError(404, "no_game", f"no game {game!r}")
        g = get_game(game)
        if not g.min_players <= players <= g.max_players:
            raise ApiError(400, "bad_players", f"{g.name} takes {g.min_players}-{g.max_players} players, not {players}")
        return JSONResponse(await site_of(request).store.read(lambda c: read_leaderboard(c, game, players, page)))

    @r.get("/api/users", tags=["accounts"], responses=site_errors())
    async def search(request: Request, prefix: str = Query(..., min_length=1, max_length=20)) -> JSONResponse:
        """Players whose name begins with `prefix` (case and width folded), at most 20, A-Z."""
        key = name_key(prefix)
        return JSONResponse({"users": await site_of(request).store.read(lambda c: read_search(c, key))})

    return r
