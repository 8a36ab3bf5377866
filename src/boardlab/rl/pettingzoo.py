"""PettingZoo AEC environments for every registered game: agents are seats.

>>> from boardlab.rl import pettingzoo
>>> env = pettingzoo.env("cacao", players=3)
>>> env.reset(seed=1)
>>> obs, reward, terminated, truncated, info = env.last()
>>> sorted(obs)
['action_mask', 'observation']

Observations are `{"observation": float32[observation_size + partial], "action_mask": int8[ids]}` built
from the seat's view only (`common.observation`: the game's hand-made tensor, else `Game.encode_observation`),
then the seat's move so far; the mask is all zeros for a seat that is not to decide. Actions are compact by
default (`actions="compact"`, `common.ActionSpace`): a game with an action split has a move chosen in a few small
steps (Cacao: tile, column, row, rotation), each an AEC step of the same agent, the mask exact at each (an id is
offered only if a legal move continues with it); `actions="flat"` gives one id per move (`Game.action_to_id`).
Several decisions in a row by one seat are several AEC steps of that agent.
Rewards come at the end: zero-sum utilities (`boardlab.rl.common.utilities`). `reset(seed=s)` deals
game seed `s`; without a seed the next deal is the previous seed + 1 (the first one random).
`env()` adds PettingZoo's usual wrappers (an illegal action ends the game with -1 for its player; subclasses
that read the turn's bookkeeping straight off the env, `_Direct`);
`raw_env()` raises `IllegalActionError` on an illegal action instead. The boardlab state is `game_state`
(`env.unwrapped.game_state`); `state()` is PettingZoo's global state (every seat's observation, `state_space`).
"""

from __future__ import annotations

import secrets
from operator import attrgetter
from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from boardlab.core import IllegalActionError, get_game

from .common import ActionSpace, Decider, observation_space_size, plain_text, utilities


class Ids(spaces.Discrete):
    """Gymnasium's `Discrete`, its `contains` answering a plain int by a range test: Gymnasium's reads the dtype's
    limits and casts the value (~2 µs), and PettingZoo's out-of-bounds wrapper asks at every step. The same answer
    (an int in the range fits the dtype); anything else is Gymnasium's own answer."""

    def __init__(self, n: int) -> None:
        super().__init__(n)
        self._ids = range(int(self.start), int(self.start) + int(self.n))

    def contains(self, x: Any) -> bool:
        if type(x) is int:
            return x in self._ids
        return super().contains(x)


class BoardlabAEC(AECEnv):
    """One boardlab game as an AEC environment (seats `seat_0` ... `seat_{n-1}`)."""

    def __init__(self, game: str, players: int = 2, render_mode: str | None = None, lang: str = "en",
                 game_options: dict[str, Any] | None = None, actions: str = "compact") -> None:
        super().__init__()
        self.game = get_game(game)
        self.players = players
        self.game_options = dict(game_options or {})
        self.game.new_game(players, 0, **self.game_options)  # bad player counts and options fail here
        if render_mode not in (None, "ansi", "human"):
            raise ValueError(f"render_mode must be None, 'ansi' or 'human', not {render_mode!r}")
        self.render_mode = render_mode
        self.lang = lang
        self.metadata = {"render_modes": ["ansi", "human"], "name": f"boardlab_{game}_v0",
                         "is_parallelizable": False}
        self.possible_agents = [f"seat_{i}" for i in range(players)]
        self._seats = {a: i for i, a in enumerate(self.possible_agents)}  # `seat` at every observe
        self.space = ActionSpace(self.game, players, actions)
        self.num_actions = self.space.size
        size = observation_space_size(self.game, players, self.space)
        self._observation_spaces = {
            a: spaces.Dict({
                "observation": spaces.Box(-np.inf, np.inf, (size,), np.float32),
                "action_mask": spaces.Box(0, 1, (self.num_actions,), np.int8),
            }) for a in self.possible_agents}
        self._action_spaces = {a: Ids(self.num_actions) for a in self.possible_agents}
        self.state_space = spaces.Box(-np.inf, np.inf, (players * size,), np.float32)
        self.decider: Decider | None = None
        self._next_seed = secrets.randbelow(2**31)
        self.game_state: Any = None  # not `state`: AECEnv.state() is a method

    def observation_space(self, agent: str) -> spaces.Space:
        return self._observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        return self._action_spaces[agent]

    def seat(self, agent: str) -> int:
        return self._seats[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        if seed is not None:
            self._next_seed = int(seed)
        self.game_state = self.game.new_game(self.players, self._next_seed, **self.game_options)
        self.decider = Decider(self.space, self.game_state)
        self._next_seed += 1
        self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos = {a: {} for a in self.agents}
        self.agent_selection = self.possible_agents[self.game_state.current_player]

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        seat = self._seats[agent]
        assert self.decider is not None, "observe() before reset()"
        return {"observation": self.decider.observation(seat), "action_mask": self.decider.mask(seat)}

    def state(self) -> np.ndarray:
        """The global state for centralised training (a critic that sees every seat, e.g. MAPPO, QMIX): each
        seat's observation side by side. It holds every seat's private information but, like every view, never
        what no seat may see (the order of the draw piles)."""
        if self.decider is None:
            raise RuntimeError("state() before reset()")
        return np.concatenate([self.decider.observation(s) for s in range(self.players)])

    def step(self, action: Any) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        assert self.decider is not None
        done = self.decider.choose(action)
        if done is None:
            raise IllegalActionError(f"action id {action} is not legal for {agent} now")
        self._cumulative_rewards[agent] = 0.0
        if self.game_state.is_over:
            for a, u in zip(self.agents, utilities(self.game_state), strict=True):
                self.rewards[a] = u
            self.terminations = dict.fromkeys(self.agents, True)
            self._accumulate_rewards()
        else:
            self.agent_selection = self.possible_agents[self.game_state.current_player]
        if self.render_mode == "human":
            self.render()

    def render(self) -> str | None:
        """The table as a spectator sees it, in plain text ("ansi" returns it, "human" prints it)."""
        if self.render_mode is None:
            import gymnasium

            gymnasium.logger.warn("render() called without a render_mode; pass render_mode='ansi' or 'human'")
            return None
        text = plain_text(self.game, self.game_state, None, self.lang)
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        pass


AEC_STATE = ("agents", "agent_selection", "rewards", "_cumulative_rewards", "terminations", "truncations", "infos")
"""The AEC bookkeeping a turn reads through every wrapper (`last()`, `agent_iter()`, the wrappers' own `step`)."""


def _forwarded(name: str) -> property:
    """`name` read from and written to the unwrapped env in one C-level lookup: PettingZoo's `BaseWrapper.__getattr__`
    passes it down one Python call per layer, ~36 lookups a step through three wrappers (about a fifth of a random
    step). Before the env holds it (before `reset`) the lookup fails over to the wrapper's own `__getattr__`, whose
    errors are PettingZoo's."""
    return property(attrgetter(f"_aec.{name}"), lambda self, value: setattr(self._aec, name, value))


class _Direct:
    """What our wrappers add to PettingZoo's: the AEC bookkeeping read straight off the unwrapped env (the same
    values: every wrapper's `__getattr__` ends there; none of the three keeps its own)."""

    _aec: AECEnv

    def __init__(self, env: AECEnv, *args: Any, **kwargs: Any) -> None:
        super().__init__(env, *args, **kwargs)  # type: ignore[call-arg]
        self._aec = env.unwrapped

    def action_space(self, agent: str) -> spaces.Space:
        """The env's own (no wrapper changes it; the out-of-bounds wrapper asks at every step)."""
        return self._aec.action_space(agent)


for _name in AEC_STATE:
    setattr(_Direct, _name, _forwarded(_name))


class TerminateIllegalWrapper(_Direct, wrappers.TerminateIllegalWrapper):
    """PettingZoo's, with `_Direct`'s lookups (same name: `str(env)` reads as PettingZoo's)."""


class AssertOutOfBoundsWrapper(_Direct, wrappers.AssertOutOfBoundsWrapper):
    """PettingZoo's, with `_Direct`'s lookups."""


class OrderEnforcingWrapper(_Direct, wrappers.OrderEnforcingWrapper):
    """PettingZoo's, with `_Direct`'s lookups (before `reset` they fail over to its "cannot be accessed before
    reset")."""

    def __str__(self) -> str:
        """PettingZoo's own: the env's name (its `__str__` names a subclass instead)."""
        return str(self.env) if hasattr(self, "metadata") else repr(self)


def raw_env(game: str, players: int = 2, **kwargs: Any) -> BoardlabAEC:
    """The environment without wrappers (an illegal action raises IllegalActionError)."""
    return BoardlabAEC(game, players, **kwargs)


def env(game: str, players: int = 2, **kwargs: Any) -> AECEnv:
    """The environment with PettingZoo's usual wrappers for turn-based games."""
    e: AECEnv = raw_env(game, players, **kwargs)
    e = TerminateIllegalWrapper(e, illegal_reward=-1)
    e = AssertOutOfBoundsWrapper(e)
    return OrderEnforcingWrapper(e)
