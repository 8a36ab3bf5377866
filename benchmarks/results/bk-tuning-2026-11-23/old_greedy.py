"""The greedy bot of the Block and Key afternoon runs: one decision ahead on the evaluation without keys within
reach (key points, Enigma faces, blocks held), swapped in for its own turns only. For the yardstick comparisons in
README.md."""

from __future__ import annotations

from typing import Any

import boardlab.games.block_and_key.evaluate as E
from boardlab.bots.basic import GreedyBot
from boardlab.core import Action, Observation, get_game


def old_evaluate(state: Any, seat: int) -> float:
    mine = E._public(state, seat) + E.ENIGMA * state.enigma_faces(seat)
    best = max(E._public(state, q) + E.ENIGMA * sum(1 for c in state.vcol[state.view_of[q]] if 0 < c < 5) / 4
               for q in range(state.num_players) if q != seat)
    return mine - best


class OldGreedy(GreedyBot):
    """Greedy on `old_evaluate`: the game's `evaluate` is shadowed during this bot's choice only."""

    def choose(self, obs: Observation) -> Action:
        game = get_game("block_and_key")
        game.evaluate = old_evaluate  # type: ignore[method-assign]
        try:
            return super().choose(obs)
        finally:
            del game.evaluate


def share(state: Any, seat: int) -> float:
    """The seat's share of the win (1/k of a k-way tie)."""
    winners = state.winners()
    return (1.0 if seat in winners else 0.0) / len(winners)
