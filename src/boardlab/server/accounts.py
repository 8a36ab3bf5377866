"""Accounts: names, argon2 password hashes, sessions in cookies, CSRF, slowed-down failed sign-ins.

Why these choices:
* argon2id (argon2-cffi's defaults, RFC 9106's second recommendation): memory-hard, maintained.
* The session is a random 192-bit token in an http-only, SameSite=Lax cookie, `Secure` whenever the
  site is served over https (or BOARDLAB_SECURE_COOKIES=1 behind a TLS proxy); only its SHA-256 is
  stored.
* CSRF: every state-changing request authenticated by the cookie must carry `X-CSRF-Token`, a per-
  session secret the page reads from `GET /api/me` (a cross-site form can neither read it nor set a
  custom header), and its Origin, when sent, must be this host.
* Failed sign-ins: after 3 failures for a name within 15 minutes, each answer waits 2^(failures-3) s
  (capped at 8 s); past 20, 429 without checking the password. An address is slowed the same way
  after 10 failures against existing accounts (password spraying), and refused past 50.
"""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import os
import secrets
import time
import unicodedata
from dataclasses import dataclass
from typing import Any

import sqlalchemy as sa
from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError, VerifyMismatchError
from fastapi import Request, Response
from sqlalchemy.engine import Connection

from .errors import ApiError
from .sitedb import sessions_t, users_t

COOKIE = "bl_session"
SESSION_DAYS = 30
NAME_MIN, NAME_MAX = 3, 20
PW_MIN, PW_MAX = 8, 128
RESERVED = {"admin", "bot", "guest", "system", "boardlab", "easy", "medium", "hard", "random", "greedy", "mcts"}
_hasher = PasswordHasher()
_DUMMY = _hasher.hash("not a password, only for constant work")


@dataclass(frozen=True)
class User:
    id: int
    name: str
    csrf: str


def name_key(name: str) -> str:
    """What makes two names the same: NFKC (full-width and compatibility forms) and case folding."""
    return unicodedata.normalize("NFKC", name).casefold()


def check_name(name: str) -> str:
    """A valid display name, or ApiError: 3-20 letters, digits, `_` or `-`, any script, no spaces."""
    name = unicodedata.normalize("NFKC", name or "").strip()
    if not NAME_MIN <= len(name) <= NAME_MAX:
        raise ApiError(422, "bad_name", f"a name has {NAME_MIN} to {NAME_MAX} characters")
    for ch in name:
        if not (ch.isalnum() or ch in "_-"):
            raise ApiError(422, "bad_name", "a name has letters, digits, _ and - only")
    if name_key(name) in RESERVED:
        raise ApiError(422, "bad_name", "that name is reserved")
    return name


def check_password(pw: str, name: str) -> None:
    if not PW_MIN <= len(pw or "") <= PW_MAX:
        raise ApiError(422, "bad_password", f"a password has {PW_MIN} to {PW_MAX} characters")
    if name_key(pw) == name_key(name):
        raise ApiError(422, "bad_password", "the password must not be the name")


def _hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


class Throttle:
    """Failed sign-ins per name and per address, in memory (one server process per database)."""

    WINDOW = 15 * 60

    def __init__(self) -> None:
        self._fails: dict[str, list[float]] = {}

    def count(self, *keys: str) -> int:
        now = time.monotonic()
        worst = 0
        for k in keys:
            times = [x for x in self._fails.get(k, []) if now - x < self.WINDOW]
            if times:
                self._fails[k] = times
            else:
                self._fails.pop(k, None)
            worst = max(worst, len(times))
        return worst

    def fail(self, *keys: str) -> None:
        now = time.monotonic()
        for k in keys:
            self._fails.setdefault(k, []).append(now)
        if len(self._fails) > 100_000:
            self._fails.clear()

    def clear(self, key: str) -> None:
        self._fails.pop(key, None)

    @staticmethod
    def delay(failures: int) -> float:
        return 0.0 if failures < 3 else min(8.0, 2.0 ** (failures - 3))


class Accounts:
    def __init__(self, store: Any) -> None:
        self.store = store
        self.throttle = Throttle()

    # -- sessions -------------------------------------------------------------------------------------
    async def _new_session(self, user_id: int) -> tuple[str, str]:
        token = secrets.token_urlsafe(24)
        csrf = secrets.token_urlsafe(24)
        now = time.time()

        def write(conn: Connection) -> None:
            conn.execute(sessions_t.delete().where(sessions_t.c.expires_at < now))  # expired: gone
            conn.execute(
                sessions_t.insert().values(
                    token_hash=_hash(token), user_id=user_id, csrf=csrf, created_at=now,
                    expires_at=now + SESSION_DAYS * 86400,
                )
            )

        await self.store.write(write)
        return token, csrf

    @staticmethod
    def set_cookie(request: Request, response: Response, token: str) -> None:
        secure = request.url.scheme == "https" or os.environ.get("BOARDLAB_SECURE_COOKIES") == "1"
        response.set_cookie(
            COOKIE, token, max_age=SESSION_DAYS * 86400, httponly=True, secure=secure, samesite="lax", path="/"
        )

    async def user(self, request: Request) -> User | None:
        """The signed-in user of this request (by the session cookie), or None."""
        token = request.cookies.get(COOKIE)
        if not token or len(token) > 64:
            return None
        h = _hash(token)

        def read(conn: Connection) -> Any:
            q = (
                sa.select(users_t.c.id, users_t.c.name, sessions_t.c.csrf, sessions_t.c.expires_at)
                .join(users_t, users_t.c.id == sessions_t.c.user_id)
                .where(sessions_t.c.token_hash == h)
            )
            return conn.execute(q).first()

        row = await self.store.read(read)
        if row is None or row.expires_at < time.time():
            return None
        return User(row.id, row.name, row.csrf)

    async def require(self, request: Request, *, csrf: bool = True) -> User:
        """The signed-in user; for changes also a matching CSRF header and a same-origin Origin."""
        u = await self.user(request)
        if u is None:
            raise ApiError(401, "not_signed_in", "sign in first")
        if csrf:
            check_csrf(request, u.csrf)
        return u

    # -- sign up / in / out ---------------------------------------------------------------------------
    async def sign_up(self, name: str, password: str) -> tuple[User, str]:
        name = check_name(name)
        check_password(password, name)
        pw_hash = await asyncio.to_thread(_hasher.hash, password)
        key = name_key(name)

        def write(conn: Connection) -> int | None:
            if conn.execute(sa.select(users_t.c.id).where(users_t.c.name_key == key)).first():
                return None
            res = conn.execute(
                users_t.insert().values(name=name, name_key=key, pw_hash=pw_hash, created_at=time.time())
            )
            return int(res.inserted_primary_key[0])

        try:
            uid = await self.store.write(write)
        except sa.exc.IntegrityError:
            uid = None
        if uid is None:
            raise ApiError(409, "name_taken", "that name is taken")
        token, csrf = await self._new_session(uid)
        return User(uid, name, csrf), token

    async def sign_in(self, name: str, password: str, address: str) -> tuple[User, str]:
        key = name_key(name or "")[:60]
        by_name, by_addr = self.throttle.count(f"n:{key}"), self.throttle.count(f"a:{address}")
        if by_name >= 20 or by_addr >= 50:
            raise ApiError(429, "too_many_attempts", "too many failed sign-ins; wait 15 minutes")
        # Counted as a failure before the password is checked (no await since the count above): guesses sent
        # at once see each other, so no more than 20 are ever checked; a success takes it back below.
        self.throttle.fail(f"n:{key}")
        await asyncio.sleep(max(Throttle.delay(by_name), Throttle.delay(by_addr - 7)))
        row = await self.store.read(
            lambda c: c.execute(sa.select(users_t).where(users_t.c.name_key == key)).first()
        )
        ok = False
        try:
            await asyncio.to_thread(_hasher.verify, row.pw_hash if row else _DUMMY, password or "")
            ok = row is not None
        except (VerifyMismatchError, VerificationError, InvalidHashError):
            ok = False
        if not ok:
            if row is not None:
                self.throttle.fail(f"a:{address}")
            raise ApiError(401, "bad_credentials", "wrong name or password")
        self.throttle.clear(f"n:{key}")
        token, csrf = await self._new_session(row.id)
        return User(row.id, row.name, csrf), token

    async def sign_out(self, request: Request) -> None:
        token = request.cookies.get(COOKIE)
        if token:
            h = _hash(token)
            await self.store.write(lambda c: c.execute(sessions_t.delete().where(sessions_t.c.token_hash == h)))

    async def sign_out_everywhere(self, user: User) -> int:
        """End every session of `user` (a browser left signed in elsewhere, a stolen cookie): how many ended."""
        done = await self.store.write(
            lambda c: c.execute(sessions_t.delete().where(sessions_t.c.user_id == user.id)).rowcount
        )
        return int(done or 0)

    async def find(self, name: str) -> Any:
        key = name_key(name)[:60]
        return await self.store.read(
            lambda c: c.execute(sa.select(users_t.c.id, users_t.c.name).where(users_t.c.name_key == key)).first()
        )


def check_csrf(request: Request, csrf: str) -> None:
    sent = request.headers.get("x-csrf-token", "")
    if not sent or not hmac.compare_digest(sent, csrf):
        raise ApiError(403, "bad_csrf", "missing or wrong X-CSRF-Token header")
    origin = request.headers.get("origin")
    if origin and origin != "null":
        host = request.headers.get("host", "")
        if origin.split("://", 1)[-1] != host:
            raise ApiError(403, "bad_origin", "cross-site request refused")
