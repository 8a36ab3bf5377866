"""The status bar at the top of the table (issue #31): whose turn, what you are asked, the answers, Undo and
Confirm where the table allows them, in a real browser on a real server.

Undo used to sit at the bottom of the page, below the board and the move list; what the seat was asked was only
inside each game's drawing. Hot-seat tables (both seats held by the page) need no bot to wait for."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from kit import ROOT, Server, chromium, desktop_page, make_table, phone_page, running_server  # noqa: F401

pytestmark = pytest.mark.browser
HUMANS = [{"kind": "human", "name": "Ada"}, {"kind": "human", "name": "Bo"}]


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    with running_server(tmp_path_factory, "web-statusbar") as srv:
        yield srv


def hot_seat(srv: Server, game: str) -> str:
    with httpx.Client(base_url=srv.url, timeout=20) as c:
        return str(make_table(c, game=game, players=2, seats=HUMANS)["hotseat_link"])


def version(page: Any) -> str:
    return str(page.get_attribute("#board", "data-version"))


def wait_after(page: Any, v: str) -> None:
    page.wait_for_function(f"() => document.getElementById('board').dataset.version !== '{v}'")


def test_the_bar_is_on_top_with_the_answers_and_undo(server: Server, browser: Any) -> None:
    with httpx.Client(base_url=server.url, timeout=20) as c:
        t = make_table(c, game="tally", players=2, seats=HUMANS)
        # the first seat hides both cards it was dealt: then it is asked add 1, add 2, draw or end (four answers)
        tok = {"Authorization": f"Bearer {t['seats'][0]['token']}"}
        for _ in range(2):
            s = c.get(f"/api/tables/{t['id']}", headers=tok).json()
            hide = next(m["action"] for m in s["legal"] if m["action"].startswith("hide"))
            assert c.post(f"/api/tables/{t['id']}/actions", json={"move": s["log_len"], "action": hide},
                          headers=tok).status_code == 200
        legal = [m["action"] for m in c.get(f"/api/tables/{t['id']}", headers=tok).json()["legal"]]
    ctx, page, errors = desktop_page(browser, server.url + t["hotseat_link"])
    try:
        page.wait_for_selector("#answers button[data-action=add2]")
        assert page.eval_on_selector_all("#answers button", "bs => bs.map((b) => b.dataset.action)") == legal
        page.wait_for_selector("#answers button[data-action=add2]")
        bar, board = page.locator("#statusbar").bounding_box(), page.locator("#board").bounding_box()
        assert bar and board and bar["y"] + bar["height"] <= board["y"] + 1
        assert "Your turn" in page.inner_text("#statusbar #status")
        v = version(page)
        page.click("#answers button[data-action=add2]")
        wait_after(page, v)
        # Undo is in the bar now, and takes the move back
        undo = page.locator("#statusbar #undo")
        undo.wait_for(state="visible")
        v = version(page)
        undo.click()
        wait_after(page, v)
        page.wait_for_selector("#answers button[data-action=add2]")
        assert not errors, errors
    finally:
        ctx.close()


def test_the_bar_says_what_is_asked_and_stays_in_view_on_a_phone(server: Server, browser: Any) -> None:
    link = hot_seat(server, "cooper_island")
    terms = json.loads((ROOT / "src/boardlab/games/cooper_island/terms.json").read_text("utf-8"))
    with httpx.Client(base_url=server.url, timeout=20) as c:
        table = link.split("/t/")[1].split("#")[0]
        step = c.get(f"/api/tables/{table}").json()["view"]["decision"]["step"]
    ctx, page, errors = desktop_page(browser, server.url + link)
    try:
        page.wait_for_selector(".ci-root")
        page.wait_for_function("() => document.getElementById('asked').textContent !== ''")
        assert page.inner_text("#asked") == terms["en"][f"step_{step}"]
        assert not errors, errors
    finally:
        ctx.close()
    with phone_page(browser, server.url + link) as phone:
        phone.wait_for_selector(".ci-root")
        phone.wait_for_function("() => document.getElementById('asked').textContent !== ''")
        assert phone.inner_text("#asked") == terms["zh-TW"][f"step_{step}"]
        phone.mouse.wheel(0, 2500)
        phone.wait_for_function("() => window.scrollY > 1000")
        box = phone.locator("#statusbar").bounding_box()
        assert box and 0 <= box["y"] < 10, box  # sticky: still at the top of the screen


def test_confirm_in_the_bar_plays_the_placement_chosen_on_the_board(server: Server, browser: Any) -> None:
    ctx, page, errors = desktop_page(browser, server.url + hot_seat(server, "cacao"))
    try:
        page.wait_for_selector(".cc-root[data-mine='1']")
        assert page.locator("#confirm-move").is_hidden()
        page.locator(".cc-hand-tile:not([disabled])").first.click()
        page.locator(".cc-spot").first.click()
        confirm = page.locator("#statusbar #confirm-move")
        confirm.wait_for(state="visible")
        v = version(page)
        confirm.click()
        wait_after(page, v)
        assert page.locator("#confirm-move").is_hidden()
        assert not errors, errors
    finally:
        ctx.close()
