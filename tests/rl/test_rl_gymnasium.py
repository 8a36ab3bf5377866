"""Gymnasium single-seat environments: Gymnasium's own check_env for every registered game and player
count (opponents are real boardlab bots), seeded episodes, rewards, and the example script."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env
from rl_configs import CONFIGS, IDS

from boardlab.rl import gymnasium as bgym

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize(("game", "players"), CONFIGS, ids=IDS)
def test_gymnasium_check_env(game: str, players: int) -> None:
    env = bgym.env(game, opponents=["greedy", "mcts:10", "random"][: players - 1])
    check_env(env, skip_render_check=False)


def play(env: bgym.BoardlabGym, seed: int) -> tuple[list[int], float, dict]:
    obs, info = env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    chosen: list[int] = []
    while True:
        a = int(rng.choice(np.flatnonzero(obs["action_mask"])))
        chosen.append(a)
        obs, reward, term, trunc, info = env.step(a)
        if term or trunc:
            return chosen, reward, info
        assert reward == 0.0


def test_seeded_episodes_repeat_and_reward_is_the_seats_utility() -> None:
    env = bgym.env("cacao", opponents=["greedy", "mcts:5"])
    first = play(env, 4)
    again = play(env, 4)
    assert first[0] == again[0] and first[1] == again[1]
    state = env.state
    assert state.is_over
    assert first[1] == 3 * state.returns()[env.seat] - 1
    # every decision of the learner's seat went through step(); the bots played all the others
    assert sum(1 for _ in first[0]) >= 1


def test_mcts_hard_opponent_and_fixed_seat() -> None:
    env = bgym.env("cacao", opponents=["mcts:hard"], seat=1)
    assert env._bots == {}
    _, info = env.reset(seed=1)
    assert info["seat"] == 1 and env.state.current_player == 1
    from boardlab.bots import MctsBot

    assert isinstance(env._bots[0], MctsBot) and env._bots[0].seconds is not None


def test_illegal_action_ends_the_episode_with_minus_one() -> None:
    env = bgym.env("pocket_mars", opponents=["random"])
    obs, _ = env.reset(seed=2)
    illegal = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    before = env.state.snapshot()
    _, reward, term, _, info = env.step(illegal)
    assert (reward, term, info["illegal"]) == (-1.0, True, True)
    assert env.state.snapshot() == before


def test_unknown_opponent_is_refused_at_once() -> None:
    with pytest.raises(ValueError, match="unknown bot kind"):
        bgym.env("cacao", opponents=["grandmaster"])
    with pytest.raises(ValueError, match="level"):
        bgym.env("cacao", opponents=["greedy:hard"])


def test_example_script_runs() -> None:
    res = subprocess.run([sys.executable, str(ROOT / "examples" / "gym_random_agent.py"), "--game", "pocket_mars",
                          "--opponents", "greedy", "--episodes", "2"], capture_output=True, text=True, timeout=300)
    assert res.returncode == 0, res.stderr
    assert res.stdout.count("episode ") == 2 and "mean return" in res.stdout
