"""A heuristic worth of a Pocket Mars position for one seat, for greedy and search bots.

Reads the public board plus the seat's own cards (which the seat sees), never another player's
hidden cards, so it is safe on determinized states. Value = points banked now + the promise of
colonists still travelling + energy as fuel + a small worth of the seat's own cards (so hand and
prep-module choices are not blind) + what the rest of the current action still promises the seat
(pending steps are public, so a one-ply bot sees that a prep-module play is worth its later steps),
minus the same board terms for the best opponent (solo: the automaton). The 4-card rule refills every
hand, so card counts themselves are not scored.
"""

from __future__ import annotations

from functools import cache

from .components import BLACK, Effect
from .rules import DA, PocketMarsState

EARTH = 0.4  # a colonist on Earth: one action away from a ship point
ENERGY = 0.2  # pays for costs; the highest level also scores (already in the points)
CARDS = 0.15  # weight of the own-cards term: a tie-breaker between otherwise equal positions
PRIM = {"launch": 0.6, "settle": 1.0, "energy": 0.2, "draw": 0.3, "shift": 1.0, "swap": 1.0, "look": 0.1,
        "bury": 0.1}
VALUE_WIN = 1.0  # a prep card that beats its building's top card moves a colonist
PENDING = 0.9  # a pending optional step of one's own is almost as good as done
TURN_MARKS = frozenset({"endturn", "turn", "next"})


@cache
def effect_worth(e: Effect) -> float:
    raw = sum(PRIM[p.op] * p.n for p in e.prims) - ENERGY * e.cost
    return raw * (0.6 if e.cond else 1.0)


def cards_worth(state: PocketMarsState, seat: int) -> float:
    cards = state.cards.cards
    total = sum(effect_worth(cards[c].top) for c in state.hands[seat])
    for c in state.prep[seat]:
        card = cards[c]
        total += effect_worth(card.bottom)
        if card.colour != BLACK:
            stack = state.stacks[card.colour]
            top = state.cards.value[stack[-1]] if stack else state.R.buildings[card.colour].value
            total += VALUE_WIN if card.value > top else 0.0
    return total


def pending_worth(state: PocketMarsState, seat: int) -> float:
    """Worth of the seat's own steps still waiting in the current action (value win, effects)."""
    total = 0.0
    for step in reversed(state.todo):
        kind = step[0]
        if kind in TURN_MARKS:
            break
        if kind == "colonist" and step[1] == seat and state.ship[seat]:
            total += PRIM["settle"]
        elif kind == "half" and step[1] == seat:
            eff = state._effect(step[3], step[2], step[4])
            if state.energy[seat] >= eff.cost and state._cond_ok(seat, eff, step[4], True) and \
                    state._cond_ok(seat, eff, step[4], False):
                total += effect_worth(eff)
        elif kind == "prim" and step[1] == seat:
            total += PRIM[step[2].op] * step[4]
    return total


def board_value(state: PocketMarsState, q: int, points: int) -> float:
    return points + EARTH * state.earth[q] + ENERGY * state.energy[q]


def evaluate(state: PocketMarsState, seat: int) -> float:
    totals = [s.total for s in state.scores()]
    mine = board_value(state, seat, totals[seat]) + CARDS * cards_worth(state, seat)
    mine += PENDING * pending_worth(state, seat)
    if state.solo:
        return mine - board_value(state, DA, state.automaton_score().total)
    return mine - max(board_value(state, q, totals[q]) for q in range(state.num_players) if q != seat)


def evaluate_all(state: PocketMarsState) -> list[float]:
    """`evaluate` for every seat with the scores and board values computed once (same values)."""
    if state.solo:
        return [evaluate(state, 0)]
    totals = state.score_totals()
    n = state.num_players
    boards = [board_value(state, q, totals[q]) for q in range(n)]
    out = []
    for seat in range(n):
        mine = boards[seat] + CARDS * cards_worth(state, seat)
        mine += PENDING * pending_worth(state, seat)
        out.append(mine - max(boards[q] for q in range(n) if q != seat))
    return out
