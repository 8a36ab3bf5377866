"""What each seat may read of the log, and when an action may be undone.

Both questions belong to the game (`Game.action_visible`, `Game.describe_for`, `Game.undo_barrier`
in boardlab.core): each built-in game answers exactly; the core's defaults are sampled, generic tests.
This module only applies them to every viewer of a table.
"""

from __future__ import annotations

from typing import Any

from boardlab.core import Game, State

SPECTATOR = None
LANGS = ("en", "zh-TW")

Viewer = int | None


def viewers(players: int) -> list[Viewer]:
    return [*range(players), SPECTATOR]


def visible_to(game: Game, before: State, action: Any, actor: int, players: int) -> frozenset[Viewer]:
    """The viewers (seat numbers, None for spectators) allowed to read `action`'s notation."""
    return frozenset(v for v in viewers(players) if v == actor or game.action_visible(before, action, v))


def log_texts(game: Game, before: State, action: Any, visible: frozenset[Viewer],
              players: int) -> dict[tuple[Viewer, str], str]:
    """The log line in words for every viewer and language, each masked to what that viewer may know.

    Viewers who may read the notation (`visible`, which includes the actor) get the full words; only
    the others ask the game for masked words, so no visibility test runs twice for one viewer."""
    out: dict[tuple[Viewer, str], str] = {}
    for lang in LANGS:
        full = game.describe_action(action, lang)
        for v in viewers(players):
            out[(v, lang)] = full if v in visible else game.describe_for(before, action, v, lang)
    return out


def undo_allowed(game: Game, before: State, action: Any, after: State) -> bool:
    """True when undoing `action` cannot let anyone exploit information it revealed."""
    try:
        return not game.undo_barrier(before, action, after)
    except Exception:  # a game that cannot tell: the safe answer
        return False
