"""Petrichor's refusals in the player's language: an answer to a question not asked names who must answer
what (the step in the game's words) and a few legal answers, in Chinese for a zh-TW player (Chinese
punctuation), in English as it was."""

from __future__ import annotations

from pt_helpers import GAME, new, random_game

from refusals import worded


def test_a_question_not_asked_is_refused_in_the_players_language() -> None:
    s = new(2, seed=0)
    en, zh = worded(s, GAME.parse_action(s, "vote F"))
    assert en == ("vote F is not legal now: P2 must answer 'place your first cloud' (legal: cloud A1, cloud B1, "
                  "cloud C1, cloud A2, cloud B2, cloud C2, cloud A3, cloud B3 ...)")
    assert zh == ("現在不能 vote F：玩家 2 要先回答「放置第一朵雲」（合法動作：cloud A1、cloud B1、cloud C1、"
                  "cloud A2、cloud B2、cloud C2、cloud A3、cloud B3……）")


def test_the_questions_of_a_game_refuse_in_chinese() -> None:
    """At several depths of random games, solo included, actions of other questions: each step's own words."""
    for players, seed in ((1, 2), (4, 3)):
        for depth in (5, 20, 40, 70):
            s = random_game(players, seed, max_decisions=depth)
            for text in ("pass", "vote F", "die 1", "cloud A1", "pay W"):
                action = GAME.parse_action(s, text)
                if not s.is_over and action not in s.legal_actions():
                    worded(s, action)
