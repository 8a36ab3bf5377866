"""Cooper Island (Andreas Odendahl, Frosted Games / Capstone 2019) for 2-4 players.

Where to find things: `components.json` (every component, each entry with its provenance; almost all
reconstructed), `components.py` (loading and located validation), `rules.py` (the to-do-stack engine:
income, worker phase A-H, cleanup, scoring, views, determinization), `actions.py` (notation and encoding),
`evaluate.py` (bot heuristic), `text.py` (words and the terminal picture). Decisions:
docs/rules/cooper_island.md.
"""

from boardlab.core.registry import register

from .rules import CooperGame, CooperState

GAME = register(CooperGame())
CooperState.game = GAME

__all__ = ["GAME", "CooperGame", "CooperState"]
