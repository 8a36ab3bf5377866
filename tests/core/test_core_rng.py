"""The seeded generator (core/rng.py): SplitMix64 reference values, determinism, copy/fork semantics,
and sanity checks of uniformity for randbelow and shuffle (fixed seeds, so never flaky)."""

from __future__ import annotations

import json
from collections import Counter
from itertools import permutations

import pytest

from boardlab.core.rng import Rng


def chi_square(counts: Counter[object], cells: list[object], total: int) -> float:
    expected = total / len(cells)
    return sum((counts[c] - expected) ** 2 / expected for c in cells)


def test_core_rng_matches_splitmix64_reference_values() -> None:
    """SplitMix64's published outputs (seed 1234567, and seed 0): same stream on every platform."""
    r = Rng(1234567)
    assert [r.next64() for _ in range(5)] == [
        6457827717110365317, 3203168211198807973, 9817491932198370423, 4593380528125082431, 16408922859458223821,
    ]
    assert Rng(0).next64() == 0xE220A8397B1DCDAF


def test_core_rng_is_deterministic_and_seed_sensitive() -> None:
    """Same seed, same stream; different seeds, different streams; negative seeds are masked to 64 bits;
    seeds of 2**64 and more are no longer masked (they select the wide generator, test_core_rng_wide.py)."""
    a, b, c = Rng(42), Rng(42), Rng(43)
    sa = [a.next64() for _ in range(100)]
    assert sa == [b.next64() for _ in range(100)]
    assert sa != [c.next64() for _ in range(100)]
    assert Rng(-1).state == (1 << 64) - 1
    assert Rng((1 << 64) - 1).state == (1 << 64) - 1
    assert Rng(1 << 64 | 5).wide and not Rng(5).wide


def test_core_rng_state_is_one_json_integer_and_copy_does_not_advance() -> None:
    """The whole state is one int (JSON-able); copy() continues identically without touching the original;
    fork() advances the parent by one step and gives a different stream."""
    r = Rng(7)
    r.next64()
    assert json.loads(json.dumps(r.state)) == r.state
    c = r.copy()
    assert [c.next64() for _ in range(10)] == [r.next64() for _ in range(10)]
    p = Rng(9)
    q = Rng(9)
    child = p.fork()
    q.next64()
    assert p.state == q.state
    assert [child.next64() for _ in range(5)] != [Rng(9).next64() for _ in range(5)]


def test_core_rng_randbelow_range_and_errors() -> None:
    """randbelow(n) is in [0, n); n <= 0 is refused; n = 1 always gives 0; huge n works."""
    r = Rng(3)
    assert all(0 <= r.randbelow(7) < 7 for _ in range(2000))
    assert {r.randbelow(1) for _ in range(50)} == {0}
    big = 3 << 62
    assert all(0 <= r.randbelow(big) < big for _ in range(200))
    for bad in (0, -5):
        with pytest.raises(ValueError):
            r.randbelow(bad)
    assert all(0.0 <= r.random() < 1.0 for _ in range(2000))


def test_core_rng_randbelow_uniform() -> None:
    """60000 draws over 6 values: chi-square below the 0.1% critical value (20.5 for 5 d.o.f.)."""
    r = Rng(2024)
    n = 60000
    counts: Counter[object] = Counter(r.randbelow(6) for _ in range(n))
    assert chi_square(counts, list(range(6)), n) < 20.5


def test_core_rng_shuffle_uniform_over_permutations() -> None:
    """Shuffling 4 items 48000 times: all 24 orders appear about equally (chi-square < 49.7, 23 d.o.f.)."""
    r = Rng(11)
    n = 48000
    counts: Counter[object] = Counter()
    for _ in range(n):
        items = [0, 1, 2, 3]
        r.shuffle(items)
        counts[tuple(items)] += 1
    cells: list[object] = list(permutations(range(4)))
    assert set(counts) == set(cells)
    assert chi_square(counts, cells, n) < 49.7


def test_core_rng_shuffle_and_choice_keep_items() -> None:
    """shuffle permutes in place (same items); choice returns an element; both deterministic per seed."""
    items = list("abcdefghij")
    a, b = list(items), list(items)
    Rng(5).shuffle(a)
    Rng(5).shuffle(b)
    assert a == b and sorted(a) == items and a != items
    r = Rng(8)
    picks = Counter(r.choice(items) for _ in range(5000))
    assert set(picks) == set(items)
    empty: list[int] = []
    Rng(1).shuffle(empty)
    assert empty == []
