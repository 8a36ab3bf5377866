# mypy: disable-error-code="misc"
# (class attributes of the Game protocol are set on the subclass, which mypy reads as instance variables)
"""Block and Key rules (seed rules in Traditional Chinese are the default; the publisher's English rules are
the options `key_views="own-side"` and `enigma_rounding="down"`), 1 to 4 players, solo against the Ancients.

A position is a voxel temple (geometry.py), the excavation site, the bag, the block supplies, the key
hands and decks, and a small phase machine: `orient` (the start player turns the core) -> `draft` (one row
or column each, counter-clockwise from the start player's right) -> turns. A turn is `turn` (dig or place)
-> `return` while more than 7 blocks are held -> `draw` (Sun or Moon, to 4 keys) -> next seat; solo adds
`marker`, `discard` and the Ancients' placement (`ancient`). Phases with a single answer resolve themselves.
Decisions the sources leave open are recorded in docs/rules/block_and_key.md (D1, D2 ...).
"""

from __future__ import annotations

import heapq
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from mypy_extensions import mypyc_attr

from boardlab.core.action_split import ActionSplit
from boardlab.core.action_table import ParsesNotation
from boardlab.core.errors import ActionParseError, ConfigError
from boardlab.core.game import Game, Option, Score, State
from boardlab.core.rng import Rng

from . import actions as A
from . import geometry as G
from .actions import BKAction, BlockAct, DeckAct, Dig, KeyAct, Orient, Place, Simple
from .components import HEIGHT, MAX_FLOOR, SIDES, Components, components

HAND_LIMIT = 7
KEY_HAND = 4
SITE_LINES = ((0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8))
THRESHOLD = {1: 99, 2: 12, 3: 8, 4: 7}
SOLO_TURNS = 11
SAFETY_DECISIONS = 2_000
"""The engine's safety stop (docs: D9): no turn starts after this many decisions. The rules let players dig and
return blocks for ever while some block still fits; random games take at most about 100 decisions."""
# the most decisions one turn holds: the dig, placement or pass; up to 3 blocks returned after a dig (7 + 3 > 7)
# or up to 4 claims and `stop` after a placement (a hand holds at most 4 keys); up to 4 cards drawn; solo: the
# altar marker, keep or discard, and the Ancients' spot
DECISIONS_PER_TURN = 1 + max(3, 4 + 1) + 4 + 3
GOLD = 5
VIEWS = ("top", "S", "E", "N", "W")
N_CELLS = MAX_FLOOR * MAX_FLOOR * HEIGHT
_SPLIT: list[ActionSplit] = []  # the action split, built once (`action_split`)
SUN, MOON = 0, 1


def gidx(x: int, y: int, z: int) -> int:
    return x + MAX_FLOOR * (y + MAX_FLOOR * z)


@mypyc_attr(native_class=False)  # a Python class with compiled methods (see boardlab/_compiled.py)
class BlockAndKeyState(State):
    """A Block and Key position. `seat` numbers run in turn order from the start player (seat 0)."""

    # -- setup ------------------------------------------------------------------------------------------
    def _setup(self) -> None:
        comp = self.comp = components(self.options.get("components") or None)
        n = self.num_players
        self.solo = n == 1
        fl = self.floor = comp.floors[n]
        self.W, self.D = fl.width, fl.depth
        self.view_of = tuple(1 + SIDES.index(s) for s in fl.sides)  # seat -> its side view
        self.nb = len(comp.block_ids)
        self.core = self.nb  # the core cube's block number
        self.rng = Rng(self.seed)
        self.reveals = 0  # draws, deals and shown cards: the undo barrier counts them
        self.grid = [-1] * N_CELLS
        self.occ = 0
        self.near = 0
        self.heights = [0] * (MAX_FLOOR * MAX_FLOOR)
        self.high = [0] * HEIGHT
        self.rise = [0] * HEIGHT  # k: the occupied cells whose own block rises at least k levels above them
        self.btop = [-1] * (self.nb + 1)  # per block (the core last): its highest level, -1 before it is placed
        self.bcells = [0] * (self.nb + 1)  # per block: its cells (bits at G.idx)
        self.columns = self.options["face_contact"] == "stack"
        self.vcol = [[0] * (MAX_FLOOR * MAX_FLOOR) for _ in VIEWS]
        self.vown = [[-1] * (MAX_FLOOR * MAX_FLOOR) for _ in VIEWS]
        self.vdep = [[-99] * (MAX_FLOOR * MAX_FLOOR) for _ in VIEWS]
        self._fixed = _fixed(comp, self.W, self.D)
        self.planes = [0] * 6  # per colour code: the cells of every view showing it (G.plane_bit)
        self.placed: list[tuple[int, int, int, int, int, int]] = []  # block, orient, x, y, z, seat (-1 Ancients)
        self.core_turn = 0
        cx, cy = fl.core
        for z in range(2):
            for y in range(cy, cy + 2):
                for x in range(cx, cx + 2):
                    self._add_cube(x, y, z, self.core)
        self.bag = list(range(self.nb))
        self.site = [-1] * 9
        self.supply: list[list[int]] = [[] for _ in range(n)]
        keys = comp.keys
        decks: list[list[int]] = [[], [], []]
        for i, k in enumerate(keys):
            decks[("star", "sun", "moon").index(k.deck)].append(i)
        for d in decks:
            self.rng.shuffle(d)
        self.stars, self.decks = decks[0], [decks[1], decks[2]]
        self.hands: list[list[int]] = [[] for _ in range(n)]
        self.claimed: list[list[int]] = [[] for _ in range(n)]
        for q in range(n):
            self.hands[q] = [self.stars.pop(), self.stars.pop(), self.decks[SUN].pop(), self.decks[MOON].pop()]
        enig = list(range(len(comp.enigmas)))
        self.rng.shuffle(enig)
        self.enigma = [enig.pop() for _ in range(n)]
        self.enigma_rest = sorted(enig)
        self.known_bottom = [0, 0]  # solo: cards the player put under an altar (they know them)
        self.markers: list[tuple[int, int]] = []  # solo: (deck, key) face down
        self._refill_site()
        self.phase = "orient"
        self.actor: int | None = 0
        self.turn_seat = 0
        self.draft = list(range(n - 1, -1, -1))  # counter-clockwise from the start player's right
        self.final = False
        self.remaining = 0
        self.passes = 0
        self.solo_turn = 0
        self.claimed_now: list[int] = []
        self.offer: list[int] = []  # the keys the block just placed completes, while the player decides (docs: D6)
        self.drew = 0
        self.last_drawn = -1
        self.ancient_block = -1
        self.ancient_opts: list[Place] = []
        self.last_ancient: dict[str, Any] | None = None
        self._cache: _Legal | None = None
        self._boards: _Temple | None = None  # the memo of the temple as it is (see `_temple`)
        self._drawn: object = None  # the action `random_action` found without the list, until the next apply
        self._settle()

    # -- the temple ---------------------------------------------------------------------------------------
    def _add_cube(self, x: int, y: int, z: int, b: int, shown: list[int] | None = None) -> None:
        """Put a cube of block b at (x, y, z): masks, heights and the five views. `shown[0]` gets the plane bits
        of the view cells the cube now shows in."""
        g = x + MAX_FLOOR * (y + MAX_FLOOR * z)  # gidx
        self.grid[g] = b
        self.occ |= G.GRID_BIT[g]
        self.near |= G.GRID_NEAR[g]
        col = x + MAX_FLOOR * y
        h = self.heights[col]
        if z >= h:
            cm = G.GRID_COLUMN[g]
            high = self.high
            for k in range(h, z + 1):
                high[k] |= cm
            self.heights[col] = z + 1
        bit = G.GRID_BIT[g]
        rise = self.rise
        top = self.btop[b]
        self.bcells[b] |= bit
        if z > top:  # the block rises: each of its cells rises with it
            self.btop[b] = z
            m = self.bcells[b]
            cell = G.CELL_OF
            while m:
                a = m.bit_length() - 1
                m ^= 1 << a
                for k in range(z - cell[a][2] + 1):
                    rise[k] |= 1 << a
        else:
            for k in range(top - z + 1):
                rise[k] |= bit
        fixed = self._fixed
        colour = fixed.colour[b]  # 0 for the core: its colour depends on the view
        vdep, vown, vcol, planes = self.vdep, self.vown, self.vcol, self.planes
        for v, (i, key, bit) in enumerate(fixed.proj[g]):
            dep = vdep[v]
            if key > dep[i]:
                dep[i] = key
                vown[v][i] = b
                c = colour or self._face_colour(b, v)
                cols = vcol[v]
                old = cols[i]
                if old:
                    planes[old] &= ~bit
                planes[c] |= bit
                cols[i] = c
                if shown is not None:
                    shown[0] |= bit

    def _set_colour(self, v: int, i: int, c: int) -> None:
        bit = G.plane_bit(v, i)
        planes = self.planes
        old = self.vcol[v][i]
        if old:
            planes[old] &= ~bit
        planes[c] |= bit
        self.vcol[v][i] = c

    def _face_colour(self, b: int, v: int) -> int:
        if b == self.core:
            return GOLD if v == 0 else self.comp.core_sides[(v - 1 + self.core_turn) % 4] + 1
        return self.comp.block_colour(b) + 1

    def _turn_core(self, r: int) -> None:
        self.core_turn = r
        for v in range(1, 5):
            for i, b in enumerate(self.vown[v]):
                if b == self.core:
                    self._set_colour(v, i, self._face_colour(b, v))

    def orientation_list(self, b: int) -> tuple[G.Orientation, ...]:
        return G.orientations(self.comp.shape_cells[self._fixed.shape[b]])

    def orientation(self, b: int, o: int) -> G.Orientation:
        return G.orientations(self.comp.shape_cells[self.comp.block_shape(b)])[o]

    def _place(self, b: int, o: int, x: int, y: int, z: int, seat: int) -> int:
        """Place block b; the plane bits of the view cells where it shows (for the claim). The same as
        `_add_cube` for each of its cubes, but once per block, from its orientation's `BlockTemplate` moved to
        the anchor: masks shifted, per column one height, per view cell only the cube nearest the viewer."""
        fixed = self._fixed
        mask, near, goffs, rises, dtop, cols, views = fixed.templates[fixed.shape[b] * 32 + o]
        at = x + G.PX * y + G.LAYER * z  # G.shift
        g0 = x + MAX_FLOOR * (y + MAX_FLOOR * z)  # gidx
        mask <<= at
        grid = self.grid
        for g in goffs:
            grid[g0 + g] = b
        self.occ |= mask
        self.near |= near << at
        heights, high = self.heights, self.high
        c0, col_at = x + MAX_FLOOR * y, x + G.PX * y
        for dcol, dh, cm in cols:
            col = c0 + dcol
            h = heights[col]
            h1 = z + dh
            if h1 > h:
                cm <<= col_at
                for k in range(h, h1):
                    high[k] |= cm
                heights[col] = h1
        rise = self.rise
        for k, m in enumerate(rises):
            rise[k] |= m << at
        self.btop[b] = z + dtop
        self.bcells[b] |= mask
        c = fixed.colour[b]
        vdep, vown, vcol, planes = self.vdep, self.vown, self.vcol, self.planes
        mx, my = self.W - 1 - x, self.D - 1 - y
        base_i = (x + MAX_FLOOR * y, x + MAX_FLOOR * z, y + MAX_FLOOR * z, mx + MAX_FLOOR * z, my + MAX_FLOOR * z)
        base_bit = (x + G.VSTRIDE * y, G.VIEW_BITS + x + G.VSTRIDE * z, 2 * G.VIEW_BITS + y + G.VSTRIDE * z,
                    3 * G.VIEW_BITS + mx + G.VSTRIDE * z, 4 * G.VIEW_BITS + my + G.VSTRIDE * z)
        base_key = (z, -y, x, y, -x)
        shown = 0
        for v, di, dbit, dkey in views:
            i = base_i[v] + di
            key = base_key[v] + dkey
            dep = vdep[v]
            if key > dep[i]:
                dep[i] = key
                vown[v][i] = b
                vcol[v][i] = c
                shown |= 1 << (base_bit[v] + dbit)
        if shown:  # a view cell shows one colour: the block's cells leave every other plane (one AND per plane)
            keep = ~shown
            for cc in range(1, len(planes)):
                if cc != c:
                    planes[cc] &= keep
            planes[c] |= shown
        self.placed.append((b, o, x, y, z, seat))
        return shown

    def placements(self, b: int, kind: str = "place") -> list[Place]:
        """Every legal placement of block b (by the placement rules), in a stable order: orientation, then
        anchor cell (z, y, x). Each `Place` is made once per process and reused (see `_place_rows`). Built
        backwards (the highest bit of a mask is the cheaper one to find and clear) and reversed at the end. Not
        memoised per temple, unlike the masks: kept lists of Places cost the garbage collector more than they
        save."""
        bid = self.comp.block_ids[b]
        out: list[Place] = []
        masks = self.spot_masks(self._fixed.shape[b])
        rows = _place_rows(kind, bid, len(masks))
        for n in range(len(masks) - 1, -1, -1):
            m = masks[n]
            if m:
                row = rows[n]
                if row is None:
                    row = rows[n] = [None] * len(G.CELL_OF)
                while m:
                    a = m.bit_length() - 1
                    p = row[a]
                    out.append(p if p is not None else _place_at(rows, kind, bid, n, a))
                    m ^= 1 << a
        out.reverse()
        return out

    def _temple(self) -> _Temple:
        """The memo of this temple (`_Temple`): the state's own while no cube was added since, else the one
        shared by every state with the same temple (`_SPOTS`)."""
        temple = self._boards
        occ = self.occ
        if temple is not None and temple.occ == occ:
            return temple
        # the occupied cells and which block each belongs to, as far as the rules ask
        key = (id(self._fixed), self.columns, tuple(self.rise))
        temple = _SPOTS.get(key)
        if temple is None:
            temple = bounded_put(_SPOTS, key, _Temple(occ), TEMPLES)
        self._boards = temple
        return temple

    def spot_masks(self, shape: int) -> tuple[int, ...]:
        """Per orientation of a shape, the anchors (bits at `G.idx`) of its legal placements. The answer depends
        only on the occupied cells (the other masks derive from them), so it is memoised per temple: search
        revisits the same temples."""
        temple = self._temple()
        hit = temple.spots.get(shape)
        if hit is not None:
            return hit
        fixed = self._fixed
        native = fixed.native
        if native is not None:  # the same masks from the C helper (`G.NATIVE`), with their popcount
            packed = temple.packed
            if packed is None:
                packed = temple.packed = native[0](self.occ, self.near, self.rise,
                                                   self.high if self.columns else None, fixed.floor, fixed.kinds)
            program, packed_bounds = fixed.programs[shape]
            hit, count = native[1](program, packed_bounds, packed)
            temple.spots[shape] = hit
            temple.counts[shape] = count
            return hit
        boards = temple.boards
        if boards is None:
            boards = temple.boards = G.boards(self.occ, self.near, self.rise, self.high if self.columns else None,
                                              self.W, self.D, fixed.kinds)
        bounds, candidates = fixed.plans[shape]
        hit = temple.spots[shape] = candidates(boards, bounds)
        return hit

    def spot_count(self, shape: int) -> int:
        """How many legal placements a shape has (the popcounts of its `spot_masks`), memoised with them."""
        temple = self._temple()
        hit = temple.counts.get(shape)
        if hit is None:
            masks = self.spot_masks(shape)
            hit = temple.counts.get(shape)  # the C helper counts as it goes
            if hit is None:
                hit = 0
                for m in masks:
                    hit += m.bit_count()
                temple.counts[shape] = hit
        return hit

    def view_grid(self, v: int) -> tuple[int, int, list[int], list[int]]:
        """(width, height, colours, owners) of view v; cell (u, w) is index u + 8 w, w grows upwards."""
        if v == 0:
            return self.W, self.D, self.vcol[0], self.vown[0]
        return (self.W if v in (1, 3) else self.D), HEIGHT, self.vcol[v], self.vown[v]

    # -- keys -----------------------------------------------------------------------------------------------
    def allowed_views(self, seat: int) -> tuple[int, ...]:
        if self.options["key_views"] == "own-side":
            return (self.view_of[seat],)
        return (0, 1, 2, 3, 4)

    def new_mask(self, b: int) -> int:
        """The plane bits (`G.plane_bit`) of the view cells where block b shows."""
        m = 0
        for v, own in enumerate(self.vown):
            for i, o in enumerate(own):
                if o == b:
                    m |= G.plane_bit(v, i)
        return m

    def key_match(self, k: int, seat: int, new: int | None,
                  shown: int | None = None) -> tuple[int, int, int, int] | None:
        """Where key k shows in one of `seat`'s allowed views (view, rotation, u, w of the pattern's corner; the
        first view in order, then rotation, then corner), with at least one coloured cell on a face of block
        `new` (None: any match); `shown`, the plane bits where `new` shows if known. Blank cells match anything;
        the pattern is turned, never mirrored, and must lie inside the view. Bitwise, all views at once: the
        corners where every coloured cell finds its colour are the AND of the colour planes shifted by each
        cell; with a new block, only corners putting a cell of its colour on one of its faces are tried (it
        shows its own colour, so no other cell can land there in a match)."""
        rots, colours = self._fixed.keys[k]
        colour = newm = 0
        if new is not None:
            if new != self.core:
                colour = self.comp.block_colour(new) + 1
                if colour not in colours:
                    return None
            newm = shown if shown is not None else self.new_mask(new)
        views = self.allowed_views(seat)
        every_view = len(views) == len(VIEWS)
        planes = self.planes
        found = []
        for origins, every, cells, by_colour in rots:
            m = every if every_view else sum(origins[v] for v in views)
            if new is not None:
                touch = 0
                for sh in by_colour[colour]:
                    touch |= newm >> sh
                m &= touch
            for c, sh in cells:
                if not m:
                    break
                m &= planes[c] >> sh
            found.append(m)
        if any(found):
            for v in views:
                for r, m in enumerate(found):
                    m = (m >> (v * G.VIEW_BITS)) & G.VIEW_MASK
                    if m:
                        low = (m & -m).bit_length() - 1
                        return v, r, low % G.VSTRIDE, low // G.VSTRIDE
        return None

    def claim_slots(self, seat: int, wanted: frozenset[int] | set[int] | None = None) -> list[list[ClaimSlot]]:
        """Per colour code, the (key, rotation) pairs of `seat`'s hand that a new cube of that colour could
        complete, each as (`corners` where every cell of another colour already shows, `need`, the colour's
        cell shifts, the other cells' shifts, the `complete` corners, whose cells of the colour all show it
        already, the key). What `would_claim` tests, with the part that does not depend on the placement done once
        per position (see `claiming`). `need`: the view cells a claiming block must show on, at least one: at an
        incomplete corner it must cover every missing cell, at a complete one any cell of the colour. Only the
        `wanted` colour codes, if given (the colours of the blocks being placed)."""
        views = self.allowed_views(seat)
        every_view = len(views) == len(VIEWS)
        planes = self.planes
        slots: list[list[ClaimSlot]] = [[] for _ in planes]
        only = views[0] if len(views) == 1 else -1
        for k in self.hands[seat]:
            for origins, every, groups in self._fixed.claims[k]:
                base = every if every_view else origins[only] if only >= 0 else sum(origins[v] for v in views)
                for colour, mine, others, other in groups:
                    if wanted is not None and colour not in wanted:
                        continue
                    m = base
                    for c, sh in others:
                        m &= planes[c] >> sh
                        if not m:
                            break
                    else:
                        have = planes[colour]
                        hot = 0
                        complete = m
                        for sh in mine:
                            hot |= m << sh
                            complete &= have >> sh
                        need = hot & ~have
                        if complete:
                            for sh in mine:
                                need |= complete << sh
                        slots[colour].append((m, need, mine, other, complete, k))
        return slots

    def claiming(self, seat: int, places: list[Place]) -> list[Place]:
        """The placements among `places` that claim one of `seat`'s keys, in their order (see `claims`)."""
        return [p for p, _ in self.claims(seat, places)]

    def claims(self, seat: int, places: list[Place], every: bool = False) -> list[tuple[Place, int]]:
        """The placements among `places` that claim one of `seat`'s keys (in their order), exactly as
        `would_claim` says, each with the keys it claims as a bit mask (bit k: key k; with `every` False only
        the first key found, enough to know that it claims), but faster for the many placements search lists:
        the (key, rotation) pairs a colour could complete are found once (`claim_slots`); their cells, traced
        back along the lines of sight to the temple cells in front of what each view shows (`G.sight_rows`,
        `G.in_front`), rule out with one AND the placements that show on none of their `need` cells; the others
        get their view cells (each temple cell's asked once per call) and are tested only against the pairs they
        show on: at some corner every cell of the colour shows it, the block is on one of them, and on no cell of
        another colour (what `would_claim` checks on copied planes)."""
        index, block_colour = _block_index(self.comp), self._fixed.colour
        found = self._claim_reach(seat, {block_colour[index[bid]] for bid in {p.block for p in places}})
        if found is None:
            return []
        reach = found[1]
        groups = []  # one per placement, its anchor dropped unless it covers some of its colour's `reach`
        for p in places:
            b = index[p.block]
            groups.append((b, p.orient, (1 << G.idx(p.x, p.y, p.z)) & _reaching(
                self.orientation_list(b)[p.orient].offs, reach[block_colour[b]])))
        return [(places[i], keys) for i, _, keys, _ in self._claims_in(seat, groups, found[0], every)]

    def _block_claims(self, seat: int, blocks: list[int], every: bool) -> list[tuple[Place, int]]:
        """`claims` of every placement of these blocks (in `placements` order, block after block): `_block_claimed`
        with a `Place` for each."""
        groups, claimed = self._block_claimed(seat, blocks, every)
        return [(self._group_place(groups[i], a), keys) for i, a, keys, _ in claimed]

    def _block_claimed(self, seat: int, blocks: list[int], every: bool, keep: int = 0
                       ) -> tuple[list[tuple[int, int, int]], list[tuple[int, int, int, int]]]:
        """The groups (block, orientation, anchor bits) and `_claims_in`'s claims among every placement of these
        blocks, with the placements whose cells miss `_claim_reach`'s cells ruled out per orientation, a few shifts
        for all its anchors, before any `Place` is looked at: search asks this for every position it meets, and
        makes a `Place` only for the claims it keeps (`_group_place`). With `keep`, only the `keep` best claims
        (`_claims_in`)."""
        fixed = self._fixed
        groups: list[tuple[int, int, int]] = []
        found = self._claim_reach(seat, {fixed.colour[b] for b in blocks})
        if found is None:
            return groups, []
        self._reaching_groups(groups, blocks, found[1])
        if keep:
            return groups, self._claims_in(seat, groups, found[0], every, (0, -N_CELLS), True, keep)
        return groups, self._claims_in(seat, groups, found[0], every)

    def _reaching_groups(self, groups: list[tuple[int, int, int]], blocks: list[int], reach: list[int]) -> None:
        """Append to `groups` (block, orientation, anchor bits) the placements of these blocks that cover one of
        their colour's `reach` cells."""
        fixed = self._fixed
        for b in blocks:
            r = reach[fixed.colour[b]]
            if not r:
                continue
            oris = self.orientation_list(b)
            for n, m in enumerate(self.spot_masks(fixed.shape[b])):
                if m:
                    m &= _reaching(oris[n].offs, r)
                    if m:
                        groups.append((b, n, m))

    def _group_place(self, group: tuple[int, int, int], a: int) -> Place:
        """The `Place` of a group's block and orientation at anchor bit a."""
        b, n, _ = group
        fixed = self._fixed
        bid = self.comp.block_ids[b]
        return _place_at(_place_rows("place", bid, len(fixed.plans[fixed.shape[b]][0])), "place", bid, n, a)

    def _claim_reach(self, seat: int, wanted: set[int]) -> tuple[list[list[ClaimSlot]], list[int]] | None:
        """(`claim_slots` for these colours, per colour the temple cells a claiming block must cover one of),
        or None when no key of the seat can be claimed with them."""
        slots = self.claim_slots(seat, wanted)
        if not any(slots):
            return None
        views = self.allowed_views(seat)
        temple = self._temple()
        front = temple.front
        if front is None:  # it follows from the occupied cells: once per temple
            front = temple.front = G.in_front(self.occ, self.W, self.D)
        rows = G.sight_rows(self.W, self.D)
        reach = [0] * len(slots)
        for colour, group in enumerate(slots):
            if not group:
                continue
            hot = 0
            for _, need, _, _, _, _ in group:
                hot |= need
            r = 0
            for v in views:
                part = (hot >> (v * G.VIEW_BITS)) & G.VIEW_MASK
                if part:
                    lines = 0
                    for at, table in rows[v]:
                        byte = (part >> at) & 0xFF
                        if byte:
                            lines |= table[byte]
                    r |= lines & front[v]
            reach[colour] = r
        return slots, reach

    def _claims_in(self, seat: int, groups: list[tuple[int, int, int]], slots: list[list[ClaimSlot]],
                   every: bool, beat: tuple[int, int] | None = None, ties: bool = False, keep: int = 1
                   ) -> list[tuple[int, int, int, int]]:
        """The rest of `claims`: each placement (one that covers some of its colour's `reach`) tested against the
        (key, rotation) pairs it shows on. The placements come in groups (block, orientation, anchor bits at `G.idx`),
        their cells from the orientation's `BlockTemplate` moved to each anchor: no `Place` is needed (no
        hashing, no memo of each placement's cells). The claims: (group index, anchor bit, keys, the plane bits where
        the block would show: what its Enigma gain is read from, `_claim_gains`). With `beat` (points, gain), for the
        best claims (`_top_claims`, `_best_places`): only the `keep` claims of the most points, if more than `beat`'s;
        with `ties`, of the most points, then the most Enigma gain, then first listed, if at least `beat`; in listing
        order. A placement that shows on the cells of too few keys to do as well as the last kept once `keep` are,
        or (`ties`) with too little gain, is not tested, nor (without `ties`) the rest of a colour after a claim of
        all the keys its slots hold."""
        views = self.allowed_views(seat)
        fixed = self._fixed
        planes, vdep, proj, templates, shape, colours = (self.planes, self.vdep, fixed.proj, fixed.templates,
                                                         fixed.shape, fixed.colour)
        temple = self._temple()
        by_views = temple.shows
        if by_views is None:
            by_views = temple.shows = {}
        show = by_views.get(views)  # per temple cell, the plane bits where a cube would show
        if show is None:
            show = by_views[views] = [None] * N_CELLS
        out: list[tuple[int, int, int, int]] = []
        cslots: list[ClaimSlot] = []
        known: dict[int, int] = {}  # per colour, keys claimed by the block's bits that matter to its slots (below)
        colour = -1
        relevant = 0
        points = fixed.points
        best, best_gain = beat if beat is not None else (0, 0)
        want = side = covered = 0  # with `ties`: the Enigma colour, the seat's side view, its faces of that colour
        if ties:
            want = self.comp.enigmas[self.enigma[seat]] + 1
            side = G.VIEW_MASK << self.view_of[seat] * G.VIEW_BITS
            covered = planes[want] & side
        gain = 0
        tie = ties  # claims as good as `beat` while fewer than `keep` are kept, then only better (ties: listed first)
        worth: dict[int, int] = {}  # keys -> their points
        kept: list[tuple[int, int, int, int, int, int, int]] = []  # with `beat`, a heap: (points, gain, -order, claim)
        order = 0
        per_key: list[tuple[int, int]] = []  # with `beat`: per key of the colour's slots, (their cells, its points)
        most = 0  # with `beat`: the points of all of them
        done = -1  # with `beat`: a colour none of whose placements can do better
        for gi, (b, o, anchors) in enumerate(groups):
            if colours[b] == done:
                continue
            if colours[b] != colour:
                colour = colours[b]
                cslots = slots[colour]
                known = {}
                if beat is not None:
                    needs: dict[int, int] = {}
                    for slot in cslots:
                        needs[slot[5]] = needs.get(slot[5], 0) | slot[1]
                    per_key = [(need, points[k]) for k, need in needs.items()]
                    most = sum(p for _, p in per_key)
                # the test reads the new block's view bits only at its slots' cells: placements that show the same
                # there claim the same keys (blocks of one colour showing alike, or differing only elsewhere)
                relevant = 0
                for m, _, mine, other, _, _ in cslots:
                    for sh in mine:
                        relevant |= m << sh
                    for sh in other:
                        relevant |= m << sh
            goffs = templates[shape[b] * 32 + o][2]
            while anchors:
                low = anchors & -anchors
                anchors ^= low
                a = low.bit_length() - 1
                g0 = GIDX_AT[a]
                newm = 0
                for dg in goffs:
                    g = g0 + dg
                    shows = show[g]
                    if shows is None:
                        shows = 0
                        row = proj[g]
                        for v in views:
                            i, key, bit = row[v]
                            if key > vdep[v][i]:
                                shows |= bit
                        show[g] = shows
                    newm |= shows
                if beat is not None:  # a claim's keys are among those whose cells it shows on
                    bound = 0
                    for need, p in per_key:
                        if newm & need:
                            bound += p
                    if ties:  # as `_claim_gains`
                        gain = (newm & side).bit_count() if colour == want else -(newm & covered).bit_count()
                    if bound < best or (bound == best and (gain < best_gain or (gain == best_gain and not tie))):
                        continue
                    order += 1
                seen = newm & relevant
                got = known.get(seen, -1)
                if got < 0:
                    got = known[seen] = _claimed_by(newm, planes[colour] | newm, cslots, every)
                if got:
                    if beat is not None:
                        p = worth.get(got, -1)
                        if p < 0:
                            p = worth[got] = self._points(got)
                        if p < best or (p == best and (gain < best_gain or (gain == best_gain and not tie))):
                            continue
                        if len(kept) < keep:
                            heapq.heappush(kept, (p, gain, -order, gi, a, got, newm))
                        else:
                            heapq.heapreplace(kept, (p, gain, -order, gi, a, got, newm))
                        if len(kept) == keep:  # the last kept is the one to beat
                            best, best_gain = kept[0][0], kept[0][1]
                            tie = False
                        if p >= most and not ties:  # no placement of this colour can do better
                            anchors = 0
                            done = colour
                    else:
                        out.append((gi, a, got, newm))
        if beat is not None:
            kept.sort(key=lambda c: -c[2])
            return [(gi, a, got, newm) for _, _, _, gi, a, got, newm in kept]
        return out

    def keys_within_reach(self, seat: int) -> set[int]:
        """The keys of `seat`'s hand that one placement of a block it holds would claim now (ignoring whose
        turn it is)."""
        within = self._reach(seat)[0]
        return {k for k in self.hands[seat] if within >> k & 1}

    def best_claim_points(self, seat: int) -> int:
        """The most key points one placement of a block `seat` holds would claim now (several keys at once
        count together): what the evaluation values as keys within reach. Memoised like `search_moves`."""
        if not self.hands[seat]:
            return 0
        key = ("best", *self._memo_key(seat))
        hit = _MEMO.get(key)
        if hit is None:
            hit = _memo(key, self._top_claims(seat, False)[0])
        return hit  # type: ignore[no-any-return]

    def _top_claims(self, seat: int, ties: bool
                    ) -> tuple[int, list[tuple[list[tuple[int, int, int]], list[tuple[int, int, int, int]]]]]:
        """(the most points one placement of a block `seat` holds would claim now, placements claiming that many:
        per colour its groups and `_claims_in`'s claim; with `ties`, of every colour with one of the most Enigma
        faces among them, its first), without listing every claim: evaluation asks this of every seat at the end of
        every playout, and the playout plays the best claim, late in a game when most placements claim. Colour by
        colour, the colour whose keys could bring the most points first, and no colour or placement that could not
        do as well as the best so far (`_claims_in` with `beat`)."""
        fixed = self._fixed
        colour = fixed.colour
        blocks = sorted(self.supply[seat])
        found = self._claim_reach(seat, {colour[b] for b in blocks})
        if found is None:
            return 0, []
        slots, reach = found
        bounds: list[tuple[int, int]] = []  # (the most a block of the colour could claim, colour)
        for c, group in enumerate(slots):
            if group and reach[c]:
                keys = 0
                for slot in group:
                    keys |= 1 << slot[5]
                bounds.append((self._points(keys), c))
        bounds.sort(reverse=True)
        best = 0
        best_gain = -N_CELLS if ties else 0  # below any gain; without `ties` gains are not compared (0)
        top: list[tuple[list[tuple[int, int, int]], list[tuple[int, int, int, int]]]] = []
        for most, c in bounds:
            if most < best or (most == best and not ties):
                break
            groups: list[tuple[int, int, int]] = []
            self._reaching_groups(groups, [b for b in blocks if colour[b] == c], reach)
            better = self._claims_in(seat, groups, slots, True, (best, best_gain), ties)
            if better:
                p = self._points(better[0][2])
                gain = self._claim_gains(seat, groups, better[:1])[0] if ties else 0
                if p > best or gain > best_gain:
                    best, best_gain = p, gain
                    top = []
                top.append((groups, better))
        return best, top

    def _reach(self, seat: int) -> tuple[int, int]:
        """(mask of the keys within reach, the best placement's points), memoised like `search_moves`."""
        if not self.hands[seat]:
            return 0, 0
        key = ("reach", *self._memo_key(seat))
        hit = _MEMO.get(key)
        if hit is None:
            got = best = 0
            fixed, colour = self._fixed.keys, self._fixed.colour  # only blocks of a colour some key uses
            used = set().union(*(fixed[k][1] for k in self.hands[seat]))
            seen: set[int] = set()  # many placements claim the same keys: their points once
            for _, _, keys, _ in self._block_claimed(seat, [b for b in sorted(self.supply[seat]) if colour[b] in used],
                                                     True)[1]:
                if keys not in seen:
                    seen.add(keys)
                    got |= keys
                    best = max(best, self._points(keys))
            hit = _memo(key, (got, best))
        return hit  # type: ignore[no-any-return]

    def _points(self, keys: int) -> int:
        """The points of the keys in a bit mask (bit k: key k)."""
        points = self._fixed.points
        total = 0
        while keys:
            low = keys & -keys
            total += points[low.bit_length() - 1]
            keys ^= low
        return total

    def _memo_key(self, seat: int) -> tuple[Any, ...]:
        """Everything a seat's placements, claims and Enigma gains depend on: search meets the same position
        under many determinizations (the root in every iteration), and only the hidden cards differ."""
        return (id(self._fixed), self.num_players, self.options["key_views"], self.columns, self.core_turn,
                tuple(self.placed),
                seat, tuple(sorted(self.hands[seat])), tuple(sorted(self.supply[seat])), self.enigma[seat])

    def would_claim(self, seat: int, p: Place) -> bool:
        """Would placing `p` claim at least one of `seat`'s keys? Answered on the colour planes without
        changing the state (the new block's visible cells are found from the depth maps): the plain test that
        `claiming` must agree with."""
        comp = self.comp
        b = _block_index(comp)[p.block]
        colour = comp.block_colour(b) + 1
        keys = [k for k in self.hands[seat] if colour in self._fixed.keys[k][1]]
        if not keys:
            return False
        proj = G.projections(self.W, self.D)
        cells = [proj[gidx(p.x + dx, p.y + dy, p.z + dz)] for dx, dy, dz in self.orientation(b, p.orient).cubes]
        views = self.allowed_views(seat)
        newm = 0
        for v in views:
            dep = self.vdep[v]
            for cell in cells:
                i, key, bit = cell[v]
                if key > dep[i]:
                    newm |= bit
        if not newm:
            return False
        keep = ~newm
        planes = [q & keep for q in self.planes]
        planes[colour] |= newm
        every_view = len(views) == len(VIEWS)
        return any(_shows_key(self._fixed.keys[k][0], every_view, views, newm, planes, colour) for k in keys)

    def search_moves(self) -> list[BKAction]:
        """A smaller set of turn actions for search: when some placement claims a key, only those placements,
        the SEARCH_PLACEMENTS that claim the most points (then show the most faces of the player's Enigma colour
        on its own side; ties in listing order): which claim matters, and a few hundred claiming placements
        would leave each a visit or two; otherwise the digs (just one with 5 or more blocks held) and the
        SEARCH_PLACEMENTS placements best for the Enigma colour. Other phases: every action."""
        return self._search()[1]

    def _search(self, playout: bool = False) -> tuple[bool, list[BKAction]]:
        """(whether the moves are the best claims, `search_moves`; for the `playout`, which plays the first claim,
        only that one). A turn's list is counted, not built, unless it is short enough to be the answer."""
        seat = self.actor
        if self.phase != "turn" or seat is None:
            return False, self.legal_actions()
        digs, _, total = self._turn_choices(seat)
        if total <= SEARCH_PLACEMENTS:
            return False, self.legal_actions()
        claim, best = self._ranked(seat, playout)
        if claim:
            return True, best
        if len(self.supply[seat]) >= 5:
            digs = digs[:1]  # a full hand: one dig is enough to keep the option open
        return False, [*digs, *best]

    def _ranked(self, seat: int, playout: bool = False) -> tuple[bool, list[BKAction]]:
        """`_best_places` of the turn's placements, memoised (`_memo_key`). For the `playout`, unless known, just the
        first claim (`_best_claim`, not memoised: a playout's positions are mostly new), or the memo's answer when
        none claims."""
        key = ("search", *self._memo_key(seat))
        hit = _MEMO.get(key)
        if hit is None:
            if playout:
                first = self._best_claim(seat)
                if first is not None:
                    return True, [first]
                return _memo(key, (False, self._enigma_places(seat, sorted(self.supply[seat]))))  # type: ignore[no-any-return]
            hit = _memo(key, self._best_places(seat, sorted(self.supply[seat])))
        return hit  # type: ignore[no-any-return]

    def _best_claim(self, seat: int) -> Place | None:
        """The first of `search_moves`' claims (the most points, then the most Enigma faces, then listing order), or
        None when no placement claims, without ranking every claim (`_top_claims`)."""
        pick: tuple[tuple[int, int, int], int] | None = None
        order = (0, 0, 0)
        for groups, claims in self._top_claims(seat, True)[1]:  # of equal points and gains
            gi, a, _, _ = claims[0]  # each colour's first in listing order: blocks ascending, orientation, anchor
            here = (groups[gi][0], groups[gi][1], a)
            if pick is None or here < order:
                pick, order = (groups[gi], a), here
        return None if pick is None else self._group_place(*pick)

    def playout_move(self, rng: Rng) -> BKAction:
        """The playout policy: the best claim (most points, then Enigma faces) when a placement claims,
        otherwise a uniform pick from `search_moves`."""
        claim, moves = self._search(True)
        if claim:
            return moves[0]
        return moves[rng.randbelow(len(moves))] if len(moves) > 1 else moves[0]

    def _best_places(self, seat: int, blocks: list[int]) -> tuple[bool, list[BKAction]]:
        """(whether some placement claims, the SEARCH_PLACEMENTS best placements as `search_moves` says) among
        the placements of `blocks` (ascending); the kept ones found by their index in listing order."""
        groups, claim = self._block_claimed(seat, blocks, True, SEARCH_PLACEMENTS)
        if claim:
            gains = self._claim_gains(seat, groups, claim)
            points: dict[int, int] = {}  # many placements claim the same keys
            scored: list[tuple[int, int, int]] = []
            for i, (_, _, keys, _) in enumerate(claim):
                p = points.get(keys)
                if p is None:
                    p = points[keys] = self._points(keys)
                scored.append((-p, -gains[i], i))
            scored.sort()
            return True, [self._group_place(groups[claim[i][0]], claim[i][1]) for *_, i in scored[:SEARCH_PLACEMENTS]]
        return False, self._enigma_places(seat, blocks)

    def _enigma_places(self, seat: int, blocks: list[int]) -> list[BKAction]:
        """The SEARCH_PLACEMENTS placements of `blocks` (ascending) best for the seat's Enigma colour (ties in
        listing order): `search_moves` when none claims."""
        shape = self._fixed.shape  # every placement, as groups in listing order
        groups = [(b, n, m) for b in blocks for n, m in enumerate(self.spot_masks(shape[b])) if m]
        gains = self._gains(seat, groups)
        best = sorted(zip((-g for g in gains), range(len(gains)), strict=True))
        held = [(b, self.spot_count(shape[b])) for b in blocks]
        return [self._nth_place(held, i) for _, i in best[:SEARCH_PLACEMENTS]]

    def enigma_gains(self, seat: int, places: list[Place]) -> list[int]:
        """Per placement, the faces of the seat's Enigma colour it adds to (or, another colour, hides from)
        the seat's own side view."""
        index = _block_index(self.comp)
        return self._gains(seat, [(index[p.block], p.orient, 1 << G.idx(p.x, p.y, p.z)) for p in places])

    def _claim_gains(self, seat: int, groups: list[tuple[int, int, int]], claim: list[tuple[int, int, int, int]]
                     ) -> list[int]:
        """`enigma_gains` of `_claims_in`'s claims, read from the plane bits where each would show (the seat's own
        side view is one of its allowed views): the faces it adds to that view if of the Enigma colour, else
        minus the faces of that colour it covers there."""
        want = self.comp.enigmas[self.enigma[seat]] + 1
        own = self.view_of[seat] * G.VIEW_BITS
        side = G.VIEW_MASK << own
        covered = self.planes[want] & side
        colours = self._fixed.colour
        return [(newm & side).bit_count() if colours[groups[gi][0]] == want else -(newm & covered).bit_count()
                for gi, _, _, newm in claim]

    def _gains(self, seat: int, groups: list[tuple[int, int, int]]) -> list[int]:
        """`enigma_gains` of placements in groups (block, orientation, anchor bits at `G.idx`; as `_claims_in`),
        in order, each anchor ascending: the cells from the orientation's template, no `Place` needed."""
        want = self.comp.enigmas[self.enigma[seat]] + 1
        own = self.view_of[seat]
        dep, shows = self.vdep[own], self.vcol[own]
        fixed = self._fixed
        proj, templates, shape, colours = fixed.proj, fixed.templates, fixed.shape, fixed.colour
        out = []
        for b, o, anchors in groups:
            colour = colours[b]
            goffs = templates[shape[b] * 32 + o][2]
            while anchors:
                low = anchors & -anchors
                anchors ^= low
                g0 = GIDX_AT[low.bit_length() - 1]
                cells = set()
                for dg in goffs:
                    j, key, _ = proj[g0 + dg][own]
                    if key > dep[j]:
                        cells.add(j)
                if colour == want:
                    out.append(len(cells))
                else:
                    out.append(-sum(1 for j in cells if shows[j] == want))
        return out

    def _matches(self, seat: int, b: int, shown: int | None = None) -> list[int]:
        """Every key of the seat's hand that block b, just placed and showing at `shown`, completes: `key_match`
        with a new block, asked once per placement with the work common to the keys (colour, views, where the
        block shows) done once, and a key of none of the block's colour skipped at once."""
        hand = self.hands[seat]
        colour = self._fixed.colour[b]
        if not hand or not colour:  # the core (colour 0: one per view) is never placed; the plain test for it
            return [k for k in sorted(hand) if self.key_match(k, seat, b, shown) is not None]
        newm = shown if shown is not None else self.new_mask(b)
        out: list[int] = []
        if not newm:
            return out
        views = self.allowed_views(seat)
        fixed = self._fixed
        planes, keys = self.planes, fixed.keys
        native = fixed.native
        if native is not None:  # every candidate key at once in the C helper (`G.key_program`), same answers
            cand = [k for k in sorted(hand) if colour in keys[k][1]]
            if not cand:
                return out
            programs = fixed.key_programs
            progs: list[bytes] = []
            for k in cand:
                pk = (k, colour, views)
                prog = programs.get(pk)
                if prog is None:
                    prog = programs[pk] = G.key_program(keys[k][0], colour, views)
                progs.append(prog)
            got: int = native[2](progs, newm, planes)
            for i, k in enumerate(cand):
                if got >> i & 1:
                    out.append(k)
            return out
        every_view = len(views) == len(VIEWS)
        for k in sorted(hand):
            rots, colours = keys[k]
            if colour not in colours:
                continue
            if _shows_key(rots, every_view, views, newm, planes, colour):
                out.append(k)
        return out

    def _take(self, seat: int, k: int) -> None:
        """Claim key k: shown face up (a reveal: an undo barrier)."""
        self.hands[seat].remove(k)
        self.claimed[seat].append(k)
        self.claimed_now.append(k)
        self.reveals += 1

    def _claims_asked(self, seat: int, matched: list[int]) -> bool:
        """Whether the player is asked which completed keys to claim (SEED 「即可完成該張鑰匙卡」: they may),
        rather than every one being claimed at once: only where claiming can be worse than not (docs: D6). Solo,
        before turn 11: a claim brings a card, which brings the Ancients. With others: when claiming could start
        the last round; asked after every placement then, whatever matched, since the question itself must not
        tell the others whether the hand holds a completed key (claimed and hand counts are public)."""
        if self.solo:
            return bool(matched) and self.solo_turn < SOLO_TURNS
        return not self.final and len(self.claimed[seat]) + len(self.hands[seat]) >= THRESHOLD[self.num_players]

    # -- the bag and the site ------------------------------------------------------------------------------
    def _draw_block(self) -> int:
        self.reveals += 1
        return self.bag.pop(self.rng.randbelow(len(self.bag)))

    def _refill_site(self) -> None:
        """Every empty site, lowest number first, gets a block from the bag while it has any."""
        for i in range(9):
            if self.site[i] < 0 and self.bag:
                self.site[i] = self._draw_block()

    def _return_block(self, b: int) -> None:
        self.bag.append(b)
        self.bag.sort()

    # -- core protocol ----------------------------------------------------------------------------------------
    @property
    def current_player(self) -> int | None:
        return self.actor

    @property
    def is_over(self) -> bool:
        return self.actor is None

    def legal_actions(self) -> list[BKAction]:  # type: ignore[override]
        if self._legal is None:
            cached = self._cache
            self._legal = cached if cached is not None else _Legal([] if self.is_over else self._legal_actions())
            self._cache = self._legal
        return self._legal  # type: ignore[return-value]

    def _legal_actions(self) -> list[BKAction]:  # type: ignore[override]
        p = self.actor
        assert p is not None
        ph = self.phase
        if ph == "orient":
            return list(A.ORIENT)
        if ph in ("draft", "turn"):
            acts = list(self._digs())
            if ph == "turn":
                for b in sorted(self.supply[p]):
                    acts += self.placements(b)
            return acts or [A.PASS]
        if ph == "return":
            return [BlockAct("return", self.comp.block_ids[b]) for b in sorted(self.supply[p])]
        if ph == "draw":
            return [A.DRAW[d] for d in (SUN, MOON) if self.decks[d]]
        if ph == "marker":
            return [A.MARKER[d] for d in (SUN, MOON) if self.decks[d]]
        if ph == "discard":
            return [A.KEEP, *[KeyAct("discard", self.comp.keys[k].id)
                              for k in sorted(self.hands[p]) if self.comp.keys[k].deck != "star"]]
        if ph == "ancient":
            return list(self.ancient_opts)
        if ph == "claim":
            return [*(KeyAct("claim", self.comp.keys[k].id) for k in sorted(self.offer)), A.STOP]
        raise AssertionError(ph)

    def _digs(self) -> tuple[BKAction, ...]:
        """The digs of the site's lines that still hold a block: the start of a `draft` or `turn` legal list. Looked
        up by which sites hold a block (`_DIGS`): a turn asks for them several times."""
        site = self.site
        m = 0
        for i in range(9):
            if site[i] >= 0:
                m |= 1 << i
        return _DIGS[m]

    def random_action(self, below: Callable[[int], int]) -> Any:
        """`legal_actions()[below(len)]` without the list in a turn (its ~100-200 `Place`s were most of a random
        decision's cost): the length is the digs plus the popcounts of the held blocks' spot masks, and the index
        is walked through them in the list's order (blocks ascending, orientation, anchor bit ascending) to the one
        placement made. Same index, same draws as the list."""
        p = self.actor
        if p is None or self._legal is not None or self._cache is not None:
            return super().random_action(below)
        if self.phase != "turn":  # a short list: drawn from, not kept (nor wrapped in `_Legal` for apply's check)
            legal = self._legal_actions()
            pick: BKAction = legal[below(len(legal))]
            self._drawn = pick
            return pick
        digs, held, total = self._turn_choices(p)
        if not total:  # the list is [pass]
            return super().random_action(below)
        k: int = below(total)
        pick = digs[k] if k < len(digs) else self._nth_place(held, k - len(digs))
        self._drawn = pick  # legal, as long as nothing is applied (`is_legal`)
        return pick

    def _nth_place(self, held: list[tuple[int, int]], k: int) -> Place:
        """The k-th placement of a turn's list without the list: `held` is (block, `spot_count`) per held block,
        ascending; within a block, orientations in order, each one's anchors ascending."""
        for b, count in held:
            if k < count:
                masks = self.spot_masks(self._fixed.shape[b])
                for n, m in enumerate(masks):
                    c = m.bit_count()
                    if k < c:
                        for _ in range(k):
                            m &= m - 1  # clear the lowest anchor
                        bid = self.comp.block_ids[b]
                        return _place_at(_place_rows("place", bid, len(masks)), "place", bid, n,
                                         (m & -m).bit_length() - 1)
                    k -= c
            k -= count
        raise AssertionError("index beyond the placements counted")

    def _turn_choices(self, p: int) -> tuple[tuple[BKAction, ...], list[tuple[int, int]], int]:
        """A turn's legal list unbuilt: its digs, per held block (ascending) how many placements it has, and how
        many actions they make (0: the list is [pass])."""
        digs = self._digs()
        shape = self._fixed.shape
        held = [(b, self.spot_count(shape[b])) for b in sorted(self.supply[p])]
        total = len(digs)
        for _, c in held:
            total += c
        return digs, held, total

    def is_legal(self, action: object) -> bool:
        """`action in legal_actions()` without the list for a turn's dig or placement (what `random_action` gives):
        a placement's block held and its anchor bit in the orientation's spot mask. Anything not exactly a `Dig` or
        a `Place` of ints asks the list, as does any state whose list is built."""
        if action is self._drawn and action is not None:  # what `random_action` just drew from this very position
            return True
        p = self.actor
        if p is None or self.phase != "turn" or self._legal is not None or self._cache is not None:
            return super().is_legal(action)
        if type(action) is Dig:  # (of a different length from every other action of a turn)
            return action in self._digs()
        if type(action) is not Place or action.kind != "place":
            return super().is_legal(action)
        fields: tuple[object, ...] = action  # read untyped: compiled code would refuse a float where an int is declared
        _, bid, o, x, y, z = fields
        if type(bid) is not str or type(o) is not int or type(x) is not int or type(y) is not int or type(z) is not int:
            return super().is_legal(action)
        b = _block_index(self.comp).get(bid, -1)
        if b not in self.supply[p]:
            return False
        masks = self.spot_masks(self._fixed.shape[b])
        a = G.idx(x, y, z)
        return 0 <= o < len(masks) and 0 <= a < len(G.CELL_OF) and G.CELL_OF[a] == (x, y, z) and bool(masks[o] >> a & 1)

    def _apply(self, action: BKAction) -> None:  # type: ignore[override]
        self._cache = None
        self._drawn = None
        p = self.actor
        assert p is not None
        comp = self.comp
        if isinstance(action, Orient):
            self._turn_core(action.turn)
            self.phase = "draft"
            self.actor = self.draft.pop(0)
        elif isinstance(action, Dig):
            self.passes = 0
            for s in SITE_LINES[action.line]:
                if self.site[s] >= 0:
                    self.supply[p].append(self.site[s])
                    self.site[s] = -1
            self._refill_site()
            if self.phase == "draft":
                if self.draft:
                    self.actor = self.draft.pop(0)
                else:
                    self._start_turn(0)
            else:
                self.claimed_now = []
                self.phase = "return"
        elif isinstance(action, Place) and action.kind == "place":
            self.passes = 0
            b = _block_index(comp)[action.block]
            self.supply[p].remove(b)
            shown = self._place(b, action.orient, action.x, action.y, action.z, p)
            matched = self._matches(p, b, shown)
            self.claimed_now = []
            if self._claims_asked(p, matched):
                self.offer = matched
                self.phase = "claim"
            else:
                if not self.solo and self.hands[p]:
                    # the check of the hidden hand is public (a completed key must be shown, SEED 「必須公開」): a
                    # placement that claims nothing tells the table that no key of the hand matched, so it is a
                    # reveal too, an undo barrier (a world where the hand matched goes on differently: #33's
                    # "who is asked" test)
                    self.reveals += 1
                for k in matched:
                    self._take(p, k)
                self._after_action()
        elif isinstance(action, BlockAct):
            b = _block_index(comp)[action.block]
            self.supply[p].remove(b)
            self._return_block(b)
        elif isinstance(action, DeckAct) and action.kind == "draw":
            k = self.decks[action.deck].pop()
            self.known_bottom[action.deck] = min(self.known_bottom[action.deck], len(self.decks[action.deck]))
            self.hands[p].append(k)
            self.drew += 1
            self.last_drawn = k
            self.reveals += 1
        elif isinstance(action, DeckAct):  # solo marker
            k = self.decks[action.deck].pop()
            self.known_bottom[action.deck] = min(self.known_bottom[action.deck], len(self.decks[action.deck]))
            self.markers.append((action.deck, k))
            self.reveals += 1
            self.phase = "discard"
        elif isinstance(action, KeyAct) and action.kind == "claim":
            k = next(i for i in self.offer if comp.keys[i].id == action.key)
            self.offer.remove(k)
            self._take(p, k)
        elif action == A.STOP:
            self.offer = []
            self._after_action()
        elif isinstance(action, KeyAct):
            k = next(i for i in self.hands[p] if comp.keys[i].id == action.key)
            self.hands[p].remove(k)
            d = SUN if comp.keys[k].deck == "sun" else MOON
            self.decks[d].insert(0, k)
            self.known_bottom[d] += 1
            self._to_draw()
        elif action == A.KEEP:
            self._to_draw()
        elif isinstance(action, Place):  # the Ancients' block
            b = _block_index(comp)[action.block]
            self._place(b, action.orient, action.x, action.y, action.z, -1)
            self.last_ancient = {"block": action.block, "placed": str(action)}
            self.ancient_block = -1
            self.ancient_opts = []
            self._end_turn()
        elif action == A.PASS:
            self.passes += 1
            self.claimed_now = []
            self._end_turn()
        self._settle()

    def _after_action(self) -> None:
        if self.solo:  # turn 11 too: the seed exempts only its Ancients' step (docs: S6)
            if self.claimed_now:
                self.phase = "discard"
            else:
                self.phase = "marker"
        else:
            self._to_draw()

    def _to_draw(self) -> None:
        self.drew = 0
        self.phase = "draw"

    def _settle(self) -> None:
        """Leave phases that are over and answer single-option questions, until a real decision."""
        while self.actor is not None:
            p = self.actor
            ph = self.phase
            if ph == "return" and len(self.supply[p]) <= HAND_LIMIT:
                self._after_action()
                continue
            if ph == "draw" and (len(self.hands[p]) >= KEY_HAND or not (self.decks[SUN] or self.decks[MOON])):
                if self.solo:
                    self._ancients()
                else:
                    self._end_turn()
                continue
            if ph == "marker" and not (self.decks[SUN] or self.decks[MOON]):
                self.phase = "discard"
                continue
            self._legal = self._cache = None
            if ph == "turn" and self._nothing_fits():
                self.actor = None  # no block left anywhere fits the temple: nothing can change (docs: D8)
                self.phase = "over"
                return
            if ph == "turn":  # a real choice unless the list is [pass]: a dig, else the placements counted, not listed
                if max(self.site) >= 0 or self._turn_choices(p)[2]:
                    return
                self._apply(A.PASS)
                continue
            legal = self.legal_actions()
            if len(legal) == 1 and (ph not in ("turn", "draft", "claim") or legal[0] == A.PASS
                                    or (ph == "claim" and self.solo)):
                # a forced answer (an altar, a pass, the one spot for the Ancients): not a decision, so not
                # in the log; a lone dig or placement is still asked, so every block placed is a logged move
                self._legal = None
                self._apply(legal[0])
                continue
            return

    def _nothing_fits(self) -> bool:
        """Whether no block left (held, on the site or in the bag) has a legal placement. Without this, players
        who can place nothing dig and return blocks for ever. Shapes held by the player to move are tried first:
        their placements are listed (and memoised) for the turn anyway, so usually one lookup answers."""
        p = self.actor
        assert p is not None
        shape = self._fixed.shape
        seen = 0  # bit sh: shape sh tried
        for group in (self.supply[p], *self.supply, self.site, self.bag):
            for b in group:
                if b >= 0:
                    sh = shape[b]
                    if not seen >> sh & 1:
                        seen |= 1 << sh
                        if any(self.spot_masks(sh)):
                            return False
        return True

    def _start_turn(self, seat: int) -> None:
        self.turn_seat = seat
        self.actor = seat
        self.phase = "turn"
        self.claimed_now = []
        if self.solo:
            self.solo_turn += 1

    def _end_turn(self) -> None:
        n = self.num_players
        if self.solo:
            if self.solo_turn >= SOLO_TURNS or self.passes >= 2:
                self.actor = None
                self.phase = "over"
                return
            self._start_turn(0)
            return
        seat = self.turn_seat
        if self.final:
            self.remaining -= 1
        elif len(self.claimed[seat]) >= THRESHOLD[n]:
            self.final = True
            self.remaining = n  # everyone, the trigger included, has one last turn (docs: D7)
        if (self.final and self.remaining <= 0) or self.passes >= n or len(self.history) + 1 >= SAFETY_DECISIONS:
            self.actor = None
            self.phase = "over"
            return
        self._start_turn((seat + 1) % n)

    # -- solo: the Ancients -----------------------------------------------------------------------------------
    def _ancients(self) -> None:
        """After a refill that brought a card: the last card drawn picks a site (pips) and a corner (stars).
        Not on the last turn (SEED 「遊戲進行到第 11 回合時,則不執行古人回合」)."""
        if not self.drew or self.last_drawn < 0 or self.solo_turn >= SOLO_TURNS:
            self._end_turn()
            return
        key = self.comp.keys[self.last_drawn]
        site = key.pips - 1
        b = self.site[site]
        self.last_ancient = {"card": key.id, "site": key.pips, "corner": key.stars, "block": None}
        if b < 0:
            self._end_turn()  # an empty site: the Ancients take nothing (docs: S4)
            return
        self.site[site] = -1
        self._refill_site()  # the general rule: an empty site is refilled at once (docs: S3)
        self.last_ancient["block"] = self.comp.block_ids[b]
        opts = self.ancient_placements(b, key.stars)
        if not opts:
            self._return_block(b)
            self.last_ancient["placed"] = None
            self._end_turn()
            return
        self.ancient_block = b
        self.ancient_opts = opts
        self.phase = "ancient"

    def corner_cell(self, stars: int) -> tuple[int, int]:
        """Stars 1-4: the player's front-left, front-right, back-right, back-left temple corner (as 2x grid
        line coordinates, so distances stay integers)."""
        W, D = self.W, self.D
        return ((0, 0), (2 * W, 0), (2 * W, 2 * D), (0, 2 * D))[stars - 1]

    def ancient_placements(self, b: int, stars: int) -> list[Place]:
        """Every legal placement of the Ancients' block touching (at least corner to corner) a block nearest the
        star corner (docs: S5): nearness picks only the block to touch; among the spots touching it the player
        chooses freely (SEED 「如果有多個可以擺放的位置,玩家可以任意選擇擺放位置」). Distances are squared, between
        the star corner and the centre of a cube's column (the block's nearest cube counts), in half cells;
        equally near blocks all qualify."""
        cx, cy = self.corner_cell(stars)
        grid, heights = self.grid, self.heights
        best = -1
        columns: list[int] = []  # the occupied columns nearest the corner (a cube's distance is its column's)
        for y in range(self.D):
            for x in range(self.W):
                col = x + MAX_FLOOR * y
                if heights[col]:
                    d = (2 * x + 1 - cx) ** 2 + (2 * y + 1 - cy) ** 2
                    if best < 0 or d < best:
                        best, columns = d, [col]
                    elif d == best:
                        columns.append(col)
        target = 0
        for col in columns:
            for z in range(heights[col]):
                blk = grid[col + MAX_FLOOR * MAX_FLOOR * z]
                if blk >= 0:
                    target |= self.bcells[blk]
        near = G.dilate(target)  # an anchor touches the target when one of its cubes is in here
        shape = self.comp.block_shape(b)
        oris = G.orientations(self.comp.shape_cells[shape])
        bid = self.comp.block_ids[b]
        out: list[Place] = []
        _places_reaching(out, _place_rows("ancients", bid, len(oris)), "ancients", bid, self.spot_masks(shape), oris,
                         near)
        return out

    # -- scoring ------------------------------------------------------------------------------------------------
    def enigma_faces(self, seat: int) -> int:
        """Faces of the seat's Enigma colour seen from its own side."""
        return self.view_faces(self.view_of[seat], self.comp.enigmas[self.enigma[seat]] + 1)

    def view_faces(self, v: int, colour: int = 0) -> int:
        """How many cells of view v show `colour` (a colour code), or (0) any of the four block colours: counted
        on the colour planes, since evaluation asks it of every seat at the end of every playout."""
        planes = self.planes
        shown = planes[colour] if colour else planes[1] | planes[2] | planes[3] | planes[4]
        return ((shown >> v * G.VIEW_BITS) & G.VIEW_MASK).bit_count()

    def key_points(self, seat: int) -> int:
        return sum(self.comp.keys[k].points for k in self.claimed[seat])

    def enigma_bonus(self, seat: int) -> int:
        f = self.enigma_faces(seat)
        return -(-f // 3) if self.options["enigma_rounding"] == "up" else f // 3

    def scores(self) -> list[Score]:
        n = self.num_players
        out = []
        for q in range(n):
            parts = {"keys": self.key_points(q), "enigma": self.enigma_bonus(q)}
            out.append(Score(sum(parts.values()), parts, (len(self.claimed[q]), len(self.supply[q]), -q)))
        return out

    def rating(self, lang: str = "en") -> str:
        """Solo: the title the rating table gives this score."""
        total = self.scores()[0].total
        title = self.comp.ratings[0][1]
        for lo, t in self.comp.ratings:
            if total >= lo:
                title = t
        return title.get(lang) or title.get("en", "")

    def winners(self) -> list[int]:
        return [0] if self.solo else super().winners()

    def returns(self) -> list[float]:
        if not self.solo:
            return super().returns()
        if not self.is_over:
            return [0.0]
        return [min(1.0, self.scores()[0].total / 60.0)]  # greedy averages about 42 solo

    # -- copies --------------------------------------------------------------------------------------------------
    def clone(self) -> BlockAndKeyState:
        s = BlockAndKeyState.__new__(BlockAndKeyState)
        self._copy_base(s)
        s._legal = self._legal  # immutable once built
        s._cache = self._cache
        s._drawn = None
        for name in _SHARED:
            setattr(s, name, getattr(self, name))
        s.rng = self.rng.copy()
        s.grid, s.heights, s.high = self.grid[:], self.heights[:], self.high[:]
        s.rise, s.btop, s.bcells = self.rise[:], self.btop[:], self.bcells[:]
        s.vcol = [r[:] for r in self.vcol]
        s.vown = [r[:] for r in self.vown]
        s.vdep = [r[:] for r in self.vdep]
        s.planes = self.planes[:]
        s.placed, s.bag, s.site = self.placed[:], self.bag[:], self.site[:]
        s.supply = [h[:] for h in self.supply]
        s.stars, s.decks = self.stars[:], [d[:] for d in self.decks]
        s.hands = [h[:] for h in self.hands]
        s.claimed = [h[:] for h in self.claimed]
        s.enigma, s.enigma_rest = self.enigma[:], self.enigma_rest[:]
        s.known_bottom, s.markers, s.draft = self.known_bottom[:], self.markers[:], self.draft[:]
        s.claimed_now = self.claimed_now[:]
        s.offer = self.offer[:]
        s.ancient_opts = self.ancient_opts[:]
        s.last_ancient = None if self.last_ancient is None else dict(self.last_ancient)
        return s

    def determinize(self, seat: int, rng: Rng) -> BlockAndKeyState:
        """Resample what `seat` cannot see: the other hands' keys (each keeps its deck, which the card back
        shows), the order of the Sun and Moon decks and the undealt Star keys (except cards the solo player
        put under an altar), face-down solo markers, the others' Enigma cards and the bag's order (the rng).
        Pools are sorted before shuffling, so the result depends only on the seat's information."""
        s = self.clone()
        comp = self.comp
        deck_of = {"star": 0, "sun": 1, "moon": 2}
        slots: list[list[tuple[list[int], int]]] = [[], [], []]
        for q in range(self.num_players):
            if q != seat:
                for i, k in enumerate(s.hands[q]):
                    slots[deck_of[comp.keys[k].deck]].append((s.hands[q], i))
        slots[0] += [(s.stars, i) for i in range(len(s.stars))]
        for d in (SUN, MOON):
            deck = s.decks[d]
            slots[d + 1] += [(deck, i) for i in range(s.known_bottom[d], len(deck))]
        marks = [list(m) for m in s.markers]
        for m in marks:
            slots[m[0] + 1].append((m, 1))
        for group in slots:
            pool = sorted(lst[i] for lst, i in group)
            rng.shuffle(pool)
            for (lst, i), k in zip(group, pool, strict=True):
                lst[i] = k
        s.markers = [(m[0], m[1]) for m in marks]
        if s.phase == "claim" and s.actor != seat and s.actor is not None:  # what the resampled hand completes
            s.offer = s._matches(s.actor, s.placed[-1][0])
        others = [q for q in range(self.num_players) if q != seat and not self.is_over]  # revealed at the end
        pool = sorted([s.enigma[q] for q in others] + s.enigma_rest)
        rng.shuffle(pool)
        for q in others:
            s.enigma[q] = pool.pop()
        s.enigma_rest = sorted(pool)
        s.rng = Rng(rng.next64())
        return s

    # -- views -------------------------------------------------------------------------------------------------
    def view_rows(self, v: int) -> list[str]:
        """View v as text rows, top row first: a colour letter, '*' for the core's gold top, '.' for empty."""
        U, V, col, _ = self.view_grid(v)
        letters = "." + "".join(self.comp.colours) + "*"
        return ["".join(letters[col[u + MAX_FLOOR * w]] for u in range(U)) for w in range(V - 1, -1, -1)]

    def _temple_json(self, sides: bool = True) -> dict[str, Any]:
        """The temple in JSON; `sides`: with the five side views as text rows (for people: the renderer and the
        key patterns' reader; an observation tensor reads the blocks instead, and the rows are most of the cost)."""
        comp = self.comp
        blocks = []
        for b, o, x, y, z, by in self.placed:
            ori = self.orientation(b, o)
            blocks.append({"block": comp.block_ids[b], "colour": comp.colours[comp.block_colour(b)],
                           "orient": o, "at": [x, y, z], "by": by,
                           "cubes": [[x + dx, y + dy, z + dz] for dx, dy, dz in ori.cubes]})
        cx, cy = self.floor.core
        out = {
            "width": self.W, "depth": self.D, "height": HEIGHT, "core": [cx, cy], "core_turn": self.core_turn,
            "core_sides": [comp.colours[comp.core_sides[(k + self.core_turn) % 4]] for k in range(4)],
            "blocks": blocks,
            "heights": [[self.heights[x + MAX_FLOOR * y] for x in range(self.W)] for y in range(self.D)],
        }
        if sides:
            out["views"] = {name: self.view_rows(v) for v, name in enumerate(VIEWS)}
        return out

    def key_json(self, k: int) -> dict[str, Any]:
        key = self.comp.keys[k]
        return {"id": key.id, "deck": key.deck, "pattern": list(key.pattern), "points": key.points,
                "stars": key.stars, "pips": key.pips}

    def _view(self, seat: int | None, sides: bool = True) -> dict[str, Any]:
        comp = self.comp
        players = []
        for q in range(self.num_players):
            mine = seat == q
            entry: dict[str, Any] = {
                "side": self.floor.sides[q],
                "supply": sorted(comp.block_ids[b] for b in self.supply[q]),
                "hand_count": len(self.hands[q]),
                "hand_decks": sorted(comp.keys[k].deck for k in self.hands[q]),
                "claimed": [self.key_json(k) for k in self.claimed[q]],
                "key_points": self.key_points(q),
            }
            if mine:
                entry["hand"] = [self.key_json(k) for k in sorted(self.hands[q])]
                entry["enigma"] = comp.colours[comp.enigmas[self.enigma[q]]]
                entry["enigma_faces"] = self.enigma_faces(q)
                entry["matchable"] = [comp.keys[k].id for k in sorted(self.hands[q])
                                      if self.key_match(k, q, None) is not None]
                if self.phase == "claim" and self.actor == q:
                    entry["claimable"] = [comp.keys[k].id for k in sorted(self.offer)]
            elif self.is_over:
                entry["enigma"] = comp.colours[comp.enigmas[self.enigma[q]]]
            players.append(entry)
        out: dict[str, Any] = {
            "game": "block_and_key", "seat": seat, "players": self.num_players, "solo": self.solo,
            "phase": self.phase, "current_player": self.current_player, "turn": self.turn_seat,
            "options": {name: self.options[name] for name in ("key_views", "enigma_rounding", "face_contact")},
            "temple": self._temple_json(sides),
            "site": [comp.block_ids[b] if b >= 0 else None for b in self.site],
            "bag": len(self.bag), "decks": {"sun": len(self.decks[SUN]), "moon": len(self.decks[MOON])},
            "seats": players, "threshold": THRESHOLD[self.num_players], "final_round": self.final,
            "last_claims": [comp.keys[k].id for k in self.claimed_now] if self.phase != "turn" else [],
            "components": comp.source, "reconstructed": True,
            "orientations": _orientation_table(comp),
        }
        if self.solo:
            out["solo_turn"] = self.solo_turn
            out["solo_turns"] = SOLO_TURNS
            out["markers"] = len(self.markers)
            out["ancients"] = self.last_ancient
            if seat == 0:
                out["under_altars"] = [[comp.keys[k].id for k in self.decks[d][: self.known_bottom[d]]]
                                       for d in (SUN, MOON)]
        return out

    def observation_view(self, seat: int) -> dict[str, Any]:
        """The view without the temple's side views as text (`_temple_json`) nor the solo rating's words."""
        return self._with_result(self._view(seat, sides=False))

    def view(self, seat: int | None) -> dict[str, Any]:
        """`State.view` (scores and winners once over), then a finished solo game's rating after them."""
        out = State.view(self, seat)
        if self.is_over and self.solo:
            out["rating"] = {"en": self.rating("en"), "zh-TW": self.rating("zh-TW")}
        return out

    def snapshot(self) -> dict[str, Any]:
        comp = self.comp
        ids = comp.block_ids
        kid = [k.id for k in comp.keys]
        return {
            **self._temple_json(), "rng": self.rng.saved_state(), "reveals": self.reveals, "phase": self.phase,
            "actor": self.actor, "turn": self.turn_seat, "draft": self.draft[:],
            "bag": [ids[b] for b in self.bag], "site": [ids[b] if b >= 0 else None for b in self.site],
            "supply": [[ids[b] for b in h] for h in self.supply],
            "stars": [kid[k] for k in self.stars], "decks": [[kid[k] for k in d] for d in self.decks],
            "hands": [[kid[k] for k in h] for h in self.hands],
            "claimed": [[kid[k] for k in h] for h in self.claimed],
            "enigma": [comp.enigma_ids[e] for e in self.enigma],
            "markers": [[d, kid[k]] for d, k in self.markers], "known_bottom": self.known_bottom[:],
            "final": self.final, "remaining": self.remaining, "passes": self.passes, "solo_turn": self.solo_turn,
            "ancient": [str(a) for a in self.ancient_opts], "offer": [kid[k] for k in self.offer],
        }


_SHARED = ("comp", "solo", "columns", "floor", "W", "D", "view_of", "nb", "core", "reveals", "occ", "near", "_boards",
           "_fixed", "core_turn", "phase", "actor", "turn_seat", "final", "remaining", "passes", "solo_turn", "drew",
           "last_drawn", "ancient_block")


def _orientation_table(comp: Components) -> dict[str, list[list[list[int]]]]:
    """Shape id -> the cubes of each orientation (the renderer draws placement previews from it)."""
    key = (comp.shapes, comp.shape_cells)
    hit = _ORIENT_TABLE.get(key)
    if hit is None:
        hit = _ORIENT_TABLE[key] = {
            sid: [[list(c) for c in o.cubes] for o in G.orientations(cells)]
            for sid, cells in zip(comp.shapes, comp.shape_cells, strict=True)}
    return hit


_ORIENT_TABLE: dict[tuple[Any, ...], dict[str, list[list[list[int]]]]] = {}
SEARCH_PLACEMENTS = 12


def _block_index(comp: Components) -> dict[str, int]:
    hit = _BLOCK_INDEX.get(comp.block_ids)
    if hit is None:
        hit = _BLOCK_INDEX[comp.block_ids] = {bid: i for i, bid in enumerate(comp.block_ids)}
    return hit


_BLOCK_INDEX: dict[tuple[str, ...], dict[str, int]] = {}


BlockTemplate = tuple[int, int, tuple[int, ...], tuple[int, ...], int, tuple[tuple[int, int, int], ...],
                      tuple[tuple[int, int, int, int], ...]]
"""What placing a block in one orientation changes, relative to its anchor (`_block_template`): its cells and
the cells sharing a corner with them (biased masks, as `G.Orientation`), its cells' `gidx` offsets, per k the
cells that rise at least k levels to its top, its top's height above the anchor, per column (`gidx` offset,
height above the anchor's level, the column's biased mask), per view cell it covers (view, index offset,
plane bit offset, the depth key of its cube nearest the viewer, relative)."""
ClaimSlot = tuple[int, int, tuple[int, ...], tuple[int, ...], int, int]  # see `claim_slots`
# a key's rotation for `claim_slots`: (origins, every, per colour of the pattern (colour, its cells' shifts, the
# other cells (colour, shift), their shifts))
ClaimRotation = tuple[tuple[int, ...], int,
                      tuple[tuple[int, tuple[int, ...], tuple[tuple[int, int], ...], tuple[int, ...]], ...]]
KeyTable = list[tuple[tuple[G.KeyRotation, ...], frozenset[int]]]


@dataclass(frozen=True, eq=False)
class _Fixed:
    """What depends only on the components and the floor size, made once per (components, width, depth) and
    looked up once per game: per key card its rotations as matched in the five views and its colour codes, how
    many `G.boards` the shapes use, the view projections of every cell, each block's colour code (the core's
    is 0: it shows a different colour in each view)."""

    keys: KeyTable
    kinds: int
    proj: tuple[tuple[G.ViewCell, ...], ...]
    colour: tuple[int, ...]
    claims: list[tuple[ClaimRotation, ...]]
    points: tuple[int, ...]  # per key card
    shape: tuple[int, ...]  # per block its shape number (`Components.block_shape` as a table, for the hot loops)
    templates: dict[int, BlockTemplate]  # `_block_template` per shape * 32 + orientation
    plans: tuple[tuple[tuple[int, ...], G.Candidates], ...]  # per shape: what `G.shape_candidates` calls
    native: tuple[Any, Any, Any] | None  # `G.NATIVE`: the C helper's boards, spots and keys_shown (native build)
    programs: tuple[tuple[bytes, bytes], ...]  # per shape, for `native`: `G.plan_program`, its packed bounds
    floor: int  # `G.floor_layer` of the floor
    key_programs: dict[tuple[int, int, tuple[int, ...]], bytes]  # `G.key_program` by (key, colour, views), as asked


def _fixed(comp: Components, width: int, depth: int) -> _Fixed:
    hit = _FIXED.get((id(comp), width, depth))  # the value keeps comp alive, so its id is not reused
    if hit is None or hit[0] is not comp:
        dims = ((width, depth), (width, HEIGHT), (depth, HEIGHT), (width, HEIGHT), (depth, HEIGHT))
        keys = [(G.key_rotations(k.pattern, comp.colours, dims),
                 frozenset(comp.colours.index(ch) + 1 for row in k.pattern for ch in row if ch != "."))
                for k in comp.keys]
        kinds = max(G.shape_plan(c).kinds for c in comp.shape_cells)
        colour = (*(comp.block_colour(b) + 1 for b in range(len(comp.block_ids))), 0)
        claims = [tuple((origins, every, tuple((c, by_colour[c], tuple(cs for cs in cells if cs[0] != c),
                                                tuple(sh for c2, sh in cells if c2 != c)) for c in sorted(colours)))
                        for origins, every, cells, by_colour in rots) for rots, colours in keys]
        shape = tuple(comp.block_shape(b) for b in range(len(comp.block_ids)))
        plans = tuple((G.orientation_bounds(G.orientations(c), width, depth), G.generated(c)) for c in comp.shape_cells)
        templates = {sh * 32 + o: _block_template(ori) for sh, cells in enumerate(comp.shape_cells)
                     for o, ori in enumerate(G.orientations(cells))}
        programs = tuple((G.plan_program(G.shape_plan(c)), G.compact(bounds))
                         for c, (bounds, _) in zip(comp.shape_cells, plans, strict=True)) if G.NATIVE else ()
        hit = _FIXED[(id(comp), width, depth)] = (comp, _Fixed(keys, kinds, G.projections(width, depth), colour,
                                                              claims, tuple(k.points for k in comp.keys), shape,
                                                              templates, plans, G.NATIVE, programs,
                                                              G.floor_layer(width, depth), {}))
    return hit[1]


_FIXED: dict[tuple[int, int, int], tuple[Components, _Fixed]] = {}


def _place_rows(kind: str, bid: str, count: int) -> list[list[Place | None] | None]:
    """Per orientation of a block, the `Place` at each anchor bit, made on first use (a row per orientation,
    when first needed): building a NamedTuple costs more than the rest of listing a placement, and the same
    few thousand recur all game."""
    key = (kind, bid)
    rows = _PLACE_ROWS.get(key)
    if rows is None:
        rows = _PLACE_ROWS[key] = [None] * count
    elif len(rows) < count:  # a component file whose block of this id has more orientations
        rows += [None] * (count - len(rows))
    return rows


_PLACE_ROWS: dict[tuple[str, str], list[list[Place | None] | None]] = {}
_DIGS: tuple[tuple[BKAction, ...], ...] = tuple(
    tuple(A.DIG[i] for i, line in enumerate(SITE_LINES) if any(m >> s & 1 for s in line)) for m in range(1 << 9))
"""`_digs` by the sites holding a block (bit s: site s)."""


def _places_reaching(out: list[Place], rows: list[list[Place | None] | None], kind: str, bid: str,
                     masks: tuple[int, ...], oris: Any, region: int) -> None:
    """Append to `out` every placement of block `bid` (per orientation n, the spots of `masks[n]`) one of whose
    cubes lies in `region` (a bitboard of temple cells): what a claim must cover, or what the Ancients' block must
    touch. One loop for both: the spots are shifted back by each cube's offset and kept where they hit."""
    for n, m in enumerate(masks):
        if not m:
            continue
        m &= _reaching(oris[n].offs, region)
        while m:
            low = m & -m
            m ^= low
            out.append(_place_at(rows, kind, bid, n, low.bit_length() - 1))


def _place_at(rows: list[list[Place | None] | None], kind: str, bid: str, n: int, a: int) -> Place:
    """The `Place` of orientation n at anchor bit a, from `_place_rows(kind, bid, ...)`, made if new."""
    row = rows[n]
    if row is None:
        row = rows[n] = [None] * len(G.CELL_OF)
    p = row[a]
    if p is None:
        p = row[a] = tuple.__new__(Place, (kind, bid, n, *G.CELL_OF[a]))
    return p
def _block_template(ori: G.Orientation) -> BlockTemplate:
    """`BlockTemplate` of an orientation. A view's cell, plane bit and depth key are its anchor's plus a part
    that depends only on the cube's offset (`G.projections` is affine in the cell): top (dx, dy, dz), S (dx, dz,
    -dy), E (dy, dz, dx), N (-dx, dz, dy), W (-dy, dz, -dx) as (u, w, key)."""
    top = ori.top
    rises = [0] * (top + 1)
    heights: dict[tuple[int, int], int] = {}
    nearest: dict[tuple[int, int, int], int] = {}
    for dx, dy, dz in ori.cubes:
        for k in range(top - dz + 1):
            rises[k] |= 1 << G.idx(dx, dy, dz)
        heights[(dx, dy)] = max(heights.get((dx, dy), 0), dz + 1)
        for v, (du, dw, dkey) in enumerate(((dx, dy, dz), (dx, dz, -dy), (dy, dz, dx), (-dx, dz, dy),
                                            (-dy, dz, -dx))):
            nearest[(v, du, dw)] = max(dkey, nearest.get((v, du, dw), dkey))
    return (ori.mask, ori.near, tuple(gidx(*c) for c in ori.cubes), tuple(rises), top,
            tuple((dx + MAX_FLOOR * dy, h, G.column_mask(dx, dy)) for (dx, dy), h in sorted(heights.items())),
            tuple((v, du + MAX_FLOOR * dw, du + G.VSTRIDE * dw, dkey) for (v, du, dw), dkey in sorted(nearest.items())))


GIDX_AT = tuple(gidx(*c) if min(c) >= 0 and max(c[0], c[1]) < MAX_FLOOR and c[2] < HEIGHT else -1
              for c in G.CELL_OF)  # anchor bit (at `G.idx`) -> its `gidx`


def _reaching(offs: tuple[int, ...], region: int) -> int:
    """The anchor bits of an orientation (its cubes' `G.shift` from the anchor: `Orientation.offs`) that put one
    of its cubes in `region` (a bitboard of temple cells): the region shifted back by each cube's offset."""
    hit = 0
    for off in offs:
        hit |= region >> off
    return hit


_MEMO: dict[tuple[Any, ...], Any] = {}  # `search_moves`, `keys_within_reach`, `best_claim_points` by `_memo_key`
MEMO_SIZE = 20_000


def _memo(key: tuple[Any, ...], value: Any) -> Any:
    return bounded_put(_MEMO, key, value, MEMO_SIZE)


def bounded_put(cache: dict[Any, Any], key: Any, value: Any, limit: int) -> Any:
    """cache[key] = value, dropping everything first when the cache holds `limit` entries: the module-level
    memos (temples, placements' cells, search results) stay bounded however long a process plays, at the cost
    of refilling after a drop (cheaper to keep than an LRU's bookkeeping on every hit)."""
    if len(cache) >= limit:
        cache.clear()
    cache[key] = value
    return value


class _Temple:
    """What the placement rules give for one temple, filled as it is asked: the whole-board masks (`G.boards`)
    and per shape the anchors of its legal placements (`spot_masks`). It depends only on the occupied cells and
    which block each belongs to."""

    def __init__(self, occ: int) -> None:
        self.occ = occ
        self.boards: list[int] | None = None
        self.packed: bytes | None = None  # the boards as the C helper reads them (`G.NATIVE`), in its stead
        self.spots: dict[int, tuple[int, ...]] = {}
        self.counts: dict[int, int] = {}  # per shape, its spots' popcount (`spot_count`)
        # per allowed views, per temple cell the plane bits where a cube there would show (`_claims_in`, filled as
        # asked): the depth maps follow from the occupied cells, and every seat's claims at this temple ask alike
        self.shows: dict[tuple[int, ...], list[int | None]] | None = None  # made by the first search that asks
        self.front: tuple[int, int, int, int, int] | None = None  # `G.in_front` (`_claim_reach`)


_SPOTS: dict[tuple[int, bool, tuple[int, ...]], _Temple] = {}
TEMPLES = 512
"""At most this many temples memoised (then all are dropped): about 3 KB each. 512 rather than 4,096 (#36, fifth
round): random play never revisits a temple, and keeping thousands alive cost it ~10% (the garbage collector walks
them, and they are freed cold); MCTS per iteration measured the same at 512 and 4,096, 2 and 4 players."""


@mypyc_attr(native_class=False)  # a list subclass: a Python class (see boardlab/_compiled.py)
class _Legal(list):  # type: ignore[type-arg]
    """The legal-action list with a set behind `in` from the second question on, since a turn may offer
    thousands of placements (the first, usually apply's check of an action taken from this very list, is a
    plain scan: cheaper than hashing every action)."""

    __slots__ = ("_set",)
    _set: frozenset[object] | bool

    def __contains__(self, item: object) -> bool:
        s = getattr(self, "_set", None)
        if s is None:
            self._set = False  # asked once: the next question builds the set
            return list.__contains__(self, item)
        if s is False:
            s = self._set = frozenset(self)
        try:
            return item in s
        except TypeError:
            return False


@mypyc_attr(native_class=False)
class BlockAndKeyRules(ParsesNotation, Game):
    """The rules-level half of the game: setup, notation, the integer encoding, what search plays, visibility and
    undo. `game.py` gives it its words and evaluation (`GAME`), since text.py and evaluate.py sit
    above this module."""

    name = "block_and_key"
    titles = {"en": "Block and Key", "zh-TW": "方塊與鑰匙"}
    min_players = 1
    max_players = 4
    actions_module = A
    playout_depth = 4  # playout steps cost a claim search each; 4 (best claims) measured best, docs/strength-log.md
    options = {
        "key_views": Option("any", "where keys may be seen: 'any' of the five views (seed rules) or only the "
                                   "claimer's 'own-side' view (English rules)", ("any", "own-side")),
        "enigma_rounding": Option("up", "Enigma bonus = faces / 3 rounded 'up' (seed rules) or 'down' (English "
                                        "rules)", ("up", "down")),
        "face_contact": Option("block", "a block touching others face to face must rise higher than each 'block' "
                                        "it touches (seed rules) or also above the top of every column it touches "
                                        "('stack', the stricter English reading)", ("block", "stack")),
        "components": Option("", "path of a component file (JSON or TOML) to use instead of the built-in one"),
    }

    def _new_state(self, players: int, seed: int, options: dict[str, Any]) -> BlockAndKeyState:
        s = BlockAndKeyState(players, seed, options)
        try:
            s._setup()
        except KeyError as e:
            raise ConfigError(f"the component file has no floor for {players} player(s)") from e
        return s

    # A fixed integer space over the built-in components' ids: simple actions, then blocks, keys, placements.
    def _space(self) -> tuple[tuple[BKAction, ...], tuple[str, ...], tuple[str, ...], int]:
        from .components import builtin

        comp = builtin()
        simple: tuple[BKAction, ...] = (A.PASS, A.KEEP, *A.ORIENT, *A.DIG, *A.DRAW, *A.MARKER)
        max_o = max(len(G.orientations(c)) for c in comp.shape_cells)
        return simple, comp.block_ids, tuple(k.id for k in comp.keys), max_o

    def max_game_length(self, players: int) -> int:
        """A true bound on the decisions of a game (OpenSpiel's max_game_length). Solo: the orientation of the core,
        the draft's dig and SOLO_TURNS turns. With others the rules alone set no bound (a table may dig and return
        blocks for ever while a block still fits), so the engine stops the game at the end of the turn that reaches
        SAFETY_DECISIONS (docs: D9); no turn starts after it, and a turn holds at most DECISIONS_PER_TURN."""
        if not self.min_players <= players <= self.max_players:
            raise ConfigError(f"block_and_key is for {self.min_players}-{self.max_players} players, not {players}")
        if players == 1:
            return 1 + 1 + SOLO_TURNS * DECISIONS_PER_TURN
        return SAFETY_DECISIONS - 1 + DECISIONS_PER_TURN

    def action_split(self, players: int) -> ActionSplit:
        """Learning interfaces name a move in up to three small choices (641 ids instead of 737,433): a
        placement as its kind and block, then the cell (column, row, level together), then the orientation;
        every other move is one choice (its kind with its block, key, deck, line or turn)."""
        if not _SPLIT:
            _, blocks, keys, max_o = self._space()
            place = (("kind", "block"), ("x", "y", "z"), ("orient",))
            _SPLIT.append(ActionSplit(
                steps={"pass": (("kind",),), "keep": (("kind",),), "stop": (("kind",),), "orient": (("kind", "turn"),),
                       "dig": (("kind", "line"),), "draw": (("kind", "deck"),), "marker": (("kind", "deck"),),
                       "return": (("kind", "block"),), "discard": (("kind", "key"),), "claim": (("kind", "key"),),
                       "place": place, "ancients": place},
                domains={"turn": range(len(A.ORIENT)), "line": range(len(A.DIG)), "deck": range(len(A.DECK_NAMES)),
                         "block": blocks, "key": keys, "x": range(MAX_FLOOR), "y": range(MAX_FLOOR),
                         "z": range(HEIGHT), "orient": range(max_o)}))
        return _SPLIT[0]

    def num_distinct_actions(self, players: int) -> int:
        return self._placed_end() + len(self._space()[2]) + 1  # then the claims and `stop` (added later: at the end)

    def _placed_end(self) -> int:
        simple, blocks, keys, max_o = self._space()
        return len(simple) + len(blocks) + len(keys) + 2 * len(blocks) * max_o * N_CELLS

    def action_to_id(self, action: Any, players: int) -> int:
        simple, blocks, keys, max_o = self._space()
        try:
            if action == A.STOP:
                return self._placed_end() + len(keys)
            if isinstance(action, KeyAct) and action.kind == "claim":
                return self._placed_end() + keys.index(action.key)
            if action in simple:
                return simple.index(action)
            base = len(simple)
            if isinstance(action, BlockAct):
                return base + blocks.index(action.block)
            base += len(blocks)
            if isinstance(action, KeyAct):
                return base + keys.index(action.key)
            base += len(keys)
            if isinstance(action, Place) and 0 <= action.orient < max_o:
                cell = action.x + MAX_FLOOR * (action.y + MAX_FLOOR * action.z)
                k = (action.kind == "ancients") * len(blocks) + blocks.index(action.block)
                return base + (k * max_o + action.orient) * N_CELLS + cell
        except ValueError:
            pass
        raise ActionParseError(f"{action!r} is not a Block and Key action of the built-in components")

    def id_to_action(self, action_id: int, players: int) -> BKAction:
        simple, blocks, keys, max_o = self._space()
        total = self.num_distinct_actions(players)
        if not isinstance(action_id, int) or not 0 <= action_id < total:
            raise ActionParseError(f"action id {action_id!r} is out of range 0..{total - 1}")
        if action_id >= self._placed_end():
            i = action_id - self._placed_end()
            return KeyAct("claim", keys[i]) if i < len(keys) else A.STOP
        if action_id < len(simple):
            return simple[action_id]
        i = action_id - len(simple)
        if i < len(blocks):
            return BlockAct("return", blocks[i])
        i -= len(blocks)
        if i < len(keys):
            return KeyAct("discard", keys[i])
        i -= len(keys)
        k, rest = divmod(i, max_o * N_CELLS)
        o, cell = divmod(rest, N_CELLS)
        z, r = divmod(cell, MAX_FLOOR * MAX_FLOOR)
        y, x = divmod(r, MAX_FLOOR)
        kind = "ancients" if k >= len(blocks) else "place"
        return Place(kind, blocks[k % len(blocks)], o, x, y, z)

    def search_actions(self, state: State) -> list[Any]:
        """Digs + the placements that claim a key (else the best few for the Enigma colour): see
        `BlockAndKeyState.search_moves`. Bots that list every action (random, greedy) are unaffected."""
        return state.search_moves()  # type: ignore[attr-defined,no-any-return]

    def playout_action(self, state: State, rng: Rng) -> Any:
        return state.playout_move(rng)  # type: ignore[attr-defined]

    def action_visible(self, before: State, action: Any, seat: int | None) -> bool:
        """Every action is public (which altar, which block, where, a claimed key) except a solo discard, which
        names a hand card: only its player knows it."""
        return not (isinstance(action, KeyAct) and action.kind == "discard") or seat == before.current_player

    def undo_barrier(self, before: State, action: Any, after: State) -> bool:
        """A block drawn from the bag, a key card drawn or a key shown (claimed) cannot be taken back, nor the
        move that ends the game: it shows every Enigma card (undoing it would hide them again: #32)."""
        return after.reveals != before.reveals or (after.is_over and not before.is_over)  # type: ignore[attr-defined]


__all__ = ["BlockAndKeyRules", "BlockAndKeyState", "Simple"]


def _claimed_by(newm: int, now: int, slots: list[ClaimSlot], every: bool) -> int:
    """The keys (bit k: key k; with `every` False only the first found) of these slots that a block showing at
    the plane bits `newm` completes, the colour's plane then being `now`."""
    got = 0
    for m, need, mine, other, complete, k in slots:
        if not newm & need or got >> k & 1:
            continue
        for sh in mine:  # every cell of the colour shows it (covers the missing ones)
            m &= now >> sh
            if not m:
                break
        else:
            if m & complete:  # a complete corner needs the block on one of its cells
                touch = 0
                for sh in mine:
                    touch |= newm >> sh
                m &= touch | ~complete
            for sh in other:  # and no cell of another colour covered
                m &= ~(newm >> sh)
            if m:
                got |= 1 << k
                if not every:
                    break
    return got


def _shows_key(rots: Any, every_view: bool, views: Any, newm: int, planes: list[int], colour: int) -> bool:
    """Does a key (its rotations' precomputed masks) show complete in the colour planes somewhere the new block's
    visible cells `newm` (of `colour`) touch, in the seat's views? The one test `would_claim` and `_matches`
    share: each rotation's possible origins, kept only where the new block shows one of the key's cells of its
    colour, then narrowed cell by cell."""
    for origins, every, cells, by_colour in rots:
        m = every if every_view else sum(origins[v] for v in views)
        touch = 0
        for sh in by_colour[colour]:
            touch |= newm >> sh
        m &= touch
        for c, sh in cells:
            if not m:
                break
            m &= planes[c] >> sh
        if m:
            return True
    return False
