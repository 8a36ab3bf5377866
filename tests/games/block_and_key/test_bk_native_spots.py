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
from boardlab.games.block_and_key.rules import BlockAndKeyState
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
