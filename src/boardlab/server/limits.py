"""Limits that keep one client from stalling or flooding everyone else (docs/server.md, "Limits").

Every number is a setting (an environment variable read at start-up), so an operator can loosen
them behind a trusted proxy or tighten them on a small machine. The request rate limits are
slowapi's (the `limits` library's moving windows, in memory); the per-client caps on live tables
are counted here because they are about what a client *holds*, not how fast it asks.
"""

from __future__ import annotations

import logging
import os
import time
import unicodedata
from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from slowapi import Limiter
from starlette.requests import Request

from .errors import ApiError


def _env_int(name: str, default: int) -> int:
    return int(os.environ.get(name, str(default)))


def _env_float(name: str, default: float) -> float:
    return float(os.environ.get(name, str(default)))


@dataclass(frozen=True)
class Limits:
    """The limits in force; `Limits.from_env()` reads the BOARDLAB_* settings."""

    rate_default: str = "300/second"  # every HTTP request, per client
    rate_create: str = "30/second;900/minute"  # POST /api/tables (and rematch), per client
    rate_seats: str = "20/second;600/minute"  # join, seat to bot/human, per client
    max_tables: int = 500  # unfinished tables created by one client
    max_lobby: int = 20  # unfinished public tables with a free seat, per client
    max_bot_tables: int = 10  # unfinished tables with a thinking bot (not "random"), per client
    ws_queue: int = 256  # messages queued for one WebSocket before it is dropped
    ws_send_timeout: float = 10.0  # seconds one message may take to leave before the socket is dropped
    ws_ping: float = 20.0  # WebSocket ping interval; a peer that does not answer in as long is dropped
    header_timeout: float = 10.0  # seconds to send a request's headers (slowloris)
    body_timeout: float = 10.0  # seconds between two chunks of a request body
    max_header_bytes: int = 16 * 1024  # request line + headers
    max_connections: int = 4096  # open HTTP + WebSocket connections; 503 past it
    max_ws_per_client: int = 64  # open WebSockets of one client (address)
    max_websockets: int = 3072  # open WebSockets in all (default 3/4 of max_connections): the rest is kept for
    # page loads and API requests
    max_spectators: int = 500  # watching (token-less) WebSockets at one table

    @classmethod
    def from_env(cls) -> Limits:
        d = cls()
        connections = _env_int("BOARDLAB_MAX_CONNECTIONS", d.max_connections)
        return cls(
            rate_default=os.environ.get("BOARDLAB_RATE_LIMIT", d.rate_default),
            rate_create=os.environ.get("BOARDLAB_RATE_CREATE", d.rate_create),
            rate_seats=os.environ.get("BOARDLAB_RATE_SEATS", d.rate_seats),
            max_tables=_env_int("BOARDLAB_MAX_TABLES_PER_CLIENT", d.max_tables),
            max_lobby=_env_int("BOARDLAB_MAX_LOBBY_PER_CLIENT", d.max_lobby),
            max_bot_tables=_env_int("BOARDLAB_MAX_BOT_TABLES_PER_CLIENT", d.max_bot_tables),
            ws_queue=_env_int("BOARDLAB_WS_QUEUE", d.ws_queue),
            ws_send_timeout=_env_float("BOARDLAB_WS_SEND_TIMEOUT", d.ws_send_timeout),
            ws_ping=_env_float("BOARDLAB_WS_PING", d.ws_ping),
            header_timeout=_env_float("BOARDLAB_HEADER_TIMEOUT", d.header_timeout),
            body_timeout=_env_float("BOARDLAB_BODY_TIMEOUT", d.body_timeout),
            max_header_bytes=_env_int("BOARDLAB_MAX_HEADER_BYTES", d.max_header_bytes),
            max_connections=connections,
            max_ws_per_client=_env_int("BOARDLAB_MAX_WS_PER_CLIENT", d.max_ws_per_client),
            max_websockets=_env_int("BOARDLAB_MAX_WEBSOCKETS", connections * 3 // 4),
            max_spectators=_env_int("BOARDLAB_MAX_SPECTATORS_PER_TABLE", d.max_spectators),
        )


class Sampled(logging.Filter):
    """Let one record through per `period` seconds and say how many were held back since: a refused client
    (each 429 wrote a WARNING line) must not be able to flood the server's log."""

    def __init__(self, period: float = 60.0) -> None:
        super().__init__()
        self.period = period
        self._next = 0.0
        self._held = 0

    def filter(self, record: logging.LogRecord) -> bool:
        now = time.monotonic()
        if now < self._next:
            self._held += 1
            return False
        if self._held:
            record.msg = f"{record.msg} (and {self._held} more like it in the last {self.period:.0f} s)"
        self._next, self._held = now + self.period, 0
        return True


def client_key(request: Request) -> str:
    """Who is asking: the peer address (uvicorn replaces it by X-Forwarded-For only when the peer is a
    trusted proxy, `--forwarded-allow-ips`, 127.0.0.1 by default)."""
    return request.client.host if request.client and request.client.host else "unknown"


def bad_text(s: str) -> bool:
    """True when `s` holds a control character (NUL, escape codes, C1 controls) or a lone surrogate.

    Why everywhere: PostgreSQL refuses NUL in text (500s), terminals and logs interpret escapes, and
    a lone surrogate cannot be encoded to UTF-8 for the database at all."""
    return any(unicodedata.category(c) in ("Cc", "Cs") for c in s)


def clean_name(name: str | None) -> str:
    """A seat name as shown to others: NFKC-normalised, without format characters (the bidi controls such as
    U+202E that turn a name around on screen, and zero-width ones such as U+200B that make two names look
    alike), trimmed to 40 characters. Control characters are refused separately (`bad_text`)."""
    text = unicodedata.normalize("NFKC", name or "")
    return "".join(c for c in text if unicodedata.category(c) != "Cf").strip()[:40]


def clean_text(s: str) -> str:
    """A pydantic validator: refuse control characters in a text field (422 invalid_request)."""
    if bad_text(s):
        raise ValueError("control characters are not allowed")
    return s


@dataclass
class Holdings:
    """What each client holds now: its unfinished tables, by kind (in memory: after a restart the
    tables are still served, but count for nobody)."""

    tables: defaultdict[str, set[str]] = field(default_factory=lambda: defaultdict(set))
    lobby: defaultdict[str, set[str]] = field(default_factory=lambda: defaultdict(set))
    bots: defaultdict[str, set[str]] = field(default_factory=lambda: defaultdict(set))
    owner: dict[str, str] = field(default_factory=dict)

    def add(self, client: str, table: str, lobby: bool, bots: bool) -> None:
        self.owner[table] = client
        self.tables[client].add(table)
        if lobby:
            self.lobby[client].add(table)
        if bots:
            self.bots[client].add(table)

    def unlist(self, table: str) -> None:
        """The table left the lobby (its last free seat was taken)."""
        client = self.owner.get(table)
        if client is not None:
            self.lobby[client].discard(table)

    def mark_bots(self, table: str) -> None:
        client = self.owner.get(table)
        if client is not None:
            self.bots[client].add(table)

    def finish(self, table: str) -> None:
        client = self.owner.pop(table, None)
        if client is None:
            return
        for d in (self.tables, self.lobby, self.bots):
            d[client].discard(table)
            if not d[client]:
                del d[client]

    def reserve_bots(self, table: str, lim: Limits) -> bool:
        """A seat of `table` is handed to a thinking bot: the table now counts against its creator's bot
        tables (429 past the cap, as if the creator had asked for the bot when creating it). True when it
        was not counted before (the caller gives it back with `release_bots` if the change fails)."""
        client = self.owner.get(table)
        if client is None or table in self.bots.get(client, ()):
            return False
        self.check_caps(client, False, True, lim, tables=False)
        self.bots[client].add(table)
        return True

    def release_bots(self, table: str) -> None:
        client = self.owner.get(table)
        if client is not None:
            self.bots[client].discard(table)

    def check_caps(self, client: str, lobby: bool, thinking_bots: bool, lim: Limits, tables: bool = True) -> None:
        """429 when this client already holds as many unfinished tables of a kind as it may."""
        self._refuse(
            lim,
            (tables and len(self.tables.get(client, ())) >= lim.max_tables, "unfinished tables", lim.max_tables),
            (lobby and len(self.lobby.get(client, ())) >= lim.max_lobby, "tables in the lobby", lim.max_lobby),
            (
                thinking_bots and len(self.bots.get(client, ())) >= lim.max_bot_tables,
                "unfinished tables with thinking bots",
                lim.max_bot_tables,
            ),
        )

    @staticmethod
    def _refuse(lim: Limits, *checks: tuple[bool, str, int]) -> None:
        """429 for the first cap reached (shared with the cluster's counts in Redis, sharedlimits.py)."""
        for over, what, n in checks:
            if over:
                raise ApiError(429, "too_many_tables", f"one client may hold at most {n} {what}; finish some first")


@dataclass
class Sockets:
    """Open WebSockets per client and in all. Why: uvicorn's only cap is on connections of every kind, so one
    address holding 4,300 idle spectator sockets made every newcomer's request a 503. A client may hold
    `max_ws_per_client`, and all WebSockets together `max_websockets`, which leaves the rest of
    `max_connections` to page loads and API requests."""

    by_client: defaultdict[str, int] = field(default_factory=lambda: defaultdict(int))
    total: int = 0

    def admit(self, client: str, lim: Limits) -> str | None:
        """Count a new WebSocket of `client`, or say why it is refused (then nothing is counted)."""
        if self.by_client[client] >= lim.max_ws_per_client:
            return f"one client may hold at most {lim.max_ws_per_client} live connections; close some first"
        if self.total >= lim.max_websockets:
            return "the server holds as many live connections as it can; try again later"
        self.by_client[client] += 1
        self.total += 1
        return None

    def release(self, client: str) -> None:
        self.total -= 1
        self.by_client[client] -= 1
        if self.by_client[client] <= 0:
            del self.by_client[client]


@dataclass(frozen=True)
class Gates:
    """The request-rate limits every route of a kind shares, per client: one budget for all the routes that
    create a table (`POST /api/tables`, the lobby's `POST /api/site/tables`, rematch) and one for all that
    change a seat (join, to a bot, back to its player, expel, claim). A limit per route would let a client
    spend each budget once per route (the lobby's route had none at all: 415 tables/s from one address)."""

    create: Callable[[Any], Any]
    seats: Callable[[Any], Any]

    @classmethod
    def of(cls, limiter: Limiter, lim: Limits) -> Gates:
        return cls(
            create=limiter.shared_limit(lim.rate_create, scope="create"),
            seats=limiter.shared_limit(lim.rate_seats, scope="seats"),
        )
