"""The guided first game of each of the five games in real Chromium (issue #31): started from the game's lobby
card or its How-to-play page, the lesson panel shows each step's text and rule, marks the part of the board the
step is about and the one element to click; clicking anything that plays another move is turned away with a
gentle word and changes nothing; clicking what the panel marks plays the script to its end (the bot's replies
are the scripted ones); the panel then says the guided part is over, and one more move is played as in a
normal game against the bot."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from kit import Server, chromium, desktop_page, running_server  # noqa: F401

from boardlab.core import get_game, tutorial

pytestmark = pytest.mark.browser
GAMES = ("cacao", "pocket_mars", "block_and_key", "petrichor", "cooper_island")
WAIT_MS = 30_000
PANEL = "document.querySelector('#tutorial')"
VERSION = "(document.querySelector('#board') || {dataset: {}}).dataset.version"


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    with running_server(tmp_path_factory, "web-tutorial") as srv:
        yield srv


def start(page: Any, game: str, from_card: bool) -> None:
    """Open the guided game from the lobby card or the How-to-play page; wait for the lesson panel."""
    if from_card:
        page.locator(f".game-card[data-game={game}] .tutorial-start").click()
    else:
        page.goto(page.url.rstrip("/") + f"/how/{game}")
        page.locator(".how .tutorial-start").click()
    page.wait_for_url("**/t/**")
    page.wait_for_function(f"() => {PANEL} && !{PANEL}.hidden", timeout=WAIT_MS)


def wait_step_or_done(page: Any) -> bool:
    """Wait until the panel marks something to click, or says the script is over (True)."""
    page.wait_for_function(f"() => {PANEL}.dataset.done === '1' || !!{PANEL}.dataset.target", timeout=WAIT_MS)
    return page.evaluate(f"{PANEL}.dataset.done") == "1"


def refuse_another_move(page: Any) -> None:
    """A move button other than the lesson's: turned away with a word, the board stays where it was."""
    version = page.evaluate(VERSION)
    expected = page.evaluate(f"{PANEL}.dataset.move")
    other = page.evaluate("""(m) => { const b = [...document.querySelectorAll('#moves button[title]')]
      .find((x) => x.title !== m); if (!b) return null; const d = b.closest('details'); if (d) d.open = true;
      b.classList.add('other-move'); return b.title; }""", expected)
    assert other is not None
    page.locator("#moves button.other-move").click()
    page.locator("#tutorial .tutorial-nudge:not([hidden])").wait_for()
    words = page.locator("#tutorial .tutorial-do").inner_text().split(maxsplit=1)[-1]  # the move in words
    assert words in page.locator("#tutorial .tutorial-nudge").inner_text()
    assert page.evaluate(VERSION) == version


@pytest.mark.parametrize("game", GAMES)
def test_the_guided_first_game_plays_to_its_end_then_the_game_goes_on(server: Server, browser: Any,
                                                                         game: str) -> None:
    tut = tutorial.load(get_game(game))
    assert tut is not None
    odd = GAMES.index(game) % 2 == 1  # from the How-to-play page, in Traditional Chinese; else the card, English
    lang = "zh-TW" if odd else "en"
    ctx, page, errors = desktop_page(browser, server.url + "/", lang=lang)
    try:
        start(page, game, from_card=not odd)
        clicks = 0
        seen_steps = []
        first = True
        while not wait_step_or_done(page):
            panel = page.locator("#tutorial")
            step = int(panel.get_attribute("data-step") or "-1")
            if step not in seen_steps:
                seen_steps.append(step)
                taught = tut.steps[tut.player_steps[step]]
                assert taught.text is not None and taught.rules is not None
                assert panel.locator(".tutorial-text").inner_text() == taught.text[lang]
                assert taught.rules[lang] in panel.locator(".tutorial-rules").inner_text()
                # the part of the board the step is about is marked (once the renderer has drawn it)
                page.wait_for_function(f"() => {PANEL}.dataset.look === '1'", timeout=WAIT_MS)
            if first:
                assert page.locator("#hint-slot").is_hidden(), "no hint button while the lesson says what to play"
                refuse_another_move(page)
                first = False
            version, serial = page.evaluate(VERSION), panel.get_attribute("data-target")
            page.locator(".tutorial-target").first.click()
            clicks += 1
            assert clicks < 40, "the script does not end"
            page.wait_for_function(
                f"([v, s]) => {VERSION} !== v || {PANEL}.dataset.target !== s || {PANEL}.dataset.done === '1'",
                arg=[version, serial], timeout=WAIT_MS)
        assert seen_steps == list(range(len(tut.player_steps))), seen_steps
        assert page.locator("#tutorial .tutorial-done").is_visible()
        assert tut.done[lang] in page.locator("#tutorial").inner_text()
        # the game goes on: the bot's seat is a normal easy bot now, and the player moves as in any game
        version = page.evaluate(VERSION)
        page.evaluate("""() => { const d = document.querySelector('#moves details'); if (d) d.open = true; }""")
        page.locator("#moves button[title]").first.click()
        page.wait_for_function(f"(v) => {VERSION} !== v", arg=version, timeout=WAIT_MS)
        tid = page.url.split("/t/")[1].split("#")[0]
        token = page.evaluate(f"JSON.parse(localStorage.getItem('boardlab:tokens:{tid}'))[0]")
        log = httpx.get(f"{server.url}/api/tables/{tid}/log", headers={"Authorization": f"Bearer {token}"}).json()
        moves = [e["action"] for e in log["log"] if e["n"] is not None]
        assert len(moves) > len(tut.steps)
        # the script's moves, as far as this seat may read them (a hidden card of the bot's is blanked)
        assert all(m is None or m == s.move for m, s in zip(moves, tut.steps, strict=False)), moves
        assert not errors, errors
    finally:
        ctx.close()
