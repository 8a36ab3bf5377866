"""Petrichor (David Chircop, Mighty Boards 2018; solo by Dávid Turczi) for 1-4 players: clouds, votes,
weather and harvests, short (4 rounds) or long (6 rounds) game.

Where to find things: `components.json` (crop tiles, cards, tracks, grids, the South Wind deck, each
entry with its provenance), `components.py` (loading and validation), `rules.py` (rounds, actions,
weather, harvest, scoring, views, determinization), `actions.py` (notation and encoding),
`evaluate.py` (bot heuristic), `text.py` (words and terminal picture). Decisions: docs/rules/petrichor.md.
"""

from boardlab.core.registry import register

from .rules import PetrichorGame, PetrichorState

GAME = register(PetrichorGame())
PetrichorState.game = GAME

__all__ = ["GAME", "PetrichorGame", "PetrichorState"]
