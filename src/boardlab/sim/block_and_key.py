"""Balance measurements for the reconstructed components: greedy bots play seeded games per player count and
report how often each deck's keys are claimed, how games end (key threshold or running out of blocks), and which
block colours and shapes complete keys. Results go into docs/rules/block_and_key.md.

    python -m boardlab.sim.block_and_key --games 100 --players 2 3 4

(Here, above the bots it plays with, rather than in the game's package: games sit below bots.)
"""

from __future__ import annotations

import argparse
import json
import time
from collections import Counter
from typing import Any

from boardlab.bots import make_bot
from boardlab.core import observe
from boardlab.games.block_and_key.actions import Place
from boardlab.games.block_and_key.game import GAME
from boardlab.games.block_and_key.rules import THRESHOLD, BlockAndKeyState


def play(players: int, seed: int, samples: int = 1) -> dict[str, Any]:
    """One greedy game with per-deck and per-block tallies."""
    game = GAME
    s: BlockAndKeyState = game.new_game(players, seed)  # type: ignore[assignment]
    bots = [make_bot("greedy", seed * 10 + q, samples=samples) for q in range(players)]
    comp = s.comp
    seen: set[int] = set()
    dealt: Counter[str] = Counter()
    colours: Counter[str] = Counter()
    shapes: Counter[str] = Counter()
    turns = 0
    while not s.is_over:
        for h in s.hands:
            for k in h:
                if k not in seen:
                    seen.add(k)
                    dealt[comp.keys[k].deck] += 1
        seat = s.current_player
        assert seat is not None
        a = bots[seat].choose(observe(s, seat))
        before = len(s.claimed[seat])
        s.apply(a)
        if isinstance(a, Place) and a.kind == "place":
            turns += 1
            got = len(s.claimed[seat]) - before
            if got:
                b = comp.block_ids.index(a.block)
                colours[comp.colours[comp.block_colour(b)]] += got
                shapes[comp.shapes[comp.block_shape(b)]] += got
    claimed = Counter(comp.keys[k].deck for h in s.claimed for k in h)
    threshold = THRESHOLD[players]
    return {
        "dealt": dict(dealt), "claimed": dict(claimed), "colours": dict(colours), "shapes": dict(shapes),
        "by_threshold": any(len(c) >= threshold for c in s.claimed), "placements": turns,
        "scores": [x.total for x in s.scores()], "keys": [len(c) for c in s.claimed],
    }


def summary(players: int, games: int, seed: int = 1) -> dict[str, Any]:
    dealt: Counter[str] = Counter()
    claimed: Counter[str] = Counter()
    colours: Counter[str] = Counter()
    shapes: Counter[str] = Counter()
    ends = 0
    scores: list[int] = []
    start = time.perf_counter()
    for g in range(games):
        r = play(players, seed + g)
        dealt.update(r["dealt"])
        claimed.update(r["claimed"])
        colours.update(r["colours"])
        shapes.update(r["shapes"])
        ends += r["by_threshold"]
        scores += r["scores"]
    return {
        "players": players, "games": games, "seconds": round(time.perf_counter() - start, 1),
        "claim_rate": {d: round(claimed[d] / dealt[d], 3) if dealt[d] else None for d in ("star", "sun", "moon")},
        "ended_by_threshold": round(ends / games, 3), "mean_score": round(sum(scores) / len(scores), 1),
        "claims_by_colour": dict(sorted(colours.items())), "claims_by_shape": dict(sorted(shapes.items())),
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--games", type=int, default=20)
    ap.add_argument("--players", type=int, nargs="+", default=[2, 3, 4])
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    for n in args.players:
        print(json.dumps(summary(n, args.games, args.seed), ensure_ascii=False))


if __name__ == "__main__":
    main()
