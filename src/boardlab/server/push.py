"""Your-turn notifications through Web Push (issue #34): a browser that asked for them (the account page's "Notify
me in this browser") gets a push message when a table waits for the account's move and no page of theirs is open
there; the site's service worker (web/sw.js) shows it and opens the table on a click.

* The site's VAPID key pair (P-256) is made on first start and kept in the database (`bl_push_keys`), so every
  process of a cluster and every restart signs with the key the browsers subscribed with.
* A subscription (`PUT /api/me/push`) is the push service's endpoint and the browser's two keys (`p256dh`, `auth`)
  the payload is encrypted for (RFC 8291, aes128gcm); at most `BOARDLAB_PUSH_PER_ACCOUNT` (10) per account, the
  oldest dropped. `DELETE /api/me/push` (the toggle turned off) removes one.
* The endpoint is where *this server* sends a request, so it must be a push service's: https, and a host under
  one of `BOARDLAB_PUSH_HOSTS` (Google's, Mozilla's, Apple's and Microsoft's push services by default); anything
  else is refused (422 `bad_endpoint`), redirects are not followed. `BOARDLAB_PUSH_ALLOW_LOCAL=1` (tests only) also
  accepts http://127.0.0.1:<port>/...
* Sent on the same trigger and within the same limits as the e-mails (server/site.py `_notify_turn`,
  server/turnlimit.py), in a thread: a slow push service never delays a move. A 404 or 410 from the push service
  (the browser unsubscribed) deletes the subscription.
* The payload names the game and the table in the subscription's language (en or zh-TW) and the table's path;
  whose turn it is is public, so it tells nothing a seat could not see.
"""

from __future__ import annotations

import asyncio
import base64
import binascii
import json
import logging
import os
import time
from typing import Any
from urllib.parse import urlsplit

import requests
import sqlalchemy as sa
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec
from pywebpush import WebPushException, webpush
from sqlalchemy.engine import Connection

from .errors import ApiError
from .sitedb import push_keys_t, push_subs_t

log = logging.getLogger("boardlab.server")

PUSH_HOSTS = "fcm.googleapis.com,push.services.mozilla.com,push.apple.com,notify.windows.com"
"""The push services of Chromium-based browsers, Firefox, Safari and Edge (a host matches itself or a subdomain)."""

TITLE = {"en": "boardlab: your turn", "zh-TW": "boardlab：輪到你了"}
BODY = {"en": "Your move is awaited in {game} (table {table}).", "zh-TW": "{game}（牌桌 {table}）正在等你行動。"}


def b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def unb64url(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def new_keys() -> tuple[str, str]:
    """A fresh VAPID key pair: (private scalar, uncompressed public point), both base64url as browsers take them."""
    key = ec.generate_private_key(ec.SECP256R1())
    private = key.private_numbers().private_value.to_bytes(32, "big")
    public = key.public_key().public_bytes(serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint)
    return b64url(private), b64url(public)


class _NoRedirects(requests.Session):
    """A push service answers; it never sends us elsewhere (a redirect could point inside our network)."""

    def request(self, *args: Any, **kwargs: Any) -> requests.Response:  # type: ignore[override]
        kwargs["allow_redirects"] = False
        return super().request(*args, **kwargs)


class WebPush:
    """The VAPID keys, the subscriptions (in `bl_push_subs`) and the sending of your-turn push messages."""

    def __init__(self, store: Any, env: dict[str, str] | None = None) -> None:
        e = os.environ if env is None else env
        self.store = store
        self.hosts = [h.strip().lower().lstrip(".") for h in e.get("BOARDLAB_PUSH_HOSTS", PUSH_HOSTS).split(",")
                      if h.strip()]
        self.allow_local = e.get("BOARDLAB_PUSH_ALLOW_LOCAL", "") == "1"
        self.per_account = int(e.get("BOARDLAB_PUSH_PER_ACCOUNT", "10"))
        self.subject = e.get("BOARDLAB_PUSH_SUBJECT") or "mailto:" + e.get("BOARDLAB_MAIL_FROM", "noreply@localhost") \
            .rpartition("<")[2].rstrip(">").strip()
        self.private = ""
        self.public = ""
        self.sent = 0

    async def start(self) -> None:
        """Read the key pair, or make and store it (the first process to store it wins; the others read it)."""
        row = await self.store.read(_read_keys)
        if row is None:
            private, public = new_keys()
            try:
                await self.store.write(lambda c: c.execute(
                    push_keys_t.insert().values(id=1, private_key=private, public_key=public)))
            except Exception:  # another process starting on the same fresh database stored its keys first
                log.info("the push keys were stored by another process; using them")
            row = await self.store.read(_read_keys)
        self.private, self.public = row

    # -- subscriptions ----------------------------------------------------------------------------------------
    def check_endpoint(self, endpoint: str) -> None:
        """Refuse an endpoint that is not a push service's (the server will send requests there)."""
        try:
            u = urlsplit(endpoint)
            host, port = (u.hostname or "").lower(), u.port
        except ValueError:
            raise ApiError(422, "bad_endpoint", "not a push service's address") from None
        if u.username or u.password or not u.path.startswith("/"):
            raise ApiError(422, "bad_endpoint", "not a push service's address")
        if self.allow_local and u.scheme == "http" and host == "127.0.0.1" and port:
            return
        if u.scheme != "https" or port not in (None, 443) or not any(host == h or host.endswith("." + h)
                                                                     for h in self.hosts):
            raise ApiError(422, "bad_endpoint", "not a push service's address")

    @staticmethod
    def check_keys(p256dh: str, auth: str) -> None:
        """The browser's keys must be a P-256 point and a 16-byte secret, or no payload could be encrypted."""
        try:
            ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), unb64url(p256dh))
            ok = len(unb64url(auth)) == 16
        except (ValueError, binascii.Error):
            ok = False
        if not ok:
            raise ApiError(422, "bad_keys", "the subscription's keys are not a P-256 key and a 16-byte secret")

    async def count(self, user_id: int) -> int:
        return int(await self.store.read(lambda c: c.execute(
            sa.select(sa.func.count()).select_from(push_subs_t).where(push_subs_t.c.user_id == user_id)).scalar()))

    async def subscribe(self, user_id: int, endpoint: str, p256dh: str, auth: str, lang: str) -> int:
        """Keep this browser's subscription for the account (a browser's endpoint moves to the account that signs
        in on it last); drop the account's oldest past the cap. Returns how many the account has."""
        self.check_endpoint(endpoint)
        self.check_keys(p256dh, auth)
        cap = self.per_account

        def write(c: Connection) -> None:
            c.execute(push_subs_t.delete().where(push_subs_t.c.endpoint == endpoint))
            c.execute(push_subs_t.insert().values(user_id=user_id, endpoint=endpoint, p256dh=p256dh, auth=auth,
                                                  lang=lang, created_at=time.time()))
            keep = sa.select(push_subs_t.c.id).where(push_subs_t.c.user_id == user_id) \
                .order_by(push_subs_t.c.created_at.desc(), push_subs_t.c.id.desc()).limit(cap).scalar_subquery()
            c.execute(push_subs_t.delete().where(push_subs_t.c.user_id == user_id, push_subs_t.c.id.not_in(keep)))

        await self.store.write(write)
        return await self.count(user_id)

    async def unsubscribe(self, user_id: int, endpoint: str) -> int:
        """Forget this browser's subscription (only the account's own). Returns how many the account has left."""
        await self.store.write(lambda c: c.execute(push_subs_t.delete().where(
            push_subs_t.c.user_id == user_id, push_subs_t.c.endpoint == endpoint)))
        return await self.count(user_id)

    # -- sending ----------------------------------------------------------------------------------------------
    def payload(self, lang: str, table_id: str, titles: dict[str, str]) -> str:
        lang = lang if lang in TITLE else "en"
        game = titles.get(lang) or titles.get("en") or "boardlab"
        return json.dumps({"title": TITLE[lang], "body": BODY[lang].format(game=game, table=table_id),
                           "url": f"/t/{table_id}", "tag": f"turn-{table_id}"}, ensure_ascii=False)

    async def your_turn(self, user_id: int, table_id: str, titles: dict[str, str]) -> None:
        """Send to every browser of the account (read now: a toggle turned off counts at once). The caller checked
        the limits (server/turnlimit.py, shared with the e-mails)."""
        subs = await self.store.read(lambda c: c.execute(sa.select(
            push_subs_t.c.endpoint, push_subs_t.c.p256dh, push_subs_t.c.auth, push_subs_t.c.lang)
            .where(push_subs_t.c.user_id == user_id).order_by(push_subs_t.c.id)).all())
        for s in subs:  # one after another, oldest first
            gone = await asyncio.to_thread(self._deliver, s.endpoint, s.p256dh, s.auth,
                                           self.payload(s.lang, table_id, titles))
            if gone:
                await self.store.write(lambda c, e=s.endpoint: c.execute(
                    push_subs_t.delete().where(push_subs_t.c.endpoint == e)))

    def _deliver(self, endpoint: str, p256dh: str, auth: str, data: str) -> bool:
        """One push message (in a thread). True when the push service says the subscription is gone (404, 410)."""
        try:
            self.check_endpoint(endpoint)  # the settings may have changed since it was stored
            webpush({"endpoint": endpoint, "keys": {"p256dh": p256dh, "auth": auth}}, data,
                    vapid_private_key=self.private, vapid_claims={"sub": self.subject}, timeout=10, ttl=3600,
                    requests_session=_NoRedirects())
            self.sent += 1
        except WebPushException as e:
            status = getattr(e.response, "status_code", None)
            if status in (404, 410):
                return True
            log.warning("the push service refused the your-turn message (%s)", status)
        except (ApiError, requests.RequestException):
            log.warning("cannot send the your-turn push message", exc_info=True)
        return False


def _read_keys(conn: Connection) -> tuple[str, str] | None:
    r = conn.execute(sa.select(push_keys_t.c.private_key, push_keys_t.c.public_key)
                     .where(push_keys_t.c.id == 1)).first()
    return None if r is None else (r.private_key, r.public_key)
