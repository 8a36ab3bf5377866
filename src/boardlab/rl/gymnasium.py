"""A Gymnasium single-agent environment: one seat learns, the other seats are boardlab bots.

>>> from boardlab.rl import gymnasium as bgym
>>> env = bgym.env("cacao", opponents=["greedy", "mcts:hard"])
>>> obs, info = env.reset(seed=0)
>>> sorted(obs)
['action_mask', 'observation']

Opponents are named as `boardlab.rl.common.make_opponent` reads them (`random`, `greedy`, `hard`,
`mcts:hard`, `mcts:200` for 200 iterations a move) or given as Agent objects; they decide from their
own observation only, like every boardlab bot. The learner's seat is `seat` (None: drawn at each
reset, so it meets every position). The reward is 0 until the end, then the zero-sum utility of the
learner's seat. An action outside `action_mask` ends the episode with reward -1 (`info["illegal"]`),
so unmasked agents and `check_env` work; masked agents never meet it. Actions are compact by default
(`actions="compact"`, `common.ActionSpace`): a move of a game with an action split is chosen in a few steps,
each a `step()` with reward 0 until the move is whole, the observation showing the choice so far;
`actions="flat"` gives one id per move.

Importing this module registers every game with Gymnasium as `boardlab/<game>-v0`:
`gymnasium.make("boardlab/cacao-v0", opponents=["greedy", "random"])` (keyword arguments as `env`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import gymnasium
import numpy as np
from gymnasium import spaces

from boardlab.core import Agent, get_game, observe
from boardlab.core import games as game_names

from .common import ActionSpace, Decider, make_opponent, observation_space_size, plain_text, utilities

ILLEGAL_REWARD = -1.0


class BoardlabGym(gymnasium.Env):
    """One seat of a boardlab game against bots."""

    metadata = {"render_modes": ["ansi", "human"]}

    def __init__(self, game: str, opponents: Sequence[str | Agent] = ("greedy",), seat: int | None = None,
                 render_mode: str | None = None, lang: str = "en",
                 game_options: dict[str, Any] | None = None, actions: str = "compact") -> None:
        self.game = get_game(game)
        self.opponents = list(opponents)
        self.players = 1 + len(self.opponents)
        self.game_options = dict(game_options or {})
        self.game.new_game(self.players, 0, **self.game_options)  # bad player counts and options fail here
        for i, spec in enumerate(self.opponents):
            make_opponent(spec, i)  # unknown bot names fail here, not at the first reset
        if seat is not None and not 0 <= seat < self.players:
            raise ValueError(f"seat must be in 0..{self.players - 1}")
        if render_mode not in (None, "ansi", "human"):
            raise ValueError(f"render_mode must be None, 'ansi' or 'human', not {render_mode!r}")
        self.fixed_seat = seat
        self.render_mode = render_mode
        self.lang = lang
        self.space = ActionSpace(self.game, self.players, actions)
        self.num_actions = self.space.size
        size = observation_space_size(self.game, self.players, self.space)
        self.observation_space = spaces.Dict({
            "observation": spaces.Box(-np.inf, np.inf, (size,), np.float32),
            "action_mask": spaces.Box(0, 1, (self.num_actions,), np.int8),
        })
        self.action_space = spaces.Discrete(self.num_actions)
        self.state: Any = None
        self.decider: Decider | None = None
        self.seat = 0
        self._bots: dict[int, Agent] = {}

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None) -> tuple[Any, dict]:
        super().reset(seed=seed)
        game_seed = int(self.np_random.integers(2**31))
        self.seat = self.fixed_seat if self.fixed_seat is not None else int(self.np_random.integers(self.players))
        others = [s for s in range(self.players) if s != self.seat]
        self._bots = {s: make_opponent(spec, (game_seed * 31 + s) & 0xFFFFFFFF)
                      for s, spec in zip(others, self.opponents, strict=True)}
        self.state = self.game.new_game(self.players, game_seed, **self.game_options)
        self.decider = Decider(self.space, self.state)
        self._play_bots()
        return self._obs(), self._info()

    def step(self, action: Any) -> tuple[Any, float, bool, bool, dict]:
        if self.state is None or self.state.is_over:
            raise RuntimeError("step() after the episode ended: call reset()")
        assert self.decider is not None
        done = self.decider.choose(action)
        if done is None:
            info = self._info()
            info["illegal"] = True
            return self._obs(), ILLEGAL_REWARD, True, False, info
        if done:
            self._play_bots()
        reward = utilities(self.state)[self.seat] if self.state.is_over else 0.0
        if self.render_mode == "human":
            self.render()
        return self._obs(), reward, self.state.is_over, False, self._info()

    def _play_bots(self) -> None:
        while not self.state.is_over and self.state.current_player != self.seat:
            s = self.state.current_player
            self.state.apply(self._bots[s].choose(observe(self.state, s)))
            assert self.decider is not None
            self.decider.moved()

    def _obs(self) -> dict[str, np.ndarray]:
        assert self.decider is not None
        return {"observation": self.decider.observation(self.seat), "action_mask": self.decider.mask(self.seat)}

    def _info(self) -> dict[str, Any]:
        return {"seat": self.seat, "decisions": len(self.state.history)}

    def render(self) -> str | None:
        """What the learner's seat sees, in plain text ("ansi" returns it, "human" prints it)."""
        if self.render_mode is None:
            gymnasium.logger.warn("render() called without a render_mode; pass render_mode='ansi' or 'human'")
            return None
        text = plain_text(self.game, self.state, self.seat, self.lang)
        if self.render_mode == "human":
            print(text)
            return None
        return text


def env(game: str, opponents: Sequence[str | Agent] = ("greedy",), **kwargs: Any) -> BoardlabGym:
    """`game` with one learning seat and `opponents` (one bot name per other seat)."""
    return BoardlabGym(game, opponents, **kwargs)


def env_id(game: str) -> str:
    """The Gymnasium id of a game: `boardlab/<game>-v0`."""
    return f"boardlab/{game}-v0"


def register_all() -> list[str]:
    """Register every game (once; games registered later join on the next call); the ids."""
    ids = []
    for name in game_names():
        ident = env_id(name)
        if ident not in gymnasium.registry:
            gymnasium.register(id=ident, entry_point=BoardlabGym, kwargs={"game": name})
        ids.append(ident)
    return ids


register_all()
