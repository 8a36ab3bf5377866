"""Pocket Mars, 4 players: MCTS in one fixed seat against three greedy bots, several variants on the same deals.

Usage: seatstudy.py OUT.jsonl FIRST_DEAL STEP  (deals FIRST_DEAL, FIRST_DEAL+STEP, ...; every variant per deal)."""
import json
import sys

from boardlab.bots.arena import play_one

SEED = 9_800_000
VARIANTS = {
    "B1": (0, {"iterations": 1000}),
    "B4": (3, {"iterations": 1000}),
    "D24": (3, {"iterations": 1000, "playout_depth": 24}),
    "D6": (3, {"iterations": 1000, "playout_depth": 6}),
}
out, first, step = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
deal = first
while True:
    for name, (seat, opts) in VARIANTS.items():
        r = play_one(4 * deal + seat, "mcts", "greedy", SEED, "pocket_mars", 4, None, opts, None, None)
        row = {"variant": name, "deal": deal, "seat": seat, "scores": r.scores, "winners": r.winners,
               "score_a": r.score_a, "cpu": r.cpu_seconds[seat]}
        with open(out, "a") as f:
            f.write(json.dumps(row) + "\n")
    deal += step
