"""Compare strength runs with the shipped search's games on the same deals and seats (game index = deal and
seat): `python paired.py SHIPPED.jsonl VARIANT.jsonl ...`; only complete deals of each variant count."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any


def games(path: str) -> list[dict[str, Any]]:
    return [json.loads(line) for line in Path(path).read_text().splitlines() if line.strip()]


base = {g["index"]: g for g in games(sys.argv[1])}
for f in sys.argv[2:]:
    new = sorted(games(f), key=lambda g: g["index"])
    seats = len(new[0]["scores"])
    new = new[: len(new) - len(new) % seats]
    n = len(new)
    a = sum(g["score_a"] for g in new)
    b = sum(base[g["index"]]["score_a"] for g in new)
    ma = sum(g["scores"][g["seat_a"]] for g in new) / n
    mb = sum(base[g["index"]]["scores"][g["seat_a"]] for g in new) / n
    print(f"{f}: {n} games, variant {100 * a / n:.1f}%, shipped {100 * b / n:.1f}%, "
          f"mean MCTS score {ma:.2f} / {mb:.2f}")
