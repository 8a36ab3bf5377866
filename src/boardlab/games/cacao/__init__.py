"""Cacao (Phil Walker-Harding, 2015): official rules and components for 2-4 players.

Where to find things: `components.json` (the tile sets, all official), `rules.py` (the turn, the
jungle filling, activations, rebuilding, scoring), `actions.py` (notation), `evaluate.py` (bot
heuristic), `text.py` (terminal rendering). Rules decisions: docs/rules/cacao.md.
"""

from boardlab.core.registry import register

from .actions import AUTO, Discard, Fill, Place, Use
from .rules import CacaoGame, CacaoState

GAME = register(CacaoGame())
CacaoState.game = GAME

__all__ = ["AUTO", "GAME", "CacaoGame", "CacaoState", "Discard", "Fill", "Place", "Use"]
