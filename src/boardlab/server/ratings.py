"""Ratings per game with OpenSkill (Plackett-Luce), and the ranks a finished table gives.

Why OpenSkill rather than Glicko-2: our games are 2-4 player free-for-alls; Glicko-2 rates pairs,
so a 4-player game would have to be cut into 6 pretend duels (which over-counts one result),
while Plackett-Luce rates one ranking of any number of players at once, handles ties, and its
(mu, sigma) says how sure it is; it is also free of the TrueSkill patents. The number shown is
the conservative `ordinal` (mu - 3 sigma), scaled x 100 and offset so a new player starts at 1500
(mu=25, sigma=25/3 -> ordinal 0) and "rating goes up when you win" holds from the first game.

Leavers (BGA's zombie rule, as we read it; docs/server.md): a player who leaves a rated game
(hands their seat to a bot) or is expelled after running out of time loses: they are ranked
last (tied with any other leaver); the others are ranked among themselves by the game's own
result, as it ended with a bot in the leaver's seat.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from openskill.models import PlackettLuce

MODEL = PlackettLuce()
MU, SIGMA = MODEL.mu, MODEL.sigma
BASE = 1500
PROVISIONAL_GAMES = 5
"""A rating is provisional (shown as such) until this many rated games of that game: a new account's number
says little yet (issue #32)."""


def provisional(rated_games: int) -> bool:
    return rated_games < PROVISIONAL_GAMES


def shown(mu: float, sigma: float) -> int:
    """The rating people see: conservative ordinal, x100, new players at 1500."""
    return round(BASE + 100 * (mu - 3 * sigma))


def ranks(totals: Sequence[float | None], winners: Sequence[int], leavers: Sequence[int]) -> list[int]:
    """1 = best. Winners first (ties share), then by total score, leavers last."""
    n = len(totals)
    key: list[tuple[int, int, float]] = []
    for s in range(n):
        if s in leavers:  # every leaver shares the last place, whatever their seat's bot did
            key.append((1, 0, 0.0))
        else:
            key.append((0, 0 if s in winners else 1, -(totals[s] or 0.0)))
    order = sorted(range(n), key=lambda s: key[s])
    out = [0] * n
    rank = 0
    prev: tuple[int, int, float] | None = None
    for pos, s in enumerate(order):
        if key[s] != prev:
            rank = pos + 1
            prev = key[s]
        out[s] = rank
    return out


def rate(players: Sequence[tuple[float, float]], ranking: Sequence[int]) -> list[tuple[float, float]]:
    """New (mu, sigma) of each player after one game with these ranks (1 = best)."""
    teams: list[list[Any]] = [[MODEL.create_rating([mu, sigma])] for mu, sigma in players]
    new = MODEL.rate(teams, ranks=list(ranking))
    return [(t[0].mu, t[0].sigma) for t in new]
