"""Shared helpers for the Pocket Mars tests: random play, invariant checks and hand-built positions."""

from __future__ import annotations

import random
from collections.abc import Iterable
from typing import Any

from boardlab.core import get_game
from boardlab.games.pocket_mars.components import CARD_IDS, CARD_INDEX
from boardlab.games.pocket_mars.effects import ALL_SEEN
from boardlab.games.pocket_mars.rules import PocketMarsState

GAME = get_game("pocket_mars")


def new(players: int, seed: int = 0, **options: Any) -> PocketMarsState:
    return GAME.new_game(players, seed, **options)  # type: ignore[return-value]


def random_game(players: int, seed: int, max_decisions: int = 5000, **options: Any) -> PocketMarsState:
    state = new(players, seed, **options)
    rng = random.Random(seed)
    for _ in range(max_decisions):
        if state.is_over:
            break
        state.apply(rng.choice(state.legal_actions()))
    return state


def ids(*names: str) -> list[int]:
    return [CARD_INDEX[n] for n in names]


def refresh(state: PocketMarsState) -> None:
    """Recompute the pending question after a test edited the position by hand."""
    state._legal = None
    state._run()


def zones(state: PocketMarsState) -> list[int]:
    """Every card once: all zones concatenated (used for the conservation check)."""
    out = list(state.deck) + state.discard + state.limbo
    for group in (state.hands, state.prep, state.packets, state.stacks):
        for zone in group:
            out += zone
    return out


def check_invariants(state: PocketMarsState) -> None:
    R = state.R
    for q in range(state.nb):
        total = state.earth[q] + state.ship[q] + state.placed(q)
        assert total == R.colonists, f"player {q} has {total} colonists"
        assert min(state.earth[q], state.ship[q]) >= 0
        assert 0 <= state.energy[q] <= R.energy_max
    for b in range(4):
        assert sum(state.hi[b]) <= state.cap, f"★★ of building {b} over capacity"
        assert min(state.lo[b]) >= 0 and min(state.hi[b]) >= 0
    assert sorted(zones(state)) == list(range(len(CARD_IDS))), "cards lost or duplicated"
    assert not state.stacks[4], "the Habitation takes no cards"
    for q in range(state.nb):
        assert len(state.prep[q]) <= R.prep_size


def four_card_rule_holds(state: PocketMarsState) -> bool:
    """At the start of every turn each player holds 2 in hand and 2 in the prep module (unless no card
    can be drawn at all)."""
    R = state.R
    seats = [0] if state.solo else range(state.num_players)
    for q in seats:
        if len(state.prep[q]) != R.prep_size:
            return False
        if len(state.hands[q]) != R.hand_size and state._can_draw(q):
            return False
    return True


def start_of_turn(state: PocketMarsState) -> bool:
    return bool(state.todo) and state.todo[-1][0] == "turn"


def play_setup(state: PocketMarsState) -> None:
    """Answer the setup questions (prep choices) with the first option, up to the first turn."""
    while not start_of_turn(state):
        state.apply(state.legal_actions()[0])


def arrange(state: PocketMarsState, *, hands: dict[int, Iterable[str]] | None = None,
            prep: dict[int, Iterable[str]] | None = None, stacks: dict[int, Iterable[str]] | None = None,
            deck_top: Iterable[str] = ()) -> None:
    """Put the named cards into the given zones by swapping, so every other zone keeps its size and
    every card stays exactly once; then reset the knowledge masks and recompute the pending question."""
    targets: list[tuple[list[int], list[int]]] = []
    targets += [(state.hands[q], ids(*names)) for q, names in (hands or {}).items()]
    targets += [(state.prep[q], ids(*names)) for q, names in (prep or {}).items()]
    targets += [(state.stacks[b], ids(*names)) for b, names in (stacks or {}).items()]
    top = ids(*deck_top)
    named = {c for _, cs in targets for c in cs} | set(top)
    fixed = [z for z in state.stacks] + [state.deck]  # zones whose size may change

    def locate(c: int) -> tuple[list[int], int]:
        for zone in [*state.hands, *state.prep, *state.stacks, *state.packets, state.deck, state.discard]:
            if c in zone:
                return zone, zone.index(c)
        raise AssertionError(c)

    def take(c: int) -> None:
        zone, j = locate(c)
        zone.pop(j)
        if not any(zone is f for f in fixed):
            k = next(k for k, d in enumerate(state.deck) if d not in named)
            zone.insert(j, state.deck.pop(k))

    for zone, cs in targets:
        extra = [c for c in zone if c not in cs]
        for c in extra:
            zone.remove(c)
            state.deck.insert(0, c)
        for i, c in enumerate(cs):
            if i < len(zone) and zone[i] == c:
                continue
            take(c)
            zone.insert(i, c)
        state.deck[0:0] = zone[len(cs):]
        del zone[len(cs):]
    for c in reversed(top):
        take(c)
        state.deck.append(c)
    for q in range(state.nb):
        for c in state.hands[q] + state.prep[q]:
            state.seen[c] = 1 << q
    for c in state.deck:
        state.seen[c] = 0
    for zone in state.stacks:
        for c in zone:
            state.seen[c] = ALL_SEEN
    refresh(state)
    check_invariants(state)
