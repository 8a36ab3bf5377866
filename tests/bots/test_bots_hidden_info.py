"""A bot's decision must not depend on what its seat cannot see.

Method: take a position, build a second *true* state that differs only in hidden information the
deciding seat cannot see (redealt directly here, not with the engine's `determinize`, so the test
does not trust the code under test), check that the seat's view is identical and the hidden parts
really differ, then ask two identically seeded bots. Their whole search statistics must be equal,
not just the chosen action (a chosen action often survives a leak by luck).

Why it can fail: if a bot peeked at the true state, or if `determinize` depended on the true hidden
values (as `LeakyToyGame` does), the samples and so the statistics would differ. The last test shows
the check does catch such a leak.
"""

from __future__ import annotations

import pytest
from bots_toygame import ToyState, new_toy

from boardlab.bots import GreedyBot, MctsBot, make_bot
from boardlab.core import Rng, State, observe

BUDGET = {"greedy": {"samples": 3}, "mcts": {"iterations": 150}}


def positions(seed: int, leaky: bool = False) -> list[ToyState]:
    """Every decision point of one random game (both the leader's and the follower's decisions)."""
    state = new_toy(seed, leaky)
    rng = Rng(seed)
    out = []
    while not state.is_over:
        out.append(state.clone())
        state.apply(rng.choice(state.legal_actions()))
    return out


def redeal_hidden(state: ToyState, seat: int, rng: Rng) -> ToyState:
    """The same position for `seat`, with everything `seat` cannot see dealt anew."""
    for _ in range(100):
        other = state.clone()
        for s in range(state.num_players):
            unseen = list(other.piles[s]) + ([] if s == seat else list(other.hands[s]))
            rng.shuffle(unseen)
            k = 0 if s == seat else len(other.hands[s])
            if s != seat:
                other.hands[s] = sorted(unseen[:k])
            other.piles[s] = unseen[k:]
        if other.snapshot() != state.snapshot():
            return other
    raise AssertionError("nothing hidden to redeal")


def decide(kind: str, state: State, seat: int) -> tuple[object, object]:
    bot = make_bot(kind, seed=42, **BUDGET[kind])
    action = bot.choose(observe(state, seat))
    stats = bot.last_stats if isinstance(bot, MctsBot) else bot.last_values if isinstance(bot, GreedyBot) \
        else None
    return action, stats


def checked_pairs(leaky: bool) -> list[tuple[ToyState, ToyState, int]]:
    pairs = []
    rng = Rng(99)
    for seed in (1, 2):
        for state in positions(seed, leaky):
            seat = state.current_player
            assert seat is not None
            if len(state.legal_actions()) < 2 or (not state.piles[1 - seat] and not state.piles[seat]):
                continue
            twin = redeal_hidden(state, seat, rng)
            assert twin.view(seat) == state.view(seat)
            assert twin.snapshot() != state.snapshot()
            pairs.append((state, twin, seat))
    assert len(pairs) >= 6
    return pairs


@pytest.mark.parametrize("kind", ["greedy", "mcts"])
def test_decision_ignores_hidden_information(kind: str) -> None:
    for state, twin, seat in checked_pairs(leaky=False):
        assert decide(kind, state, seat) == decide(kind, twin, seat), f"leak at {state.history}"


def test_the_check_catches_a_leaky_determinization() -> None:
    differing = sum(decide("mcts", state, seat) != decide("mcts", twin, seat)
                    for state, twin, seat in checked_pairs(leaky=True))
    assert differing >= 3
