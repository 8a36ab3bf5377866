"""The two baseline bots: uniform random, and greedy one decision ahead.

They exist as yardsticks (a search bot must beat them clearly) and as cheap opponents for people.
Both see only the `Observation`; greedy looks ahead on determinizations drawn by `obs.sample`.
"""

from __future__ import annotations

from boardlab.core import Action, Observation, Rng


class RandomBot:
    """Uniform over the legal actions; seeded so that games with it are replayable."""

    def __init__(self, seed: int = 0, name: str = "random") -> None:
        self.name = name
        self.rng = Rng(seed)

    def choose(self, obs: Observation) -> Action:
        legal = list(obs.legal_actions)
        if not legal:
            raise ValueError(f"seat {obs.seat} was asked to choose with no legal action")
        return self.rng.choice(legal)


class GreedyBot:
    """Takes the legal action whose result `game.evaluate` likes best for the deciding seat.

    One decision ahead, averaged over `samples` determinizations: an action's result can depend on
    hidden things (a draw from a pile), and one sample would let luck pick the move. Every action is
    scored on the same determinizations (common random numbers), so the comparison is fair. Ties are
    broken at random (seeded): with a coarse evaluation many actions tie and a fixed order would make
    the bot predictable and biased towards whatever the engine lists first.
    """

    def __init__(self, seed: int = 0, samples: int = 4, name: str = "greedy") -> None:
        if samples < 1:
            raise ValueError("greedy needs samples >= 1")
        self.name = name
        self.samples = samples
        self.rng = Rng(seed)
        self.last_values: dict[Action, float] = {}  # action -> mean evaluation, for tests and tools

    def choose(self, obs: Observation) -> Action:
        legal = list(obs.legal_actions)
        if not legal:
            raise ValueError(f"seat {obs.seat} was asked to choose with no legal action")
        self.last_values = {}
        if len(legal) == 1:
            return legal[0]
        rng = self.rng.fork()
        dets = [obs.sample(rng) for _ in range(self.samples)]
        best: list[Action] = []
        best_value = float("-inf")
        for action in legal:
            total, count = 0.0, 0
            for det in dets:
                if action not in det.legal_actions():  # cannot happen if determinize is faithful
                    continue
                after = det.clone()
                after.apply(action)
                total += after.game.evaluate(after, obs.seat)
                count += 1
            if count == 0:
                continue
            value = total / count
            self.last_values[action] = value
            if value > best_value + 1e-12:
                best, best_value = [action], value
            elif abs(value - best_value) <= 1e-12:
                best.append(action)
        return rng.choice(best) if best else rng.choice(legal)
