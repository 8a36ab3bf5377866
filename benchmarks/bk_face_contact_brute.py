"""Block and Key's placement listing against the brute force written from the seed, over many random positions.

Why: issue #33 asks for the face-contact rule to be proved "over thousands of random positions"; the property
test `test_face_contact_offered_placements_are_exactly_the_legal_ones` checks a CI-sized sample (about 30
positions, 300 with BOARDLAB_DEEP=1). This runs the same comparison (`bk_helpers.brute_placements`) at any size,
once, and prints the counts for docs/rules/block_and_key.md:

    BOARDLAB_PURE=1 python benchmarks/bk_face_contact_brute.py --positions 1000 --contact block
    BOARDLAB_PURE=1 python benchmarks/bk_face_contact_brute.py --positions 300 --contact stack

A position is one where a player places (a turn, or the Ancients' block); every distinct shape that can be
placed there is compared. Exit status 1 on the first mismatch, with the seed to replay it.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests" / "games" / "block_and_key"))

from bk_helpers import COMP, brute_placements, new


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--positions", type=int, default=1000)
    parser.add_argument("--contact", choices=["block", "stack"], default="block")
    parser.add_argument("--seed", type=int, default=33_000_000, help="first game's seed (then +1 per game)")
    ns = parser.parse_args(argv)
    positions = placements = shapes = games = 0
    by_players: dict[int, int] = {}
    start = time.process_time()
    seed = ns.seed
    while positions < ns.positions:
        players = 1 + seed % 4
        rng = random.Random(seed)
        s = new(players, seed, face_contact=ns.contact)
        cut = rng.randrange(0, 30 if players == 1 else 160)  # a solo game is 11 turns
        games += 1
        for _ in range(cut):
            if s.is_over:
                break
            s.apply(rng.choice(s.legal_actions()))
        checked = 0
        while not s.is_over and checked < 3 and positions < ns.positions:
            if s.phase in ("turn", "ancient"):
                kind = "place" if s.phase == "turn" else "ancients"
                held = sorted(s.supply[s.actor]) if s.phase == "turn" else [s.ancient_block]
                for b in {COMP.block_shape(b): b for b in held}.values():
                    listed = {(p.orient, p.x, p.y, p.z) for p in s.placements(b, kind)}
                    legal = brute_placements(s, b)
                    if listed != legal or (ns.contact == "stack" and not legal <= brute_placements(s, b, "block")):
                        print(json.dumps({"mismatch": True, "seed": seed, "players": players, "cut": cut,
                                          "block": b, "offered_not_legal": sorted(listed - legal)[:10],
                                          "legal_not_offered": sorted(legal - listed)[:10]}))
                        sys.exit(1)
                    placements += len(legal)
                    shapes += 1
                positions += 1
                checked += 1
                by_players[players] = by_players.get(players, 0) + 1
            s.apply(rng.choice(s.legal_actions()))
        seed += 1
    print(json.dumps({"contact": ns.contact, "positions": positions, "by_players": by_players, "games": games,
                      "shapes_compared": shapes, "legal_placements_compared": placements, "mismatches": 0,
                      "cpu_s": round(time.process_time() - start, 1), "first_seed": ns.seed}))


if __name__ == "__main__":
    main()
