"""A heuristic worth of a Cooper Island position for one seat, for greedy and search bots.

Only public facts are read (everything but the bag, the log tokens and unseen building cards is public),
so it is safe on determinized states. Value = points banked now + what the position promises: goods on
the island and in storage (they pay for buildings, boats and crates), cartographer steps, tiles in hand,
workers hired, income boats (one more action every round left), minus the best opponent's same value.
Steps still waiting on the to-do stack count too (a cost not yet paid, a building not yet placed, helm
points not yet sailed): one decision ahead, a bot would otherwise see "exchange" before its price.
"""

from __future__ import annotations

from .rules import CooperState

GOOD = 0.35  # one unit of value of a good (a cube is worth its height)
CARTO = 0.2
TILE = 0.6
WORKER = 2.0
BOAT = 1.2
CRATE = 1.5  # a crate is 2-3 uses of an icon (a tile, 2 goods, 2 coins ...) over the game
PRIM = {"res": GOOD, "coin": GOOD, "carto": CARTO, "helm": 1.0, "any": GOOD, "anyc": GOOD, "draw": TILE,
        "place": 1.0}
ASKS = {"build": 2.0, "crate": CRATE - 2 * GOOD, "f_or": 1.5, "ruin": 1.0, "statue": 2.0, "isle": GOOD,
        "useboat": 1.0, "icube": GOOD}
TOP = {"small": 3.0, "large": 5.0, "fort": 4.0, "statue": 3.0}


def pending(state: CooperState, q: int, frac: float) -> float:
    """Worth of the seat's own steps still waiting on the to-do stack."""
    total = 0.0
    for step in state.todo:
        if len(step) < 2 or step[1] != q:
            continue
        kind = step[0]
        if kind == "pay":
            total -= GOOD * sum(k for _, k in step[2])
        elif kind == "prims":
            total += sum(PRIM[op] * n for op, n, _ in step[2])
        elif kind in ("any", "tile", "at", "or"):
            total += PRIM["place"] if kind in ("tile", "at") else GOOD
        elif kind in ("helm", "move"):
            total += step[-1]
        elif kind == "top":
            total += TOP[step[2]]
        elif kind == "pick":
            total += TOP[step[2]] - 1.0
        elif kind == "boatgo":
            total += BOAT * (1 + 2 * frac)
        elif kind == "crategot":
            total += CRATE
        elif kind == "hire":
            total += WORKER * frac
        elif kind == "boatbuy":
            cost = state.C.parking[min(len(state.players[q].boats), len(state.C.parking) - 1)]
            total += BOAT * (1 + 2 * frac) - GOOD * max(0, sum(k for _, k in cost) - step[2])
        elif kind in ASKS:
            total += ASKS[kind]
    return total


def potential(state: CooperState, q: int) -> float:
    P = state.players[q]
    left = max(0, state.C.rounds - state.round)
    frac = left / state.C.rounds
    goods = state.holdings(q)["any"]  # every unit of every good: market, storage and the island's cubes
    return (GOOD * goods * (0.4 + frac) + CARTO * P.carto + TILE * sum(P.hand) * frac
            + WORKER * (P.total_n + P.total_s) * frac + BOAT * len(P.boats) * (1 + 2 * frac)
            + CRATE * P.crates * frac + pending(state, q, frac))


def values(state: CooperState) -> list[float]:
    totals = [sum(state.score_parts(q).values()) for q in range(state.num_players)]  # = scores()'s totals
    return [totals[q] + potential(state, q) for q in range(state.num_players)]


def evaluate(state: CooperState, seat: int) -> float:
    vals = values(state)
    return vals[seat] - max(v for q, v in enumerate(vals) if q != seat)


def evaluate_all(state: CooperState) -> list[float]:
    """`evaluate` for every seat from one computation of the values (search bots score leaves this way)."""
    vals = values(state)
    return [vals[q] - max(v for k, v in enumerate(vals) if k != q) for q in range(len(vals))]
