"""Block and Key (David Van Drunen, Inside Up Games 2021) for 1-4 players, with the solo mode against the
Ancients. The seed rules are the default; the publisher's English rules are game options.

Where to find things: `components.json` (colours, the 10 shapes, core cube, temple floors, the 48 key cards,
the Enigma cards, the solo rating table; mostly reconstructed), `components.py` (loading and validation),
`geometry.py` (voxels, orientations, legal placements as bit operations, key rotations), `rules.py` (setup,
turns, claims, the Ancients, scoring, views, determinization), `actions.py` (notation), `evaluate.py` (bot
heuristic), `text.py` (words and the terminal picture), `game.py` (the `Game` assembled from them: `GAME`, which
the registry loads through the entry point `boardlab.games`). Decisions: docs/rules/block_and_key.md.

Imports run one way: components <- geometry, actions <- rules <- text, evaluate <- game (<- this package);
geometry, actions <- split (a turn's moves by their parts for learners' masks) <- game.
"""

from .game import GAME
from .rules import BlockAndKeyRules, BlockAndKeyState

__all__ = ["GAME", "BlockAndKeyRules", "BlockAndKeyState"]
