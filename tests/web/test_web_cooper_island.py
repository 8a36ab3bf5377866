"""Cooper Island in a real browser: a whole 2-player game against a greedy bot, played by clicking.

Starts the server as a process (tests/server/srvkit.py) on a free 127.0.0.1 port with a temporary SQLite
database, opens the table page in Debian's chromium (Playwright) and plays by clicking the renderer's
spaces, hexes, beaches, ships, tiles and prompt buttons until the final scores appear. Along the way it
checks that every legal move is reachable from the drawing, that the page says what is reconstructed, and
the phone layout in Traditional Chinese. Screenshots go to artifacts/screenshots/ (gitignored).
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from kit import SHOTS, Board, Server, chromium, desktop_page, human_vs_bot, make_table, phone_page, running_server  # noqa: F401

pytestmark = pytest.mark.browser
BOARD = Board("ci")


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    with running_server(tmp_path_factory, "web-cooper-island") as srv:
        yield srv


def priority(action: str) -> int:
    """A simple clicking player that ends the game quickly: pay the cheapest way, take income actions and
    worker spaces, answer questions, then be done (free actions only when nothing else is offered)."""
    head = action.split(" ")[0]
    if action == "auto":
        return 0
    if head in ("islet", "tile", "at", "top", "card", "ship", "res", "cut", "boat", "build", "crate", "hire",
                "order", "draw", "place", "statue", "ruin", "isle", "useboat", "run"):
        return 1
    if head in tuple("ABCDEFGH"):
        return 2 if head in "CDE" else 3
    if head in ("done", "pass", "anchor", "skip"):
        return 4
    if head == "pay":
        return 5
    return 9


def test_play_cooper_island_by_clicking(server: Server, browser: Any) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    t0 = time.monotonic()
    with httpx.Client(base_url=server.url, timeout=20) as c:
        link = human_vs_bot(c, "cooper_island")["seats"][0]["link"]
        play(browser, server, link)
        phone(browser, server, link)
    print(f"cooper island browser game: {time.monotonic() - t0:.1f}s")


def play(browser: Any, srv: Server, link: str) -> None:
    ctx, page, errors = desktop_page(browser, srv.url + link)
    page.wait_for_selector(".ci-root .ci-space")
    BOARD.wait_mine_or_over(page)
    assert page.locator(".ci-space").count() == 8
    assert page.locator(".ci-player").count() == 2
    assert page.locator(".ci-hex").count() == 2 * 19
    assert page.locator(".ci-ship").count() == 4
    assert page.locator(".ci-sandbank").count() == 2 * 2  # beaches 4 and 9 of each peninsula (#33), drawn apart
    assert "RECONSTRUCTED" in page.inner_text("#ci-provenance")
    page.screenshot(path=str(SHOTS / "cooper-island-start.png"), full_page=True)
    decisions, kinds = 0, set()
    while not BOARD.wait_mine_or_over(page):
        assert decisions < 600, "the game does not end"
        info = BOARD.candidates(page)
        _, k, action = min((priority(a), k, a) for k, cand in enumerate(info["out"]) for a in cand["acts"])
        kinds.add(info["out"][k]["sel"] + ":" + action.split(" ")[0])
        if decisions == 40:
            page.screenshot(path=str(SHOTS / "cooper-island-mid.png"), full_page=True)
        BOARD.click_action(page, info["out"][k], action)
        decisions += 1
    # the drawing carried the moves: spaces, hexes and tiles were clicked on the board, not only buttons
    assert {"target:at", "target:tile"} <= kinds and any(k.startswith("target:") and k[7] in "ABCDEFGH" for k in kinds)
    page.wait_for_selector(".ci-final")
    assert "Final scores" in page.inner_text(".ci-final")
    assert "sailing" in page.inner_text(".ci-final")  # the ship points are named as such (#31), not "logs"
    page.screenshot(path=str(SHOTS / "cooper-island-end.png"), full_page=True)
    assert not errors, errors
    ctx.close()


def phone(browser: Any, srv: Server, link: str) -> None:
    """The same seat on a 390×844 phone in Traditional Chinese: the game's words, nothing wider than the screen."""
    with phone_page(browser, srv.url + link) as page:
        page.wait_for_selector(".ci-root[lang='zh-TW'] .ci-space")
        body = page.inner_text("body")
        assert "行動島" in body and "重建" in body and "環島航道" in body and "製圖師" in body
        assert page.evaluate("document.documentElement.scrollWidth") <= 390
        page.screenshot(path=str(SHOTS / "cooper-island-phone.png"), full_page=True)


def test_a_hex_menu_opens_beside_the_hex_and_tile_sides_are_previewed(server: Server, browser: Any) -> None:
    """#31: a click on a hex with several choices seemed to do nothing (the menu opened at the top of the board, off
    screen); the two sides of a double tile were offered as "side a" / "side b" with no picture of either."""
    with httpx.Client(base_url=server.url, timeout=20) as c:
        t = make_table(c, game="cooper_island", players=2, seats=[{"kind": "human"}, {"kind": "human"}])
        tokens = {x["seat"]: {"Authorization": f"Bearer {x['token']}"} for x in t["seats"]}
        seat = c.get(f"/api/tables/{t['id']}").json()["current"]
        s = c.get(f"/api/tables/{t['id']}", headers=tokens[seat]).json()
        # the income phase: an islet first, then the seat chooses a double tile's side or works a hex
        islet = next(m["action"] for m in s["legal"] if m["action"].startswith("islet"))
        assert c.post(f"/api/tables/{t['id']}/actions", json={"move": s["log_len"], "action": islet},
                      headers=tokens[seat]).status_code == 200
    ctx, page, errors = desktop_page(browser, server.url + t["hotseat_link"])
    try:
        page.set_viewport_size({"width": 1280, "height": 800})
        page.wait_for_selector(".ci-root[data-mine='1'] .ci-hex[data-actions*='|']")
        hexes = page.locator(f".ci-player[data-seat='{seat}'] .ci-hex[data-actions*='|']")
        hx = hexes.nth(hexes.count() - 1)  # the lowest: far below the top of the board
        hx.click()
        menu = page.locator(".ci-menu")
        menu.wait_for()
        h, m = hx.bounding_box(), menu.bounding_box()
        assert h and m
        beside = abs(m["y"] - (h["y"] + h["height"])) <= 8 or abs(m["y"] + m["height"] - h["y"]) <= 8
        assert beside and m["y"] >= 0 and m["y"] + m["height"] <= 800, (h, m)
        page.click(".ci-menu .ci-cancel")
        page.locator(".ci-tile[data-actions*='|']").first.click()
        sides = page.locator(".ci-menu button[data-action^='tile'] .ci-side")
        sides.first.wait_for()
        assert sides.count() == 2 and all(sides.nth(i).locator("i").count() == 2 for i in range(2))
        assert not errors, errors
    finally:
        ctx.close()
