"""Cooper Island (Andreas Odendahl, Frosted Games / Capstone 2019) for 2-4 players.

Where to find things: `components.json` (every component, each entry with its provenance; almost all
reconstructed), `components.py` (loading and located validation), `rules.py` (the to-do-stack engine:
income, worker phase A-H, cleanup, scoring, views, determinization), `actions.py` (notation and encoding),
`evaluate.py` (bot heuristic), `text.py` (words and the terminal picture), `game.py` (the `Game` assembled from
them: `GAME`, which the registry loads through the entry point `boardlab.games`). Decisions:
docs/rules/cooper_island.md.

Imports run one way: components <- actions <- rules <- text, evaluate <- game (<- this package).
"""

from .game import GAME
from .rules import CooperRules, CooperState

__all__ = ["GAME", "CooperRules", "CooperState"]
