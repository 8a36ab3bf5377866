"""Your-turn e-mails (issue #34, server/mail.py), against a real server process and a real SMTP server
(aiosmtpd) in this process: an account that asked for them gets one when a table waits for its move and no page of
its is open there, at most one per table in the set interval; the unsubscribe link in the e-mail turns them off
without signing in; a forged link changes nothing; bad addresses are refused."""

from __future__ import annotations

import re
import socket
from collections.abc import Iterator
from email import message_from_bytes, policy
from email.message import Message
from pathlib import Path
from typing import Any

import httpx
import pytest
from aiosmtpd.controller import Controller
from srvkit import Server, auth, serving, wait_for
from test_site import account


class Inbox:
    """aiosmtpd's handler: every message delivered, parsed."""

    def __init__(self) -> None:
        self.messages: list[Message] = []

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:
        self.messages.append(message_from_bytes(envelope.content, policy=policy.default))
        return "250 OK"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture(scope="module")
def inbox() -> Iterator[tuple[Inbox, int]]:
    box, port = Inbox(), free_port()
    ctl = Controller(box, hostname="127.0.0.1", port=port)
    ctl.start()
    try:
        yield box, port
    finally:
        ctl.stop()


@pytest.fixture(scope="module", params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def mail_server(request: pytest.FixtureRequest, inbox: tuple[Inbox, int],
                tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    env = {"BOARDLAB_SMTP": f"127.0.0.1:{inbox[1]}", "BOARDLAB_PUBLIC_URL": "http://boardlab.test",
           "BOARDLAB_BOT_DELAY": "0"}
    with serving(request.param, tmp_path_factory.mktemp("mail"), env=env) as srv:
        yield srv


def bot_table(c: httpx.Client, csrf: str) -> tuple[str, str]:
    """A table of the toy game: this account on seat 0, a random bot on seat 1."""
    r = c.post("/api/site/tables", headers={"X-CSRF-Token": csrf},
               json={"game": "tally", "players": 2, "options": {"target": 100000}, "public": False, "pace": 0,
                     "seats": [{"kind": "human"}, {"kind": "bot", "bot": "random"}]})
    assert r.status_code == 201, r.text
    return r.json()["id"], r.json()["seats"][0]["token"]


def end_turn(c: httpx.Client, tid: str, tok: str) -> None:
    """Seat 0 ends its turn (the bot then moves and the turn comes back)."""
    st = wait_for(lambda: (s := c.get(f"/api/tables/{tid}", headers=auth(tok)).json())["current"] == 0
                  and not s["thinking"] and s, "seat 0's turn")
    r = c.post(f"/api/tables/{tid}/actions", headers=auth(tok), json={"move": st["version"], "action": "end"})
    assert r.status_code == 200, r.text
    wait_for(lambda: (s := c.get(f"/api/tables/{tid}", headers=auth(tok)).json())["current"] == 0
             and s["version"] > st["version"] + 1, "the turn back")


def for_table(box: Inbox, tid: str) -> list[Message]:
    return [m for m in box.messages if tid in m.get_payload(decode=True).decode()]


def test_your_turn_mail_once_per_table_and_unsubscribe(mail_server: Server, inbox: tuple[Inbox, int]) -> None:
    box, _ = inbox
    c, name, csrf = account(mail_server)
    assert c.get("/api/me/mail").json() == {"email": None, "turns": False, "lang": None, "available": True}
    tid0, tok0 = bot_table(c, csrf)
    end_turn(c, tid0, tok0)  # not asked for yet: nothing is sent
    r = c.put("/api/me/mail", headers={"X-CSRF-Token": csrf},
              json={"email": f"{name}@example.org", "turns": True, "lang": "zh-TW"})
    assert r.status_code == 200 and r.json()["turns"] is True, r.text

    tid, tok = bot_table(c, csrf)
    end_turn(c, tid, tok)
    mails = wait_for(lambda: for_table(box, tid), "the your-turn e-mail")
    m = mails[0]
    assert m["To"] == f"{name}@example.org" and "輪到你了" in str(m["Subject"])
    body = m.get_payload(decode=True).decode()
    assert f"http://boardlab.test/t/{tid}" in body and name in body
    end_turn(c, tid, tok)
    end_turn(c, tid, tok)
    assert len(for_table(box, tid)) == 1  # one per table in BOARDLAB_MAIL_EVERY (30 min), not one per turn
    assert not for_table(box, tid0)

    link = re.search(r"http://boardlab\.test(/unsubscribe/\S+)", body)
    assert link and str(m["List-Unsubscribe"]).strip() == f"<http://boardlab.test{link.group(1)}>"
    stranger = httpx.Client(base_url=mail_server.url, timeout=30)
    forged = link.group(1)[:-1] + ("0" if link.group(1)[-1] != "0" else "1")
    assert stranger.get(forged).status_code == 404
    assert c.get("/api/me/mail").json()["turns"] is True  # a forged link changed nothing
    page = stranger.get(link.group(1))  # no session: the link alone turns them off
    assert page.status_code == 200 and "no more" in page.text
    assert c.get("/api/me/mail").json() == {"email": f"{name}@example.org", "turns": False, "lang": "zh-TW",
                                            "available": True}
    tid2, tok2 = bot_table(c, csrf)
    end_turn(c, tid2, tok2)
    end_turn(c, tid2, tok2)
    assert not for_table(box, tid2)


def test_bad_addresses_are_refused(mail_server: Server) -> None:
    c, _, csrf = account(mail_server)
    for bad in ("nobody", "a@b", "a b@example.org", "x@example.org\r\nBcc: all@example.org", "<a@example.org>"):
        r = c.put("/api/me/mail", headers={"X-CSRF-Token": csrf}, json={"email": bad, "turns": True})
        assert r.status_code == 422, (bad, r.text)
    r = c.put("/api/me/mail", headers={"X-CSRF-Token": csrf}, json={"email": None, "turns": True})
    assert r.status_code == 422 and r.json()["error"] == "bad_email"
    r = c.put("/api/me/mail", json={"email": "a@example.org", "turns": True})  # no CSRF token
    assert r.status_code == 403
    assert c.get("/api/me/mail").json()["turns"] is False  # nothing changed


def test_without_smtp_the_settings_are_kept_and_nothing_is_sent(server: Server, tmp_path: Path) -> None:
    c, name, csrf = account(server)
    r = c.put("/api/me/mail", headers={"X-CSRF-Token": csrf}, json={"email": f"{name}@example.org", "turns": True})
    assert r.status_code == 200 and r.json()["available"] is False and r.json()["turns"] is True
