"""A small seeded random generator whose whole state is one integer.

Why not `random.Random`: its state is 625 words; ours fits in JSON as one number, clones for free
and gives the same stream on every platform and Python version (SplitMix64).
"""

from __future__ import annotations

from collections.abc import MutableSequence
from typing import TypeVar

T = TypeVar("T")

_MASK = (1 << 64) - 1


class Rng:
    """SplitMix64 generator. Deterministic, serialisable, cheap to copy."""

    __slots__ = ("state",)

    def __init__(self, seed: int = 0) -> None:
        self.state = seed & _MASK

    def next64(self) -> int:
        self.state = z = (self.state + 0x9E3779B97F4A7C15) & _MASK
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
        return z ^ (z >> 31)

    def randbelow(self, n: int) -> int:
        """Uniform integer in [0, n) (rejection sampling, no modulo bias)."""
        if n <= 0:
            raise ValueError("randbelow needs n > 0")
        limit = _MASK - (_MASK + 1) % n
        while True:
            r = self.next64()
            if r <= limit:
                return r % n

    def random(self) -> float:
        return (self.next64() >> 11) * (1.0 / (1 << 53))

    def choice(self, seq: list[T] | tuple[T, ...]) -> T:
        return seq[self.randbelow(len(seq))]

    def shuffle(self, seq: MutableSequence[T]) -> None:
        """Fisher-Yates with `randbelow` and `next64` inlined: the same stream as calling them (bots
        shuffle once per search iteration, where the calls cost more than the arithmetic)."""
        z = self.state
        for i in range(len(seq) - 1, 0, -1):
            n = i + 1
            limit = _MASK - (_MASK + 1) % n
            while True:
                z = (z + 0x9E3779B97F4A7C15) & _MASK
                r = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
                r = ((r ^ (r >> 27)) * 0x94D049BB133111EB) & _MASK
                r ^= r >> 31
                if r <= limit:
                    break
            j = r % n
            seq[i], seq[j] = seq[j], seq[i]
        self.state = z

    def fork(self) -> Rng:
        """An independent generator derived from this one (advances this one by one step)."""
        return Rng(self.next64())

    def copy(self) -> Rng:
        return Rng(self.state)
