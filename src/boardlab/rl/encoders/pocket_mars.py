"""Pocket Mars's observation tensor (#35): cards by place, seats rotated to the observer, the pending question."""

from __future__ import annotations

from typing import Any

import numpy as np  # type: ignore[import-not-found, unused-ignore]  # a build without the rl extra

from boardlab.games.pocket_mars.components import BLACK, CARD_IDS, COLOURS, LETTERS
from boardlab.games.pocket_mars.effects import ALL_SEEN
from boardlab.games.pocket_mars.rules import PocketMarsState

from .kit import Layout, ViewEncoder, Writer, make_layout


class PocketMarsEncoder(ViewEncoder):
    """Pocket Mars, 1-4 players (solo: slot 1 is the Devious Automatics' board). `encode` reads the view, `tensor`
    the state itself (the same vector: tests/rl/test_rl_tensor.py). Blocks, in order:

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
        # `tensor`'s tables: a state's card, colour and building numbers -> this encoder's rows; each place's column
        self.card_row = [self.cards[cid] for cid in CARD_IDS]
        self.colour_row = [self.colours[c] for c in COLOURS]
        self.letter_row = [self.letters[b] for b in LETTERS]
        self.at_hand = [self.place[f"hand{k}"] for k in range(self.SLOTS)]
        self.at_prep = [self.place[f"prep{k}"] for k in range(self.SLOTS)]
        self.at_draft = [self.place[f"draft{k}"] for k in range(self.SLOTS)]
        self.at_stack = [self.place[f"stack{b}"] for b in LETTERS]
        self.n_most = max(self.n_range.values())

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

    def tensor(self, state: PocketMarsState, seat: int, extra: int = 0) -> np.ndarray:
        """`encode(state.observation_view(seat))`, read off the state (the view's lists and dicts are not built):
        the same features in the same slots, a card's identity written only where the seat knows it (the view's
        rule, `PocketMarsState.knows`); a learner's step builds this."""
        L, w = self.layout, Writer(self.layout)
        boards, slots, bit = state.nb, self.SLOTS, 1 << seat
        seen, row, places = state.seen, self.card_row, len(self.PLACES)
        cards_at = L["cards"][0]
        n, colonists, prep_max = self.n_cards, self.rules.colonists, self.prep_max
        present_at, count_at, hidden_at = L["seat_present"][0], L["hand_count"][0], L["prep_hidden"][0]
        colours, colour_of = len(self.colours), state.cards.colour
        for q in range(boards):
            k = (q - seat) % boards
            hand = state.hands[q]
            w.put(present_at + k, 1.0)
            w.put(count_at + k, len(hand) / n)
            place = self.at_hand[k]
            for c in hand:
                if seen[c] & bit or seen[c] == ALL_SEEN:
                    w.put(cards_at + row[c] * places + place, 1.0)
            place = self.at_prep[k]
            for pos, c in enumerate(state.prep[q]):
                if seen[c] & bit or seen[c] == ALL_SEEN:
                    w.put(cards_at + row[c] * places + place, (pos + 1) / prep_max)
                else:
                    w.put(hidden_at + (k * prep_max + pos) * colours + self.colour_row[colour_of[c]], 1.0)
        value_at, star_at, star2_at = L["building_value"][0], L["star"][0], L["star2"][0]
        for b in range(5):
            stack = state.stacks[b]
            place = self.at_stack[b]
            for pos, c in enumerate(stack):
                w.put(cards_at + row[c] * places + place, (pos + 1) / n)
            if b != BLACK:
                value = state.cards.value[stack[-1]] if stack else state.R.buildings[b].value
                w.put(value_at + b, value / self.max_value)
                for q, lo in enumerate(state.lo[b]):
                    k = (q - seat) % boards
                    w.put(star_at + b * slots + k, lo / colonists)
                    w.put(star2_at + b * slots + k, state.hi[b][q] / colonists)
                w.put(L["star2_capacity"][0], state.cap / colonists)
        at = L["earth"][0]
        for q, x in enumerate(state.earth):
            w.put(at + (q - seat) % boards, x / colonists)
        at = L["ship"][0]
        for q, x in enumerate(state.ship):
            w.put(at + (q - seat) % boards, x / colonists)
        at, most = L["energy"][0], state.R.energy_max
        for q, x in enumerate(state.energy):
            w.put(at + (q - seat) % boards, x / most)
        w.put(L["deck_count"][0], len(state.deck) / n)
        place = self.place["deck"]
        for pos, c in enumerate(state.deck):
            if seen[c] & bit or seen[c] == ALL_SEEN:
                w.put(cards_at + row[c] * places + place, (pos + 1) / n)
        hidden, place = 0, self.place["discard"]
        for c in state.discard:
            if seen[c] & bit or seen[c] == ALL_SEEN:
                w.put(cards_at + row[c] * places + place, 1.0)
            else:
                hidden += 1
        w.put(L["discard_hidden"][0], hidden / n)
        place = self.place["in_play"]
        for c in state.limbo:
            w.put(cards_at + row[c] * places + place, 1.0)
        at = L["draft_count"][0]
        for q, packet in enumerate(state.packets):
            k = (q - seat) % boards
            w.put(at + k, len(packet) / n)
            place = self.at_draft[k]
            for c in packet:
                if seen[c] & bit or seen[c] == ALL_SEEN:
                    w.put(cards_at + row[c] * places + place, 1.0)
        place = self.place["draft_seen"]
        for c, m in enumerate(state.drafted):
            if m & bit:
                w.put(cards_at + row[c] * places + place, 1.0)
        rounds = self.rules.max_rounds
        w.put(L["round"][0], min(state.round, rounds) / rounds)
        decider, turn = state.decider, state.turn  # the current player, None once over
        w.put(L["current"][0] + (slots if decider is None else (decider - seat) % boards), 1.0)
        w.put(L["start"][0] + (state.start - seat) % boards, 1.0)
        w.put(L["turn"][0] + (0 if turn is None else (turn - seat) % boards), 1.0)
        w.put(L["solo"][0], 1.0 if state.solo else 0.0)
        if decider is not None:
            step = state.todo[-1]
            kind = step[0]
            w.put(L["decider"][0] + (decider - seat) % boards, 1.0)
            w.put(L["step"][0] + self.steps[kind], 1.0)
            if kind == "half":
                c, b = step[2], step[4]
                w.put(L["part"][0] + step[3], 1.0)
                if c >= 0:
                    w.put(L["card"][0] + row[c], 1.0)
                    w.put(cards_at + row[c] * places + self.place["decision"], 1.0)
                w.put(L["building"][0] + self.letter_row[b], 1.0)
            elif kind == "prim":
                e = step[2]
                if step[3] < 5:
                    w.put(L["building"][0] + self.letter_row[step[3]], 1.0)
                w.put(L["op"][0] + self.ops[e.op], 1.0)
                w.put(L["op_n"][0], e.n / self.n_most)
                w.put(L["who"][0] + self.choices["who"].index(e.who), 1.0)
                w.put(L["dir"][0] + self.choices["dir"].index(e.dir), 1.0)
                w.put(L["where"][0] + self.choices["where"].index(e.where), 1.0)
                w.put(L["left"][0], step[4] / n)
            elif kind == "colonist":
                w.put(L["building"][0] + self.letter_row[step[2]], 1.0)
        return w.done(extra)
