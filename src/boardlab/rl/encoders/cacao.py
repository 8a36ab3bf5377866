"""Cacao's observation tensor (#35): the jungle as a 20×20 window of planes around the start tiles (tiles by
kind, workers by owner and per side, pending activations), the villages rotated to the observer, the display and
the seat's own hand."""

from __future__ import annotations

from typing import Any

import numpy as np  # type: ignore[import-not-found, unused-ignore]  # a build without the rl extra

from boardlab.games.cacao.rules import CacaoState

from .kit import Layout, ViewEncoder, Writer, make_layout, slot_of

SLOTS = 4
WINDOW = 20  # cells per side of the board window
ORIGIN = -9  # the window covers x, y in ORIGIN .. ORIGIN + WINDOW - 1 (the start tiles are at 0, 0 and 1, 1)
GOLD_MOST = 40  # gold coins: the usual reach (saturates)
PHASES = ("place", "fill", "activate", "over")


def cell(x: int, y: int) -> int:
    """Plane index of board position (x, y); a position beyond the window is clamped to its edge (random and bot
    games stay within x, y in -5 .. 7; the board has no edge, so the window is a choice, documented)."""
    cx = min(max(x - ORIGIN, 0), WINDOW - 1)
    cy = min(max(y - ORIGIN, 0), WINDOW - 1)
    return cy * WINDOW + cx


class CacaoEncoder(ViewEncoder):
    """Cacao, 2-4 players; blocks in `layout` order (docs/research.md tables them). `encode` reads the view,
    `tensor` the state itself (the same vector: tests/rl/test_rl_tensor.py)."""

    def __init__(self) -> None:
        from boardlab.games.cacao import components as C

        comp = C.load()
        self.comp = comp
        self.jungle = {j.id: i for i, j in enumerate(comp.jungle)}
        self.workers = {t.id: i for i, t in enumerate(comp.workers)}
        self.jungle_total = sum(j.count for j in comp.jungle)
        self.worker_total = sum(t.per_colour for t in comp.workers)
        self.most_workers = max(max(t.edges) for t in comp.workers)
        self.layout = self._layout()

    def _layout(self) -> Layout:
        n, s = WINDOW * WINDOW, SLOTS
        return make_layout([
            ("jungle", n * len(self.jungle)), ("worker", n * s), ("edges", n * 4), ("layers", n),
            ("pending", n * 4), ("placed", n), ("to_fill", n),
            ("seat_present", s), ("fruit", s), ("gold", s), ("sun", s), ("water", s), ("hand_count", s),
            ("pile", s), ("hand", len(self.workers)), ("display", len(self.jungle)), ("jungle_pile", 1),
            ("phase", len(PHASES)), ("turn", s), ("current", s + 1), ("rebuild_allowed", 1),
            ("over", 1), ("winner", s),
        ])

    def size(self, players: int) -> int:
        return self.layout["size"][0]

    def encode(self, view: dict[str, Any], players: int) -> np.ndarray:
        w, comp = Writer(self.layout), self.comp
        seat, seats = int(view["seat"]), len(view["villages"])

        def slot(q: int | None, none: int = SLOTS) -> int:
            return slot_of(q, seat, seats, none)

        kinds, jungle = len(self.jungle), self.jungle
        board = view["board"]
        # the board's planes: indices gathered, then one checked write per plane (a late board has 60+ tiles)
        w.ones("jungle", [cell(j["x"], j["y"]) * kinds + jungle[j["tile"]] for j in board["jungle"]])
        rot = [slot(q) for q in range(seats)]
        workers, edge_at, edges, layer_at, layers = [], [], [], [], []
        for t in board["workers"]:
            c = cell(t["x"], t["y"])
            workers.append(c * SLOTS + rot[t["owner"]])
            edge_at += [c * 4 + side for side in range(len(t["edges"]))]
            edges += t["edges"]
            layer_at.append(c)
            layers.append(t["layers"])
        w.ones("worker", workers)
        w.fracs("edges", edge_at, edges, self.most_workers)
        w.fracs("layers", layer_at, layers, 2)
        for edges in view["pending"].values():
            for e in edges:
                w.set("pending", cell(e["x"], e["y"]) * 4 + e["edge"])
        if view["placed"]:
            w.set("placed", cell(*view["placed"]))
        for x, y in view["to_fill"]:
            w.set("to_fill", cell(x, y))
        track = len(comp.water_track) - 1
        for q, v in enumerate(view["villages"]):
            j = slot(q)
            w.set("seat_present", j)
            w.frac("fruit", j, v["fruit"], comp.storage)
            w.frac("gold", j, v["gold"], GOLD_MOST)
            w.frac("sun", j, v["sun"], comp.sun_max)
            w.frac("water", j, v["water"], track)
            w.frac("hand_count", j, v["hand"], comp.hand_size)
            w.frac("pile", j, v["pile"], self.worker_total)
        counts: dict[str, int] = {}
        for t in view["hand"] or ():
            counts[t] = counts.get(t, 0) + 1
        for t, k in counts.items():
            w.frac("hand", self.workers[t], k, comp.hand_size)
        counts = {}
        for t in view["display"]:
            counts[t] = counts.get(t, 0) + 1
        for t, k in counts.items():
            w.frac("display", self.jungle[t], k, comp.display_size)
        w.frac("jungle_pile", 0, view["jungle_pile"], self.jungle_total)
        w.set("phase", PHASES.index(view["phase"]))
        w.set("turn", slot(view["turn"]))
        w.set("current", slot(view["current_player"]))
        w.set("rebuild_allowed", 0, float(view["rebuild_allowed"]))
        if view.get("winners") is not None:
            w.set("over", 0)
            for q in view["winners"]:
                w.set("winner", slot(q))
        return w.done()

    def tensor(self, state: CacaoState, seat: int, extra: int = 0) -> np.ndarray:
        """`encode(state.observation_view(seat))`, read off the state (the view's lists and dicts are not built):
        the same features in the same slots, every one a value the view holds for this seat (its own hand, the
        public rest); a learner's step builds this."""
        L, w, comp = self.layout, Writer(self.layout), self.comp
        seats = len(state.villages)
        rot = [(q - seat) % seats for q in range(seats)]
        kinds, jungle = len(self.jungle), self.jungle
        at = L["jungle"][0]
        for (x, y), tile in state.jungle.items():
            w.put(at + cell(x, y) * kinds + jungle[tile], 1.0)
        worker_at, edges_at, layers_at, most = L["worker"][0], L["edges"][0], L["layers"][0], self.most_workers
        for (x, y), worker in state.workers.items():
            c = cell(x, y)
            w.put(worker_at + c * SLOTS + rot[worker.owner], 1.0)
            for side, n in enumerate(worker.edges):
                w.part(edges_at + c * 4 + side, n, most)
            w.part(layers_at + c, worker.layers, 2)
        at = L["pending"][0]
        for edges in state.pending.values():
            for e in edges:
                w.put(at + cell(e.x, e.y) * 4 + e.edge, 1.0)
        if state.placed:
            w.put(L["placed"][0] + cell(*state.placed), 1.0)
        at = L["to_fill"][0]
        for x, y in state.to_fill:
            w.put(at + cell(x, y), 1.0)
        track = len(comp.water_track) - 1
        present_at, fruit_at, gold_at, sun_at = L["seat_present"][0], L["fruit"][0], L["gold"][0], L["sun"][0]
        water_at, hand_at, pile_at = L["water"][0], L["hand_count"][0], L["pile"][0]
        for q, v in enumerate(state.villages):
            j = rot[q]
            w.put(present_at + j, 1.0)
            w.part(fruit_at + j, v.fruit, comp.storage)
            w.part(gold_at + j, v.gold, GOLD_MOST)
            w.part(sun_at + j, v.sun, comp.sun_max)
            w.part(water_at + j, v.water, track)
            w.part(hand_at + j, len(state.hands[q]), comp.hand_size)
            w.part(pile_at + j, len(state.decks[q]), self.worker_total)
        counts: dict[str, int] = {}
        for tile in state.hands[seat]:
            counts[tile] = counts.get(tile, 0) + 1
        at = L["hand"][0]
        for tile, k in counts.items():
            w.part(at + self.workers[tile], k, comp.hand_size)
        counts = {}
        for tile in state.display:
            counts[tile] = counts.get(tile, 0) + 1
        at = L["display"][0]
        for tile, k in counts.items():
            w.part(at + jungle[tile], k, comp.display_size)
        w.part(L["jungle_pile"][0], len(state.pile), self.jungle_total)
        w.put(L["phase"][0] + PHASES.index(state.phase), 1.0)
        w.put(L["turn"][0] + rot[state.turn], 1.0)
        current = state.current_player
        w.put(L["current"][0] + (SLOTS if current is None else rot[current]), 1.0)
        w.put(L["rebuild_allowed"][0], float(not state.pile and not state.display))
        if state.is_over:
            w.put(L["over"][0], 1.0)
            for q in state.winners():
                w.put(L["winner"][0] + rot[q], 1.0)
        return w.done(extra)
