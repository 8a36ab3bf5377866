"""What a player (human or bot) is given when it must decide: only what its seat may see.

`Observation.sample` draws a full state consistent with the seat's information, from the true state
via `State.determinize`, which is required to depend only on the seat's information set.
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


def observe(state: State, seat: int) -> Observation:
    frozen = state.clone()
    return Observation(seat, state.view(seat), tuple(state.legal_actions()),
                       lambda rng: frozen.determinize(seat, rng))


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
