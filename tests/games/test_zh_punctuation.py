"""Traditional Chinese text uses Chinese punctuation, everywhere a zh-TW reader meets it: the words files
(terms, about, tutorials, the web's word list), and what the games compose from them at play: the terminal
board, the move list, the log as each seat reads it, the menus, the refusals and the explanations.

A half-width colon or bracket beside Chinese words reads as a typo (tests/zh_marks.py says what is exempt)."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest

import boardlab
from boardlab.core import get_game
from boardlab.core.registry import installed_games
from zh_marks import stray_marks

ROOT = Path(boardlab.__file__).parent
WORD_FILES = sorted([*ROOT.glob("games/*/terms.json"), *ROOT.glob("games/*/about.json"),
                     *ROOT.glob("games/*/tutorial.json"), ROOT / "web/i18n/zh-TW.json"])


def _strings(node: Any, path: str = "") -> list[tuple[str, str]]:
    if isinstance(node, str):
        return [(path, node)]
    if isinstance(node, dict):
        return [s for k, v in node.items() for s in _strings(v, f"{path}.{k}")]
    if isinstance(node, list):
        return [s for i, v in enumerate(node) for s in _strings(v, f"{path}[{i}]")]
    return []


@pytest.mark.parametrize("path", WORD_FILES, ids=lambda p: str(p.relative_to(ROOT)))
def test_the_words_files_use_chinese_punctuation_in_chinese(path: Path) -> None:
    bad = [f"{where}: {line}" for where, text in _strings(json.loads(path.read_text("utf-8")))
           for line in stray_marks(text)]
    assert not bad, "\n".join(bad)


def test_the_checker_finds_what_it_should() -> None:
    """The checker itself: it must flag the half-width marks seen in play before this test, and let
    notation, quoted commands and numbers through."""
    assert stray_marks("玩家 1: 勝利點數 0")
    assert stray_marks("跳過 (沒有其他可行動作)")
    assert stray_marks("你的手牌: 霜寒×3, 日照×1")
    assert stray_marks("大建築 {k}:{name}")
    assert not stray_marks("例如 'dig r1'、'H normal'，因為 'h' 是說明")
    assert not stray_marks("將 P1 放在 3,-1；記法 2101r1@3,-1")
    assert not stray_marks("?：必須補上的叢林格")
    assert not stray_marks("cloud A1 (ASCII only: no Chinese on this line)")


def _texts_of_a_game(name: str, players: int, seed: int, samples: int) -> list[tuple[str, str]]:
    """What a game composes in zh-TW along one random game: the board for each seat and a spectator, the
    menu, each legal action's words, each move as each seat reads it, and the
    final board."""
    g = get_game(name)
    state = g.new_game(players, seed)
    rng = random.Random(seed)
    out: list[tuple[str, str]] = []
    step = 0
    while not state.is_over:
        legal = state.legal_actions()
        action = rng.choice(legal)
        if step % max(1, samples) == 0:
            out.append(("board", g.render_text(state, state.current_player, "zh-TW")))
            out.append(("board (spectator)", g.render_text(state, None, "zh-TW")))
            out += [("menu", item.label) for item in g.menu(state, "zh-TW")]
            out += [("action", g.describe_action(a, "zh-TW")) for a in legal[:40]]
            out += [(f"log for seat {s}", g.describe_for(state, action, s, "zh-TW")) for s in [*range(players), None]]
        state.apply(action)
        step += 1
    out.append(("board (end)", g.render_text(state, None, "zh-TW")))
    return out


@pytest.mark.parametrize("name", installed_games())
def test_what_a_game_composes_in_chinese_uses_chinese_punctuation(name: str) -> None:
    bad = []
    for players, seed in ((2, 11), (3, 12)):
        for where, text in _texts_of_a_game(name, players, seed, samples=7):
            bad += [f"{where}: {line}" for line in stray_marks(text)]
    for kind, entries in get_game(name).explain("zh-TW").items():
        for key, entry in entries.items():
            bad += [f"explain {kind} {key}: {line}" for _, text in _strings(entry) for line in stray_marks(text)]
    assert not bad, f"{len(bad)} lines, e.g.:\n" + "\n".join(sorted(set(bad))[:60])
