"""A hint's sentence (core/hints.py, issue #31) tells the seat nothing it does not know: it is computed on a
determinization for the seat, so two positions that differ only in what the seat cannot see read the same."""

from __future__ import annotations

import random

import pytest

from boardlab.core import get_game
from boardlab.core.hints import category, why
from boardlab.core.registry import installed_games


def test_the_sentence_does_not_depend_on_hidden_cards() -> None:
    game = get_game("cacao")
    s = game.new_game(2, 4)
    rng = random.Random(4)
    checked = 0
    while not s.is_over and checked < 20:
        seat = s.current_player
        assert seat is not None
        other = s.clone()
        other.pile = list(reversed(other.pile))  # the jungle pile's order is hidden from everyone
        other.hands[1 - seat] = list(reversed(other.hands[1 - seat]))
        a = rng.choice(s.legal_actions())
        for lang in ("en", "zh-TW"):
            assert why(s, a, seat, lang, 7) == why(other, a, seat, lang, 7)
        assert why(s, a, seat, "en", 7).startswith("Why: ")
        checked += 1
        s.apply(a)
    assert checked == 20


@pytest.mark.parametrize("name", installed_games())
def test_every_score_category_has_words(name: str) -> None:
    """A hint names the score categories a move changes: each game words every category in both languages."""
    game = get_game(name)
    s = game.new_game(game.min_players if game.min_players > 1 else 2, 1)
    for cat in s.scores()[0].breakdown:
        for lang in ("en", "zh-TW"):
            assert game.text.term("cat_" + cat, lang) != "cat_" + cat, (name, cat, lang)  # the game has the term
            assert category(s, cat, lang) == game.text.term("cat_" + cat, lang)
