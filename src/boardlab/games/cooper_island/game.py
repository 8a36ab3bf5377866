"""Cooper Island assembled: its rules (rules.py) with their words (text.py) and the bots' evaluation (evaluate.py),
the one `Game` the registry loads (entry point `boardlab.games`). Nothing in the package imports this module: a state
reaches its game, words included, through `CooperState.game` (README, "Layers")."""

from . import evaluate, text
from .rules import CooperRules, CooperState

GAME = CooperRules(text=text, evaluation=evaluate)
CooperState.game = GAME

__all__ = ["GAME"]
