"""Your-turn e-mails (issue #34): a signed-in player who asks for them gets one e-mail when a table waits for
their move and they are not at it, with a link to the table and one to unsubscribe.

* Off unless the site has an SMTP server: `BOARDLAB_SMTP=host:port` (`BOARDLAB_SMTP_USER`/`_PASSWORD` to log in,
  `BOARDLAB_SMTP_STARTTLS=1` to encrypt, `BOARDLAB_MAIL_FROM` the sender, `BOARDLAB_PUBLIC_URL` the address the
  links start with). Without it the settings can still be kept, and nothing is sent.
* Opt-in, per account: an address and "e-mail me when it is my turn" (`PUT /api/me/mail`); every e-mail carries
  a link that turns them off without signing in (`/unsubscribe/{token}`, signed with the site's secret).
* Sent only when the turn passes to the seat (not after each of the player's own moves), only while no page of
  theirs is open at the table (a connected seat sees the turn itself), and within the limits of
  server/turnlimit.py (one notice per account and table every 30 minutes, 10 an hour), shared with Web Push.
* Whose turn it is is public at every table, so the e-mail tells nobody anything a seat could not see; its text
  names the game and the table, never a card.
* Sending runs in a thread, after the move is stored and pushed: a slow or dead mail server never delays a move.
"""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import logging
import os
import re
import smtplib
from email.message import EmailMessage
from typing import Any

import sqlalchemy as sa

from .errors import ApiError
from .sitedb import users_t

log = logging.getLogger("boardlab.server")

EMAIL = re.compile(r"^[^@\s<>\"]{1,64}@[^@\s<>\"]{1,189}\.[^@\s<>\".]{2,63}$")
"""A plausible address (one @, a dot in the domain, no spaces or angle brackets): the mail server decides the
rest; we only refuse what is surely not an address and anything that could add a header."""

SUBJECT = {"en": "boardlab: your turn in {game}", "zh-TW": "boardlab：{game} 輪到你了"}
BODY = {
    "en": "Hello {name},\n\nyour move is awaited in {game} (table {table}):\n{link}\n\n"
          "You get this e-mail because you asked for your-turn e-mails. To stop them:\n{unsub}\n",
    "zh-TW": "{name} 你好：\n\n{game}（牌桌 {table}）正在等你行動：\n{link}\n\n"
             "你收到這封信，是因為你要求在輪到你時收到電子郵件。停止接收：\n{unsub}\n",
}


class TurnMail:
    """The settings (in `bl_users`), the unsubscribe tokens and the sending of your-turn e-mails."""

    def __init__(self, store: Any, env: dict[str, str] | None = None) -> None:
        e = os.environ if env is None else env
        self.store = store
        self.secret = b""
        self.smtp = e.get("BOARDLAB_SMTP", "")
        self.user = e.get("BOARDLAB_SMTP_USER", "")
        self.password = e.get("BOARDLAB_SMTP_PASSWORD", "")
        self.starttls = e.get("BOARDLAB_SMTP_STARTTLS", "") == "1"
        self.sender = e.get("BOARDLAB_MAIL_FROM", "boardlab <noreply@localhost>")
        self.base = e.get("BOARDLAB_PUBLIC_URL", "http://127.0.0.1:8000").rstrip("/")
        self.sent = 0

    @property
    def enabled(self) -> bool:
        return bool(self.smtp)

    # -- settings -------------------------------------------------------------------------------------------
    async def settings(self, user_id: int) -> dict[str, Any]:
        row = await self.store.read(lambda c: c.execute(
            sa.select(users_t.c.email, users_t.c.mail_turns, users_t.c.mail_lang).where(users_t.c.id == user_id)
        ).first())
        return {"email": row.email if row else None, "turns": bool(row and row.mail_turns),
                # null until chosen: the page then offers its own language, not English (e-mails default to English)
                "lang": row.mail_lang if row else None, "available": self.enabled}

    async def set(self, user_id: int, email: str | None, turns: bool, lang: str = "en") -> dict[str, Any]:
        email = (email or "").strip() or None
        lang = lang if lang in SUBJECT else "en"
        if email is not None and (len(email) > 254 or not EMAIL.match(email)):
            raise ApiError(422, "bad_email", "that is not an e-mail address")
        if turns and email is None:
            raise ApiError(422, "bad_email", "your-turn e-mails need an address")
        await self.store.write(lambda c: c.execute(
            users_t.update().where(users_t.c.id == user_id).values(email=email, mail_turns=turns, mail_lang=lang)))
        return await self.settings(user_id)

    def token(self, user_id: int) -> str:
        """The unsubscribe link's token: the account and a signature, so the link works without signing in and
        cannot be made for another account."""
        mac = hmac.new(self.secret, f"unsubscribe:{user_id}".encode(), hashlib.sha256).hexdigest()[:32]
        return f"{user_id}.{mac}"

    async def unsubscribe(self, token: str) -> bool:
        """Turn the e-mails off for the token's account; False for a token this site did not sign."""
        uid_text, _, _ = token.partition(".")
        if not uid_text.isdigit() or len(uid_text) > 12 or not hmac.compare_digest(self.token(int(uid_text)), token):
            return False
        uid = int(uid_text)
        await self.store.write(lambda c: c.execute(
            users_t.update().where(users_t.c.id == uid).values(mail_turns=False)))
        return True

    # -- sending ---------------------------------------------------------------------------------------------
    async def your_turn(self, user_id: int, table_id: str, titles: dict[str, str]) -> None:
        """Send the e-mail if the account asked for it (read now: a change of mind counts at once). The caller
        checked the limits (server/turnlimit.py, shared with Web Push)."""
        if not self.enabled:
            return
        row = await self.store.read(lambda c: c.execute(
            sa.select(users_t.c.name, users_t.c.email, users_t.c.mail_turns, users_t.c.mail_lang)
            .where(users_t.c.id == user_id)).first())
        if row is None or not row.mail_turns or not row.email:
            return
        lang = row.mail_lang if row.mail_lang in SUBJECT else "en"
        game = titles.get(lang) or titles.get("en") or "boardlab"
        msg = EmailMessage()
        msg["From"] = self.sender
        msg["To"] = row.email
        msg["Subject"] = SUBJECT[lang].format(game=game)
        unsub = f"{self.base}/unsubscribe/{self.token(user_id)}"
        msg["List-Unsubscribe"] = f"<{unsub}>"
        msg.set_content(BODY[lang].format(name=row.name, game=game, table=table_id, link=f"{self.base}/t/{table_id}",
                                          unsub=unsub))
        try:
            await asyncio.to_thread(self._deliver, msg)
            self.sent += 1
        except (OSError, smtplib.SMTPException):
            log.warning("cannot send the your-turn e-mail for table %s", table_id, exc_info=True)

    def _deliver(self, msg: EmailMessage) -> None:
        host, _, port = self.smtp.rpartition(":")
        with smtplib.SMTP(host or self.smtp, int(port) if host else 25, timeout=10) as s:
            if self.starttls:
                s.starttls()
            if self.user:
                s.login(self.user, self.password)
            s.send_message(msg)
