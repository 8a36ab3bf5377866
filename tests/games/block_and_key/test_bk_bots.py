"""The generic bots play Block and Key to the end, and a bot's choice ignores hidden cards it cannot see."""

from __future__ import annotations

import pytest
from bk_helpers import GAME, check_invariants, new

from boardlab.bots import make_bot
from boardlab.core import Rng, observe, play_game


@pytest.mark.parametrize(("players", "kinds"), [
    (2, ("random", "greedy")),
    (3, ("mcts", "random", "random")),
    (1, ("greedy",)),
])
def test_bots_finish_games(players: int, kinds: tuple[str, ...]) -> None:
    opts = {"greedy": {"samples": 1}, "mcts": {"iterations": 4}, "random": {}}
    agents = [make_bot(k, seed=i, **opts[k]) for i, k in enumerate(kinds)]
    state = play_game(new(players, seed=21), agents)
    assert state.is_over
    check_invariants(state)
    assert state.winners()


def test_a_bots_choice_does_not_depend_on_others_hidden_cards() -> None:
    """Seat 0's greedy choice is the same in the true position and in one where the other hands, the Enigma
    cards of the others, the altars and the bag order are reshuffled (a determinization for seat 0)."""
    s = new(2, seed=8)
    while s.current_player != 0 or s.phase != "turn":
        s.apply(s.legal_actions()[0])
    other = s.determinize(0, Rng(99))
    assert other.snapshot() != s.snapshot()
    a = make_bot("greedy", seed=5, samples=2).choose(observe(s, 0))
    b = make_bot("greedy", seed=5, samples=2).choose(observe(other, 0))
    assert a == b


def test_evaluate_prefers_claiming_a_key() -> None:
    s = new(2, seed=3)
    base = GAME.evaluate(s, 0)
    s.claimed[0].append(s.decks[1].pop())
    assert GAME.evaluate(s, 0) > base
