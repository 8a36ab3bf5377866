"""Property tests over many random games: drops, markers and cards conserved, clouds consistent, the
track equal to what the log earned, replays and saves, refusals that change nothing, views and
determinizations that leak no hand and no deck order.

The suite plays a few hundred games per test; `BOARDLAB_DEEP=1` plays thousands."""

from __future__ import annotations

import json
import random

from hypothesis import given, settings
from hypothesis import strategies as st
from pt_helpers import GAME, check_invariants, new

from boardlab.core import Rng
from boardlab.core.errors import IllegalActionError
from boardlab.games.petrichor.actions import ALL_ACTIONS
from boardlab.games.petrichor.rules import PetrichorState
from depth import examples

GAMES = settings(max_examples=examples(250))
OPTIONS = st.fixed_dictionaries({
    "length": st.sampled_from(["short", "long"]),
    "final_turn": st.sampled_from(["one_card", "full"]),
    "voting_wins": st.sampled_from(["seed", "flowers"]),
})


def earned(state: PetrichorState, new_events: list[list[object]]) -> tuple[list[int], list[int]]:
    vp = [0] * state.nb
    vw = [0] * state.nb
    for ev in new_events:
        if ev[0] == "die":
            vp[ev[1]] += ev[3]  # type: ignore[index,operator]
        elif ev[0] == "harvest":
            for q, x in enumerate(ev[2]):  # type: ignore[arg-type]
                vp[q] += x
        elif ev[0] == "vw":
            vw[ev[2]] += ev[3]  # type: ignore[index,operator]
    return vp, vw


def check_views(state: PetrichorState, salt: int) -> None:
    for seat in range(state.num_players):
        view = state.view(seat)
        json.dumps(view)
        assert view["hand"] == state.hands[seat]
        text = json.dumps(view)
        assert "deck\": [" not in text and "hands" not in view, "no other hand and no deck order in a view"
        det = state.determinize(seat, Rng(salt))
        assert det.view(seat) == view, "a determinization must look the same to the seat"
        assert GAME.evaluate(det, seat) == GAME.evaluate(state, seat), "evaluate may use only what the seat sees"
        check_invariants(det)
        if state.current_player == seat:
            assert det.legal_actions() == state.legal_actions()
        other_world = state.determinize(seat, Rng(salt + 1))
        a = state.determinize(seat, Rng(salt + 2)).snapshot()
        b = other_world.determinize(seat, Rng(salt + 2)).snapshot()
        assert a == b, "determinize must depend only on the seat's information set"
    assert state.view(None)["hand"] is None


@GAMES
@given(players=st.integers(1, 4), seed=st.integers(0, 2**32), options=OPTIONS)
def test_random_games_keep_every_invariant(players: int, seed: int, options: dict[str, str]) -> None:
    state = new(players, seed, **options)
    rng = random.Random(seed)
    steps = 0
    while not state.is_over:
        check_invariants(state)
        before_vp, before_vw, n_ev = state.vp[:], state.vw[:], len(state.events)
        legal = state.legal_actions()
        assert legal and len(set(legal)) == len(legal)
        if rng.random() < 0.05:
            bad = rng.choice(ALL_ACTIONS)
            if bad not in legal:
                snap = state.snapshot()
                try:
                    state.apply(bad)
                    raise AssertionError(f"{bad} was accepted")
                except IllegalActionError as e:
                    assert str(e)
                assert state.snapshot() == snap, "a refused action must change nothing"
        if rng.random() < 0.03:
            check_views(state, seed + steps)
        action = rng.choice(legal)
        after = state.clone()
        after.apply(action)
        vp, vw = earned(after, after.events[n_ev:])
        assert after.vp == [b + x for b, x in zip(before_vp, vp, strict=True)], "VP only from dice and harvests"
        assert after.vw == [b + x for b, x in zip(before_vw, vw, strict=True)]
        state = after
        steps += 1
        assert steps < 3000
    check_invariants(state)
    # replay from seed + log, and the JSON save
    again = GAME.replay(players, seed, [str(a) for a in state.history], **options)
    assert again.snapshot() == state.snapshot()
    loaded = GAME.from_json(json.loads(json.dumps(state.to_json())))
    assert loaded.snapshot() == state.snapshot()
    assert state.round == state.rounds
    totals = [s.total for s in state.scores()]
    assert all(t >= 0 for t in totals)
    assert len(state.returns()) == players


@settings(max_examples=examples(40))
@given(seed=st.integers(0, 2**32))
def test_undo_barrier_exactly_at_draws_and_rolls(seed: int) -> None:
    """Every action that dealt cards, rolled dice, drew a South Wind card or showed cards from its player's hand
    to the others is a barrier, no other."""
    state = new(1 + seed % 4, seed)
    rng = random.Random(seed)
    while not state.is_over:
        a = rng.choice(state.legal_actions())
        after = state.clone()
        after.apply(a)
        dealt = [sum(h) for h in after.hands] != [sum(h) for h in state.hands] and after.round != state.round
        barrier = GAME.undo_barrier(state, a, after)
        if dealt or after.sw_card != state.sw_card or (after.dice != state.dice and after.round != state.round):
            assert barrier
        if not barrier:
            assert after.deck == state.deck and after.rng.state == state.rng.state
            seat = state.current_player
            if state.num_players > 1 and seat is not None and seat < len(state.hands):
                # a card that leaves a hand is seen by the others: undoing it would hide it again (#32)
                assert all(n >= m for m, n in zip(state.hands[seat], after.hands[seat], strict=True)), a
        state = after
