"""Play at a table: its state, actions, undo, the log, the replay of a finished game, and the seats
(a bot takes a seat, its player takes it back, a player out of time is expelled)."""

from __future__ import annotations

import asyncio
from typing import Any

from fastapi import APIRouter, Query, Request
from fastapi.responses import JSONResponse, Response

from .. import seats
from ..bots import known_bot_kinds
from ..deps import OPTIONAL_AUTH, At, Lang, Seat, SiteAt, api_errors, site_errors, site_of, state_response
from ..errors import ApiError
from ..limits import Gates
from ..policy import lang_of
from ..schemas import ActionIn, BotIn, HintIn, HintOut, LogOut, ReplayOut, StateOut, UndoIn

SPECTATORS: dict[str, Any] = {"openapi_extra": OPTIONAL_AUTH, "tags": ["play"]}
"""A route a spectator may call too (no token)."""
REPLAY_ERRORS = api_errors(400, 401, 403, 404, 409)


def router(gates: Gates) -> APIRouter:
    r = APIRouter()

    @r.get("/api/tables/{table_id}", response_model=StateOut, responses=api_errors(401, 403, 404), **SPECTATORS)
    async def table_state(at: At, lang: Lang = "en") -> Response:
        """The table as this seat sees it (no token: as a spectator sees it)."""
        t, viewer = await at.viewing()
        return state_response(at.svc.encoded(t, viewer, lang_of(lang)))

    @r.post(
        "/api/tables/{table_id}/actions",
        response_model=StateOut,
        tags=["play"],
        responses=api_errors(400, 401, 403, 404, 409, 413, 422),
    )
    async def act(body: ActionIn, at: At, lang: Lang = "en") -> Response:
        """Play an action for the token's seat. `move` must equal the table's current log length."""
        t, seat = await at.seated()
        return state_response(await at.svc.act(t, seat, body.move, body.action, lang_of(lang)))

    @r.post(
        "/api/tables/{table_id}/undo",
        response_model=StateOut,
        tags=["play"],
        responses=api_errors(401, 403, 404, 409),
    )
    async def undo(body: UndoIn, at: At, lang: Lang = "en") -> Response:
        """Undo your own last action during your own turn, unless it revealed information or chance."""
        t, seat = await at.seated()
        return state_response(await at.svc.undo(t, seat, body.move, lang_of(lang)))

    @r.post("/api/tables/{table_id}/hint", response_model=HintOut, tags=["play"],
            responses=api_errors(401, 403, 404, 409, 429))
    @gates.seats  # a hint runs the table's bot: it spends the seat budget, like handing a seat to a bot
    async def hint(body: HintIn, request: Request, at: At, lang: Lang = "en") -> JSONResponse:
        """Suggest a move for your seat: what the table's bot would play now and why, in a sentence. Unrated
        tables only (409 `no_hints` on a rated one); nothing is played."""
        t, seat = await at.seated()
        info = site_of(request).ensure(t)
        if info.rated:
            raise ApiError(409, "no_hints", "rated tables give no hints")
        kind = next((s.bot for s in t.seats if s.kind == "bot" and s.bot), info.bot_level)
        kind = kind if kind in known_bot_kinds() else "random"
        return JSONResponse(await at.svc.hint(t, seat, body.move, kind, lang_of(lang)))

    @r.get("/api/tables/{table_id}/log", response_model=LogOut, responses=api_errors(401, 403, 404), **SPECTATORS)
    async def game_log(at: At, lang: Lang = "en") -> JSONResponse:
        """The log in words, with other seats' hidden actions blanked."""
        t, viewer = await at.viewing()
        return JSONResponse({"table": t.id, "seat": viewer, "log": at.svc.log_for(t, viewer, lang_of(lang))})

    @r.get("/api/tables/{table_id}/replay", response_model=ReplayOut, responses=REPLAY_ERRORS, **SPECTATORS)
    async def replay(at: At, step: int = Query(0, ge=0, le=10**6), lang: Lang = "en") -> JSONResponse:
        """A finished game after `step` actions, as this seat saw it (spectators: public only)."""
        t, viewer = await at.viewing()
        return JSONResponse(await asyncio.to_thread(at.svc.replay_step, t, viewer, step, lang_of(lang)))

    @r.post(
        "/api/tables/{table_id}/seats/{seat}/bot",
        response_model=StateOut,
        tags=["seats"],
        responses=api_errors(400, 401, 403, 404, 409, 429),
    )
    @gates.seats
    async def seat_to_bot(body: BotIn, request: Request, at: At, seat: Seat, lang: Lang = "en") -> Response:
        """Let a bot take a seat: your own (you leave), a free one, or one whose player is away."""
        t, by = await at.seated()
        # a thinking bot counts against the table's creator, as if asked for at creation (server/limits.py)
        counted = body.bot != "random" and at.svc.holdings.reserve_bots(t.id, at.svc.limits)
        try:
            await seats.to_bot(at.svc, t, by, seat, body.bot, body.confirm)
        except BaseException:
            if counted:
                at.svc.holdings.release_bots(t.id)
            raise
        return state_response(at.svc.encoded(t, by, lang_of(lang)))

    @r.post(
        "/api/tables/{table_id}/seats/{seat}/human",
        response_model=StateOut,
        tags=["seats"],
        responses=api_errors(401, 403, 404, 409, 429),
    )
    @gates.seats
    async def seat_to_human(request: Request, at: At, seat: Seat, lang: Lang = "en") -> Response:
        """Take your seat back from the bot that stood in for you."""
        t, by = await at.seated()
        if by != seat:
            raise ApiError(403, "not_your_seat", "only the seat's own token can take it back")
        await seats.to_human(at.svc, t, seat)
        return state_response(at.svc.encoded(t, by, lang_of(lang)))

    @r.post(
        "/api/tables/{table_id}/seats/{seat}/expel", tags=["seats"], responses=site_errors(401, 403, 404, 409, 429)
    )
    @gates.seats
    async def expel(request: Request, at: SiteAt, seat: Seat) -> JSONResponse:
        """Expel a player who ran out of time: a bot of the table's level plays their seat to the end."""
        t, by = await at.seated()
        await site_of(request).clocks.expel(t, by, seat)
        return JSONResponse({"table": t.id, "seat": seat, "kind": "bot"})

    return r
