"""Pocket Mars in a real browser: a whole game played by clicking, against a bot, on a real server.

Starts the server as a process (tests/server/srvkit.py) on a free 127.0.0.1 port with a temporary SQLite
database, creates a table with one human and one bot seat, opens the table page in Debian's chromium
(Playwright) and plays by clicking the renderer's cards, buildings and prompt buttons until the final
scores appear. Along the way it checks that every legal move is reachable on the board, that no card the
player has not seen appears anywhere on the page (the truth is rebuilt from the server's database), and
the phone layout (390×844, zh-TW). Screenshots go to artifacts/screenshots/ (gitignored).
"""

from __future__ import annotations

import json
import re
import sqlite3
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

ROOT = Path(__file__).resolve().parents[2]
CHROMIUM = Path("/usr/bin/chromium")
SHOTS = ROOT / "artifacts" / "screenshots"
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking"]

pytestmark = pytest.mark.browser

if not CHROMIUM.exists():
    pytest.skip(f"browser tests need Debian chromium at {CHROMIUM} (apt-get install chromium)", allow_module_level=True)
sync_api = pytest.importorskip("playwright.sync_api", reason="browser tests need the playwright package")

sys.path.insert(0, str(ROOT / "tests" / "server"))
from srvkit import Server, make_table  # noqa: E402

from boardlab.core.registry import get_game  # noqa: E402
from boardlab.games.pocket_mars.components import CARD_IDS  # noqa: E402

ROOT_JS = "document.querySelector('.pm-root')"


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Server, Path]]:
    tmp = tmp_path_factory.mktemp("web-pocket-mars")
    db = tmp / "boardlab.sqlite3"
    srv = Server(f"sqlite:///{db}", tmp / "server.log").start()
    try:
        yield srv, db
    finally:
        srv.stop()


def unseen_cards(db: Path, table: str, version: int, seat: int) -> tuple[set[str], set[str]]:
    """Rebuild the game from the server's database after `version` moves: the card ids `seat` may not
    know, and among them the cards in the other players' hands and prep modules."""
    con = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    try:
        seed, players, options = con.execute(
            "SELECT seed, players, options FROM bl_tables WHERE id = ?", (table,)).fetchone()
        rows = con.execute("SELECT seat, kind, text FROM bl_log WHERE table_id = ? AND n < ? ORDER BY n",
                           (table, version)).fetchall()
    finally:
        con.close()
    assert len(rows) == version and all(kind == "act" for _, kind, _ in rows)
    state: Any = get_game("pocket_mars").new_game(players, seed, **json.loads(options or "{}"))
    for s, _, text in rows:
        state.apply_text(text, s)
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


CANDIDATES_JS = """() => {
  const out = [];
  document.querySelectorAll('.pm-root [data-actions]')
    .forEach((e, i) => out.push({sel: 'target', i, acts: e.dataset.actions.split('|')}));
  document.querySelectorAll('.pm-root .pm-bar button[data-action]')
    .forEach((e, i) => out.push({sel: 'bar', i, acts: [e.dataset.action]}));
  const shell = [...document.querySelectorAll('#moves button[title]')].map((b) => b.title);
  return {out, shell};
}"""
MINE_OR_OVER_JS = f"() => {{ const r = {ROOT_JS}; return r && (r.dataset.mine === '1' || r.dataset.over === '1'); }}"


def wait_mine_or_over(page: Any) -> bool:
    page.wait_for_function(MINE_OR_OVER_JS, timeout=30_000)
    return page.eval_on_selector(".pm-root", "r => r.dataset.over") == "1"


def click_action(page: Any, cand: dict[str, Any], action: str) -> None:
    """Click the element that offers `action`; when it offers several, pick `action` in its menu."""
    version = page.eval_on_selector(".pm-root", "r => r.dataset.version")
    where = ".pm-root [data-actions]" if cand["sel"] == "target" else ".pm-root .pm-bar button[data-action]"
    several = len(cand["acts"]) > 1
    if not several or not page.locator(".pm-menu").count():
        page.locator(where).nth(cand["i"]).click()
    if several:
        page.locator(f'.pm-menu button[data-action="{action}"]').click()
    changed = f"() => {{ const r = {ROOT_JS}; return r && r.dataset.version !== '{version}'; }}"
    page.wait_for_function(changed, timeout=30_000)


def test_play_pocket_mars_by_clicking(server: tuple[Server, Path]) -> None:
    srv, db = server
    SHOTS.mkdir(parents=True, exist_ok=True)
    t0 = time.monotonic()
    with httpx.Client(base_url=srv.url, timeout=20) as c:
        table = make_table(c, game="pocket_mars", players=2,
                           seats=[{"kind": "human", "name": "Ada"}, {"kind": "bot", "bot": "greedy"}])
        tid, token, link = table["id"], table["seats"][0]["token"], table["seats"][0]["link"]
        with sync_api.sync_playwright() as p:
            browser = p.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
            try:
                play(browser, c, srv, db, tid, token, link)
            finally:
                browser.close()
    print(f"pocket mars browser game: {time.monotonic() - t0:.1f}s")


def play(browser: Any, c: httpx.Client, srv: Server, db: Path, tid: str, token: str, link: str) -> None:
    ctx = browser.new_context(viewport={"width": 1280, "height": 900})
    ctx.add_init_script("localStorage.setItem('boardlab:lang', 'en')")
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.goto(srv.url + link)
    page.wait_for_selector(".pm-root .pm-bldg")
    wait_mine_or_over(page)
    body = page.inner_text("body")
    assert "31 of 35 cards reconstructed" in body and "They are not the printed cards" in body
    assert page.locator(".pm-bldg").count() == 5 and page.locator(".pm-player").count() == 2
    assert page.locator(".pm-mine .pm-card").count() == 4  # the opening hand, faces up
    assert page.locator(".pm-mine .pm-prov").count() == 4  # each with its provenance badge
    page.screenshot(path=str(SHOTS / "pocket-mars-start.png"), full_page=True)

    decisions, turns, hidden_checked, mid_done = 0, 0, 0, False
    while True:
        if wait_mine_or_over(page):
            break
        assert decisions < 500, "the game does not end"
        info = page.evaluate(CANDIDATES_JS)
        reachable = {a for cand in info["out"] for a in cand["acts"]}
        assert reachable and set(info["shell"]) <= reachable, (info["shell"], reachable)
        options = [(priority(a, turns), k, a) for k, cand in enumerate(info["out"]) for a in cand["acts"]]
        is_turn = any(a == "launch" or a.split(" ")[0] in ("prep", "hand", "opp", "energy") for _, _, a in options)
        if decisions % 10 == 0:
            hidden_checked += check_no_leak(page, c, db, tid, token, 0)
        _, k, action = min(options)
        cand = info["out"][k]
        if not mid_done and decisions >= 20 and is_turn:
            # the mid-game picture: a hand card's menu open (play it, or discard it for energy)
            multi = [(k2, cd) for k2, cd in enumerate(info["out"]) if cd["sel"] == "target" and len(cd["acts"]) > 1]
            if multi:
                k, cand = multi[0]
                action = min(cand["acts"], key=lambda a: priority(a, turns))
                page.locator(".pm-root [data-actions]").nth(cand["i"]).click()
                page.wait_for_selector(".pm-menu button[data-action]")
            page.screenshot(path=str(SHOTS / "pocket-mars-mid.png"), full_page=True)
            phone(browser, srv, link)
            mid_done = True
        click_action(page, cand, action)
        decisions += 1
        turns += is_turn

    page.wait_for_selector("#end:not([hidden]) .scores table")
    assert page.locator(".pm-final").count() == 1
    assert page.locator("#end .scores th").filter(has_text="★★ colonists").count() == 1  # scoreLabel
    hidden_checked += check_no_leak(page, c, db, tid, token, 0)
    assert hidden_checked > 0, "the check never met a hidden card"
    assert mid_done
    page.screenshot(path=str(SHOTS / "pocket-mars-end.png"), full_page=True)
    assert not errors, errors
    ctx.close()


def phone(browser: Any, srv: Server, link: str) -> None:
    """The same seat on a 390×844 phone in Traditional Chinese: readable, nothing wider than the screen."""
    ctx = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
    ctx.add_init_script("localStorage.setItem('boardlab:lang', 'zh-TW')")
    try:
        page = ctx.new_page()
        page.goto(srv.url + link)
        page.wait_for_selector(".pm-root[lang='zh-TW'] .pm-bldg")
        body = page.inner_text("body")
        assert "準備艙" in body and "重建" in body and "生態建築" in body
        assert page.evaluate("document.documentElement.scrollWidth") <= 390
        page.screenshot(path=str(SHOTS / "pocket-mars-phone.png"))
        page.screenshot(path=str(SHOTS / "pocket-mars-phone-full.png"), full_page=True)
    finally:
        ctx.close()
