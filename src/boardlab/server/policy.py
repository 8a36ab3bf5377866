"""What each seat may read of the log, and when an action may be undone.

Both questions belong to the game (`Game.action_visible`, `Game.describe_for`, `Game.undo_barrier`
in boardlab.core): each built-in game answers exactly; the core's defaults are sampled, generic tests.
This module only applies them to every viewer of a table.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

from boardlab.core import Game, State
from boardlab.core.game import hidden_move

log = logging.getLogger("boardlab.server")

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
    """The viewers (seat numbers, None for spectators) allowed to read `action`'s notation; a viewer the game
    cannot answer for (it raised) may not: the safe side, and the move still goes through."""

    def may_read(v: Viewer) -> bool:
        try:
            return bool(game.action_visible(before, action, v))
        except Exception:
            log.exception("%s cannot tell who may read %r; hidden from viewer %s", game.name, str(action), v)
            return False

    return frozenset(v for v in viewers(players) if v == actor or may_read(v))


def log_texts(game: Game, before: State, action: Any, visible: frozenset[Viewer], players: int) -> tuple[str, ...]:
    """The log line in words for every viewer and language, each masked to what that viewer may know,
    in `text_index` order (a flat tuple of strings: cheap to keep for every move of every table).

    Viewers who may read the notation (`visible`, which includes the actor) get the full words; only
    the others ask the game for masked words, so no visibility test runs twice for one viewer.

    A game that fails to word a move must not stop the move (issue #32: Block and Key's solo discard raised in
    `term()`, and every discard was refused as a storage failure): a reader who may see the move gets its
    notation instead, any other reader the words of a hidden move, which name nothing."""

    def words(say: Callable[[], Any], instead: str, lang: str) -> str:
        try:
            return str(say())
        except Exception:
            log.exception("%s cannot word %r in %s; the log shows %r", game.name, str(action), lang, instead)
            return instead

    full = {lang: words(lambda lang=lang: game.describe_move(before, action, lang), str(action), lang)
            for lang in LANGS}
    return tuple(
        full[lang] if v in visible
        else words(lambda v=v, lang=lang: game.describe_for(before, action, v, lang), hidden_move(lang), lang)
        for v in viewers(players)
        for lang in LANGS
    )


def undo_allowed(game: Game, before: State, action: Any, after: State) -> bool:
    """True when undoing `action` cannot let anyone exploit information it revealed."""
    try:
        return not game.undo_barrier(before, action, after)
    except Exception:  # a game that cannot tell: the safe answer
        return False
