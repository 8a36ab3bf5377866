"""Block and Key assembled: the rules (`BlockAndKeyRules`, rules.py) with their words (text.py) and the bots' evaluation
(evaluate.py), as the one `Game` instance the registry loads (`GAME`, entry point `boardlab.games`).

The arrows in the package run one way: actions.py, components.py and geometry.py at the bottom, rules.py (the state
and the rules-level game) above them, text.py and evaluate.py above the rules, this module on top. Nothing below
imports it: a state reaches its game, words included, through `BlockAndKeyState.game`, which this module sets.
"""

from __future__ import annotations

from typing import Any

from mypy_extensions import mypyc_attr

from boardlab.core.game import State

from . import text
from .evaluate import evaluate
from .rules import BlockAndKeyRules, BlockAndKeyState


@mypyc_attr(native_class=False)
class BlockAndKeyGame(BlockAndKeyRules):
    """Block and Key: the rules with the words and the evaluation (compiled with them, see boardlab/_compiled.py)."""

    def seat_name(self, seat: int, lang: str = "en") -> str:
        return text.term("player", lang, n=seat + 1)

    def evaluate(self, state: State, seat: int) -> float:
        return evaluate(state, seat)  # type: ignore[arg-type]

    def describe_action(self, action: Any, lang: str = "en") -> str:
        return text.describe(action, lang)

    def menu(self, state: State, lang: str = "en") -> list[Any]:
        return text.menu(state, lang)  # type: ignore[arg-type]

    def render_text(self, state: State, seat: int | None, lang: str = "en") -> str:
        return text.render(state, seat, lang)  # type: ignore[arg-type]

    def why_illegal(self, state: State, action: Any) -> str:
        return text.why_illegal(state, action)  # type: ignore[arg-type]


GAME = BlockAndKeyGame()
BlockAndKeyState.game = GAME

__all__ = ["GAME", "BlockAndKeyGame"]
