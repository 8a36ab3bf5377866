"""Undoable moves that show another seat something (issue #32: Petrichor 1,383 of 38,288 undoable moves, Block and
Key 16 of 4,209): such a move is a reveal, so it must be an undo barrier (undoing it would hide again what was seen).

    python benchmarks/undo_reveals.py GAME [--games 200] [--players 3] [--seconds 100]

Plays random games; for every move the game lets be undone, replays it on three determinizations of the position
as each other seat knows it and compares that seat's view after it with the true one: a difference is a reveal the
undo would take back (counted as `reveals`, must be 0). A move that cannot be replayed in a sample (it names a card
the sample does not give the mover) is counted apart: what the notation shows is `Game.action_visible`'s business.
"""

from __future__ import annotations

import argparse
import random
import time

import boardlab
from boardlab.core import get_game
from boardlab.core.visibility import shown_to_others


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("game")
    p.add_argument("--games", type=int, default=200)
    p.add_argument("--players", type=int, default=3)
    p.add_argument("--seconds", type=float, default=100.0)
    a = p.parse_args()
    g = get_game(a.game)
    counts = {"undoable": 0, "reveal": 0, "unplayable": 0}
    examples: list[str] = []
    t0, played = time.monotonic(), 0
    for i in range(a.games):
        if time.monotonic() - t0 > a.seconds:
            break
        s = boardlab.new_game(a.game, players=a.players, seed=1000 + i)
        rng = random.Random(i)
        played += 1
        while not s.is_over:
            action = rng.choice(s.legal_actions())
            before = s.clone()
            s.apply(action)
            if g.undo_barrier(before, action, s):
                continue
            counts["undoable"] += 1
            got = shown_to_others(before, action, s)
            if got:
                counts[got] += 1
                if got == "reveal" and len(examples) < 5:
                    examples.append(str(action))
    print(f"{a.game}, {a.players} players, {played} games: {counts}; reveals e.g. {examples}")


if __name__ == "__main__":
    main()
