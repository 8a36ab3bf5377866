"""Petrichor's log tells the story (issue #31): every change of score named with the move that made it (a
pass that ends a round says what the round's weather, votes and harvests gave), and why the game ended."""

from __future__ import annotations

import pytest

from story import unnamed_changes


@pytest.mark.parametrize("players", [1, 2, 3, 4])
def test_every_change_of_score_is_named_in_the_log(players: int) -> None:
    missing, changes, endings = unnamed_changes("petrichor", players, range(2))
    assert not missing, missing[:5]
    assert changes > 0 and endings == 2
