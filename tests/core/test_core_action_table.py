"""The core's fixed-action-table defaults, checked on every game that uses them."""

from __future__ import annotations

import pytest

from boardlab.core.action_table import FixedActionTable, ParsesNotation
from boardlab.core.errors import ActionParseError
from boardlab.core.registry import get_game

TABLE_GAMES = ["petrichor", "pocket_mars", "cooper_island"]


@pytest.mark.parametrize("name", TABLE_GAMES)
def test_ids_round_trip_over_the_whole_table(name: str) -> None:
    game = get_game(name)
    assert isinstance(game, FixedActionTable)
    n = game.num_distinct_actions(game.min_players)
    assert n == len(game.actions_module.ALL_ACTIONS) > 0
    for i in range(n):
        action = game.id_to_action(i, game.min_players)
        assert game.action_to_id(action, game.max_players) == i
        assert game.parse_action(game.new_game(game.min_players), str(action)) == action


@pytest.mark.parametrize("name", TABLE_GAMES)
def test_bad_actions_and_ids_are_refused_with_the_game_named(name: str) -> None:
    game = get_game(name)
    n = game.num_distinct_actions(2)
    with pytest.raises(ActionParseError, match=f"is not a {game.titles['en']} action"):
        game.action_to_id(("no such action",), 2)
    with pytest.raises(ActionParseError, match=f"is not a {game.titles['en']} action"):
        game.action_to_id([1, 2], 2)  # unhashable
    for bad in (-1, n, "3", None):
        with pytest.raises(ActionParseError, match=rf"out of range 0\.\.{n - 1}"):
            game.id_to_action(bad, 2)  # type: ignore[arg-type]


def test_cacao_parses_through_the_core_but_keeps_its_own_encoding() -> None:
    game = get_game("cacao")
    assert isinstance(game, ParsesNotation) and not isinstance(game, FixedActionTable)
    state = game.new_game(2, seed=1)
    action = state.legal_actions()[0]
    assert game.parse_action(state, str(action)) == action
