"""The game registry: name -> Game. Games register themselves when `boardlab.games` is imported."""

from __future__ import annotations

from typing import Any

from .errors import UnknownGameError
from .game import Game, State

_GAMES: dict[str, Game] = {}


def register(game: Game) -> Game:
    _GAMES[game.name] = game
    return game


def _load_builtin() -> None:
    import boardlab.games  # noqa: F401  (importing registers every built-in game)


def games() -> list[str]:
    """Names of every registered game, sorted."""
    _load_builtin()
    return sorted(_GAMES)


def get_game(name: str) -> Game:
    _load_builtin()
    try:
        return _GAMES[name]
    except KeyError:
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
