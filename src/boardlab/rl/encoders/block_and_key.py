"""Block and Key's observation tensor (#35): the temple as an 8×8×6 voxel grid of planes (each cube's colour, the
block's shape and who placed it), the floor and the core cube, blocks by excavation site and supply, key cards
claimed (public) and in the seat's own hand, its own Enigma colour, and the solo game's ancients."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np  # type: ignore[import-not-found, unused-ignore]  # a build without the rl extra

from boardlab.games.block_and_key.rules import BlockAndKeyState

from .kit import Layout, Memo, ViewEncoder, Writer, make_layout, slot_of

SLOTS = 4  # seats, rotated (slot 0 is the observer); placer slot 4 is the solo game's ancients
MOST = 8  # cards in a hand (a count without a printed limit: saturates)
POINTS_MOST = 60  # key points: the usual reach (saturates)
PHASES = ("orient", "draft", "return", "claim", "discard", "marker", "draw", "turn", "ancient", "over")
DECKS = ("star", "sun", "moon")
OPTIONS = ("key_views", "enigma_rounding", "face_contact")


class BlockAndKeyEncoder(ViewEncoder):
    """Block and Key, 1-4 players; blocks in `layout` order (docs/research.md tables them). `encode` reads the view,
    `tensor` the state itself (the same vector: tests/rl/test_rl_tensor.py)."""

    def __init__(self) -> None:
        from boardlab.core import get_game
        from boardlab.games.block_and_key import components as C
        from boardlab.games.block_and_key import rules as R

        comp = C.components()
        self.comp = comp
        self.W = self.D = C.MAX_FLOOR
        self.H = C.HEIGHT
        self.cells = self.W * self.D
        self.voxels = self.cells * self.H
        self.colours = {c: i for i, c in enumerate(comp.colours)}
        self.blocks = {b: i for i, b in enumerate(comp.block_ids)}
        self.shapes = len(comp.shapes)
        self.keys = {k.id: i for i, k in enumerate(comp.keys)}
        self.deck_size = {d: sum(k.deck == d for k in comp.keys) for d in DECKS}
        self.sites = 9
        self.solo_turns = R.SOLO_TURNS
        options = get_game("block_and_key").options
        self.options = {name: options[name].choices or () for name in OPTIONS}
        self.layout = self._layout()
        self.memo = Memo()
        # `tensor`'s: per (components, seat, seats, extra) the temple (placed blocks and floor) and the vector of its
        # writes alone, the base of every tensor of that temple (copied), its blocks placed since added to it in
        # place; per temple's colour planes, which keys match in which views and the Enigma faces per side and colour
        self.temples: dict[tuple[int, int, int, int], tuple[Any, np.ndarray]] = {}
        self.facts: dict[tuple[Any, ...], dict[tuple[Any, ...], Any]] = {}
        self.ids: dict[int, tuple[Any, list[int], list[int], list[int], list[int]]] = {}  # per components: `_ids`
        self.option_at = [self.layout[f"option_{name}"][0] for name in OPTIONS]
        self.cubes: dict[tuple[int, tuple[int, ...], int], list[int]] = {}  # `_placed`'s: per placement and slot

    def _layout(self) -> Layout:
        s, v, b, k, c = SLOTS, self.voxels, len(self.blocks), len(self.keys), len(self.colours)
        return make_layout([
            ("cube_colour", v * c), ("cube_shape", v * self.shapes), ("cube_by", v * (s + 1)),
            ("floor", self.cells), ("core", self.cells), ("core_turn", 4),
            ("site", self.sites * b), ("supply", s * b), ("bag", 1), ("decks", 2),
            ("seat_present", s), ("hand_count", s), ("hand_decks", s * len(DECKS)), ("claimed", s * k),
            ("key_points", s), ("enigma", s * c),
            ("hand", k), ("enigma_faces", 1), ("matchable", k), ("claimable", k), ("last_claims", k),
            ("final_round", 1), ("phase", len(PHASES)), ("current", s + 1), ("turn", s),
            *((f"option_{name}", len(self.options[name])) for name in OPTIONS),
            ("solo", 1), ("solo_turn", 1), ("markers", 1), ("ancient_block", b), ("ancient_card", k),
            ("ancient_corner", 4), ("ancient_site", self.sites), ("ancient_placed", 1), ("under_altars", 2 * k),
            ("over", 1), ("winner", s),
        ])

    def size(self, players: int) -> int:
        return self.layout["size"][0]

    def _temple(self, w: Writer, t: dict[str, Any], slot: Callable[[int], int]) -> None:
        """The voxel planes and the floor: indices gathered, then one checked write per plane (a late temple has
        150+ cubes)."""
        comp, W, D, shapes, nc = self.comp, self.W, self.D, self.shapes, len(self.colours)
        colours, kinds, placers = [], [], []
        for blk in t["blocks"]:
            b = self.blocks[blk["block"]]
            colour, shape = comp.block_colour(b), comp.block_shape(b)
            by = SLOTS if blk["by"] < 0 else slot(blk["by"])  # -1: the ancients (solo)
            cubes = [(z * D + y) * W + x for x, y, z in blk["cubes"]]
            colours += [i * nc + colour for i in cubes]
            kinds += [i * shapes + shape for i in cubes]
            placers += [i * (SLOTS + 1) + by for i in cubes]
        w.ones("cube_colour", colours)
        w.ones("cube_shape", kinds)
        w.ones("cube_by", placers)
        w.ones("floor", [y * W + x for y in range(t["depth"]) for x in range(t["width"])])

    def _ids(self, comp: Any) -> tuple[list[int], list[int], list[int], list[int]]:
        """A state's block, key and Enigma numbers as this encoder's block, key and colour indices (the view names
        them by id: a state built from another components file numbers them its own way), and each key's deck
        (index in DECKS), once per components."""
        hit = self.ids.get(id(comp))
        if hit is None or hit[0] is not comp:
            hit = (comp, [self.blocks[b] for b in comp.block_ids], [self.keys[k.id] for k in comp.keys],
                   [self.colours[comp.colours[c]] for c in comp.enigmas], [DECKS.index(k.deck) for k in comp.keys])
            self.ids[id(comp)] = hit
        return hit[1], hit[2], hit[3], hit[4]

    def encode(self, view: dict[str, Any], players: int) -> np.ndarray:
        w = Writer(self.layout)
        seat, seats = int(view["seat"]), len(view["seats"])
        nc, nk, nb = len(self.colours), len(self.keys), len(self.blocks)

        def slot(q: int | None, none: int = SLOTS) -> int:
            return slot_of(q, seat, seats, none)

        t = view["temple"]
        part = (t["blocks"], t["depth"], t["width"])  # most steps place nothing: the temple repeats
        mark = self.memo.replay(w, (seat, seats), part)
        if mark is not None:
            self._temple(w, t, slot)
            self.memo.keep(w, (seat, seats), part, mark)
        cx, cy = t["core"]
        for dx in range(2):
            for dy in range(2):
                w.set("core", (cy + dy) * self.W + cx + dx)
        w.set("core_turn", t["core_turn"])
        for pos, bid in enumerate(view["site"]):
            if bid is not None:
                w.set("site", pos * nb + self.blocks[bid])
        w.frac("bag", 0, view["bag"], nb)
        for d, name in enumerate(("sun", "moon")):
            w.frac("decks", d, view["decks"][name], self.deck_size[name])
        for q, e in enumerate(view["seats"]):
            j = slot(q)
            w.set("seat_present", j)
            for bid in e["supply"]:
                w.set("supply", j * nb + self.blocks[bid])
            w.frac("hand_count", j, e["hand_count"], MOST)
            for n, deck in enumerate(DECKS):
                w.frac("hand_decks", j * len(DECKS) + n, e["hand_decks"].count(deck), MOST)
            for key in e["claimed"]:
                w.set("claimed", j * nk + self.keys[key["id"]])
            w.frac("key_points", j, e["key_points"], POINTS_MOST)
            if "enigma" in e:  # the seat's own, and everyone's once the game is over
                w.set("enigma", j * nc + self.colours[e["enigma"]])
            if q == seat:
                for key in e["hand"]:
                    w.set("hand", self.keys[key["id"]])
                w.frac("enigma_faces", 0, e["enigma_faces"], self.W * self.H)
                for kid in e["matchable"]:
                    w.set("matchable", self.keys[kid])
                for kid in e.get("claimable", ()):
                    w.set("claimable", self.keys[kid])
        for kid in view["last_claims"]:
            w.set("last_claims", self.keys[kid])
        w.set("final_round", 0, float(view["final_round"]))
        w.set("phase", PHASES.index(view["phase"]))
        w.set("current", slot(view["current_player"]))
        w.set("turn", slot(view["turn"]))
        for name in OPTIONS:
            w.set(f"option_{name}", self.options[name].index(view["options"][name]))
        if view["solo"]:
            w.set("solo", 0)
            w.frac("solo_turn", 0, view["solo_turn"], self.solo_turns)
            w.frac("markers", 0, view["markers"], self.solo_turns)
            a = view["ancients"]
            if a is not None:  # the card they drew (its site and corner), the block they took, then where it went
                if a.get("block") is not None:
                    w.set("ancient_block", self.blocks[a["block"]])
                if "card" in a:
                    w.set("ancient_card", self.keys[a["card"]])
                    w.set("ancient_corner", a["corner"] - 1)
                    w.set("ancient_site", a["site"] - 1)
                w.set("ancient_placed", 0, float(a.get("placed") is not None))
            for d, known in enumerate(view.get("under_altars") or ()):
                for pos, kid in enumerate(known):
                    w.set("under_altars", d * nk + self.keys[kid], (pos + 1) / len(self.keys))
        if view.get("winners") is not None:
            w.set("over", 0)
            for q in view["winners"]:
                w.set("winner", slot(q))
        return w.done()

    def tensor(self, state: BlockAndKeyState, seat: int, extra: int = 0) -> np.ndarray:
        """`encode(state.observation_view(seat))`, read off the state (the view's dicts are not built): the same
        features in the same slots, every one a value the view holds for this seat (its own hand, Enigma card and
        matches, everyone's Enigma card only once the game is over, the keys under the altars only to the solo
        player; the rest is public); a learner's step builds this."""
        L, w = self.layout, Writer(self.layout)
        seats = state.num_players
        rot = [(q - seat) % seats for q in range(seats)]
        bmap, kmap, emap, deck_of = self._ids(state.comp)
        nc, nk, nb, W = len(self.colours), len(self.keys), len(self.blocks), self.W
        placed = state.placed
        part = (tuple(placed), state.D, state.W)  # most steps place nothing: the temple repeats
        temple_key = (id(bmap), seat, seats, extra)
        temple = self.temples.get(temple_key)
        if temple is None or temple[0] != part:
            n = len(temple[0][0]) if temple is not None else 0
            if temple is not None and temple[0][1:] == part[1:] and part[0][:n] == temple[0][0]:
                base = temple[1]  # blocks placed since: their cubes added in place (`done` copies the base)
                base[self._placed(state, rot, bmap, n)] = 1.0
            else:
                t = Writer(L)
                t.marks(self._placed(state, rot, bmap, 0))
                base = t.done(extra)
            temple = self.temples[temple_key] = (part, base)
        ones: list[int] = []  # the slots set to 1, stored at once (`Writer.marks`): a call per write cost more
        one = ones.append
        cx, cy = state.floor.core
        at = L["core"][0]
        for dy in range(2):
            for dx in range(2):
                one(at + (cy + dy) * W + cx + dx)
        one(L["core_turn"][0] + state.core_turn)
        at = L["site"][0]
        for pos, b in enumerate(state.site):
            if b >= 0:
                one(at + pos * nb + bmap[b])
        w.part(L["bag"][0], len(state.bag), nb)
        at = L["decks"][0]
        for d, name in enumerate(("sun", "moon")):
            w.part(at + d, len(state.decks[d]), self.deck_size[name])
        present_at, supply_at, count_at, decks_at = (L["seat_present"][0], L["supply"][0], L["hand_count"][0],
                                                     L["hand_decks"][0])
        claimed_at, points_at, enigma_at = L["claimed"][0], L["key_points"][0], L["enigma"][0]
        over = state.is_over
        for q in range(seats):
            j = rot[q]
            one(present_at + j)
            for b in state.supply[q]:
                one(supply_at + j * nb + bmap[b])
            hand = state.hands[q]
            w.part(count_at + j, len(hand), MOST)
            per_deck = [0, 0, 0]
            for k in hand:  # every hand's decks are public (the card backs)
                per_deck[deck_of[k]] += 1
            for n in range(3):
                if per_deck[n]:
                    w.part(decks_at + j * 3 + n, per_deck[n], MOST)
            for k in state.claimed[q]:
                one(claimed_at + j * nk + kmap[k])
            w.part(points_at + j, state.key_points(q), POINTS_MOST)
            if q == seat or over:  # the seat's own Enigma card, and everyone's once the game is over
                one(enigma_at + j * nc + emap[state.enigma[q]])
        hand = state.hands[seat]
        at = L["hand"][0]
        for k in hand:
            one(at + kmap[k])
        # which keys show and how many faces show the seat's Enigma colour depend only on the views' colour planes
        # (`key_match`, `enigma_faces`): the same temple is asked again at every step until a block is placed
        facts_key = (id(bmap), state.W, state.D, tuple(state.planes))
        facts = self.facts.get(facts_key)
        if facts is None:
            if len(self.facts) >= 1_000:
                self.facts.clear()
            facts = self.facts[facts_key] = {}
        faces_key = ("faces", state.view_of[seat], state.enigma[seat])
        faces = facts.get(faces_key)
        if faces is None:
            faces = facts[faces_key] = state.enigma_faces(seat)
        w.part(L["enigma_faces"][0], faces, self.W * self.H)
        at = L["matchable"][0]
        views = state.allowed_views(seat)
        for k in hand:
            m = facts.get((views, k))
            if m is None:
                m = facts[(views, k)] = state.key_match(k, seat, None) is not None
            if m:
                one(at + kmap[k])
        if state.phase == "claim" and state.actor == seat:
            at = L["claimable"][0]
            for k in state.offer:
                one(at + kmap[k])
        if state.phase != "turn":
            at = L["last_claims"][0]
            for k in state.claimed_now:
                one(at + kmap[k])
        w.put(L["final_round"][0], float(state.final))
        one(L["phase"][0] + PHASES.index(state.phase))
        actor, turn = state.actor, state.turn_seat  # the current player, None once over
        one(L["current"][0] + (SLOTS if actor is None else rot[actor]))
        one(L["turn"][0] + (SLOTS if turn is None else rot[turn]))
        for name, at in zip(OPTIONS, self.option_at, strict=True):
            one(at + self.options[name].index(state.options[name]))
        if state.solo:
            one(L["solo"][0])
            w.part(L["solo_turn"][0], state.solo_turn, self.solo_turns)
            w.part(L["markers"][0], len(state.markers), self.solo_turns)
            a = state.last_ancient
            if a is not None:  # the card they drew (its site and corner), the block they took, then where it went
                if a.get("block") is not None:
                    one(L["ancient_block"][0] + self.blocks[a["block"]])
                if "card" in a:
                    one(L["ancient_card"][0] + self.keys[a["card"]])
                    one(L["ancient_corner"][0] + a["corner"] - 1)
                    one(L["ancient_site"][0] + a["site"] - 1)
                w.put(L["ancient_placed"][0], float(a.get("placed") is not None))
            if seat == 0:  # the solo player knows the keys they put under an altar
                at = L["under_altars"][0]
                for d in range(2):
                    for pos, k in enumerate(state.decks[d][: state.known_bottom[d]]):
                        w.put(at + d * nk + kmap[k], (pos + 1) / nk)
        if over:
            one(L["over"][0])
            at = L["winner"][0]
            for q in state.winners():
                one(at + rot[q])
        w.marks(ones)
        return w.done(extra, temple[1])

    def _placed(self, state: BlockAndKeyState, rot: list[int], bmap: list[int], start: int) -> list[int]:
        """`_temple` read off the state's placed blocks from the `start`-th on: each cube's colour, shape and placer,
        then (from the first) the floor; the indices set to 1. A placed block's writes are remembered per placement
        and placer's slot (a game places a few dozen blocks, and the temple is read again after each one)."""
        L, W = self.layout, self.W
        cubes, out, ids = self.cubes, [], id(bmap)  # `bmap`: one list per components (`_ids`)
        for p in state.placed[start:]:
            q = p[5]
            key = (ids, p, SLOTS if q < 0 else rot[q])  # -1: the ancients (solo)
            got = cubes.get(key)
            if got is None:
                got = self._cubes(state, p[:5], key[2], bmap)
                if len(cubes) >= 20_000:  # ~5 MB at most (a block has 3-5 cubes, 3 planes each)
                    cubes.clear()
                cubes[key] = got
            out += got
        if not start:
            at = L["floor"][0]
            out += [at + y * W + x for y in range(state.D) for x in range(state.W)]
        return out

    def _cubes(self, state: BlockAndKeyState, where: tuple[int, ...], by: int, bmap: list[int]) -> list[int]:
        """The cube planes' indices of block b in orientation o anchored at x, y, z (`where`), placed by slot `by`."""
        L, comp, W, D, shapes, nc = self.layout, self.comp, self.W, self.D, self.shapes, len(self.colours)
        b, o, x, y, z = where
        e = bmap[b]
        colour, shape = L["cube_colour"][0] + comp.block_colour(e), L["cube_shape"][0] + comp.block_shape(e)
        placer = L["cube_by"][0] + by
        out: list[int] = []
        for dx, dy, dz in state.orientation(b, o).cubes:
            i = ((z + dz) * D + y + dy) * W + x + dx
            out += (colour + i * nc, shape + i * shapes, placer + i * (SLOTS + 1))
        return out
