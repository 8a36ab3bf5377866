"""Petrichor (David Chircop, Mighty Boards 2018; solo by Dávid Turczi) for 1-4 players: clouds, votes,
weather and harvests, short (4 rounds) or long (6 rounds) game.

Where to find things: `components.json` (crop tiles, cards, tracks, grids, the South Wind deck, each
entry with its provenance), `components.py` (loading and validation), `rules.py` (rounds, actions,
weather, harvest, scoring, views, determinization), `actions.py` (notation and encoding),
`evaluate.py` (bot heuristic), `text.py` (words and terminal picture), `game.py` (the `Game` assembled from them:
`GAME`, which the registry loads through the entry point `boardlab.games`). Decisions: docs/rules/petrichor.md.
Crop-balance measurements with bots: `boardlab.sim.petrichor` (above the bots, so outside this package).

Imports run one way: components <- actions <- rules <- text, evaluate <- game (<- this package).
"""

from .game import GAME
from .rules import PetrichorRules, PetrichorState

__all__ = ["GAME", "PetrichorRules", "PetrichorState"]
