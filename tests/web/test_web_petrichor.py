"""Petrichor in a real browser: a whole game played by clicking, against a bot, on a real server.

Starts the server as a process (tests/server/srvkit.py) on a free 127.0.0.1 port with a temporary SQLite
database, creates a table with one human and one greedy bot, opens the table page in Debian's chromium
(Playwright) and plays by clicking the field cells, hand cards, the vote board, the harvest dice and the
prompt's buttons until the final scores appear. Along the way it checks that every legal move is reachable
on the board, that the opponent's hand is never on the page (only its size), that the field drawing matches
the server's state, and the phone layout (390×844, zh-TW). Screenshots go to artifacts/screenshots/.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from kit import SHOTS, Board, Server, chromium, desktop_page, human_vs_bot, phone_page, running_server  # noqa: F401

pytestmark = pytest.mark.browser
BOARD = Board("pt")


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    with running_server(tmp_path_factory, "web-petrichor") as srv:
        yield srv


def priority(action: str, plays: int) -> int:
    """The clicking player: plays a few cards each round (votes, dice, actions), then passes."""
    kind = action.split(" ")[0]
    if kind in ("cloud", "frost", "sun", "wind", "rain", "shine", "blow", "reclaim", "choose", "pay", "discard"):
        return 1
    if kind == "die":
        return 2 if plays % 2 else 4  # every other vote advances a harvest die
    if kind == "vote":
        return 3
    if kind == "play":
        return 5 if plays % 5 != 4 else 9
    if kind in ("end", "done", "skip"):
        return 6
    if kind in ("again", "again4", "play2"):
        return 8
    if kind == "pass":
        return 7
    return 6  # pragma: no cover - every kind is listed above


def check_page(page: Any, c: httpx.Client, tid: str, token: str) -> None:
    """The drawing matches the seat's state: one hand (ours), the opponent's only as a count, the drops."""
    state = c.get(f"/api/tables/{tid}", headers={"Authorization": f"Bearer {token}"}).json()
    view = state["view"]
    assert view["hand"] is not None and "hands" not in view
    assert page.locator(".pt-hand .pt-card").count() == 4
    shown = [int(page.locator(f'.pt-card[data-card="{x}"] .pt-ccount').inner_text().strip("×")) for x in "FSWR"]
    if int(page.eval_on_selector(".pt-root", "r => r.dataset.version")) == state["version"]:
        assert shown == view["hand"]
        drops = sum(sum(cell["drops"]) for cell in view["cells"])
        drops += sum(sum(cell["cloud"]["drops"]) for cell in view["cells"] if cell["cloud"])
        assert page.locator(".pt-field .pt-drop").count() == drops
        assert page.locator(".pt-cloud").count() == sum(1 for cell in view["cells"] if cell["cloud"])


def test_play_petrichor_by_clicking(server: Server, browser: Any) -> None:
    srv = server
    SHOTS.mkdir(parents=True, exist_ok=True)
    t0 = time.monotonic()
    with httpx.Client(base_url=srv.url, timeout=20) as c:
        table = human_vs_bot(c, "petrichor")
        tid, token, link = table["id"], table["seats"][0]["token"], table["seats"][0]["link"]
        play(browser, c, srv, tid, token, link)
    print(f"petrichor browser game: {time.monotonic() - t0:.1f}s")


def play(browser: Any, c: httpx.Client, srv: Server, tid: str, token: str, link: str) -> None:
    ctx, page, errors = desktop_page(browser, srv.url + link)
    page.wait_for_selector(".pt-root .pt-cell")
    BOARD.wait_mine_or_over(page)
    body = page.inner_text("body")
    assert "Reconstructed for boardlab" in body and "sprout threshold" in body
    assert page.locator(".pt-cell").count() == 9 and page.locator(".pt-weather").count() == 4
    assert page.locator(".pt-die").count() == 3 and page.locator(".pt-player").count() == 2
    assert "(◇ reconstructed)" in page.locator(".pt-cell title").first.text_content()  # the tile's threshold
    page.screenshot(path=str(SHOTS / "petrichor-start.png"), full_page=True)

    decisions, plays, mid_done, kinds = 0, 0, False, set()
    while True:
        if BOARD.wait_mine_or_over(page):
            break
        assert decisions < 600, "the game does not end"
        info = BOARD.candidates(page)
        options = [(priority(a, plays), k, a) for k, cand in enumerate(info["out"]) for a in cand["acts"]]
        _, k, action = min(options)
        if decisions % 8 == 0:
            check_page(page, c, tid, token)
        if not mid_done and decisions >= 12:
            page.screenshot(path=str(SHOTS / "petrichor-mid.png"), full_page=True)
            phone(browser, srv, link)
            mid_done = True
        BOARD.click_action(page, info["out"][k], action, dispatch=True)
        kinds.add(action.split(" ")[0])
        decisions += 1
        plays += action.startswith("play ")

    page.wait_for_selector("#end:not([hidden]) .scores table")
    assert page.locator("#end .scores th").filter(has_text="voting wins").count() == 1  # scoreLabel
    assert {"cloud", "play", "vote"} <= kinds, kinds
    assert mid_done
    # the event log in words: the last events of the game (which kinds they are depends on the deal: the
    # table seed is random), every one rendered through the vocabulary, none as raw JSON
    events = page.locator(".pt-log .pt-ev").all_inner_texts()
    assert events and not any(e.startswith("[") for e in events), events
    page.screenshot(path=str(SHOTS / "petrichor-end.png"), full_page=True)
    assert not errors, errors
    ctx.close()


def phone(browser: Any, srv: Server, link: str) -> None:
    """The same seat on a 390×844 phone in Traditional Chinese: readable, nothing wider than the screen."""
    with phone_page(browser, srv.url + link) as page:
        page.wait_for_selector(".pt-root[lang='zh-TW'] .pt-cell")
        body = page.inner_text("body")
        assert "霜寒" in body and "重建" in body and "投票板" in body and "收穫骰" in body
        assert page.evaluate("document.documentElement.scrollWidth") <= 390
        page.screenshot(path=str(SHOTS / "petrichor-phone.png"), full_page=True)
