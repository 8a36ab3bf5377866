"""What every hand-made encoder shares: a layout of named blocks that tile the vector, a writer that fills
it with checked indices and normalised counts, and the seat rotation (slot 0 is the observer)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, Protocol

import numpy as np

Layout = dict[str, tuple[int, int]]


class Encoder(Protocol):
    """A fixed-length float32 encoding of a seat's view; `layout` names its blocks (name -> (start, length))."""

    layout: Layout

    def size(self, players: int) -> int: ...

    def encode(self, view: dict[str, Any], players: int) -> np.ndarray: ...


def make_layout(blocks: Iterable[tuple[str, int]]) -> Layout:
    """Block name -> (start, length), the blocks one after another in the given order, then "size" ->
    (total, 0). Consecutive blocks cannot overlap and leave no gap: one slot per feature by construction."""
    out: Layout = {}
    at = 0
    for name, length in blocks:
        if name in out or length <= 0:
            raise ValueError(f"block {name!r}: duplicate name or empty length {length}")
        out[name] = (at, length)
        at += length
    out["size"] = (at, 0)
    return out


class Writer:
    """Fills one vector. `set`/`frac` index inside a named block and refuse an index past its end (a feature
    must never spill into its neighbour's slot); `done` checks every value lies in [0, 1]."""

    __slots__ = ("layout", "out")

    def __init__(self, layout: Layout) -> None:
        self.layout = layout
        self.out = np.zeros(layout["size"][0], np.float32)

    def put(self, at: int, value: float) -> None:
        """Write at an absolute index (callers that compute offsets themselves)."""
        self.out[at] = value

    def set(self, block: str, index: int, value: float = 1.0) -> None:
        start, length = self.layout[block]
        if not 0 <= index < length:
            raise ValueError(f"{block}[{index}] is outside the block's {length} slots")
        self.out[start + index] = value

    def frac(self, block: str, index: int, value: float, most: float) -> None:
        """`value / most`, saturating at 1 (documented per block: a count past its usual bound stays readable
        as "at least that many" instead of stopping a training run)."""
        if value < 0:
            raise ValueError(f"{block}[{index}] = {value}: counts are never negative")
        self.set(block, index, min(1.0, value / most) if most > 0 else 0.0)

    def done(self) -> np.ndarray:
        out = self.out
        if out.min() < 0.0 or out.max() > 1.0:
            raise ValueError(f"feature {int(np.argmax((out < 0) | (out > 1)))} is outside [0, 1]: a count is larger "
                             "than its declared maximum")
        return out


def rotation(seat: int, seats: int) -> list[int]:
    """Slot of every seat seen from `seat` (slot 0 is the observer, then the seats after it in turn order)."""
    return [(q - seat) % seats for q in range(seats)]


def slot_of(q: int | None, seat: int, seats: int, none: int) -> int:
    """The slot of seat `q` seen from `seat`, or `none` when there is no such seat (nobody to move)."""
    return none if q is None else (q - seat) % seats
