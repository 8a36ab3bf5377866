"""Petrichor's observation tensor (#35): the field grid as 4×4 planes, the seats' tracks rotated to the observer,
the weather votes, dice and cards by weather, the seat's own hand, and the pending question."""

from __future__ import annotations

from typing import Any

import numpy as np  # type: ignore[import-not-found, unused-ignore]  # a build without the rl extra

from boardlab.games.petrichor.actions import cell_text
from boardlab.games.petrichor.rules import PetrichorState

from .kit import Layout, ViewEncoder, Writer, make_layout, slot_of

SLOTS = 4  # seats, rotated: slot 0 is the observer (solo: slot 1 is the South Wind)
VP_MOST = 100  # the score track's usual reach (saturates)


class PetrichorEncoder(ViewEncoder):
    """Petrichor, 1-4 players; blocks in `layout` order (docs/research.md tables them). `encode` reads the view,
    `tensor` the state itself (the same vector: tests/rl/test_rl_tensor.py)."""

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
        self.planes: dict[tuple[int, int], list[int]] = {}  # (columns, cells) -> each cell's plane index

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

    def tensor(self, state: PetrichorState, seat: int, extra: int = 0) -> np.ndarray:
        """`encode(state.observation_view(seat))`, read off the state (the view's lists and dicts are not built):
        the same features in the same slots, every one a value the view holds for this seat (the seat's own hand,
        the public board); a learner's step builds this."""
        L, w, k = self.layout, Writer(self.layout), self.const
        seats = state.nb  # solo: the South Wind is the second seat
        rot = [(q - seat) % seats for q in range(seats)]
        drops, crops, markers = k["drops_per_player"], len(self.crops), k["markers_per_player"]
        planes = self.planes.get((state.cols, len(state.tile)))
        if planes is None:
            planes = [self.cell(cell_text(*state.rc(i))) for i in range(len(state.tile))]
            self.planes[(state.cols, len(state.tile))] = planes
        tiles, crop_of = state.C.tiles, self.crops
        cell_at, crop_at, threshold_at, growth_at = L["cell"][0], L["crop"][0], L["threshold"][0], L["growth"][0]
        drops_at, cloud_at, cloud_drops_at, dark_at = L["drops"][0], L["cloud"][0], L["cloud_drops"][0], L["dark"][0]
        burst, most_threshold = k["burst_at"], self.threshold
        for i, tile in enumerate(state.tile):
            c = planes[i]
            t = tiles[tile]
            w.put(cell_at + c, 1.0)
            w.put(crop_at + c * crops + crop_of[t.crop], 1.0)
            w.part(threshold_at + c, t.threshold, most_threshold)
            g = state.growth[i]
            if g:
                w.put(growth_at + c * 2 + g - 1, 1.0)
            for q, x in enumerate(state.field[i]):
                w.part(drops_at + c * SLOTS + rot[q], x, drops)
            cl = state.cloud[i]
            if cl is not None:
                w.put(cloud_at + c, 1.0)
                if state.dark[i]:
                    w.put(dark_at + c, 1.0)
                for q, x in enumerate(cl):
                    w.part(cloud_drops_at + c * SLOTS + rot[q], x, burst)
        at = L["seat_present"][0]
        for q in range(seats):
            w.put(at + rot[q], 1.0)
        at, most = L["supply"][0], drops
        for q, x in enumerate(state.supply):
            w.part(at + rot[q], x, most)
        at = L["markers_left"][0]
        for q in range(seats):
            w.part(at + rot[q], state.markers_left(q), markers)
        at = L["vp"][0]
        for q, x in enumerate(state.vp):
            w.part(at + rot[q], x, VP_MOST)
        at = L["voting_wins"][0]
        for q, x in enumerate(state.vw):
            w.part(at + rot[q], x, self.vw_steps)
        at = L["wheat"][0]
        for q, x in enumerate(state.wheat):
            w.part(at + rot[q], x, k["clouds"])
        at = L["hand_count"][0]
        for q, h in enumerate(state.hands):  # solo: the South Wind has no hand
            w.part(at + rot[q], sum(h), self.deck)
        at = L["votes"][0]
        for weather, votes in enumerate(state.votes):
            for q, x in enumerate(votes):
                w.part(at + weather * SLOTS + rot[q], x, markers)
        at = L["hand"][0]
        for weather, x in enumerate(state.hands[seat]):
            w.part(at + weather, x, self.deck)
        at = L["discard"][0]
        for weather, x in enumerate(state.discard):
            w.part(at + weather, x, self.deck)
        w.part(L["deck_count"][0], len(state.deck), self.deck)
        at = L["dice"][0]
        for die, face in enumerate(state.dice):
            w.put(at + die * self.faces + face, 1.0)
        w.part(L["round"][0], state.round, k["long_rounds"])
        w.put(L["long"][0], float(state.rounds == k["long_rounds"]))
        at = L["resolving"][0]
        for pos, weather in enumerate(state.resolving):
            w.put(at + pos * self.weathers + weather, 1.0)
        decider, passer = state.decider, state.passer  # the current player, None once over
        w.put(L["current"][0] + (SLOTS if decider is None else rot[decider]), 1.0)
        w.put(L["start"][0] + rot[state.start], 1.0)
        w.put(L["passer"][0] + (SLOTS if passer is None else rot[passer]), 1.0)
        w.put(L["solo"][0], float(state.solo))
        if state.solo:
            w.part(L["sw_deck"][0], len(state.sw_deck), len(self.south))
            if state.sw_card is not None:
                w.put(L["sw_card"][0] + self.south[state.C.south_wind[state.sw_card].id], 1.0)
            w.part(L["sw_die"][0], state.sw_die, 6)  # type: ignore[arg-type]  # as the view's
        if decider is not None:
            step = state.todo[-1]
            kind = step[0]
            w.put(L["decider"][0] + rot[decider], 1.0)
            w.put(L["step"][0] + self.steps[kind], 1.0)
            if kind == "vote":
                w.put(L["arg_weather"][0] + step[2], 1.0)
            elif kind == "pay":
                w.part(L["arg_count"][0], step[2], k["hand_limit"])
            elif kind == "reclaim":
                w.put(L["arg_cell"][0] + planes[step[2]], 1.0)
        else:
            w.put(L["over"][0], 1.0)
            for q in state.winners():
                w.put(L["winner"][0] + rot[q], 1.0)
        return w.done(extra)
