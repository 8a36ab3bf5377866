"""Pocket Mars (Michał Jagodziński, Board&Dice 2017) for 1-4 players: the base game, the draft variant
and the solo "Devious Automatics" mode.

Where to find things: `rules.json` (rule numbers, buildings, solo tables), `cards.json` (the project
deck: 4 official cards, 31 reconstructed), `components.py` (loading and validation), `effects.py` (the
effect-primitive interpreter), `rules.py` (turn structure, 4-card rule, scoring, views,
determinization), `actions.py` (notation and encoding), `evaluate.py` (bot heuristic), `text.py` (words
and terminal picture), `game.py` (the `Game` assembled from them: `GAME`, which the registry loads through the
entry point `boardlab.games`), `sim.py` (speed and deck-balance measurements). Decisions:
docs/rules/pocket_mars.md.

Imports run one way: components <- actions <- effects <- rules <- text, evaluate <- game (<- this package,
<- sim.py).
"""

from .game import GAME
from .rules import PocketMarsRules, PocketMarsState

__all__ = ["GAME", "PocketMarsRules", "PocketMarsState"]
