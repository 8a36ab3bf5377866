"""Shared helpers for the Block and Key tests: positions built by hand, random play, an independent brute-force
placement checker and the invariants every position must keep."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

from boardlab.core import get_game
from boardlab.games.block_and_key.components import HEIGHT, builtin
from boardlab.games.block_and_key.geometry import orientations
from boardlab.games.block_and_key.rules import MAX_FLOOR, BlockAndKeyState, gidx

GAME = get_game("block_and_key")
COMP = builtin()
BUILTIN_FILE = Path(__file__).resolve().parents[3] / "src/boardlab/games/block_and_key/components.json"


def new(players: int, seed: int = 0, **options: Any) -> BlockAndKeyState:
    return GAME.new_game(players, seed, **options)  # type: ignore[return-value]


def at_first_turn(players: int = 2, seed: int = 0, **options: Any) -> BlockAndKeyState:
    """Orient the core (turn 0) and draft the first legal line for everyone: seat 0 is to play."""
    s = new(players, seed, **options)
    s.apply(s.legal_actions()[0])
    while s.phase == "draft":
        s.apply(s.legal_actions()[0])
    assert s.phase == "turn" and s.actor == 0
    return s


def bid(name: str) -> int:
    return COMP.block_ids.index(name)


def give(s: BlockAndKeyState, seat: int, *names: str) -> None:
    """Put these blocks into the seat's supply, from wherever they are (bag, site, other supplies)."""
    for name in names:
        b = bid(name)
        for lst in [s.bag, *s.supply]:
            if b in lst:
                lst.remove(b)
        if b in s.site:
            s.site[s.site.index(b)] = -1
        s.supply[seat].append(b)
    s._legal = s._cache = None


def cube(s: BlockAndKeyState, x: int, y: int, z: int, name: str) -> None:
    """Add one cube of block `name` straight into the temple (for hand-built scenes)."""
    b = bid(name)
    for lst in [s.bag, *s.supply]:
        if b in lst:
            lst.remove(b)
    if b in s.site:
        s.site[s.site.index(b)] = -1
    s._add_cube(x, y, z, b)
    s._legal = s._cache = None


def key_file(tmp_path: Path, extra: list[dict[str, Any]]) -> str:
    """The built-in component file with extra key cards (a user's own file)."""
    doc = json.loads(BUILTIN_FILE.read_text("utf-8"))
    doc["keys"] += extra
    p = tmp_path / "components.json"
    p.write_text(json.dumps(doc), "utf-8")
    return str(p)


def set_hand(s: BlockAndKeyState, seat: int, *key_ids: str) -> None:
    """Make these keys the seat's hand (swapping them with wherever they were, so cards are conserved)."""
    ids = [k.id for k in s.comp.keys]
    want = [ids.index(k) for k in key_ids]
    pools = [s.stars, *s.decks, *s.hands]
    for k in want:
        for lst in pools:
            if k in lst:
                lst.remove(k)
    for old in s.hands[seat]:
        d = s.comp.keys[old].deck
        (s.stars if d == "star" else s.decks[0 if d == "sun" else 1]).insert(0, old)
    s.hands[seat] = want
    s._legal = s._cache = None


def random_game(players: int, seed: int, max_decisions: int = 3000, **options: Any) -> BlockAndKeyState:
    state = new(players, seed, **options)
    rng = random.Random(seed)
    for _ in range(max_decisions):
        if state.is_over:
            break
        state.apply(rng.choice(state.legal_actions()))
    return state


# -- an independent placement checker (cube by cube, no bit masks), written from the seed's four rules -------
def block_tops(s: BlockAndKeyState) -> dict[int, int]:
    """Per block in the temple (the core included), its highest level, from the grid."""
    tops: dict[int, int] = {}
    for i, owner in enumerate(s.grid):
        if owner >= 0:
            tops[owner] = max(tops.get(owner, -1), i // (MAX_FLOOR * MAX_FLOOR))
    return tops


def brute_legal(s: BlockAndKeyState, b: int, cubes: list[tuple[int, int, int]],
                tops: dict[int, int] | None = None, contact: str | None = None) -> bool:
    """Seed placement rules 1-4 and the support rule, cube by cube from the grid alone. Rule 2
    (「當新方塊與其他方塊「面碰面」相連時,新方塊的其中一部分必須比該方塊還高」): for every placed block (the core
    included) sharing a face with the new block, on any of the six sides, the new block's highest cube is above
    that block's highest cube. Option face_contact="stack" also wants it above the top of every column it
    touches on a side or from below."""
    def occ(x: int, y: int, z: int) -> bool:
        return 0 <= x < s.W and 0 <= y < s.D and 0 <= z < HEIGHT and s.grid[gidx(x, y, z)] >= 0

    def col_top(x: int, y: int) -> int:
        return max((z for z in range(HEIGHT) if s.grid[gidx(x, y, z)] >= 0), default=-1)

    block_top = block_tops(s) if tops is None else tops
    cs = set(cubes)
    for x, y, z in cubes:
        if not (0 <= x < s.W and 0 <= y < s.D and 0 <= z < HEIGHT) or occ(x, y, z):
            return False
    if not any(occ(x + dx, y + dy, z + dz) for x, y, z in cubes
               for dx in (-1, 0, 1) for dy in (-1, 0, 1) for dz in (-1, 0, 1)):
        return False
    top = max(z for _, _, z in cubes)
    stack = (contact or s.options.get("face_contact", "block")) == "stack"
    for x, y, z in cubes:
        for n in ((x + 1, y, z), (x - 1, y, z), (x, y + 1, z), (x, y - 1, z), (x, y, z + 1), (x, y, z - 1)):
            if occ(*n) and block_top[s.grid[gidx(*n)]] >= top:
                return False
            if stack and n[2] >= z and occ(*n) and col_top(n[0], n[1]) >= top:
                return False
    bottoms = {}
    for x, y, z in sorted(cubes, key=lambda c: c[2]):
        bottoms.setdefault((x, y), (x, y, z))
    bset = set(bottoms.values())

    def rests(c: tuple[int, int, int]) -> bool:
        return c[2] == 0 or occ(c[0], c[1], c[2] - 1)

    for c in bset:
        if rests(c):
            continue
        ok = False
        for dx, dy in ((1, 0), (0, 1)):
            sides = []
            for sign in (-1, 1):
                k, found = 1, False
                while (c[0] + sign * k * dx, c[1] + sign * k * dy, c[2]) in cs:
                    n = (c[0] + sign * k * dx, c[1] + sign * k * dy, c[2])
                    if n in bset and rests(n):
                        found = True
                    k += 1
                sides.append(found)
            ok = ok or all(sides)
        if not ok:
            return False
    return True


def brute_placements(s: BlockAndKeyState, b: int, contact: str | None = None) -> set[tuple[int, int, int, int]]:
    out = set()
    tops = block_tops(s)
    for o, ori in enumerate(orientations(COMP.shape_cells[COMP.block_shape(b)])):
        for z in range(HEIGHT):
            for y in range(s.D):
                for x in range(s.W):
                    cubes = [(x + dx, y + dy, z + dz) for dx, dy, dz in ori.cubes]
                    if brute_legal(s, b, cubes, tops, contact):
                        out.add((o, x, y, z))
    return out


def check_invariants(s: BlockAndKeyState) -> None:
    n_blocks = len(COMP.block_ids)
    in_temple = {b for b, *_ in s.placed}
    held = [s.ancient_block] if s.ancient_block >= 0 else []  # solo: the Ancients' block waiting for its spot
    where = sorted(s.bag + [b for b in s.site if b >= 0] + [b for h in s.supply for b in h] + sorted(in_temple) + held)
    assert where == list(range(n_blocks)), "every block is in exactly one place"
    assert len(in_temple) == len(s.placed)
    cells = [i for i, b in enumerate(s.grid) if b >= 0]
    assert len(cells) == 8 + sum(len(COMP.shape_cells[COMP.block_shape(b)]) for b, *_ in s.placed)
    for x in range(s.W):
        for y in range(s.D):
            col = [s.grid[gidx(x, y, z)] >= 0 for z in range(HEIGHT)]
            h = max((z + 1 for z in range(HEIGHT) if col[z]), default=0)
            assert s.heights[x + MAX_FLOOR * y] == h
    keys = sorted(s.stars + [k for d in s.decks for k in d] + [k for h in s.hands for k in h]
                  + [k for h in s.claimed for k in h] + [k for _, k in s.markers])
    assert keys == list(range(len(COMP.keys))), "every key card is in exactly one place"
    for q in range(s.num_players):
        if s.phase not in ("return",) or s.actor != q:
            assert len(s.supply[q]) <= 7
