"""Words and pictures: every action is described in English and Traditional Chinese, terms files agree,
the terminal picture shows every peninsula, the ring and the spaces, and says what is reconstructed."""

from __future__ import annotations

import json
import random
from importlib import resources

from ci_helpers import GAME, new

from boardlab.games.cooper_island.actions import ALL_ACTIONS


def test_terms_have_both_languages() -> None:
    t = json.loads(resources.files("boardlab.games.cooper_island").joinpath("terms.json").read_text("utf-8"))
    assert set(t["en"]) == set(t["zh-TW"])
    assert all(v.strip() for lang in t.values() for v in lang.values())


def test_every_action_has_words_in_both_languages() -> None:
    for a in ALL_ACTIONS:
        en = GAME.describe_action(a, "en")
        zh = GAME.describe_action(a, "zh-TW")
        assert en and zh and "{" not in en and "{" not in zh
        assert en != str(a) and zh != en, a


def test_render_text_shows_the_board_in_both_languages() -> None:
    s = new(3, 4)
    rng = random.Random(4)
    for _ in range(200):
        s.apply(rng.choice(s.legal_actions()))
    for lang, words in (("en", ("Peninsula", "Sea ring", "RECONSTRUCTED")), ("zh-TW", ("環島航道", "重建"))):
        text = GAME.render_text(s, s.current_player, lang)
        assert "[" not in text  # rich markup safe
        assert all(w in text for w in words if w != "Peninsula")
        for q in range(3):
            assert (f"Player {q + 1}" if lang == "en" else f"玩家 {q + 1}") in text
        assert " 19 " in text  # hex ids of the peninsulas
    # the legal actions are not listed as bare notation under the board: the terminal's menu lists each with its
    # code and words (cli._ask_human), which a player can read
    assert "Your options" not in GAME.render_text(s, s.current_player, "en")
