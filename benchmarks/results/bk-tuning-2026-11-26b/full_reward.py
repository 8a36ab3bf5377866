"""Experiment for issue #8: Block and Key search rewards that see the opponent's keys within reach.

`evaluate` (what greedy uses on the real position) may read only what its seat sees, so it counts the
opponent's public part only. Search leaves are determinizations, where every hand is a sample the searching
seat drew itself: there the reward can count each seat's full value (key points, blocks, its own Enigma faces,
its keys within reach) and subtract the best opponent's full value, so the search values spoiling a claim the
opponent holds ready. Only `MctsBot` calls `Game.evaluate_all`; greedy keeps `Game.evaluate` unchanged.

    python benchmarks/results/bk-tuning-2026-11-26b/full_reward.py --game block_and_key --players 2 --games 40 \\
        --seed 14000000 --a mcts --a-options '{"iterations": 450}' --stream full.jsonl
"""

from __future__ import annotations

import sys
from pathlib import Path

from boardlab.core import State
from boardlab.games.block_and_key import evaluate as E
from boardlab.games.block_and_key.game import BlockAndKeyGame


def evaluate_all(self: BlockAndKeyGame, state: State) -> list[float]:
    n = state.num_players
    full = [E._public(state, q) + E.ENIGMA * state.enigma_faces(q)  # type: ignore[attr-defined]
            + E.REACH * state.best_claim_points(q) for q in range(n)]  # type: ignore[attr-defined]
    if n == 1:
        return full
    return [full[s] - max(full[q] for q in range(n) if q != s) for s in range(n)]


BlockAndKeyGame.evaluate_all = evaluate_all  # type: ignore[method-assign]

if __name__ == "__main__":
    sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
    import strength

    strength.main()
