"""#35: every game is a registered Gymnasium environment, `gymnasium.make("boardlab/<game>-v0")`, with a spec."""

from __future__ import annotations

import gymnasium
import pytest
from rl_configs import CONFIGS

import boardlab.rl.gymnasium  # noqa: F401  (importing it registers the games)
from boardlab.rl.gymnasium import BoardlabGym

GAMES = sorted({g for g, _ in CONFIGS})


@pytest.mark.parametrize("game", GAMES)
def test_gymnasium_make_by_id(game: str) -> None:
    env = gymnasium.make(f"boardlab/{game}-v0", opponents=["random"])
    assert isinstance(env.unwrapped, BoardlabGym) and env.unwrapped.game.name == game
    assert env.spec is not None and env.spec.id == f"boardlab/{game}-v0"
    obs, info = env.reset(seed=1)
    assert obs["action_mask"].any() and info["seat"] in (0, 1)
    env.close()


def test_make_refuses_an_unknown_game_clearly() -> None:
    with pytest.raises(gymnasium.error.Error, match="chess"):
        gymnasium.make("boardlab/chess-v0")
