"""The ASGI application: the lifespan (store, tables service, site), middleware, error answers, and
the routers of routes/ assembled in one place. docs/server.md, "Where things are", maps the rest.

Authentication: a seat's secret token goes in `Authorization: Bearer <token>` (HTTP) or in the
first WebSocket message; never in a URL the server sees (invite links carry it after `#`).
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

from fastapi import FastAPI, Request
from fastapi.encoders import jsonable_encoder
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from fastapi.staticfiles import StaticFiles
from slowapi import Limiter
from slowapi.errors import RateLimitExceeded
from slowapi.middleware import SlowAPIASGIMiddleware
from starlette.exceptions import HTTPException as StarletteHTTPException

from boardlab.core import BoardlabError

from . import botseed
from . import chat as chat_lines
from .bots import BotRunner
from .deps import WEB, api_errors
from .errors import ApiError
from .limits import Gates, Limits, Sampled, client_key
from .middleware import BodyLimit, RequestGuard, SecurityHeaders
from .routes import accounts, chat, lobby, pages, ratings, seeks, social, tables, ws
from .seeks import Seeks
from .service import TableService
from .site import Site
from .store import Store


def create_app(db_url: str, *, resume: bool = True, redis_url: str | None = None) -> FastAPI:
    """The application over the database at `db_url` (migrated at start-up); with `redis_url`, one of several
    processes serving that database (server/cluster.py)."""
    botseed.ladder_seeds()  # a broken bot ladder file stops the server here, saying where it is wrong

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        store = await asyncio.to_thread(Store, db_url)
        bots = BotRunner()
        svc = TableService(store, bots)
        app.state.svc = svc
        app.state.site = Site(svc)
        if redis_url is not None:
            from .cluster import Cluster  # only here: a single server never imports Redis
            from .sharedlimits import SharedHoldings

            svc.cluster = Cluster(store, redis_url)
            svc.holdings = SharedHoldings(redis_url)  # per-client caps counted over every process (Redis)
            svc.cluster.on_event = svc.on_event
            svc.cluster.on_lost = svc._lost
            svc.on_chat = lambda t, m: chat_lines.deliver(
                app.state.site, t, m["msg"], str(m.get("channel")), m.get("author")
            )
        await app.state.site.start()
        app.state.seeks = Seeks(app.state.site)  # Play now (issue #34)
        if svc.cluster is not None:
            await svc.cluster.start(hashlib.sha256(app.state.site.secret).hexdigest()[:16])  # a channel per site
            svc.bot_queue = svc.cluster.shared_bots(bots, svc.bot_pool.slots)  # every process's workers serve it
            site_key = svc.cluster.channel.split(":")[1]
            svc.holdings.for_site(site_key)
            app.state.limiter._key_prefix = f"boardlab:{site_key}:rate"  # slowapi has no setter; one budget per site
            resumer = asyncio.create_task(svc.adopt())
        else:
            resumer = asyncio.create_task(svc.resume()) if resume else None
        try:
            yield
        finally:
            if resumer is not None:
                resumer.cancel()
            app.state.seeks.close()
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
        responses=api_errors(400, 413, 429),
        description="Play boardlab's board games: tables, seats, moves, live updates by WebSocket "
        "(/ws/tables/{id}, see docs/server.md).",
    )
    limits = Limits.from_env()
    refusals = logging.getLogger("slowapi")  # a line per 429: sampled, so a refused client cannot flood the log
    if not any(isinstance(f, Sampled) for f in refusals.filters):
        refusals.addFilter(Sampled())
    # several processes share the request budgets through Redis (the limits library's storage), or a Redis away
    # falls back to counting in memory rather than refusing every request
    limiter = Limiter(key_func=client_key, default_limits=[limits.rate_default],
                      storage_uri=redis_url or "memory://", in_memory_fallback_enabled=redis_url is not None,
                      storage_options={"socket_timeout": 0.5, "socket_connect_timeout": 0.5} if redis_url else {})
    app.state.limiter = limiter
    app.add_middleware(RequestGuard, max_header_bytes=limits.max_header_bytes)
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

    gates = Gates.of(limiter, limits)  # every route that creates or seats shares one budget per client
    app.include_router(lobby.router(gates))  # games, creating, listing, joining tables; rematch
    app.include_router(tables.router(gates))  # state, actions, undo, log, replay, seats, expel

    @app.get("/healthz", tags=["meta"])
    async def healthz(request: Request) -> dict[str, Any]:
        cluster = request.app.state.svc.cluster
        if cluster is None:
            return {"status": "ok"}
        q = request.app.state.svc.bot_queue  # which process, how loaded; bot jobs it asked for and computed
        # and how its copies of other processes' tables followed them: rows applied, rows read, whole rebuilds
        return {"status": "ok", "process": cluster.me, "tables": len(cluster.owned),
                "bots": {"asked": q.asked, "served": q.served} if q is not None else None,
                "copies": dict(request.app.state.svc.copies), "site_reads": dict(request.app.state.site.reads)}

    app.include_router(ws.router())  # live updates: the WebSocket protocol
    app.include_router(accounts.router(gates))  # sign-up/in/out, "My games", claiming a seat
    app.include_router(ratings.router())  # profiles, bot ratings
    app.include_router(chat.router())  # both channels, reports, the admins' list of reports
    app.include_router(social.router())  # friends and blocks (issue #34)
    app.include_router(seeks.router(gates))  # Play now: seeks and the socket a waiting page holds
    app.include_router(pages.router(WEB))  # the HTML pages, their heads from templates/head.html
    app.mount("/static", StaticFiles(directory=WEB), name="static")
    return app
