"""Issue #34, "phone": on a narrow screen the table page keeps its side panels (Seats, the players' and the
spectators' chat, the Log) in a drawer behind a tab bar at the bottom, so the page is the board and what decides
a move; new chat lines from others count on the Chat tab until it is opened. A wide screen is as it was.

Real Chromium against a real server, at 390×844 (the issue's phone) and 1280×900.

The height bound: before, the stacked panels put ~970-990 px under the board (Pocket Mars 2,755 px for a 1,783 px
board at its first move; Cacao 2,084 px for 1,095 px), and the Log grows that by up to 320 px. The boards
themselves are 1.1-2.2 screens tall on a phone (each game's renderer, not this page), so "1.5 screens" cannot
hold for the whole page; what the page itself adds can: the header, the status bar, the moves and hint box and room
for the tab bar, at most 0.6 of a screen (506 px) beyond the board's own height, whatever the log and chat hold.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from kit import SHOTS, Server, chromium, desktop_page, make_table, phone_page, running_server  # noqa: F401
from playwright.sync_api import expect

pytestmark = pytest.mark.browser
GAMES = ["pocket_mars", "cacao", "block_and_key", "petrichor", "cooper_island"]
PHONE_H = 844
AROUND_BOARD = 0.6 * PHONE_H  # what the page may add to the board's height on a phone (see the module's text)
WAIT = 20_000
ADA_BO = [{"kind": "human", "name": "Ada"}, {"kind": "human", "name": "Bo"}]


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    with running_server(tmp_path_factory, "web-phone-panels") as srv:
        yield srv


def two_people(srv: Server, game: str, move: bool = False) -> tuple[str, str, str]:
    """A table of Ada and Bo: (table id, Ada's page link, Bo's token); with `move`, one move is played (a log line)."""
    with httpx.Client(base_url=srv.url, timeout=20) as c:
        t = make_table(c, game=game, players=2, seats=ADA_BO)
        if move:  # whoever starts (the games draw the first player) plays a move
            auths = [{"Authorization": f"Bearer {seat['token']}"} for seat in t["seats"]]
            s = c.get(f"/api/tables/{t['id']}", headers=auths[0]).json()
            auth = auths[s["current"]]
            legal = c.get(f"/api/tables/{t['id']}", headers=auth).json()["legal"]
            r = c.post(f"/api/tables/{t['id']}/actions", json={"move": s["log_len"], "action": legal[0]["action"]},
                       headers=auth)
            assert r.status_code == 200, r.text
    return str(t["id"]), str(t["seats"][0]["link"]), str(t["seats"][1]["token"])


def bo_says(srv: Server, tid: str, token: str, text: str) -> None:
    r = httpx.post(f"{srv.url}/api/tables/{tid}/chat", json={"text": text},
                   headers={"Authorization": f"Bearer {token}"}, timeout=20)
    assert r.status_code == 200, r.text


def ready(page: Any) -> None:
    """The page has its first state drawn and its chat panels built (the WebSocket gets the pushes from now on)."""
    page.wait_for_function("() => document.getElementById('board').dataset.version !== undefined"
                           " && document.getElementById('chat-box') && document.getElementById('spec-chat-box')",
                           timeout=WAIT)


def box(page: Any, sel: str) -> dict[str, float]:
    b = page.locator(sel).bounding_box()
    assert b, sel
    return dict(b)


@pytest.mark.parametrize("game", GAMES)
def test_a_phone_shows_the_board_and_keeps_the_panels_behind_tabs(server: Server, browser: Any, game: str) -> None:
    tid, link, bo = two_people(server, game)
    bo_says(server, tid, bo, "hi")
    with phone_page(browser, server.url + link) as page:  # Traditional Chinese
        ready(page)
        expect(page.locator("#chat-list .chat-text")).to_have_text(["hi"], timeout=WAIT)  # in the page, out of sight
        for sel in ("#seats", "#chat-box", "#spec-chat-box", "#log", "#chat-input"):
            expect(page.locator(sel)).to_be_hidden()
        tabs = page.locator("#panel-tabs [data-tab]")
        expect(page.locator("#panel-tabs [data-tab] > [data-t]")).to_have_text(["座位", "聊天", "紀錄"])
        bar = box(page, "#panel-tabs")
        assert bar["y"] + bar["height"] == PHONE_H and bar["width"] == 390, bar  # along the bottom of the screen
        height = page.evaluate("document.documentElement.scrollHeight")
        board = box(page, "#board")["height"]
        assert height <= board + AROUND_BOARD, (game, height, board)
        assert page.evaluate("document.documentElement.scrollWidth") <= 390
        SHOTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(SHOTS / f"phone-panels-{game}.png"), full_page=True)
        tabs.nth(1).tap()
        expect(page.locator("#chat-input")).to_be_visible()
        page.screenshot(path=str(SHOTS / f"phone-panels-{game}-chat.png"))


@pytest.mark.parametrize("game", ["pocket_mars", "cacao"])
def test_the_tabs_open_the_log_and_the_chat_and_count_unread_lines(server: Server, browser: Any, game: str) -> None:
    tid, link, bo = two_people(server, game, move=True)
    with phone_page(browser, server.url + link, lang="en") as page:
        ready(page)
        log_tab, chat_tab = page.locator("#panel-tabs [data-tab=log]"), page.locator("#panel-tabs [data-tab=chat]")
        badge = page.locator("#chat-unread")
        expect(badge).to_be_hidden()
        log_tab.tap()
        expect(page.locator("#log li")).to_have_count(1, timeout=WAIT)
        expect(page.locator("#log li").first).to_be_visible()
        expect(page.locator("#chat-input")).to_be_hidden()
        log_tab.tap()  # the open tab closes its drawer
        expect(page.locator("#log")).to_be_hidden()
        bo_says(server, tid, bo, "your move, Ada")
        expect(badge).to_have_text("1", timeout=WAIT)
        expect(badge).to_have_attribute("title", "1 new chat message")
        bo_says(server, tid, bo, "still there?")
        expect(badge).to_have_text("2", timeout=WAIT)
        expect(badge).to_have_attribute("title", "2 new chat messages")
        log_tab.tap()  # another panel does not count as reading the chat
        expect(badge).to_have_text("2")
        chat_tab.tap()
        expect(page.locator("#chat-input")).to_be_visible()
        expect(page.locator("#log")).to_be_hidden()
        expect(badge).to_be_hidden()
        expect(page.locator("#chat-list .chat-text")).to_have_text(["your move, Ada", "still there?"])
        expect(page.locator("#spec-chat-box")).to_be_visible()  # both channels are under Chat
        bo_says(server, tid, bo, "ok")  # read as it comes: the chat is open
        expect(page.locator("#chat-list .chat-text")).to_have_count(3, timeout=WAIT)
        page.fill("#chat-input", "here")
        page.locator("#chat-box button[type=submit]").tap()
        expect(page.locator("#chat-list .chat-text")).to_have_count(4, timeout=WAIT)
        page.locator("#panel-tabs [data-tab=seats]").tap()
        expect(page.locator("#seats")).to_be_visible()
        expect(page.locator("#chat-input")).to_be_hidden()
        expect(badge).to_be_hidden()  # the page's own line is not unread
        bo_says(server, tid, bo, "gg")
        expect(badge).to_have_text("1", timeout=WAIT)


def test_a_wide_screen_has_no_tabs_and_the_panels_beside_the_board(server: Server, browser: Any) -> None:
    tid, link, bo = two_people(server, "cacao", move=True)
    ctx, page, errors = desktop_page(browser, server.url + link)
    try:
        ready(page)
        expect(page.locator("#panel-tabs")).to_be_hidden()
        for sel in ("#seats", "#chat-input", "#spec-chat-box", "#log li"):
            expect(page.locator(sel).first).to_be_visible(timeout=WAIT)
        board, seats, chat, log = (box(page, s) for s in ("#board", "#seats", "#chat-box", "#log"))
        for b in (seats, chat, log):  # the right-hand column, top to bottom: seats, chat, log
            assert b["x"] >= board["x"] + board["width"], b
        assert seats["y"] < chat["y"] < log["y"]
        bo_says(server, tid, bo, "hello")
        expect(page.locator("#chat-list .chat-text")).to_have_text(["hello"], timeout=WAIT)
        expect(page.locator("#chat-unread")).to_be_hidden()
        assert not errors, errors
    finally:
        ctx.close()


def test_the_seats_tab_shows_the_running_clock(server: Server, browser: Any) -> None:
    """With the seats in the drawer, a phone still sees the clock run: the running one rides on the Seats tab."""
    with httpx.Client(base_url=server.url, timeout=20) as c:
        r = c.post("/api/site/tables", json={"game": "cacao", "players": 2, "seats": ADA_BO, "clock": "slow"})
        assert r.status_code == 201, r.text
        body = r.json()
    token = next(s["token"] for s in body["seats"] if s["seat"] == 0)
    with phone_page(browser, f"{server.url}/t/{body['id']}#s={token}", lang="en") as page:
        ready(page)
        on_tab = page.locator("#panel-tabs [data-tab=seats] .badge.clock.running")
        expect(on_tab).to_be_visible(timeout=WAIT)
        expect(on_tab).to_have_text(re.compile(r"^\d+:\d\d$"))
        SHOTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(SHOTS / "phone-panels-clock.png"))
        expect(page.locator("#seats .badge.clock.running")).to_be_hidden()
        page.locator("#panel-tabs [data-tab=seats]").tap()
        expect(page.locator("#seats .badge.clock.running")).to_be_visible()


def test_the_seats_tab_is_marked_when_a_seat_action_waits(server: Server, browser: Any) -> None:
    """Ada let a bot play her seat: "Take back" waits in the drawer, and the Seats tab says so until she does."""
    _, link, _ = two_people(server, "cacao")
    with phone_page(browser, server.url + link) as page:  # Traditional Chinese
        ready(page)
        mark = page.locator("#seats-attention")
        expect(mark).to_be_hidden()
        page.locator("#panel-tabs [data-tab=seats]").tap()
        page.locator("#leave").tap()
        page.locator("#confirm-yes").tap()
        expect(page.locator("#take-back")).to_be_visible(timeout=WAIT)
        page.locator("#panel-tabs [data-tab=seats]").tap()  # the drawer closed: the tab keeps it in sight
        expect(mark).to_be_visible()
        expect(mark).to_have_attribute("title", "這裡有事等你處理")
        page.screenshot(path=str(SHOTS / "phone-panels-take-back.png"))
        page.locator("#panel-tabs [data-tab=seats]").tap()
        page.locator("#take-back").tap()
        expect(page.locator("#leave")).to_be_visible(timeout=WAIT)
        expect(mark).to_be_hidden()
