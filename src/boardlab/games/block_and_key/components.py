"""Block and Key components: colours, block shapes, the core cube, temple floors, key cards, Enigma cards
and the solo rating table, read from `components.json` (or a user's JSON/TOML file) and validated with
errors that name the file, the entry and the field.

Most of it is a reconstruction (no public card list exists): see docs/rules/block_and_key.md.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

from boardlab.core.components import Checker, load_json, load_packaged
from boardlab.core.errors import ComponentError

PACKAGE = "boardlab.games.block_and_key"
NUM_COLOURS = 4
NUM_SHAPES = 10
MAX_FLOOR = 8  # the widest temple floor the geometry supports (cells per side)
HEIGHT = 6  # the highest stack, in cubes (both sources)
DECKS = ("star", "sun", "moon")
SIDES = ("S", "E", "N", "W")
MAX_KEYS = 64
PATTERN_CHARS = "WGRB"


@dataclass(frozen=True)
class Key:
    """A key card: a 2D pattern (rows top to bottom; a colour letter or '.' for blank), its points and the
    solo icons (stars 1-4 pick a temple corner, pips 1-9 pick an excavation site)."""

    id: str
    deck: str
    pattern: tuple[str, ...]
    points: int
    stars: int
    pips: int


@dataclass(frozen=True)
class Floor:
    """The temple floor for one player count: its size, where the 2x2 core cube stands (its south-west
    cell) and which side of the temple each seat sits at, in turn order."""

    players: int
    width: int
    depth: int
    core: tuple[int, int]
    sides: tuple[str, ...]


@dataclass(frozen=True)
class Components:
    source: str
    colours: tuple[str, ...]  # one letter each, e.g. "W"
    colour_names: tuple[dict[str, str], ...]
    shapes: tuple[str, ...]  # shape ids, e.g. "L4"
    shape_cells: tuple[tuple[tuple[int, int], ...], ...]  # flat cells (x, y) of each shape
    core_sides: tuple[int, ...]  # colour index of the core's S, E, N, W faces before it is turned
    floors: dict[int, Floor]
    keys: tuple[Key, ...]
    enigmas: tuple[int, ...]  # the colour index of each Enigma card
    enigma_ids: tuple[str, ...]
    ratings: tuple[tuple[int, dict[str, str]], ...]
    block_ids: tuple[str, ...] = ()  # block i is colour i // shapes, shape i % shapes: colour letter + shape id

    def block_colour(self, b: int) -> int:
        return b // len(self.shapes)

    def block_shape(self, b: int) -> int:
        return b % len(self.shapes)


def _pattern(c: Checker, raw: Any, where: str) -> tuple[str, ...]:
    if not isinstance(raw, list) or not raw or not all(isinstance(r, str) for r in raw):
        raise c.fail(where, "a pattern is a non-empty list of strings (rows, top first)")
    width = len(raw[0])
    if not 1 <= len(raw) <= 4 or not 1 <= width <= 4:
        raise c.fail(where, f"a pattern is 1-4 rows of 1-4 cells, not {len(raw)}x{width}")
    for i, row in enumerate(raw):
        if len(row) != width:
            raise c.fail(f"{where}[{i}]", f"row {row!r} has {len(row)} cells, the first row has {width}")
        bad = [ch for ch in row if ch != "." and ch not in PATTERN_CHARS]
        if bad:
            raise c.fail(f"{where}[{i}]", f"unknown colour {bad[0]!r} (use {', '.join(PATTERN_CHARS)} or '.')")
    if all(ch == "." for row in raw for ch in row):
        raise c.fail(where, "a pattern needs at least one coloured cell")
    return tuple(raw)


def _cells(c: Checker, raw: Any, where: str) -> tuple[tuple[int, int], ...]:
    if not isinstance(raw, list) or not raw or not all(isinstance(r, str) for r in raw):
        raise c.fail(where, "shape cells are a list of strings of '#' and '.'")
    cells = tuple((x, len(raw) - 1 - y) for y, row in enumerate(raw) for x, ch in enumerate(row) if ch == "#")
    if not 1 <= len(cells) <= 5:
        raise c.fail(where, f"a block has 1-5 cubes, not {len(cells)}")
    seen = {cells[0]}
    todo = [cells[0]]
    rest = set(cells)
    while todo:
        x, y = todo.pop()
        for n in ((x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)):
            if n in rest and n not in seen:
                seen.add(n)
                todo.append(n)
    if len(seen) != len(cells):
        raise c.fail(where, "the cubes of a block must be connected face to face")
    return cells


def parse(doc: Any, source: str) -> Components:
    c = Checker(source)
    if not isinstance(doc, dict):
        raise c.fail("top level", "expected an object")
    colours_raw = c.field(doc, "colours", "top level", list)
    if len(colours_raw) != NUM_COLOURS:
        raise c.fail("colours", f"exactly {NUM_COLOURS} colours are needed, found {len(colours_raw)}")
    ids = c.unique_ids(colours_raw, "colours")
    for i, col in enumerate(colours_raw):
        c.provenance(col, f"colours[{i}]")
        if ids[i] not in PATTERN_CHARS:
            raise c.fail(f"colours[{i}].id", f"a colour id is one of {', '.join(PATTERN_CHARS)}, not {ids[i]!r}")
        c.field(col, "name", f"colours[{i}]", dict)
    shapes_raw = c.field(doc, "shapes", "top level", list)
    if len(shapes_raw) != NUM_SHAPES:
        raise c.fail("shapes", f"exactly {NUM_SHAPES} shapes are needed, found {len(shapes_raw)}")
    shape_ids = c.unique_ids(shapes_raw, "shapes")
    cells = []
    for i, sh in enumerate(shapes_raw):
        c.provenance(sh, f"shapes[{i}]")
        cells.append(_cells(c, c.field(sh, "cells", f"shapes[{i}]", list), f"shapes[{i}].cells"))
    core = c.field(doc, "core", "top level", dict)
    c.provenance(core, "core")
    sides = c.field(core, "sides", "core", list)
    if sorted(sides) != sorted(ids):
        raise c.fail("core.sides", f"the four sides show each colour once ({', '.join(ids)}), not {sides!r}")
    floors: dict[int, Floor] = {}
    for i, fl in enumerate(c.field(doc, "floors", "top level", list)):
        where = f"floors[{i}]"
        c.provenance(fl, where)
        n = c.int_field(fl, "players", where, 1, 4)
        w = c.int_field(fl, "width", where, 4, MAX_FLOOR)
        d = c.int_field(fl, "depth", where, 4, MAX_FLOOR)
        pos = c.field(fl, "core", where, list)
        if len(pos) != 2 or not all(isinstance(v, int) and not isinstance(v, bool) for v in pos) or \
                not (0 <= pos[0] <= w - 2 and 0 <= pos[1] <= d - 2):
            raise c.fail(f"{where}.core", f"the core's south-west cell [x, y] must fit the floor, not {pos!r}")
        fs = c.field(fl, "sides", where, list)
        if len(fs) != n or len(set(fs)) != n or any(s not in SIDES for s in fs):
            raise c.fail(f"{where}.sides", f"{n} different sides out of {', '.join(SIDES)} are needed, not {fs!r}")
        if n in floors:
            raise c.fail(f"{where}.players", f"a second floor for {n} players")
        floors[n] = Floor(n, w, d, (pos[0], pos[1]), tuple(fs))
    missing = [n for n in range(1, 5) if n not in floors]
    if missing:
        raise c.fail("floors", f"no floor for {missing[0]} player(s)")
    keys: list[Key] = []
    keys_raw = c.field(doc, "keys", "top level", list)
    kid = c.unique_ids(keys_raw, "keys")
    if len(keys_raw) > MAX_KEYS:
        raise c.fail("keys", f"at most {MAX_KEYS} key cards, found {len(keys_raw)}")
    for i, k in enumerate(keys_raw):
        where = f"keys[{i}]"
        c.provenance(k, where)
        deck = c.field(k, "deck", where, str)
        if deck not in DECKS:
            raise c.fail(f"{where}.deck", f"must be one of {', '.join(DECKS)}, not {deck!r}")
        pat = _pattern(c, c.field(k, "pattern", where, list), f"{where}.pattern")
        keys.append(Key(kid[i], deck, pat, c.int_field(k, "points", where, 0, 20),
                        c.int_field(k, "stars", where, 1, 4), c.int_field(k, "pips", where, 1, 9)))
    counts = {d: sum(1 for k in keys if k.deck == d) for d in DECKS}
    for deck, need in (("star", 8), ("sun", 5), ("moon", 5)):
        if counts[deck] < need:
            raise c.fail("keys", f"at least {need} {deck} keys are needed (2 per player for 4 players, and "
                                 f"decks to refill from), found {counts[deck]}")
    enig_raw = c.field(doc, "enigmas", "top level", list)
    eids = c.unique_ids(enig_raw, "enigmas")
    enigmas = []
    for i, e in enumerate(enig_raw):
        c.provenance(e, f"enigmas[{i}]")
        col = c.field(e, "colour", f"enigmas[{i}]", str)
        if col not in ids:
            raise c.fail(f"enigmas[{i}].colour", f"unknown colour {col!r} (colours: {', '.join(ids)})")
        enigmas.append(ids.index(col))
    if len(enigmas) < 4:
        raise c.fail("enigmas", f"at least 4 Enigma cards are needed (one per player), found {len(enigmas)}")
    ratings = []
    for i, r in enumerate(c.field(doc, "solo_ratings", "top level", list)):
        c.provenance(r, f"solo_ratings[{i}]")
        ratings.append((c.int_field(r, "min", f"solo_ratings[{i}]", 0, 999),
                        c.field(r, "title", f"solo_ratings[{i}]", dict)))
    if not ratings or ratings[0][0] != 0 or [m for m, _ in ratings] != sorted({m for m, _ in ratings}):
        raise c.fail("solo_ratings", "ratings start at min 0 and rise strictly")
    return Components(
        source=source, colours=tuple(ids),
        colour_names=tuple(col["name"] for col in colours_raw), shapes=tuple(shape_ids),
        shape_cells=tuple(cells), core_sides=tuple(ids.index(s) for s in sides), floors=floors,
        keys=tuple(keys), enigmas=tuple(enigmas), enigma_ids=tuple(eids), ratings=tuple(ratings),
        block_ids=tuple(col + sh for col in ids for sh in shape_ids))


@lru_cache(maxsize=1)
def builtin() -> Components:
    return parse(load_packaged(PACKAGE, "components.json"), "components.json")


@lru_cache(maxsize=16)
def _cached(path: str, mtime: float) -> Components:
    return parse(load_json(path), path)


def components(path: str | None = None) -> Components:
    """The built-in components, or a user's file (JSON or TOML) validated with located errors."""
    if not path:
        return builtin()
    p = Path(path)
    try:
        mtime = p.stat().st_mtime
    except OSError as e:
        raise ComponentError(f"{p}: cannot read the component file ({e.strerror})") from e
    return _cached(str(p), mtime)
