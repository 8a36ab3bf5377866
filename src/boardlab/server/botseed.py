"""The bot ladder's ratings, as the server seeds them: a bot level with no rating of its own in a game starts
from the rating the calibration run (`boardlab ladder --site`, boardlab.sim.bot_ladder) gave it, so the bot
picker shows how strong "hard" is before anyone has played it (issue #34). A level with a stored rating keeps it."""

from __future__ import annotations

import functools
from pathlib import Path

from boardlab.core import games
from boardlab.sim.bot_ladder import load, seeds

LADDER_FILE = Path(__file__).with_name("bot_ladder.json")


@functools.cache
def ladder_seeds(path: Path = LADDER_FILE) -> dict[str, dict[str, tuple[float, float]]]:
    """game -> level -> (mu, sigma); read once. No file: no seeds. A broken file stops the server at start
    (LadderFileError says where), rather than seeding wrong numbers."""
    if not path.exists():
        return {}
    return seeds(load(path, list(games())))


def seed(game: str, level: str) -> tuple[float, float] | None:
    """The ladder's (mu, sigma) for a bot level in a game, or None."""
    return ladder_seeds().get(game, {}).get(level)
