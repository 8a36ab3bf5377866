"""Equal totals are decided by each game's tie-break, said in its words in both languages (Game.tiebreak_text):
the terminal's final table and the browser's end box (the server's `tiebreak_text`) show these sentences, never
the bare numbers of `Score.tiebreak` nor the signs it stores them with (Block and Key keeps -seat, Cooper Island
the empty spaces negated)."""
from __future__ import annotations

import pytest

from boardlab.core.registry import get_game

WORDS = {
    "cacao": ((3,), "cacao fruit 3", "可可果 3"),
    "pocket_mars": ((4,), "colonists in buildings 4", "在建築中的殖民者 4"),
    "petrichor": ((2, 1), "voting wins 2 · wheat 1", "投票勝利 2 · 小麥 1"),
    "block_and_key": ((7, 3, -1), "keys claimed 7 · blocks left 3 · turn order 2",
                      "已取得鑰匙 7 · 剩餘方塊 3 · 順位 2"),
    "cooper_island": ((-2,), "empty island spaces 2 (fewer wins)", "島上空格 2（少者勝）"),
}


@pytest.mark.parametrize("name", sorted(WORDS))
def test_each_game_says_its_tie_break_in_words_in_both_languages(name: str) -> None:
    tiebreak, en, zh = WORDS[name]
    game = get_game(name)
    assert (game.tiebreak_text(tiebreak, "en"), game.tiebreak_text(tiebreak, "zh-TW")) == (en, zh)
