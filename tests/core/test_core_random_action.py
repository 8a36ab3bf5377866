"""`State.random_action` and `State.is_legal` (#36): whichever game answers them (the default from the list, or a
game's own without it), a random player's pick is the listed action at the drawn index, with the same draws, so
random games recorded before the contract replay identically; `is_legal` says what `in legal_actions()` says."""

from __future__ import annotations

import random

import pytest

from boardlab.core import Rng, get_game
from boardlab.core.registry import games


@pytest.mark.parametrize("name", games())
def test_random_action_draws_the_games_that_indexing_the_list_drew(name: str) -> None:
    game = get_game(name)
    for players in sorted({max(1, game.min_players), game.max_players}):
        listed, listless = game.new_game(players, 3), game.new_game(players, 3)
        by_list, by_state = Rng(11), Rng(11)
        seen: list[object] = []  # actions of earlier positions: mostly illegal here
        while not listed.is_over and len(listed.history) < 400:
            legal = listed.legal_actions()
            probe = listless.clone()
            for a in [*legal[:3], *seen[-20:]]:
                assert probe.is_legal(a) == (a in legal), a
            listed.apply(by_list.choice(legal))
            listless.apply(listless.random_action(by_state.randbelow))
            assert listless.history == listed.history
            seen.append(listed.history[-1])
        assert by_state.state == by_list.state


def test_the_default_calls_the_drawer_once_with_the_lists_length() -> None:
    state = get_game("cacao").new_game(2, 0)
    asked: list[int] = []
    rng = random.Random(0)

    def below(n: int) -> int:
        asked.append(n)
        return rng.randrange(n)

    for _ in range(30):
        n = len(state.legal_actions())
        state.apply(state.random_action(below))
        assert asked[-1] == n
    assert len(asked) == 30
