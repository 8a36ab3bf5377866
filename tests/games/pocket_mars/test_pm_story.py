"""Pocket Mars's log tells the story (issue #31): a yes or no to an optional effect names the effect (no bare
"uses it" / "declines"), every change of score is named with the move that made it, and the last line says why
the game ended."""

from __future__ import annotations

import random

from boardlab.games.pocket_mars import GAME


def test_optional_effects_are_named() -> None:
    said = set()
    for seed in range(3):
        s = GAME.new_game(2, seed)
        rng = random.Random(seed)
        while not s.is_over:
            a = rng.choice(s.legal_actions())
            if str(a) in ("do", "skip"):
                for lang in ("en", "zh-TW"):
                    line = GAME.describe_move(s, a, lang)
                    assert line.split(" — ")[0] != GAME.describe_action(a, lang), line  # not "uses it"
                    if lang == "en":
                        said.add(line.split(" ", 1)[0])
            s.apply(a)
    assert {"uses", "declines"} <= said
