"""The lobby's game cards and the How-to-play pages (issue #31), in a real browser: every one of the five games is
drawn by its own renderer's `cover()` (no letter placeholders such as "Bl", "Co", "Pe"), and Petrichor has a
summary, a length and a How-to-play page in both languages."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest
from kit import ROOT, Server, chromium, desktop_page, running_server  # noqa: F401

pytestmark = pytest.mark.browser
GAMES = ("block_and_key", "cacao", "cooper_island", "petrichor", "pocket_mars")


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    with running_server(tmp_path_factory, "web-lobby-cards") as srv:
        yield srv


def test_every_game_card_is_drawn_by_its_renderer(server: Server, browser: Any) -> None:
    ctx, page, errors = desktop_page(browser, server.url + "/")
    try:
        for g in GAMES:
            card = page.locator(f".game-card[data-game={g}]")
            card.locator(".cover.has-pic svg, .cover.has-pic .pm-card").first.wait_for()
            assert card.locator(".cover > span").count() == 0, f"{g}: a letter placeholder"
        assert not errors, errors
    finally:
        ctx.close()


@pytest.mark.parametrize("lang", ["en", "zh-TW"])
def test_petrichor_has_a_card_text_a_length_and_a_how_to_play_page(server: Server, browser: Any, lang: str) -> None:
    about = json.loads((ROOT / "src/boardlab/games/petrichor/about.json").read_text("utf-8"))
    ctx, page, errors = desktop_page(browser, server.url + "/", lang=lang)
    try:
        card = page.locator(".game-card[data-game=petrichor]")
        card.locator(".summary").wait_for()
        assert card.locator(".summary").inner_text() == about[lang]["summary"]
        assert str(about["minutes"]) in card.locator(".facts").inner_text()
        card.locator(".how-link").click()
        page.wait_for_url("**/how/petrichor")
        steps = page.locator(".how-steps li")
        steps.first.wait_for()
        assert steps.all_inner_texts() == about[lang]["how_to_play"]
        page.locator(".how-cover .cover.has-pic svg").wait_for()
        assert not errors, errors
    finally:
        ctx.close()


SEED_OPTIONS = [("block_and_key", "face_contact", "block"), ("petrichor", "reclaim", "choose"),
                ("cooper_island", "reactivation", "one")]
"""Issue #33's kept readings: each game's option, and its default, the seed's reading."""


@pytest.mark.parametrize("lang", ["en", "zh-TW"])
def test_seed_readings_are_lobby_options_labelled_in_both_languages(server: Server, browser: Any, lang: str) -> None:
    """#33: where the engine's earlier reading stays, it is a named option in the create-table form, labelled in the
    player's language, with the seed's reading selected by default."""
    ctx, page, errors = desktop_page(browser, server.url + "/", lang=lang)
    try:
        for game, key, seed_choice in SEED_OPTIONS:
            meta = json.loads((ROOT / f"src/boardlab/games/{game}/about.json").read_text("utf-8"))["options_meta"][key]
            page.select_option("#game", game)
            page.fill("#players", "2")
            page.dispatch_event("#players", "change")
            select = page.locator(f"#options select[data-opt={key}]")
            select.wait_for()
            label = page.locator("#options label.option", has=page.locator(f"select[data-opt={key}]"))
            assert label.inner_text().strip().startswith(meta[lang]), (game, label.inner_text())
            names = meta["choices"][lang]
            assert sorted(select.locator("option").all_inner_texts()) == sorted(names.values()), game
            assert select.input_value() == json.dumps(seed_choice), game
        assert not errors, errors
    finally:
        ctx.close()
