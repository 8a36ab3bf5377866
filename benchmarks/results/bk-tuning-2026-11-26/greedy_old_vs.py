"""Bots against greedy with the shipped Block and Key evaluation, on a copy of the package with
`hand_term.diff` applied (an experiment for issue #8, dropped: docs/strength.md). Kind `greedy_old` is the
greedy bot with the held-key term switched off. Run from the repository root with `benchmarks/strength.py`'s
arguments, e.g. `--a mcts --b greedy_old --a-options '{"iterations": 450}'` or `--a greedy --b greedy_old`.
"""

from __future__ import annotations

import sys

import boardlab.bots as bots
import boardlab.games.block_and_key.evaluate as evaluation
from boardlab.bots.basic import GreedyBot
from boardlab.core import Action, Observation


class OldGreedy(GreedyBot):
    def choose(self, obs: Observation) -> Action:
        saved = evaluation.HAND  # type: ignore[attr-defined]  (only in the patched copy)
        evaluation.HAND = 0.0  # type: ignore[attr-defined]
        try:
            return super().choose(obs)
        finally:
            evaluation.HAND = saved  # type: ignore[attr-defined]


if __name__ == "__main__":
    bots._CLASSES["greedy_old"] = OldGreedy
    sys.path.insert(0, "benchmarks")
    import strength

    strength.main()
