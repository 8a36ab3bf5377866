"""Issue #32: a table's chat history comes a page at a time, in real Chromium against a real server (pages of 2
here, 100 by default): the table page shows the newest page and an "Earlier messages" button that loads the
older ones above them, in both languages; the replay loads every page."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from kit import running_server
from test_web_site import WAIT, Errors, browser, errors, expect, new_page  # noqa: F401

pytestmark = [pytest.mark.browser]


@pytest.fixture(scope="module")
def paged(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with running_server(tmp_path_factory, "web-chat-pages", {"BOARDLAB_CHAT_PAGE": "2"}) as srv:
        yield srv.url


def _table_with_chat(url: str, n: int) -> tuple[str, dict[int, str]]:
    with httpx.Client(base_url=url, timeout=20) as c:
        seats = [{"kind": "human", "name": "Ann"}, {"kind": "human", "name": "Bo"}]
        body = c.post("/api/site/tables", json={"game": "tally", "players": 2, "seats": seats,
                                                "options": {"target": 2}}).json()
        tokens = {s["seat"]: s["token"] for s in body["seats"]}
        for i in range(n):
            r = c.post(f"/api/tables/{body['id']}/chat", json={"text": f"m{i}"},
                       headers={"Authorization": f"Bearer {tokens[i % 2]}"})
            assert r.status_code == 200, r.text
        return body["id"], tokens


def test_the_table_page_loads_older_chat_on_demand(paged: str, browser: Any, errors: Errors) -> None:  # noqa: F811
    tid, tokens = _table_with_chat(paged, 5)
    page = new_page(browser, errors)
    page.goto(f"{paged}/t/{tid}#s={tokens[0]}")
    lines = page.locator("#chat-list .chat-text")
    expect(lines).to_have_text(["m3", "m4"], timeout=WAIT)
    earlier = page.locator("#chat-earlier")
    expect(earlier).to_have_text("Earlier messages")
    earlier.click()
    expect(lines).to_have_text(["m1", "m2", "m3", "m4"], timeout=WAIT)
    earlier.click()
    expect(lines).to_have_text(["m0", "m1", "m2", "m3", "m4"], timeout=WAIT)
    expect(earlier).to_be_hidden()
    zh = new_page(browser, errors)
    zh.add_init_script("localStorage.setItem('boardlab:lang', 'zh-TW')")
    zh.goto(f"{paged}/t/{tid}#s={tokens[1]}")
    expect(zh.locator("#chat-earlier")).to_have_text("較早的訊息", timeout=WAIT)


def test_the_replay_shows_every_page_of_the_chat(paged: str, browser: Any, errors: Errors) -> None:  # noqa: F811
    tid, tokens = _table_with_chat(paged, 5)
    with httpx.Client(base_url=paged, timeout=20) as c:
        r = c.post(f"/api/tables/{tid}/actions", json={"move": 0, "action": "add2"},
                   headers={"Authorization": f"Bearer {tokens[0]}"})
        assert r.json()["over"], r.text
    page = new_page(browser, errors)
    page.goto(f"{paged}/r/{tid}")
    expect(page.locator("#replay-chat .chat-text")).to_have_text([f"m{i}" for i in range(5)], timeout=WAIT)
