"""Hints in a real browser (issue #31): on an unrated table the seat to move has a "Suggest a move" button that
asks the table's bot what it would play and says why in a sentence, and plays nothing; a rated table has no
button, and the server refuses a hint there (409 no_hints)."""

from __future__ import annotations

import secrets
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from kit import Server, chromium, desktop_page, human_vs_bot, running_server  # noqa: F401

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    with running_server(tmp_path_factory, "web-hints") as srv:
        yield srv


def test_an_unrated_table_suggests_a_move_and_says_why(server: Server, browser: Any) -> None:
    with httpx.Client(base_url=server.url, timeout=20) as c:
        table = human_vs_bot(c, "cacao", bot="greedy")
        tid, tok, link = table["id"], table["seats"][0]["token"], table["seats"][0]["link"]
        ctx, page, errors = desktop_page(browser, server.url + link)
        page.wait_for_selector("#hint")
        version = page.get_attribute("#board", "data-version")
        page.click("#hint")
        answer = page.wait_for_selector(".hint-answer[data-action]")
        text = answer.inner_text()
        assert text.startswith("The greedy bot suggests: ") and "Why: " in text, text
        st = c.get(f"/api/tables/{tid}", headers={"Authorization": f"Bearer {tok}"}).json()
        assert answer.get_attribute("data-action") in {m["action"] for m in st["legal"]}
        assert str(st["version"]) == version  # nothing was played
        # the same in Traditional Chinese, over the API
        r = c.post(f"/api/tables/{tid}/hint?lang=zh-TW", json={"move": st["version"]},
                   headers={"Authorization": f"Bearer {tok}"})
        assert r.status_code == 200 and r.json()["why"].startswith("理由：") and r.json()["bot"] == "greedy"
        assert not errors, errors
        ctx.close()


def test_a_rated_table_gives_no_hints(server: Server, browser: Any) -> None:
    with httpx.Client(base_url=server.url, timeout=20) as c:
        r = c.post("/api/account/signup", json={"name": f"h{secrets.token_hex(4)}", "password": "correct horse 1"})
        csrf = r.json()["user"]["csrf"]
        r = c.post("/api/site/tables", headers={"X-CSRF-Token": csrf}, json={
            "game": "cacao", "players": 2, "rated": True,
            "seats": [{"kind": "human"}, {"kind": "bot", "bot": "random"}]})
        assert r.status_code == 201, r.text
        tid, tok, link = r.json()["id"], r.json()["seats"][0]["token"], r.json()["seats"][0]["link"]
        st = c.get(f"/api/tables/{tid}", headers={"Authorization": f"Bearer {tok}"}).json()
        assert st["site"]["rated"] and st["legal"]
        h = c.post(f"/api/tables/{tid}/hint", json={"move": st["version"]}, headers={"Authorization": f"Bearer {tok}"})
        assert h.status_code == 409 and h.json()["error"] == "no_hints"
    ctx, page, errors = desktop_page(browser, server.url + link)
    page.wait_for_selector("#moves button", state="attached")  # our turn: moves drawn (the hint box with them)
    assert page.locator("#hint").count() == 0
    assert not errors, errors
    ctx.close()
