"""Block and Key assembled: its rules (rules.py) with their words (text.py), the bots' evaluation (evaluate.py) and
a turn's moves by their parts for learners' masks (split.py), the one `Game` the registry loads (entry point
`boardlab.games`). Nothing in the package imports this module: a state reaches its game, words included, through
`BlockAndKeyState.game` (README, "Layers")."""

from . import evaluate, split, text
from .rules import BlockAndKeyRules, BlockAndKeyState

GAME = BlockAndKeyRules(text=text, evaluation=evaluate, split=split)
BlockAndKeyState.game = GAME

__all__ = ["GAME"]
