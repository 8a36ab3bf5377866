"""Every installed game at every player count: the learning interfaces must work for all of them,
including games added later (they get these interfaces through the core, with no adapter code).

Installed, not merely registered: the list is read when tests are collected, and a toy game another test module
registers in the same process (tests/server/toygame.py) must not change which tests exist — parallel workers
must collect the same tests."""

from __future__ import annotations

from boardlab.core import get_game
from boardlab.core.registry import installed_games


def game_configs() -> list[tuple[str, int]]:
    out = []
    for name in installed_games():
        g = get_game(name)
        out += [(name, n) for n in range(g.min_players, g.max_players + 1)]
    return out


CONFIGS = game_configs()
IDS = [f"{g}-{n}p" for g, n in CONFIGS]
