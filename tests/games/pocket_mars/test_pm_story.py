"""Pocket Mars's log tells the story (issue #31): a yes or no to an optional effect names the effect (no bare
"uses it" / "declines"), every change of score is named with the move that made it, and the last line says why
the game ended."""

from __future__ import annotations

from boardlab.games.pocket_mars import GAME
from story import random_moves


def test_optional_effects_are_named() -> None:
    said = set()
    for seed in range(3):
        for before, a, _ in random_moves("pocket_mars", 2, seed):
            if str(a) in ("do", "skip"):
                for lang in ("en", "zh-TW"):
                    line = GAME.describe_move(before, a, lang)
                    assert line.split(" — ")[0] != GAME.describe_action(a, lang), line  # not "uses it"
                    if lang == "en":
                        said.add(line.split(" ", 1)[0])
    assert {"uses", "declines"} <= said
