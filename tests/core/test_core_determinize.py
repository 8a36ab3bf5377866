"""Determinization (State.determinize) depends only on the deciding seat's information set: two true
states that differ only in other players' hands, the worker piles and the jungle pile order give the
same sample for the same rng seed; the sample keeps everything the seat knows."""

from __future__ import annotations

import random
from collections import Counter

import pytest

import boardlab
from boardlab.core.rng import Rng
from boardlab.games.cacao.rules import CacaoState


def position(players: int, seed: int, moves: int) -> CacaoState:
    s = boardlab.new_game("cacao", players=players, seed=seed)
    assert isinstance(s, CacaoState)
    rng = random.Random(seed)
    for _ in range(moves):
        if s.is_over:
            break
        s.apply(rng.choice(s.legal_actions()))
    return s


def twin(s: CacaoState, seat: int, rng: random.Random) -> CacaoState:
    """The same position with everything hidden from `seat` dealt differently."""
    t = s.clone()
    for p in range(t.num_players):
        if p == seat:
            rng.shuffle(t.decks[p])
            continue
        pool = t.hands[p] + t.decks[p]
        rng.shuffle(pool)
        k = len(t.hands[p])
        t.hands[p], t.decks[p] = sorted(pool[:k]), pool[k:]
    rng.shuffle(t.pile)
    t._legal = None
    return t


CASES = [(2, 3, 10), (3, 5, 30), (4, 8, 45), (3, 13, 70), (2, 21, 0)]


@pytest.mark.parametrize(("players", "seed", "moves"), CASES)
def test_core_determinize_ignores_hidden_truth(players: int, seed: int, moves: int) -> None:
    """Twins differing only in hidden information look the same to the seat and determinize identically."""
    s = position(players, seed, moves)
    twins_differ = 0
    for seat in range(players):
        t = twin(s, seat, random.Random(seed * 10 + seat))
        assert t.view(seat) == s.view(seat)
        twins_differ += t.snapshot() != s.snapshot()
        for k in range(3):
            a = s.determinize(seat, Rng(k)).snapshot()
            b = t.determinize(seat, Rng(k)).snapshot()
            assert a == b
    assert twins_differ, "the twins were not different: the test would prove nothing"


@pytest.mark.parametrize(("players", "seed", "moves"), CASES)
def test_core_determinize_keeps_what_the_seat_knows(players: int, seed: int, moves: int) -> None:
    """The sample keeps the board, villages, display, own hand, hand and pile sizes, multisets of hidden
    tiles and the history; it is a full playable state."""
    s = position(players, seed, moves)
    seat = s.current_player if s.current_player is not None else 0
    d = s.determinize(seat, Rng(99))
    assert d.view(seat) == s.view(seat)
    assert d.hands[seat] == s.hands[seat]
    assert sorted(d.pile) == sorted(s.pile)
    for p in range(players):
        assert len(d.hands[p]) == len(s.hands[p]) and len(d.decks[p]) == len(s.decks[p])
        assert Counter(d.hands[p] + d.decks[p]) == Counter(s.hands[p] + s.decks[p])
    assert d.history == s.history
    assert d.legal_actions() == s.legal_actions()
    rng = random.Random(1)
    while not d.is_over:
        d.apply(rng.choice(d.legal_actions()))
    assert s.snapshot() == position(players, seed, moves).snapshot(), "determinize changed the true state"


def test_core_determinize_varies_with_rng() -> None:
    """Different rng seeds give different samples of the hidden parts."""
    s = position(4, 2, 12)
    samples = {str(s.determinize(0, Rng(k)).snapshot()) for k in range(20)}
    assert len(samples) > 15
