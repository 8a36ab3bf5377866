"""Flat Monte Carlo with common random numbers (an experiment for issue #8, dropped: docs/strength.md).

Every move of the root's search set is played out (the game's playout policy, its playout depth, then
`evaluate`) on the same determinizations with the same playout seeds, so the comparison between moves is
paired. Run from the repository root, with `benchmarks/strength.py`'s arguments:

    python benchmarks/results/bk-tuning-2026-11-26/flat_crn.py --game block_and_key --players 2 --games 40 \\
        --seed 14000000 --a flat --a-options '{"iterations": 450}' --stream flat_crn450.jsonl
"""

from __future__ import annotations

import sys

import boardlab.bots as bots
from boardlab.core import Action, Observation, Rng


class FlatBot:
    def __init__(self, seed: int = 0, iterations: int = 450, name: str = "flat") -> None:
        self.rng = Rng(seed)
        self.iterations = iterations
        self.name = name
        self.total_iterations = 0

    def choose(self, obs: Observation) -> Action:
        legal = list(obs.legal_actions)
        if len(legal) == 1:
            return legal[0]
        rng = self.rng.fork()
        first = obs.sample(rng)
        game = first.game
        moves = list(game.search_actions(first))
        if len(moves) == 1:
            return moves[0]
        totals = [0.0] * len(moves)
        for j in range(max(2, self.iterations // len(moves))):
            det = first if j == 0 else obs.sample(rng)
            seed = rng.randbelow(1 << 30)
            for i, move in enumerate(moves):
                state = det.clone()
                state.apply_unchecked(move)
                playout = Rng(seed)
                for _ in range(game.playout_depth):
                    if state.is_over:
                        break
                    state.apply_unchecked(game.playout_action(state, playout))
                totals[i] += game.evaluate(state, obs.seat)
            self.total_iterations += len(moves)
        return moves[max(range(len(moves)), key=totals.__getitem__)]


if __name__ == "__main__":
    bots._CLASSES["flat"] = FlatBot
    sys.path.insert(0, "benchmarks")
    import strength

    strength.main()
