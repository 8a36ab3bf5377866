"""Your-turn Web Push in real Chromium (issue #34): the server's push message, as a push service hands it over,
reaches the site's real service worker (web/sw.js), which shows the notification.

What is real: the server process sends the message (encrypted, VAPID-signed) to a real local push service
(tests/server/pushkit.py); the test decrypts it with the subscription's keys, as the browser's push service and
the browser would, and hands the text to Chromium's service worker through the DevTools protocol
(`ServiceWorker.deliverPushMessage`, the path of DevTools' "Push" button). What is not: the relay between the
server and Chromium, Google's FCM (Chromium's `pushManager.subscribe()` needs it), unreachable here; the server
side of that hop is tested in tests/server/test_push.py."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from kit import SHOTS, running_server
from pushkit import Browser, PushService, push_service
from srvkit import wait_for
from test_mail import end_turn
from test_web_site import WAIT, Errors, api, browser, errors, expect, sign_up  # noqa: F401

pytestmark = [pytest.mark.browser]

NOTES = """async () => {
    const reg = await navigator.serviceWorker.getRegistration("/");
    const notes = reg ? await reg.getNotifications() : [];
    return notes.map((n) => ({ title: n.title, body: n.body, tag: n.tag, data: n.data }));
}"""


@pytest.fixture(scope="module")
def pusher() -> Iterator[PushService]:
    with push_service() as svc:
        yield svc


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    env = {"BOARDLAB_PUSH_ALLOW_LOCAL": "1", "BOARDLAB_BOT_DELAY": "0"}
    with running_server(tmp_path_factory, "web-push", env) as srv:
        yield srv.url


def registered_worker(ctx: Any, page: Any, origin: str) -> tuple[Any, str]:
    """Register the site's service worker in the page; its registration id, as DevTools sees it."""
    cdp = ctx.new_cdp_session(page)
    regs: dict[str, str] = {}
    cdp.on("ServiceWorker.workerRegistrationUpdated",
           lambda ev: regs.update({r["scopeURL"]: r["registrationId"] for r in ev["registrations"]}))
    cdp.send("ServiceWorker.enable")
    page.evaluate("async () => { await navigator.serviceWorker.register('/sw.js'); "
                  "await navigator.serviceWorker.ready; }")
    # each evaluate lets Playwright hand over the protocol's events that arrived meanwhile
    return cdp, wait_for(lambda: page.evaluate("1") and regs.get(origin + "/"), "the service worker's registration")


def test_the_service_worker_shows_the_servers_your_turn(server: str, browser: Any, errors: Errors,  # noqa: F811
                                                        pusher: PushService) -> None:
    ctx = browser.new_context(viewport={"width": 1280, "height": 900}, locale="en-US")
    ctx.grant_permissions(["notifications"], origin=server)
    page = errors.watch(ctx.new_page())
    name = sign_up(page, server)
    cdp, reg_id = registered_worker(ctx, page, server)
    assert page.evaluate(NOTES) == []

    path = f"/push/{name}"
    sub = Browser(pusher.url(path))
    assert api(page, "PUT", "/api/me/push", sub.subscription("zh-TW")) == {"subscriptions": 1}
    t = api(page, "POST", "/api/site/tables", {
        "game": "tally", "players": 2, "options": {"target": 100000}, "public": False, "pace": 0,
        "seats": [{"kind": "human"}, {"kind": "bot", "bot": "random"}]})
    tid, tok = t["id"], t["seats"][0]["token"]
    end_turn(httpx.Client(base_url=server, timeout=30), tid, tok)  # played elsewhere: no page at the table
    msg = sub.decrypt(wait_for(lambda: pusher.to(path), "the server's push message")[0])

    cdp.send("ServiceWorker.deliverPushMessage", {"origin": server, "registrationId": reg_id,
                                                  "data": json.dumps(msg, ensure_ascii=False)})
    notes = wait_for(lambda: page.evaluate(NOTES), "the service worker's notification")
    assert notes == [{"title": "boardlab：輪到你了", "body": msg["body"], "tag": f"turn-{tid}",
                      "data": {"url": f"/t/{tid}"}}]
    assert tid in notes[0]["body"]

    # a message whose link leads off the site opens the site's root instead
    cdp.send("ServiceWorker.deliverPushMessage", {"origin": server, "registrationId": reg_id, "data": json.dumps(
        {"title": "x", "body": "y", "url": "https://evil.example/t/1", "tag": "evil"})})
    evil = wait_for(lambda: [n for n in page.evaluate(NOTES) if n["tag"] == "evil"], "the second notification")
    assert evil[0]["data"] == {"url": "/"}
    ctx.close()


def test_the_toggle_says_when_the_push_service_is_unreachable(server: str, browser: Any, errors: Errors) -> None:  # noqa: F811
    """Here, as on any machine without Google's FCM, Chromium's subscribe() fails: the page says why, in the page's
    language, stores nothing, and leaves the toggle off."""
    ctx = browser.new_context(viewport={"width": 1280, "height": 900}, locale="en-US")
    ctx.grant_permissions(["notifications"], origin=server)
    page = errors.watch(ctx.new_page())
    sign_up(page, server)
    page.goto(f"{server}/me")
    expect(page.locator("#push-settings h2")).to_have_text("Notify me in this browser", timeout=WAIT)
    expect(page.locator("#push-toggle")).to_be_enabled(timeout=WAIT)  # the service worker is registered
    expect(page.locator("#push-toggle")).not_to_be_checked()
    page.click("#push-toggle")  # not check(): the page may untick it again before Playwright looks
    expect(page.locator("#push-status")).to_contain_text("push service cannot be reached", timeout=3 * WAIT)
    expect(page.locator("#push-toggle")).not_to_be_checked()
    assert api(page, "GET", "/api/me/push") == {"subscriptions": 0}
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.locator("#push-settings").screenshot(path=str(SHOTS / "push-toggle-en.png"))
    assert page.evaluate("navigator.serviceWorker.getRegistration('/').then((r) => !!(r && r.active))")

    page.select_option("select.lang", "zh-TW")
    expect(page.locator("#push-settings h2")).to_have_text("在這個瀏覽器通知我", timeout=WAIT)
    expect(page.locator("#push-toggle")).to_be_enabled(timeout=WAIT)
    page.click("#push-toggle")  # not check(): the page may untick it again before Playwright looks
    expect(page.locator("#push-status")).to_contain_text("無法連上這個瀏覽器的推播服務", timeout=3 * WAIT)
    page.locator("#push-settings").screenshot(path=str(SHOTS / "push-toggle-zh-TW.png"))
    ctx.close()
