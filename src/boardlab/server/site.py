"""The site around the games: accounts and seats, rated tables, clocks, chat, "my games", profiles.

It plugs into the tables service through `TableService.hooks` (state messages get a `site` part,
moves restart clocks, finished rated tables update ratings) and adds its own HTTP routes; the play
path itself (log, undo, views) stays in tables.py. See docs/server.md, "The site".
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import hashlib
import hmac
import json
import logging
import secrets
import time
from dataclasses import dataclass, field
from typing import Any

import sqlalchemy as sa
from fastapi import APIRouter, Request
from fastapi import Path as PathParam
from fastapi.responses import FileResponse, JSONResponse
from pydantic import BaseModel, ConfigDict, Field
from sqlalchemy.engine import Connection

from . import clocks, ratings
from .accounts import Accounts, User, check_csrf
from .bots import BotJob, known_bot_kinds, random_choice
from .db import seats_t, tables_t
from .sitedb import (
    chat_t,
    ratings_t,
    results_t,
    seat_users_t,
    site_secret_t,
    table_site_t,
    users_t,
)
from .tables import ApiError, Table, TableService, _game_modules, _seat_update, hash_token

log = logging.getLogger("boardlab.server")
LEVEL_OF = {"random": "easy", "greedy": "medium", "mcts": "hard"}
CHAT_MAX = 300
CHAT_BURST, CHAT_WINDOW = 5, 10.0
HANDOVER_WAIT = 8.0  # seconds a bot waits before its first move for a player who just left


@dataclass
class SiteInfo:
    rated: bool = False
    bot_level: str = "medium"
    pace: float | None = None  # None: the server default (BOARDLAB_BOT_DELAY)
    clock: dict[str, Any] | None = None
    clock_state: dict[str, Any] | None = None
    leavers: list[int] = field(default_factory=list)
    rated_done: bool = False
    stored: bool = False  # has a bl_table_site row
    users: dict[int, tuple[int, str]] = field(default_factory=dict)  # seat -> (user id, name)
    ratings: dict[int, int] = field(default_factory=dict)  # seat -> shown rating
    chat_n: int = 0
    chat_times: dict[int, list[float]] = field(default_factory=dict)
    handover: dict[int, float] = field(default_factory=dict)


def player_key(t: Table, info: SiteInfo, seat: int) -> str | None:
    """Who a seat's result belongs to: its account, else the bot level playing it, else nobody."""
    if seat in info.users:
        return f"u:{info.users[seat][0]}"
    s = t.seats[seat]
    if s.kind == "bot" and seat not in info.leavers:
        return f"bot:{LEVEL_OF.get(s.bot or '', s.bot)}"
    return None


class Site:
    def __init__(self, svc: TableService) -> None:
        self.svc = svc
        self.store = svc.store
        self.accounts = Accounts(svc.store)
        self.info: dict[str, SiteInfo] = {}
        self.timers: dict[str, asyncio.Task[None]] = {}
        self.tasks: set[asyncio.Task[Any]] = set()
        self.secret = b""
        svc.hooks = self

    async def start(self) -> None:
        self.secret = await self.store.read(_secret)
        if not self.secret:
            new = secrets.token_hex(32)
            await self.store.write(lambda c: c.execute(site_secret_t.insert().values(id=1, secret=new)))
            self.secret = await self.store.read(_secret)
        self._spawn(self._resume())

    async def _resume(self) -> None:
        """Clocks keep running across restarts: load every unfinished clocked table."""
        ids = await self.store.read(_clocked_tables)
        for tid in ids:
            try:
                t = await self.svc.get(tid)
                self.ensure(t)
            except Exception:
                log.exception("cannot resume the clock of table %s", tid)

    def close(self) -> None:
        for task in [*self.timers.values(), *self.tasks]:
            task.cancel()

    def _spawn(self, coro: Any) -> None:
        task = asyncio.get_running_loop().create_task(coro)
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    # -- per-table site information -------------------------------------------------------------------
    def ensure(self, t: Table) -> SiteInfo:
        info = self.info.get(t.id)
        if info is None:
            info = self.store.read_sync(lambda c: _load_info(c, t))
            self.info[t.id] = info
            if len(self.info) > 20000:
                for k in list(self.info)[:5000]:
                    if k not in self.svc._tables:
                        del self.info[k]
            self._arm(t, info)
        return info

    def seat_token(self, tid: str, seat: int, user_id: int) -> str:
        """A signed-in player's token for their seat, derived (nothing stored in clear), so "My games"
        can link every table on any device."""
        mac = hmac.new(self.secret, f"seat:{tid}:{seat}:{user_id}".encode(), hashlib.sha256).digest()
        return base64.urlsafe_b64encode(mac).rstrip(b"=").decode()

    # -- hooks called by TableService -------------------------------------------------------------------
    def extend(self, t: Table, viewer: int | None, msg: dict[str, Any]) -> None:
        info = self.ensure(t)
        if info.rated:
            msg["can_undo"] = False
        # a bot that was about to stand in for a player who took their seat back is not "thinking" for them
        out = (info.clock_state or {}).get("out", [])
        msg["thinking"] = [s for s in msg["thinking"] if t.seats[s].kind == "bot" or s in out]
        now_wall = time.time()
        now_mono = time.monotonic()
        msg["site"] = {
            "rated": info.rated,
            "bot_level": info.bot_level,
            "users": [info.users[i][1] if i in info.users else None for i in range(t.players)],
            "ratings": [info.ratings.get(i) for i in range(t.players)],
            "leavers": info.leavers,
            "clock": None
            if info.clock is None
            else {**info.clock, **(info.clock_state or {}), "deadline": clocks.deadline(info.clock_state or {})},
            "away_since": [
                None if (s.connected or s.kind != "human") else now_wall - (now_mono - s.last_seen) for s in t.seats
            ],
            "grace": self.svc.absent_grace,
            "chat_n": info.chat_n,
        }

    def created(self, t: Table) -> None:
        """A new table has no site row yet: no database read for it (the site's own creation route then
        replaces this with the table's settings before anything reads them). A rematch keeps the old
        table's settings: rated, clock (restarted), bot level and pace."""
        old = self.info.get(t.rematch_of) if t.rematch_of else None
        if old is None or not old.stored:
            self.info.setdefault(t.id, SiteInfo())
            return
        info = SiteInfo(rated=old.rated, bot_level=old.bot_level, pace=old.pace, clock=old.clock)
        if info.clock is not None:
            info.clock_state = clocks.new_state(info.clock, t.players)
            clocks.start_turn(info.clock, info.clock_state, t.state.current_player, time.time(), True)
        self.info[t.id] = info
        self._save(t, info)
        self._arm(t, info)

    def check_undo(self, t: Table) -> None:
        if self.ensure(t).rated:
            raise ApiError(409, "rated_no_undo", "rated tables allow no undo")

    def bot_delay(self, t: Table, seat: int) -> float:
        info = self.ensure(t)
        pace = self.svc.bot_delay if info.pace is None else info.pace
        since = info.handover.get(seat)
        if since is not None:
            pace = max(pace, HANDOVER_WAIT - (time.monotonic() - since))
            info.handover.pop(seat, None)
        return max(0.0, pace)

    def seat_to_bot(self, t: Table, by: int, seat: int) -> None:
        info = self.ensure(t)
        if by == seat:
            info.handover[seat] = time.monotonic()
        if info.rated and by == seat and seat not in info.leavers:
            info.leavers.append(seat)
            self._save(t, info)

    def after_move(self, t: Table, seat: int, by_bot: bool) -> None:
        info = self.ensure(t)
        if info.clock is not None and info.clock_state is not None:
            st = info.clock_state
            if not by_bot and seat in st["out"]:
                st["out"].remove(seat)
            clocks.start_turn(info.clock, st, None if t.over else t.state.current_player, time.time(), False)
            self._save(t, info)
            self._arm(t, info)
        if t.over:
            self._spawn(self._finish(t, info))

    # -- storage ------------------------------------------------------------------------------------------
    def _save(self, t: Table, info: SiteInfo) -> None:
        row = _site_row(t.id, info)
        stored = info.stored
        info.stored = True

        def write(conn: Connection) -> None:
            if stored:
                conn.execute(table_site_t.update().where(table_site_t.c.table_id == t.id).values(**row))
            else:
                conn.execute(table_site_t.insert().values(table_id=t.id, **row))

        self._spawn(self.store.write(write))

    # -- clocks -------------------------------------------------------------------------------------------
    def _arm(self, t: Table, info: SiteInfo) -> None:
        old = self.timers.pop(t.id, None)
        if old is not None and old is not asyncio.current_task():
            old.cancel()
        if info.clock is None or info.clock_state is None or t.over:
            return
        seat = info.clock_state.get("seat")
        end = clocks.deadline(info.clock_state)
        if seat is None or end is None:
            return
        self.timers[t.id] = asyncio.get_running_loop().create_task(self._expire(t, info, seat, t.version, end))

    async def _expire(self, t: Table, info: SiteInfo, seat: int, version: int, end: float) -> None:
        await asyncio.sleep(max(0.0, end - time.time()))
        t = await self.svc.get(t.id)  # the cached table (it may have been evicted and rebuilt meanwhile)
        if t.version != version or t.over or t.state.current_player != seat or t.seats[seat].kind != "human":
            return
        st = info.clock_state or {}
        if seat not in st.get("out", []):
            st.setdefault("out", []).append(seat)
        self.svc.broadcast(t)
        text = await self._zombie_move(t, info, seat, version)
        if text is None or t.version != version:
            return
        try:
            await self.svc._act(t, seat, version, text, None, by_bot=True)
        except ApiError as e:
            log.warning("zombie move refused at table %s: %s", t.id, e.detail)

    async def _zombie_move(self, t: Table, info: SiteInfo, seat: int, version: int) -> str | None:
        """The move a bot of the table's level makes for a seat out of time."""
        # independent of the table seed (as in TableService._bot_move): the bot's moves are logged, and a
        # seed derived from the table's would let its random moves leak bits of the deal
        bot_seed = secrets.randbits(62)
        level = info.bot_level if info.bot_level in known_bot_kinds() else "random"
        if level in ("random", "easy"):
            return str(random_choice(t.state.legal_actions(), bot_seed))
        job = BotJob(
            t.game.name, _game_modules(), t.players, t.seed, t.options,
            tuple(e.notation for e in t.entries.upto()), seat, level, bot_seed, self.svc.bots.seconds,
        )
        t.thinking.add(seat)
        try:
            return await self.svc.bots.choose(job)
        except Exception:
            return str(random_choice(t.state.legal_actions(), bot_seed)) if t.version == version else None
        finally:
            t.thinking.discard(seat)

    async def expel(self, t: Table, by: int, seat: int) -> None:
        """Another player expels a seat that ran out of time: a bot plays it to the end; a leaver."""
        info = self.ensure(t)
        async with t.lock:
            if t.over:
                raise ApiError(409, "game_over", "the game is over")
            if not 0 <= seat < t.players or seat == by:
                raise ApiError(404, "no_seat", "no such other seat")
            st = info.clock_state or {}
            s = t.seats[seat]
            if seat not in st.get("out", []) or s.kind != "human":
                raise ApiError(409, "not_out_of_time", "only a player out of time can be expelled")
            level = info.bot_level
            await self.store.write(
                _seat_update(t.id, seat, kind="bot", bot=level, name=s.name, token_hash=s.token_hash)
            )
            s.kind, s.bot = "bot", level
            if seat not in info.leavers:
                info.leavers.append(seat)
            self._save(t, info)
            self.svc._kick(t)
            self.svc.broadcast(t)

    # -- results and ratings --------------------------------------------------------------------------------
    async def _finish(self, t: Table, info: SiteInfo) -> None:
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
        rated_seats = [s for s in range(t.players) if keys[s] is not None]
        rated = info.rated and len([k for k in keys if k and k.startswith("u:")]) >= 1 and len(rated_seats) >= 2
        game = t.game.name
        row = _site_row(t.id, info)
        stored = info.stored
        info.stored = True

        def write(conn: Connection) -> dict[int, int]:
            now = time.time()
            old: dict[str, tuple[float, float, int, int]] = {}
            for s in rated_seats:
                k = keys[s]
                r = conn.execute(
                    sa.select(ratings_t).where(ratings_t.c.player == k, ratings_t.c.game == game)
                ).first()
                old[k] = (r.mu, r.sigma, r.games, r.wins) if r else (ratings.MU, ratings.SIGMA, 0, 0)
            shown_after: dict[int, int] = {}
            new: list[tuple[float, float]] = []
            if rated:
                sub = [s for s in rated_seats]
                new = ratings.rate([old[keys[s]][:2] for s in sub], [ranking[s] for s in sub])
            for i, s in enumerate(rated_seats):
                k = keys[s]
                mu, sigma, games_n, wins = old[k]
                before = ratings.shown(mu, sigma)
                after = before
                if rated:
                    nmu, nsig = new[i]
                    after = ratings.shown(nmu, nsig)
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
                        score=totals[s] if s < len(totals) else None, rated=rated,
                        before=before if rated else None, after=after if rated else None, created_at=now,
                    )
                )
            row["rated_done"] = True
            if stored:
                conn.execute(table_site_t.update().where(table_site_t.c.table_id == t.id).values(**row))
            else:
                conn.execute(table_site_t.insert().values(table_id=t.id, **row))
            return shown_after

        try:
            shown_after = await self.store.write(write)
        except Exception:
            log.exception("cannot store the results of table %s", t.id)
            info.rated_done = False
            return
        if rated:
            info.ratings.update(shown_after)
            self.svc.broadcast(t)


# -- database helpers ------------------------------------------------------------------------------------------
def _secret(conn: Connection) -> bytes:
    r = conn.execute(sa.select(site_secret_t.c.secret).where(site_secret_t.c.id == 1)).first()
    return r.secret.encode() if r else b""


def _clocked_tables(conn: Connection) -> list[str]:
    q = (
        sa.select(tables_t.c.id)
        .join(table_site_t, table_site_t.c.table_id == tables_t.c.id)
        .where(tables_t.c.status == "playing", table_site_t.c.clock.is_not(None))
    )
    return [r.id for r in conn.execute(q)]


def _site_row(tid: str, info: SiteInfo) -> dict[str, Any]:
    return {
        "rated": info.rated,
        "bot_level": info.bot_level,
        "bot_pace": -1.0 if info.pace is None else info.pace,
        "clock": None if info.clock is None else json.dumps(info.clock),
        "clock_state": None if info.clock_state is None else json.dumps(info.clock_state),
        "leavers": json.dumps(info.leavers),
        "rated_done": info.rated_done,
    }


def _load_info(conn: Connection, t: Table) -> SiteInfo:
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
        info.rated_done = bool(r.rated_done)
    for row in conn.execute(
        sa.select(seat_users_t.c.seat, users_t.c.id, users_t.c.name)
        .join(users_t, users_t.c.id == seat_users_t.c.user_id)
        .where(seat_users_t.c.table_id == t.id)
    ):
        info.users[row.seat] = (row.id, row.name)
    _load_ratings(conn, t, info)
    n = conn.execute(sa.select(sa.func.max(chat_t.c.n)).where(chat_t.c.table_id == t.id)).scalar()
    info.chat_n = 0 if n is None else int(n) + 1
    return info


def _load_ratings(conn: Connection, t: Table, info: SiteInfo) -> None:
    keys = {s: player_key(t, info, s) for s in range(t.players)}
    wanted = [k for k in keys.values() if k]
    if not wanted:
        return
    rows = {
        r.player: ratings.shown(r.mu, r.sigma)
        for r in conn.execute(
            sa.select(ratings_t).where(ratings_t.c.game == t.game.name, ratings_t.c.player.in_(wanted))
        )
    }
    for s, k in keys.items():
        if k:
            info.ratings[s] = rows.get(k, ratings.shown(ratings.MU, ratings.SIGMA))


# -- HTTP ------------------------------------------------------------------------------------------------------
class Credentials(BaseModel):
    model_config = ConfigDict(extra="forbid")
    name: str = Field(max_length=60)
    password: str = Field(max_length=200)


class SiteSeat(BaseModel):
    model_config = ConfigDict(extra="forbid")
    kind: str = Field("human", pattern="^(human|open|bot)$")
    bot: str | None = Field(None, max_length=16)
    name: str | None = Field(None, max_length=40)


class SiteTable(BaseModel):
    model_config = ConfigDict(extra="forbid")
    game: str = Field(max_length=64)
    players: int = Field(ge=1, le=16)
    options: dict[str, Any] = Field(default_factory=dict)
    seats: list[SiteSeat] = Field(max_length=16)
    public: bool = False
    rated: bool = False
    clock: Any = Field(None, description="a speed (fast, normal, slow, 12h, 1d, 3d) or {mode, per_move, bank, cap}")
    bot_level: str = Field("medium", max_length=16)
    pace: float | None = Field(None, ge=0, le=10, description="seconds a bot waits before it moves")


class ChatIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    text: str = Field(max_length=2000)


class SiteError(BaseModel):
    error: str = Field(description="a stable code the UI translates, e.g. bad_name, rated_no_undo")
    detail: Any = Field(description="a sentence in English (a list of problems for invalid_request)")


def _errs(*codes: int) -> dict[int | str, dict[str, Any]]:
    return {c: {"model": SiteError} for c in (*codes, 413, 422)}


TID = PathParam(min_length=1, max_length=64, pattern=r"^[A-Za-z0-9_-]+$")
SEAT = PathParam(ge=0, le=15)
NAME = PathParam(min_length=1, max_length=60)


def _site(request: Request) -> Site:
    site: Site = request.app.state.site
    return site


def _bearer(request: Request) -> str | None:
    h = request.headers.get("authorization", "")
    return h[7:].strip() if h.lower().startswith("bearer ") else None


def _link(tid: str, tokens: list[str] | None = None) -> str:
    return f"/t/{tid}" + (f"#s={','.join(tokens)}" if tokens else "")


def router(web: Any) -> APIRouter:
    r = APIRouter()

    # -- pages ----------------------------------------------------------------------------------
    for path, page in (("/signin", "signin.html"), ("/me", "me.html"), ("/u/{name}", "profile.html"),
                       ("/how/{game}", "how.html")):
        def make(page: str = page) -> Any:
            async def serve_page() -> FileResponse:
                return FileResponse(web / page)
            return serve_page
        r.add_api_route(path, make(), include_in_schema=False, methods=["GET"])

    # -- accounts -------------------------------------------------------------------------------
    @r.get("/api/me", tags=["accounts"], responses=_errs())
    async def me(request: Request) -> JSONResponse:
        """The signed-in user (name, CSRF token for changes), or null."""
        u = await _site(request).accounts.user(request)
        return JSONResponse({"user": None if u is None else {"name": u.name, "csrf": u.csrf}})

    @r.post("/api/account/signup", tags=["accounts"], responses=_errs(409), status_code=201)
    async def sign_up(body: Credentials, request: Request) -> JSONResponse:
        """Create an account (unique name, 3-20 letters/digits/_/-; password 8-128) and sign in."""
        site = _site(request)
        u, token = await site.accounts.sign_up(body.name, body.password)
        resp = JSONResponse({"user": {"name": u.name, "csrf": u.csrf}}, status_code=201)
        site.accounts.set_cookie(request, resp, token)
        return resp

    @r.post("/api/account/signin", tags=["accounts"], responses=_errs(401, 429))
    async def sign_in(body: Credentials, request: Request) -> JSONResponse:
        """Sign in; failed attempts for a name or an address are answered more and more slowly."""
        site = _site(request)
        addr = request.client.host if request.client else "?"
        u, token = await site.accounts.sign_in(body.name, body.password, addr)
        resp = JSONResponse({"user": {"name": u.name, "csrf": u.csrf}})
        site.accounts.set_cookie(request, resp, token)
        return resp

    @r.post("/api/account/signout", tags=["accounts"], responses=_errs(401, 403))
    async def sign_out(request: Request) -> JSONResponse:
        site = _site(request)
        await site.accounts.require(request)
        await site.accounts.sign_out(request)
        resp = JSONResponse({"user": None})
        resp.delete_cookie("bl_session", path="/")
        return resp

    @r.get("/api/users/{name}", tags=["accounts"], responses=_errs(404))
    async def profile(request: Request, name: str = NAME) -> JSONResponse:
        """A player's profile: ratings and results per game, recent tables."""
        site = _site(request)
        row = await site.accounts.find(name)
        if row is None:
            raise ApiError(404, "no_user", "no such player")
        return JSONResponse(await site.store.read(lambda c: _profile(c, f"u:{row.id}", row.name)))

    @r.get("/api/bots/ratings", tags=["accounts"], responses=_errs())
    async def bot_ratings(request: Request) -> JSONResponse:
        """The bots' ratings per game and level (how strong "hard" really is)."""
        return JSONResponse(await _site(request).store.read(_bot_ratings))

    @r.get("/api/me/tables", tags=["accounts"], responses=_errs(401))
    async def my_tables(request: Request) -> JSONResponse:
        """Every table of the signed-in player, those where it is their turn first, with their links."""
        site = _site(request)
        u = await site.accounts.require(request, csrf=False)
        rows = await site.store.read(lambda c: _my_rows(c, u.id))
        out = []
        for tid, seat, status, game, updated in rows:
            item: dict[str, Any] = {
                "table": tid, "seat": seat, "game": game, "over": status != "playing", "updated": updated,
                "my_turn": False, "link": _link(tid, [site.seat_token(tid, seat, u.id)]),
            }
            if status == "playing":
                with contextlib.suppress(Exception):
                    t = await site.svc.get(tid)
                    item["my_turn"] = t.state.current_player == seat and not t.over
                    item["over"] = t.over
            out.append(item)
        out.sort(key=lambda x: (not x["my_turn"], x["over"], -x["updated"]))
        return JSONResponse({"tables": out})

    # -- tables ---------------------------------------------------------------------------------
    @r.post("/api/site/tables", status_code=201, tags=["lobby"], responses=_errs(400, 401, 403, 404))
    async def create(body: SiteTable, request: Request) -> JSONResponse:
        """Create a table with the site's settings (rated, clock, bot level, bot pace). Signed in, the
        first person seat is yours, kept in "My games"."""
        site = _site(request)
        svc = site.svc
        u: User | None = await site.accounts.user(request)
        if u is not None:
            check_csrf(request, u.csrf)
        if body.rated and u is None:
            raise ApiError(401, "not_signed_in", "rated tables need an account")
        if body.bot_level not in known_bot_kinds():
            raise ApiError(400, "bad_bot", f"unknown bot level {body.bot_level!r}")
        try:
            clock = clocks.settings(body.clock)
        except ValueError as e:
            raise ApiError(400, "bad_clock", str(e)) from None
        seats = [s.model_dump() for s in body.seats]
        for s in seats:
            if s["kind"] == "bot" and not s.get("bot"):
                s["bot"] = body.bot_level
        t, tokens = await svc.create(body.game, body.players, body.options, seats, body.public)
        info = SiteInfo(rated=body.rated, bot_level=body.bot_level, pace=body.pace, clock=clock, stored=False)
        if clock is not None:
            info.clock_state = clocks.new_state(clock, t.players)
            clocks.start_turn(clock, info.clock_state, t.state.current_player, time.time(), True)
        site.info[t.id] = info
        mine = next((s.seat for s in t.seats if s.kind == "human"), None)
        if u is not None and mine is not None:
            tok = site.seat_token(t.id, mine, u.id)
            tokens[mine] = tok
            await _link_seat(site, t, mine, u, tok)
        site._save(t, info)
        site._arm(t, info)
        out_seats = [
            {"seat": s.seat, "kind": s.kind, "token": tokens.get(s.seat),
             "link": _link(t.id, [tokens[s.seat]]) if s.seat in tokens else None}
            for s in t.seats
        ]
        hot = _link(t.id, [tokens[i] for i in sorted(tokens)]) if len(tokens) > 1 else None
        return JSONResponse(
            {"id": t.id, "seats": out_seats, "spectator_link": _link(t.id), "hotseat_link": hot, "mine": mine},
            status_code=201,
        )

    @r.post("/api/tables/{table_id}/claim", tags=["seats"], responses=_errs(401, 403, 404, 409))
    async def claim(request: Request, table_id: str = TID) -> JSONResponse:
        """Keep a guest seat in your account: needs the seat's token and a signed-in session. The seat's
        token changes to your account's (the old link stops working; "My games" has the new one)."""
        site = _site(request)
        u = await site.accounts.require(request)
        t = await site.svc.get(table_id)
        seat = TableService.require_seat(t, _bearer(request))
        info = site.ensure(t)
        if seat in info.users and info.users[seat][0] != u.id:
            raise ApiError(409, "seat_owned", "this seat belongs to another account")
        if any(uid == u.id for s, (uid, _n) in info.users.items() if s != seat):
            raise ApiError(409, "already_seated", "your account already holds another seat here")
        tok = site.seat_token(t.id, seat, u.id)
        await _link_seat(site, t, seat, u, tok)
        site.svc.broadcast(t)
        return JSONResponse({"table": t.id, "seat": seat, "token": tok, "link": _link(t.id, [tok])})

    @r.post("/api/tables/{table_id}/seats/{seat}/expel", tags=["seats"], responses=_errs(401, 403, 404, 409))
    async def expel(request: Request, table_id: str = TID, seat: int = SEAT) -> JSONResponse:
        """Expel a player who ran out of time: a bot of the table's level plays their seat to the end."""
        site = _site(request)
        t = await site.svc.get(table_id)
        by = TableService.require_seat(t, _bearer(request))
        await site.expel(t, by, seat)
        return JSONResponse({"table": t.id, "seat": seat, "kind": "bot"})

    @r.post("/api/tables/{table_id}/chat", tags=["chat"], responses=_errs(401, 403, 404, 429))
    async def chat_post(body: ChatIn, request: Request, table_id: str = TID) -> JSONResponse:
        """Say something at the table (seats only; 300 characters, 5 messages per 10 s). Bots never read it."""
        site = _site(request)
        t = await site.svc.get(table_id)
        seat = TableService.require_seat(t, _bearer(request))
        return JSONResponse(await _chat(site, t, seat, body.text))

    @r.get("/api/tables/{table_id}/chat", tags=["chat"], responses=_errs(404))
    async def chat_get(request: Request, table_id: str = TID) -> JSONResponse:
        """The table's chat, kept with the table (also shown in replays)."""
        site = _site(request)
        t = await site.svc.get(table_id)
        rows = await site.store.read(
            lambda c: c.execute(sa.select(chat_t).where(chat_t.c.table_id == t.id).order_by(chat_t.c.n)).all()
        )
        return JSONResponse({"table": t.id, "chat": [_chat_json(x) for x in rows]})

    return r


def _chat_json(x: Any) -> dict[str, Any]:
    return {"type": "chat", "n": x.n, "seat": x.seat, "name": x.name, "text": x.text, "at": x.created_at}


async def _chat(site: Site, t: Table, seat: int, text: str) -> dict[str, Any]:
    text = "".join(ch for ch in (text or "") if ch == " " or ch.isprintable()).strip()
    if not text:
        raise ApiError(422, "empty_chat", "say something")
    if len(text) > CHAT_MAX:
        raise ApiError(422, "chat_too_long", f"a message is at most {CHAT_MAX} characters")
    info = site.ensure(t)
    now = time.monotonic()
    times = [x for x in info.chat_times.get(seat, []) if now - x < CHAT_WINDOW]
    if len(times) >= CHAT_BURST:
        raise ApiError(429, "chat_too_fast", f"at most {CHAT_BURST} messages in {CHAT_WINDOW:g} s")
    times.append(now)
    info.chat_times[seat] = times
    n = info.chat_n
    info.chat_n += 1
    name = info.users[seat][1] if seat in info.users else t.seats[seat].name
    row = {"table_id": t.id, "n": n, "seat": seat, "name": name, "text": text, "created_at": time.time()}
    await site.store.write(lambda c: c.execute(chat_t.insert().values(**row)))
    msg = {"type": "chat", "n": n, "seat": seat, "name": name, "text": text, "at": row["created_at"]}
    out = json.dumps(msg, ensure_ascii=False)
    for c in list(t.conns):
        c.push(out)
    return msg


async def _link_seat(site: Site, t: Table, seat: int, u: User, token: str) -> None:
    h = hash_token(token)
    s = t.seats[seat]

    def write(conn: Connection) -> None:
        conn.execute(seat_users_t.delete().where(seat_users_t.c.table_id == t.id, seat_users_t.c.seat == seat))
        conn.execute(seat_users_t.insert().values(table_id=t.id, seat=seat, user_id=u.id))
        conn.execute(
            seats_t.update().where(seats_t.c.table_id == t.id, seats_t.c.seat == seat).values(
                token_hash=h, name=u.name
            )
        )

    await site.store.write(write)
    s.token_hash = h
    s.name = u.name
    info = site.ensure(t)
    info.users[seat] = (u.id, u.name)
    await site.store.read(lambda c: _load_ratings(c, t, info))


def _my_rows(conn: Connection, user_id: int) -> list[tuple[str, int, str, str, float]]:
    q = (
        sa.select(tables_t.c.id, seat_users_t.c.seat, tables_t.c.status, tables_t.c.game, tables_t.c.updated_at)
        .join(seat_users_t, seat_users_t.c.table_id == tables_t.c.id)
        .where(seat_users_t.c.user_id == user_id)
        .order_by(tables_t.c.updated_at.desc())
        .limit(60)
    )
    return [(r.id, r.seat, r.status, r.game, r.updated_at) for r in conn.execute(q)]


def _profile(conn: Connection, key: str, name: str) -> dict[str, Any]:
    # results before ratings: a game's result and its rating are committed together, and each statement may
    # see a newer commit than the one before it (no snapshot across statements), so reading the ratings last
    # never shows a rated result without its rating
    played = conn.execute(
        sa.select(results_t.c.game, sa.func.count(), sa.func.sum(sa.case((results_t.c.rank == 1, 1), else_=0)))
        .where(results_t.c.player == key)
        .group_by(results_t.c.game)
    ).all()
    games: dict[str, dict[str, Any]] = {}
    for r in conn.execute(sa.select(ratings_t).where(ratings_t.c.player == key)):
        games[r.game] = {"game": r.game, "rating": ratings.shown(r.mu, r.sigma), "rated_games": r.games,
                         "played": 0, "won": 0}
    for r in played:
        g = games.setdefault(r[0], {"game": r[0], "rating": None, "rated_games": 0, "played": 0, "won": 0})
        g["played"], g["won"] = int(r[1]), int(r[2] or 0)
    recent = [
        {"table": r.table_id, "game": r.game, "rank": r.rank, "score": r.score, "rated": bool(r.rated),
         "before": r.before, "after": r.after, "at": r.created_at}
        for r in conn.execute(
            sa.select(results_t).where(results_t.c.player == key).order_by(results_t.c.created_at.desc()).limit(20)
        )
    ]
    return {"name": name, "games": sorted(games.values(), key=lambda g: g["game"]), "recent": recent}


def _bot_ratings(conn: Connection) -> dict[str, Any]:
    out: dict[str, dict[str, int]] = {}
    for r in conn.execute(sa.select(ratings_t).where(ratings_t.c.player.like("bot:%"))):
        out.setdefault(r.game, {})[r.player[4:]] = ratings.shown(r.mu, r.sigma)
    return {"ratings": out}
