"""The bot ladder's ratings, as the server seeds them: a bot level with no rating of its own in a game starts
from the rating the calibration run (`boardlab ladder --site`, boardlab.sim.bot_ladder) gave it, so the bot
picker shows how strong "hard" is before anyone has played it (issue #34). A level with a stored rating keeps it."""

from __future__ import annotations

import functools
import os
from pathlib import Path

from boardlab.core import games
from boardlab.sim.bot_ladder import LevelRating, load, seeds

from . import ratings

LADDER_FILE = Path(__file__).with_name("bot_ladder.json")


def ladder_file() -> Path:
    """The shipped file, or another one named by BOARDLAB_BOT_LADDER (an empty value: none, no seeds)."""
    return Path(os.environ.get("BOARDLAB_BOT_LADDER", LADDER_FILE))


def ladder_seeds() -> dict[str, dict[str, LevelRating]]:
    """game -> level -> its ladder rating, read once per file. No file: no seeds. A broken file stops the server
    at start (LadderFileError says where), rather than seeding wrong numbers."""
    return _seeds(ladder_file())


@functools.cache
def _seeds(path: Path) -> dict[str, dict[str, LevelRating]]:
    if not path.is_file():
        return {}
    return seeds(load(path, list(games())))


def start(player: str, game: str) -> tuple[float, float, int]:
    """Where a player with no stored rating in `game` starts: (mu, sigma, games already behind it). A bot level
    ("bot:hard") starts from its ladder rating and counts the ladder's games (so it is not provisional); everyone
    else from the model's default, with none."""
    if player.startswith("bot:"):
        r = ladder_seeds().get(game, {}).get(player[4:])
        if r is not None:
            return r.mu, r.sigma, r.games
    return ratings.MU, ratings.SIGMA, 0


def prior_games(player: str, game: str) -> int:
    """Games a player's rating rests on besides the site's own: the ladder's, for a seeded bot level."""
    return start(player, game)[2]
