"""Property tests over random games: conservation (cubes, tiles, cards), non-negative goods, worker counts,
stacking legality re-checked independently (ci_helpers.check_invariants), every game ends, replay and JSON
round-trip, illegal actions refused with the state untouched, views and determinization that leak nothing,
undo barriers exactly at draws.

The suite plays 200 random games in the first test and 40 in the others; `BOARDLAB_DEEP=1` plays thousands."""

from __future__ import annotations

import json
import random

from ci_helpers import GAME, check_invariants, new
from hypothesis import given, settings
from hypothesis import strategies as st

from boardlab.core import Rng
from boardlab.core.errors import IllegalActionError
from boardlab.games.cooper_island.actions import ALL_ACTIONS, parse
from boardlab.games.cooper_island.rules import Board
from depth import examples

GAMES = settings(max_examples=examples(200))
FEW = settings(max_examples=examples(40))
SEEDS = st.integers(0, 2**31)
PLAYERS = st.sampled_from([2, 3, 4])


@GAMES
@given(SEEDS, PLAYERS)
def test_random_games_keep_invariants_and_end(seed: int, players: int) -> None:
    s = new(players, seed)
    rng = random.Random(seed)
    n = 0
    while not s.is_over:
        s.apply(rng.choice(s.legal_actions()))
        n += 1
        assert n < 20000, "the game did not end"
        if n % 7 == 0:
            check_invariants(s)
    check_invariants(s)
    assert s.round == s.C.rounds
    for sc in s.scores():
        assert sc.total == sum(sc.breakdown.values())
    assert s.winners()


@FEW
@given(SEEDS, PLAYERS)
def test_replay_and_json_round_trip(seed: int, players: int) -> None:
    s = new(players, seed)
    rng = random.Random(seed)
    stop = rng.randrange(50, 400)
    while not s.is_over and len(s.history) < stop:
        s.apply(rng.choice(s.legal_actions()))
    again = GAME.replay(players, seed, [str(a) for a in s.history])
    assert again.snapshot() == s.snapshot()
    data = json.loads(json.dumps(s.to_json()))
    assert GAME.from_json(data).snapshot() == s.snapshot()
    for a in s.history[:50]:
        assert parse(str(a)) == a and GAME.id_to_action(GAME.action_to_id(a, players), players) == a


@FEW
@given(SEEDS, PLAYERS)
def test_illegal_actions_are_refused_and_change_nothing(seed: int, players: int) -> None:
    s = new(players, seed)
    rng = random.Random(seed)
    for _ in range(rng.randrange(0, 300)):
        if s.is_over:
            return
        s.apply(rng.choice(s.legal_actions()))
    if s.is_over:
        return
    before = s.snapshot()
    legal = set(s.legal_actions())
    for a in rng.sample(ALL_ACTIONS, 40):
        if a in legal:
            continue
        try:
            s.apply(a)
        except IllegalActionError as e:
            assert str(e)
        else:
            raise AssertionError(f"{a} was accepted")
        assert s.snapshot() == before


@FEW
@given(SEEDS, PLAYERS)
def test_views_hide_the_bag_and_unseen_cards_and_determinize_keeps_them(seed: int, players: int) -> None:
    s = new(players, seed)
    rng = random.Random(seed)
    for _ in range(rng.randrange(0, 400)):
        if s.is_over:
            break
        s.apply(rng.choice(s.legal_actions()))
    for seat in range(players):
        v = s.view(seat)
        text = json.dumps(v)
        assert "bag_order" not in text and "log_order" not in text
        for c in s.small + s.large + s.offer:
            if not s.seen[c] >> seat & 1:
                assert [c] not in [v["offer"]] and all(k[2] != c for k in v["decks"]["known"])
        d = s.determinize(seat, Rng(seed + seat))
        assert d.view(seat) == v
        if s.current_player == seat:
            assert d.legal_actions() == s.legal_actions()
        # the determinization depends only on what the seat knows: reshuffle the hidden bag and tokens
        other = s.clone()
        random.Random(seed + 1).shuffle(other.bag)
        random.Random(seed + 2).shuffle(other.logpool)
        assert other.determinize(seat, Rng(7)).snapshot() == s.determinize(seat, Rng(7)).snapshot()


@FEW
@given(SEEDS, PLAYERS)
def test_determinize_asks_the_question_a_full_rerun_would(seed: int, players: int) -> None:
    """`determinize` reruns the step machine only at a `pick` (the offer's cards are resampled there): at every
    other question the copied answers must be exactly what a rerun gives, for any seat's determinization."""
    s = new(players, seed)
    rng = random.Random(seed)
    for n in range(rng.randrange(50, 700)):
        if s.is_over:
            break
        at_pick = s.todo[-1][0] == "pick"
        if at_pick or n % 5 == 0:
            seat = rng.randrange(players)
            d = s.determinize(seat, Rng(seed + n))
            rerun = d.clone()
            rerun._run()
            assert (rerun.current_player, rerun.legal_actions()) == (d.current_player, d.legal_actions())
            assert rerun.snapshot() == d.snapshot()
        s.apply(rng.choice(s.legal_actions()))


@FEW
@given(SEEDS)
def test_undo_barrier_exactly_at_draws_and_reveals(seed: int) -> None:
    s = new(2, seed)
    rng = random.Random(seed)
    for _ in range(300):
        if s.is_over:
            break
        a = rng.choice(s.legal_actions())
        before = s.clone()
        s.apply(a)
        drew = len(s.bag) != len(before.bag) or len(s.logpool) != len(before.logpool) or s.offer != before.offer \
            or s.small != before.small or s.large != before.large
        assert GAME.undo_barrier(before, a, s) == drew, str(a)


@FEW
@given(SEEDS, PLAYERS)
def test_kept_boards_match_the_island_and_ask_what_a_fresh_reading_would(seed: int, players: int) -> None:
    """A `Board` is kept across decisions (and shared by copies) until its island changes: at every decision of a
    random game, and of a search's copies, each kept board must equal one read afresh, and the question asked
    must be the one a rerun on freshly read boards asks (a rule edit that forgets `changed` fails here)."""
    s = new(players, seed)
    rng = random.Random(seed)
    while not s.is_over:
        copy = s.clone()
        for state in (s, copy):
            unread = state.clone()
            for q, P in enumerate(state.players):
                kept = P.board
                if kept is None:
                    continue
                unread.players[q].changed()
                fresh = Board(P, s.C)
                for field in ("near", "ok", "island", "units", "counts"):
                    assert getattr(kept, field) == getattr(fresh, field), field
                if kept.oks is not None:
                    assert kept.oks == unread.spots(unread.players[q])[2]
                if kept.tops is not None:
                    assert kept.tops == unread.free_tops(q)
                for (split, side), facts in kept.sides.items():
                    assert facts == unread.side_facts(unread.players[q], split, side)
                for (split, side), spots in kept.places.items():
                    assert spots == unread.tile_spots(unread.players[q], split, side)
                key = (P.carto, *state.singles.values())
                if key in kept.singles and not P.carto_used:
                    assert kept.singles[key] == unread.singles_for(q)
                if kept.stores is not None:
                    assert [str(a) for a in kept.stores] == [f"store h {i + 1}" for i, c in enumerate(P.cube) if c]
        for P in copy.players:
            P.changed()
        copy._run()
        assert (copy.current_player, copy.legal_actions()) == (s.current_player, s.legal_actions())
        s.apply(rng.choice(s.legal_actions()))
