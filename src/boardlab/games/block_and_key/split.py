"""A turn's legal moves by their parts in Block and Key's action split, read from the spot masks (`Game.split_moves`).

Why: a learner's mask at every sub-step was the tree of the whole legal list, and a turn's list is a `Place` per
spot (~100-200), most of a random step's cost. The split (`BlockAndKeyRules.action_split`) chooses a placement
as kind and block -> cell -> orientation, so each step needs only what the state already holds per block: the
first, which held blocks have a spot at all, beside the digs (or `pass`); the second, the union of the chosen block's
orientation masks (its anchors); the third, the orientations whose mask holds the chosen anchor. Only the move
played is made. Other phases (short lists) and any split of another shape keep the legal list's tree (None).
Exactness against that tree: tests/rl/test_rl_split_moves.py.
"""

from __future__ import annotations

from typing import Any

from boardlab.core.action_split import ActionSplit

from . import actions as A
from . import geometry as G
from .actions import Place

_PLACE = (("kind", "block"), ("x", "y", "z"), ("orient",))  # the split this module reads
_TABLES: dict[tuple[int, int], tuple[ActionSplit, Any, _Tokens | None]] = {}


class _Tokens:
    """One split's ids for a turn's parts: per block index its (place, block) id, per anchor bit its cell's id,
    per orientation its id, and back."""

    def __init__(self, split: ActionSplit, block_ids: tuple[str, ...]) -> None:
        index = split.index
        self.split = split
        self.block = [index[(_PLACE[0], ("place", bid))] for bid in block_ids]
        self.cell: list[int | None] = [index.get((_PLACE[1], xyz)) for xyz in G.CELL_OF]
        self.anchor = {t: a for a, t in enumerate(self.cell) if t is not None}
        orient = {combo[0]: t for (group, combo), t in index.items() if group == _PLACE[2]}
        self.orient = [orient[o] for o in range(len(orient))]
        self.orient_of = {t: o for o, t in orient.items()}
        self.simple: dict[Any, int] = {}  # digs and pass, split when first met

    def first(self, action: Any) -> int:
        got = self.simple.get(action)
        if got is None:
            got = self.simple[action] = self.split.parts(action)[0]
        return got


def _tokens(state: Any, split: ActionSplit) -> _Tokens | None:
    """The id tables of `split` for this game's components, or None when the split is not the one read here."""
    comp = state.comp
    hit = _TABLES.get((id(split), id(comp)))
    if hit is None or hit[0] is not split or hit[1] is not comp:  # the value keeps both alive: ids not reused
        ok = split.steps.get("place") == _PLACE and split.steps.get("dig") is not None
        hit = _TABLES[(id(split), id(comp))] = (split, comp, _Tokens(split, comp.block_ids) if ok else None)
    return hit[2]


class TurnMoves:
    """A turn's moves (digs, placements, or `pass` when there is neither), by their parts: a snapshot, as the
    legal list is (the state may move on while copies of the position still ask)."""

    def __init__(self, state: Any, tokens: _Tokens) -> None:
        self.tokens = tokens
        comp = state.comp
        # the first ids that start a placement: the held block's id and its spot masks (one per orientation)
        self.blocks: dict[int, tuple[str, tuple[int, ...]]] = {}
        for b in state.supply[state.actor]:
            masks = state.spot_masks(comp.block_shape(b))
            if any(masks):
                self.blocks[tokens.block[b]] = (comp.block_ids[b], masks)
        digs = state._digs()
        self.whole: dict[int, Any] = {tokens.first(d): d for d in digs}  # first ids that are whole moves
        if not digs and not self.blocks:
            self.whole[tokens.first(A.PASS)] = A.PASS

    def options(self, prefix: tuple[int, ...]) -> list[int]:
        if not prefix:
            return sorted([*self.whole, *self.blocks])
        got = self.blocks.get(prefix[0])
        if got is None or len(prefix) > 2:
            return []
        masks = got[1]
        if len(prefix) == 2:  # the orientations with a spot at the chosen anchor
            a = self.tokens.anchor.get(prefix[1])
            if a is None:
                return []
            orient = self.tokens.orient
            return [orient[o] for o, m in enumerate(masks) if m >> a & 1]
        union = 0
        for m in masks:
            union |= m
        cell = self.tokens.cell
        out: list[int] = []
        while union:
            a = union.bit_length() - 1
            out.append(cell[a])  # type: ignore[arg-type]  # a spot's anchor is a cell of the split
            union ^= 1 << a
        out.sort()
        return out

    def move(self, parts: tuple[int, ...]) -> Any:
        if len(parts) == 1:
            return self.whole.get(parts[0])
        if len(parts) != 3:
            return None
        got = self.blocks.get(parts[0])
        a, o = self.tokens.anchor.get(parts[1]), self.tokens.orient_of.get(parts[2])
        if got is None or a is None or o is None:
            return None
        bid, masks = got
        if o >= len(masks) or not masks[o] >> a & 1:
            return None
        x, y, z = G.CELL_OF[a]
        return Place("place", bid, o, x, y, z)


def moves(state: Any, split: ActionSplit) -> TurnMoves | None:
    """A turn's moves read from the spot masks; None elsewhere (the legal list's tree: a handful of moves)."""
    if state.phase != "turn" or state.actor is None:
        return None
    tokens = _tokens(state, split)
    return TurnMoves(state, tokens) if tokens is not None else None
