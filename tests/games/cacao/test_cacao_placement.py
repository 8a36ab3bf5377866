"""Rules §2 "Grid" and "A) Place a worker tile": the checkerboard, orthogonal adjacency to a jungle
tile, any orientation, the unbounded board and the refusal of every other placement."""

from __future__ import annotations

import pytest
from cacao_helpers import (
    assert_illegal,
    facing,
    legal_strings,
    make_state,
    play,
    worker,
)

import boardlab
from boardlab.games.cacao import GAME
from boardlab.games.cacao.rules import CacaoState

START_SPOTS = {(0, -1), (1, 0), (-1, 0), (0, 1), (2, 1), (1, 2)}


def placement_cells(state: CacaoState) -> set[tuple[int, int]]:
    return {(a.x, a.y) for a in state.legal_actions() if a[0] == "place"}


def test_cacao_first_placements_are_the_cells_next_to_the_start_tiles() -> None:
    """At the start, exactly the 6 worker cells orthogonal to the start plantation or market are legal,
    with every hand tile in every distinct orientation; nothing else (no rebuild, no discard)."""
    s = boardlab.new_game("cacao", players=2, seed=0)
    assert placement_cells(s) == START_SPOTS
    rots = {"1111": 1, "2101": 4, "3001": 4, "3100": 4}
    assert len(s.legal_actions()) == sum(rots[t] for t in set(s.hands[0])) * len(START_SPOTS)
    assert {a[0] for a in s.legal_actions()} == {"place"}


def test_cacao_worker_cells_have_odd_parity() -> None:
    """Worker tiles only on x+y odd: an empty jungle space (even) is refused, even next to a tile."""
    s = make_state(workers={(1, 0): facing(1, 1, 0)})
    msg = assert_illegal(s, "1111r0@2,0")
    assert "jungle space" in msg
    assert_illegal(s, "1111r0@1,1")  # the start market itself


def test_cacao_occupied_cell_is_refused() -> None:
    """A worker tile cannot go on another worker tile by normal placement."""
    s = make_state(workers={(1, 0): worker(1, "1111", 0)})
    msg = assert_illegal(s, "2101r0@1,0")
    assert "occupied" in msg


def test_cacao_diagonal_contact_only_is_refused() -> None:
    """A cell touching a worker tile only diagonally (and no jungle tile orthogonally) is illegal."""
    s = make_state(workers={(1, 0): worker(1, "1111", 0)})
    assert (2, -1) not in placement_cells(s)
    msg = assert_illegal(s, "1111r0@2,-1")
    assert "next to" in msg


def test_cacao_contact_with_empty_jungle_space_only_is_refused() -> None:
    """A cell next only to empty jungle spaces (here 2,0, empty) is illegal: it needs a jungle *tile*."""
    s = make_state(workers={(1, 0): worker(1, "1111", 0)})
    assert (3, 0) not in placement_cells(s)
    assert_illegal(s, "2101r1@3,0")
    # once a tile lies on 2,0, the same cell becomes legal
    s2 = make_state(jungle={(0, 0): "plantation1", (1, 1): "market2", (2, 0): "gold1"},
                    workers={(1, 0): worker(1, "1111", 0)})
    assert "2101r1@3,0" in legal_strings(s2)


def test_cacao_legal_cells_are_exactly_the_orthogonal_neighbours_of_jungle_tiles() -> None:
    """On a busier board, the legal cells are the empty odd cells orthogonal to >= 1 jungle tile."""
    jungle = {(0, 0): "plantation1", (1, 1): "market2", (2, -2): "temple", (-1, 3): "water"}
    workers = {(1, 0): worker(1, "1111", 0), (0, 1): worker(0, "1111", 0)}
    s = make_state(jungle=jungle, workers=workers)
    expected = {(0, -1), (-1, 0), (2, 1), (1, 2),
                (2, -3), (3, -2), (2, -1), (1, -2),
                (-1, 2), (0, 3), (-1, 4), (-2, 3)}
    assert placement_cells(s) == expected


def test_cacao_any_orientation_is_allowed() -> None:
    """Every distinct rotation of every hand tile can be placed on a legal cell, and the tile lands
    with the edges of that rotation."""
    s = make_state(hands=[["2101", "3100", "1111"], ["1111"]])
    got = {(a.tile, a.rot) for a in s.legal_actions() if (a.x, a.y) == (0, -1)}
    assert got == {("2101", r) for r in range(4)} | {("3100", r) for r in range(4)} | {("1111", 0)}
    play(s, "3100r2@0,-1")
    w = s.workers[(0, -1)]
    assert (w.owner, w.tile, w.rot, w.edges) == (0, "3100", 2, (0, 0, 3, 1))


def test_cacao_redundant_rotation_and_foreign_tile_are_refused() -> None:
    """1-1-1-1 has one orientation (r1 is refused with a hint); a tile not in hand is refused."""
    s = make_state(hands=[["1111", "2101"], ["3100"]])
    assert "r0" in assert_illegal(s, "1111r1@1,0")
    assert "not in your hand" in assert_illegal(s, "3100r0@1,0")


def test_cacao_board_is_unbounded() -> None:
    """Far from the start, placement works the same (no board edge); the action id still round-trips."""
    far = (-40, 30)
    s = make_state(jungle={far: "temple"})
    cells = placement_cells(s)
    assert cells == {(-40, 29), (-39, 30), (-40, 31), (-41, 30)}
    a = GAME.parse_action(s, "2101r3@-41,30")
    assert GAME.id_to_action(GAME.action_to_id(a, 2), 2) == a
    play(s, "2101r3@-41,30")
    assert (-41, 30) in s.workers


def test_cacao_placing_only_in_place_phase_and_by_turn_player() -> None:
    """Only the turn's player places; other kinds of action are refused in the place phase."""
    s = boardlab.new_game("cacao", players=3, seed=1)
    a = s.legal_actions()[0]
    with pytest.raises(boardlab.IllegalActionError):
        s.apply(a, seat=1)
    assert_illegal(s, "auto")
    assert_illegal(s, "fill temple@2,0")
    assert_illegal(s, "use 1,0 N 1")
    assert_illegal(s, "discard 1111")
    s.apply(a, seat=0)
