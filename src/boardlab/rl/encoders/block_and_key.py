"""Block and Key's observation tensor (#35): the temple as an 8×8×6 voxel grid of planes (each cube's colour, the
block's shape and who placed it), the floor and the core cube, blocks by excavation site and supply, key cards
claimed (public) and in the seat's own hand, its own Enigma colour, and the solo game's ancients."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np  # type: ignore[import-not-found, unused-ignore]  # a build without the rl extra

from .kit import Layout, Memo, ViewEncoder, Writer, make_layout, slot_of

SLOTS = 4  # seats, rotated (slot 0 is the observer); placer slot 4 is the solo game's ancients
MOST = 8  # cards in a hand (a count without a printed limit: saturates)
POINTS_MOST = 60  # key points: the usual reach (saturates)
PHASES = ("orient", "draft", "return", "claim", "discard", "marker", "draw", "turn", "ancient", "over")
DECKS = ("star", "sun", "moon")
OPTIONS = ("key_views", "enigma_rounding", "face_contact")


class BlockAndKeyEncoder(ViewEncoder):
    """Block and Key, 1-4 players; blocks in `layout` order (docs/research.md tables them)."""

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
