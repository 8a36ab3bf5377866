"""A heuristic worth of a Petrichor position for one seat, for greedy and search bots.

Reads only public facts (fields, clouds, tracks, dice), never hands, so it is safe on determinized
states. Value = points banked now + what each crop would pay the seat if harvested now, weighted by
how close the crop is to sprouting and to a harvest + drops waiting in clouds above a tile count as
half on it, minus the same for the best opponent (solo: the South Wind).
"""

from __future__ import annotations

from .components import WHEAT_FACE
from .rules import SW, PetrichorState, stage_points

CLOUD_WEIGHT = 0.5  # a drop in a cloud will fall on that tile, unless the cloud is blown away first


def projected(state: PetrichorState) -> list[float]:
    """Each board player's expected harvest points from the crops as they stand."""
    nb = state.nb
    out = [0.0] * nb
    wheat_dice = sum(v == WHEAT_FACE for v in state.dice)
    soon = 1.0 if state.final_round() else 0.45 + 0.15 * wheat_dice
    for i in range(len(state.tile)):
        drops = [float(x) for x in state.field[i]]
        cl = state.cloud[i]
        if cl is not None:
            drops = [d + CLOUD_WEIGHT * c for d, c in zip(drops, cl, strict=True)]
        total = sum(drops)
        if total <= 0:
            continue
        crop = state.C.crops[state.crop(i)]
        stage = crop.grown if state.growth[i] == 2 and crop.grown else crop.sprouted
        chance = soon if state.growth[i] else soon * min(1.0, total / state.threshold(i)) ** 2 * 0.8
        pts, token = stage_points(stage, [round(d * 2) for d in drops])
        for q in range(nb):
            out[q] += chance * (pts[q] + (4.0 if token == q else 0.0))
    return out


def values(state: PetrichorState, proj: list[float]) -> list[float]:
    """Each seat's points banked now plus its projected harvest (`proj`: `projected(state)`)."""
    totals = [s.total for s in state.scores()]
    return [totals[q] + proj[q] for q in range(state.num_players)]


def evaluate(state: PetrichorState, seat: int) -> float:
    proj = projected(state)
    if state.solo:
        me = state.scores()[0].total + proj[0]
        return me - (state.automaton_score().total + proj[SW])
    vals = values(state, proj)
    return vals[seat] - max(v for q, v in enumerate(vals) if q != seat)


def evaluate_all(state: PetrichorState) -> list[float]:
    """`evaluate` for every seat from one `projected` and one `scores` (a search scores each leaf for all seats;
    per seat, `projected` was half of a 4-player iteration)."""
    if state.solo:
        return [evaluate(state, 0)]
    vals = values(state, projected(state))
    return [vals[q] - max(v for k, v in enumerate(vals) if k != q) for q in range(len(vals))]
