"""The ASGI application: thin HTTP and WebSocket handlers over the tables service.

Authentication: a seat's secret token goes in `Authorization: Bearer <token>` (HTTP) or in the
first WebSocket message; never in a URL the server sees (invite links carry it after `#`).
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import importlib
import importlib.resources
import json
import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Annotated, Any, Literal

import orjson
from fastapi import Depends, FastAPI, Query, Request, WebSocket, WebSocketDisconnect
from fastapi import Path as PathParam
from fastapi.encoders import jsonable_encoder
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, JSONResponse, Response
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer
from fastapi.staticfiles import StaticFiles
from pydantic import BaseModel, ConfigDict, Field
from slowapi import Limiter
from slowapi.errors import RateLimitExceeded
from slowapi.middleware import SlowAPIASGIMiddleware
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from boardlab.core import BoardlabError, games, get_game

from .bots import BotRunner, known_bot_kinds
from .limits import Limits, client_key
from .policy import LANGS, lang_of
from .store import Store
from .tables import ApiError, Conn, Table, TableService, network_options

log = logging.getLogger("boardlab.server")
WEB = Path(__file__).resolve().parent.parent / "web"
MAX_BODY = 64 * 1024
TableId = PathParam(min_length=1, max_length=64, pattern=r"^[A-Za-z0-9_-]+$")
bearer = HTTPBearer(auto_error=False, description="a seat token from an invite link")
Lang = Annotated[str, Query(max_length=8, description="language of the words: en or zh-TW")]
Cred = Annotated[HTTPAuthorizationCredentials | None, Depends(bearer)]


# -- request and response schemas (documented in /openapi.json) ---------------------------------------
class SeatSpec(BaseModel):
    model_config = ConfigDict(extra="forbid")
    kind: Literal["human", "open", "bot"] = "human"
    bot: str | None = Field(None, max_length=16, description="bot kind or level, for kind=bot")
    name: str | None = Field(None, max_length=40)


class CreateTable(BaseModel):
    model_config = ConfigDict(extra="forbid")
    game: str = Field(max_length=64)
    players: int = Field(ge=1, le=16)
    options: dict[str, Any] = Field(default_factory=dict)
    seats: list[SeatSpec] = Field(max_length=16)
    public: bool = False


class ActionIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    move: int = Field(ge=0, le=10**9, description="the log length this action expects (else 409)")
    action: str = Field(max_length=200, description="the action's notation")


class UndoIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    move: int = Field(ge=0, le=10**9)


class JoinIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    seat: int | None = Field(None, ge=0, le=15)
    name: str | None = Field(None, max_length=40)


class BotIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    bot: str = Field("random", max_length=16)


class ErrorOut(BaseModel):
    error: str = Field(description="a stable code the UI translates, e.g. stale_move, bad_token")
    detail: Any = Field(description="a sentence in English (a list of problems for invalid_request)")


class SeatOut(BaseModel):
    seat: int
    kind: str
    bot: str | None
    name: str
    connected: bool


class LogEntry(BaseModel):
    n: int
    seat: int
    action: str | None = Field(description="notation, or null when this viewer may not see it")
    text: str | None


class LegalOut(BaseModel):
    action: str
    text: str


class StateOut(BaseModel):
    type: Literal["state"]
    table: str
    game: str
    version: int
    seat: int | None
    players: int
    current: int | None
    over: bool
    view: dict[str, Any]
    legal: list[LegalOut]
    seats: list[SeatOut]
    thinking: list[int]
    log_len: int
    last: LogEntry | None
    can_undo: bool
    rematch: str | None
    public: bool
    scores: list[dict[str, Any]] | None = None
    winners: list[int] | None = None
    site: dict[str, Any] | None = Field(
        None,
        description="the site's part (server/site.py): rated, bot_level, users and ratings per seat, leavers, "
        "clock {mode, speed, bank, per_move, cap, remaining, seat, since, out, deadline}, away_since, grace",
    )


class CreatedSeat(BaseModel):
    seat: int
    kind: str
    token: str | None
    link: str | None


class CreatedOut(BaseModel):
    id: str
    seats: list[CreatedSeat]
    spectator_link: str
    hotseat_link: str | None


class OptionOut(BaseModel):
    default: Any
    doc: str
    choices: list[Any] | None


class GameOut(BaseModel):
    name: str
    titles: dict[str, str]
    min_players: int
    max_players: int
    hidden_information: bool
    options: dict[str, OptionOut]
    renderer: str | None
    renderer_data: dict[str, Any] = Field(
        default_factory=dict,
        description="data files the game's package ships for its renderer, by name: terms (the game's "
        "vocabulary per language, terms.json), components (the component set with provenance, "
        "components.json), cards (a card deck with provenance, cards.json) and rules (fixed components "
        "and rule numbers, rules.json) and about (the lobby card and How-to-play page, about.json); a name is "
        "absent when the package has no such file",
    )


class GamesOut(BaseModel):
    games: list[GameOut]
    bots: list[str]
    langs: list[str]


class OpenTableOut(BaseModel):
    id: str
    game: str
    players: int
    seats: list[SeatOut]
    created_at: float


class JoinedOut(BaseModel):
    table: str
    seat: int
    token: str
    link: str


class LogOut(BaseModel):
    table: str
    seat: int | None
    log: list[LogEntry]


class ReplayOut(BaseModel):
    table: str
    game: str
    seat: int | None
    step: int
    total: int
    current: int | None
    view: dict[str, Any]
    log: list[LogEntry]
    seats: list[SeatOut]


OPTIONAL_AUTH: dict[str, Any] = {"security": [{}, {"HTTPBearer": []}]}
"""OpenAPI for "a token is optional": without one you are a spectator."""


def _errors(*codes: int) -> dict[int | str, dict[str, Any]]:
    return {c: {"model": ErrorOut} for c in codes}


SECURITY_HEADERS = [
    (
        b"content-security-policy",
        b"default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; "
        b"connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'",
    ),
    (b"x-frame-options", b"DENY"),
    (b"referrer-policy", b"no-referrer"),
    (b"x-content-type-options", b"nosniff"),
]
"""On every HTTP response: scripts only from this server (no inline script, so an injected name
cannot run), the pages cannot be framed (clickjacking), no Referer leaves, no MIME sniffing."""


class SecurityHeaders:
    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def with_headers(msg: Message) -> None:
            if msg["type"] == "http.response.start":
                msg["headers"] = [*msg.get("headers", []), *SECURITY_HEADERS]
            await send(msg)

        await self.app(scope, receive, with_headers)


class BodyLimit:
    """Refuse request bodies over MAX_BODY before they are read into memory (413), and bodies whose
    next chunk takes over `body_timeout` seconds to arrive (408: a slow sender holds a connection)."""

    def __init__(self, app: ASGIApp, body_timeout: float = 10.0) -> None:
        self.app = app
        self.body_timeout = body_timeout

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        for k, v in scope.get("headers", []):
            if k == b"content-length" and (not v.isdigit() or int(v) > MAX_BODY):
                await _too_large(send)
                return
        seen = 0

        async def limited() -> Message:
            nonlocal seen
            try:
                msg = await asyncio.wait_for(receive(), self.body_timeout)
            except TimeoutError:
                raise _TooSlow from None
            if msg["type"] == "http.request":
                seen += len(msg.get("body", b""))
                if seen > MAX_BODY:
                    raise _TooLarge
            return msg

        try:
            await self.app(scope, limited, send)
        except _TooLarge:
            await _too_large(send)
        except _TooSlow:
            await _json_response(send, 408, {"error": "too_slow", "detail": "the request body came too slowly"})


class _TooLarge(Exception):
    pass


class _TooSlow(Exception):
    pass


async def _json_response(send: Send, status: int, payload: dict[str, Any]) -> None:
    body = json.dumps(payload).encode()
    headers = [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())]
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": body})


async def _too_large(send: Send) -> None:
    body = json.dumps(
        {"error": "too_large", "detail": f"request bodies are at most {MAX_BODY} bytes"}
    ).encode()
    await send(
        {
            "type": "http.response.start",
            "status": 413,
            "headers": [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())],
        }
    )
    await send({"type": "http.response.body", "body": body})


def create_app(db_url: str, *, resume: bool = True) -> FastAPI:
    """The application over the database at `db_url` (migrated at start-up)."""

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        store = await asyncio.to_thread(Store, db_url)
        bots = BotRunner()
        svc = TableService(store, bots)
        app.state.svc = svc
        from .site import Site

        app.state.site = Site(svc)
        await app.state.site.start()
        resumer = asyncio.create_task(svc.resume()) if resume else None
        try:
            yield
        finally:
            if resumer is not None:
                resumer.cancel()
            app.state.site.close()
            await svc.close()
            bots.close()
            await asyncio.to_thread(store.close)

    app = FastAPI(
        title="boardlab",
        version="0.1.0",
        lifespan=lifespan,
        docs_url=None,
        redoc_url=None,
        responses=_errors(400, 413, 429),
        description="Play boardlab's board games: tables, seats, moves, live updates by WebSocket "
        "(/ws/tables/{id}, see docs/server.md).",
    )
    limits = Limits.from_env()
    limiter = Limiter(key_func=client_key, default_limits=[limits.rate_default], storage_uri="memory://")
    app.state.limiter = limiter
    app.add_middleware(BodyLimit, body_timeout=limits.body_timeout)
    app.add_middleware(SlowAPIASGIMiddleware)
    app.add_middleware(SecurityHeaders)

    @app.exception_handler(RateLimitExceeded)
    async def _rate_limited(_req: Request, e: RateLimitExceeded) -> JSONResponse:
        return JSONResponse(
            {"error": "rate_limited", "detail": f"too many requests from this client (limit: {e.detail})"},
            status_code=429,
            headers={"Retry-After": "1"},
        )

    @app.exception_handler(ApiError)
    async def _api_error(_req: Request, e: ApiError) -> JSONResponse:
        return JSONResponse(e.to_json(), status_code=e.status)

    @app.exception_handler(StarletteHTTPException)
    async def _http_error(_req: Request, e: StarletteHTTPException) -> JSONResponse:
        code = {404: "not_found", 405: "method_not_allowed"}.get(e.status_code, f"http_{e.status_code}")
        return JSONResponse(
            {"error": code, "detail": str(e.detail)},
            status_code=e.status_code,
            headers=getattr(e, "headers", None),
        )

    @app.exception_handler(RequestValidationError)
    async def _invalid(_req: Request, e: RequestValidationError) -> JSONResponse:
        errors = jsonable_encoder(e.errors(), custom_encoder={bytes: lambda b: b.decode("utf-8", "replace")})
        for err in errors:
            err.pop("input", None)  # never echo (possibly huge) input back
            err.pop("ctx", None)
        return JSONResponse({"error": "invalid_request", "detail": errors}, status_code=422)

    @app.exception_handler(BoardlabError)
    async def _lib_error(_req: Request, e: BoardlabError) -> JSONResponse:
        return JSONResponse({"error": "refused", "detail": str(e)}, status_code=400)

    def svc_of(request: Request) -> TableService:
        svc: TableService = request.app.state.svc
        return svc

    def token_of(cred: HTTPAuthorizationCredentials | None) -> str | None:
        return cred.credentials if cred is not None else None

    async def viewer_of(t: Table, cred: HTTPAuthorizationCredentials | None) -> int | None:
        """No token: a spectator. A token: it must be one of this table's seats."""
        tok = token_of(cred)
        if tok is None:
            return None
        return TableService.require_seat(t, tok)

    base = "/"

    def link(tid: str, tokens: list[str] | None = None) -> str:
        return f"{base}t/{tid}" + (f"#s={','.join(tokens)}" if tokens else "")

    # -- lobby --------------------------------------------------------------------------------------
    @app.get("/api/games", response_model=GamesOut, tags=["lobby"])
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

    @app.post(
        "/api/tables",
        status_code=201,
        response_model=CreatedOut,
        tags=["lobby"],
        responses=_errors(400, 404, 413, 429),
    )
    @limiter.limit(limits.rate_create)
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
        seats = [
            {
                "seat": s.seat,
                "kind": s.kind,
                "token": tokens.get(s.seat),
                "link": link(t.id, [tokens[s.seat]]) if s.seat in tokens else None,
            }
            for s in t.seats
        ]
        hot = link(t.id, [tokens[i] for i in sorted(tokens)]) if len(tokens) > 1 else None
        return JSONResponse(
            {"id": t.id, "seats": seats, "spectator_link": link(t.id), "hotseat_link": hot}, status_code=201
        )

    @app.get("/api/tables", response_model=list[OpenTableOut], tags=["lobby"])
    async def open_tables(request: Request) -> JSONResponse:
        """Public tables that still have a free seat."""
        return JSONResponse(await svc_of(request).open_tables())

    @app.post(
        "/api/tables/{table_id}/join", response_model=JoinedOut, tags=["lobby"], responses=_errors(404, 409, 429)
    )
    @limiter.limit(limits.rate_seats)
    async def join(body: JoinIn, request: Request, table_id: str = TableId) -> JSONResponse:
        """Take a free seat; the response holds the new seat's secret token."""
        svc = svc_of(request)
        t = await svc.get(table_id)
        seat, token = await svc.join(t, body.seat, body.name)
        return JSONResponse({"table": t.id, "seat": seat, "token": token, "link": link(t.id, [token])})

    # -- play ---------------------------------------------------------------------------------------
    @app.get(
        "/api/tables/{table_id}",
        response_model=StateOut,
        openapi_extra=OPTIONAL_AUTH,
        tags=["play"],
        responses=_errors(401, 403, 404),
    )
    async def table_state(
        request: Request,
        table_id: str = TableId,
        lang: Lang = "en",
        cred: Cred = None,
    ) -> Response:
        """The table as this seat sees it (no token: as a spectator sees it)."""
        svc = svc_of(request)
        t = await svc.get(table_id)
        return _state(svc.encoded(t, await viewer_of(t, cred), lang_of(lang)))

    @app.post(
        "/api/tables/{table_id}/actions",
        response_model=StateOut,
        tags=["play"],
        responses=_errors(400, 401, 403, 404, 409, 413, 422),
    )
    async def act(
        body: ActionIn,
        request: Request,
        table_id: str = TableId,
        lang: Lang = "en",
        cred: Cred = None,
    ) -> Response:
        """Play an action for the token's seat. `move` must equal the table's current log length."""
        svc = svc_of(request)
        t = await svc.get(table_id)
        seat = svc.require_seat(t, token_of(cred))
        return _state(await svc.act(t, seat, body.move, body.action, lang_of(lang)))

    @app.post(
        "/api/tables/{table_id}/undo",
        response_model=StateOut,
        tags=["play"],
        responses=_errors(401, 403, 404, 409),
    )
    async def undo(
        body: UndoIn,
        request: Request,
        table_id: str = TableId,
        lang: Lang = "en",
        cred: Cred = None,
    ) -> Response:
        """Undo your own last action during your own turn, unless it revealed information or chance."""
        svc = svc_of(request)
        t = await svc.get(table_id)
        seat = svc.require_seat(t, token_of(cred))
        return _state(await svc.undo(t, seat, body.move, lang_of(lang)))

    @app.get(
        "/api/tables/{table_id}/log",
        response_model=LogOut,
        openapi_extra=OPTIONAL_AUTH,
        tags=["play"],
        responses=_errors(401, 403, 404),
    )
    async def game_log(
        request: Request,
        table_id: str = TableId,
        lang: Lang = "en",
        cred: Cred = None,
    ) -> JSONResponse:
        """The log in words, with other seats' hidden actions blanked."""
        svc = svc_of(request)
        t = await svc.get(table_id)
        viewer = await viewer_of(t, cred)
        return JSONResponse({"table": t.id, "seat": viewer, "log": svc.log_for(t, viewer, lang_of(lang))})

    @app.get(
        "/api/tables/{table_id}/replay",
        response_model=ReplayOut,
        openapi_extra=OPTIONAL_AUTH,
        tags=["play"],
        responses=_errors(400, 401, 403, 404, 409),
    )
    async def replay(
        request: Request,
        table_id: str = TableId,
        step: int = Query(0, ge=0, le=10**6),
        lang: Lang = "en",
        cred: Cred = None,
    ) -> JSONResponse:
        """A finished game after `step` actions, as this seat saw it (spectators: public only)."""
        svc = svc_of(request)
        t = await svc.get(table_id)
        viewer = await viewer_of(t, cred)
        return JSONResponse(await asyncio.to_thread(svc.replay_step, t, viewer, step, lang_of(lang)))

    @app.post(
        "/api/tables/{table_id}/seats/{seat}/bot",
        response_model=StateOut,
        tags=["seats"],
        responses=_errors(400, 401, 403, 404, 409, 429),
    )
    @limiter.limit(limits.rate_seats)
    async def seat_to_bot(
        body: BotIn,
        request: Request,
        table_id: str = TableId,
        seat: int = PathParam(ge=0, le=15),
        lang: Lang = "en",
        cred: Cred = None,
    ) -> Response:
        """Let a bot take a seat: your own (you leave), a free one, or one whose player is away."""
        svc = svc_of(request)
        t = await svc.get(table_id)
        by = svc.require_seat(t, token_of(cred))
        await svc.to_bot(t, by, seat, body.bot)
        return _state(svc.encoded(t, by, lang_of(lang)))

    @app.post(
        "/api/tables/{table_id}/seats/{seat}/human",
        response_model=StateOut,
        tags=["seats"],
        responses=_errors(401, 403, 404, 409, 429),
    )
    @limiter.limit(limits.rate_seats)
    async def seat_to_human(
        request: Request,
        table_id: str = TableId,
        seat: int = PathParam(ge=0, le=15),
        lang: Lang = "en",
        cred: Cred = None,
    ) -> Response:
        """Take your seat back from the bot that stood in for you."""
        svc = svc_of(request)
        t = await svc.get(table_id)
        by = svc.require_seat(t, token_of(cred))
        if by != seat:
            raise ApiError(403, "not_your_seat", "only the seat's own token can take it back")
        await svc.to_human(t, seat)
        return _state(svc.encoded(t, by, lang_of(lang)))

    @app.post(
        "/api/tables/{table_id}/rematch",
        response_model=JoinedOut,
        tags=["lobby"],
        responses=_errors(401, 403, 404, 409, 429),
    )
    @limiter.limit(limits.rate_create)
    async def rematch(
        request: Request, table_id: str = TableId, cred: Cred = None
    ) -> JSONResponse:
        """Same game, seats and options, new deal; returns your seat's token at the new table."""
        svc = svc_of(request)
        t = await svc.get(table_id)
        tok = token_of(cred)
        seat = svc.require_seat(t, tok)
        assert tok is not None
        new, mine = await svc.rematch(t, seat, tok)
        return JSONResponse({"table": new.id, "seat": seat, "token": mine, "link": link(new.id, [mine])})

    @app.get("/healthz", tags=["meta"])
    async def healthz() -> dict[str, str]:
        return {"status": "ok"}

    # -- live updates -------------------------------------------------------------------------------
    @app.websocket("/ws/tables/{table_id}")
    async def ws_table(ws: WebSocket, table_id: str) -> None:
        """First message {"type":"hello","tokens":[...],"lang":"en"}; then the server pushes a
        state message per held seat after every change; the client may send act/undo/ping."""
        await ws.accept()
        svc: TableService = ws.app.state.svc
        try:
            hello = orjson.loads(await asyncio.wait_for(ws.receive_text(), 15))  # depth-limited parser
            tokens = hello.get("tokens") or []
            if (
                not isinstance(tokens, list)
                or len(tokens) > 16
                or not all(isinstance(x, str) for x in tokens)
            ):
                raise ValueError("tokens must be a list of strings")
            t = await svc.get(table_id)
        except ApiError as e:
            await _send_close(ws, {"type": "error", **e.to_json(), "status": e.status}, 4404)
            return
        except (TimeoutError, ValueError, AttributeError, KeyError, TypeError, WebSocketDisconnect):
            await _send_close(
                ws,
                {
                    "type": "error",
                    "error": "bad_hello",
                    "status": 400,
                    "detail": 'send {"type":"hello","tokens":[...]} first',
                },
                4400,
            )
            return
        seats: list[int | None] = []
        for tok in tokens:
            s = t.seat_of(tok)
            if s is None:
                await _send_close(
                    ws,
                    {
                        "type": "error",
                        "error": "bad_token",
                        "status": 403,
                        "detail": "a token holds no seat at this table",
                    },
                    4403,
                )
                return
            if s not in seats:
                seats.append(s)
        lim = svc.limits
        conn = Conn(seats or [None], lang_of(hello.get("lang")), ws.send_text, lim.ws_queue, lim.ws_send_timeout)

        async def sender() -> None:
            try:
                await conn.run()
            except asyncio.CancelledError:
                pass  # dropped: Conn.drop logged why
            except Exception as e:  # the socket failed under a send; the reader sees the disconnect too
                log.info("WebSocket send failed at table %s: %r", t.id, e)

        async def reader() -> None:
            while True:
                msg = await ws.receive()
                if msg["type"] == "websocket.disconnect":
                    return
                raw = msg.get("text")
                if raw is None:
                    reply: dict[str, Any] | None = {
                        "type": "error",
                        "id": None,
                        "status": 400,
                        "error": "bad_message",
                        "detail": "messages are JSON text frames",
                    }
                else:
                    reply = await _ws_command(svc, t, conn, raw)
                if reply is not None:
                    conn.push(json.dumps(reply, ensure_ascii=False))

        conn.task = asyncio.create_task(sender())
        svc.attach(t, conn)
        reading = asyncio.create_task(reader())
        gone = asyncio.create_task(conn.gone.wait())
        try:
            await asyncio.wait({reading, gone}, return_when=asyncio.FIRST_COMPLETED)
        finally:
            svc.detach(t, conn)  # presence follows the socket: the seat is free for a bot from now
            gone.cancel()
            reading.cancel()
            with contextlib.suppress(BaseException):
                await reading
            if conn.why is None:
                conn.close()  # the client left (or the table is reloaded): flush what is queued
                with contextlib.suppress(BaseException):
                    await asyncio.wait_for(asyncio.shield(conn.task), lim.ws_send_timeout)
            # a dropped client gets a close frame if its socket takes one; if not, the protocol
            # aborts the socket once this handler returns (server/protocol.py)
            with contextlib.suppress(BaseException):
                await asyncio.wait_for(ws.close(1008 if conn.why else 1000), 1)

    from .site import router as site_router

    app.include_router(site_router(WEB))  # accounts, rated tables, clocks, chat, profiles (server/site.py)
    app.mount("/static", StaticFiles(directory=WEB), name="static")

    @app.get("/", include_in_schema=False)
    async def lobby_page() -> FileResponse:
        return FileResponse(WEB / "index.html")

    @app.get("/t/{table_id}", include_in_schema=False)
    async def table_page(table_id: str) -> FileResponse:
        return FileResponse(WEB / "table.html")

    @app.get("/r/{table_id}", include_in_schema=False)
    async def replay_page(table_id: str) -> FileResponse:
        return FileResponse(WEB / "replay.html")

    return app


async def _ws_command(svc: TableService, t: Table, conn: Conn, raw: str) -> dict[str, Any] | None:
    """Handle one client message; the reply (ack or error) goes to this connection only."""
    msg_id: Any = None
    try:
        msg = orjson.loads(raw)  # depth-limited (1024): `"[" * 60000` is a clean JSONDecodeError
        if not isinstance(msg, dict):
            raise ApiError(400, "bad_message", "messages are JSON objects")
        msg_id = msg.get("id")
        if not isinstance(msg_id, int | str | None) or (isinstance(msg_id, str) and len(msg_id) > 64):
            msg_id = None
        kind = msg.get("type")
        if kind == "ping":
            return {"type": "pong", "id": msg_id}
        if kind not in ("act", "undo"):
            raise ApiError(400, "bad_message", "type must be act, undo or ping")
        held = [s for s in conn.seats if s is not None]
        seat = msg.get("seat", held[0] if len(held) == 1 else None)
        if not held:
            raise ApiError(401, "no_token", "spectators cannot act")
        if type(seat) is not int or seat not in held:  # not 1.0 (== 1 in Python), not True
            raise ApiError(403, "bad_token", "this connection holds no such seat")
        move = msg.get("move")
        if not isinstance(move, int) or isinstance(move, bool):
            raise ApiError(400, "bad_message", "move must be an integer")
        if kind == "act":
            text = msg.get("action")
            if not isinstance(text, str):
                raise ApiError(400, "bad_message", "action must be a string")
            await svc.act(t, seat, move, text, None)
        else:
            await svc.undo(t, seat, move, conn.lang)
        return {"type": "ack", "id": msg_id, "version": t.version}
    except ApiError as e:
        return {"type": "error", "id": msg_id, "status": e.status, **e.to_json()}
    except (json.JSONDecodeError, UnicodeError, RecursionError):
        return {"type": "error", "id": msg_id, "status": 400, "error": "bad_message", "detail": "not JSON"}
    except Exception:  # a bug, not the client's fault: log it, answer, keep the connection
        log.exception("WebSocket message failed at table %s", t.id)
        return {"type": "error", "id": msg_id, "status": 500, "error": "internal", "detail": "internal error"}


def _state(text: str | None) -> Response:
    """A state message already serialised for the push (the same bytes a WebSocket gets)."""
    return Response(text, media_type="application/json")


async def _send_close(ws: WebSocket, msg: dict[str, Any], code: int) -> None:
    with contextlib.suppress(Exception):
        await asyncio.wait_for(ws.send_text(json.dumps(msg)), 5)
        await asyncio.wait_for(ws.close(code), 5)


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


def _jsonable(v: Any) -> Any:
    try:
        json.dumps(v)
        return v
    except (TypeError, ValueError):
        return str(v)
