"""The game log's words for Cacao (issue #12, "Mend what was seen" and "Moves you can follow"): every
change to the board is in the log, the jungle tiles a move laid by itself included (identical display
tiles, the only choice left, blind draws from the pile), and the sentences are readable in both
languages: tiles named by kind and by what they are next to, no raw coordinates and no "r0"."""

from __future__ import annotations

import random
import re
from typing import Any

import pytest
from cacao_helpers import choose, make_state, worker

from boardlab.core import get_game
from boardlab.games.cacao import GAME
from boardlab.games.cacao.actions import Place
from boardlab.games.cacao.rules import CacaoState
from boardlab.server import policy

RAW = re.compile(r"-?\d+,-?\d+|\br\d\b|@")  # coordinates, rotations, notation


def _blind_position() -> tuple[CacaoState, Any]:
    """Red places 1-1-1-1 at 0,1 between the start plantation and market; purple's tiles at -1,0 and
    1,2 make the spaces south (0,2) and west (-1,1) of it need jungle tiles; the display is empty, so
    both come blind from the pile (its top is the end of the list: the temple first)."""
    s = make_state(2, workers={(-1, 0): worker(1, "1111", 0), (1, 2): worker(1, "1111", 0)},
                   pile=["water", "temple"], display=[])
    return s, GAME.parse_action(s, "1111r0@0,1")


def test_blind_draws_from_the_pile_are_in_the_placements_log_line() -> None:
    s, a = _blind_position()
    assert GAME.describe_move(s, a, "en") == (
        "places a worker tile (1-1-1-1) next to the single plantation and the market (2); then drawn blind "
        "from the jungle pile: the temple (south of the new worker tile) and the water (west of the new "
        "worker tile) — red: +3 temple points, score -7 (+3 points); purple: +3 temple points, score -7 (+3 points)")
    assert GAME.describe_move(s, a, "zh-TW") == (
        "將工人板塊（1-1-1-1）放在單開墾地和市場（售價 2）旁；接著從叢林板塊堆盲抽神廟（新工人板塊的南側）"
        "和水源（新工人板塊的西側）放上 — 紅色：神廟分數 +3、分數 -7（+3 分）；紫色：神廟分數 +3、分數 -7（+3 分）")
    s.apply(a)
    assert s.jungle[(0, 2)] == "temple" and s.jungle[(-1, 1)] == "water"  # what the words said


def test_a_fill_names_the_tile_laid_after_it_by_itself() -> None:
    s = make_state(2, workers={(-1, 0): worker(1, "1111", 0), (1, 2): worker(1, "1111", 0)},
                   pile=["water"], display=["sun", "temple"])
    s.apply(GAME.parse_action(s, "1111r0@0,1"))
    assert s.phase == "fill"
    a = GAME.parse_action(s, "fill sun@0,2")
    assert GAME.describe_move(s, a, "en") == (
        "lays the sun-worshiping site from the display south of the new worker tile; then from the display: "
        "the temple (west of the new worker tile) — red: +3 temple points, score -7 (+3 points); purple: +3 temple "
        "points, score -7 (+3 points)")
    assert GAME.describe_move(s, a, "zh-TW") == (
        "將叢林展示區的太陽信仰遺址放在新工人板塊的南側；接著叢林展示區的神廟（新工人板塊的西側）自動放上 — "
        "紅色：神廟分數 +3、分數 -7（+3 分）；紫色：神廟分數 +3、分數 -7（+3 分）")


def test_the_server_log_and_every_viewer_get_these_words() -> None:
    s, a = _blind_position()
    visible = policy.visible_to(GAME, s, a, 0, 2)
    assert visible == {0, 1, None}  # everything laid is face up: every seat and spectators read it
    texts = policy.log_texts(GAME, s, a, visible, 2)
    for v in policy.viewers(2):
        assert texts[policy.text_index(v, "en", 2)].split(" — ")[0].endswith("(west of the new worker tile)")
        assert "盲抽" in texts[policy.text_index(v, "zh-TW", 2)]


def _mentions(text: str, lang: str) -> int:
    """How many jungle tiles a sentence lays: the chosen one and the automatic ones."""
    if lang == "en":
        return text.count("from the display south") + text.count("from the display north") \
            + text.count("from the display east") + text.count("from the display west") \
            + text.count("of the new worker tile)")
    return text.count("將叢林展示區的") + text.count("側）")


@pytest.mark.parametrize("players", [2, 3, 4])
def test_random_games_every_board_change_is_in_the_log_in_words(players: int) -> None:
    """Every move of random games: each jungle tile added to the board is named in the line (en and
    zh-TW), each worker tile placed is named by its worker counts, and no line holds coordinates,
    rotations or notation; Chinese lines use Chinese punctuation."""
    game = get_game("cacao")
    seen = {"pile": 0, "auto_display": 0}
    for seed in range(4):
        s = game.new_game(players, seed)
        rng = random.Random(seed)
        while not s.is_over:
            if seed % 2 and s.phase == "place" and s.display:
                # blind draws need more spaces than display tiles, which random play almost never
                # meets: in odd games the display goes back on the pile before each placement
                s.pile += s.display
                s.display = []
                s._legal = None
            a = choose(rng, s.legal_actions())
            before = s.clone()
            s.apply(a)
            added = [c for c in s.jungle if c not in before.jungle]
            for lang in ("en", "zh-TW"):
                text = game.describe_move(before, a, lang)
                assert not RAW.search(text), text
                assert _mentions(text, lang) == len(added), (str(a), text, added)
                if isinstance(a, Place):
                    assert "-".join(a.tile) in text
                if lang == "zh-TW":
                    assert not re.search(r"[();]", text), text
            en = game.describe_move(before, a, "en")
            seen["pile"] += "drawn blind" in en
            seen["auto_display"] += "; then from the display" in en
    assert seen["pile"] > 0 and seen["auto_display"] > 0, seen
