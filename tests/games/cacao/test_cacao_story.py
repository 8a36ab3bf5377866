"""Cacao's log tells the story (issue #31): what every activation gained (no bare "resolves the remaining
activations"), every change of score named with the move that made it, and why the game ended."""

from __future__ import annotations

from boardlab.games.cacao import GAME
from story import random_moves


def test_the_automatic_activations_say_what_they_gave() -> None:
    """The 'auto' decision resolves a player's remaining workers: its line names what they gained."""
    seen = 0
    for seed in range(4):
        for before, a, s in random_moves("cacao", 2, seed):
            if str(a) == "auto" and [v.to_json() for v in s.villages] != [v.to_json() for v in before.villages]:
                seen += 1
                who = GAME.seat_name(before.current_player, "en")
                assert f"activates their remaining workers — {who}: +" in GAME.describe_move(before, a, "en")
                assert GAME.describe_move(before, a, "zh-TW").startswith("啟動其餘的工人 — ")
    assert seen
