"""A heuristic worth of a Cacao position for one seat, for greedy and search bots.

Only public information is read (board, villages, tile counts), so it is safe on determinized states.
Value = points banked now (gold, sun tokens, water field, temple standing) + stored fruit while the
seat still has tiles to play (leftover fruit scores nothing), minus the same for the best opponent.
"""

from __future__ import annotations

from .rules import CacaoState

FRUIT_VALUE = 2.0  # a stored fruit sells for 2-4 gold later, but not every fruit finds a market


def seat_value(state: CacaoState, seat: int, temples: list[int]) -> float:
    v = state.villages[seat]
    tiles_left = len(state.hands[seat]) + len(state.decks[seat])
    fruit = v.fruit * (FRUIT_VALUE if tiles_left else 0.01)  # at the end fruit only breaks ties
    return v.gold + v.sun + state.comp.water_track[v.water] + temples[seat] + fruit


def evaluate(state: CacaoState, seat: int) -> float:
    temples = state.temple_scores()
    mine = seat_value(state, seat, temples)
    return mine - max(seat_value(state, p, temples) for p in range(state.num_players) if p != seat)


def evaluate_all(state: CacaoState) -> list[float]:
    """`evaluate` for every seat with the temple standing computed once (same values)."""
    temples = state.temple_scores()
    values = [seat_value(state, p, temples) for p in range(state.num_players)]
    return [v - max(values[q] for q in range(len(values)) if q != p) for p, v in enumerate(values)]
