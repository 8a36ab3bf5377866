"""Greedy with the keys-within-reach term against greedy without it: `python greedy_reach_vs_old.py 60`
(deals from seed 20000, each played twice with the seats swapped)."""

from __future__ import annotations

import sys
from concurrent.futures import ProcessPoolExecutor

from old_greedy import OldGreedy, share

from boardlab.bots.basic import GreedyBot
from boardlab.core import get_game, play_game


def one(i: int) -> tuple[float, int]:
    seat = i % 2
    bots: list = [None, None]
    bots[seat], bots[1 - seat] = GreedyBot(i), OldGreedy(i + 1000)
    s = play_game(get_game("block_and_key").new_game(2, 20000 + i // 2), bots)
    totals = [x.total for x in s.scores()]
    return share(s, seat), totals[seat] - totals[1 - seat]


if __name__ == "__main__":
    n = int(sys.argv[1])
    with ProcessPoolExecutor(2) as ex:
        res = list(ex.map(one, range(n)))
    print(f"greedy with reach vs without: {sum(r[0] for r in res)} / {n}, margin {sum(r[1] for r in res) / n:.2f}")
