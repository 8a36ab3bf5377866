"""A refused move is explained in the player's language: what the refusal tests of every game share (the
cross-game one, tests/games/test_refusals.py, and each game's hand-made cases, tests/games/*/test_*_refusals.py)."""

from __future__ import annotations

import itertools
from typing import Any

from boardlab.core.errors import IllegalActionError
from boardlab.core.game import State
from story import random_moves
from zh_marks import CJK, stray_marks


def worded(state: State, action: Any) -> tuple[str, str]:
    """`action`'s refusal in `state` in English and in Traditional Chinese, checked: the Chinese one has Chinese
    words and Chinese punctuation (tests/zh_marks.py), the English one no Chinese, and `apply` refuses with the
    English one, changing nothing."""
    en, zh = state.why_illegal(action), state.why_illegal(action, "zh-TW")
    assert CJK.search(zh), f"{action}: not Chinese: {zh!r}"
    assert not stray_marks(zh), f"{action}: half-width marks in {stray_marks(zh)}"
    assert not CJK.search(en), f"{action}: Chinese in English: {en!r}"
    before = state.snapshot()
    try:
        state.apply(action)
    except IllegalActionError as e:
        assert str(e) == en
    else:
        raise AssertionError(f"{action} was accepted")
    assert state.snapshot() == before
    return en, zh


def illegal_elsewhere(name: str, players: int, seed: int, positions: int, each: int = 3) -> list[tuple[State, Any]]:
    """Actions illegal where they are offered: along a seeded random game, every few moves, the legal actions
    of the same move of another random game (another deal, often another seat or another question) that are
    not legal here, `each` of them at each of `positions` positions."""
    out: list[tuple[State, Any]] = []
    here = random_moves(name, players, seed)
    there = random_moves(name, players, seed + 1000)
    for step, ((state, _, _), (other, _, _)) in enumerate(zip(here, there, strict=False)):
        if step % 5:
            continue
        legal = set(state.legal_actions())
        out += [(state, a) for a in itertools.islice((a for a in other.legal_actions() if a not in legal), each)]
        if len(out) >= positions * each:
            break
    return out
