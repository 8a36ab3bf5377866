"""Pocket Mars assembled: its rules (rules.py) with their words (text.py) and the bots' evaluation (evaluate.py),
the one `Game` the registry loads (entry point `boardlab.games`). Nothing in the package imports this module: a state
reaches its game, words included, through `PocketMarsState.game` (README, "Layers")."""

from . import evaluate, text
from .rules import PocketMarsRules, PocketMarsState

GAME = PocketMarsRules(text=text, evaluation=evaluate)
PocketMarsState.game = GAME

__all__ = ["GAME"]
