"""Pocket Mars's observation tensor (#35): cards by place, seats rotated to the observer, the pending question."""

from __future__ import annotations

from typing import Any

import numpy as np  # type: ignore[import-not-found, unused-ignore]  # a build without the rl extra

from .kit import Layout, Writer, make_layout


class PocketMarsEncoder:
    """Pocket Mars, 1-4 players (solo: slot 1 is the Devious Automatics' board). Blocks, in order:

    * cards: per card (35) and place (`PLACES`), 1 if the seat sees it there; in an ordered pile (a building's
      stack, a prep module, the deck's known cards) the value is (position + 1) / the pile's largest size;
    * seats (4 slots): present, hand size, face-down prep cards by colour and position, earth, ship, energy;
    * buildings (4 with colonists): value, colonists per slot on the first and second star, star-2 capacity;
    * counts: deck, face-down discards, draft packets, round;
    * turn: current player, start player, turn owner (slot one-hots), solo;
    * decision: deciding slot, step kind, half (top/bottom/ability), card, building, effect (op, n, who, dir,
      where) and effects left.
    """

    SLOTS = 4
    PLACES = ("hand0", "hand1", "hand2", "hand3", "prep0", "prep1", "prep2", "prep3", "stackG", "stackY", "stackB",
              "stackP", "stackK", "discard", "deck", "in_play", "draft0", "draft1", "draft2", "draft3", "draft_seen",
              "decision")

    def __init__(self) -> None:
        from boardlab.games.pocket_mars import components as C
        from boardlab.games.pocket_mars import rules as R

        self.cards = {cid: i for i, cid in enumerate(C.CARD_IDS)}
        self.colours = {c: i for i, c in enumerate(C.COLOURS)}
        self.letters = {c: i for i, c in enumerate(C.LETTERS)}
        self.n_cards = len(C.CARD_IDS)
        self.max_value = C.MAX_VALUE
        self.rules = C.rules()
        self.steps = {k: i for i, k in enumerate(R.STEP_KINDS)}
        self.ops = {k: i for i, k in enumerate(C.OPS)}
        self.choices = C.CHOICES
        self.n_range = C.N_RANGE
        self.prep_max = self.rules.prep_size + 2  # a prep module may briefly hold more before the 4-card rule
        self.layout = self._layout()
        self.place = {p: i for i, p in enumerate(self.PLACES)}

    def _layout(self) -> Layout:
        """Block name -> (start, length)."""
        s = self.SLOTS
        blocks = [
            ("cards", self.n_cards * len(self.PLACES)),
            ("seat_present", s), ("hand_count", s), ("prep_hidden", s * self.prep_max * len(self.colours)),
            ("earth", s), ("ship", s), ("energy", s),
            ("building_value", 4), ("star", 4 * s), ("star2", 4 * s), ("star2_capacity", 1),
            ("deck_count", 1), ("discard_hidden", 1), ("draft_count", s), ("round", 1),
            ("current", s + 1), ("start", s), ("turn", s), ("solo", 1),
            ("decider", s), ("step", len(self.steps)), ("part", 3), ("card", self.n_cards), ("building", 5),
            ("op", len(self.ops)), ("op_n", 1), ("who", 2), ("dir", 3), ("where", 2), ("left", 1),
        ]
        return make_layout(blocks)

    def size(self, players: int) -> int:
        return self.layout["size"][0]

    def encode(self, view: dict[str, Any], players: int) -> np.ndarray:
        L, w = self.layout, Writer(self.layout)
        seat = int(view["seat"])
        boards = len(view["hands"])

        def slot(q: int | None) -> int | None:
            return None if q is None else (q - seat) % boards

        cards_at, places = L["cards"][0], len(self.PLACES)

        def card(place: str, cid: str | None, value: float = 1.0) -> None:
            if cid is not None:
                w.put(cards_at + self.cards[cid] * places + self.place[place], value)

        n, colonists = self.n_cards, self.rules.colonists
        for q, h in enumerate(view["hands"]):
            k = slot(q)
            assert k is not None
            w.put(L["seat_present"][0] + k, 1.0)
            w.put(L["hand_count"][0] + k, h["hand_count"] / n)
            for cid in h["hand"]:
                card(f"hand{k}", cid)
            for pos, entry in enumerate(h["prep"]):
                card(f"prep{k}", entry["card"], (pos + 1) / self.prep_max)
                if entry["card"] is None:
                    at = L["prep_hidden"][0] + (k * self.prep_max + pos) * len(self.colours)
                    w.put(at + self.colours[entry["colour"]], 1.0)
        board = view["board"]
        for b, bd in enumerate(board["buildings"]):
            for pos, cid in enumerate(bd["stack"]):
                card(f"stack{bd['letter']}", cid, (pos + 1) / n)
            if "value" in bd:
                w.put(L["building_value"][0] + b, bd["value"] / self.max_value)
                for q, (lo, hi) in enumerate(zip(bd["star"], bd["star2"], strict=True)):
                    k = slot(q)
                    assert k is not None
                    w.put(L["star"][0] + b * self.SLOTS + k, lo / colonists)
                    w.put(L["star2"][0] + b * self.SLOTS + k, hi / colonists)
                w.put(L["star2_capacity"][0], bd["star2_capacity"] / colonists)
        for name in ("earth", "ship"):
            for q, v in enumerate(board[name]):
                w.put(L[name][0] + (slot(q) or 0), v / colonists)
        for q, v in enumerate(board["energy"]):
            w.put(L["energy"][0] + (slot(q) or 0), v / view["energy_max"])
        w.put(L["deck_count"][0], view["deck"]["count"] / n)
        for pos, cid in view["deck"]["known"]:
            card("deck", cid, (pos + 1) / n)
        hidden = 0
        for cid in view["discard"]:
            if cid is None:
                hidden += 1
            card("discard", cid)
        w.put(L["discard_hidden"][0], hidden / n)
        for cid in view["in_play"]:
            card("in_play", cid)
        for q, pk in enumerate(view["draft"]):
            k = slot(q) or 0
            w.put(L["draft_count"][0] + k, pk["count"] / n)
            for cid in pk["cards"]:
                card(f"draft{k}", cid)
        for cid in view["draft_seen"]:
            card("draft_seen", cid)
        w.put(L["round"][0], min(view["round"], self.rules.max_rounds) / self.rules.max_rounds)
        cur = slot(view["current_player"])
        w.put(L["current"][0] + (self.SLOTS if cur is None else cur), 1.0)
        w.put(L["start"][0] + (slot(view["start_player"]) or 0), 1.0)
        w.put(L["turn"][0] + (slot(view["turn"]) or 0), 1.0)
        w.put(L["solo"][0], 1.0 if view["solo"] else 0.0)
        d = view["decision"]
        if d is not None:
            w.put(L["decider"][0] + (slot(d["player"]) or 0), 1.0)
            w.put(L["step"][0] + self.steps[d["step"]], 1.0)
            if "part" in d:
                w.put(L["part"][0] + ("top", "bottom", "ability").index(d["part"]), 1.0)
            if d.get("card") is not None:
                w.put(L["card"][0] + self.cards[d["card"]], 1.0)
                card("decision", d["card"])
            if d.get("building") is not None:
                w.put(L["building"][0] + self.letters[d["building"]], 1.0)
            if "effect" in d:
                e = d["effect"]
                w.put(L["op"][0] + self.ops[e["op"]], 1.0)
                w.put(L["op_n"][0], e["n"] / max(self.n_range.values()))
                for key in ("who", "dir", "where"):
                    w.put(L[key][0] + self.choices[key].index(e[key]), 1.0)
            if "left" in d:
                w.put(L["left"][0], d["left"] / n)
        return w.done()

