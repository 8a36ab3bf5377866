"""Shared helpers for the Cooper Island tests: random play, invariant checks and hand-built positions."""

from __future__ import annotations

import random
from typing import Any

from boardlab.core import get_game
from boardlab.games.cooper_island.actions import Act, parse
from boardlab.games.cooper_island.components import GOODS, RES
from boardlab.games.cooper_island.rules import CooperState

GAME = get_game("cooper_island")


def new(players: int = 2, seed: int = 0, **options: Any) -> CooperState:
    return GAME.new_game(players, seed, **options)  # type: ignore[return-value]


def random_game(players: int, seed: int, max_decisions: int = 20000, check: bool = False) -> CooperState:
    state = new(players, seed)
    rng = random.Random(seed)
    for _ in range(max_decisions):
        if state.is_over:
            break
        state.apply(rng.choice(state.legal_actions()))
        if check:
            check_invariants(state)
    return state


def refresh(state: CooperState) -> None:
    """Recompute the pending question after a test edited the position by hand."""
    state._legal = None
    state._run()


def play(state: CooperState, *texts: str) -> None:
    for t in texts:
        refresh(state)
        state.apply(parse(t))


def at(state: CooperState, *steps: tuple[Any, ...]) -> CooperState:
    """Put steps on top of the to-do stack (the last one is asked first) and recompute the question."""
    state.todo += list(steps)
    state._legal = None
    state._run()
    return state


def legal(state: CooperState) -> list[str]:
    return [str(a) for a in state.legal_actions()]


def give(state: CooperState, p: int, where: str = "store", **goods: int) -> None:
    """Put goods into a player's storage or market straight from the supply (test set-up)."""
    box = state.players[p].store if where == "store" else state.players[p].market
    for g, k in goods.items():
        box[g] += k
        if g != "coin":
            state.supply[g] -= k


def tile(state: CooperState, p: int, hex_id: int, terrains: str, cube: str = "") -> None:
    """Stack tiles (terrain codes F M R S) on a hex, with an optional cube on top (test set-up)."""
    P = state.players[p]
    i = hex_id - 1
    P.stack[i] += list(terrains)
    if P.cube[i]:
        state.supply[P.cube[i]] += 1
        P.cube[i] = ""
    if cube:
        P.cube[i] = cube
        state.supply[cube] -= 1
    P.changed()


def cubes_in_play(state: CooperState) -> dict[str, int]:
    out = dict.fromkeys(RES, 0)
    for P in state.players:
        for c in P.cube:
            if c:
                out[c] += 1
        for box in (P.store, P.market):
            for g in RES:
                out[g] += box[g]
    return out


def check_invariants(state: CooperState) -> None:
    C = state.C
    inplay = cubes_in_play(state)
    for g in RES:
        assert inplay[g] + state.supply[g] == C.cubes, f"{g} cubes not conserved"
        assert state.supply[g] >= 0
    doubles_total = sum(C.split_counts)
    singles_used = sum(C.singles.values()) - sum(state.singles.values())
    hands = sum(sum(P.hand) for P in state.players)
    hexes = sum(len(s) for P in state.players for s in P.stack)
    placed = doubles_total - len(state.bag) - hands
    assert hexes == 2 * placed + singles_used + state.num_players, "tiles not conserved"
    assert min(state.singles.values()) >= 0
    assert sorted(state.small + state.large + state.offer + [c for P in state.players for c in P.cards]) == \
        sorted(c.id for c in C.cards), "building cards lost or duplicated"
    for P in state.players:
        assert min(P.store.values()) >= 0 and min(P.market.values()) >= 0, "negative goods"
        assert 0 <= P.carto <= C.carto_max
        assert P.anchors >= 0 and min(P.hand) >= 0 and P.crates >= 0
        assert 0 <= P.idle_n <= P.total_n <= 4 and 0 <= P.idle_s <= P.total_s <= 2
        assert P.storage_used() <= C.start_storage + sum(P.built.values()) + 0
        for i, s in enumerate(P.stack):
            assert len(s) <= C.max_height
            for k in range(1, len(s)):
                assert s[k] == s[k - 1] or s[k] == "S", f"illegal stack {s} on hex {i + 1}"
            if P.ruin[i]:
                assert not s, "a tile on a ruin"
            if P.cube[i]:
                assert s and not P.occ[i]
                want = {"F": "wood", "M": "food", "R": "stone", "S": "cloth"}[s[-1]]
                if s[-1] == "R" and len(s) >= 3:
                    want = "gold"
                islet_goods = {r for eff in C.islets for op, _, r in eff if op == "res"}  # an islet's cube: any tile
                assert P.cube[i] == want or P.cube[i] in islet_goods, f"cube {P.cube[i]} on {s}"
            if P.occ[i]:
                assert s
    if state.phase == "worker":
        placed_w = {q: 0 for q in range(state.num_players)}
        for occ in state.spaces.values():
            for q, _ in occ:
                placed_w[q] += 1
        for q, P in enumerate(state.players):
            assert placed_w[q] + P.idle_n + P.idle_s + P.orders_n + P.orders_s == P.total_n + P.total_s


def coins(state: CooperState, p: int) -> int:
    P = state.players[p]
    return P.store["coin"] + P.market["coin"]


__all__ = ["GAME", "GOODS", "Act", "at", "check_invariants", "give", "legal", "new", "play", "random_game", "refresh",
           "tile"]


def skip_income(state: CooperState) -> CooperState:
    """Every player's income phase is left out (test set-up: income actions are compulsory, so no move ends
    it early), to reach the worker phase with the setup's position."""
    while state.phase == "income" and state.todo[-1][0] == "income":
        state.todo.pop()
        refresh(state)
    return state
