"""boardlab: rules engines, bots and play for Cacao, Pocket Mars, Block and Key, Petrichor, Cooper Island.

>>> import boardlab
>>> state = boardlab.new_game("cacao", players=3, seed=7)
>>> state.current_player
0
"""

from . import _compiled

_compiled.install()  # native engine modules if built and current, else pure Python

from .core import (  # noqa: E402
    Action,
    BoardlabError,
    Game,
    IllegalActionError,
    Score,
    State,
    games,
    get_game,
    load,
    new_game,
)

__version__ = "0.1.0"
__all__ = ["Action", "BoardlabError", "Game", "IllegalActionError", "Score", "State", "games", "get_game",
           "load", "new_game"]
