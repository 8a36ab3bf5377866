"""A refused move is explained in the player's language, in every game: over random positions, actions legal
elsewhere (another deal's position, often another seat's question) are refused here with a reason in Chinese
for a zh-TW player (Chinese punctuation) and in English for an English one; so is any action once the game is
over. Each game's hand-made cases, one per family of reason, are in tests/games/<game>/test_*_refusals.py."""

from __future__ import annotations

import pytest

from boardlab.core.registry import installed_games
from refusals import illegal_elsewhere, worded
from story import random_moves
from zh_marks import CJK, stray_marks


@pytest.mark.parametrize("name", installed_games())
@pytest.mark.parametrize("players", [2, 3])
def test_actions_legal_elsewhere_are_refused_in_the_players_language(name: str, players: int) -> None:
    cases = illegal_elsewhere(name, players, seed=players, positions=6)
    assert len(cases) >= 6
    for state, action in cases:
        en, zh = worded(state, action)
        assert str(action) in en and str(action) in zh  # the refusal says which action it refuses


@pytest.mark.parametrize("name", installed_games())
def test_a_move_after_the_end_is_refused_in_the_players_language(name: str) -> None:
    moves = list(random_moves(name, 2, seed=7))
    over = moves[-1][2]
    assert over.is_over
    for _, action, _ in moves[-3:]:
        zh = over.why_illegal(action, "zh-TW")
        assert CJK.search(zh) and not stray_marks(zh) and "遊戲已經結束" in zh
        assert over.why_illegal(action) == f"{action} cannot be played: the game is over"
