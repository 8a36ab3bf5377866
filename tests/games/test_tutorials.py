"""Every game's guided first game (its tutorial.json) plays on the engine: each scripted move, the player's and
the bot's replies, is legal at its step and written as the engine writes it, and every text a player reads
is there in English and Traditional Chinese. A broken file is refused with a message naming the step."""

from __future__ import annotations

import copy
import json
from importlib import resources

import pytest

from boardlab.core import get_game, tutorial

GAMES = ["cacao", "pocket_mars", "block_and_key", "petrichor", "cooper_island"]


def raw(game: str) -> dict:
    return json.loads(resources.files(f"boardlab.games.{game}").joinpath("tutorial.json").read_text("utf-8"))


@pytest.mark.parametrize("game", GAMES)
def test_every_scripted_move_is_legal_at_its_step_and_texts_are_in_both_languages(game: str) -> None:
    g = get_game(game)
    t = tutorial.load(g)
    assert t is not None
    tutorial.check(g, t)  # raises on the first step that is not legal, not for its seat, or not canonical
    mine = [t.steps[i] for i in t.player_steps]
    assert 3 <= len(mine) <= 8, "a short script: 3-8 moves of the player"
    for s in mine:
        for words in (s.text, s.rules):
            assert words is not None
            assert words["en"].strip() and words["zh-TW"].strip() and words["en"] != words["zh-TW"]
        assert s.highlight, "every step of the player names what to highlight"
    # the bot's replies are all in the script: nothing is left to chance before the hand-over
    assert all(s.move for s in t.steps if s.seat != t.you)
    assert t.bot == "easy"


@pytest.mark.parametrize("game", GAMES)
def test_progress_tells_the_step_then_that_the_game_goes_on(game: str) -> None:
    t = tutorial.load(get_game(game))
    assert t is not None
    first = t.player_steps[0]
    p = t.progress(first, "zh-TW")
    assert p["move"] == t.steps[first].move and p["text"] == t.steps[first].text["zh-TW"] and not p["done"]
    end = t.progress(len(t.steps), "en")
    assert end["done"] and end["move"] is None and end["step"] == end["steps"] == len(t.player_steps)


def test_a_move_illegal_at_its_step_is_refused_naming_it() -> None:
    g = get_game("cacao")
    bad = copy.deepcopy(raw("cacao"))
    bad["steps"][1]["move"] = "use 1,0 W 3"  # only one worker faces west
    with pytest.raises(tutorial.TutorialError, match="step 1"):
        tutorial.check(g, tutorial.parse("cacao", bad))
    swapped = copy.deepcopy(raw("cacao"))
    swapped["steps"][3]["seat"] = 0  # the bot's reply given to the player
    with pytest.raises(tutorial.TutorialError, match="step 3"):
        tutorial.check(g, tutorial.parse("cacao", swapped))


def test_a_text_missing_in_chinese_is_refused() -> None:
    bad = copy.deepcopy(raw("petrichor"))
    del bad["steps"][0]["rules"]["zh-TW"]
    with pytest.raises(tutorial.TutorialError, match="step 0 rules has no text in zh-TW"):
        tutorial.parse("petrichor", bad)
