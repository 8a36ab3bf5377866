"""Friends and blocks of the signed-in account (issue #34): list, add and remove. What a block does (no seat at
your tables, no chat lines to you) and the reports are in server/social.py; the chat routes in routes/chat.py."""

from __future__ import annotations

from fastapi import APIRouter, Request
from fastapi import Path as PathParam
from fastapi.responses import JSONResponse

from ..deps import site_errors, site_of

NAME = PathParam(min_length=1, max_length=60)


def router() -> APIRouter:
    r = APIRouter()

    @r.get("/api/me/friends", tags=["accounts"], responses=site_errors(401))
    async def friends(request: Request) -> JSONResponse:
        """Your friends and the players you blocked (names, alphabetical)."""
        site = site_of(request)
        u = await site.accounts.require(request, csrf=False)
        return JSONResponse({"friends": await site.social.friends(u.id), "blocked": await site.social.blocked(u.id)})

    @r.put("/api/me/friends/{name}", tags=["accounts"], responses=site_errors(401, 403, 404, 409))
    async def add_friend(request: Request, name: str = NAME) -> JSONResponse:
        """Add a player to your friends: the lobby lists the open tables where they sit first."""
        site = site_of(request)
        u = await site.accounts.require(request)
        return JSONResponse({"friend": await site.social.add_friend(u, name)})

    @r.delete("/api/me/friends/{name}", tags=["accounts"], responses=site_errors(401, 403, 404, 409))
    async def remove_friend(request: Request, name: str = NAME) -> JSONResponse:
        site = site_of(request)
        u = await site.accounts.require(request)
        return JSONResponse({"removed": await site.social.remove_friend(u, name)})

    @r.put("/api/me/blocks/{name}", tags=["accounts"], responses=site_errors(401, 403, 404, 409))
    async def block(request: Request, name: str = NAME) -> JSONResponse:
        """Block a player: they cannot take a seat at a table where you sit, and their chat lines are not shown
        to you. They are dropped from your friends."""
        site = site_of(request)
        u = await site.accounts.require(request)
        return JSONResponse({"blocked": await site.social.block(u, name)})

    @r.delete("/api/me/blocks/{name}", tags=["accounts"], responses=site_errors(401, 403, 404, 409))
    async def unblock(request: Request, name: str = NAME) -> JSONResponse:
        site = site_of(request)
        u = await site.accounts.require(request)
        return JSONResponse({"unblocked": await site.social.unblock(u, name)})

    return r
