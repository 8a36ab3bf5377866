"""What a learning step builds, and builds once (#35, speed): the encoders' reference reading (`encode`) is of
`State.observation_view`, a part of the seat's view without what the view spells out only for people (the
decider's options as text, Block and Key's side views), so it can never hold more than the view; the tensor read
from it is the one the whole view gives (and a step's `tensor` is that one: test_rl_tensor.py); and a step applies
the chosen move without checking it against the legal list a second time (the mask already offered only legal
moves)."""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pytest

from boardlab.core import State, get_game
from boardlab.rl import pettingzoo as bpz
from boardlab.rl.encoders import BUILT_IN, encoder_for

GAMES = sorted(BUILT_IN)


def part_of(part: Any, whole: Any, path: str = "view") -> None:
    """Every key of `part` is in `whole` with an equal value (nested dicts compared the same way)."""
    if isinstance(part, dict) and isinstance(whole, dict):
        for key, value in part.items():
            assert key in whole, f"{path}.{key} is not in the view"
            part_of(value, whole[key], f"{path}.{key}")
    else:
        assert part == whole, f"{path} differs from the view"


def positions(game: str, players: int = 2, seeds: int = 2, every: int = 3) -> list[State]:
    """Every `every`-th position of a few random games, the ends included."""
    g, out = get_game(game), []
    for seed in range(seeds):
        state, rng = g.new_game(players, seed), random.Random(seed)
        while not state.is_over:
            if len(state.history) % every == 0:
                out.append(state.clone())
            state.apply(rng.choice(state.legal_actions()))
        out.append(state)
    return out


@pytest.mark.parametrize("game", GAMES)
def test_the_observation_view_is_part_of_the_view_and_gives_the_same_tensor(game: str) -> None:
    enc = encoder_for(game)
    assert enc is not None
    for state in positions(game):
        for seat in range(state.num_players):
            lean, full = state.observation_view(seat), state.view(seat)
            part_of(lean, full)
            assert np.array_equal(enc.encode(lean, state.num_players), enc.encode(full, state.num_players))


@pytest.mark.parametrize("game", ["cooper_island", "petrichor", "pocket_mars"])
def test_the_deciders_options_are_not_spelled_out_for_an_observation(game: str) -> None:
    state = positions(game, seeds=1)[4]
    seat = state.current_player
    assert "options" in state.view(seat)["decision"]
    assert "options" not in state.observation_view(seat)["decision"]


def test_block_and_key_builds_no_side_views_for_an_observation() -> None:
    state = positions("block_and_key", seeds=1)[6]
    assert len(state.view(0)["temple"]["views"]) == 5  # the top and four sides, as text rows
    assert "views" not in state.observation_view(0)["temple"]


@pytest.mark.parametrize("game", ["cacao", "cooper_island"])
def test_a_step_does_not_check_the_move_against_the_legal_list_again(game: str, monkeypatch) -> None:
    """The mask offered only what a legal move continues with, so the move a step completes is one of the state's
    legal moves: `State.apply` (which scans them) is not called, `apply_unchecked` is."""
    env = bpz.env(game, players=2)
    env.reset(seed=3)

    def scanning(*args: Any) -> None:
        raise AssertionError("State.apply called: the legal list is scanned a second time")

    monkeypatch.setattr(State, "apply", scanning)
    rng = np.random.default_rng(3)
    for _ in range(40):
        obs, _, term, trunc, _ = env.last()
        env.step(None if term or trunc else int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    assert len(env.unwrapped.game_state.history) > 5


@pytest.mark.parametrize("game", ["block_and_key", "cooper_island"])
def test_remembered_parts_give_the_tensor_a_fresh_encoder_gives(game: str) -> None:
    """The encoders replay the writes of a part of the view that repeats (a seat's island, the temple:
    `kit.Memo`); along random games, every seat at every step, the tensor is the one an encoder that remembers
    nothing builds."""
    enc = encoder_for(game)
    assert enc is not None
    for state in positions(game, seeds=1, every=1):
        for seat in range(state.num_players):
            view = state.observation_view(seat)
            fresh = type(enc)()
            assert np.array_equal(enc.encode(view, 2), fresh.encode(view, 2))
            assert fresh.memo.last and len(enc.memo.last) >= len(fresh.memo.last)


def test_a_view_changed_in_place_is_encoded_again() -> None:
    """A caller that edits a view and encodes it again gets the edited tensor, not the remembered one."""
    enc = encoder_for("cooper_island")
    assert enc is not None
    state = positions("cooper_island", seeds=1)[3]
    view = state.observation_view(0)
    before = enc.encode(view, 2)
    hexes = view["boards"][0]["hexes"]
    cubed = next(x for x in hexes if x["cube"])  # the start hex's food, at least
    cubed["cube"] = "stone" if cubed["cube"] != "stone" else "wood"
    after = enc.encode(view, 2)
    assert not np.array_equal(before, after)
    assert np.array_equal(after, type(enc)().encode(view, 2))
