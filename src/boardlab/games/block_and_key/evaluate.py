"""A heuristic worth of a Block and Key position for one seat, for greedy and search bots.

It reads only what the seat sees: claimed keys (public), block supplies (public), the seat's own hand and
Enigma colour, and the views of the temple. Value = key points + own Enigma faces / 3 (unrounded: each face
counts) + a little for blocks in hand (the material that claims keys; capped at the hand limit) + part of
the keys within reach (the most points one placement of a held block would claim now, several keys at once
counting together: a threat the opponent may spoil, so not its full worth), minus the same public part for
the best opponent, whose hand and Enigma colour are unknown: every coloured face on their side counts a
quarter.
"""

from __future__ import annotations

from .rules import HAND_LIMIT, BlockAndKeyState

BLOCK = 0.35  # a block in hand: about a third of a key point
ENIGMA = 1.0 / 3.0
REACH = 0.5  # share of the best key within reach


def _public(state: BlockAndKeyState, q: int) -> float:
    return state.key_points(q) + BLOCK * min(len(state.supply[q]), HAND_LIMIT)


def evaluate(state: BlockAndKeyState, seat: int) -> float:
    mine = _public(state, seat) + ENIGMA * state.enigma_faces(seat) + REACH * state.best_claim_points(seat)
    if state.solo:
        return mine
    best = float("-inf")
    for q in range(state.num_players):
        if q != seat:
            faces = state.view_faces(state.view_of[q])
            best = max(best, _public(state, q) + ENIGMA * faces / 4)
    return mine - best
