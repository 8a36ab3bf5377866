"""The game registry: name -> Game.

The built-in games are found, not imported by name: each is an entry point of the group `boardlab.games`
(pyproject.toml, `[project.entry-points."boardlab.games"]`, e.g. `cacao = "boardlab.games.cacao.game:GAME"`),
loaded once, on the first question to the registry. So the core stays below the games: no module of
`boardlab.core` imports `boardlab.games` (the import-linter contracts in pyproject.toml check it). Any other
game, a plug-in or a test's, joins with `register()`; an installed package may also declare an entry point.
"""

from __future__ import annotations

from importlib.metadata import entry_points
from typing import Any

from .errors import UnknownGameError
from .game import Game, State

ENTRY_POINTS = "boardlab.games"
"""The entry-point group the registry loads games from (each entry point names a `Game` instance)."""

_GAMES: dict[str, Game] = {}
_loaded = False


def register(game: Game) -> Game:
    _GAMES[game.name] = game
    return game


def _load_builtin() -> None:
    """Register every game declared under ENTRY_POINTS, once, in name order (a game registered earlier under
    the same name is replaced, as it was when the registry imported `boardlab.games`)."""
    global _loaded
    if _loaded:
        return
    for point in sorted(entry_points(group=ENTRY_POINTS), key=lambda p: p.name):
        game = point.load()
        if not isinstance(game, Game):
            raise TypeError(f"entry point {point.name} = {point.value} is not a boardlab Game")
        register(game)
    _loaded = True


def games() -> list[str]:
    """Names of every registered game, sorted."""
    _load_builtin()
    return sorted(_GAMES)


def installed_games() -> list[str]:
    """Names of the games installed as packages (the entry points of ENTRY_POINTS), sorted: `games()` without
    those registered in this process only (a test's toy game, a plug-in loaded by hand)."""
    return sorted(point.name for point in entry_points(group=ENTRY_POINTS))


def get_game(name: str) -> Game:
    _load_builtin()
    try:
        return _GAMES[name]
    except KeyError:
        if not _GAMES:  # a checkout on sys.path whose package metadata (the entry points) was never installed
            raise UnknownGameError(f"no game named {name!r}: no game is registered; install boardlab (make dev, or "
                                   f"pip install -e .) so that its entry points {ENTRY_POINTS!r} exist") from None
        raise UnknownGameError(f"no game named {name!r}; known games: {', '.join(sorted(_GAMES))}") from None


def new_game(name: str, players: int, seed: int = 0, **options: Any) -> State:
    """A fresh state of game `name` (see each game's `options`)."""
    return get_game(name).new_game(players, seed, **options)


def load(data: dict[str, Any]) -> State:
    """Load any save written by `State.to_json`."""
    from .errors import SaveError

    if not isinstance(data, dict) or "game" not in data:
        raise SaveError("a save must be a JSON object with a 'game' field")
    return get_game(str(data["game"])).from_json(data)
