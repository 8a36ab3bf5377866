"""Paired comparison of two strength runs on the same deals: `python paired.py NEW.jsonl OLD.jsonl [OLD2.jsonl ...]`.

Games are matched by (deal seed, MCTS seat), so both runs faced the same cards from the same seat; prints the
win shares on the matched games, the mean per-game difference with its standard error (z = difference / SE),
how many games each side did better in, the paired difference of MCTS's score, and MCTS's score and margin over
the best other seat on each side.
"""

from __future__ import annotations

import json
import math
import sys
from pathlib import Path
from typing import Any


def load(paths: list[str]) -> dict[tuple[int, int], dict[str, Any]]:
    games: dict[tuple[int, int], dict[str, Any]] = {}
    for path in paths:
        for line in Path(path).read_text().splitlines():
            if line.strip():
                g = json.loads(line)
                games[(g["deal_seed"], g["seat_a"])] = g
    return games


def margin(g: dict[str, Any]) -> int:
    """MCTS's score minus the best other seat's."""
    mine = g["scores"][g["seat_a"]]
    return int(mine - max(s for i, s in enumerate(g["scores"]) if i != g["seat_a"]))


def main(new_path: str, *old_paths: str) -> None:
    new, old = load([new_path]), load(list(old_paths))
    keys = [k for k in new if k in old]
    n = len(keys)
    diffs = [new[k]["score_a"] - old[k]["score_a"] for k in keys]
    mean = sum(diffs) / n
    se = math.sqrt(sum((d - mean) ** 2 for d in diffs) / (n - 1) / n)
    print(f"{n} paired games: new {sum(new[k]['score_a'] for k in keys) / n:.3f}, "
          f"old {sum(old[k]['score_a'] for k in keys) / n:.3f}; "
          f"difference {mean:+.3f} (SE {se:.3f}, z {mean / se:.2f}); "
          f"new better in {sum(d > 0 for d in diffs)}, old in {sum(d < 0 for d in diffs)}")
    gains = [new[k]["scores"][new[k]["seat_a"]] - old[k]["scores"][old[k]["seat_a"]] for k in keys]
    gain = sum(gains) / n
    gain_se = math.sqrt(sum((d - gain) ** 2 for d in gains) / (n - 1) / n)
    print(f"  MCTS score, new minus old: {gain:+.2f} points a game (SE {gain_se:.2f}, z {gain / gain_se:.2f})")
    for name, side in (("new", new), ("old", old)):
        score = sum(side[k]["scores"][side[k]["seat_a"]] for k in keys) / n
        lead = sum(margin(side[k]) for k in keys) / n
        print(f"  {name}: MCTS score {score:.2f}, margin over the best other seat {lead:+.2f}")


if __name__ == "__main__":
    main(*sys.argv[1:])
