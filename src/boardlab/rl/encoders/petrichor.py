"""Petrichor's observation tensor (#35): the field grid as 4×4 planes, the seats' tracks rotated to the observer,
the weather votes, dice and cards by weather, the seat's own hand, and the pending question."""

from __future__ import annotations

from typing import Any

import numpy as np  # type: ignore[import-not-found, unused-ignore]  # a build without the rl extra

from .kit import Layout, Writer, make_layout, slot_of

SLOTS = 4  # seats, rotated: slot 0 is the observer (solo: slot 1 is the South Wind)
VP_MOST = 100  # the score track's usual reach (saturates)


class PetrichorEncoder:
    """Petrichor, 1-4 players; blocks in `layout` order (docs/research.md tables them)."""

    def __init__(self) -> None:
        from boardlab.games.petrichor import components as C
        from boardlab.games.petrichor import rules as R

        comp = C.packaged()
        self.const = comp.const
        self.rows, self.cols = C.MAX_ROWS, C.MAX_COLS
        self.cells = self.rows * self.cols
        self.crops = {c: i for i, c in enumerate(C.CROPS)}
        self.weathers = len(C.WEATHERS)
        self.faces = max(comp.die_faces) + 1
        self.dice = comp.const["harvest_dice"]
        self.deck = len(comp.deck)
        self.threshold = max(t.threshold for t in comp.tiles)
        self.vw_steps = len(comp.voting_wins) - 1
        self.steps = {k: i for i, k in enumerate(R.STEP_KINDS)}
        self.south = {c.id: i for i, c in enumerate(comp.south_wind)}
        self.layout = self._layout()

    def _layout(self) -> Layout:
        s, n, w = SLOTS, self.cells, self.weathers
        return make_layout([
            ("cell", n), ("crop", n * len(self.crops)), ("threshold", n), ("growth", n * 2),
            ("drops", n * s), ("cloud", n), ("cloud_drops", n * s), ("dark", n),
            ("seat_present", s), ("supply", s), ("markers_left", s), ("vp", s), ("voting_wins", s), ("wheat", s),
            ("hand_count", s), ("votes", w * s), ("hand", w), ("discard", w), ("deck_count", 1),
            ("dice", self.dice * self.faces), ("round", 1), ("long", 1), ("resolving", w * w),
            ("current", s + 1), ("start", s), ("passer", s + 1), ("solo", 1),
            ("sw_deck", 1), ("sw_card", len(self.south)), ("sw_die", 1),
            ("decider", s), ("step", len(self.steps)), ("arg_weather", w), ("arg_count", 1), ("arg_cell", n),
            ("over", 1), ("winner", s),
        ])

    def size(self, players: int) -> int:
        return self.layout["size"][0]

    def cell(self, name: str) -> int:
        """Plane index of a cell name ("B2": column B, row 2)."""
        return (int(name[1:]) - 1) * self.cols + ord(name[0]) - ord("A")

    def encode(self, view: dict[str, Any], players: int) -> np.ndarray:
        w = Writer(self.layout)
        seat, k = int(view["seat"]), self.const
        seats = len(view["supply"])  # solo: the South Wind is the second seat

        def slot(q: int | None, none: int = SLOTS) -> int:
            return slot_of(q, seat, seats, none)

        drops, crops = k["drops_per_player"], len(self.crops)
        rot = [slot(q) for q in range(seats)]
        # the cells' planes: indices and values gathered, then one checked write per plane
        cell, crop, threshold, tvalue, growth, cloud, dark = [], [], [], [], [], [], []
        at, counts, cloud_at, cloud_counts = [], [], [], []
        for c in view["cells"]:
            i = self.cell(c["cell"])
            cell.append(i)
            crop.append(i * crops + self.crops[c["crop"]])
            threshold.append(i)
            tvalue.append(c["threshold"])
            if c["growth"] != "none":
                growth.append(i * 2 + ("sprouted", "grown").index(c["growth"]))
            at += [i * SLOTS + rot[q] for q in range(len(c["drops"]))]
            counts += c["drops"]
            if c["cloud"] is not None:
                cloud.append(i)
                if c["cloud"]["dark"]:
                    dark.append(i)
                cloud_at += [i * SLOTS + rot[q] for q in range(len(c["cloud"]["drops"]))]
                cloud_counts += c["cloud"]["drops"]
        for block, indices in (("cell", cell), ("crop", crop), ("growth", growth), ("cloud", cloud), ("dark", dark)):
            w.ones(block, indices)
        w.fracs("threshold", threshold, tvalue, self.threshold)
        w.fracs("drops", at, counts, drops)
        w.fracs("cloud_drops", cloud_at, cloud_counts, k["burst_at"])
        for q in range(seats):
            w.set("seat_present", slot(q))
        for block, key, most in (("supply", "supply", drops), ("markers_left", "markers_left", k["markers_per_player"]),
                                 ("vp", "vp", VP_MOST), ("voting_wins", "voting_wins", self.vw_steps),
                                 ("wheat", "wheat", k["clouds"]), ("hand_count", "hand_counts", self.deck)):
            for q, x in enumerate(view[key]):  # solo: the South Wind has no hand
                w.frac(block, slot(q), x, most)
        for weather, votes in enumerate(view["votes"]):
            for q, x in enumerate(votes):
                w.frac("votes", weather * SLOTS + slot(q), x, k["markers_per_player"])
        for weather, x in enumerate(view["hand"] or ()):
            w.frac("hand", weather, x, self.deck)
        for weather, x in enumerate(view["discard"]):
            w.frac("discard", weather, x, self.deck)
        w.frac("deck_count", 0, view["deck_count"], self.deck)
        for d, face in enumerate(view["dice"]):
            w.set("dice", d * self.faces + face)
        w.frac("round", 0, view["round"], k["long_rounds"])
        w.set("long", 0, float(view["rounds"] == k["long_rounds"]))
        for pos, weather in enumerate(view["resolving"]):
            w.set("resolving", pos * self.weathers + weather)
        w.set("current", slot(view["current_player"]))
        w.set("start", slot(view["start_player"]))
        w.set("passer", slot(view["passer"]))
        w.set("solo", 0, float(view["solo"]))
        sw = view.get("south_wind")
        if sw is not None:
            w.frac("sw_deck", 0, sw["deck_count"], len(self.south))
            if sw["card"] is not None:
                w.set("sw_card", self.south[sw["card"]])
            w.frac("sw_die", 0, sw["die"], 6)
        dec = view["decision"]  # not `d`: compiled, a name keeps the type it first had (an int above)
        if dec is not None:
            w.set("decider", slot(dec["player"]))
            w.set("step", self.steps[dec["step"]])
            if dec["step"] == "vote":
                w.set("arg_weather", dec["arg"])
            elif dec["step"] == "pay":
                w.frac("arg_count", 0, dec["arg"], k["hand_limit"])
            elif dec["step"] == "reclaim":
                w.set("arg_cell", self.cell(dec["arg"]))
        if view.get("winners") is not None:
            w.set("over", 0)
            for q in view["winners"]:
                w.set("winner", slot(q))
        return w.done()
