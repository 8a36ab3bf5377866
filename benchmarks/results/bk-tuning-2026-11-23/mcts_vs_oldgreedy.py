"""MCTS (450 iterations) against the greedy bot without keys within reach: `python mcts_vs_oldgreedy.py 20` (the
deals of the 200-game row, seed 14000000 on, each played twice with the seats swapped). One JSON line per game:
MCTS's share of the win, its score, greedy's score."""

from __future__ import annotations

import json
import sys
from concurrent.futures import ProcessPoolExecutor

from old_greedy import OldGreedy, share

from boardlab.bots.mcts import MctsBot
from boardlab.core import get_game, play_game


def one(i: int) -> tuple[float, int, int]:
    seat = i % 2
    bots: list = [None, None]
    bots[seat], bots[1 - seat] = MctsBot(seed=i, iterations=450), OldGreedy(i + 1000)
    s = play_game(get_game("block_and_key").new_game(2, 14000000 + i // 2), bots)
    totals = [x.total for x in s.scores()]
    return share(s, seat), totals[seat], totals[1 - seat]


if __name__ == "__main__":
    with ProcessPoolExecutor(1) as ex:
        for r in ex.map(one, range(int(sys.argv[1]))):
            print(json.dumps(r), flush=True)
