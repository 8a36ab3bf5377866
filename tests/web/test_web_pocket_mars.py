"""Pocket Mars in a real browser: a whole game played by clicking, against a bot, on a real server.

Starts the server as a process (tests/server/srvkit.py) on a free 127.0.0.1 port with a temporary SQLite
database, creates a table with one human and one bot seat, opens the table page in Debian's chromium
(Playwright) and plays by clicking the renderer's cards, buildings and prompt buttons until the final
scores appear. Along the way it checks that every legal move is reachable on the board, that no card the
player has not seen appears anywhere on the page (the truth is rebuilt from the server's database), and
the phone layout (390×844, zh-TW). Screenshots go to artifacts/screenshots/ (gitignored).
"""

from __future__ import annotations

import re
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

from boardlab.games.pocket_mars.components import CARD_IDS

pytestmark = pytest.mark.browser
BOARD = Board("pm")


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Server, Path]]:
    with running_server(tmp_path_factory, "web-pocket-mars") as srv:
        yield srv, sqlite_path(srv)


def unseen_cards(db: Path, table: str, version: int, seat: int) -> tuple[set[str], set[str]]:
    """Rebuild the game from the server's database after `version` moves: the card ids `seat` may not
    know, and among them the cards in the other players' hands and prep modules."""
    state = replay_from_db(db, table, version)
    unknown = {CARD_IDS[c] for c in range(len(CARD_IDS)) if not state.knows(seat, c)}
    others = {CARD_IDS[c] for q in range(state.nb) if q != seat for c in state.hands[q] + state.prep[q]}
    return unknown, unknown & others


SCAN_JS = """() => {
  const note = document.getElementById('pm-provenance');  // names the 4 official cards, on purpose
  const strip = (t) => (note ? t.replace(note.innerText, '').replace(note.innerHTML, '') : t);
  const cards = [...document.querySelectorAll('[data-card]')].map((e) => e.dataset.card + ' ' + e.innerText);
  return { text: strip(document.body.innerText) + ' | ' + strip(document.getElementById('board').innerHTML),
           cards: cards.join(' | ') };
}"""
CARD_RE = r"(?<![A-Za-z0-9])[GYBPK][1-7](?![0-9])"
PLAYER_TAGS = {"P1", "P2", "P3", "P4"}  # purple 1-4 share their names with the players


def check_no_leak(page: Any, c: httpx.Client, db: Path, table: str, token: str, seat: int) -> int:
    """No card `seat` has not seen appears in the page's text or the board's markup (tooltips, data
    attributes). Cards named earlier in this seat's own log were public once and may be mentioned there.
    P1-P4 are also player names: those four are looked for in the card markup only."""
    version = int(page.eval_on_selector(".pm-root", "r => r.dataset.version"))
    unknown, others = unseen_cards(db, table, version, seat)
    log = c.get(f"/api/tables/{table}/log", headers={"Authorization": f"Bearer {token}"}).json()["log"]
    named = set(re.findall(CARD_RE, " ".join(e["text"] or "" for e in log)))
    scan = page.evaluate(SCAN_JS)
    shown = (set(re.findall(CARD_RE, scan["text"])) - PLAYER_TAGS) | set(re.findall(CARD_RE, scan["cards"]))
    leaked = shown & (unknown - named)
    assert not leaked, f"hidden cards on the page: {sorted(leaked)}"
    assert set(re.findall(CARD_RE, scan["cards"])), "no card faces found: the scan looks at the wrong page"
    return len(others - named)


# The clicking player: greedy enough that the game ends in a reasonable number of rounds.
def priority(action: str, turn_no: int) -> int:
    if action == "do":
        return 0
    if action.startswith("place"):
        return 1
    if action == "launch":
        return 2 if turn_no % 2 == 0 else 5
    if action.startswith("prep "):
        return 3
    if action.startswith("shift") and " P1 up" in action:
        return 4
    if action.split(" ")[0] in ("ready", "discard", "keep", "take", "drop"):
        return 4
    if action.startswith("opp "):
        return 6
    if action.startswith("hand "):
        return 7
    if action.startswith("energy "):
        return 9
    if action in ("skip", "pass"):
        return 10
    return 8


def test_play_pocket_mars_by_clicking(server: tuple[Server, Path], browser: Any) -> None:
    srv, db = server
    SHOTS.mkdir(parents=True, exist_ok=True)
    t0 = time.monotonic()
    with httpx.Client(base_url=srv.url, timeout=20) as c:
        table = human_vs_bot(c, "pocket_mars")
        tid, token, link = table["id"], table["seats"][0]["token"], table["seats"][0]["link"]
        play(browser, c, srv, db, tid, token, link)
    print(f"pocket mars browser game: {time.monotonic() - t0:.1f}s")


def play(browser: Any, c: httpx.Client, srv: Server, db: Path, tid: str, token: str, link: str) -> None:
    ctx, page, errors = desktop_page(browser, srv.url + link)
    page.wait_for_selector(".pm-root .pm-bldg")
    BOARD.wait_mine_or_over(page)
    body = page.inner_text("body")
    assert "31 of 35 cards reconstructed" in body and "They are not the printed cards" in body
    assert page.locator(".pm-bldg").count() == 5 and page.locator(".pm-player").count() == 2
    assert page.locator(".pm-mine .pm-card").count() == 4  # the opening hand, faces up
    assert page.locator(".pm-mine .pm-prov").count() == 4  # each with its provenance badge
    page.screenshot(path=str(SHOTS / "pocket-mars-start.png"), full_page=True)

    decisions, turns, hidden_checked, mid_done = 0, 0, 0, False
    while True:
        if BOARD.wait_mine_or_over(page):
            break
        assert decisions < 500, "the game does not end"
        info = BOARD.candidates(page)
        options = [(priority(a, turns), k, a) for k, cand in enumerate(info["out"]) for a in cand["acts"]]
        is_turn = any(a == "launch" or a.split(" ")[0] in ("prep", "hand", "opp", "energy") for _, _, a in options)
        if decisions % 10 == 0:
            hidden_checked += check_no_leak(page, c, db, tid, token, 0)
        _, k, action = min(options)
        cand = info["out"][k]
        if not mid_done and turns >= 3 and is_turn:
            # the mid-game picture, on the fourth turn (the table's seed is random: a count of decisions is not
            # reached in every deal): a hand card's menu open (play it, or discard it for energy)
            multi = [(k2, cd) for k2, cd in enumerate(info["out"]) if cd["sel"] == "target" and len(cd["acts"]) > 1]
            if multi:
                k, cand = multi[0]
                action = min(cand["acts"], key=lambda a: priority(a, turns))
                page.locator(".pm-root [data-actions]").nth(cand["i"]).click()
                page.wait_for_selector(".pm-menu button[data-action]")
            page.screenshot(path=str(SHOTS / "pocket-mars-mid.png"), full_page=True)
            phone(browser, srv, link)
            mid_done = True
        BOARD.click_action(page, cand, action, keep_open_menu=True)
        decisions += 1
        turns += is_turn

    page.wait_for_selector("#end:not([hidden])")
    # the final scores by category in the end box at the top (#31), the renderer's own breakdown on the board too
    assert page.locator(".pm-final").count() == 1
    assert page.locator("#end .scores table").count() == 1
    final = page.inner_text(".pm-final")
    scores = c.get(f"/api/tables/{tid}", headers={"Authorization": f"Bearer {token}"}).json()["scores"]
    for sc in scores:
        assert f": {sc['total']}" in final and f"★★ {sc['breakdown']['star2']}" in final, (final, sc)
    hidden_checked += check_no_leak(page, c, db, tid, token, 0)
    assert hidden_checked > 0, "the check never met a hidden card"
    assert mid_done
    page.screenshot(path=str(SHOTS / "pocket-mars-end.png"), full_page=True)
    assert not errors, errors
    ctx.close()


def phone(browser: Any, srv: Server, link: str) -> None:
    """The same seat on a 390×844 phone in Traditional Chinese: readable, nothing wider than the screen."""
    with phone_page(browser, srv.url + link) as page:
        page.wait_for_selector(".pm-root[lang='zh-TW'] .pm-bldg")
        body = page.inner_text("body")
        assert "準備艙" in body and "重建" in body and "生態建築" in body
        assert page.evaluate("document.documentElement.scrollWidth") <= 390
        page.screenshot(path=str(SHOTS / "pocket-mars-phone.png"))
        page.screenshot(path=str(SHOTS / "pocket-mars-phone-full.png"), full_page=True)
