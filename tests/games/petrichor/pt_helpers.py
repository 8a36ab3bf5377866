"""Shared helpers for the Petrichor tests: hand-built positions, random play and invariant checks."""

from __future__ import annotations

import random
from typing import Any

from boardlab.core import get_game
from boardlab.games.petrichor.actions import COLS
from boardlab.games.petrichor.rules import PetrichorState

GAME = get_game("petrichor")
F, S, W, R = range(4)


def new(players: int = 2, seed: int = 0, **options: Any) -> PetrichorState:
    return GAME.new_game(players, seed, **options)  # type: ignore[return-value]


def cell(state: PetrichorState, name: str) -> int:
    return state.at(int(name[1]) - 1, COLS.index(name[0]))


def refresh(state: PetrichorState) -> None:
    """Recompute the pending question after a test edited the position by hand."""
    state._legal = None
    state._run()


def blank(players: int = 2, seed: int = 0, **options: Any) -> PetrichorState:
    """A new game with an empty field (no clouds, no drops, full supplies, no votes), dice on 4."""
    s = new(players, seed, **options)
    n = len(s.tile)
    s.field = [[0] * s.nb for _ in range(n)]
    s.cloud = [None] * n
    s.dark = [False] * n
    s.growth = [0] * n
    s.supply = [20] * s.nb
    s.dice = [4, 4, 4]
    s.events = []
    return s


def set_tile(state: PetrichorState, name: str, crop: str, threshold: int | None = None) -> None:
    """Put a tile of that crop (and threshold, if given and present in the data) on the cell."""
    i = cell(state, name)
    cands = [k for k, t in enumerate(state.C.tiles)
             if t.crop == crop and (threshold is None or t.threshold == threshold)]
    state.tile = state.tile[:]
    state.tile[i] = cands[0]


def cloud(state: PetrichorState, name: str, drops: dict[int, int], dark: bool = False) -> None:
    i = cell(state, name)
    cl = [0] * state.nb
    for q, k in drops.items():
        cl[q] += k
        state.supply[q] -= k
    state.cloud[i] = cl
    state.dark[i] = dark


def drops(state: PetrichorState, name: str, per: dict[int, int]) -> None:
    i = cell(state, name)
    for q, k in per.items():
        state.field[i][q] += k
        state.supply[q] -= k


def hand(state: PetrichorState, p: int, cards: dict[int, int]) -> None:
    """Give seat p exactly this hand (cards come from / go to the deck, so the 40 stay 40)."""
    for w in range(4):
        state.deck += [w] * state.hands[p][w]
    state.hands[p] = [0] * 4
    for w, k in cards.items():
        for _ in range(k):
            state.deck.remove(w)
        state.hands[p][w] = k


def turn(state: PetrichorState, p: int, cards: dict[int, int] | None = None) -> PetrichorState:
    """Make it seat p's turn in the action phase (with that hand)."""
    if cards is not None:
        hand(state, p, cards)
    state.todo = [("turn", p)]
    state.decider = p
    refresh(state)
    return state


def play(state: PetrichorState, *moves: str) -> PetrichorState:
    for m in moves:
        state.apply_text(m)
    return state


def legal(state: PetrichorState) -> list[str]:
    return [str(a) for a in state.legal_actions()]


def random_game(players: int, seed: int, max_decisions: int = 5000, **options: Any) -> PetrichorState:
    state = new(players, seed, **options)
    rng = random.Random(seed)
    for _ in range(max_decisions):
        if state.is_over:
            break
        state.apply(rng.choice(state.legal_actions()))
    return state


def check_invariants(state: PetrichorState) -> None:
    """20 drops per player across supply, clouds and fields; clouds consistent; 12 markers per player;
    the 40 cards across deck, hands and discard pile."""
    k = state.C.const
    for q in range(state.nb):
        total = state.supply[q] + state.in_clouds(q) + state.on_fields(q)
        assert total == k["drops_per_player"], f"player {q} has {total} drops"
        assert state.supply[q] >= 0
        assert all(f[q] >= 0 for f in state.field)
        assert 0 <= state.markers_left(q) <= k["markers_per_player"]
        assert all(state.votes[w][q] >= 0 for w in range(4))
    for i, cl in enumerate(state.cloud):
        if cl is None:
            assert not state.dark[i]
            continue
        t = sum(cl)
        assert t > 0, "an empty cloud must be removed"
        assert min(cl) >= 0
        assert t < k["burst_at"], "a cloud of 8 or more must have burst"
        if t >= k["dark_at"]:
            assert state.dark[i], "a cloud of 4 or more is dark"
    assert sum(c is not None for c in state.cloud) <= k["clouds"]
    cards = len(state.deck) + sum(state.discard) + sum(sum(h) for h in state.hands)
    assert cards == len(state.C.deck)
    for i in range(len(state.tile)):
        assert state.growth[i] in (0, 1, 2)
        if state.growth[i] == 2:
            assert state.C.crops[state.crop(i)].grows_on is not None
    assert all(v in state.C.die_faces for v in state.dice)
