"""Compact actions (#35): every game's action space in the learning interfaces is at most 10,000 ids; a game
with an action split has its moves chosen in a few small steps by the same agent, the mask exact at every step
(the moves the sub-choices reach are exactly the engine's legal moves) and the observation showing the choice
so far; the old flat ids stay an option."""

from __future__ import annotations

import random

import numpy as np
import pytest
from rl_configs import CONFIGS, IDS

from boardlab.core import ActionParseError, get_game
from boardlab.core.action_split import ActionSplit
from boardlab.rl import gymnasium as bgym
from boardlab.rl import openspiel as bos
from boardlab.rl import pettingzoo as bpz
from boardlab.rl.common import ActionSpace, Decider

LIMIT = 10_000


@pytest.mark.parametrize(("game", "players"), CONFIGS, ids=IDS)
def test_every_action_space_is_at_most_ten_thousand_ids(game: str, players: int) -> None:
    """Cacao had 1,031,747 ids and Block and Key 737,433 (a 1 MB mask per step)."""
    pz = bpz.raw_env(game, players=players)
    assert pz.action_space("seat_0").n <= LIMIT
    assert pz.observation_space("seat_0")["action_mask"].shape[0] <= LIMIT
    assert bos.load(game, players).num_distinct_actions() <= LIMIT
    if players > 1:
        assert bgym.env(game, opponents=["random"] * (players - 1)).action_space.n <= LIMIT


def _reached(space: ActionSpace, state, prefix: tuple[int, ...], out: list) -> None:
    """Every move the masks lead to from `prefix`, following each offered id on a copy of the position."""
    probe = Decider(space, state)
    probe.prefix = prefix
    offered = np.flatnonzero(probe.mask(state.current_player)).tolist()
    assert offered, f"the choice so far {prefix} is offered but no legal move completes it"
    for token in offered:
        step = Decider(space, state.clone())
        step.prefix = prefix
        done = step.choose(token)
        if done:
            out.append(step.state.history[-1])
        else:
            assert done is False and step.prefix == (*prefix, token) and len(step.prefix) < space.depth
            _reached(space, state, step.prefix, out)


@pytest.mark.parametrize("game", ["cacao", "block_and_key", "cooper_island"])
def test_masks_are_exact_the_sub_choices_reach_exactly_the_legal_moves(game: str) -> None:
    """At random positions of random games, following every id each mask offers reaches each legal move once and
    nothing else, and no offered partial choice is a dead end."""
    g = get_game(game)
    space = ActionSpace(g, 2)
    rng = random.Random(35)
    checked = 0
    for seed in range(2):
        state = g.new_game(2, seed)
        while not state.is_over:
            if rng.random() < 0.08 or len(state.history) < 2:
                reached: list = []
                _reached(space, state, (), reached)
                legal = state.legal_actions()
                assert sorted(map(str, reached)) == sorted(map(str, legal))
                assert set(reached) == set(legal)
                checked += 1
            state.apply(rng.choice(state.legal_actions()))
    assert checked >= 6


def test_a_cacao_placement_is_tile_then_column_row_rotation_by_the_same_agent() -> None:
    """The first turn's placement takes four AEC steps of the same agent; between them the observation's view
    part stays the same and its partial block shows exactly the ids chosen so far; the move played is the one
    the four ids name, and the next decision starts with an empty partial block."""
    env = bpz.raw_env("cacao", players=2)
    env.reset(seed=3)
    agent = env.agent_selection
    split = get_game("cacao").action_split(2)
    view_size = env.observation_space(agent)["observation"].shape[0] - env.space.partial_size
    first = env.observe(agent)["observation"]
    assert not first[view_size:].any()
    chosen = []
    for _ in range(4):
        assert env.agent_selection == agent and not env.game_state.history
        obs = env.observe(agent)
        assert np.array_equal(obs["observation"][:view_size], first[:view_size])
        partial = obs["observation"][view_size:].reshape(split.depth - 1, split.size)
        assert [int(np.flatnonzero(row)[0]) for row in partial if row.any()] == chosen
        chosen.append(int(np.flatnonzero(obs["action_mask"])[0]))
        env.step(chosen[-1])
    move = env.game_state.history[-1]
    assert split.parts(move) == tuple(chosen)
    assert [split.describe(t).split()[0] for t in chosen] == [move.kind, "x", "y", "rot"]
    assert not env.observe(agent)["observation"][view_size:].any()  # the next decision starts afresh


def test_flat_actions_stay_an_option() -> None:
    """`actions="flat"`: one id per move, the engine's own `action_to_id`, as before."""
    g = get_game("cacao")
    env = bpz.raw_env("cacao", players=2, actions="flat")
    env.reset(seed=3)
    assert env.num_actions == g.num_distinct_actions(2)
    state = env.game_state
    legal = state.legal_actions()
    ids = sorted(g.action_to_id(a, 2) for a in legal)
    assert np.flatnonzero(env.observe(env.agent_selection)["action_mask"]).tolist() == ids
    env.step(ids[0])
    assert state.history == [g.id_to_action(ids[0], 2)]
    assert bos.load("cacao", 2, actions="flat").num_distinct_actions() == g.num_distinct_actions(2)
    with pytest.raises(ValueError, match="actions must be one of compact, flat"):
        bpz.raw_env("cacao", players=2, actions="tiny")


def test_an_id_not_offered_mid_move_changes_nothing() -> None:
    """Bad input gets a clear error and changes nothing: mid-move, an id the mask does not offer is refused
    (raw env) and the choice so far stays; Gymnasium ends the episode with -1 as for any illegal id."""
    from boardlab.core import IllegalActionError

    env = bpz.raw_env("block_and_key", players=2)
    env.reset(seed=1)
    agent = env.agent_selection
    while not any(len(env.space.parts(a)) > 1 for a in env.game_state.legal_actions()):
        env.step(int(np.flatnonzero(env.observe(env.agent_selection)["action_mask"])[0]))
        agent = env.agent_selection
    mask = env.observe(agent)["action_mask"]
    first = next(p[0] for p in map(env.space.parts, env.game_state.legal_actions()) if len(p) > 1)
    env.step(first)
    before = (env.decider.prefix, len(env.game_state.history))
    bad = int(np.flatnonzero(env.observe(agent)["action_mask"] == 0)[0])
    with pytest.raises(IllegalActionError):
        env.step(bad)
    assert (env.decider.prefix, len(env.game_state.history)) == before == ((first,), before[1])
    assert mask[first] == 1


def test_an_action_split_refuses_what_it_cannot_name() -> None:
    split = ActionSplit(steps={"go": (("kind", "to"),), "pass": (("kind",),)}, domains={"to": range(3)})
    assert split.size == 4 and split.depth == 1 and split.describe(1) == "go 1"
    with pytest.raises(ActionParseError, match="no parts"):
        split.parts(("jump", 1))
    with pytest.raises(ActionParseError, match="out of range"):
        split.describe(4)
    with pytest.raises(ValueError, match="must choose the kind"):
        ActionSplit(steps={"go": (("to",),)}, domains={"to": range(3)})
