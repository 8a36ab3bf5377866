"""The encoders' readings of the state itself (`tensor`, what a learner's step builds, #35 speed) against their
reading of the seat's view (`encode(State.observation_view(seat))`, the reference, which cannot hold what the seat
may not see): equal, bit for bit, at every position of random games, for every seat and player count. So the
view's no-leak guarantee carries over to the fast reading."""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pytest
from rl_configs import CONFIGS

from boardlab.core import get_game
from boardlab.rl.common import ActionSpace, Decider, observation
from boardlab.rl.encoders import BUILT_IN, encoder_for
from boardlab.rl.encoders.kit import ViewEncoder

GAMES = sorted(BUILT_IN)


def configs() -> list[tuple[str, int]]:
    """Every game with a built-in encoder at every player count."""
    return [(g, n) for g, n in CONFIGS if g in BUILT_IN]


def same(state: Any, seat: int, where: str) -> None:
    """`tensor` equals `encode` of the observation view for this seat, and `tensor(..., extra)` adds only zeros."""
    enc = encoder_for(state.game.name)
    assert enc is not None
    reference = enc.encode(state.observation_view(seat), state.num_players)
    fast = enc.tensor(state, seat)
    assert fast.dtype == np.float32 and np.array_equal(fast, reference), (
        f"{where}, seat {seat}: slots {np.flatnonzero(fast != reference)[:10].tolist()} differ")
    roomy = enc.tensor(state, seat, 7)  # room for a learner's move so far: zeros after the tensor
    assert np.array_equal(roomy[:len(reference)], reference) and not roomy[len(reference):].any()


def compare(game: str, players: int, seeds: int, options: dict[str, Any]) -> int:
    """Every seat at every position of `seeds` random games: `tensor` against `encode` of the observation view."""
    g = get_game(game)
    checked = 0
    for seed in range(seeds):
        state, rng = g.new_game(players, 100 + seed, **options), random.Random(seed)
        while True:
            for seat in range(players):
                same(state, seat, f"seed {100 + seed}, move {len(state.history)}")
                checked += 1
            if state.is_over:
                break
            state.apply(rng.choice(state.legal_actions()))
    return checked


@pytest.mark.parametrize(("game", "players"), configs(), ids=lambda x: str(x))
def test_the_states_reading_is_the_views(game: str, players: int) -> None:
    assert compare(game, players, 3, {}) > 60


@pytest.mark.parametrize(("game", "players", "options"), [
    ("pocket_mars", 3, {"draft": True}),  # the draft's packets and the cards a seat saw in them
    ("pocket_mars", 1, {"automaton_ship": 7}),
    ("petrichor", 2, {"length": "long", "final_turn": "full", "voting_wins": "flowers", "reclaim": "always"}),
    ("block_and_key", 1, {"key_views": "own-side", "enigma_rounding": "down", "face_contact": "stack"}),
    ("block_and_key", 3, {"key_views": "own-side", "enigma_rounding": "down", "face_contact": "stack"}),
    ("cooper_island", 3, {"reactivation": "any"}),
], ids=lambda x: str(x))
def test_the_states_reading_is_the_views_under_the_options(game: str, players: int, options: dict[str, Any]) -> None:
    assert compare(game, players, 2, options) > 40


def test_values_random_games_seldom_reach() -> None:
    """What random play hardly ever shows (Block and Key's final round; Cooper Island's logs, forts, used large
    buildings, passes), set by hand in the middle of a game: still the view's reading. A fort on a hex has its own
    occupant slot (the encoder had none, and a learner's random game stopped at the first fort built)."""
    rng = random.Random(5)
    bk = get_game("block_and_key").new_game(2, 7)
    ci = get_game("cooper_island").new_game(3, 7)
    for state in (bk, ci):
        for _ in range(25):
            state.apply(rng.choice(state.legal_actions()))
    bk.final = True
    large = [c.id for c in ci.C.large]
    for q, P in enumerate(ci.players):
        P.logs, P.built["fort"], P.passed, P.large_used = q + 1, q, q != 1, set(large[q:q + 2])
        P.occ[5 + q] = "fort"
        P.changed()  # an island edited by hand (the rules' own edits do this)
    for state in (bk, ci):
        for seat in range(state.num_players):
            same(state, seat, f"{state.game.name}, set by hand")


@pytest.mark.parametrize("game", sorted(BUILT_IN))
def test_these_games_read_the_state_itself(game: str) -> None:
    """Every built-in encoder has its own reading (not the default's): the view's dicts cost most of a step."""
    enc = encoder_for(game)
    assert type(enc).tensor is not ViewEncoder.tensor


def test_a_learners_step_gives_the_observation_then_its_move_so_far() -> None:
    g = get_game("cacao")
    state = g.new_game(2, 3)
    space = ActionSpace(g, 2)
    decider = Decider(space, state)
    seat = state.current_player
    first = int(np.flatnonzero(decider.mask(seat))[0])
    assert decider.choose(first) is False  # a move of several sub-choices goes on
    obs = decider.observation(seat)
    size = len(observation(state, seat))
    assert np.array_equal(obs[:size], observation(state, seat))
    assert np.array_equal(obs[size:], space.partial((first,)))
