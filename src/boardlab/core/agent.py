"""What a player (human or bot) is given when it must decide: only what its seat may see.

`observe` never lets the true state into the observation, so a bot cannot peek even by accident: it
keeps one determinization of the position as the seat knows it (`State.determinize`, which must
depend only on the seat's information set), with the seed and the action log masked (replaying them
would rebuild the true deal). `Observation.sample` resamples from that copy; because determinize
depends only on the information set, the samples are exactly those the true state would give.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from .game import Action, State
from .rng import Rng


@dataclass(frozen=True)
class Observation:
    seat: int
    view: dict[str, Any]
    legal_actions: Sequence[Action]
    _sampler: Callable[[Rng], State]

    def sample(self, rng: Rng) -> State:
        """A determinization: a full state the seat cannot tell apart from the true one."""
        return self._sampler(rng)


UNSEEN = "?"
"""What an observation's states hold in their action log in place of each action (games with hidden
information): the log names hidden moves (a card discarded face down), and the seed plus the log
would replay the true game. Views use the log's length only."""

OBSERVE_SALT = 0x0B5E_47E5
"""The generator seed of the one determinization an observation keeps (any fixed value would do:
the result depends only on the seat's information set)."""


def information_state(state: State, seat: int) -> State:
    """A full state `seat` cannot tell apart from `state` that holds nothing else of it: everything the
    seat cannot see resampled (`determinize`), the seed zeroed and, in games with hidden information,
    every logged action replaced by UNSEEN."""
    base = state.determinize(seat, Rng(OBSERVE_SALT))
    if base is state:
        raise TypeError(f"{type(state).__name__}.determinize returned the state itself, not a copy")
    base.seed = 0
    if state.game.hidden_information:
        base.history = [UNSEEN] * len(state.history)
    return base


def observe(state: State, seat: int) -> Observation:
    """What `seat` is given to decide: its view, its legal actions and a sampler of determinizations,
    built from `information_state` so that no reference to the true state is kept."""
    base = information_state(state, seat)
    return Observation(seat, state.view(seat), tuple(state.legal_actions()),
                       lambda rng: base.determinize(seat, rng))


class Agent(Protocol):
    name: str

    def choose(self, obs: Observation) -> Action: ...


class TimedAgent:
    """Wraps an agent to keep its thinking time (wall and CPU, total and longest move), for the
    arena and the simulation runner: both play through `play_game` with their agents wrapped."""

    def __init__(self, agent: Agent) -> None:
        self.agent = agent
        self.name = agent.name
        self.seconds = 0.0
        self.cpu_seconds = 0.0
        self.max_seconds = 0.0
        self.moves = 0
        self.searched = 0  # moves with more than one legal action

    def choose(self, obs: Observation) -> Action:
        start, cpu = time.perf_counter(), time.process_time()
        action = self.agent.choose(obs)
        took = time.perf_counter() - start
        self.seconds += took
        self.max_seconds = max(self.max_seconds, took)
        self.cpu_seconds += time.process_time() - cpu
        self.moves += 1
        if len(obs.legal_actions) > 1:
            self.searched += 1
        return action


def play_game(state: State, agents: Sequence[Agent], max_decisions: int = 100_000) -> State:
    """Play `state` to the end, asking the agent of the seat to move each time."""
    for _ in range(max_decisions):
        seat = state.current_player
        if seat is None:
            return state
        state.apply(agents[seat].choose(observe(state, seat)))
    raise RuntimeError(f"game did not end within {max_decisions} decisions")
