"""Experiment for issue #14 (dropped, docs/strength.md): Pocket Mars search rewards measured against the mean
opponent (PM_REWARD=mean) or halfway between the mean and the best (PM_REWARD=blend) instead of the best.
Only `MctsBot` calls `Game.evaluate_all`; greedy keeps `Game.evaluate`, so the yardstick is unchanged.

    PM_REWARD=mean python benchmarks/results/pm4-tuning-2026-11-26/pm_reward.py --game pocket_mars \\
        --players 4 --games 100 --seed 9000000 --a mcts --a-options '{"iterations": 1000}' --stream out.jsonl
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

from boardlab.core import State
from boardlab.games.pocket_mars import evaluate as E
from boardlab.games.pocket_mars.game import PocketMarsGame

MODE = os.environ.get("PM_REWARD", "mean")


def evaluate_all(self: PocketMarsGame, state: State) -> list[float]:
    totals = state.score_totals()  # type: ignore[attr-defined]
    n = state.num_players
    boards = [E.board_value(state, q, totals[q]) for q in range(n)]  # type: ignore[arg-type]
    out = []
    for seat in range(n):
        mine = boards[seat] + E.CARDS * E.cards_worth(state, seat) + E.PENDING * E.pending_worth(state, seat)  # type: ignore[arg-type]
        others = [boards[q] for q in range(n) if q != seat]
        mean = sum(others) / len(others)
        out.append(mine - (mean if MODE == "mean" else (max(others) + mean) / 2))
    return out


PocketMarsGame.evaluate_all = evaluate_all  # type: ignore[method-assign]

if __name__ == "__main__":
    sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
    import strength

    strength.main()
