"""Cooper Island's refusals in the player's language: an answer to a question not asked names who must answer
what, the step in the game's words (not its internal name, "income"), and a few legal answers; in Chinese for a
zh-TW player (Chinese punctuation)."""

from __future__ import annotations

from ci_helpers import GAME, new, random_game

from boardlab.games.cooper_island.text import term
from refusals import worded


def test_a_question_not_asked_names_the_step_in_the_games_words() -> None:
    s = new(2, seed=0)
    en, zh = worded(s, GAME.parse_action(s, "pass"))
    assert en == ("pass is not legal now: Player 2 must answer 'income actions' (legal: islet 1 1, islet 1 2, "
                  "islet 1 3, islet 1 6, islet 1 7, islet 1 8, islet 2 1, islet 2 2 ...)")
    assert zh.startswith("現在不能 pass：玩家 2 要先回答「收入行動」（合法動作：islet 1 1、islet 1 2、")


def test_the_questions_of_a_game_refuse_in_chinese() -> None:
    """At several depths of random games, actions of other questions: each step named in its own words."""
    for players, seed in ((2, 4), (4, 5)):
        for depth in (10, 40, 90, 160):
            s = random_game(players, seed, max_decisions=depth)
            if s.is_over:
                continue
            step = s.todo[-1][0]
            for text in ("pass", "E", "tile 1 a", "done", "anchor"):
                action = GAME.parse_action(s, text)
                if action not in s.legal_actions():
                    en, zh = worded(s, action)
                    assert f"「{term('step_' + step, 'zh-TW')}」" in zh and f"'{term('step_' + step, 'en')}'" in en
