"""What every hand-made encoder shares: a layout of named blocks that tile the vector, a writer that fills
it with checked indices and normalised counts, the seat rotation (slot 0 is the observer), and the default
`tensor` (the view read by `encode`) that an encoder with a reading of the state itself overrides."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, Protocol

import numpy as np  # type: ignore[import-not-found, unused-ignore]  # a build without the rl extra

Layout = dict[str, tuple[int, int]]
OUTSIDE = "feature {} is outside [0, 1]: a count is larger than its declared maximum"


class Encoder(Protocol):
    """A fixed-length float32 encoding of a seat's view; `layout` names its blocks (name -> (start, length)).
    `encode` reads the view (the reference: nothing the seat may not see is in it); `tensor` gives the same
    vector for a state and seat, followed by `extra` zeros (room for a learner's move so far)."""

    layout: Layout

    def size(self, players: int) -> int: ...

    def encode(self, view: dict[str, Any], players: int) -> np.ndarray: ...

    def tensor(self, state: Any, seat: int, extra: int = 0) -> np.ndarray: ...


class ViewEncoder:
    """The default `tensor`: `encode` of the seat's `State.observation_view`. An encoder overrides it with a
    reading of the state's own structures where building the view's dicts costs more than the encoding (a learner
    builds one every step); tests/rl/test_rl_tensor.py holds every override equal, bit for bit, to this reading
    over random positions, every seat and player count, so the view's no-leak guarantee carries over."""

    def encode(self, view: dict[str, Any], players: int) -> np.ndarray:
        raise NotImplementedError

    def tensor(self, state: Any, seat: int, extra: int = 0) -> np.ndarray:
        obs = self.encode(state.observation_view(seat), state.num_players)
        return np.concatenate([obs, np.zeros(extra, np.float32)]) if extra else obs


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
    must never spill into its neighbour's slot); `done` checks every value lies in [0, 1]. Writes are collected
    and stored in one numpy assignment (an item write into a numpy array costs several list appends)."""

    __slots__ = ("at", "layout", "size", "values")

    def __init__(self, layout: Layout) -> None:
        self.layout = layout
        self.size = layout["size"][0]
        self.at: list[int] = []
        self.values: list[float] = []

    def put(self, at: int, value: float) -> None:
        """Write at an absolute index (callers that compute offsets themselves). Every slot starts at 0 and is
        written at most once, so a 0 is not stored (most of a board's slots)."""
        if value:
            if value < 0.0 or value > 1.0:
                raise ValueError(OUTSIDE.format(at))
            self.at.append(at)
            self.values.append(value)

    def marks(self, indices: list[int]) -> None:
        """A 1 at each absolute index of `indices` (distinct slots, offsets computed by the caller, as `put`): a
        `tensor` gathers a plane's hundreds of them and stores them at once."""
        self.at.extend(indices)
        self.values.extend([1.0] * len(indices))

    def part(self, at: int, value: float, most: float) -> None:
        """`frac` at an absolute index (a `tensor` reading the state computes its offsets once)."""
        if value < 0:
            raise ValueError(f"feature {at} = {value}: counts are never negative")
        if value and most > 0:
            self.at.append(at)
            self.values.append(value / most if value < most else 1.0)

    def set(self, block: str, index: int, value: float = 1.0) -> None:
        start, length = self.layout[block]
        if not 0 <= index < length:
            raise ValueError(f"{block}[{index}] is outside the block's {length} slots")
        if value:
            if value < 0.0 or value > 1.0:
                raise ValueError(OUTSIDE.format(start + index))
            self.at.append(start + index)
            self.values.append(value)

    def _span(self, block: str, indices: list[int]) -> int:
        """The block's start, after one bounds check for all of `indices` (one per list, not one per index)."""
        start, length = self.layout[block]
        if min(indices) < 0 or max(indices) >= length:
            bad = next(i for i in indices if not 0 <= i < length)
            raise ValueError(f"{block}[{bad}] is outside the block's {length} slots")
        return start

    def ones(self, block: str, indices: list[int]) -> None:
        """A 1 at each of `indices` inside `block` (distinct slots): a board's planes hold hundreds of them, and a
        `set` per index would cost a call and a check each."""
        if indices:
            start = self._span(block, indices)
            self.at.extend([start + i for i in indices])
            self.values.extend([1.0] * len(indices))

    def fracs(self, block: str, indices: list[int], values: list[float], most: float) -> None:
        """`frac` for many slots of one block at once (`values[k]` at `indices[k]`, the zeros left out)."""
        if not indices:
            return
        if min(values) < 0:
            raise ValueError(f"{block}: {min(values)}: counts are never negative")
        start = self._span(block, indices)
        if most <= 0:
            return
        for i, v in zip(indices, values, strict=True):
            if v:
                self.at.append(start + i)
                self.values.append(v / most if v < most else 1.0)

    def frac(self, block: str, index: int, value: float, most: float) -> None:
        """`value / most`, saturating at 1 (documented per block: a count past its usual bound stays readable
        as "at least that many" instead of stopping a training run)."""
        start, length = self.layout[block]
        if not 0 <= index < length:
            raise ValueError(f"{block}[{index}] is outside the block's {length} slots")
        if value < 0:
            raise ValueError(f"{block}[{index}] = {value}: counts are never negative")
        if value and most > 0:  # `set` inlined: an encoder makes dozens of these calls a step
            self.at.append(start + index)
            self.values.append(value / most if value < most else 1.0)

    def done(self, extra: int = 0, base: np.ndarray | None = None) -> np.ndarray:
        """The vector, then `extra` zeros. Every value was checked in [0, 1] as it was written (`put`, `set`; the
        rest saturate), so the writes are stored as they are: one numpy assignment from two arrays read straight off
        the lists (converting them as a list index cost more than every write before it). `base` (that length):
        a copy of it is written on instead of zeros, the slots a part kept from an earlier vector already set
        (copying a vector costs less than converting a board's hundreds of writes again)."""
        out = np.zeros(self.size + extra, np.float32) if base is None else base.copy()
        n = len(self.at)
        if n:
            out[np.fromiter(self.at, np.intp, n)] = np.fromiter(self.values, np.float32, n)
        return out


class Memo:
    """The writes one part of a view made last time, per key, replayed while that part is equal (a dict compare in
    C costs a fraction of encoding it again). A learner's consecutive steps mostly change one seat's board, or
    nothing on the temple: the other parts repeat. `State.view` builds every part afresh (none is the state's own
    object), so an equal part is the same information; a part that is the very object remembered is encoded again
    (a caller may have changed it in place). The key holds whatever else the writes depend on (seat, slot)."""

    __slots__ = ("last",)

    def __init__(self) -> None:
        self.last: dict[Any, tuple[Any, list[int], list[float]]] = {}

    def replay(self, w: Writer, key: Any, part: Any) -> int | None:
        """Write what `part` wrote last time under `key` and return None; else the writer's mark for `keep`."""
        hit = self.last.get(key)
        if hit is not None and hit[0] is not part and hit[0] == part:  # the very object may have been changed since
            w.at.extend(hit[1])
            w.values.extend(hit[2])
            return None
        return len(w.at)

    def keep(self, w: Writer, key: Any, part: Any, mark: int) -> None:
        """Remember the writes made since `mark` as `part`'s under `key`."""
        self.last[key] = (part, w.at[mark:], w.values[mark:])


def rotation(seat: int, seats: int) -> list[int]:
    """Slot of every seat seen from `seat` (slot 0 is the observer, then the seats after it in turn order)."""
    return [(q - seat) % seats for q in range(seats)]


def slot_of(q: int | None, seat: int, seats: int, none: int) -> int:
    """The slot of seat `q` seen from `seat`, or `none` when there is no such seat (nobody to move)."""
    return none if q is None else (q - seat) % seats
