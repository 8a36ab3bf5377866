"""PettingZoo AEC environments: PettingZoo's own api_test and seed_test for every registered game
and player count; observations from the seat's view only; rewards, masks and text rendering."""

from __future__ import annotations

import random

import numpy as np
import pytest
from pettingzoo.test import api_test, seed_test
from rl_configs import CONFIGS, IDS

from boardlab.core import IllegalActionError, Rng, get_game
from boardlab.rl import pettingzoo as pz
from boardlab.rl.common import observation


@pytest.mark.parametrize(("game", "players"), CONFIGS, ids=IDS)
def test_pettingzoo_api_test(game: str, players: int) -> None:
    api_test(pz.env(game, players=players), num_cycles=1000)


@pytest.mark.parametrize(("game", "players"), CONFIGS, ids=IDS)
def test_pettingzoo_seed_test(game: str, players: int) -> None:
    seed_test(lambda: pz.env(game, players=players), num_cycles=100)


@pytest.mark.parametrize(("game", "players"), CONFIGS, ids=IDS)
def test_full_game_rewards_masks_and_spaces(game: str, players: int) -> None:
    """A random game to the end: only the seat to decide has a non-empty mask, it lists exactly the ids some legal
    action continues with after the agent's choices so far, and the final rewards are the zero-sum utilities of
    the real result."""
    env = pz.raw_env(game, players=players)
    env.reset(seed=11)
    rng = random.Random(11)
    for agent in env.agent_iter():
        obs, _, term, trunc, _ = env.last()
        assert env.observation_space(agent).contains(obs)
        if term or trunc:
            env.step(None)
            continue
        state = env.game_state
        assert env.seat(agent) == state.current_player
        so_far = env.decider.prefix  # the ids the agent has chosen of a move not yet whole
        ids = {p[len(so_far)] for p in map(env.space.parts, state.legal_actions()) if p[:len(so_far)] == so_far}
        assert set(np.flatnonzero(obs["action_mask"]).tolist()) == ids
        for other in env.possible_agents:
            if other != agent:
                assert not env.observe(other)["action_mask"].any()
        env.step(rng.choice(sorted(ids)))
    final = env.game_state
    assert final.is_over
    util = [max(2, players) * r - 1 for r in final.returns()]
    assert [env._cumulative_rewards.get(a, None) for a in env.possible_agents] in (
        util, [None] * players)  # agents leave once they have stepped dead
    if players > 1:
        assert abs(sum(util)) < 1e-9
    else:
        assert -1.0 <= util[0] <= 1.0  # solo: 2 x (the game's return in [0, 1]) - 1


def test_final_rewards_reach_every_agent() -> None:
    env = pz.env("cacao", players=3)
    env.reset(seed=5)
    rng = random.Random(5)
    got: dict[str, float] = {}
    for agent in env.agent_iter():
        obs, reward, term, trunc, _ = env.last()
        if term or trunc:
            got[agent] = reward
            env.step(None)
        else:
            env.step(rng.choice(np.flatnonzero(obs["action_mask"]).tolist()))
    state = env.unwrapped.game_state
    assert got == {f"seat_{i}": 3 * r - 1 for i, r in enumerate(state.returns())}
    assert max(got.values()) > 0 > min(got.values())


@pytest.mark.parametrize(("game", "players"), [c for c in CONFIGS if c[1] > 1], ids=[i for c, i in zip(
    CONFIGS, IDS, strict=True) if c[1] > 1])
def test_observation_ignores_others_hidden_information(game: str, players: int) -> None:
    """Reshuffle everything a seat cannot see (State.determinize redeals the others' hands, the
    piles): that seat's observation stays the same bit for bit. The test can fail: the reshuffled
    states do differ (snapshots), and another seat's observation changes with them."""
    rng = random.Random(7)
    state = get_game(game).new_game(players, 3)
    positions = []
    while not state.is_over:  # one random game; check positions spread over all of it
        positions.append(state.clone())
        state.apply(rng.choice(state.legal_actions()))
    changed_worlds = changed_other_obs = 0
    for checked, state in enumerate(positions[:: max(1, len(positions) // 15)]):
        for seat in range(players):
            mine = observation(state, seat)
            for k in range(2):
                world = state.determinize(seat, Rng(1000 * checked + 10 * seat + k))
                assert np.array_equal(observation(world, seat), mine), (game, seat, len(state.history))
                changed_worlds += world.snapshot() != state.snapshot()
                other = (seat + 1) % players
                changed_other_obs += not np.array_equal(observation(world, other), observation(state, other))
    assert changed_worlds > 0
    # Cooper Island's secrets in the opening (the tile bag, the log tokens) are hidden from every seat
    # alike: no seat knows more than another until a building offer, so no other seat's view can change
    if game != "cooper_island":
        assert changed_other_obs > 0


def test_raw_env_refuses_illegal_actions_and_wrapped_env_penalises_them() -> None:
    raw = pz.raw_env("cacao", players=2)
    raw.reset(seed=1)
    obs = raw.observe(raw.agent_selection)
    illegal = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    before = raw.game_state.snapshot()
    with pytest.raises(IllegalActionError):
        raw.step(illegal)
    assert raw.game_state.snapshot() == before
    env = pz.env("cacao", players=2)
    env.reset(seed=1)
    first = env.agent_selection
    env.step(illegal)
    assert env.terminations[first]
    assert env.rewards[first] == -1


def test_reset_without_seed_moves_to_the_next_deal_and_render_is_text() -> None:
    env = pz.raw_env("cacao", players=2, render_mode="ansi")
    env.reset(seed=40)
    first = env.game_state.snapshot()
    env.reset()
    assert env.game_state.seed == 41 and env.game_state.snapshot() != first
    text = env.render()
    assert isinstance(text, str) and text.strip()
    assert get_game("cacao").render_text(env.game_state, None) != ""


def test_bad_player_count_is_refused() -> None:
    from boardlab.core import ConfigError

    with pytest.raises(ConfigError):
        pz.env("cacao", players=9)


def test_state_is_the_global_state_every_seats_observation() -> None:
    """#35: `env.state()` raised TypeError (the boardlab state, an attribute, hid AECEnv.state()). It is the
    global state a centralised critic may use: each seat's observation side by side, in `state_space`."""
    env = pz.env("pocket_mars", players=2)
    env.reset(seed=3)
    glob = env.unwrapped.state()
    assert env.unwrapped.state_space.contains(glob)
    inner = env.unwrapped.game_state
    assert np.array_equal(glob, np.concatenate([observation(inner, 0), observation(inner, 1)]))


def test_wrappers_read_the_turn_bookkeeping_straight_off_the_env(monkeypatch: pytest.MonkeyPatch) -> None:
    """#35: PettingZoo's wrappers pass every read of `agent_selection`, `terminations`, ... down one Python
    `__getattr__` per layer (~36 a step, a fifth of a random step). `env()`'s wrappers read them off the unwrapped
    env: a whole game without one such call, every value the env's own, a write reaching the env, and before
    `reset` PettingZoo's own error."""
    from pettingzoo.utils import wrappers
    from pettingzoo.utils.wrappers.base import BaseWrapper

    env = pz.env("cacao", players=2)
    with pytest.raises(AttributeError, match="cannot be accessed before reset"):
        _ = env.agent_selection
    plain = wrappers.OrderEnforcingWrapper(wrappers.AssertOutOfBoundsWrapper(wrappers.TerminateIllegalWrapper(
        pz.raw_env("cacao", players=2), illegal_reward=-1)))
    assert str(env) == str(plain) and all(isinstance(e, type(p)) for e, p in (
        (env, plain), (env.env, plain.env), (env.env.env, plain.env.env)))
    calls: list[str] = []
    passed_down = BaseWrapper.__getattr__

    def counted(self: BaseWrapper, name: str) -> object:
        calls.append(name)
        return passed_down(self, name)

    monkeypatch.setattr(BaseWrapper, "__getattr__", counted)
    env.reset(seed=2)
    raw, rng = env.unwrapped, random.Random(2)
    for agent in env.agent_iter():
        obs, reward, term, trunc, info = env.last()
        assert agent == raw.agent_selection and env.agents == raw.agents
        assert (reward, term, trunc, info) == (raw._cumulative_rewards[agent], raw.terminations[agent],
                                                raw.truncations[agent], raw.infos[agent])
        env.step(None if term or trunc else rng.choice(np.flatnonzero(obs["action_mask"]).tolist()))
    assert calls == []
    env.reset(seed=3)
    env.infos = {a: {"note": 1} for a in env.agents}
    assert raw.infos == {a: {"note": 1} for a in raw.agents}
