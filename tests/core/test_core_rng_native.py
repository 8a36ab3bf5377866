"""The C draws of the narrow generator (core/_splitmix.c, built by `make native`) against the Python
reference methods (`rng.PURE_METHODS`): the same numbers, the same state after, the same errors.

In pure mode (`BOARDLAB_PURE=1`, or no build) `Rng`'s methods *are* the reference, so the comparisons still
run (and pass trivially); tests/test_compiled.py pins which of the two is installed."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from boardlab.core.rng import PURE_METHODS, Rng

SIZES = [1, 2, 3, 7, 52, 1000, 2**32 + 3, 2**63 + 1, 2**64 - 1, 2**64]


def pure(name: str) -> Callable[..., Any]:
    return PURE_METHODS[name]


@pytest.mark.parametrize("seed", [0, 1, 12345, 2**63 + 5, 2**64 - 1])
def test_every_draw_matches_the_python_reference(seed: int) -> None:
    a, b = Rng(seed), Rng(seed)
    for k in range(3000):
        op = k % 5
        if op == 0:
            assert a.next64() == pure("next64")(b)
        elif op == 1:
            n = SIZES[k % len(SIZES)]
            assert a.randbelow(n) == pure("randbelow")(b, n)
        elif op == 2:
            assert a.random() == pure("random")(b)
        elif op == 3:
            xs, ys = list(range(k % 61)), list(range(k % 61))
            a.shuffle(xs)
            pure("shuffle")(b, ys)
            assert xs == ys
        else:  # any mutable sequence, not only lists
            t, u = bytearray(range(k % 23)), bytearray(range(k % 23))
            a.shuffle(t)
            pure("shuffle")(b, u)
            assert t == u
        assert a.state == b.state


def test_the_wide_generator_draws_through_its_own_next64() -> None:
    """The wide class inherits randbelow and random: they must use its BLAKE2b stream, not SplitMix."""
    a, b = Rng(2**70 + 3), Rng(2**70 + 3)
    for n in [5, 100, 2**40, 2**64]:
        assert a.randbelow(n) == pure("randbelow")(b, n)
    assert a.random() == pure("random")(b)
    assert a.state == b.state


@pytest.mark.parametrize("n", [0, -1, -(2**70), 2**64 + 1, 2**80])
def test_out_of_range_bounds_are_refused_alike(n: int) -> None:
    with pytest.raises(ValueError):
        Rng(1).randbelow(n)
    with pytest.raises(ValueError):
        pure("randbelow")(Rng(1), n)
