"""A small seeded random generator with a JSON-able state, in two modes chosen by the seed.

Why not `random.Random`: its state is 625 words; ours fits in JSON as one value, clones for free
and gives the same stream on every platform and Python version.

Why two modes: seeds below 2**64 (every seed ever used before, every bot's and every test's) keep
the narrow SplitMix64 stream, bit for bit, so old replays and saves replay unchanged and bots stay
fast. But SplitMix64's output is a bijection of its 64-bit state: anyone who sees one raw draw
knows the state and can predict every later card, and a deal from a 64-bit seed is in reach of a
search over seeds. So a seed of 2**64 or more (a server table's, see `new_seed`) selects the wide
generator: BLAKE2b keyed with a 256-bit key derived from the whole seed, in counter mode. Its
outputs are a keyed pseudo-random function of the counter, so they reveal neither key nor seed.

The state (`.state`) is an int below 2**64 in narrow mode, as it always was, and a string
"b2:<64 hex digits of key>:<draws so far>" in wide mode: orjson refuses integers wider than 64
bits, and a string goes through every JSON encoder unchanged. Seeds travel the same way
(`seed_to_json`/`seed_from_json`): an int when it fits 64 bits, else a decimal string.
"""

from __future__ import annotations

import re
import secrets
import struct
from collections.abc import MutableSequence
from hashlib import blake2b
from typing import Any, TypeVar

from boardlab import _compiled

T = TypeVar("T")

_MASK = (1 << 64) - 1
_WIDE_PREFIX = "b2:"
_PERSON = b"boardlab-rng-w1"  # domain separation: these keys are used for nothing else
_BLOCK = struct.Struct("<8Q")  # one BLAKE2b-512 output = eight 64-bit draws
_DECIMAL = re.compile(r"-?[0-9]+")
_new = object.__new__


class Rng:
    """SplitMix64 generator for seeds below 2**64; keyed BLAKE2b (a `_WideRng`) for wider seeds.

    Deterministic, serialisable, cheap to copy. `Rng(seed)` picks the mode; code that holds an Rng
    never needs to know which one it has."""

    # the wide mode's fields live here too (unused in narrow mode) so that `__init__` can switch an
    # instance's class without a Python-level `__new__`, which would slow every narrow construction
    __slots__ = ("_buf", "_key", "_n", "state")

    def __init__(self, seed: int = 0) -> None:
        if seed > _MASK:
            self.__class__ = _WideRng
            self._key = _wide_key(seed)
            self._n = 0
            self._buf = None
            return
        self.state = seed & _MASK

    @staticmethod
    def from_state(state: int | str) -> Rng:
        """The generator whose `.state` is `state` (the inverse of reading `.state`)."""
        if isinstance(state, str):
            return _WideRng._parse(state)
        if isinstance(state, bool) or not isinstance(state, int) or not 0 <= state <= _MASK:
            raise ValueError(f"not a generator state: {state!r}")
        return Rng(state)

    @property
    def wide(self) -> bool:
        """True for the keyed BLAKE2b mode (seed >= 2**64)."""
        return False

    def saved_state(self) -> int | str:
        """`.state` typed as what it is in either mode: an int, or a str for a wide seed (compiled
        callers check a value against its declared type, and the slot is declared an int)."""
        return self.state

    def next64(self) -> int:
        self.state = z = (self.state + 0x9E3779B97F4A7C15) & _MASK
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
        return z ^ (z >> 31)

    def randbelow(self, n: int) -> int:
        """Uniform integer in [0, n) (rejection sampling, no modulo bias)."""
        if n <= 0:
            raise ValueError("randbelow needs n > 0")
        if n > _MASK + 1:  # no draw could be accepted
            raise ValueError("randbelow needs n <= 2**64")
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
        r = _new(Rng)  # = Rng(self.next64()) without the mode test (search bots fork and copy a lot)
        r.state = self.next64()
        return r

    def copy(self) -> Rng:
        r = _new(Rng)
        r.state = self.state
        return r


class _WideRng(Rng):
    """Keyed BLAKE2b in counter mode: draw i is word i % 8 of BLAKE2b-512(key, block i // 8).

    The state is the 256-bit key and the number of draws made; the current block is a cache.
    Only `Rng(seed)` with seed >= 2**64, `fork`, `copy` and `Rng.from_state` make one."""

    __slots__ = ()

    @property  # type: ignore[override]
    def state(self) -> str:
        return f"{_WIDE_PREFIX}{self._key.hex()}:{self._n}"

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickle (and deepcopy) through the state string: the default slot copy would try to set
        the read-only `state`."""
        return Rng.from_state, (self.state,)

    @property
    def wide(self) -> bool:
        return True

    @classmethod
    def _make(cls, key: bytes, n: int, buf: tuple[int, ...] | None) -> _WideRng:
        r = object.__new__(cls)
        r._key, r._n, r._buf = key, n, buf
        return r

    @classmethod
    def _parse(cls, state: str) -> _WideRng:
        try:
            prefix, key_hex, n_text = state.split(":")
            key, n = bytes.fromhex(key_hex), int(n_text)
        except ValueError:
            raise ValueError(f"not a generator state: {state!r}") from None
        if prefix + ":" != _WIDE_PREFIX or len(key) != 32 or n < 0 or not n_text.isdigit():
            raise ValueError(f"not a generator state: {state!r}")
        return cls._make(key, n, None)

    def next64(self) -> int:
        n = self._n
        buf = self._buf
        if buf is None or not n & 7:
            buf = self._buf = _BLOCK.unpack(
                blake2b((n >> 3).to_bytes(8, "little"), key=self._key, digest_size=64).digest())
        self._n = n + 1
        return buf[n & 7]

    def shuffle(self, seq: MutableSequence[T]) -> None:
        """Fisher-Yates with `randbelow` (the narrow mode's inlined SplitMix does not apply here)."""
        randbelow = self.randbelow
        for i in range(len(seq) - 1, 0, -1):
            j = randbelow(i + 1)
            seq[i], seq[j] = seq[j], seq[i]

    def fork(self) -> Rng:
        """A wide child keyed with four fresh draws (advances this one by four steps).

        Why wide and not `Rng(self.next64())` as in narrow mode: a forked generator deals for the
        same table, and a 64-bit SplitMix child gives its state away with its first output, so
        everything it dealt afterwards would be predictable. 256 fresh bits keep the child as
        unpredictable as its parent; its draws are a PRF output and reveal nothing of the parent."""
        key = b"".join(self.next64().to_bytes(8, "little") for _ in range(4))
        return _WideRng._make(key, 0, None)

    def copy(self) -> Rng:
        return _WideRng._make(self._key, self._n, self._buf)


PURE_METHODS = {name: Rng.__dict__[name] for name in ("next64", "randbelow", "random", "shuffle")}
"""The narrow generator's Python draws: the reference, and what runs without the native build. With a
current build (`make native`) the C versions in `_splitmix.c` replace them on `Rng`: the same stream
(tests compare the two), without CPython's big-integer arithmetic on every SplitMix step."""

if _compiled.COMPILED:
    # (by name: `from . import _splitmix` reads, to import analysis, as importing `boardlab.core` back)
    from ._splitmix import install  # type: ignore[import-not-found]  # built by `make native`

    install(Rng)


def _wide_key(seed: int) -> bytes:
    """The 256-bit key of a wide seed: BLAKE2b of its minimal big-endian bytes (injective for
    seeds >= 2**64, which have no leading zero byte), so every bit of the seed counts."""
    raw = seed.to_bytes((seed.bit_length() + 7) // 8, "big")
    return blake2b(raw, digest_size=32, person=_PERSON).digest()


def is_wide(seed: int) -> bool:
    """Does `seed` select the wide generator?"""
    return seed > _MASK


def narrow_seed(seed: int, label: str) -> int:
    """A 64-bit seed for a helper (a bot) of a game dealt from the wide `seed`: BLAKE2b of `label` keyed
    with the seed's key. Helpers then run on the fast narrow generator, and what their draws give away
    (their own state) tells nothing about the deal."""
    return int.from_bytes(blake2b(label.encode(), key=_wide_key(seed), digest_size=8).digest(), "little")


def new_seed(bits: int = 128) -> int:
    """A fresh secret seed with `bits` random bits from `secrets`, above a marker bit 2**bits so it
    always selects the wide generator (a bare 128-bit draw falls below 2**64 once in 2**64)."""
    if bits < 64:
        raise ValueError("a wide seed needs at least 64 random bits")
    return (1 << bits) | secrets.randbits(bits)


def seed_to_json(seed: int) -> int | str:
    """A seed as a JSON value: the int itself when orjson can write it (every narrow seed, so saves
    from before wide seeds are unchanged), else its decimal string."""
    return seed if -(1 << 63) <= seed <= _MASK else str(seed)


def seed_from_json(value: Any) -> int:
    """The seed from `seed_to_json`'s value (an int, or a decimal string of any width).
    Raises ValueError on anything else (bools, floats, hex, empty strings)."""
    if isinstance(value, int) and not isinstance(value, bool):
        return value
    if isinstance(value, str) and len(value) <= 400 and _DECIMAL.fullmatch(value):
        return int(value)
    raise ValueError(f"a seed must be an integer or a string of decimal digits, not {value!r}")
