"""Every game's log tells the story (issue #31): over random games at every table size, every change of any
player's score is named in the line of the move that made it, for a spectator, for a seat and in the full line,
and the last line says the game ended (tests/story.py). Each game's own story tests (tests/games/<game>/) check
its particular words."""

from __future__ import annotations

from typing import Any

import pytest

from boardlab.core import get_game
from boardlab.core.registry import installed_games
from story import unnamed_changes


def tables() -> list[tuple[str, int, dict[str, Any]]]:
    """(game, players, options) for every installed game and table size, and Pocket Mars's draft variant."""
    out: list[tuple[str, int, dict[str, Any]]] = []
    for name in installed_games():
        g = get_game(name)
        out += [(name, n, {}) for n in range(g.min_players, g.max_players + 1)]
    return [*out, ("pocket_mars", 3, {"draft": True})]


@pytest.mark.parametrize(("name", "players", "options"), tables())
def test_every_change_of_score_is_named_in_the_log(name: str, players: int, options: dict[str, Any]) -> None:
    seeds = range(1) if name == "cooper_island" else range(2)  # its games are long: one a size
    missing, changes, endings = unnamed_changes(name, players, seeds, **options)
    assert not missing, missing[:5]
    assert changes > 0 and endings == len(seeds)
