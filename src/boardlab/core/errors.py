"""Typed errors. Every refusal says what was wrong; none of them leaves a state half-changed."""

from __future__ import annotations


class BoardlabError(Exception):
    """Base of every error this library raises on purpose."""


class IllegalActionError(BoardlabError):
    """The action is well formed but not legal in this state (the state is unchanged)."""


class ActionParseError(IllegalActionError):
    """The text of an action could not be read as an action of this game."""


class NotYourTurnError(IllegalActionError):
    """A seat tried to act while another seat is to decide."""


class GameOverError(IllegalActionError):
    """An action was offered after the game ended."""


class UnknownGameError(BoardlabError):
    """No game of that name is registered."""


class ConfigError(BoardlabError):
    """Bad player count or options for a game."""


class ComponentError(BoardlabError):
    """A component data file is malformed; the message names the file and the place."""


class SaveError(BoardlabError):
    """A saved game (JSON) is truncated, malformed or inconsistent with its log."""
