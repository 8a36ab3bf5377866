"""Block and Key's refusals in the player's language, one case per family of reason (the question asked, the
block, its orientation, each placement rule): Chinese words and punctuation in zh-TW, blocks named by colour
and shape beside their code, the English reasons as they were."""

from __future__ import annotations

import pytest
from bk_helpers import COMP, at_first_turn, bid, cube, give, new

from boardlab.games.block_and_key.actions import DRAW, Place
from boardlab.games.block_and_key.geometry import orientations
from boardlab.games.block_and_key.rules import BlockAndKeyState
from refusals import worded

UP2 = [(0, 0, 0), (0, 0, 1)]
UP4 = [(0, 0, 0), (0, 0, 1), (0, 0, 2), (0, 0, 3)]
FLAT2 = [(0, 0, 0), (1, 0, 0)]
FLAT4 = [(0, 0, 0), (1, 0, 0), (2, 0, 0), (3, 0, 0)]
STANDING_S4 = [(1, 0, 0), (1, 0, 1), (0, 0, 1), (0, 0, 2)]


def place(block: str, cubes: list[tuple[int, int, int]], x: int, y: int, z: int) -> Place:
    oris = orientations(COMP.shape_cells[COMP.block_shape(bid(block))])
    return Place("place", block, next(i for i, o in enumerate(oris) if sorted(o.cubes) == sorted(cubes)), x, y, z)


@pytest.fixture
def s() -> BlockAndKeyState:
    st = at_first_turn(2, seed=0)
    give(st, 0, "R1", "R2", "RI4")
    return st


def test_each_placement_rule_is_refused_in_the_players_language(s: BlockAndKeyState) -> None:
    cases = {
        "higher than that block": place("R2", UP2, 3, 2, 0),
        "corner to corner": place("R1", [(0, 0, 0)], 0, 7, 0),
        "temple floor": place("RI4", FLAT4, 6, 1, 0),
        "overlap a placed block": place("R1", [(0, 0, 0)], 4, 2, 0),
        "bridge": place("R2", FLAT2, 5, 2, 2),
    }
    chinese = set()
    for english, action in cases.items():
        en, zh = worded(s, action)
        assert english in en and en.startswith(f"{action}: ") and zh.startswith(f"{action}：")
        chinese.add(zh)
    cube(s, 5, 3, 2, "G1")
    en, zh = worded(s, place("RI4", UP4, 5, 3, 3))
    assert "at most 6" in en
    chinese.add(zh)
    assert len(chinese) == len(cases) + 1  # a reason of its own for each rule
    low = place("R2", UP2, 3, 2, 0)
    assert s.why_illegal(low, "zh-TW") == f"{low}：與其他方塊面碰面相連時，新方塊的其中一部分必須比該方塊還高"


def test_the_stack_reading_says_so_in_chinese() -> None:
    st = at_first_turn(2, seed=0, face_contact="stack")
    give(st, 0, "RS4")
    cube(st, 4, 2, 2, "G1")
    cube(st, 2, 2, 0, "B1")
    en, zh = worded(st, place("RS4", STANDING_S4, 2, 2, 0))
    assert "whole stack" in en and "整疊方塊" in zh


def test_the_block_and_its_orientation(s: BlockAndKeyState) -> None:
    absent = next(b for b in COMP.block_ids if bid(b) not in s.supply[0] and b.startswith("B"))
    en, zh = worded(s, Place("place", absent, 0, 1, 1, 0))
    assert f"you do not hold block {absent} (blue " in en  # named by colour and shape, the code beside it
    assert f"你沒有方塊 {absent}（藍色" in zh
    en, zh = worded(s, Place("place", "X9", 0, 1, 1, 0))
    assert "there is no block X9" in en and "沒有方塊 X9" in zh
    en, zh = worded(s, Place("place", "R1", 40, 1, 1, 0))
    assert "numbered 0..0" in en and "方向編號" in zh


def test_a_question_not_asked_is_named_in_the_games_words(s: BlockAndKeyState) -> None:
    en, zh = worded(s, DRAW[0])
    assert en == "draw sun is not possible now (the game asks: excavate or place a block)"
    assert zh == "現在不能 draw sun（目前要決定：挖掘方塊或放置方塊）"
    fresh = new(2)
    en, zh = worded(fresh, place("R1", [(0, 0, 0)], 3, 3, 0))
    assert "turn the core cube" in en and "轉動核心方塊" in zh
