"""Your-turn Web Push (issue #34, server/push.py), against a real server process, a real local push service
(tests/server/pushkit.py: an HTTP server answering RFC 8030's push request) and a real SMTP server: the server's
message arrives encrypted for the subscription's keys (decrypted here as a browser would) with a VAPID JWT signed by
the key `GET /api/push/key` gives; a 410 deletes the subscription; the unsubscribe stops them; the per-table limit is
one for e-mails and pushes together; endpoints that are not push services' and bad keys are refused."""

from __future__ import annotations

from collections.abc import Iterator

import httpx
import pytest
from pushkit import Browser, PushService, check_vapid, push_service
from srvkit import Server, serving, wait_for
from test_mail import Inbox, bot_table, end_turn, for_table, inbox  # noqa: F401 (inbox: the fixture)
from test_site import account


@pytest.fixture(scope="module")
def pusher() -> Iterator[PushService]:
    with push_service() as svc:
        yield svc


@pytest.fixture(scope="module", params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def push_server(request: pytest.FixtureRequest, inbox: tuple[Inbox, int],  # noqa: F811
                tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    env = {"BOARDLAB_SMTP": f"127.0.0.1:{inbox[1]}", "BOARDLAB_PUBLIC_URL": "http://boardlab.test",
           "BOARDLAB_BOT_DELAY": "0", "BOARDLAB_PUSH_ALLOW_LOCAL": "1"}
    with serving(request.param, tmp_path_factory.mktemp("push"), env=env) as srv:
        yield srv


def subscribe(c: httpx.Client, csrf: str, browser: Browser, lang: str = "en") -> httpx.Response:
    return c.put("/api/me/push", headers={"X-CSRF-Token": csrf}, json=browser.subscription(lang))


def test_your_turn_push_is_encrypted_and_signed_and_410_deletes(push_server: Server, pusher: PushService) -> None:
    c, name, csrf = account(push_server)
    key = c.get("/api/push/key").json()["key"]
    assert len(key) == 87  # a P-256 point, uncompressed, base64url
    assert c.get("/api/push/key").json()["key"] == key  # kept, not made per request
    zh, gone = Browser(pusher.url(f"/push/zh{name}")), Browser(pusher.url(f"/gone/{name}"))
    assert subscribe(c, csrf, zh, "zh-TW").json() == {"subscriptions": 1}
    assert subscribe(c, csrf, gone).json() == {"subscriptions": 2}

    tid, tok = bot_table(c, csrf)
    end_turn(c, tid, tok)
    pushed = wait_for(lambda: pusher.to(f"/push/zh{name}"), "the your-turn push")[0]
    msg = zh.decrypt(pushed)
    assert msg["title"] == "boardlab：輪到你了" and tid in msg["body"] and "正在等你行動" in msg["body"]
    assert msg["url"] == f"/t/{tid}"
    check_vapid(pushed, key, pusher.url("").rstrip("/"))
    assert int(pushed.headers["ttl"]) > 0
    wait_for(lambda: c.get("/api/me/push").json() == {"subscriptions": 1}, "the 410 subscription deleted")
    assert len(pusher.to(f"/gone/{name}")) == 1

    r = c.request("DELETE", "/api/me/push", headers={"X-CSRF-Token": csrf}, json={"endpoint": zh.endpoint})
    assert r.status_code == 200 and r.json() == {"subscriptions": 0}
    other = Browser(pusher.url(f"/push/other{name}"))
    assert subscribe(c, csrf, other).json() == {"subscriptions": 1}
    tid2, tok2 = bot_table(c, csrf)
    end_turn(c, tid2, tok2)
    got = wait_for(lambda: pusher.to(f"/push/other{name}"), "the other browser's push")
    assert tid2 in other.decrypt(got[0])["body"]
    assert len(pusher.to(f"/push/zh{name}")) == 1  # the unsubscribed browser got nothing more


def test_one_limit_for_mail_and_push(push_server: Server, pusher: PushService, inbox: tuple[Inbox, int]) -> None:  # noqa: F811
    box, _ = inbox
    c, name, csrf = account(push_server)
    path = f"/push/{name}"
    b = Browser(pusher.url(path))
    assert subscribe(c, csrf, b).status_code == 200
    tid, tok = bot_table(c, csrf)
    end_turn(c, tid, tok)
    wait_for(lambda: pusher.to(path), "the push")
    assert b.decrypt(pusher.to(path)[0])["title"] == "boardlab: your turn"
    r = c.put("/api/me/mail", headers={"X-CSRF-Token": csrf},
              json={"email": f"{name}@example.org", "turns": True, "lang": "en"})
    assert r.status_code == 200
    end_turn(c, tid, tok)
    end_turn(c, tid, tok)
    tid2, tok2 = bot_table(c, csrf)  # another table: both channels get it, once
    end_turn(c, tid2, tok2)
    wait_for(lambda: for_table(box, tid2), "the e-mail of the second table")
    wait_for(lambda: len(pusher.to(path)) == 2, "the push of the second table")
    end_turn(c, tid2, tok2)
    assert not for_table(box, tid)  # the first table's notice went by push: the e-mail shares its limit
    assert len(for_table(box, tid2)) == 1 and len(pusher.to(path)) == 2
    assert [tid in b.decrypt(p)["body"] for p in pusher.to(path)] == [True, False]


def test_endpoints_and_keys_are_checked(push_server: Server, pusher: PushService) -> None:
    c, _, csrf = account(push_server)
    good = Browser(pusher.url("/push/x")).subscription()
    for bad in ("http://example.org/push", "https://127.0.0.1/push", "https://evil.example/push",
                "https://fcm.googleapis.com.evil.example/x", "https://user@fcm.googleapis.com/x",
                "https://fcm.googleapis.com:8443/x", "http://127.0.0.2:80/x", "file:///etc/passwd",
                "http://localhost:9/x"):
        r = c.put("/api/me/push", headers={"X-CSRF-Token": csrf}, json={**good, "endpoint": bad})
        assert r.status_code == 422 and r.json()["error"] == "bad_endpoint", (bad, r.text)
    assert c.put("/api/me/push", headers={"X-CSRF-Token": csrf},
                 json={**good, "endpoint": "https://fcm.googleapis.com/fcm/send/abc"}).status_code == 200
    for keys in ({"p256dh": "AAAA", "auth": good["keys"]["auth"]}, {"p256dh": good["keys"]["p256dh"], "auth": "AAAA"}):
        r = c.put("/api/me/push", headers={"X-CSRF-Token": csrf}, json={**good, "keys": keys})
        assert r.status_code == 422 and r.json()["error"] == "bad_keys", r.text
    assert c.put("/api/me/push", json=good).status_code == 403  # no CSRF token
    assert httpx.put(push_server.url + "/api/me/push", json=good).status_code == 401  # not signed in
    for i in range(12):  # the cap: 10 per account, the oldest dropped
        assert c.put("/api/me/push", headers={"X-CSRF-Token": csrf},
                     json={**good, "endpoint": pusher.url(f"/push/cap{i}")}).status_code == 200
    assert c.get("/api/me/push").json() == {"subscriptions": 10}


def test_redirects_are_not_followed(push_server: Server, pusher: PushService) -> None:
    c, name, csrf = account(push_server)
    first, then = Browser(pusher.url(f"/redirect/{name}")), Browser(pusher.url(f"/push/then{name}"))
    assert subscribe(c, csrf, first).status_code == 200 and subscribe(c, csrf, then).status_code == 200
    tid, tok = bot_table(c, csrf)
    end_turn(c, tid, tok)
    wait_for(lambda: pusher.to(f"/push/then{name}"), "the push after the redirected one")  # sent in order
    assert len(pusher.to(f"/redirect/{name}")) == 1 and not pusher.to(f"/push/redirected/{name}")
    assert c.get("/api/me/push").json() == {"subscriptions": 2}  # a redirect is no 404/410: kept
