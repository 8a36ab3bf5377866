"""Cacao assembled: its rules (rules.py) with their words (text.py) and the bots' evaluation (evaluate.py),
the one `Game` the registry loads (entry point `boardlab.games`). Nothing in the package imports this module: a state
reaches its game, words included, through `CacaoState.game` (README, "Layers")."""

from . import evaluate, text
from .rules import CacaoRules, CacaoState

GAME = CacaoRules(text=text, evaluation=evaluate)
CacaoState.game = GAME

__all__ = ["GAME"]
