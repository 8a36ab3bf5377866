"""Every registered game at every player count: the learning interfaces must work for all of them,
including games added later (they get these interfaces through the core, with no adapter code)."""

from __future__ import annotations

import boardlab
from boardlab.core import get_game


def game_configs() -> list[tuple[str, int]]:
    out = []
    for name in boardlab.games():
        g = get_game(name)
        out += [(name, n) for n in range(g.min_players, g.max_players + 1)]
    return out


CONFIGS = game_configs()
IDS = [f"{g}-{n}p" for g, n in CONFIGS]
