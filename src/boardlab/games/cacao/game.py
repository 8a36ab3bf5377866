"""Cacao assembled: the rules (`CacaoRules`, rules.py) with their words (text.py) and the bots' evaluation
(evaluate.py), as the one `Game` instance the registry loads (`GAME`, entry point `boardlab.games`).

The arrows in the package run one way: actions.py and components.py at the bottom, rules.py (the state and the
rules-level game) above them, text.py and evaluate.py above the rules, this module on top. Nothing below
imports it: a state reaches its game, words included, through `CacaoState.game`, which this module sets.
"""

from __future__ import annotations

from typing import Any

from mypy_extensions import mypyc_attr

from boardlab.core.game import State

from . import text
from .evaluate import evaluate, evaluate_all
from .rules import CacaoRules, CacaoState


@mypyc_attr(native_class=False)
class CacaoGame(CacaoRules):
    """Cacao: the rules with the words and the evaluation (compiled with them, see boardlab/_compiled.py)."""

    def evaluate(self, state: State, seat: int) -> float:
        return evaluate(state, seat)  # type: ignore[arg-type]

    def evaluate_all(self, state: State) -> list[float]:
        return evaluate_all(state)  # type: ignore[arg-type]

    def seat_name(self, seat: int, lang: str = "en") -> str:
        return text.term(f"colour{seat}", lang)

    def describe_action(self, action: Any, lang: str = "en") -> str:
        return text.describe(action, lang)

    def describe_move(self, before: State, action: Any, lang: str = "en") -> str:
        """The log's words: tiles by kind and what they are next to, and the jungle tiles the move laid
        by itself (blind draws from the pile included: all of it is face up, for everyone)."""
        return text.describe_move(before, action, lang)  # type: ignore[arg-type]

    def render_text(self, state: State, seat: int | None, lang: str = "en") -> str:
        return text.render(state, seat, lang)  # type: ignore[arg-type]

    def menu(self, state: State, lang: str = "en") -> list[Any]:
        return text.menu(state, lang)  # type: ignore[arg-type]


GAME = CacaoGame()
CacaoState.game = GAME

__all__ = ["GAME", "CacaoGame"]
