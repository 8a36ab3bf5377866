"""Generic, sampled answers to two questions a table server must ask about every action:

* may a seat read an action's notation (is it public once played)?
* may the action be undone (did it reveal hidden information or involve chance)?

They use only the State API (clone, apply, view, determinize), so they work for any game; they are
sampled tests and cost many clones, so every built-in game answers exactly and cheaply instead
(`Game.action_visible`, `Game.undo_barrier`). `tells_apart` is the fallback of `action_visible`.
`reveals_or_draws` is no longer the default undo barrier: a sample can miss a reveal (e.g. a card
every determinization happens to hold), so `Game.undo_barrier` now defaults to "always a barrier";
it stays here as a tool (tests use it to show what the sampled test misses).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .rng import Rng

if TYPE_CHECKING:  # game.py imports this module (lazily): the arrow runs game -> visibility only
    from .game import State

MAX_ALTERNATIVES = 64
VISIBLE_SAMPLES = 4
UNDO_SAMPLES = 3


def tells_apart(before: State, action: Any, seat: int) -> bool:
    """Could `seat` tell `action` apart from every other action the actor might have taken, in every
    position it cannot tell apart from the true one (sampled by determinization)? Too many
    alternatives or any error counts as "no" (hidden), to stay cheap and safe."""
    after = before.clone()
    after.apply(action)
    mine = after.view(seat)
    try:
        worlds = [before] + [before.determinize(seat, Rng(0xA11CE + k)) for k in range(VISIBLE_SAMPLES)]
        for w in worlds:
            legal = w.legal_actions()
            if len(legal) > MAX_ALTERNATIVES:
                return False
            for b in legal:
                if b == action:
                    continue
                s = w.clone()
                s.apply(b)
                if s.view(seat) == mine:
                    return False
    except Exception:
        return False
    return True


def reveals_or_draws(before: State, action: Any, after: State) -> bool:
    """Board Game Arena's undo barrier: True unless replaying `action` on several determinizations of
    the position as each seat knew it always shows that seat exactly what it sees now."""
    for seat in range(before.num_players):
        seen = after.view(seat)
        for k in range(UNDO_SAMPLES):
            try:
                sample = before.determinize(seat, Rng(0x5EED + 7919 * k + seat))
                sample.apply(action)
                if sample.view(seat) != seen:
                    return True
            except Exception:
                return True
    return False


def shown_to_others(before: State, action: Any, after: State, samples: int = UNDO_SAMPLES) -> str | None:
    """How an undoable `action` could leak (issue #32): "reveal" when another seat's view after it differs from
    what replaying it in a determinization of the position, as that seat knew it, shows (undoing it would hide
    again what was seen); "unplayable" when a sample does not allow it (it names a card the sample did not deal
    the mover: what its notation shows is `Game.action_visible`'s question); None when no sample tells."""
    mover = before.current_player
    for seat in range(before.num_players):
        if seat == mover:
            continue
        seen = after.view(seat)
        for k in range(samples):
            sample = before.determinize(seat, Rng(0x5EED + 7919 * k + seat))
            try:
                sample.apply(action)
            except Exception:
                return "unplayable"
            if sample.view(seat) != seen:
                return "reveal"
    return None
