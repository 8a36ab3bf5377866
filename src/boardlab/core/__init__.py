"""The game-agnostic core: states, actions, views, seeded RNG, errors, saves, registry."""

from .agent import Agent, Observation, TimedAgent, observe, play_game
from .errors import (
    ActionParseError,
    BoardlabError,
    ComponentError,
    ConfigError,
    GameOverError,
    IllegalActionError,
    NotYourTurnError,
    SaveError,
    UnknownGameError,
)
from .game import Action, Game, MenuItem, Option, Score, State
from .registry import games, get_game, load, new_game, register
from .rng import Rng

__all__ = [
    "Action",
    "ActionParseError",
    "Agent",
    "BoardlabError",
    "ComponentError",
    "ConfigError",
    "Game",
    "GameOverError",
    "IllegalActionError",
    "MenuItem",
    "NotYourTurnError",
    "Observation",
    "Option",
    "Rng",
    "SaveError",
    "Score",
    "State",
    "TimedAgent",
    "UnknownGameError",
    "games",
    "get_game",
    "load",
    "new_game",
    "observe",
    "play_game",
    "register",
]
