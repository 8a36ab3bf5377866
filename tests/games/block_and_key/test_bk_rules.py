"""The rules of Block and Key, one test per rule or rule example of the two sources (seed = default, English
rules = options), on hand-built positions. Geometry of the 2-player floor: 8 x 8, the core cube on x 4-5,
y 2-3, z 0-1; seat 0 sits at the south side, seat 1 at the east side."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from bk_helpers import (
    COMP,
    at_first_turn,
    bid,
    brute_legal,
    brute_placements,
    check_invariants,
    cube,
    give,
    key_file,
    new,
    set_hand,
)

from boardlab.core.errors import IllegalActionError
from boardlab.games.block_and_key.actions import DIG, DRAW, KEEP, STOP, BlockAct, KeyAct, Place
from boardlab.games.block_and_key.geometry import orientations
from boardlab.games.block_and_key.rules import SOLO_TURNS, BlockAndKeyState

X_KEYS = [
    {"id": "X1", "deck": "sun", "pattern": ["RW"], "points": 3, "stars": 1, "pips": 1, "provenance": "reconstructed"},
    {"id": "X2", "deck": "sun", "pattern": ["R.", "RW"], "points": 3, "stars": 1, "pips": 1,
     "provenance": "reconstructed"},
    {"id": "X3", "deck": "sun", "pattern": [".R", "WR"], "points": 3, "stars": 1, "pips": 1,
     "provenance": "reconstructed"},
    {"id": "X4", "deck": "sun", "pattern": ["R.R"], "points": 3, "stars": 1, "pips": 1, "provenance": "reconstructed"},
    {"id": "X6", "deck": "moon", "pattern": ["W", "W"], "points": 5, "stars": 2, "pips": 2,
     "provenance": "reconstructed"},
]


def orient(shape: str, cubes: list[tuple[int, int, int]]) -> int:
    oris = orientations(COMP.shape_cells[COMP.shapes.index(shape)])
    return next(i for i, o in enumerate(oris) if sorted(o.cubes) == sorted(cubes))


FLAT_X = [(0, 0, 0), (1, 0, 0)]
UP2 = [(0, 0, 0), (0, 0, 1)]
UP3 = [(0, 0, 0), (0, 0, 1), (0, 0, 2)]
UP4 = [(0, 0, 0), (0, 0, 1), (0, 0, 2), (0, 0, 3)]
I3_X = [(0, 0, 0), (1, 0, 0), (2, 0, 0)]
I4_X = [(0, 0, 0), (1, 0, 0), (2, 0, 0), (3, 0, 0)]


def place(block: str, shape_cubes: list[tuple[int, int, int]], x: int, y: int, z: int) -> Place:
    shape = block[1:]
    return Place("place", block, orient(shape, shape_cubes), x, y, z)


def legal(s: BlockAndKeyState, a: Place) -> bool:
    ok = a in s.legal_actions()
    ori = orientations(COMP.shape_cells[COMP.block_shape(bid(a.block))])[a.orient]
    assert ok == brute_legal(s, bid(a.block), [(a.x + dx, a.y + dy, a.z + dz) for dx, dy, dz in ori.cubes])
    return ok


@pytest.fixture
def s() -> BlockAndKeyState:
    st = at_first_turn(2, seed=0)
    give(st, 0, "R1", "R2", "RI3", "RI4", "W1", "W2", "WI3")
    return st


# -- placement rules -------------------------------------------------------------------------------------
def test_face_contact_needs_the_new_block_to_rise_above_the_core(s: BlockAndKeyState) -> None:
    """Seed rule 2 / figure 2: touching the core face to face, a block must end higher than the core."""
    low = place("R2", UP2, 3, 2, 0)  # as high as the core (2 cubes): not higher
    assert not legal(s, low)
    assert "higher than that block" in s.why_illegal(low)
    assert legal(s, place("RI3", UP3, 3, 2, 0))  # 3 high: rises above the 2-high core


UP_L4 = [(0, 0, 0), (0, 0, 1), (0, 0, 2), (1, 0, 0)]  # a standing L: the upright at x, the foot at x + 1
STANDING_S4 = [(1, 0, 0), (1, 0, 1), (0, 0, 1), (0, 0, 2)]


def standing_l(s: BlockAndKeyState, x: int, y: int, block: str = "GL4") -> None:
    for dx, dy, dz in UP_L4:
        cube(s, x + dx, y + dy, dz, block)


def test_face_contact_per_touched_block_not_column(s: BlockAndKeyState) -> None:
    """Seed rule 2, 「新方塊的其中一部分必須比該方塊還高」: beside the foot of a standing L (its column 1 high, the
    L itself 3 high), a 2-high block is refused (the old column reading offered it) and a 4-high one is fine."""
    standing_l(s, 1, 5)  # upright (1,5) levels 1-3, foot (2,5) level 1
    assert not legal(s, place("R2", UP2, 3, 5, 0))  # touches the foot: must rise above the whole L
    assert "higher than that block" in s.why_illegal(place("R2", UP2, 3, 5, 0))
    assert not legal(s, place("RI3", UP3, 3, 5, 0))  # as high as the L: not higher
    assert legal(s, place("RI4", UP4, 3, 5, 0))


def test_face_contact_per_touched_block_ignores_blocks_it_does_not_touch(s: BlockAndKeyState) -> None:
    """A block touching only the core (2 high) need not rise above a block standing on the core elsewhere in
    the column it touches: it touches the core, not that block (the old column reading refused it)."""
    cube(s, 4, 2, 2, "G1")  # on the core, above the cell (4,2,1) the new block touches
    cube(s, 2, 2, 0, "B1")  # a support for the new block's upper column
    give(s, 0, "RS4")
    assert legal(s, place("RS4", STANDING_S4, 2, 2, 0))  # touches core (4,2,0), (4,2,1) and B1; its top is level 3


def test_face_contact_resting_on_a_block_counts(s: BlockAndKeyState) -> None:
    """Resting on a block is a face-to-face contact too (「面碰面」): on the foot of a standing L the new block
    must still rise above the L; on the L's top it always does."""
    for dx, dy, dz in [(0, 0, 0), (1, 0, 0), (2, 0, 0), (2, 0, 1)]:  # an L lying on its side: x 1-3, up at x 3
        cube(s, 1 + dx, 5 + dy, dz, "GL4")
    assert not legal(s, place("R1", [(0, 0, 0)], 1, 5, 1))  # on its far end, level 2: the L reaches level 2
    assert legal(s, place("R1", [(0, 0, 0)], 3, 5, 2))  # on its top: level 3


@pytest.mark.parametrize("case", ["foot", "core"])
def test_face_contact_stack_option_is_the_stricter_reading(case: str) -> None:
    """face_contact="stack" (English rules: 「taller than the highest face of every stack it touches」) refuses
    what the seed refuses and also a block no higher than a column it touches."""
    st = at_first_turn(2, seed=0, face_contact="stack")
    give(st, 0, "R2", "RI3", "RI4", "RS4")
    if case == "foot":
        standing_l(st, 1, 5)
        assert not legal(st, place("R2", UP2, 3, 5, 0))
        assert legal(st, place("RI4", UP4, 3, 5, 0))
    else:
        cube(st, 4, 2, 2, "G1")
        cube(st, 2, 2, 0, "B1")
        refused = place("RS4", STANDING_S4, 2, 2, 0)
        assert not legal(st, refused)
        assert "whole stack" in st.why_illegal(refused)


def test_flat_block_beside_the_core_is_refused(s: BlockAndKeyState) -> None:
    assert not legal(s, place("R2", FLAT_X, 2, 2, 0))


def test_corner_contact_is_enough(s: BlockAndKeyState) -> None:
    """Seed rule 1 / figure 1: touching only along an edge or a corner, any height will do."""
    assert legal(s, place("R2", FLAT_X, 2, 1, 0))  # (3,1) meets the core's (4,2) at an edge only
    assert legal(s, place("R1", [(0, 0, 0)], 6, 4, 0))  # diagonal to (5,3)


def test_a_block_must_touch_something(s: BlockAndKeyState) -> None:
    far = place("R1", [(0, 0, 0)], 0, 7, 0)
    assert not legal(s, far)
    assert "corner to corner" in s.why_illegal(far)


def test_a_block_may_rest_on_other_blocks(s: BlockAndKeyState) -> None:
    """Seed rule 3: blocks need not touch the floor."""
    assert legal(s, place("R1", [(0, 0, 0)], 4, 2, 2))
    assert legal(s, place("R2", FLAT_X, 4, 3, 2))


def test_no_overhang(s: BlockAndKeyState) -> None:
    """English rules: no ledges; a block sticking out beyond its support is refused."""
    hang = place("R2", FLAT_X, 5, 2, 2)
    assert not legal(s, hang)
    assert "bridge" in s.why_illegal(hang)
    assert not legal(s, place("RI3", I3_X, 4, 2, 2))


def test_straight_bridge_supported_at_both_ends(s: BlockAndKeyState) -> None:
    """Seed rule 3 / figure 3: a bridge in the air is fine when both ends rest on blocks."""
    cube(s, 1, 5, 0, "G1")
    cube(s, 3, 5, 0, "GO4")
    cube(s, 3, 4, 0, "GO4")  # joins the pillars to the core area (corner contact chain is not needed)
    assert legal(s, place("RI3", I3_X, 1, 5, 1))  # ends on (1,5) and (3,5), the middle over nothing
    assert not legal(s, place("RI4", I4_X, 1, 5, 1))  # the fourth cube (4,5,1) overhangs


def test_height_at_most_six(s: BlockAndKeyState) -> None:
    """Seed rule 4: stacks of at most 6."""
    assert legal(s, place("RI4", UP4, 4, 2, 2))  # levels 3-6
    cube(s, 5, 3, 2, "G1")
    high = place("RI4", UP4, 5, 3, 3)  # would reach level 7
    assert high not in s.legal_actions()
    assert "at most 6" in s.why_illegal(high)


def test_inside_the_temple_floor(s: BlockAndKeyState) -> None:
    out = place("RI4", I4_X, 6, 1, 0)
    assert out not in s.legal_actions()
    assert "temple floor" in s.why_illegal(out)


def test_illegal_placement_changes_nothing(s: BlockAndKeyState) -> None:
    before = s.snapshot()
    with pytest.raises(IllegalActionError, match="higher than that block"):
        s.apply(place("R2", UP2, 3, 2, 0))
    assert s.snapshot() == before


# -- keys ---------------------------------------------------------------------------------------------------
@pytest.fixture
def ks(tmp_path: Path) -> BlockAndKeyState:
    st = at_first_turn(2, seed=0, components=key_file(tmp_path, X_KEYS))
    give(st, 0, "W1", "W2", "WI3", "R1", "R2")
    return st


def kidx(s: BlockAndKeyState, key: str) -> int:
    return [k.id for k in s.comp.keys].index(key)


def test_patterns_turn_but_never_mirror(tmp_path: Path) -> None:
    """Seed claiming rule 4 / figure 3: a key may be turned but not mirrored."""
    st = at_first_turn(2, seed=0, components=key_file(tmp_path, X_KEYS), key_views="own-side")
    cube(st, 0, 0, 0, "R2")
    cube(st, 0, 0, 1, "R2")
    cube(st, 1, 0, 0, "W1")  # seen from the south: R above R, W right of the lower R
    assert st.key_match(kidx(st, "X2"), 0, None) is not None
    assert st.key_match(kidx(st, "X3"), 0, None) is None  # the mirror image
    turned = at_first_turn(2, seed=0, components=key_file(tmp_path, X_KEYS), key_views="own-side")
    cube(turned, 0, 0, 0, "R2")
    cube(turned, 1, 0, 0, "R2")
    cube(turned, 1, 0, 1, "W1")  # X2 turned a quarter: R R below, W above the right one
    assert turned.key_match(kidx(turned, "X2"), 0, None) is not None
    assert turned.key_match(kidx(turned, "X3"), 0, None) is None


def test_blank_cells_match_empty_or_any_colour(tmp_path: Path) -> None:
    """Seed claiming rule 3 / figure 2."""
    st = at_first_turn(2, seed=0, components=key_file(tmp_path, X_KEYS), key_views="own-side")
    cube(st, 0, 0, 0, "R1")
    cube(st, 2, 0, 0, "R2")
    assert st.key_match(kidx(st, "X4"), 0, None) is not None  # the gap is empty
    cube(st, 1, 0, 0, "G1")
    assert st.key_match(kidx(st, "X4"), 0, None) is not None  # the gap is grey


def test_claim_needs_the_new_block(ks: BlockAndKeyState) -> None:
    """Dized: a key already complete before your turn cannot be claimed; seed rule 1: the new block counts."""
    cube(ks, 0, 0, 0, "R1")
    cube(ks, 1, 0, 0, "WO4")  # "RW" is already there before the turn
    give(ks, 0, "G1")
    set_hand(ks, 0, "X1", "S01", "U01", "M12")  # RW, BB, RRR, a 6-cell Moon key
    assert ks.key_match(kidx(ks, "X1"), 0, None) is not None
    ks.apply(place("G1", [(0, 0, 0)], 4, 2, 2))  # elsewhere, on the core
    assert ks.claimed[0] == []
    assert ks.actor == 1  # no key, a full hand: the turn passes


def test_claim_with_the_new_block_and_several_at_once(ks: BlockAndKeyState) -> None:
    """Seed rules 1-2 / figure 1: one block may complete several keys; they are all claimed."""
    cube(ks, 0, 0, 0, "R1")
    cube(ks, 2, 0, 0, "RI4")
    set_hand(ks, 0, "X1", "X6", "X4", "S01")
    ks.apply(place("W2", UP2, 1, 0, 0))  # S view: R W R at the bottom, W above the middle
    got = sorted(ks.comp.keys[k].id for k in ks.claimed[0])
    # X4 (R.R) is visible too, but the new block shows only on its blank cell: no contribution
    assert got == ["X1", "X6"]
    assert ks.phase == "draw" and ks.actor == 0
    assert ks.view(1)["seats"][0]["claimed"][0]["id"] in ("X1", "X6")  # claimed keys are shown


@pytest.mark.parametrize(("views", "claims"), [("any", True), ("own-side", False)])
def test_key_views_option(tmp_path: Path, views: str, claims: bool) -> None:
    """Seed: any of the five views; English rules: only the claimer's own side (seat 1 sits east)."""
    st = at_first_turn(2, seed=0, components=key_file(tmp_path, X_KEYS), key_views=views)
    cube(st, 0, 0, 0, "R1")
    st.actor = st.turn_seat = 1
    give(st, 1, "W2")
    set_hand(st, 1, "X1", "S01", "S02", "U01")
    st.apply(place("W2", UP2, 1, 0, 0))  # RW from the south and from above; from the east only W W
    assert (kidx(st, "X1") in st.claimed[1]) is claims


def test_key_refill_choosing_sun_or_moon(ks: BlockAndKeyState) -> None:
    cube(ks, 0, 0, 0, "R1")
    set_hand(ks, 0, "X1", "S01", "M09", "M12")
    ks.apply(place("W2", UP2, 1, 0, 0))
    assert ks.legal_actions() == [DRAW[0], DRAW[1]]
    moon_top = ks.decks[1][-1]
    ks.apply(DRAW[1])
    assert moon_top in ks.hands[0] and len(ks.hands[0]) == 4
    assert ks.actor == 1 and ks.phase == "turn"


def test_refill_from_the_only_altar_left(ks: BlockAndKeyState) -> None:
    cube(ks, 0, 0, 0, "R1")
    set_hand(ks, 0, "X1", "S01", "S02", "U01")
    ks.decks[0][:] = []
    ks.apply(place("W2", UP2, 1, 0, 0))  # the single choice (Moon) is taken at once
    assert len(ks.hands[0]) == 4 and ks.actor == 1


# -- setup and the draft ---------------------------------------------------------------------------------
@pytest.mark.parametrize("players", [1, 2, 3, 4])
def test_setup(players: int) -> None:
    st = new(players, seed=3)
    assert st.phase == "orient" and st.actor == 0
    assert all(b >= 0 for b in st.site) and len(st.bag) == 40 - 9
    for q in range(players):
        decks = sorted(st.comp.keys[k].deck for k in st.hands[q])
        assert decks == ["moon", "star", "star", "sun"]
    assert len(set(st.enigma)) == players
    cx, cy = st.floor.core
    assert st.heights[cx + 8 * cy] == 2
    check_invariants(st)


def test_orienting_the_core_turns_its_side_colours() -> None:
    st = new(2, seed=1)
    st2 = st.clone()
    st.apply(st.legal_actions()[0])
    st2.apply(st2.legal_actions()[1])
    assert st.view_rows(1) != st2.view_rows(1)
    assert st.view_rows(0) == st2.view_rows(0)  # the gold top is the same


def test_draft_runs_counter_clockwise_from_the_start_players_right() -> None:
    st = new(3, seed=2)
    st.apply(st.legal_actions()[0])
    order = []
    while st.phase == "draft":
        order.append(st.actor)
        st.apply(DIG[0])
    assert order == [2, 1, 0]
    assert st.phase == "turn" and st.actor == 0
    assert [len(h) for h in st.supply] == [3, 3, 3]


def test_excavation_refills_in_site_order() -> None:
    st = at_first_turn(2, seed=5)
    twin = st.clone()
    st.apply(DIG[3])  # column 1: sites 1, 4, 7
    drawn = [twin.bag.pop(twin.rng.randbelow(len(twin.bag))) for _ in range(3)]
    assert [st.site[0], st.site[3], st.site[6]] == drawn


def test_hand_limit_seven_player_chooses_returns() -> None:
    st = at_first_turn(2, seed=5)
    give(st, 0, *[COMP.block_ids[b] for b in st.bag[:3]])  # 3 drafted + 3 = 6
    st.apply(DIG[0])  # 9 blocks: return 2
    assert st.phase == "return" and st.actor == 0
    held = sorted(st.supply[0])
    assert st.legal_actions() == [BlockAct("return", COMP.block_ids[b]) for b in held]
    bag = len(st.bag)
    first, second = (COMP.block_ids[b] for b in held[:2])
    st.apply(BlockAct("return", first))
    assert st.phase == "return" and bid(first) in st.bag and len(st.bag) == bag + 1
    st.apply(BlockAct("return", second))
    assert len(st.supply[0]) == 7 and st.actor == 1


def test_empty_bag_gives_fewer_blocks() -> None:
    st = at_first_turn(2, seed=5)
    moved = st.bag[:]
    st.bag.clear()
    st.supply[1] += moved[:0]
    st.placed += [(b, 0, 0, 0, 0, 1) for b in moved]  # bookkeeping only: pretend they were placed
    st.site[0] = -1
    st.apply(DIG[0])
    assert len(st.supply[0]) == 3 + 2
    assert st.site[:3] == [-1, -1, -1]
    st.actor = st.turn_seat = 0
    st._legal = st._cache = None
    assert DIG[0] not in st.legal_actions()


# -- the end -----------------------------------------------------------------------------------------------
def _claimed(st: BlockAndKeyState, q: int, n: int) -> None:
    pool = [k for k in st.decks[0] if st.comp.keys[k].id.startswith("U")][:n]
    for k in pool:
        st.decks[0].remove(k)
    st.claimed[q] += pool


def test_end_after_twelve_keys_everyone_one_last_turn(ks: BlockAndKeyState) -> None:
    _claimed(ks, 0, 11)
    cube(ks, 0, 0, 0, "R1")
    set_hand(ks, 0, "X1", "S01", "M09", "M12")
    ks.apply(place("W2", UP2, 1, 0, 0))  # the 12th key: the player is asked (D6)
    ks.apply(KeyAct("claim", "X1"))
    ks.apply(STOP)
    ks.apply(DRAW[0])
    assert ks.final and ks.actor == 1
    ks.apply(ks.legal_actions()[0])  # seat 1's last turn
    while ks.actor == 1:
        ks.apply(ks.legal_actions()[0])
    assert ks.actor == 0 and not ks.is_over  # the trigger also has one last turn (docs D7)
    while ks.actor == 0:
        ks.apply(ks.legal_actions()[0])
    assert ks.is_over


@pytest.mark.parametrize(("players", "threshold"), [(2, 12), (3, 8), (4, 7)])
def test_thresholds(players: int, threshold: int) -> None:
    st = at_first_turn(players, seed=1)
    assert st.view(0)["threshold"] == threshold


@pytest.mark.parametrize(("rounding", "bonus"), [("up", 2), ("down", 1)])
def test_enigma_bonus_rounding(rounding: str, bonus: int) -> None:
    """Seed: faces / 3 rounded up (無條件進位); English rules: rounded down."""
    st = at_first_turn(2, seed=0, enigma_rounding=rounding)
    st.enigma[0] = COMP.enigmas.index(COMP.colours.index("W"))
    assert st.enigma_faces(0) == 4  # the core's white side, 2 x 2, faces the south seat
    assert st.scores()[0].breakdown["enigma"] == bonus


def test_tie_breaks_keys_then_blocks_then_turn_order() -> None:
    st = at_first_turn(2, seed=0)
    for q in (0, 1):
        st.enigma[q] = COMP.enigmas.index(COMP.colours.index("R"))  # no red faces anywhere: no bonus
    a, b = [k for k in st.decks[0] if st.comp.keys[k].points == 3][:2]  # two Sun keys worth 3
    st.decks[0].remove(a)
    st.decks[0].remove(b)
    st.claimed[0], st.claimed[1] = [a], [b]
    assert st.scores()[0].total == st.scores()[1].total
    st.supply[0], st.supply[1] = [1, 2], [3]
    assert st.winners() == [0]  # same keys, more blocks left
    st.supply[0], st.supply[1] = [1], [2]
    assert st.winners() == [0]  # all equal: earlier in turn order
    st.supply[1] = [2, 3, 4]
    assert st.winners() == [1]


# -- solo ----------------------------------------------------------------------------------------------------
def test_solo_no_key_means_a_face_down_marker_then_optional_discard() -> None:
    st = at_first_turn(1, seed=4)
    st.apply(DIG[0])
    while st.phase == "return":
        st.apply(st.legal_actions()[0])
    assert st.phase == "marker"
    st.apply(st.legal_actions()[0])
    assert len(st.markers) == 1
    assert st.phase == "discard" and st.legal_actions()[0] == KEEP
    assert all(isinstance(a, KeyAct) for a in st.legal_actions()[1:])
    assert st.view(None)["markers"] == 1 and "under_altars" not in st.view(None)


def test_solo_discard_goes_under_the_altar_and_the_ancients_play() -> None:
    st = at_first_turn(1, seed=4)
    st.apply(DIG[0])
    while st.phase == "return":
        st.apply(st.legal_actions()[0])
    st.apply(st.legal_actions()[0])  # marker
    card = st.legal_actions()[1]
    assert isinstance(card, KeyAct)
    k = [x.id for x in st.comp.keys].index(card.key)
    deck = 0 if st.comp.keys[k].deck == "sun" else 1
    st.apply(card)
    assert st.decks[deck][0] == k and st.known_bottom[deck] == 1
    assert st.view(0)["under_altars"][deck] == [card.key]
    site_before = st.site[:]
    top = st.decks[0][-1]
    placed = len(st.placed)
    st.apply(DRAW[0])
    info = st.last_ancient
    assert info is not None and info["card"] == st.comp.keys[top].id
    pips, corner = st.comp.keys[top].pips, st.comp.keys[top].stars
    taken = site_before[pips - 1]
    if st.phase == "ancient":
        opts = st.legal_actions()
        assert all(isinstance(a, Place) and a.kind == "ancients" and a.block == COMP.block_ids[taken] for a in opts)
        assert opts == st.ancient_placements(taken, corner)
        st.apply(opts[-1])
    assert st.site[pips - 1] != taken  # the site was refilled (docs S3)
    if info.get("placed") is not None or len(st.placed) > placed:
        assert st.placed[-1][5] == -1 and st.placed[-1][0] == taken
    else:
        assert taken in st.bag
    assert st.solo_turn == 2 and st.phase == "turn"
    check_invariants(st)


def test_solo_lasts_eleven_turns() -> None:
    from bk_helpers import random_game

    st = random_game(1, seed=9)
    assert st.is_over and st.solo_turn == 11
    assert st.view(0)["rating"]["en"]


def test_ancients_block_may_go_on_any_legal_spot_touching_the_nearest_block() -> None:
    """SEED Ancients 3-4: nearness picks the block to touch; 「如果有多個可以擺放的位置,玩家可以任意選擇擺放位置」:
    every legal spot touching it is offered, not only the spots nearest the corner."""
    st = at_first_turn(1, seed=4)
    b = bid("WI3")
    for stars in (1, 2, 3, 4):  # only the core stands: it is the nearest block, and every legal spot touches it
        assert {(p.orient, p.x, p.y, p.z) for p in st.ancient_placements(b, stars)} == brute_placements(st, b)
    cube(st, 1, 1, 0, "G1")  # now the block nearest the front-left corner (stars 1)
    touching = {(o, x, y, z) for o, x, y, z in brute_placements(st, b)
                if any(abs(x + dx - 1) <= 1 and abs(y + dy - 1) <= 1 and z + dz <= 1
                       for dx, dy, dz in orientations(COMP.shape_cells[COMP.block_shape(b)])[o].cubes)}
    offered = {(p.orient, p.x, p.y, p.z) for p in st.ancient_placements(b, 1)}
    assert offered == touching and len({z for *_, z in offered}) > 1  # on the floor beside it and on top of it


def test_solo_turn_11_takes_its_face_down_card() -> None:
    """SEED solo 2-5: every turn without a claim takes a face-down card, the player may discard and refills;
    only the Ancients' step is skipped on turn 11."""
    st = at_first_turn(1, seed=9)
    rng = random.Random(9)
    while not (st.solo_turn == SOLO_TURNS and st.phase == "turn"):
        st.apply(rng.choice(st.legal_actions()))
    dig = next(a for a in st.legal_actions() if a in DIG)
    st.apply(dig)
    while st.phase == "return":
        st.apply(st.legal_actions()[0])
    markers, placed = len(st.markers), len(st.placed)
    assert st.phase == "marker"
    st.apply(st.legal_actions()[0])
    assert len(st.markers) == markers + 1
    assert st.phase == "discard"
    discard = st.legal_actions()[-1]
    assert isinstance(discard, KeyAct)
    st.apply(discard)
    assert st.phase == "draw"
    st.apply(st.legal_actions()[0])
    assert st.is_over and len(st.placed) == placed, "no Ancients' turn on turn 11"



def test_claim_asked_when_it_would_start_the_last_round(ks: BlockAndKeyState) -> None:
    """SEED 「即可完成該張鑰匙卡」: the player may claim; a claim that starts the last round (12 keys, 2 players)
    can be worse than waiting, so the player is asked, and may claim none."""
    _claimed(ks, 0, 11)
    cube(ks, 0, 0, 0, "R1")
    set_hand(ks, 0, "X1", "S01", "M09", "M12")
    ks.apply(place("W2", UP2, 1, 0, 0))  # completes X1: the 12th key
    assert ks.phase == "claim" and ks.actor == 0
    assert ks.legal_actions() == [KeyAct("claim", "X1"), STOP]
    assert ks.view(0)["seats"][0]["claimable"] == ["X1"] and "claimable" not in ks.view(1)["seats"][0]
    ks.apply(STOP)
    assert len(ks.claimed[0]) == 11 and kidx(ks, "X1") in ks.hands[0]
    assert not ks.final and ks.actor == 1  # a full hand: the turn passes, no last round


def test_claim_asked_whatever_matched_when_near_the_end(ks: BlockAndKeyState) -> None:
    """Near the end the question is asked after every placement, even when nothing matched (only `stop`): whether
    it is asked must not tell the others that the hand holds a completed key."""
    _claimed(ks, 0, 8)  # 8 claimed + 4 in hand could reach 12
    set_hand(ks, 0, "S01", "X6", "M09", "M12")  # BB, WW and two Moon keys: one red cube on the core shows none
    ks.apply(place("R1", [(0, 0, 0)], 4, 2, 2))
    assert ks.phase == "claim" and ks.legal_actions() == [STOP]
    ks.apply(STOP)
    assert ks.actor == 1


def test_claim_automatic_when_it_cannot_hurt(ks: BlockAndKeyState) -> None:
    """Far from the end (and in the last round) a claim only adds points: every completed key is claimed at once."""
    _claimed(ks, 0, 7)
    cube(ks, 0, 0, 0, "R1")
    set_hand(ks, 0, "X1", "S01", "M09", "M12")
    ks.apply(place("W2", UP2, 1, 0, 0))
    assert ks.phase == "draw" and kidx(ks, "X1") in ks.claimed[0]


def test_solo_claim_asked_since_it_brings_the_ancients(tmp_path: Path) -> None:
    """Solo: a claim brings a card and so the Ancients (SEED solo 5); declining takes a face-down card instead."""
    st = at_first_turn(1, seed=0, components=key_file(tmp_path, X_KEYS))
    give(st, 0, "W2")
    cube(st, 0, 0, 0, "R1")
    set_hand(st, 0, "X1", "S01", "M09", "M12")
    st.apply(place("W2", UP2, 1, 0, 0))  # seen from the south: R then W
    assert st.phase == "claim" and st.legal_actions() == [KeyAct("claim", "X1"), STOP]
    declined = st.clone()
    declined.apply(STOP)
    assert declined.phase == "marker" and declined.claimed[0] == []
    st.apply(KeyAct("claim", "X1"))
    assert st.phase == "discard" and [st.comp.keys[k].id for k in st.claimed[0]] == ["X1"]


def test_the_module_level_memos_are_bounded() -> None:
    """Temples and search results are memoised per process; each memo drops everything when full, so a long
    simulation or search holds at most a fixed number of entries (issue #36: memory grew). Placements' cells are
    no longer memoised at all (search's claim test reads them from the orientation's template)."""
    from boardlab.games.block_and_key import rules

    cache: dict[int, int] = {}
    for i in range(10):
        assert rules.bounded_put(cache, i, i * i, 4) == i * i
        assert len(cache) <= 4 and cache[i] == i * i
    s = at_first_turn(2, seed=3)
    rng = random.Random(3)
    while not s.is_over:
        legal = s.search_moves() if s.phase == "turn" else s.legal_actions()
        s.apply(legal[rng.randrange(len(legal))])
    assert 0 < len(rules._SPOTS) <= rules.TEMPLES <= 10_000
    assert not hasattr(s._fixed, "cubes") and not hasattr(rules, "CUBES_SIZE")
    assert 0 < len(rules._MEMO) <= rules.MEMO_SIZE <= 50_000
