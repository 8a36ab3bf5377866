"""One test per "Common mistakes" bullet of cacao.md §2, each proving the engine does not make it."""

from __future__ import annotations

from collections import Counter

import pytest
from cacao_helpers import (
    E,
    S,
    W,
    assert_illegal,
    facing,
    make_state,
    play,
    worker,
)

import boardlab
from boardlab.games.cacao.rules import CacaoState


def in_play(players: int, seed: int = 0) -> Counter[str]:
    s = boardlab.new_game("cacao", players=players, seed=seed)
    assert isinstance(s, CacaoState)
    return Counter(s.jungle.values()) + Counter(s.display) + Counter(s.pile)


def test_cacao_mistake_temples_scored_together() -> None:
    """Temples are scored one by one: A leads temple 1 (3 v 1), B leads temple 2 (2 v 1). Per temple:
    9 each. Summed across temples (A 4, B 3) would wrongly give A 6 and B 3."""
    t1, t2 = (2, 2), (6, 2)
    workers = {
        (2, 1): facing(0, 3, S), (3, 2): facing(1, 1, W),
        (6, 1): facing(1, 2, S), (5, 2): facing(0, 1, E),
    }
    jungle = {(0, 0): "plantation1", (1, 1): "market2", t1: "temple", t2: "temple"}
    s = make_state(jungle=jungle, workers=workers)
    assert [x.breakdown["temples"] for x in s.scores()] == [9, 9]


def test_cacao_mistake_game_ends_when_jungle_runs_out() -> None:
    """Jungle pile and display both empty, tiles still in hands: the game goes on."""
    s = make_state(hands=[["1111", "2101"], ["1111", "2101"]], jungle={(0, 0): "temple", (1, 1): "temple"})
    assert not s.is_over and s.legal_actions()
    play(s, "1111r0@0,-1", "1111r0@-1,0")
    assert not s.is_over and s.current_player == 0
    play(s, "2101r0@1,0", "2101r0@2,1")
    assert s.is_over


@pytest.mark.parametrize("players", [3, 4])
def test_cacao_mistake_start_tiles_counted_twice(players: int) -> None:
    """28 jungle tiles in all, the 2 start tiles among them (not 28 + 2)."""
    c = in_play(players)
    assert sum(c.values()) == 28
    assert c["plantation1"] == 6 and c["market2"] == 2


def test_cacao_mistake_two_temples_removed_in_two_player_game() -> None:
    """2 players: only 1 temple is removed, 4 remain."""
    assert in_play(2)["temple"] == 4
    assert in_play(3)["temple"] == in_play(4)["temple"] == 5


@pytest.mark.parametrize("players", [2, 3, 4])
def test_cacao_mistake_two_value_two_gold_mines(players: int) -> None:
    """There is exactly one value-2 gold mine (and 2 value-1 mines, 1 in 2p)."""
    c = in_play(players)
    assert c["gold2"] == 1
    assert c["gold1"] == (1 if players == 2 else 2)


def test_cacao_mistake_seven_markets_in_two_player_game() -> None:
    """2 players: one price-3 market is removed, 6 markets remain (2 x 2, 3 x 3, 1 x 4)."""
    c = in_play(2)
    assert (c["market2"], c["market3"], c["market4"]) == (2, 3, 1)
    assert c["market2"] + c["market3"] + c["market4"] == 6


def test_cacao_mistake_hidden_tile_counts_for_temple_after_rebuild() -> None:
    """Only the top tile counts: rebuilding a tile that showed 3 workers to a temple with one showing 0
    removes those workers from the majority."""
    t = (2, 2)
    workers = {(2, 1): facing(0, 3, S), (3, 2): facing(1, 1, W)}
    s = make_state(jungle={(0, 0): "plantation1", (1, 1): "market2", t: "temple"}, workers=workers,
                   villages=[{"sun": 1}, {}], hands=[["2101", "1111"], ["1111"]])
    assert [x.breakdown["temples"] for x in s.scores()] == [6, 3]
    play(s, "rebuild 2101r0@2,1")  # r0: the 0 faces south, towards the temple
    assert s.workers[(2, 1)].layers == 2
    assert [x.breakdown["temples"] for x in s.scores()] == [0, 6]


def test_cacao_mistake_display_refilled_mid_turn() -> None:
    """After the display's tiles are used, spaces get blind pile tiles and the display stays empty until
    the end of the turn (it is not refilled and used again for the next space)."""
    jungle = {(0, 0): "plantation1", (1, 1): "market2", (4, 0): "temple"}
    workers = {(1, 0): worker(1, "1111", 0), (3, 0): worker(1, "1111", 0), (1, 2): worker(1, "1111", 0)}
    s = make_state(jungle=jungle, workers=workers, display=["gold1", "gold2"], pile=["market4", "water", "sun"])
    play(s, "1111r0@2,1", "fill gold1@2,0", "fill gold2@3,1")
    assert s.jungle[(2, 2)] == "sun"  # blind from the pile, no third choice offered
    assert s.display == [] and s.pile == ["market4", "water"]
    assert s.phase == "activate"
    while s.phase == "activate":
        assert s.display == []
        play(s, "auto")
    assert s.display == ["water", "market4"]


def test_cacao_mistake_overbuilding_while_display_tiles_remain() -> None:
    """Pile empty but a tile left in the display: no rebuilding yet, even with sun tokens."""
    s = make_state(workers={(1, 0): worker(0, "1111", 0)}, villages=[{"sun": 3}, {}], display=["temple"])
    assert not any(a[0] == "rebuild" for a in s.legal_actions())
    assert_illegal(s, "rebuild 2101r0@1,0")
    s.display = []
    s._legal = None
    assert any(a[0] == "rebuild" for a in s.legal_actions())


def test_cacao_mistake_edge_activated_twice() -> None:
    """(Also §2 C) A worker is activated once per game: an edge facing a space filled this turn is used
    once, and a later tile next to the same jungle tile does not re-activate it."""
    s = make_state(workers={(2, 1): worker(1, "1111", 0)}, display=["gold2", "temple"], pile=["temple", "temple"])
    play(s, "1111r0@1,0", "fill gold2@2,0", "auto", "auto")
    assert [v.gold for v in s.villages] == [2 + 2, 2]  # P0 also harvests 1 and sells it at the start market
    play(s, "1111r0@2,-1")
    assert 0 not in s.pending
    play(s, "auto")
    assert [v.gold for v in s.villages] == [4, 4]
