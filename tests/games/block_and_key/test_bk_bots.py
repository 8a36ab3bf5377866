"""The generic bots play Block and Key to the end, and a bot's choice ignores hidden cards it cannot see."""

from __future__ import annotations

import pytest
from bk_helpers import COMP, GAME, check_invariants, new

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


def test_evaluate_values_the_best_key_within_reach() -> None:
    """Half the points one placement would claim now count: take the reachable keys out of the hand and the
    evaluation drops by exactly that much (the other terms do not read the hand)."""
    from boardlab.games.block_and_key.evaluate import REACH

    rng = Rng(4)
    s = new(2, seed=11)
    while True:
        s.apply(GAME.random_search_action(s, rng))
        seat = s.actor
        if seat is not None and s.phase == "turn" and s.keys_within_reach(seat):
            break
    reach = s.keys_within_reach(seat)
    assert reach <= set(s.hands[seat])
    best = s.best_claim_points(seat)
    assert best >= max(COMP.keys[k].points for k in reach)
    value = GAME.evaluate(s, seat)
    s.hands[seat] = [k for k in s.hands[seat] if k not in reach]
    assert not s.keys_within_reach(seat)
    assert value - GAME.evaluate(s, seat) == pytest.approx(REACH * best)
