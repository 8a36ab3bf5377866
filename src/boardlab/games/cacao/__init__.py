"""Cacao (Phil Walker-Harding, 2015): official rules and components for 2-4 players.

Where to find things: `components.json` (the tile sets, all official), `rules.py` (the turn, the
jungle filling, activations, rebuilding, scoring), `actions.py` (notation), `evaluate.py` (bot
heuristic), `text.py` (terminal rendering), `game.py` (the `Game` assembled from them: `GAME`, which the
registry loads through the entry point `boardlab.games`). Rules decisions: docs/rules/cacao.md.

Imports run one way: actions/components <- rules <- text, evaluate <- game (<- this package).
"""

from .actions import AUTO, Discard, Fill, Place, Use
from .game import GAME
from .rules import CacaoRules, CacaoState

__all__ = ["AUTO", "GAME", "CacaoRules", "CacaoState", "Discard", "Fill", "Place", "Use"]
