"""Property tests over random games: every placed block legal by an independent brute-force check, every
listed placement legal and none missing, every claimed key present in an allowed view (recomputed from the
voxels) with the new block on a coloured cell, block and card conservation, replays and JSON saves, refusals
that change nothing, views that leak no hidden card and determinizations that depend only on what a seat knows.

The suite plays a few hundred games; `BOARDLAB_DEEP=1` plays thousands (max_examples x 10)."""

from __future__ import annotations

import json
import random

import pytest
from bk_helpers import BUILTIN_FILE, COMP, GAME, block_tops, brute_legal, brute_placements, check_invariants, new
from hypothesis import given, settings
from hypothesis import strategies as st

from boardlab.core import Rng
from boardlab.core.errors import IllegalActionError
from boardlab.games.block_and_key import rules
from boardlab.games.block_and_key.actions import DIG, BlockAct, Place
from boardlab.games.block_and_key.geometry import GRID_CELLS, boards, idx, in_front, orientations, projections
from boardlab.games.block_and_key.rules import HEIGHT, BlockAndKeyState, gidx
from depth import examples

GAMES = settings(max_examples=examples(40))
FEW = settings(max_examples=examples(15))
KEY_IDS = {k.id for k in COMP.keys}


# -- an independent projection and pattern search -------------------------------------------------------
def brute_views(s: BlockAndKeyState) -> list[list[list[tuple[int, int]]]]:
    """(colour code, owner) per view cell [v][w][u], by scanning every line of sight."""
    W, D = s.W, s.D
    core_side = [COMP.core_sides[(k + s.core_turn) % 4] + 1 for k in range(4)]

    def colour(b: int, v: int) -> int:
        if b == s.core:
            return 5 if v == 0 else core_side[v - 1]
        return COMP.block_colour(b) + 1

    def first(v: int, cells: list[tuple[int, int, int]]) -> tuple[int, int]:
        for c in cells:
            b = s.grid[gidx(*c)]
            if b >= 0:
                return colour(b, v), b
        return 0, -1

    top = [[first(0, [(u, w, z) for z in range(HEIGHT - 1, -1, -1)]) for u in range(W)] for w in range(D)]
    south = [[first(1, [(u, y, w) for y in range(D)]) for u in range(W)] for w in range(HEIGHT)]
    east = [[first(2, [(x, u, w) for x in range(W - 1, -1, -1)]) for u in range(D)] for w in range(HEIGHT)]
    north = [[first(3, [(W - 1 - u, y, w) for y in range(D - 1, -1, -1)]) for u in range(W)] for w in range(HEIGHT)]
    west = [[first(4, [(x, D - 1 - u, w) for x in range(W)]) for u in range(D)] for w in range(HEIGHT)]
    return [top, south, east, north, west]


def turn(rows: list[str]) -> list[str]:
    """A quarter turn of a pattern (rows top first), never a mirror."""
    h, w = len(rows), len(rows[0])
    return ["".join(rows[h - 1 - r][c] for r in range(h)) for c in range(w)][::-1][::-1] and \
        ["".join(rows[r][w - 1 - c] for r in range(h)) for c in range(w)]


def brute_match(s: BlockAndKeyState, k: int, views: list[int], new: int | None) -> bool:
    grids = brute_views(s)
    pat = list(COMP.keys[k].pattern)
    letters = "." + "".join(COMP.colours)
    for _ in range(4):
        h, w = len(pat), len(pat[0])
        for v in views:
            g = grids[v]
            V, U = len(g), len(g[0])
            for w0 in range(V - h + 1):
                for u0 in range(U - w + 1):
                    ok, mine = True, False
                    for r in range(h):
                        for c in range(w):
                            ch = pat[r][c]
                            if ch == ".":
                                continue
                            col, own = g[w0 + h - 1 - r][u0 + c]
                            if col != letters.index(ch):
                                ok = False
                            mine = mine or own == new
                    if ok and (new is None or mine):
                        return True
        pat = turn(pat)
    return False


def test_turn_is_a_rotation_not_a_mirror() -> None:
    assert turn(["R.", "RW"]) == [".W", "RR"]
    assert turn(turn(turn(turn(["R.", "RW"])))) == ["R.", "RW"]


# -- random play with checks -----------------------------------------------------------------------------------
def ref_enigma_gain(s: BlockAndKeyState, seat: int, a: Place) -> int:
    """Faces of the seat's Enigma colour a placement adds to its own side view (cubes in front of its depth
    map), or, a block of another colour, minus those it covers."""
    want = COMP.enigmas[s.enigma[seat]] + 1
    own = s.view_of[seat]
    proj = projections(s.W, s.D)
    b = COMP.block_ids.index(a.block)
    ori = orientations(COMP.shape_cells[COMP.block_shape(b)])[a.orient]
    cells = {proj[gidx(a.x + dx, a.y + dy, a.z + dz)][own] for dx, dy, dz in ori.cubes}
    shown = {j for j, key, _ in cells if key > s.vdep[own][j]}
    same = COMP.block_colour(b) + 1 == want
    return sum(1 if same else -(s.vcol[own][j] == want) for j in shown)


def ref_search_fallback(s: BlockAndKeyState, legal: list[object]) -> list[object]:
    """`search_moves` when nothing claims, computed plainly: the digs (one with 5 or more blocks held) and the 12
    placements showing the most faces of the Enigma colour on the seat's own side, ties in listing order."""
    seat = s.actor
    assert seat is not None
    digs = [a for a in legal if not isinstance(a, Place)]
    if len(s.supply[seat]) >= 5:
        digs = digs[:1]
    scored = [(-ref_enigma_gain(s, seat, a), i, a) for i, a in enumerate(legal) if isinstance(a, Place)]
    return digs + [a for _, _, a in sorted(scored)[:12]]


def claimed_by(s: BlockAndKeyState, seat: int, p: Place) -> set[int]:
    """The keys placing `p` claims (or offers to claim, when the player is asked: D6), found by playing it on a
    copy."""
    after = s.clone()
    before = set(after.claimed[seat])
    after.apply(p)
    return set(after.claimed[seat]) - before | set(after.offer)


def ref_search_claims(s: BlockAndKeyState, claimers: list[Place]) -> list[Place]:
    """`search_moves` when placements claim, computed plainly: the 12 that claim the most points (played on a
    copy), then show the most Enigma faces, ties in listing order."""
    seat = s.actor
    assert seat is not None
    scored = [(-sum(COMP.keys[k].points for k in claimed_by(s, seat, p)), -ref_enigma_gain(s, seat, p), i, p)
              for i, p in enumerate(claimers)]
    return [p for *_, p in sorted(scored)[:12]]


def check_claiming(s: BlockAndKeyState, legal: list[object]) -> None:
    """Search's claim detection (`claiming`, with its whole-board filters) names exactly the placements that
    `would_claim` (the plain test) accepts, in listing order; its "in front" boards equal the depth maps."""
    seat = s.actor
    assert seat is not None
    places = [p for p in legal if isinstance(p, Place)]
    claimers = [p for p in places if s.would_claim(seat, p)]
    assert s.claiming(seat, places) == claimers, "claiming must be exact"
    every = s.claims(seat, places, every=True)
    assert [p for p, _ in every] == claimers
    # what search asks instead (per held block, ruled out per orientation before any placement is looked at)
    assert s._block_claims(seat, sorted(s.supply[seat]), True) == every
    for p, keys in every[:6]:
        assert {k for k in range(len(COMP.keys)) if keys >> k & 1} == claimed_by(s, seat, p), "the keys it claims"
    # a turn lists every placement of every held block: the keys within reach are those some placement claims
    assert s.keys_within_reach(seat) == {k for _, keys in every for k in range(len(COMP.keys)) if keys >> k & 1}
    assert s.best_claim_points(seat) == max(
        (sum(COMP.keys[k].points for k in range(len(COMP.keys)) if keys >> k & 1) for _, keys in every), default=0)
    for v, shown in enumerate(s.vcol):  # the faces evaluation counts on the colour planes
        assert s.view_faces(v) == sum(1 for c in shown if 0 < c < 5)
        assert all(s.view_faces(v, c) == shown.count(c) for c in range(1, 6))
    fronts = in_front(s.occ, s.W, s.D)
    for v, row in enumerate(zip(*projections(s.W, s.D), strict=True)):
        want = sum(1 << idx(*GRID_CELLS[g]) for g, (i, key, _) in enumerate(row)
                   if GRID_CELLS[g][0] < s.W and GRID_CELLS[g][1] < s.D and key > s.vdep[v][i])
        assert fronts[v] == want, f"in_front of view {v}"


def play_checked(players: int, seed: int, options: dict[str, str], deep_every: int = 1) -> BlockAndKeyState:
    s = new(players, seed, **options)
    rng = random.Random(seed)
    steps = 0
    while not s.is_over:
        legal = s.legal_actions()
        assert legal, "a live game always offers an action"
        a = rng.choice(legal)
        seat = s.actor
        assert seat is not None
        if isinstance(a, Place):
            b = COMP.block_ids.index(a.block)
            ori = orientations(COMP.shape_cells[COMP.block_shape(b)])[a.orient]
            assert brute_legal(s, b, [(a.x + dx, a.y + dy, a.z + dz) for dx, dy, dz in ori.cubes])
            if steps % deep_every == 0 and a.kind == "place":
                listed = {(p.orient, p.x, p.y, p.z) for p in legal if isinstance(p, Place) and p.block == a.block}
                assert listed == brute_placements(s, b), "the listed placements are exactly the legal ones"
            hand = list(s.hands[seat])
            before = list(s.claimed[seat])
            predicted = s.would_claim(seat, a) if a.kind == "place" else None
        if s.phase == "turn":
            check_claiming(s, legal)
        if s.phase == "turn" and steps % deep_every == 0:
            moves = s.search_moves()  # what search considers: legal, every dig, claims first
            assert moves and set(moves) <= set(legal)
            claimers = [p for p in legal if isinstance(p, Place) and s.would_claim(seat, p)]
            if len(legal) <= 12:
                assert moves == legal
            elif claimers:
                best = ref_search_claims(s, claimers)
                assert moves == best, "the best claims, as plainly computed"
                rules._MEMO.clear()  # the playout's own way to its claim, which does not rank them all
                assert s.playout_move(Rng(seed)) == best[0], "the playout plays the best claim"
            if not claimers and len(legal) > 12:
                assert moves == ref_search_fallback(s, legal), "the Enigma-colour choice, as plainly computed"
        s.apply(a)
        steps += 1
        if isinstance(a, Place) and a.kind == "place":
            got = [k for k in s.claimed[seat] if k not in before] + s.offer  # claimed, or offered when asked (D6)
            assert predicted == bool(got), "would_claim must foresee the claim exactly"
            views = list(s.allowed_views(seat))
            for k in hand:
                assert (k in got) == brute_match(s, k, views, b), f"claim of {COMP.keys[k].id} disagrees"
        if steps % deep_every == 0:
            check_invariants(s)
            assert [[c for c, _ in row] for row in brute_views(s)[1]][::-1] == \
                [[".WGRB*".index(ch) for ch in row] for row in s.view_rows(1)]
    check_invariants(s)
    return s


@GAMES
@given(players=st.integers(1, 4), seed=st.integers(0, 10**6), views=st.sampled_from(["any", "own-side"]),
       rounding=st.sampled_from(["up", "down"]))
def test_random_games_keep_every_rule(players: int, seed: int, views: str, rounding: str) -> None:
    s = play_checked(players, seed, {"key_views": views, "enigma_rounding": rounding}, deep_every=7)
    scores = s.scores()
    for q, sc in enumerate(scores):
        faces = s.enigma_faces(q)
        assert sc.breakdown["enigma"] == (-(-faces // 3) if rounding == "up" else faces // 3)
        assert sc.breakdown["keys"] == sum(COMP.keys[k].points for k in s.claimed[q])
    if players == 1:
        assert s.solo_turn == 11 or s.passes >= 2


@FEW
@given(players=st.integers(1, 4), seed=st.integers(0, 10**6), cut=st.integers(20, 160),
       contact=st.sampled_from(["block", "stack"]))
def test_face_contact_offered_placements_are_exactly_the_legal_ones(players: int, seed: int, cut: int,
                                                                    contact: str) -> None:
    """Over random positions, every block the player to move holds (and the Ancients' block): the placements
    offered are exactly those the seed's rules allow (`brute_placements`, written from the seed cube by cube);
    with face_contact="stack" they are a subset of the seed's (the stricter reading)."""
    s = new(players, seed, face_contact=contact)
    rng = random.Random(seed)
    for _ in range(cut):
        if s.is_over:
            return
        s.apply(rng.choice(s.legal_actions()))
    checked = 0
    while not s.is_over and checked < 2:
        if s.phase in ("turn", "ancient"):
            kind = "place" if s.phase == "turn" else "ancients"
            held = sorted(s.supply[s.actor]) if s.phase == "turn" else [s.ancient_block]  # type: ignore[index]
            for b in {COMP.block_shape(b): b for b in held}.values():  # legality depends on the shape only
                listed = {(p.orient, p.x, p.y, p.z) for p in s.placements(b, kind)}
                legal = brute_placements(s, b)
                assert listed == legal, "the placements offered are exactly the legal ones"
                if contact == "stack":
                    assert legal <= brute_placements(s, b, contact="block"), "stack is stricter than the seed"
            checked += 1
        s.apply(rng.choice(s.legal_actions()))


@GAMES
@given(players=st.integers(1, 4), seed=st.integers(0, 10**6), cut=st.integers(0, 200))
def test_replay_and_json_round_trip(players: int, seed: int, cut: int) -> None:
    s = new(players, seed)
    rng = random.Random(seed)
    for _ in range(cut):
        if s.is_over:
            break
        s.apply(rng.choice(s.legal_actions()))
    save = json.loads(json.dumps(s.to_json()))
    again = GAME.from_json(save)
    assert again.snapshot() == s.snapshot()
    assert again.legal_actions() == s.legal_actions()


@FEW
@given(players=st.integers(1, 4), seed=st.integers(0, 10**6), cut=st.integers(0, 120))
def test_illegal_actions_are_refused_and_change_nothing(players: int, seed: int, cut: int) -> None:
    s = new(players, seed)
    rng = random.Random(seed)
    for _ in range(cut):
        if s.is_over:
            return
        s.apply(rng.choice(s.legal_actions()))
    if s.is_over:
        return
    before = s.snapshot()
    legal = set(s.legal_actions())
    tries = [DIG[i] for i in range(6)] + [BlockAct("return", b) for b in COMP.block_ids[:5]]
    tries += [Place("place", COMP.block_ids[rng.randrange(40)], rng.randrange(6), rng.randrange(8), rng.randrange(8),
                    rng.randrange(6)) for _ in range(20)]
    for a in tries:
        if a in legal:
            continue
        try:
            s.apply(a)
        except IllegalActionError as e:
            assert str(e)
        else:
            raise AssertionError(f"{a} was accepted but not listed")
        assert s.snapshot() == before


def hidden_ids(view: object) -> set[str]:
    if isinstance(view, str):
        return {view} if view in KEY_IDS else set()
    if isinstance(view, dict):
        return set().union(*(hidden_ids(v) for v in view.values())) if view else set()
    if isinstance(view, list):
        return set().union(*(hidden_ids(v) for v in view)) if view else set()
    return set()


@FEW
@given(players=st.integers(1, 4), seed=st.integers(0, 10**6), cut=st.integers(0, 150), salt=st.integers(0, 99))
def test_views_and_determinization_hide_what_a_seat_cannot_see(players: int, seed: int, cut: int,
                                                                salt: int) -> None:
    s = new(players, seed)
    rng = random.Random(seed)
    for _ in range(cut):
        if s.is_over:
            break
        s.apply(rng.choice(s.legal_actions()))
    for seat in range(players):
        view = s.view(seat)
        json.dumps(view)
        known = {COMP.keys[k].id for k in s.hands[seat]} | {COMP.keys[k].id for h in s.claimed for k in h}
        if players == 1:
            known |= {COMP.keys[k].id for d in (0, 1) for k in s.decks[d][: s.known_bottom[d]]}
        assert hidden_ids(view) <= known, "a view names a key card the seat has not seen"
        if not s.is_over:
            others = [q for q in range(players) if q != seat]
            assert all("enigma" not in view["seats"][q] for q in others)
        det = s.determinize(seat, Rng(salt))
        check_invariants(det)
        assert det.view(seat) == view
        assert GAME.evaluate(det, seat) == GAME.evaluate(s, seat)
        if s.current_player == seat:
            assert det.legal_actions() == s.legal_actions()
        other_world = s.determinize(seat, Rng(salt + 1))
        a = s.determinize(seat, Rng(salt + 2)).snapshot()
        b = other_world.determinize(seat, Rng(salt + 2)).snapshot()
        assert a == b, "determinize must depend only on the seat's information set"
    assert all("hand" not in p and "enigma" not in p for p in s.view(None)["seats"]) or s.is_over


def test_undo_barrier_on_every_draw_and_reveal() -> None:
    s = new(2, 11)
    rng = random.Random(11)
    seen = {"dig": 0, "draw": 0, "place": 0}
    while not s.is_over:
        a = rng.choice(s.legal_actions())
        before = s.clone()
        s.apply(a)
        barrier = GAME.undo_barrier(before, a, s)
        kind = getattr(a, "kind", "")
        if kind == "draw":
            assert barrier  # a key card from an altar
            seen[kind] += 1
        if kind == "dig":
            assert barrier == (bool(before.bag) or s.is_over)  # blocks drawn to refill the site; the end shows all
            seen[kind] += 1
        if kind == "place":
            assert barrier == (s.claimed != before.claimed or s.reveals != before.reveals or s.is_over)
            seen["place"] += 1
        if kind == "return":
            assert barrier == s.is_over
    assert all(seen.values())


def secrets(view: dict[str, object], seat: int) -> set[tuple[object, ...]]:
    """What a seat's view names that is hidden from someone: key cards, and the other seats' Enigma colours."""
    seats = view["seats"]
    assert isinstance(seats, list)
    return ({("key", k) for k in hidden_ids(view)}
            | {("enigma", q, p["enigma"]) for q, p in enumerate(seats) if q != seat and "enigma" in p})


@FEW
@given(players=st.integers(2, 4), seed=st.integers(0, 10**6))
def test_undoable_moves_reveal_nothing_to_the_others(players: int, seed: int) -> None:
    """#32: a move that shows another seat a card or an Enigma colour it had not seen is an undo barrier (undoing
    it would hide what was seen). The move that ends the game shows every Enigma card."""
    s = new(players, seed)
    rng = random.Random(seed)
    while not s.is_over:
        a = rng.choice(s.legal_actions())
        mover = s.current_player
        before = s.clone()
        seen = {q: secrets(s.view(q), q) for q in range(players) if q != mover}
        s.apply(a)
        if not GAME.undo_barrier(before, a, s):
            for q, known in seen.items():
                assert secrets(s.view(q), q) <= known, f"{a} shows seat {q} something and can be undone"


# -- what the engine keeps incrementally, against a recomputation from the voxels ----------------------------
def check_kept_structures(s: BlockAndKeyState) -> None:
    """Masks, heights, the five views, the colour planes (all views side by side, 128 bits each) and the cached
    placement boards equal what the grid alone gives."""
    cubes = [(x, y, z) for z in range(HEIGHT) for y in range(s.D) for x in range(s.W) if s.grid[gidx(x, y, z)] >= 0]
    occ = near = 0
    for x, y, z in cubes:
        occ |= 1 << idx(x, y, z)
        for dx in (-1, 0, 1):
            for dy in (-1, 0, 1):
                for dz in (-1, 0, 1):
                    near |= 1 << idx(x + dx, y + dy, z + dz)
    assert (s.occ, s.near) == (occ, near)
    tops = {(x, y): 0 for x in range(8) for y in range(8)}
    for x, y, z in cubes:
        tops[x, y] = max(tops[x, y], z + 1)
    high = [sum(1 << idx(x, y, z) for (x, y), t in tops.items() if t > k for z in range(HEIGHT)) for k in range(HEIGHT)]
    assert s.high == high
    tops = block_tops(s)
    rise = [sum(1 << idx(x, y, z) for x, y, z in cubes if tops[s.grid[gidx(x, y, z)]] - z >= k) for k in range(HEIGHT)]
    assert s.rise == rise, "each cell's rise to the top of its own block"
    planes = [0] * 6
    for v, grid in enumerate(brute_views(s)):
        for w, row in enumerate(grid):
            for u, (colour, owner) in enumerate(row):
                assert (s.vcol[v][u + 8 * w], s.vown[v][u + 8 * w]) == (colour, owner)
                if colour:
                    planes[colour] |= 1 << (128 * v + u + 16 * w)
    assert s.planes == planes
    temple = s._boards
    if temple is not None and temple.occ == s.occ and temple.boards is not None:
        kinds = len(temple.boards)
        assert temple.boards == boards(occ, near, rise, high if s.columns else None, s.W, s.D, kinds), \
            "stale placement boards"


def ref_ancient_placements(s: BlockAndKeyState, b: int, stars: int) -> list[Place]:
    """The Ancients' spots the plain way: group cubes by block, keep every listed placement within a king's
    move of a block nearest the corner (docs: S5: nearness picks the block, the player picks the spot)."""
    cx, cy = s.corner_cell(stars)
    by_block: dict[int, list[tuple[int, int, int]]] = {}
    for i, blk in enumerate(s.grid):
        if blk >= 0:
            by_block.setdefault(blk, []).append((i % 8, i // 8 % 8, i // 64))

    def dist(cs: list[tuple[int, int, int]]) -> int:
        return min((2 * x + 1 - cx) ** 2 + (2 * y + 1 - cy) ** 2 for x, y, _ in cs)

    d = {blk: dist(cs) for blk, cs in by_block.items()}
    target = {c for blk, cs in by_block.items() if d[blk] == min(d.values()) for c in cs}
    oris = orientations(COMP.shape_cells[COMP.block_shape(b)])
    out = []
    for p in s.placements(b, "ancients"):
        cs = [(p.x + dx, p.y + dy, p.z + dz) for dx, dy, dz in oris[p.orient].cubes]
        if any((x + ex, y + ey, z + ez) in target for x, y, z in cs
               for ex in (-1, 0, 1) for ey in (-1, 0, 1) for ez in (-1, 0, 1)):
            out.append(p)
    return out


@FEW
@given(players=st.integers(1, 4), seed=st.integers(0, 10**6), views=st.sampled_from(["any", "own-side"]))
def test_incremental_structures_equal_a_recomputation(players: int, seed: int, views: str) -> None:
    """After every decision of a random game (a clone taken now and then plays the same action alongside, so
    shared or copied structures cannot leak between the two), and the Ancients' spots for a bag block at every
    solo turn."""
    s = new(players, seed, key_views=views)
    rng = random.Random(seed)
    twin = None
    steps = 0
    while not s.is_over:
        legal = s.legal_actions()
        a = rng.choice(legal)
        if steps % 9 == 4:
            twin = s.clone()
        if s.solo and s.phase == "turn" and s.bag:
            b = rng.choice(s.bag)
            for stars in (1, 2, 3, 4):
                assert s.ancient_placements(b, stars) == ref_ancient_placements(s, b, stars)
        s.apply(a)
        check_kept_structures(s)
        if twin is not None:
            assert twin.legal_actions() == legal
            twin.apply(a)
            check_kept_structures(twin)
            assert twin.snapshot() == s.snapshot() and twin.legal_actions() == s.legal_actions()
            if steps % 9 == 8:
                twin = None
        steps += 1


SMALL_FLOORS = {2: (6, 5, (2, 1)), 3: (5, 7, (1, 3)), 4: (7, 4, (3, 1))}  # width, depth, core


@pytest.fixture(scope="module")
def small_floors(tmp_path_factory: pytest.TempPathFactory) -> str:
    """The built-in components with floors narrower than 8x8 (and not square), where a view's cells and the
    temple's rows no longer line up with the 8-cell grid."""
    doc = json.loads(BUILTIN_FILE.read_text("utf-8"))
    for fl in doc["floors"]:
        if fl["players"] in SMALL_FLOORS:
            fl["width"], fl["depth"], fl["core"] = SMALL_FLOORS[fl["players"]]
    p = tmp_path_factory.mktemp("bk") / "small.json"
    p.write_text(json.dumps(doc), "utf-8")
    return str(p)


@pytest.mark.parametrize(("players", "seed", "views"), [(2, 1, "any"), (3, 2, "any"), (4, 3, "own-side")])
def test_claiming_is_exact_on_small_floors(small_floors: str, players: int, seed: int, views: str) -> None:
    s = new(players, seed, components=small_floors, key_views=views)
    assert SMALL_FLOORS[players][:2] == (s.W, s.D)
    rng = random.Random(seed)
    turns = 0
    while not s.is_over:
        legal = s.legal_actions()
        if s.phase == "turn":
            check_claiming(s, legal)
            turns += 1
        s.apply(rng.choice(legal))
    assert turns > 10

