"""Property tests over many random games: conservation, capacity, the 4-card rule, saves, replays,
views that leak nothing, determinization that depends only on the information set, refusals."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pm_helpers import GAME, check_invariants, four_card_rule_holds, new, start_of_turn

from boardlab.core import Rng
from boardlab.core.errors import IllegalActionError
from boardlab.games.pocket_mars.actions import ALL_ACTIONS
from boardlab.games.pocket_mars.components import CARD_IDS
from boardlab.games.pocket_mars.effects import ALL_SEEN
from boardlab.games.pocket_mars.rules import PocketMarsState
from depth import examples

CARD_SET = set(CARD_IDS)
GAMES = settings(max_examples=examples(300))


def card_ids_in(obj: Any) -> set[str]:
    if isinstance(obj, str):
        return {obj} if obj in CARD_SET else set()
    if isinstance(obj, dict):
        return set().union(*(card_ids_in(v) for v in obj.values())) if obj else set()
    if isinstance(obj, list):
        return set().union(*(card_ids_in(v) for v in obj)) if obj else set()
    return set()


def check_views(state: PocketMarsState, salt: int) -> None:
    for seat in range(state.num_players):
        view = state.view(seat)
        json.dumps(view)
        bit = 1 << seat
        for cid in card_ids_in({k: v for k, v in view.items() if k != "draft_seen"}):
            c = CARD_IDS.index(cid)
            assert state.seen[c] & bit or state.seen[c] == ALL_SEEN, f"view of seat {seat} leaks {cid}"
        for cid in view["draft_seen"]:  # cards it saw in a draft packet (not where they are now)
            assert state.drafted[CARD_IDS.index(cid)] & bit, f"seat {seat} did not see {cid} in the draft"
        det = state.determinize(seat, Rng(salt))
        assert det.view(seat) == view, "a determinization must look the same to the seat"
        assert GAME.evaluate(det, seat) == GAME.evaluate(state, seat), "evaluate may use only what the seat sees"
        check_invariants(det)
        if state.current_player == seat:
            assert det.legal_actions() == state.legal_actions()
        # same information set (other hidden cards permuted) -> same determinization
        other_world = state.determinize(seat, Rng(salt + 1))
        a = state.determinize(seat, Rng(salt + 2)).snapshot()
        b = other_world.determinize(seat, Rng(salt + 2)).snapshot()
        assert a == b, "determinize must depend only on the seat's information set"
    spectator = state.view(None)
    for cid in card_ids_in(spectator):
        assert state.seen[CARD_IDS.index(cid)] == ALL_SEEN, f"spectator view leaks {cid}"


def check_refusal(state: PocketMarsState, rng: random.Random) -> None:
    legal = set(state.legal_actions())
    illegal = [a for a in rng.sample(ALL_ACTIONS, 12) if a not in legal]
    before = state.snapshot()
    for a in illegal[:3]:
        with pytest.raises(IllegalActionError) as e:
            state.apply(a)
        assert str(e.value)
        assert state.snapshot() == before, "a refused action changed the state"


@GAMES
@given(players=st.integers(1, 4), seed=st.integers(0, 2**31), draft=st.booleans(),
       ship=st.sampled_from([5, 6, 7]))
def test_random_games_keep_every_invariant(players: int, seed: int, draft: bool, ship: int) -> None:
    options: dict[str, Any] = {"draft": draft and players > 1}
    if players == 1:
        options["automaton_ship"] = ship
    state = new(players, seed, **options)
    rng = random.Random(seed)
    turns = 0
    decisions = 0
    while not state.is_over:
        check_invariants(state)
        if start_of_turn(state):
            turns += 1
            assert four_card_rule_holds(state), "the 4-card rule must hold after every turn"
        if decisions in (1, 5) or decisions % 40 == 20:
            check_views(state, seed + decisions)
            check_refusal(state, rng)
            mid = GAME.from_json(json.loads(json.dumps(state.to_json())))
            assert mid.snapshot() == state.snapshot()
        state.apply(rng.choice(state.legal_actions()))
        decisions += 1
    check_invariants(state)
    assert turns > 0 and state.legal_actions() == [] and state.current_player is None
    # the end is only ever checked at the end of a round
    if not state.solo and state.round < state.R.max_rounds:
        assert state.turn == (state.start - 1) % players
        assert any(state.earth[q] == 0 and state.ship[q] == 0 for q in range(players))
    # saves and replays
    save = json.loads(json.dumps(state.to_json()))
    loaded = GAME.from_json(save)
    assert loaded.snapshot() == state.snapshot()
    replayed = GAME.replay(players, seed, [str(a) for a in state.history], **options)
    assert replayed.snapshot() == state.snapshot() and replayed.history == state.history
    scores = state.scores()
    assert all(s.total == sum(s.breakdown.values()) for s in scores)
    assert state.winners() == [] or set(state.winners()) <= set(range(players))
    check_views(state, seed)


@settings(max_examples=examples(60))
@given(action=st.sampled_from(ALL_ACTIONS))
def test_every_action_round_trips_through_notation_and_ids(action: Any) -> None:
    state = new(2, 0)
    assert GAME.parse_action(state, str(action)) == action
    assert GAME.parse_action(state, f"  {str(action).upper()} ") == action
    for players in (1, 2, 4):
        i = GAME.action_to_id(action, players)
        assert 0 <= i < GAME.num_distinct_actions(players)
        assert GAME.id_to_action(i, players) == action
    assert GAME.describe_action(action, "en") and GAME.describe_action(action, "zh-TW")
