"""Solo games played against an automaton: who wins and the learning returns, from the automaton's score.

Why: Petrichor (the South Wind) and Pocket Mars (the automaton) wrote the same solo `winners`/`returns`;
the core keeps them once. A state lists the mixin before `State`, has a `solo` flag and an
`automaton_score()`, and says whether a tie (total, then tie-break) goes to the person.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

if TYPE_CHECKING:
    from .game import Score


class AutomatonOpponent:
    """Solo: winners [0] when the person beats the automaton (or ties it, with `solo_tie_wins`), else [];
    returns 1 / 0.5 / 0 for a win / tie / loss (0 until the end). Other player counts: the core rules."""

    solo: bool
    solo_tie_wins: ClassVar[bool] = False

    def automaton_score(self) -> Score:
        raise NotImplementedError

    def _solo_keys(self) -> tuple[tuple[int, ...], tuple[int, ...]]:
        me, bot = self.scores()[0], self.automaton_score()  # type: ignore[attr-defined]
        return (me.total, *me.tiebreak), (bot.total, *bot.tiebreak)

    def winners(self) -> list[int]:
        if not self.solo:
            return super().winners()  # type: ignore[misc, no-any-return]
        me, bot = self._solo_keys()
        return [0] if me > bot or (self.solo_tie_wins and me == bot) else []

    def returns(self) -> list[float]:
        if not self.solo:
            return super().returns()  # type: ignore[misc, no-any-return]
        if not self.is_over:  # type: ignore[attr-defined]
            return [0.0]
        me, bot = self._solo_keys()
        return [1.0 if me > bot else 0.5 if me == bot else 0.0]


__all__ = ["AutomatonOpponent"]
