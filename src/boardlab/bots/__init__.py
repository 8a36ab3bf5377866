"""Game-agnostic bots. Each is an `Agent` that decides from an `Observation` only, never the true state.

>>> from boardlab.bots import make_bot
>>> bot = make_bot("mcts", seed=3, iterations=200)
>>> bot.name
'mcts'
"""

from __future__ import annotations

import inspect
from typing import Any

from boardlab.core import Agent, get_game

from .basic import GreedyBot, RandomBot
from .mcts import DEFAULT_SECONDS, MctsBot

_CLASSES: dict[str, type] = {"random": RandomBot, "greedy": GreedyBot, "mcts": MctsBot}

BOT_KINDS: dict[str, str] = {
    "random": "uniform over the legal actions (seeded)",
    "greedy": "one decision ahead: the action whose result game.evaluate likes best, over 4 determinizations",
    "mcts": "information-set MCTS over determinizations (default budget: under 1 s per move)",
}
"""Every bot kind `make_bot` knows, with a one-line description for menus and `--help`."""

LEVELS: dict[str, tuple[str, dict[str, Any]]] = {
    "easy": ("random", {}),
    "medium": ("greedy", {}),
    "hard": ("mcts", {"seconds": DEFAULT_SECONDS}),
}
"""Named difficulty presets for people: level -> (kind, options). "hard" thinks under 1 s a move."""


def bot_options(kind: str) -> list[str]:
    """The keyword options a kind accepts (besides `seed`), so tools can route budgets to it."""
    cls = _kind_class(kind)
    # The class's signature, not its __init__'s: a mypyc-compiled class (MctsBot) keeps it only there.
    params = inspect.signature(cls).parameters
    return [p for p in params if p not in ("self", "seed", "name")]


def level_preset(kind: str, game: str | None = None) -> tuple[str, dict[str, Any]]:
    """What a level plays: the game's own preset (`Game.levels`) if it has one, else LEVELS."""
    if game is not None:
        own = get_game(game).levels.get(kind)
        if own is not None:
            return own
    return LEVELS[kind]


def make_bot(kind: str, seed: int = 0, game: str | None = None, **kwargs: Any) -> Agent:
    """A bot of `kind` ("random", "greedy", "mcts" or a level in LEVELS), seeded with `seed`.

    `game` names the game it will play, so that a level can follow that game's own preset (`Game.levels`).
    kwargs go to the bot, e.g. `iterations=`/`seconds=` for mcts, `samples=` for greedy; an option
    the kind does not take raises TypeError rather than being silently ignored.
    """
    if kind in LEVELS:
        base, preset = level_preset(kind, game)
        return make_bot(base, seed, **{**preset, **kwargs})
    cls = _kind_class(kind)
    unknown = sorted(set(kwargs) - set(bot_options(kind)) - {"name"})
    if unknown:
        raise TypeError(f"bot kind {kind!r} takes no option(s) {unknown}; it takes {bot_options(kind)}")
    bot: Agent = cls(seed=seed, **kwargs)
    return bot


def _kind_class(kind: str) -> type:
    if kind in LEVELS:
        kind = LEVELS[kind][0]
    try:
        return _CLASSES[kind]
    except KeyError:
        known = ", ".join([*_CLASSES, *LEVELS])
        raise ValueError(f"unknown bot kind {kind!r}; known: {known}") from None


__all__ = ["BOT_KINDS", "DEFAULT_SECONDS", "LEVELS", "GreedyBot", "MctsBot", "RandomBot", "bot_options",
           "make_bot"]
