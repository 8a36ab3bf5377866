"""Block and Key in a real browser: a whole game played by clicking, against a bot, on a real server.

Starts the server as a process (tests/server/srvkit.py) with a temporary SQLite database, creates a table with one
human and one bot seat, opens the table page in Debian's chromium (Playwright) and plays by clicking the renderer:
dig buttons, a block of the supply, a highlighted floor cell, "next" to cycle the placements over that cell (with a
preview drawn in the temple) and "place"; altars and returns are prompt buttons. Along the way it checks that every
legal move is reachable on the board, that no key card of the bot's hand appears on the page (the truth is rebuilt
from the server's database) and, in Traditional Chinese on a phone, that the page is readable and says that the
components are a reconstruction. Screenshots go to artifacts/screenshots/ (gitignored).
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from kit import (  # noqa: F401  (chromium: the `browser` fixture)
    SHOTS,
    Board,
    Server,
    chromium,
    desktop_page,
    human_vs_bot,
    phone_page,
    replay_from_db,
    running_server,
    sqlite_path,
)

pytestmark = pytest.mark.browser
BOARD = Board("bk", timeout_ms=60_000)


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Server, Path]]:
    with running_server(tmp_path_factory, "web-block-and-key") as srv:
        yield srv, sqlite_path(srv)


def bot_hand(db: Path, table: str, version: int) -> set[str]:
    """Replay the table from the server's database: the key cards in the bot's (seat 1) hand."""
    state = replay_from_db(db, table, version)
    return {state.comp.keys[k].id for k in state.hands[1]}


STATE_JS = """() => {
  const root = document.querySelector('.bk-root');
  return {
    bar: [...root.querySelectorAll('.bk-bar button[data-action]')].map((b) => b.dataset.action),
    digs: [...root.querySelectorAll('.bk-dig[data-action]')].map((b) => b.dataset.action),
    can: [...root.querySelectorAll('.bk-mine .bk-block.bk-can')].map((b) => b.dataset.block),
    shell: [...document.querySelectorAll('#moves button[title]')].map((b) => b.title),
    phase: root.dataset.phase,
  };
}"""


def test_play_block_and_key_by_clicking(server: tuple[Server, Path], browser: Any) -> None:
    srv, db = server
    SHOTS.mkdir(parents=True, exist_ok=True)
    t0 = time.monotonic()
    with httpx.Client(base_url=srv.url, timeout=20) as c:
        table = human_vs_bot(c, "block_and_key", bot="random")
        tid, link = table["id"], table["seats"][0]["link"]
        play(browser, srv, db, tid, link)
        phone(browser, srv, link)
    print(f"block and key browser game: {time.monotonic() - t0:.1f}s")


def play(browser: Any, srv: Server, db: Path, tid: str, link: str) -> None:
    ctx, page, errors = desktop_page(browser, srv.url + link)
    page.wait_for_selector(".bk-root .bk-iso")
    assert "reconstruction" in page.inner_text("#bk-provenance")
    assert page.locator(".bk-view").count() == 5 and page.locator(".bk-own").count() == 1
    assert page.locator(".bk-mine .bk-hand .bk-key").count() == 4  # the opening hand with its patterns
    page.screenshot(path=str(SHOTS / "block-and-key-start.png"), full_page=True)

    decisions = placed = cycled = leak_checks = 0
    while not BOARD.wait_mine_or_over(page):
        assert decisions < 400, "the game does not end"
        info = page.evaluate(STATE_JS)
        shell = set(info["shell"])
        placeable = {a.split(" ")[1] for a in shell if a.startswith("place ")}
        assert set(info["can"]) == placeable, (info["can"], placeable)
        assert {a for a in shell if not a.startswith(("place ", "ancients "))} <= set(info["bar"]) | set(info["digs"])
        if decisions % 8 == 0:
            version = int(page.eval_on_selector(".bk-root", "r => r.dataset.version"))
            hidden = bot_hand(db, tid, version)
            text = page.inner_text(".bk-root") + page.inner_html(".bk-root")
            assert hidden and not any(f'"{k}"' in text or f">{k}<" in text for k in hidden), "bot's keys shown"
            leak_checks += 1
        if info["bar"]:
            BOARD.click_and_wait(page, page.locator(f'.bk-bar button[data-action="{info["bar"][0]}"]'))
        elif info["can"]:
            page.locator(f'.bk-mine .bk-block[data-block="{info["can"][0]}"]').click()
            page.locator(".bk-top .bk-target").first.click()
            page.wait_for_selector(".bk-go")
            if (decisions % 3 == 0 or not cycled) and page.locator(".bk-next").count():
                before = page.get_attribute(".bk-go", "data-action")
                page.locator(".bk-next").click()
                cycled += page.get_attribute(".bk-go", "data-action") != before
                assert page.locator(".bk-iso .bk-preview").count() > 0
                if placed == 2:
                    page.screenshot(path=str(SHOTS / "block-and-key-preview.png"), full_page=True)
            action = page.get_attribute(".bk-go", "data-action")
            assert action in shell
            BOARD.click_and_wait(page, page.locator(".bk-go"))
            placed += 1
        else:
            BOARD.click_and_wait(page, page.locator(f'.bk-dig[data-action="{info["digs"][0]}"]'))
        decisions += 1

    page.wait_for_selector("#end:not([hidden]) .scores table")
    assert placed >= 5 and cycled >= 1 and leak_checks >= 2
    assert page.locator("#end .scores th").filter(has_text="Enigma").count() == 1
    page.locator(".bk-turn").click()  # the temple turns
    page.screenshot(path=str(SHOTS / "block-and-key-end.png"), full_page=True)
    assert not errors, errors
    ctx.close()


def phone(browser: Any, srv: Server, link: str) -> None:
    """The same seat on a 390x844 phone in Traditional Chinese."""
    with phone_page(browser, srv.url + link) as page:
        page.wait_for_selector(".bk-root[lang='zh-TW'] .bk-iso")
        body = page.inner_text("body")
        assert "神廟" in body and "重建" in body and "挖掘現場" in body and "謎之卡" in body
        page.screenshot(path=str(SHOTS / "block-and-key-phone.png"), full_page=True)
