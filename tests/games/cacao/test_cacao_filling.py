"""Rules §2 "B) Fill jungle spaces": mandatory filling when a space gets 2+ adjacent worker tiles of
any owners, several spaces at once, the player's choice of display tile and space, no mid-turn
refill, blind pile tiles beyond the display (N, E, S, W order), and the empty-supply cases.

Board used below (x east, y south; P = start plantation 0,0, M = start market 1,1):

        x: -1   0   1   2   3
    y=-1        a  [s1]  b
    y= 0         P  new  [s2]
    y= 1             M   c

`a`=(0,-1) and `c`=(2,1) are worker tiles; placing `new` at (1,0) triggers s1=(1,-1) and s2=(2,0).
"""

from __future__ import annotations

import pytest
from cacao_helpers import (
    assert_illegal,
    facing,
    legal_strings,
    make_state,
    pending,
    play,
    worker,
)

from boardlab.games.cacao.rules import CacaoState

TWO_SPACES = {(0, -1): worker(1, "1111", 0), (2, 1): worker(1, "1111", 0)}


def two_space_state(display: list[str], pile: list[str], players: int = 2) -> CacaoState:
    return make_state(players, workers=TWO_SPACES, display=display, pile=pile)


@pytest.mark.parametrize("owner", [0, 1])
def test_cacao_fill_is_mandatory_with_two_adjacent_worker_tiles_of_any_owner(owner: int) -> None:
    """A space next to the new tile and one more worker tile (own or another player's) must be filled
    before anything else: only fill actions are legal."""
    s = make_state(workers={(2, 1): worker(owner, "1111", 0)}, display=["gold1", "temple"], pile=["sun"])
    play(s, "2101r0@1,0")
    assert s.phase == "fill" and s.current_player == 0
    assert legal_strings(s) == {"fill gold1@2,0", "fill temple@2,0"}
    assert_illegal(s, "auto")
    assert_illegal(s, "1111r0@-1,0")
    assert "must be filled" in assert_illegal(s, "fill gold1@1,-1")
    assert "display holds" in assert_illegal(s, "fill water@2,0")
    play(s, "fill temple@2,0")
    assert s.jungle[(2, 0)] == "temple"
    assert s.display == ["gold1"]


def test_cacao_one_adjacent_worker_tile_does_not_trigger() -> None:
    """A space with only the new tile next to it stays empty; the display is untouched."""
    s = make_state(display=["gold1", "temple"], pile=["sun"])
    play(s, "1111r0@1,0")
    assert (1, -1) not in s.jungle and (2, 0) not in s.jungle
    assert s.phase != "fill"


def test_cacao_diagonal_worker_tiles_do_not_count_for_filling() -> None:
    """Worker tiles diagonal to a space do not count: only its 4 orthogonal neighbours do."""
    jungle = {(0, 0): "plantation1", (1, 1): "market2", (3, 2): "water"}
    s = make_state(workers={(3, 1): worker(1, "1111", 0)}, jungle=jungle, display=["gold1", "sun"])
    play(s, "1111r0@1,0")  # 2,0 now touches 1,0 orthogonally and 3,1 only diagonally
    assert (2, 0) not in s.jungle
    assert s.display == ["gold1", "sun"]


def test_cacao_several_spaces_at_once_player_chooses_assignment() -> None:
    """Two triggered spaces: the player chooses which display tile goes where (4 choices); the last
    one with a single option is automatic."""
    s = two_space_state(["gold2", "water"], ["temple", "sun"])
    play(s, "1111r0@1,0")
    assert legal_strings(s) == {"fill gold2@1,-1", "fill gold2@2,0", "fill water@1,-1", "fill water@2,0"}
    play(s, "fill gold2@2,0")
    assert s.jungle[(2, 0)] == "gold2" and s.jungle[(1, -1)] == "water"
    assert s.phase == "activate"


def test_cacao_display_not_refilled_mid_turn() -> None:
    """Tiles taken from the display are only replaced at the end of the turn, after all activations."""
    s = two_space_state(["gold2", "water"], ["temple", "sun"])
    play(s, "1111r0@1,0", "fill water@1,-1")
    assert s.phase == "activate"
    assert s.display == [] and s.pile == ["temple", "sun"]
    while s.phase == "activate":
        assert s.display == []
        play(s, "auto")
    assert s.turn == 1
    assert sorted(s.display) == ["sun", "temple"] and s.pile == []


def test_cacao_display_refill_stops_when_pile_is_short() -> None:
    """At the end of the turn the display is refilled as far as the pile allows."""
    s = two_space_state(["gold2", "water"], ["temple"])
    play(s, "1111r0@1,0", "fill water@1,-1")
    while s.phase == "activate":
        play(s, "auto")
    assert s.display == ["temple"] and s.pile == []


def three_space_state(display: list[str], pile: list[str]) -> CacaoState:
    """New tile at 2,1 (next to the start market) triggers 2,0 (N), 3,1 (E) and 2,2 (S)."""
    jungle = {(0, 0): "plantation1", (1, 1): "market2", (4, 0): "temple"}
    workers = {(1, 0): worker(1, "1111", 0), (3, 0): worker(1, "1111", 0), (1, 2): worker(1, "1111", 0)}
    return make_state(jungle=jungle, workers=workers, display=display, pile=pile)


def test_cacao_more_than_two_spaces_display_first_then_blind_pile() -> None:
    """Three spaces: both display tiles are placed by choice first, the remaining space gets the top
    of the pile blind; the display stays empty until the end of the turn."""
    s = three_space_state(["gold1", "gold2"], ["plantation2", "water", "sun"])
    play(s, "1111r0@2,1")
    assert s.to_fill == [(2, 0), (3, 1), (2, 2)]
    assert len(s.legal_actions()) == 6
    play(s, "fill gold2@2,2")
    assert legal_strings(s) == {"fill gold1@2,0", "fill gold1@3,1"}
    play(s, "fill gold1@3,1")
    assert s.jungle[(2, 0)] == "sun"  # blind, the top of the pile
    assert s.display == [] and s.pile == ["plantation2", "water"]
    while s.phase != "place":
        play(s, "auto")
    assert s.display == ["water", "plantation2"] and s.pile == []


def test_cacao_blind_tiles_go_in_n_e_s_w_order() -> None:
    """With one display tile for three spaces, the two blind tiles go N first, then E/S, W."""
    s = three_space_state(["gold1"], ["water", "sun"])
    play(s, "1111r0@2,1")
    assert legal_strings(s) == {"fill gold1@2,0", "fill gold1@3,1", "fill gold1@2,2"}
    play(s, "fill gold1@3,1")
    assert s.jungle[(2, 0)] == "sun" and s.jungle[(2, 2)] == "water"


def test_cacao_display_empty_pile_fills_all_blind() -> None:
    """An empty display with a pile: every triggered space is filled blind, no fill decision."""
    s = three_space_state([], ["market3", "water", "sun"])
    play(s, "1111r0@2,1")
    assert (s.jungle[(2, 0)], s.jungle[(3, 1)], s.jungle[(2, 2)]) == ("sun", "water", "market3")
    assert s.phase != "fill"


def test_cacao_one_display_tile_two_spaces_empty_pile_player_chooses() -> None:
    """Pile empty, display 1 tile, 2 spaces: the player chooses the space; the other stays empty and the
    worker facing it is not activated."""
    s = two_space_state(["gold2"], [])
    play(s, "1111r0@1,0")
    assert legal_strings(s) == {"fill gold2@1,-1", "fill gold2@2,0"}
    play(s, "fill gold2@2,0")
    assert (1, -1) not in s.jungle
    assert pending(s, 1) == {(2, 1, "N", 1, "gold2")}
    assert (0, -1, 1, 1) not in s.activated  # the E edge of the tile at 0,-1 faces the empty space


def test_cacao_no_fill_when_display_and_pile_are_empty() -> None:
    """Nothing to fill with: the spaces stay empty and the turn goes straight on to activations."""
    s = two_space_state([], [])
    play(s, "1111r0@1,0")
    assert s.phase == "activate"
    assert (1, -1) not in s.jungle and (2, 0) not in s.jungle
    assert 1 not in s.pending


def test_cacao_forced_single_fill_is_automatic() -> None:
    """One space and two identical display tiles: one outcome, taken without asking."""
    s = make_state(workers={(2, 1): worker(1, "1111", 0)}, display=["temple", "temple"], pile=["sun"])
    play(s, "1111r0@1,0")
    assert s.jungle[(2, 0)] == "temple"
    assert s.display == ["temple"]
    assert s.phase != "fill"


def test_cacao_only_spaces_next_to_new_tile_trigger() -> None:
    """A space far from the new tile is not looked at, even if it has 2 neighbours (left over from an
    exhausted supply)."""
    workers = {(3, 0): worker(1, "1111", 0), (2, -1): worker(1, "1111", 0), (2, 1): facing(1, 1, 3)}
    jungle = {(0, 0): "plantation1", (1, 1): "market2", (4, 0): "temple", (2, -2): "sun"}
    s = make_state(jungle=jungle, workers=workers, display=["gold1", "water"])
    play(s, "1111r0@-1,0")
    assert (2, 0) not in s.jungle
    assert s.display == ["gold1", "water"]


def test_cacao_identical_display_tiles_fill_every_space_without_asking() -> None:
    """Two identical display tiles for two triggered spaces: every assignment gives the same board, so
    no decision is asked (docs/rules/cacao.md: a decision with one possible outcome is automatic)."""
    s = two_space_state(display=["water", "water"], pile=["sun"])
    play(s, "2101r0@1,0")
    assert s.phase != "fill"
    assert s.jungle[(1, -1)] == "water" and s.jungle[(2, 0)] == "water"
    assert s.phase == "activate" and s.display == []  # refilled only at the end of the turn
