"""A yes or no to an optional effect, offered on its own as an answer button (issue #31, seen in the screenshots of
benchmarks/screenshots.py): the status bar's buttons read "uses it" / "declines", words of a log line with no one to
say them, beside the renderer's own "Yes, do it" / "No, skip". The game's words for the bare answer are now those."""

from __future__ import annotations

import boardlab
from boardlab.games.pocket_mars import GAME


def test_the_bare_yes_and_no_read_as_answers() -> None:
    state = boardlab.new_game("pocket_mars", players=2, seed=1)
    said = {(lang, text): GAME.describe_action(GAME.parse_action(state, text), lang)
            for lang in ("en", "zh-TW") for text in ("do", "skip")}
    assert said == {("en", "do"): "yes, do it", ("en", "skip"): "no, skip",
                    ("zh-TW", "do"): "是，執行", ("zh-TW", "skip"): "否，放棄"}
