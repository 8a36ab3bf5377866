"""The lobby: the games on offer, creating tables (plain and with the site's settings), the public
tables with a free seat, joining one, and the rematch of a finished table."""

from __future__ import annotations

import functools
import importlib
import importlib.resources
import json
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse

from boardlab.core import games, get_game

from .. import seats
from ..accounts import COOKIE, User, check_csrf
from ..bots import known_bot_kinds
from ..clocks import rated_clock, settings
from ..deps import WEB, At, TableOf, api_errors, link, site_errors, site_of, svc_of
from ..errors import ApiError
from ..limits import Gates, client_key
from ..policy import LANGS
from ..schemas import CreatedOut, CreateTable, GamesOut, JoinedOut, JoinIn, OpenTableOut, SiteTable
from ..siteinfo import SiteInfo, lobby_site
from ..social import seated_accounts
from ..table import Table, network_options

REMATCH_ERRORS = api_errors(401, 403, 404, 409, 429)


def router(gates: Gates) -> APIRouter:
    r = APIRouter()

    @r.get("/api/games", response_model=GamesOut, tags=["lobby"])
    async def list_games() -> JSONResponse:
        """Every game the server can host, its options, and the bot kinds and languages offered."""
        out = []
        for name in games():
            g = get_game(name)
            out.append(
                {
                    "name": name,
                    "titles": dict(g.titles),
                    "min_players": g.min_players,
                    "max_players": g.max_players,
                    "hidden_information": bool(g.hidden_information),
                    "options": {
                        k: {
                            "default": _jsonable(o.default),
                            "doc": o.doc,
                            "choices": None if o.choices is None else [_jsonable(c) for c in o.choices],
                        }
                        for k, o in g.options.items()
                        if k in network_options(g)
                    },
                    "renderer": f"/static/games/{name}.js"
                    if (WEB / "games" / f"{name}.js").exists()
                    else None,
                    "renderer_data": _renderer_data(name),
                }
            )
        return JSONResponse({"games": out, "bots": known_bot_kinds(), "langs": list(LANGS)})

    @r.get("/api/games/{name}/components", tags=["lobby"], responses=api_errors(404, 422))
    async def components(name: str, lang: str = "en") -> JSONResponse:
        """Every component of a game explained (name, what it does, what it costs, reconstructed or printed),
        by the id the browser marks it with, in `lang` (en or zh-TW): what the table's tooltips show."""
        if name not in games():
            raise ApiError(404, "no_game", f"no game {name!r}")
        if lang not in LANGS:
            raise ApiError(422, "bad_lang", f"lang must be one of {list(LANGS)}, not {lang!r}")
        return JSONResponse({"game": name, "lang": lang, "components": _explained(name, lang)})

    @r.post(
        "/api/tables",
        status_code=201,
        response_model=CreatedOut,
        tags=["lobby"],
        responses=api_errors(400, 404, 413, 429),
    )
    @gates.create
    async def create_table(body: CreateTable, request: Request) -> JSONResponse:
        """Create a table. The response holds each human seat's secret token, once: share the links."""
        t, tokens = await svc_of(request).create(
            body.game,
            body.players,
            body.options,
            [s.model_dump() for s in body.seats],
            body.public,
            client=client_key(request),
        )
        return JSONResponse(_created(t, tokens), status_code=201)

    @r.get("/api/tables", response_model=list[OpenTableOut], tags=["lobby"])
    async def open_tables(request: Request) -> JSONResponse:
        """Public tables that still have a free seat, with their site settings (rated, clock) so nobody joins a
        rated 2-second table unawares."""
        rows = await svc_of(request).open_tables()
        site = site_of(request)
        # the live tables' settings from memory (their rows may still be on their way to the database)
        known = {r["id"]: {"rated": i.rated, "clock": i.clock} for r in rows if (i := site.info.get(r["id"]))}
        missing = [r["id"] for r in rows if r["id"] not in known]
        if missing:
            known.update(await site.store.read(lambda c: lobby_site(c, missing)))
        for r in rows:
            r.update(known.get(r["id"], {"rated": False, "clock": None}))
        return JSONResponse(await _friends_first(request, rows))

    @r.post(
        "/api/tables/{table_id}/join", response_model=JoinedOut, tags=["lobby"], responses=api_errors(404, 409, 429)
    )
    @gates.seats
    async def join(body: JoinIn, request: Request, at: TableOf) -> JSONResponse:
        """Take a free seat; the response holds the new seat's secret token."""
        t = await at.table()
        site = site_of(request)
        u = await site.accounts.user(request) if request.cookies.get(COOKIE) else None
        if u is not None:  # a block between the joiner and a player here: no seat (issue #34, server/social.py)
            await site.social.check_may_sit({uid for uid, _n in site.ensure(t).users.values()}, u.id)
        seat, token = await seats.join(at.svc, t, body.seat, body.name)
        return JSONResponse({"table": t.id, "seat": seat, "token": token, "link": link(t.id, [token])})

    @r.post("/api/tables/{table_id}/rematch", response_model=JoinedOut, tags=["lobby"], responses=REMATCH_ERRORS)
    @gates.create
    async def rematch(request: Request, at: At) -> JSONResponse:
        """Same game, seats and options, new deal; returns your seat's token at the new table. A seat kept in an
        account stays in it (issue #34: the rematch asked to keep the game again and was not rated)."""
        t, seat = await at.seated()
        assert at.token is not None
        site = site_of(request)
        owner = site.ensure(t).users.get(seat)  # a signed-in player's seat: the rematch seat is the account's too
        token_at = None if owner is None else (lambda nid: site.seat_token(nid, seat, owner[0]))
        new, mine = await seats.rematch(at.svc, t, seat, at.token, client_key(request), token_at)
        if owner is not None and site.ensure(new).users.get(seat) != owner:
            await site.link_seat(new, seat, User(owner[0], owner[1], ""), mine)
            at.svc.broadcast(new)
        return JSONResponse({"table": new.id, "seat": seat, "token": mine, "link": link(new.id, [mine])})

    @r.post("/api/site/tables", status_code=201, tags=["lobby"], responses=site_errors(400, 401, 403, 404, 429))
    @gates.create
    async def create(body: SiteTable, request: Request) -> JSONResponse:
        """Create a table with the site's settings (rated, clock, bot level, bot pace). Signed in, the
        first person seat is yours, kept in "My games"."""
        site = site_of(request)
        svc = site.svc
        u: User | None = await site.accounts.user(request)
        if u is not None:
            check_csrf(request, u.csrf)
        if body.rated and u is None:
            raise ApiError(401, "not_signed_in", "rated tables need an account")
        if body.bot_level not in known_bot_kinds():
            raise ApiError(400, "bad_bot", f"unknown bot level {body.bot_level!r}")
        try:
            clock = settings(body.clock)
            if body.rated and clock is not None:
                rated_clock(clock)
        except ValueError as e:
            raise ApiError(400, "bad_clock", str(e)) from None
        specs = [s.model_dump() for s in body.seats]
        for spec in specs:
            if spec["kind"] == "bot" and not spec.get("bot"):
                spec["bot"] = body.bot_level
        t, tokens = await svc.create(body.game, body.players, body.options, specs, body.public,
                                     client=client_key(request))
        info = SiteInfo(rated=body.rated, bot_level=body.bot_level, pace=body.pace, clock=clock, stored=False)
        site.info[t.id] = info
        site.new_clock(t, info)  # running now, or waiting for the seats to fill and the player to move
        mine = next((s.seat for s in t.seats if s.kind == "human"), None)
        if u is not None and mine is not None:
            tok = site.seat_token(t.id, mine, u.id)
            tokens[mine] = tok
            await site.link_seat(t, mine, u, tok)
        site.save(t, info)
        site.clocks.arm(t, info)
        return JSONResponse({**_created(t, tokens), "mine": mine}, status_code=201)

    return r


async def _friends_first(request: Request, rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """A signed-in player's friends' open tables first, each row with `friends` (the names of the friends seated
    there; issue #34). Signed out, the list is as it was (no `friends`)."""
    site = site_of(request)
    u = await site.accounts.user(request) if request.cookies.get(COOKIE) and rows else None
    if u is None:
        return rows
    mine = await site.social.friend_ids(u.id)
    if not mine:
        return [{**r, "friends": []} for r in rows]
    seated = await site.store.read(lambda c: seated_accounts(c, [r["id"] for r in rows]))
    for r in rows:
        r["friends"] = sorted(name for uid, name in seated.get(r["id"], {}).items() if uid in mine)
    return sorted(rows, key=lambda r: not r["friends"])  # stable: the order within each part is kept


def _created(t: Table, tokens: dict[int, str]) -> dict[str, Any]:
    """A new table's seats with the links of its human seats (each with its token), once."""
    out = [
        {
            "seat": s.seat,
            "kind": s.kind,
            "token": tokens.get(s.seat),
            "link": link(t.id, [tokens[s.seat]]) if s.seat in tokens else None,
        }
        for s in t.seats
    ]
    hot = link(t.id, [tokens[i] for i in sorted(tokens)]) if len(tokens) > 1 else None
    return {"id": t.id, "seats": out, "spectator_link": link(t.id), "hotseat_link": hot}


RENDERER_DATA = ("terms", "components", "cards", "rules", "about")
"""Data files (`<name>.json` in the game's package) published with /api/games for the web renderers."""


@functools.lru_cache(maxsize=64)
def _renderer_data(name: str) -> dict[str, Any]:
    """The game package's terms.json / components.json / cards.json / rules.json, so renderers never
    copy them by hand."""
    package = importlib.import_module(type(get_game(name)).__module__).__package__ or ""
    out: dict[str, Any] = {}
    if not package:  # a game defined in a top-level module ships no data files
        return out
    for key in RENDERER_DATA:
        try:
            out[key] = json.loads(importlib.resources.files(package).joinpath(f"{key}.json").read_text("utf-8"))
        except (OSError, ValueError, ModuleNotFoundError, TypeError):
            continue
    return out


@functools.lru_cache(maxsize=64)
def _explained(name: str, lang: str) -> dict[str, Any]:
    """A game's component explanations in one language, computed once (they depend on its data files only)."""
    return get_game(name).explain(lang)


def _jsonable(v: Any) -> Any:
    try:
        json.dumps(v)
        return v
    except (TypeError, ValueError):
        return str(v)
