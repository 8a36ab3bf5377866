"""What the screenshots of benchmarks/screenshots.py showed (issue #31), each fixed and checked here in Chromium.

The game-over box on a phone must fit the screen. The box's score table has a column per scoring category; on
a 390 px phone its width (Cacao: 439 px, Pocket Mars: 659, Cooper Island: 683) widened the whole page, so the board,
the log and the box itself were cut off at the right and the page scrolled sideways. The table now scrolls inside its
box. A hot-seat Cacao table is played to its end through the API (random legal moves, no bot to wait for), then the
first seat's page is opened on a phone. Equal top totals named a winner with no reason: the tie-break is shown.

Petrichor's log and its "what happened" panel name field tiles by coordinate ("harvest of C3", "B3 sprouts"), but
the tiles showed no coordinate; and at the end an empty question box was left as a bare grey bar. Block and Key
named your Enigma colour by its code, framed your side's projection in a box stretched far below it, and its dig
buttons read "dig r1" (the notation) for "dig row 1"."""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from kit import ROOT, Server, chromium, make_table, phone_page, running_server  # noqa: F401

pytestmark = pytest.mark.browser
HUMANS = [{"kind": "human", "name": "Ada"}, {"kind": "human", "name": "Bo"}]


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    with running_server(tmp_path_factory, "web-screenshot-fixes") as srv:
        yield srv


def finished_table(srv: Server, game: str, seed: int = 3) -> str:
    """A hot-seat table of `game` played to its end with random legal moves; the first seat's link."""
    rng = random.Random(seed)
    with httpx.Client(base_url=srv.url, timeout=20) as c:
        t = make_table(c, game=game, players=2, seats=HUMANS)
        tokens = {x["seat"]: {"Authorization": f"Bearer {x['token']}"} for x in t["seats"]}
        for _ in range(2000):
            seat = c.get(f"/api/tables/{t['id']}").json()["current"]
            if seat is None:
                break
            s = c.get(f"/api/tables/{t['id']}", headers=tokens[seat]).json()
            if s["over"]:
                break
            action = rng.choice(s["legal"])["action"]
            r = c.post(f"/api/tables/{t['id']}/actions", json={"move": s["log_len"], "action": action},
                       headers=tokens[seat])
            assert r.status_code == 200, r.text
        assert c.get(f"/api/tables/{t['id']}").json()["over"]
        return str(t["seats"][0]["link"])


def test_the_game_over_box_fits_a_phone(server: Server, browser: Any) -> None:
    link = finished_table(server, "cacao")
    with phone_page(browser, server.url + link, lang="en") as page:
        page.wait_for_selector("#end:not([hidden]) .scores table")
        assert page.locator("#end .scores th").count() >= 6  # seat, the four categories, total: 439 px before
        assert page.evaluate("document.documentElement.scrollWidth") <= 390
        box = page.locator("#end").bounding_box()
        assert box and box["x"] >= 0 and box["x"] + box["width"] <= 390
        # the whole table is still there: where it is wider than the box it scrolls inside it, to its Total column
        scroller = page.locator("#end .scores")
        assert scroller.evaluate("e => getComputedStyle(e).overflowX") == "auto"
        scroller.evaluate("e => { e.scrollLeft = e.scrollWidth; }")
        total = page.locator("#end .scores th").last
        assert total.inner_text() == "Total"
        edge = total.bounding_box()
        assert edge and edge["x"] + edge["width"] <= 390 + 1


def test_petrichor_tiles_show_the_coordinates_the_log_names_and_the_end_leaves_no_empty_box(
        server: Server, browser: Any) -> None:
    link = finished_table(server, "petrichor")
    with phone_page(browser, server.url + link, lang="en") as page:
        page.wait_for_selector(".pt-root[data-over='1'] .pt-cell")
        cells = page.eval_on_selector_all(".pt-cell", "gs => gs.map((g) => [g.dataset.cell, "
                                          "(g.querySelector('.pt-coord') || {}).textContent])")
        assert len(cells) >= 9 and all(cell == shown for cell, shown in cells), cells
        named = page.eval_on_selector_all(".pt-log li", "ls => ls.map((l) => l.textContent).join(' ')")
        assert any(cell in named for cell, _ in cells), named  # the log does name tiles this way
        assert page.locator(".pt-prompt").count() == 0


def test_block_and_key_names_your_enigma_colour(server: Server, browser: Any) -> None:
    """The key hand's line read "Your Enigma colour: G (8 faces)": the colour's code, not its name."""
    colours = {c["id"]: c["name"] for c in json.loads(
        (ROOT / "src/boardlab/games/block_and_key/components.json").read_text("utf-8"))["colours"]}
    with httpx.Client(base_url=server.url, timeout=20) as c:
        t = make_table(c, game="block_and_key", players=2, seats=HUMANS)
        me = t["seats"][0]
        view = c.get(f"/api/tables/{t['id']}", headers={"Authorization": f"Bearer {me['token']}"}).json()["view"]
    enigma = view["seats"][0]["enigma"]
    for lang, words in (("en", "Your Enigma colour: {c} ("), ("zh-TW", "你的謎之卡顏色：{c}（")):
        with phone_page(browser, server.url + me["link"], lang=lang) as page:
            page.wait_for_selector(".bk-root .bk-mine p")
            assert words.format(c=colours[enigma][lang]) in page.inner_text(".bk-mine"), lang
            # your side's projection is framed: the frame ends below its picture, it is not stretched to the height
            # of the taller view from above beside it (an empty framed box under the picture)
            gap = page.eval_on_selector(".bk-own", "f => f.getBoundingClientRect().height - [...f.children]"
                                        ".reduce((h, c) => h + c.getBoundingClientRect().height, 0)")
            assert gap < 12, gap
            digs = page.eval_on_selector_all(".bk-dig", "bs => bs.map((b) => b.textContent)")
            row, col = {"en": ("dig row {}", "dig column {}"), "zh-TW": ("挖掘第 {} 列", "挖掘第 {} 行")}[lang]
            assert digs == [row.format(n) for n in (1, 2, 3)] + [col.format(n) for n in (1, 2, 3)], digs


def test_equal_totals_show_the_tie_break_in_the_game_over_box(server: Server, browser: Any) -> None:
    """Pocket Mars ended 17 to 17 and Petrichor 20 to 20 with "Winner: …" and no reason: the box now shows the
    tie-break column when the top total is shared, in each game's words (the server's `tiebreak_text`; the words
    themselves: tests/games/test_tiebreak_words.py). A tally game to 4: both seats score 2, the first hid a card (the
    tally tie-break: fewer cards in hand) and wins; tally has no words for it, so its numbers show."""
    with httpx.Client(base_url=server.url, timeout=20) as c:
        t = make_table(c, game="tally", players=2, seats=HUMANS, options={"target": 4})
        tokens = {x["seat"]: {"Authorization": f"Bearer {x['token']}"} for x in t["seats"]}
        for seat, action in ((0, "hide"), (0, "add2"), (0, "end"), (1, "add2")):
            s = c.get(f"/api/tables/{t['id']}", headers=tokens[seat]).json()
            move = next(m["action"] for m in s["legal"] if m["action"].startswith(action))
            assert c.post(f"/api/tables/{t['id']}/actions", json={"move": s["log_len"], "action": move},
                          headers=tokens[seat]).status_code == 200
    with phone_page(browser, server.url + t["seats"][0]["link"], lang="en") as page:
        page.wait_for_selector("#end:not([hidden]) .scores table")
        heads = page.eval_on_selector_all("#end .scores th", "hs => hs.map((h) => h.textContent)")
        assert heads[-1] == "Tie-break", heads
        assert page.eval_on_selector_all("#end .tie-break", "ds => ds.map((d) => d.textContent)") == ["-1", "-2"]
        assert "Winner: Ada" in page.inner_text("#end")
