"""The temple as voxels, fast: every orientation of every shape, legal placements enumerated with whole-board
bit operations, and key patterns with their four rotations.

Layout: a cell (x, y, z) is bit `idx(x, y, z)` of a Python int, on a grid padded by one cell on every side
(x and y 0..7 are stored at 1..8 of a 10-wide row, z 0..5 at 1..6 of an 8-high stack), so shifting a mask by
one cell never wraps into the next row. An orientation's masks are stored relative to its anchor (the
south-west-bottom corner of its bounding box) with a bias of one cell, so neighbour masks that reach one cell
below or left of the anchor stay non-negative; `mask << shift(x, y, z)` puts it in place.

Orientations are the 24 proper rotations of the physical (flat) piece; turning a flat piece over is a
rotation in 3D, so its mirror image lies flat too and is included, but nothing a rotation cannot make.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from boardlab import _compiled

from .components import HEIGHT, MAX_FLOOR

PX = MAX_FLOOR + 2
PY = MAX_FLOOR + 2
LAYER = PX * PY
BIAS = 1 + PX + LAYER  # idx(0, 0, 0)


def idx(x: int, y: int, z: int) -> int:
    return (x + 1) + PX * (y + 1) + LAYER * (z + 1)


def cell_of(i: int) -> tuple[int, int, int]:
    z, r = divmod(i, LAYER)
    y, x = divmod(r, PX)
    return x - 1, y - 1, z - 1


CELL_OF: tuple[tuple[int, int, int], ...] = tuple(cell_of(i) for i in range(LAYER * (HEIGHT + 2)))  # for hot loops


def shift(x: int, y: int, z: int) -> int:
    return x + PX * y + LAYER * z


def bits(m: int) -> list[int]:
    out = []
    while m:
        low = m & -m
        out.append(low.bit_length() - 1)
        m ^= low
    return out


Cube = tuple[int, int, int]


@dataclass(frozen=True, eq=False)  # compared and hashed by identity: orientations() makes each once
class Orientation:
    cubes: tuple[Cube, ...]
    size: tuple[int, int, int]
    offs: tuple[int, ...]  # shift of each cube from the anchor
    mask: int  # the cubes (biased)
    near: int  # every cell sharing at least a corner with a cube, cubes included (biased)
    face: int  # cells sharing a side face, or the top face, with a cube, not in the block (biased)
    bottoms: tuple[int, ...]  # offs of the lowest cube of each column
    bridges: tuple[tuple[tuple[int, int], ...], ...]  # per bottom: (left, right) supported-end offs pairs
    top: int  # the highest dz

    @property
    def vertical(self) -> bool:
        return self.size[2] > 1


def _rotations() -> list[tuple[tuple[int, ...], ...]]:
    """The 24 proper rotation matrices of the cube."""
    import itertools

    mats = []
    for perm in itertools.permutations(range(3)):
        for signs in itertools.product((1, -1), repeat=3):
            m = [[0] * 3 for _ in range(3)]
            for r in range(3):
                m[r][perm[r]] = signs[r]
            det = (m[0][0] * (m[1][1] * m[2][2] - m[1][2] * m[2][1])
                   - m[0][1] * (m[1][0] * m[2][2] - m[1][2] * m[2][0])
                   + m[0][2] * (m[1][0] * m[2][1] - m[1][1] * m[2][0]))
            if det == 1:
                mats.append(tuple(tuple(row) for row in m))
    return mats


def _normalise(cubes: list[Cube]) -> tuple[Cube, ...]:
    mx = min(c[0] for c in cubes)
    my = min(c[1] for c in cubes)
    mz = min(c[2] for c in cubes)
    return tuple(sorted((x - mx, y - my, z - mz) for x, y, z in cubes))


def _bridges(cubes: tuple[Cube, ...], bottoms: list[Cube]) -> tuple[tuple[tuple[int, int], ...], ...]:
    """For each column bottom: the pairs of other column bottoms at the same height, one on each side along
    x or along y, joined to it by a straight run of the block's own cubes (a bridge's two ends)."""
    cs = set(cubes)
    bset = set(bottoms)
    out = []
    for (x, y, z) in bottoms:
        pairs = []
        for dx, dy in ((1, 0), (0, 1)):
            lefts, rights = [], []
            k = 1
            while (x - k * dx, y - k * dy, z) in cs:
                if (x - k * dx, y - k * dy, z) in bset:
                    lefts.append((x - k * dx, y - k * dy, z))
                k += 1
            k = 1
            while (x + k * dx, y + k * dy, z) in cs:
                if (x + k * dx, y + k * dy, z) in bset:
                    rights.append((x + k * dx, y + k * dy, z))
                k += 1
            pairs += [(shift(*a), shift(*b)) for a in lefts for b in rights]
        out.append(tuple(pairs))
    return tuple(out)


def make_orientation(cubes: tuple[Cube, ...]) -> Orientation:
    cs = set(cubes)
    size = tuple(max(c[i] for c in cubes) + 1 for i in range(3))
    mask = near = face = 0
    for (x, y, z) in cubes:
        mask |= 1 << idx(x, y, z)
        for dx in (-1, 0, 1):
            for dy in (-1, 0, 1):
                for dz in (-1, 0, 1):
                    near |= 1 << idx(x + dx, y + dy, z + dz)
        for n in ((x + 1, y, z), (x - 1, y, z), (x, y + 1, z), (x, y - 1, z), (x, y, z + 1)):
            if n not in cs:
                face |= 1 << idx(*n)
    cols: dict[tuple[int, int], Cube] = {}
    for c in sorted(cubes, key=lambda c: c[2]):
        cols.setdefault((c[0], c[1]), c)
    bottoms = sorted(cols.values())
    return Orientation(cubes, (size[0], size[1], size[2]), tuple(shift(*c) for c in cubes), mask, near, face,
                       tuple(shift(*b) for b in bottoms), _bridges(cubes, bottoms), size[2] - 1)


@lru_cache(maxsize=64)
def orientations(cells: tuple[tuple[int, int], ...]) -> tuple[Orientation, ...]:
    """Every distinct orientation of a flat piece with these (x, y) cells, in a fixed order: lying flat
    first, then standing, each sorted by its cubes (the order gives the orientation numbers of the notation)."""
    base = [(x, y, 0) for x, y in cells]
    seen: set[tuple[Cube, ...]] = set()
    for m in _rotations():
        rot = [tuple(sum(m[r][k] * c[k] for k in range(3)) for r in range(3)) for c in base]
        seen.add(_normalise(rot))  # type: ignore[arg-type]
    ordered = sorted(seen, key=lambda cs: (max(c[2] for c in cs), max(c[1] for c in cs) > 0, cs))
    return tuple(make_orientation(cs) for cs in ordered)


@lru_cache(maxsize=4096)
def anchors_in_bounds(width: int, depth: int, size: tuple[int, int, int]) -> int:
    """Bits at idx(x, y, z) of every anchor that keeps a block of this size inside the floor and height."""
    m = 0
    for z in range(HEIGHT - size[2] + 1):
        for y in range(depth - size[1] + 1):
            for x in range(width - size[0] + 1):
                m |= 1 << idx(x, y, z)
    return m


_BOUNDS: dict[tuple[int, int, Orientation], tuple[int, ...]] = {}


def orientation_bounds(oris: tuple[Orientation, ...], width: int, depth: int) -> tuple[int, ...]:
    """`anchors_in_bounds` of each of a shape's orientations (the tuple is known by its first orientation)."""
    key = (width, depth, oris[0])
    hit = _BOUNDS.get(key)
    if hit is None:
        hit = _BOUNDS[key] = tuple(anchors_in_bounds(width, depth, o.size) for o in oris)
    return hit


@lru_cache(maxsize=16)
def floor_layer(width: int, depth: int) -> int:
    """Bits of every z = 0 cell of the floor (a block standing there is supported by the floor)."""
    m = 0
    for y in range(depth):
        for x in range(width):
            m |= 1 << idx(x, y, 0)
    return m


@lru_cache(maxsize=256)
def column_mask(x: int, y: int) -> int:
    m = 0
    for z in range(HEIGHT):
        m |= 1 << idx(x, y, z)
    return m


# Per grid cell x + 8 (y + 8 z) (the temple's cell list, see `projections`), for placing a cube: its bit, the
# cells sharing at least a corner with it, its column.
GRID_CELLS = tuple((x, y, z) for z in range(HEIGHT) for y in range(MAX_FLOOR) for x in range(MAX_FLOOR))
GRID_BIT = tuple(1 << idx(*c) for c in GRID_CELLS)
GRID_COLUMN = tuple(column_mask(x, y) for x, y, _ in GRID_CELLS)


# Boards `shape_candidates` shifts, by kind: NEAR (every cell sharing at least a corner with a placed cube), SUP
# (every cell where a cube would rest on something: above a cube, or on the floor) and FACE j for j >= 1 (kind
# j + 1): the cells a cube must not take when the block's top is j - 1 levels above it (see `boards`).
NEAR, SUP = 0, 1
LEVEL = tuple(((1 << LAYER) - 1) << (LAYER * (z + 1)) for z in range(HEIGHT))  # every cell of level z


def boards(occ: int, near: int, rise: list[int], high: list[int] | None, width: int, depth: int,
           kinds: int) -> list[int]:
    """The first `kinds` boards of a temple (see NEAR above). `rise[k]` is every occupied cell whose own block
    rises at least k levels above it (the top of the block it belongs to minus its level >= k; rise[0] = occ);
    `high[k]`, if given, is every cell of a column taller than k (the stricter English reading, which also asks
    the new block to rise above the top of every column it touches).

    Why FACE: a block whose top is at level T may touch face to face an occupied cell n (beside a cube, below
    it, or under it: resting on n is a face contact too) only if n's block ends lower: top(n's block) < T. For
    a cube of the block e = j - 1 levels below its top, at level z (so T = z + e), that refuses a cell beside a
    RISE e cell (same level), below a RISE (e - 1) cell (one level up) and above a RISE (e + 1) cell (one level
    down): a test that does not depend on z. So a whole orientation's no-overlap and face-contact test is one
    shifted board per cube. The column reading adds TALL (e + 1) beside and TALL e above, with TALL k = the
    occupied cells whose column rises at least k cubes from them. Neighbours that are the block's own cubes add
    nothing: RISE and TALL are part of occ, which the cube itself must not be."""
    out = [near, (occ << LAYER) | floor_layer(width, depth)]
    n = len(rise)
    for j in range(1, kinds - 1):
        e = j - 1
        side = rise[e] if e < n else 0
        over = rise[e - 1] if 1 <= e <= n else occ
        under = rise[e + 1] if e + 1 < n else 0
        if high is not None:
            side |= _tall(occ, high, j)
            over |= _tall(occ, high, j - 1)
        out.append(occ | side << 1 | side >> 1 | side << PX | side >> PX | over >> LAYER | under << LAYER)
    return out


def _tall(occ: int, high: list[int], k: int) -> int:
    """TALL k: the occupied cells whose column rises at least k cubes from them (height - level >= k)."""
    if k <= 1:
        return occ
    m = 0
    for z in range(HEIGHT - k + 1):
        m |= LEVEL[z] & high[z + k - 1]
    return occ & m


Bridged = tuple[tuple[int, tuple[tuple[int, int], ...]], ...]


@dataclass(frozen=True, eq=False)
class ShapePlan:
    """What `shape_candidates` computes for a shape's orientations: the distinct (board kind, offset) shifts they
    need, done once per listing for all of them, and per orientation which shifted boards it combines.

    An orientation's row: (`touch`: NEAR at each cube, any; `bad`: the FACE board of each cube's depth below the
    top, any; `rest`: SUP at each column bottom without a bridge, all; `bridged`: (bottom, ((left end, right
    end), ...)) for bottoms that may also hang between two resting ends), as indices into `shifts`."""

    shifts: tuple[tuple[int, int], ...]  # (board kind, offset from the anchor)
    kinds: int  # boards needed (kinds 0 .. kinds - 1)
    rows: tuple[tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...], Bridged], ...]


@lru_cache(maxsize=64)
def shape_plan(cells: tuple[tuple[int, int], ...]) -> ShapePlan:
    index: dict[tuple[int, int], int] = {}

    def at(kind: int, off: int) -> int:
        return index.setdefault((kind, off), len(index))

    rows = []
    for o in orientations(cells):
        touch = tuple(at(NEAR, off) for off in o.offs)
        bad = tuple(at(o.top - dz + 2, off) for (_, _, dz), off in zip(o.cubes, o.offs, strict=True))  # FACE t-dz+1
        rest, bridged = [], []
        for b, pairs in zip(o.bottoms, o.bridges, strict=True):
            if pairs:
                bridged.append((at(SUP, b), tuple((at(SUP, lt), at(SUP, rt)) for lt, rt in pairs)))
            else:
                rest.append(at(SUP, b))
        assert rest, "a column bottom at an end of the block has nothing to hang from"
        # a bridge whose two ends must rest anyway always holds: its bottom needs no test of its own
        bridged = [(b, pairs) for b, pairs in bridged if not any(lt in rest and rt in rest for lt, rt in pairs)]
        rows.append((touch, bad, tuple(rest), tuple(bridged)))
    shifts = tuple(index)
    return ShapePlan(shifts, 1 + max(k for k, _ in shifts), tuple(rows))


def plan_source(plan: ShapePlan) -> str:
    """A shape's plan as one straight-line Python function `candidates(board, bounds)`: each shifted board a
    local, each orientation one expression. Why: the same work through loops, `reduce` and item getters costs
    3-4 times as much (it is most of listing a turn's placements). Interpreted, not compiled: the same function
    compiled by mypyc ran 2x slower (its bitwise operations on big ints), 1.15x slower even untyped (#36)."""
    lines = ["def candidates(board, bounds):"]

    def any_(ix: tuple[int, ...]) -> str:
        return "(" + " | ".join(f"s{i}" for i in ix) + ")"

    exprs = []
    used: set[int] = set()  # the shifts some row reads (a bridge dropped by `shape_plan` may leave one unread)
    for n, (touch, bad, rest, bridged) in enumerate(plan.rows):
        terms = [f"bounds[{n}]", any_(touch), *(f"s{i}" for i in rest)]
        terms += [f"(s{b} | " + " | ".join(f"s{lt} & s{rt}" for lt, rt in pairs) + ")" for b, pairs in bridged]
        exprs.append(" & ".join(terms) + " & ~" + any_(bad))
        used.update(touch, bad, rest, *((b, *(i for pair in pairs for i in pair)) for b, pairs in bridged))
    shifts = [(i, k, off) for i, (k, off) in enumerate(plan.shifts) if i in used]
    lines += [f"    b{k} = board[{k}]" for k in sorted({k for _, k, _ in shifts})]
    lines += [f"    s{i} = b{k} >> {off}" if off else f"    s{i} = b{k}" for i, k, off in shifts]
    lines.append("    return (" + ",\n            ".join(exprs) + ",)")
    return "\n".join(lines) + "\n"


Candidates = Callable[[list[int], tuple[int, ...]], tuple[int, ...]]


@lru_cache(maxsize=64)
def generated(cells: tuple[tuple[int, int], ...]) -> Candidates:
    """The function `plan_source` writes for a shape, compiled once (to Python bytecode)."""
    namespace: dict[str, Any] = {}
    exec(compile(plan_source(shape_plan(cells)), f"<block_and_key shape {cells}>", "exec"), namespace)
    fn: Callable[[list[int], tuple[int, ...]], tuple[int, ...]] = namespace["candidates"]
    return fn


def shape_candidates(cells: tuple[tuple[int, int], ...], board: list[int], width: int, depth: int) -> tuple[int, ...]:
    """Per orientation of a shape, the anchors (bits at idx(x, y, z)) of its legal placements: inside the floor,
    on free cells, touching a placed block at least corner to corner, every column bottom resting on something
    or the floor or spanned by a straight bridge of the block between two resting ends, and higher than every
    block it touches face to face (see `boards`). `board` is `boards(...)` of the temple: each board is shifted once per
    distinct offset the shape's orientations need, then every orientation is a few ANDs and ORs (`plan_source`
    compiled once per shape)."""
    return generated(cells)(board, orientation_bounds(orientations(cells), width, depth))


def plan_program(plan: ShapePlan) -> bytes:
    """A shape's plan as the C helper `_spots.spots` reads it: int32 words, [number of shifts, per shift (kind, dx +
    8 dy, dz) of its offset, number of rows, per row: touch, bad and rest (each a count, then shift indices),
    bridged (a count, per bridge its bottom's index, a count of pairs, the pairs' two indices)]. The same terms as
    `plan_source`; the helper's boards hold real cells only, one 64-bit word per level (`compact`)."""
    words = [len(plan.shifts)]
    for kind, off in plan.shifts:
        dz, r = divmod(off, LAYER)
        dy, dx = divmod(r, PX)
        assert 0 <= dx < MAX_FLOOR and 0 <= dy < MAX_FLOOR, "a cube's offset from its anchor"
        words += [kind, dx + MAX_FLOOR * dy, dz]
    words.append(len(plan.rows))
    for touch, bad, rest, bridged in plan.rows:
        for ix in (touch, bad, rest):
            words += [len(ix), *ix]
        words.append(len(bridged))
        for b, pairs in bridged:
            words += [b, len(pairs)]
            for lt, rt in pairs:
                words += [lt, rt]
    return b"".join(w.to_bytes(4, "little", signed=True) for w in words)


def compact(masks: tuple[int, ...] | list[int]) -> bytes:
    """Boards (or bounds) as the C helper reads them, side by side: per level z one little-endian 64-bit word,
    cell (x, y) at bit x + 8 y (the real cells of the padded grid only)."""
    out = []
    for m in masks:
        for z in range(HEIGHT):
            word = 0
            for y in range(MAX_FLOOR):
                word |= (m >> idx(0, y, z) & 0xFF) << (MAX_FLOOR * y)
            out.append(word.to_bytes(8, "little"))
    return b"".join(out)


def _native() -> tuple[Any, Any, Any] | None:
    """The C helper's `boards`, `spots` and `keys_shown` in a current native build, else None (the Python above
    and `rules._shows_key` run)."""
    if not _compiled.COMPILED:
        return None
    # (by name: `from . import _spots` reads, to import analysis, as importing the package back; renamed, since
    # mypyc binds a function's imported names as module globals, and `boards` would replace the Python one)
    from ._spots import boards as c_boards  # type: ignore[import-not-found, import-untyped]  # `make native`
    from ._spots import keys_shown as c_keys_shown  # type: ignore[import-not-found, import-untyped]
    from ._spots import spots as c_spots  # type: ignore[import-not-found, import-untyped]

    return c_boards, c_spots, c_keys_shown


NATIVE = _native()


CUBE_NEAR = make_orientation(((0, 0, 0),)).near
GRID_NEAR = tuple(CUBE_NEAR << shift(*c) for c in GRID_CELLS)


def dilate(m: int) -> int:
    """Every cell sharing at least a corner with a cell of m, those included (m on real cells only)."""
    m |= m << 1 | m >> 1
    m |= m << PX | m >> PX
    return m | m << LAYER | m >> LAYER


ViewCell = tuple[int, int, int]  # (view cell index u + 8 w, depth key: larger is nearer the viewer, plane bit)


@lru_cache(maxsize=16)
def projections(width: int, depth: int) -> tuple[tuple[ViewCell, ...], ...]:
    """Where each temple cell x + 8 (y + 8 z) projects in the five views (top, S, E, N, W; a side view's
    left-right order is its viewer's): per view, (index u + 8 w, depth key, `plane_bit`). A table, because
    every cube placed and every claim test asks it for each view."""
    out = []
    for x, y, z in GRID_CELLS:
        row = []
        for v, (u, w, key) in enumerate(((x, y, z), (x, z, -y), (y, z, x), (width - 1 - x, z, y),
                                         (depth - 1 - y, z, -x))):
            row.append((u + MAX_FLOOR * w, key, plane_bit(v, u + MAX_FLOOR * w) if u >= 0 else 0))
        out.append(tuple(row))
    return tuple(out)


# -- key patterns ----------------------------------------------------------------------------------------
PatternCells = tuple[tuple[int, int, int], ...]  # (du, dv, colour code); dv grows upwards


def pattern_cells(rows: tuple[str, ...], colours: tuple[str, ...]) -> tuple[int, int, PatternCells]:
    h = len(rows)
    cells = tuple((u, h - 1 - r, colours.index(ch) + 1) for r, row in enumerate(rows) for u, ch in enumerate(row)
                  if ch != ".")
    return len(rows[0]), h, cells


@lru_cache(maxsize=512)
def rotations(rows: tuple[str, ...], colours: tuple[str, ...]) -> tuple[tuple[int, int, PatternCells], ...]:
    """The distinct quarter turns of a pattern (never its mirror image): (width, height, cells)."""
    w, h, cells = pattern_cells(rows, colours)
    out: list[tuple[int, int, PatternCells]] = []
    seen = set()
    for _ in range(4):
        key = (w, h, tuple(sorted(cells)))
        if key not in seen:
            seen.add(key)
            out.append(key)
        # a quarter turn anticlockwise: (u, v) -> (h - 1 - v, u) in a grid h wide and w high
        cells = tuple((h - 1 - v, u, c) for u, v, c in cells)
        w, h = h, w
    return tuple(out)


ShiftedPattern = tuple[int, int, tuple[tuple[int, int], ...]]
VSTRIDE = 16  # a view cell (u, w) is bit u + 16 w of its view's part of a colour plane: shifted rows never wrap
VIEW_BITS = VSTRIDE * MAX_FLOOR  # a colour plane holds the five views side by side, view v from bit v * VIEW_BITS
VIEW_MASK = (1 << VIEW_BITS) - 1


def plane_bit(v: int, i: int) -> int:
    """The colour-plane bit of view v's cell i = u + 8 w."""
    return 1 << (v * VIEW_BITS + i % MAX_FLOOR + VSTRIDE * (i // MAX_FLOOR))


@lru_cache(maxsize=512)
def rotation_shifts(rows: tuple[str, ...], colours: tuple[str, ...]) -> tuple[ShiftedPattern, ...]:
    """`rotations` as (width, height, ((colour code, bit shift), ...)) for matching on colour planes."""
    return tuple((w, h, tuple((c, du + VSTRIDE * dv) for du, dv, c in cells))
                 for w, h, cells in rotations(rows, colours))


@lru_cache(maxsize=1024)
def origin_mask(U: int, V: int, w: int, h: int) -> int:
    """Bits of every pattern corner (u0, w0) that keeps a w x h pattern inside a U x V view."""
    m = 0
    for v0 in range(V - h + 1):
        for u0 in range(U - w + 1):
            m |= 1 << (u0 + VSTRIDE * v0)
    return m


# (per view its origin mask in its part of the planes, the five together, ((colour code, bit shift), ...), per
# colour code the shifts of its cells (code 0: every cell))
KeyRotation = tuple[tuple[int, ...], int, tuple[tuple[int, int], ...], tuple[tuple[int, ...], ...]]


@lru_cache(maxsize=1024)
def key_rotations(rows: tuple[str, ...], colours: tuple[str, ...],
                  dims: tuple[tuple[int, int], ...]) -> tuple[KeyRotation, ...]:
    """`rotation_shifts` for views of these sizes (U, V), each with its corners in every view (`origin_mask`
    placed in that view's part of the planes, so one AND chain tests all views: a pattern whose corner lies in
    a view reads only that view) and its cells' shifts by colour (a claim only tries corners that put a cell of
    the new block's colour on it)."""
    out = []
    for w, h, cells in rotation_shifts(rows, colours):
        origins = tuple(origin_mask(U, V, w, h) << (v * VIEW_BITS) for v, (U, V) in enumerate(dims))
        by_colour = tuple(tuple(sh for c, sh in cells if c == code or not code) for code in range(len(colours) + 2))
        out.append((origins, sum(origins), cells, by_colour))
    return tuple(out)


KEY_WORDS = 13  # the C helper's boards: 64-bit words, enough for the five views' 640 plane bits


def key_program(rots: tuple[KeyRotation, ...], colour: int, views: tuple[int, ...]) -> bytes:
    """A key's rotations as the C helper `_spots.keys_shown` reads them for a block of colour code `colour` seen
    in `views`: uint64 words [rotations, per rotation its origins in those views (`KEY_WORDS` words), the shifts
    of the key's cells of that colour (a count, the shifts), its cells (a count, per cell colour code and
    shift)]. The same terms as `rules._shows_key`, made once per key, colour and views."""
    words = [len(rots)]
    for origins, every, cells, by_colour in rots:
        m = every if len(views) == len(origins) else sum(origins[v] for v in views)
        words += [m >> (64 * i) & 0xFFFFFFFFFFFFFFFF for i in range(KEY_WORDS)]
        touch = by_colour[colour]
        words += [len(touch), *touch, len(cells)]
        for c, sh in cells:
            words += [c, sh]
    return b"".join(w.to_bytes(8, "little") for w in words)


# -- lines of sight, as whole boards (for search's claim filter) ------------------------------------------
@lru_cache(maxsize=16)
def real_cells(width: int, depth: int) -> int:
    """Bits at idx(x, y, z) of every cell of the temple (floor x height)."""
    return sum(floor_layer(width, depth) << (LAYER * z) for z in range(HEIGHT))


@lru_cache(maxsize=16)
def sight_rows(width: int, depth: int) -> tuple[tuple[tuple[int, tuple[int, ...]], ...], ...]:
    """Per view (top, S, E, N, W), per row of it (its 8 cells of one w): (the row's bit shift in the view's part
    of a colour plane, per byte of that row the temple cells (bits at `idx`) seen through its set cells, at any
    depth). Why: tracing a plane mask back into the temple is then one lookup per non-empty row instead of a
    walk over its bits. The inverse of `projections`, so the floor size and mirrored views come with it."""
    line: dict[int, int] = {}  # plane bit position -> temple cells behind it
    for g, row in enumerate(projections(width, depth)):
        for _, _, bit in row:
            if bit:
                pos = bit.bit_length() - 1
                line[pos] = line.get(pos, 0) | GRID_BIT[g]
    out = []
    for v in range(5):
        rows = []
        for w in range(MAX_FLOOR):
            at = VSTRIDE * w
            cells = [line.get(v * VIEW_BITS + at + u, 0) for u in range(MAX_FLOOR)]
            if any(cells):
                table = [0] * 256
                for byte in range(1, 256):
                    low = byte & -byte
                    table[byte] = table[byte ^ low] | cells[low.bit_length() - 1]
                rows.append((at, tuple(table)))
        out.append(tuple(rows))
    return tuple(out)


def in_front(occ: int, width: int, depth: int) -> tuple[int, int, int, int, int]:
    """Per view (top, S, E, N, W), the temple cells (bits at `idx`) nearer its viewer than every occupied
    cell on their line of sight: where a new cube would show in that view. Prefix ORs of `occ` along each
    viewing axis, by steps of one and two cells (masked to the temple each time, so nothing wraps into the
    next row or layer)."""
    real = real_cells(width, depth)
    fronts = []
    for step, sign in ((LAYER, -1), (PX, 1), (1, -1), (PX, -1), (1, 1)):
        a = occ
        if step == LAYER:  # layers never wrap: a plain doubling
            a |= a >> LAYER
            a |= a >> (2 * LAYER)
            a |= a >> (4 * LAYER)
        else:
            for k in (1, 2, 2, 2):  # 0..7 cells away
                a = (a | (a << (k * step) if sign > 0 else a >> (k * step))) & real
        fronts.append(real & ~a)
    return fronts[0], fronts[1], fronts[2], fronts[3], fronts[4]
