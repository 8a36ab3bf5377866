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


def lang_of(lang: str | None) -> str:
    """The language of the words: one of LANGS, English for anything else."""
    return lang if lang in LANGS else "en"


def viewer_index(viewer: Viewer, players: int) -> int:
    """Seats are 0..players-1; spectators come last."""
    return players if viewer is None else viewer


def text_index(viewer: Viewer, lang: str, players: int) -> int:
    """Where `log_texts` puts the line for `viewer` in `lang` (unknown languages read English)."""
    return viewer_index(viewer, players) * len(LANGS) + LANGS.index(lang_of(lang))


def visible_to(game: Game, before: State, action: Any, actor: int, players: int) -> frozenset[Viewer]:
    """The viewers (seat numbers, None for spectators) allowed to read `action`'s notation."""
    return frozenset(v for v in viewers(players) if v == actor or game.action_visible(before, action, v))


def log_texts(game: Game, before: State, action: Any, visible: frozenset[Viewer], players: int) -> tuple[str, ...]:
    """The log line in words for every viewer and language, each masked to what that viewer may know,
    in `text_index` order (a flat tuple of strings: cheap to keep for every move of every table).

    Viewers who may read the notation (`visible`, which includes the actor) get the full words; only
    the others ask the game for masked words, so no visibility test runs twice for one viewer."""
    full = {lang: str(game.describe_move(before, action, lang)) for lang in LANGS}
    return tuple(
        full[lang] if v in visible else str(game.describe_for(before, action, v, lang))
        for v in viewers(players)
        for lang in LANGS
    )


def undo_allowed(game: Game, before: State, action: Any, after: State) -> bool:
    """True when undoing `action` cannot let anyone exploit information it revealed."""
    try:
        return not game.undo_barrier(before, action, after)
    except Exception:  # a game that cannot tell: the safe answer
        return False
