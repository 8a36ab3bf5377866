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
  after 10 failures, unknown names included (a flood of sign-ins for names that do not exist costs a
  password hash each), and refused past 50. The name's count is the guesser's, not the owner's: a
  browser that signed in to the account before holds a signed "known device" cookie, and its sign-ins
  for that name skip the name's count (20 wrong passwords from anywhere locked the owner out for 15
  minutes); the address's count still holds.
* Passwords are hashed in a pool of their own (`BOARDLAB_HASH_WORKERS` threads, at most
  `BOARDLAB_HASH_QUEUE` waiting; past that 503 `busy`): in the default pool, which the database reads
  share, a sign-in flood made the lobby list wait seconds behind the hashes.
* Sign-ups: at most `BOARDLAB_SIGNUPS_PER_ADDRESS` accounts per address an hour (429 `too_many_signups`).
"""

from __future__ import annotations

import asyncio
import base64
import hashlib
import hmac
import os
import secrets
import time
import unicodedata
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
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
DEVICE_COOKIE = "bl_device"
DEVICE_DAYS = 365
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
        raise ApiError(422, "reserved_name", "that name is reserved")  # its own code: the UI says so (issue #34)
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
    ADDR_FREE = 10  # failures from one address before it is slowed down

    def __init__(self, window: float = WINDOW) -> None:
        self.window = window
        self._fails: dict[str, list[float]] = {}

    def count(self, *keys: str) -> int:
        now = time.monotonic()
        worst = 0
        for k in keys:
            times = [x for x in self._fails.get(k, []) if now - x < self.window]
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

    def take_back(self, key: str) -> None:
        """Undo one `fail(key)`: an attempt counted before it was checked turned out not to be a failure."""
        times = self._fails.get(key)
        if times:
            times.pop()

    @staticmethod
    def delay(failures: int) -> float:
        return 0.0 if failures < 3 else min(8.0, 2.0 ** (failures - 3))


class Hashing:
    """Password hashing off the event loop in a bounded pool of its own: the default thread pool also runs
    every database read (server/store.py), and a flood of sign-ins queued so many hashes there that the
    lobby list took 2.55 s. At most `workers` hashes run at once and `queue` wait; past that, 503 `busy`
    at once (nothing is hashed, nothing is counted)."""

    def __init__(self, workers: int, queue: int) -> None:
        self.pool = ThreadPoolExecutor(max(1, workers), thread_name_prefix="boardlab-hash")
        self.slots = max(1, workers) + max(0, queue)
        self.busy = 0

    def full(self) -> bool:
        return self.busy >= self.slots

    async def run(self, fn: Callable[..., Any], *args: Any) -> Any:
        if self.full():
            raise ApiError(503, "busy", "too many sign-ins at once; try again in a moment")
        self.busy += 1
        try:
            return await asyncio.get_running_loop().run_in_executor(self.pool, fn, *args)
        finally:
            self.busy -= 1


def _env_int(name: str, default: int) -> int:
    return int(os.environ.get(name, str(default)))


class Accounts:
    def __init__(self, store: Any) -> None:
        self.store = store
        self.throttle = Throttle()
        self.max_name_fails = _env_int("BOARDLAB_SIGNIN_FAILS_PER_NAME", 20)  # then 429 for 15 minutes
        self.max_addr_fails = _env_int("BOARDLAB_SIGNIN_FAILS_PER_ADDRESS", 50)
        self.signups = Throttle(window=3600.0)  # accounts made per address in the last hour
        self.max_signups = _env_int("BOARDLAB_SIGNUPS_PER_ADDRESS", 10)
        self.hashing = Hashing(_env_int("BOARDLAB_HASH_WORKERS", 1), _env_int("BOARDLAB_HASH_QUEUE", 16))
        self.secret = b""  # the site's secret (Site.start): signs the known-device cookies

    # -- known devices --------------------------------------------------------------------------------
    def device_mark(self, key: str) -> str:
        """A cookie value saying "this browser signed in to the account `key` before" (signed, nothing stored)."""
        nonce = secrets.token_urlsafe(9)
        return f"{nonce}.{self._device_mac(nonce, key)}"

    def _device_mac(self, nonce: str, key: str) -> str:
        mac = hmac.new(self.secret, f"device:{nonce}:{key}".encode(), hashlib.sha256).digest()
        return base64.urlsafe_b64encode(mac[:18]).decode()

    def known_device(self, request: Request, key: str) -> bool:
        """Did this browser sign in to the account `key` before (a valid device cookie for that name)?"""
        nonce, _, mac = (request.cookies.get(DEVICE_COOKIE) or "")[:80].partition(".")
        if not (self.secret and nonce and mac):
            return False
        return hmac.compare_digest(mac.encode(), self._device_mac(nonce, key).encode())  # bytes: any text is safe

    def set_device(self, request: Request, response: Response, name: str) -> None:
        secure = request.url.scheme == "https" or os.environ.get("BOARDLAB_SECURE_COOKIES") == "1"
        response.set_cookie(DEVICE_COOKIE, self.device_mark(name_key(name)), max_age=DEVICE_DAYS * 86400,
                            httponly=True, secure=secure, samesite="lax", path="/api/account")

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
    async def sign_up(self, name: str, password: str, address: str = "?") -> tuple[User, str]:
        name = check_name(name)
        check_password(password, name)
        if self.signups.count(f"a:{address}") >= self.max_signups:  # throwaway accounts farmed ratings
            raise ApiError(429, "too_many_signups", f"at most {self.max_signups} new accounts an hour from one place")
        self.signups.fail(f"a:{address}")  # counted before the hash (no await since the count); given back below
        try:
            return await self._sign_up(name, password)
        except BaseException:
            self.signups.take_back(f"a:{address}")
            raise

    async def _sign_up(self, name: str, password: str) -> tuple[User, str]:
        pw_hash = await self.hashing.run(_hasher.hash, password)
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

    async def sign_in(self, name: str, password: str, address: str, known: bool = False) -> tuple[User, str]:
        """`known`: this browser signed in to this name before (`known_device`): the name's failures, which anyone
        can run up, do not hold it back; its address's still do."""
        key = name_key(name or "")[:60]
        th = self.throttle
        by_name = 0 if known else th.count(f"n:{key}")
        by_addr = th.count(f"a:{address}")
        if by_name >= self.max_name_fails or by_addr >= self.max_addr_fails:
            raise ApiError(429, "too_many_attempts", "too many failed sign-ins; wait 15 minutes")
        if self.hashing.full():
            raise ApiError(503, "busy", "too many sign-ins at once; try again in a moment")
        # Counted as failures before the password is checked (no await since the counts above): guesses sent at
        # once see each other, so no more than 20 per name are ever checked; a success takes them back below.
        keys = [f"a:{address}"] + ([] if known else [f"n:{key}"])
        th.fail(*keys)
        try:
            await asyncio.sleep(max(Throttle.delay(by_name), Throttle.delay(by_addr - Throttle.ADDR_FREE + 3)))
            row = await self.store.read(
                lambda c: c.execute(sa.select(users_t).where(users_t.c.name_key == key)).first()
            )
            try:
                await self.hashing.run(_hasher.verify, row.pw_hash if row else _DUMMY, password or "")
                ok = row is not None
            except (VerifyMismatchError, VerificationError, InvalidHashError):
                ok = False
        except ApiError:  # busy: nothing was checked, so nothing counts
            for k in keys:
                th.take_back(k)
            raise
        if not ok:
            raise ApiError(401, "bad_credentials", "wrong name or password")
        th.take_back(f"a:{address}")
        th.clear(f"n:{key}")
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
