"""The C helper of the placement rules (games/block_and_key/_spots.c, built by `make native`) against the Python
reference (`geometry.boards` and each shape's `plan_source` function): the same boards and, for every shape, the
same spot masks and count, in every temple of random games at every table size and both face-contact readings.

The helper is loaded only with a current native build; without one (or with `BOARDLAB_PURE=1`) these tests are
skipped, and the Python reference is what plays (tests/test_compiled.py pins which of the two is in use)."""

from __future__ import annotations

import random

import pytest
from bk_helpers import new
from hypothesis import given, settings
from hypothesis import strategies as st

from boardlab.games.block_and_key import geometry as G
from boardlab.games.block_and_key.rules import BlockAndKeyState, _shows_key
from depth import examples

pytestmark = pytest.mark.skipif(G.NATIVE is None, reason="no current native build (the Python reference plays)")


def check_temple(s: BlockAndKeyState) -> None:
    """Every shape's masks from the helper equal the Python plan's on this temple, from fresh boards."""
    f = s._fixed
    assert f.native is G.NATIVE
    high = s.high if s.columns else None
    boards = G.boards(s.occ, s.near, s.rise, high, s.W, s.D, f.kinds)
    packed = G.NATIVE[0](s.occ, s.near, s.rise, high, G.floor_layer(s.W, s.D), f.kinds)
    assert packed == G.compact(boards)
    for shape, (bounds, candidates) in enumerate(f.plans):
        want = candidates(boards, bounds)
        got, count = G.NATIVE[1](*f.programs[shape], packed)
        assert got == want, (shape, s.placed)
        assert count == sum(m.bit_count() for m in want)
        assert s.spot_masks(shape) == want and s.spot_count(shape) == count  # the state's memo too


@settings(max_examples=examples(12))
@given(players=st.integers(1, 4), seed=st.integers(0, 10**6), face_contact=st.sampled_from(["block", "stack"]))
def test_the_helper_gives_the_python_masks_in_random_games(players: int, seed: int, face_contact: str) -> None:
    rng = random.Random(seed)
    s = new(players, seed, face_contact=face_contact)
    seen = 0
    while not s.is_over:
        if len(s.placed) != seen:  # a new temple
            seen = len(s.placed)
            check_temple(s)
        s.apply(s.random_action(rng.randrange))
    check_temple(s)


def check_keys(s: BlockAndKeyState) -> int:
    """The helper's key test (`keys_shown`, one call for many keys) gives `_shows_key`'s answer for every key card
    of the block of that colour, for the block placed last, in every seat's views; how many keys showed."""
    f = s._fixed
    b = s.placed[-1][0]
    colour = f.colour[b]
    newm = s.new_mask(b)
    shown = 0
    for seat in range(s.num_players):
        views = s.allowed_views(seat)
        cand = [k for k, (_, colours) in enumerate(f.keys) if colour in colours]
        for start in range(0, len(cand), 64):  # at most 64 programs a call
            part = cand[start:start + 64]
            got = G.NATIVE[2]([G.key_program(f.keys[k][0], colour, views) for k in part], newm, s.planes)
            want = sum(1 << i for i, k in enumerate(part)
                       if _shows_key(f.keys[k][0], len(views) == 5, views, newm, s.planes, colour))
            assert got == want, (seat, views, s.placed)
            shown += want.bit_count()
    return shown


@settings(max_examples=examples(8))
@given(players=st.integers(1, 4), seed=st.integers(0, 10**6), key_views=st.sampled_from(["any", "own-side"]))
def test_the_helper_matches_keys_as_python_does(players: int, seed: int, key_views: str) -> None:
    rng = random.Random(seed)
    s = new(players, seed, key_views=key_views)
    seen = shown = 0
    while not s.is_over:
        if len(s.placed) != seen:
            seen = len(s.placed)
            if s.placed[-1][0] != s.core:
                shown += check_keys(s)
        s.apply(s.random_action(rng.randrange))
    assert shown  # some key of the deck shows in every random game's temples (else the test checks nothing)


def test_malformed_programs_and_boards_raise() -> None:
    s = new(2, 3)
    f = s._fixed
    packed = G.NATIVE[0](s.occ, s.near, s.rise, None, G.floor_layer(s.W, s.D), f.kinds)
    program, bounds = f.programs[3]
    for bad in (program[:-4], program[:12], b"\xff\xff\xff\xff", program[:4] + b"\x63" * 8 + program[12:]):
        with pytest.raises(ValueError):
            G.NATIVE[1](bad, bounds, packed)
    with pytest.raises(ValueError):
        G.NATIVE[1](program, bounds, packed[:48])  # boards fewer than the plan's kinds
    with pytest.raises(OverflowError):
        G.NATIVE[0](1 << 900, s.near, s.rise, None, 0, f.kinds)
    with pytest.raises(OverflowError):
        G.NATIVE[0](-1, s.near, s.rise, None, 0, f.kinds)
    with pytest.raises(TypeError):
        G.NATIVE[0](s.occ, s.near, tuple(s.rise), None, 0, f.kinds)
    key = G.key_program(f.keys[0][0], 1, (0, 1, 2, 3, 4))
    for bad_key in (key[:-8], key[:8], (1).to_bytes(8, "little") + key[8:8 * 14] + (99).to_bytes(8, "little")):
        with pytest.raises(ValueError):
            G.NATIVE[2]([bad_key], 1, s.planes)
    with pytest.raises(TypeError):
        G.NATIVE[2]((key,), 1, s.planes)
