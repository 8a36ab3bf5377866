"""Cacao assembled: its rules (rules.py) with their words (text.py), the bots' evaluation (evaluate.py) and a
placement's moves by their parts for learners' masks (split.py), the one `Game` the registry loads (entry point
`boardlab.games`). Nothing in the package imports this module: a state reaches its game, words included, through
`CacaoState.game` (README, "Layers")."""

from . import evaluate, split, text
from .rules import CacaoRules, CacaoState

GAME = CacaoRules(text=text, evaluation=evaluate, split=split)
CacaoState.game = GAME

__all__ = ["GAME"]
