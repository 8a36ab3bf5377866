"""Pocket Mars assembled: the rules (`PocketMarsRules`, rules.py) with their words (text.py) and the bots' evaluation
(evaluate.py), as the one `Game` instance the registry loads (`GAME`, entry point `boardlab.games`).

The arrows in the package run one way: actions.py, components.py and effects.py at the bottom, rules.py (the state
and the rules-level game) above them, text.py and evaluate.py above the rules, this module on top. Nothing below
imports it: a state reaches its game, words included, through `PocketMarsState.game`, which this module sets.
"""

from __future__ import annotations

from typing import Any

from mypy_extensions import mypyc_attr

from boardlab.core.game import State

from . import text
from .evaluate import evaluate, evaluate_all
from .rules import PocketMarsRules, PocketMarsState


@mypyc_attr(native_class=False)
class PocketMarsGame(PocketMarsRules):
    """Pocket Mars: the rules with the words and the evaluation (compiled with them, see boardlab/_compiled.py)."""

    def evaluate(self, state: State, seat: int) -> float:
        return evaluate(state, seat)  # type: ignore[arg-type]

    def evaluate_all(self, state: State) -> list[float]:
        return evaluate_all(state)  # type: ignore[arg-type]

    def describe_action(self, action: Any, lang: str = "en") -> str:
        return text.describe(action, lang)

    def action_visible(self, before: State, action: Any, seat: int | None) -> bool:
        """The notation names a card: readable only by seats that know that card (the same rule as the
        narration, so a log line and its words never disagree)."""
        return not text.names_hidden_card(before, action, seat)  # type: ignore[arg-type]

    def describe_for(self, before: State, action: Any, seat: int | None, lang: str = "en") -> str:
        """Narration without leaks: cards that went face down or into a hand or prep module unseen are
        named only to the seats that know them (docs: "Narration and hidden cards")."""
        return text.describe_for(before, action, seat, lang)  # type: ignore[arg-type]

    def render_text(self, state: State, seat: int | None, lang: str = "en") -> str:
        return text.render(state, seat, lang)  # type: ignore[arg-type]

    def why_illegal(self, state: State, action: Any) -> str:
        return text.why_illegal(state, action)  # type: ignore[arg-type]


GAME = PocketMarsGame()
PocketMarsState.game = GAME

__all__ = ["GAME", "PocketMarsGame"]
