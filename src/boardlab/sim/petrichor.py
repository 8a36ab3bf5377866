"""Crop balance measurements: how often each crop is harvested, what it pays and how contested it is, and
where the points come from (harvests, dice, Voting-Wins, wheat majority). Used to tune the reconstructed
thresholds and track values (docs/rules/petrichor.md, "Tuning").

    python -m boardlab.sim.petrichor --games 40 --bots mcts,mcts --iterations 100

(Here, above the bots it plays with, rather than in the game's package: games sit below bots.)
"""

from __future__ import annotations

import argparse
import json
from collections import defaultdict
from typing import Any

from boardlab.bots import make_bot
from boardlab.core import play_game
from boardlab.games.petrichor.game import GAME
from boardlab.games.petrichor.rules import PetrichorState


def measure(games: int, bots: list[str], seed: int = 0, iterations: int = 100, **options: Any) -> dict[str, Any]:
    """Play `games` games and summarise crops and score sources."""
    per_crop: dict[str, dict[str, float]] = defaultdict(lambda: defaultdict(float))
    sources: dict[str, float] = defaultdict(float)
    decisions = 0
    for g in range(games):
        state: PetrichorState = GAME.new_game(len(bots), seed + g, **options)  # type: ignore[assignment]
        for i in range(len(state.tile)):
            per_crop[state.crop(i)]["tiles"] += 1
        agents = [make_bot(k, seed=seed * 31 + g * 7 + q, **({"iterations": iterations} if k == "mcts" else {}))
                  for q, k in enumerate(bots)]
        play_game(state, agents)
        decisions += len(state.history)
        for ev in state.events:
            if ev[0] == "harvest":
                crop = per_crop[state.crop(ev[1])]
                crop["harvests"] += 1
                crop["points"] += sum(ev[2])
                crop["contested"] += sum(1 for x in ev[2] if x) >= 2
                sources["harvest"] += sum(ev[2])
            elif ev[0] == "sprout":
                per_crop[state.crop(ev[1])]["sprouts"] += 1
            elif ev[0] == "die":
                sources["dice"] += ev[3]
        for s in state.scores():
            sources["voting_wins"] += s.breakdown["voting_wins"]
            sources["wheat_majority"] += s.breakdown["wheat"]
    crops = {}
    for name, c in sorted(per_crop.items()):
        h = c["harvests"] or 1
        crops[name] = {"tiles_in_play": c["tiles"] / games, "harvests_per_tile": c["harvests"] / max(c["tiles"], 1),
                       "points_per_harvest": c["points"] / h, "contested_share": c["contested"] / h}
    total = sum(sources.values()) or 1
    return {"games": games, "bots": bots, "decisions_per_game": decisions / games, "crops": crops,
            "points_per_game": {k: v / games for k, v in sorted(sources.items())},
            "point_shares": {k: round(v / total, 3) for k, v in sorted(sources.items())}}


def main(argv: list[str] | None = None) -> None:  # pragma: no cover - a measuring tool
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--bots", default="mcts,mcts")
    parser.add_argument("--iterations", type=int, default=100)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--length", default="short")
    args = parser.parse_args(argv)
    print(json.dumps(measure(args.games, args.bots.split(","), args.seed, args.iterations, length=args.length),
                     indent=1))


if __name__ == "__main__":  # pragma: no cover
    main()
