"""A placement's legal moves by their parts in Cacao's action split, read from the state (`Game.split_moves`).

Why: a learner's mask at every sub-step was the tree of the whole legal list, and a placement turn's list is every
worker tile x rotation x free spot (~100-300 moves), each split into its four ids. The list is a product: the
tiles held, the same free spots (or, to rebuild, the same own one-layer tiles) for each, every rotation of the
tile at each spot. So the first step needs the tiles, the second the spots' columns, the third the rows in the
chosen column, the fourth the tile's rotations; only the move played is made. Other phases (fills and uses:
short lists) and any split of another shape keep the legal list's tree (None). Exactness against that tree:
tests/rl/test_rl_split_moves.py.
"""

from __future__ import annotations

from typing import Any

from boardlab.core.action_split import ActionSplit

from . import actions as A
from .actions import Discard

_PLACE = (("kind", "tile"), ("x",), ("y",), ("rot",))  # the split this module reads
_TABLES: dict[int, tuple[ActionSplit, _Tokens | None]] = {}


class _Tokens:
    """One split's ids for a placement's parts, and back."""

    def __init__(self, split: ActionSplit) -> None:
        index = split.index
        self.split = split
        self.x = {combo[0]: t for (group, combo), t in index.items() if group == _PLACE[1]}
        self.y = {combo[0]: t for (group, combo), t in index.items() if group == _PLACE[2]}
        self.rot = {combo[0]: t for (group, combo), t in index.items() if group == _PLACE[3]}
        self.x_of = {t: v for v, t in self.x.items()}
        self.y_of = {t: v for v, t in self.y.items()}
        self.rot_of = {t: v for v, t in self.rot.items()}
        self.first: dict[tuple[str, str], int] = {}  # (kind, tile) -> its id, when first met

    def start(self, kind: str, tile: str) -> int:
        got = self.first.get((kind, tile))
        if got is None:
            got = self.first[(kind, tile)] = self.split.index[(_PLACE[0], (kind, tile))]
        return got


def _tokens(split: ActionSplit) -> _Tokens | None:
    hit = _TABLES.get(id(split))
    if hit is None or hit[0] is not split:  # the value keeps the split alive, so its id is not reused
        ok = split.steps.get("place") == _PLACE and split.steps.get("rebuild") == _PLACE
        hit = _TABLES[id(split)] = (split, _Tokens(split) if ok else None)
    return hit[1]


class PlaceMoves:
    """A placement turn's moves by their parts (placements, rebuilds, or the discards when there is neither): a
    snapshot, as the legal list is."""

    def __init__(self, state: Any, tokens: _Tokens) -> None:
        self.tokens = tokens
        p = state.turn
        types = sorted(set(state.hands[p]))
        rotations = state.comp.rotations
        spots = frozenset(state.spots)
        own = frozenset(c for c, w in state.workers.items() if w.owner == p and w.layers == 1) \
            if state._may_rebuild(p) else frozenset()
        # per first id: the kind, the tile, its rotations and the cells it may go to
        self.starts: dict[int, tuple[str, str, list[int], frozenset[tuple[int, int]]]] = {}
        for kind, cells in (("place", spots), ("rebuild", own)):
            if cells:
                for t in types:
                    self.starts[tokens.start(kind, t)] = (kind, t, rotations[t], cells)
        self.whole: dict[int, Any] = {}
        if not self.starts:
            for t in types:
                d = Discard("discard", t)
                self.whole[tokens.split.parts(d)[0]] = d

    def options(self, prefix: tuple[int, ...]) -> list[int]:
        if not prefix:
            return sorted([*self.starts, *self.whole])
        got = self.starts.get(prefix[0])
        if got is None or len(prefix) > 3:
            return []
        tokens, cells = self.tokens, got[3]
        if len(prefix) == 1:
            return sorted({tokens.x[x] for x, _ in cells})
        x = tokens.x_of.get(prefix[1])
        if len(prefix) == 2:
            return sorted([tokens.y[y] for cx, y in cells if cx == x])
        if (x, tokens.y_of.get(prefix[2])) not in cells:
            return []
        return sorted([tokens.rot[r] for r in got[2]])

    def move(self, parts: tuple[int, ...]) -> Any:
        if len(parts) == 1:
            return self.whole.get(parts[0])
        got = self.starts.get(parts[0])
        if got is None or len(parts) != 4:
            return None
        tokens = self.tokens
        cell = (tokens.x_of.get(parts[1]), tokens.y_of.get(parts[2]))
        r = tokens.rot_of.get(parts[3])
        if cell not in got[3] or r not in got[2]:
            return None
        return A.place_table(got[0], got[1], r)[cell]  # type: ignore[index]  # a cell of the set: ints


def moves(state: Any, split: ActionSplit) -> PlaceMoves | None:
    """A placement turn's moves read from the state; None in the other phases (the legal list's tree)."""
    if state.phase != "place" or state.is_over:
        return None
    tokens = _tokens(split)
    return PlaceMoves(state, tokens) if tokens is not None else None
