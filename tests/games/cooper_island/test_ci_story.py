"""Cooper Island's log tells the story (issue #31): every change of score named with the move that made it,
"takes double tile 1, side a", "is done" and a bare "places" said in words, ships' new beaches, and why the
game ended."""

from __future__ import annotations

from boardlab.games.cooper_island import GAME
from story import random_moves


def test_no_line_speaks_engine_shorthand() -> None:
    bare = ("is done", "places", "declines", "draws")
    for seed in range(8):  # every table size: the clean-up's questions differ with the players
        for before, a, _ in random_moves("cooper_island", 2 + seed % 3, seed):
            line = GAME.describe_move(before, a, "en")
            assert line.split(" — ")[0] not in bare, (str(a), line)
            assert ", side " not in line or " and " in line, line
            if str(a).startswith("ship"):
                assert "to beach" in line, line
