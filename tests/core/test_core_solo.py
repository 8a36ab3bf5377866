"""core.solo: a solo game against an automaton is won, tied or lost on total then tie-break."""

from __future__ import annotations

import pytest

from boardlab.core.game import Score
from boardlab.core.solo import AutomatonOpponent


class Base:
    def winners(self) -> list[int]:
        return [0, 1]

    def returns(self) -> list[float]:
        return [0.5, 0.5]


class Solo(AutomatonOpponent, Base):
    def __init__(self, me: Score, bot: Score, solo: bool = True, over: bool = True) -> None:
        self.me, self.bot, self.solo, self.is_over = me, bot, solo, over

    def scores(self) -> list[Score]:
        return [self.me]

    def automaton_score(self) -> Score:
        return self.bot


class TieWins(Solo):
    solo_tie_wins = True


@pytest.mark.parametrize(("me", "bot", "won", "ret"), [
    (Score(10, tiebreak=(1,)), Score(9, tiebreak=(5,)), [0], [1.0]),
    (Score(10, tiebreak=(1,)), Score(10, tiebreak=(2,)), [], [0.0]),  # the tie-break decides
    (Score(10, tiebreak=(2,)), Score(10, tiebreak=(2,)), [], [0.5]),
])
def test_win_tie_loss(me: Score, bot: Score, won: list[int], ret: list[float]) -> None:
    assert Solo(me, bot).winners() == won and Solo(me, bot).returns() == ret
    assert Solo(me, bot, over=False).returns() == [0.0]


def test_a_full_tie_goes_to_the_person_only_when_the_game_says_so() -> None:
    s = Score(7, tiebreak=(3,))
    assert Solo(s, s).winners() == [] and TieWins(s, s).winners() == [0]
    assert TieWins(s, s).returns() == [0.5]


def test_with_more_players_the_core_rules_apply() -> None:
    s = Score(7)
    assert Solo(s, s, solo=False).winners() == [0, 1] and Solo(s, s, solo=False).returns() == [0.5, 0.5]
