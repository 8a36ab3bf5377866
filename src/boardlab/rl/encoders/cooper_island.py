"""Cooper Island's observation tensor (#35): every seat's island as planes over its 19 hexes (tile stack, cube,
building or statue, ruin, road), the ring of beaches, the action spaces, cargo and orders, each seat's board
counts rotated to the observer, and the building cards the seat has seen."""

from __future__ import annotations

from typing import Any

import numpy as np  # type: ignore[import-not-found, unused-ignore]  # a build without the rl extra

from boardlab.games.cooper_island.rules import Board, CooperState, Player

from .kit import Layout, Memo, ViewEncoder, Writer, make_layout, slot_of

SLOTS = 4
MOST = 10  # a stock that has no printed limit (storage, market, logs, anchors, ...): saturates at 10
PHASES = ("income", "worker", "cleanup", "over")
WORKERS = ("normal", "special", "idle_normal", "idle_special", "on_orders")


def counters(P: Player) -> tuple[Any, ...]:
    """A copy of every value of a `Player` that `CooperIslandEncoder._counts` reads (its island aside), for `same`."""
    return (P.idle_n, P.idle_s, P.orders_n, P.orders_s, P.total_n, P.total_s, dict(P.store), dict(P.market),
            list(P.hand), P.carto, P.carto_used, list(P.ships), list(P.since), P.logs, P.anchors, P.crates,
            P.crates_taken, P.statues, P.vp, P.ruins_taken, P.passed, list(P.icons), dict(P.built), list(P.islets),
            list(P.boats), list(P.miles), list(P.cards), set(P.large_used))


def same(P: Player, c: tuple[Any, ...]) -> bool:
    """Whether `P` still holds the values `c = counters(P)` copied: equal values, equal writes. Compared in place,
    the workers first (what most steps change): building the copy at every step cost as much as the writes."""
    return (P.idle_n == c[0] and P.idle_s == c[1] and P.orders_n == c[2] and P.orders_s == c[3]
            and P.total_n == c[4] and P.total_s == c[5] and P.store == c[6] and P.market == c[7] and P.hand == c[8]
            and P.carto == c[9] and P.carto_used == c[10] and P.ships == c[11] and P.since == c[12]
            and P.logs == c[13] and P.anchors == c[14] and P.crates == c[15] and P.crates_taken == c[16]
            and P.statues == c[17] and P.vp == c[18] and P.ruins_taken == c[19] and P.passed == c[20]
            and P.icons == c[21] and P.built == c[22] and P.islets == c[23] and P.boats == c[24]
            and P.miles == c[25] and P.cards == c[26] and P.large_used == c[27])


class CooperIslandEncoder(ViewEncoder):
    """Cooper Island, 2-4 players; blocks in `layout` order (docs/research.md tables them). `encode` reads the view,
    `tensor` the state itself (the same vector: tests/rl/test_rl_tensor.py)."""

    def __init__(self) -> None:
        from boardlab.games.cooper_island import actions as A
        from boardlab.games.cooper_island import components as C
        from boardlab.games.cooper_island.rules import CooperState

        comp = C.components()
        self.comp = comp
        self.hexes = len(comp.hexes)
        self.layers = comp.max_height
        self.terrains = {code: i for i, code in enumerate(C.TERRAIN_CODE.values())}
        self.res = {g: i for i, g in enumerate(C.RES)}
        self.goods = {g: i for i, g in enumerate(C.GOODS)}
        self.cards = {c.id: i for i, c in enumerate((*comp.small, *comp.large))}
        self.occ = {**self.cards, "statue": len(self.cards), "fort": len(self.cards) + 1}  # what a hex may hold
        self.spaces = {x: i for i, x in enumerate(A.SPACES)}
        self.ring = SLOTS * comp.segment
        self.orders = len(comp.orders)
        self.splits = len(comp.split_counts)
        self.bag = sum(comp.split_counts)
        self.singles = {t: i for i, t in enumerate(C.TERRAINS)}
        # the questions are the rules' step methods (`_s_<kind>`): read from the class, never a hand-kept list
        self.steps = {k: i for i, k in enumerate(sorted(n[3:] for n in dir(CooperState) if n.startswith("_s_")))}
        self.layout = self._layout()
        self._slots: dict[int, tuple[list[int], list[float], dict[str, int]]] = {}  # `_count_slots`
        self.memo = Memo()
        self.islands: dict[tuple[int, int], tuple[Board, np.ndarray]] = {}
        """`tensor`'s: an island's 1s per (seat, slot) and the `Board` they were read with, stored again while the
        player holds that very board (the rules replace it at every change of the island: `Player.changed`)."""
        self.counted: dict[tuple[int, int], tuple[tuple[Any, ...], np.ndarray, np.ndarray]] = {}
        """And its board's other writes (slots, values), stored again while the player holds the values `counters`
        copied (`same`). Both are stored into the finished vector as numpy arrays: a list of hundreds of writes cost
        more to convert than to make."""

    def _layout(self) -> Layout:
        s, h, c, comp = SLOTS, self.hexes, len(self.cards), self.comp
        return make_layout([
            ("tiles", s * h * self.layers * len(self.terrains)), ("cube", s * h * len(self.res)),
            ("occupant", s * h * len(self.occ)), ("ruin", s * h), ("road", h),
            ("seat_present", s), ("storage", s * len(self.goods)), ("storage_cap", s), ("market", s * len(self.goods)),
            ("hand", s * self.splits), ("cartographer", s), ("cartographer_used", s), ("workers", s * len(WORKERS)),
            ("ships", s * 2), ("since_log", s * 2), ("logs", s), ("anchors", s), ("islets_left", s * len(comp.islets)),
            ("boats", s * len(comp.boats)), ("buildings", s * c), ("fort", s), ("large_used", s * c),
            ("crates", s), ("crate_icons", s * len(comp.crate_icons)), ("crates_taken", s), ("ruins_taken", s),
            ("statues", s), ("workshop_points", s), ("milestones", s * len(comp.milestones)), ("passed", s),
            ("round", 1), ("phase", len(PHASES)), ("start", s), ("next_start", s),
            ("beach_owner", self.ring * s), ("beach_islet", self.ring * len(comp.islets)),
            ("space", len(self.spaces) * s * (s + 1)),
            ("cargo", len(comp.cargo) * s), ("cargo_turned", len(comp.cargo)),
            ("order", self.orders), ("order_worker", self.orders * s),
            ("supply", len(self.res)), ("singles", len(self.singles)), ("bag", 1), ("log_tokens", 1),
            ("deck_count", 2), ("deck_known", 2 * c), ("offer", comp.offer * c), ("offer_hidden", comp.offer),
            ("current", s + 1), ("decider", s), ("step", len(self.steps)), ("over", 1), ("winner", s),
        ])

    def size(self, players: int) -> int:
        return self.layout["size"][0]

    def _hexes(self, w: Writer, q: int, j: int, hexes: list[dict[str, Any]]) -> None:
        """The 19 hexes' planes of seat q's island in slot j: indices gathered, then one checked write per plane."""
        h, layers, terrains, res, occ = self.hexes, self.layers, len(self.terrains), len(self.res), len(self.occ)
        tcode, rcode, ocode = self.terrains, self.res, self.occ
        tiles, cube, occupant, ruin, road = [], [], [], [], []
        for x in hexes:
            i = j * h + x["id"] - 1
            base = i * layers
            tiles += [(base + layer) * terrains + tcode[code] for layer, code in enumerate(x["tiles"])]
            if x["cube"]:
                cube.append(i * res + rcode[x["cube"]])
            if x["occ"]:
                occupant.append(i * occ + ocode[x["occ"]])
            if x["ruin"]:
                ruin.append(i)
            if q == 0 and x["road"]:
                road.append(x["id"] - 1)
        w.ones("tiles", tiles)
        w.ones("cube", cube)
        w.ones("occupant", occupant)
        w.ones("ruin", ruin)
        w.ones("road", road)

    def _board(self, w: Writer, q: int, j: int, b: dict[str, Any]) -> None:
        """Seat q's board in slot j: its island (remembered apart: the counters change more often), then its
        counts, cards and tokens."""
        comp, cards = self.comp, len(self.cards)
        mark = self.memo.replay(w, ("hexes", q, j), b["hexes"])
        if mark is not None:
            self._hexes(w, q, j, b["hexes"])
            self.memo.keep(w, ("hexes", q, j), b["hexes"], mark)
        for block in ("storage", "market"):
            for g, k in b[block].items():
                w.frac(block, j * len(self.goods) + self.goods[g], k, MOST)
        w.frac("storage_cap", j, b["storage_cap"], MOST)
        for kind, k in enumerate(b["hand"]):
            w.frac("hand", j * self.splits + kind, k, MOST)
        w.frac("cartographer", j, b["cartographer"], comp.carto_max)
        w.set("cartographer_used", j, float(b["cartographer_used"]))
        for k, key in enumerate(WORKERS):
            w.frac("workers", j * len(WORKERS) + k, b["workers"][key], SLOTS)
        for k in range(2):
            w.frac("ships", j * 2 + k, b["ships"][k], self.ring)
            w.frac("since_log", j * 2 + k, b["since_log"][k], comp.segment)
        for block in ("logs", "anchors", "fort", "crates", "crates_taken", "statues", "workshop_points"):
            w.frac(block, j, b[block], MOST)
        w.frac("ruins_taken", j, b["ruins_taken"], len(comp.ruins))
        for block, n in (("islets_left", len(comp.islets)), ("boats", len(comp.boats)),
                         ("milestones", len(comp.milestones))):
            for k in b[block]:
                w.set(block, j * n + k - 1)
        for block in ("buildings", "large_used"):
            for cid in b[block]:
                w.set(block, j * cards + self.cards[cid])
        for k, on in enumerate(b["crate_icons"]):
            w.set("crate_icons", j * len(comp.crate_icons) + k, float(on))
        w.set("passed", j, float(b["passed"]))

    def encode(self, view: dict[str, Any], players: int) -> np.ndarray:
        w, comp = Writer(self.layout), self.comp
        seat, seats = int(view["seat"]), len(view["boards"])
        cards = len(self.cards)

        def slot(q: int | None, none: int = SLOTS) -> int:
            return slot_of(q, seat, seats, none)

        for q, b in enumerate(view["boards"]):
            j = slot(q)
            w.set("seat_present", j)
            mark = self.memo.replay(w, ("board", q, j), b)  # a step mostly changes one seat's board, if any
            if mark is not None:
                self._board(w, q, j, b)
                self.memo.keep(w, ("board", q, j), b, mark)
        w.frac("round", 0, view["round"], comp.rounds + 1)
        w.set("phase", PHASES.index(view["phase"]))
        w.set("start", slot(view["start_player"]))
        w.set("next_start", slot(view["next_start"]))
        for isl in view["islets"]:
            w.set("beach_owner", isl["beach"] * SLOTS + slot(isl["owner"]))
            w.set("beach_islet", isl["beach"] * len(comp.islets) + isl["islet"] - 1)
        for x, occupants in view["spaces"].items():
            for pos, (q, special) in enumerate(occupants):
                at = (self.spaces[x] * SLOTS + pos) * (SLOTS + 1)
                w.set("space", at + slot(q))
                w.set("space", at + SLOTS, float(special))
        for c in view["cargo"]:
            for q in set(c["crates"]):
                w.frac("cargo", (c["card"] - 1) * SLOTS + slot(q), c["crates"].count(q), SLOTS)
            w.set("cargo_turned", c["card"] - 1, float(c["turned"]))
        for o in view["orders"]:
            w.set("order", o["order"] - 1)
            if o["worker"] is not None:
                w.set("order_worker", (o["order"] - 1) * SLOTS + slot(o["worker"]))
        for g, k in view["supply"].items():
            w.frac("supply", self.res[g], k, comp.cubes)
        for t, k in view["singles"].items():
            w.frac("singles", self.singles[t], k, comp.singles[t])
        w.frac("bag", 0, view["bag"], self.bag)
        w.frac("log_tokens", 0, view["log_tokens"], len(comp.log_tokens))
        decks = view["decks"]
        w.frac("deck_count", 0, decks["small"], len(comp.small))
        w.frac("deck_count", 1, decks["large"], len(comp.large))
        for name, pos, cid in decks["known"]:
            d = ("small", "large").index(name)
            w.set("deck_known", d * cards + self.cards[cid], (pos + 1) / len(comp.small if d == 0 else comp.large))
        for pos, cid in enumerate(view["offer"]):
            if cid is None:
                w.set("offer_hidden", pos)
            else:
                w.set("offer", pos * cards + self.cards[cid])
        w.set("current", slot(view["current_player"]))
        dec = view["decision"]  # not `d`: compiled, a name keeps the type it first had (an int above)
        if dec is not None:
            w.set("decider", slot(dec["player"]))
            w.set("step", self.steps[dec["step"]])
        if view.get("winners") is not None:
            w.set("over", 0)
            for q in view["winners"]:
                w.set("winner", slot(q))
        return w.done()

    def tensor(self, state: CooperState, seat: int, extra: int = 0) -> np.ndarray:
        """`encode(state.observation_view(seat))`, read off the state (the view's dicts are not built): the same
        features in the same slots, every one a value the view holds for this seat (the boards are public; of the
        building cards, only those the seat has seen: `seen`'s bit, the view's rule); a learner's step builds this."""
        L, w, comp = self.layout, Writer(self.layout), self.comp
        seats = state.num_players
        rot = [(q - seat) % seats for q in range(seats)]
        cards, bit = len(self.cards), 1 << seat
        at = L["seat_present"][0]
        parts: list[tuple[np.ndarray, Any]] = []  # (slots, values) stored once the vector is made
        for q, P in enumerate(state.players):
            j = rot[q]
            w.put(at + j, 1.0)
            board = P.board or state.board(P)  # a step mostly changes one seat's counters, if any
            island = self.islands.get((q, j))
            if island is None or island[0] is not board:
                island = self.islands[(q, j)] = (board, np.array(self._island(state, q, j, P), np.intp))
            parts.append((island[1], 1.0))
            kept = self.counted.get((q, j))  # ~40 values compared in place: a fraction of writing them again
            if kept is None or not same(P, kept[0]):
                slots, values = self._counts(state, j, P)
                kept = self.counted[(q, j)] = (counters(P), np.array(slots, np.intp), np.array(values, np.float32))
            parts.append((kept[1], kept[2]))
        w.part(L["round"][0], state.round + 1, comp.rounds + 1)
        w.put(L["phase"][0] + PHASES.index(state.phase), 1.0)
        w.put(L["start"][0] + rot[state.start], 1.0)
        nxt = state.next_start
        w.put(L["next_start"][0] + (SLOTS if nxt is None else rot[nxt]), 1.0)
        owner_at, islet_at, islets = L["beach_owner"][0], L["beach_islet"][0], len(comp.islets)
        for beach, (q, k) in state.islet_at.items():
            w.put(owner_at + beach * SLOTS + rot[q], 1.0)
            w.put(islet_at + beach * islets + k, 1.0)
        at = L["space"][0]
        for x, occupants in state.spaces.items():
            for pos, (q, special) in enumerate(occupants):
                base = at + (self.spaces[x] * SLOTS + pos) * (SLOTS + 1)
                w.put(base + rot[q], 1.0)
                w.put(base + SLOTS, float(special))
        cargo_at, turned_at = L["cargo"][0], L["cargo_turned"][0]
        for c, holders in enumerate(state.cargo):
            for q in holders:  # a set: one crate of each holder
                w.part(cargo_at + c * SLOTS + rot[q], 1, SLOTS)
            w.put(turned_at + c, float(state.turned[c]))
        order_at, worker_at = L["order"][0], L["order_worker"][0]
        for k in state.orders:
            w.put(order_at + k, 1.0)
            worker = state.order_worker.get(k)  # not `q`: compiled, a name keeps the type it first had (int)
            if worker is not None:
                w.put(worker_at + k * SLOTS + rot[worker], 1.0)
        at = L["supply"][0]
        for g, n in state.supply.items():
            w.part(at + self.res[g], n, comp.cubes)
        at = L["singles"][0]
        for t, n in state.singles.items():
            w.part(at + self.singles[t], n, comp.singles[t])
        w.part(L["bag"][0], len(state.bag), self.bag)
        w.part(L["log_tokens"][0], len(state.logpool), len(comp.log_tokens))
        at = L["deck_count"][0]
        w.part(at, len(state.small), len(comp.small))
        w.part(at + 1, len(state.large), len(comp.large))
        seen, card_of = state.seen, self.cards
        at = L["deck_known"][0]
        for d, deck in enumerate((state.small, state.large)):
            most = len(comp.small if d == 0 else comp.large)
            for pos, cid in enumerate(deck):
                if seen[cid] & bit:  # only the cards this seat has seen (the view's rule)
                    w.put(at + d * cards + card_of[cid], (pos + 1) / most)
        at, hidden_at = L["offer"][0], L["offer_hidden"][0]
        for pos, cid in enumerate(state.offer):
            if seen[cid] & bit:
                w.put(at + pos * cards + card_of[cid], 1.0)
            else:
                w.put(hidden_at + pos, 1.0)
        decider = state.decider  # the current player, None once over
        w.put(L["current"][0] + (SLOTS if decider is None else rot[decider]), 1.0)
        if decider is not None:
            w.put(L["decider"][0] + rot[decider], 1.0)
            w.put(L["step"][0] + self.steps[state.todo[-1][0]], 1.0)
        else:
            w.put(L["over"][0], 1.0)
            at = L["winner"][0]
            for q in state.winners():
                w.put(at + rot[q], 1.0)
        out = w.done(extra)
        for where, written in parts:  # every slot is written once: these and the writer's are apart
            out[where] = written
        return out

    def _island(self, state: CooperState, q: int, j: int, P: Player) -> list[int]:
        """`_hexes` read off seat q's island: the slots of its 1s (tile stacks, cubes, occupants and ruins of slot j,
        and the road, once: seat 0's)."""
        L, h, layers, terrains = self.layout, self.hexes, self.layers, len(self.terrains)
        nres, nocc, tcode, rcode, ocode = len(self.res), len(self.occ), self.terrains, self.res, self.occ
        tiles_at, cube_at, occ_at, ruin_at = L["tiles"][0], L["cube"][0], L["occupant"][0], L["ruin"][0]
        out: list[int] = []
        cubes, occs, ruins = P.cube, P.occ, P.ruin
        for i, stack in enumerate(P.stack):
            c = j * h + i
            at = tiles_at + c * layers * terrains  # layer k of hex c: (c * layers + k) * terrains + the terrain
            for code in stack:  # a loop, not a comprehension: a stack holds 0-5 tiles
                out.append(at + tcode[code])
                at += terrains
            cube, occ = cubes[i], occs[i]
            if cube:
                out.append(cube_at + c * nres + rcode[cube])
            if occ:
                out.append(occ_at + c * nocc + ocode[occ])
            if ruins[i]:
                out.append(ruin_at + c)
        if q == 0:
            at = L["road"][0]
            out += [at + i for i in state.C.road]
        return out

    def _count_slots(self, j: int) -> tuple[list[int], list[float], dict[str, int]]:
        """For slot j: the slots and maxima of `_counts`'s fractions in the order of its values, and the start of each
        block of 1s (computed once per slot)."""
        kept = self._slots.get(j)
        if kept is not None:
            return kept
        L, comp, goods = self.layout, self.comp, len(self.goods)
        slots: list[int] = []
        most: list[float] = []

        def block(name: str, width: int, maxima: list[float]) -> None:
            at = L[name][0] + j * width
            slots.extend(range(at, at + len(maxima)))
            most.extend(maxima)

        block("storage", goods, [MOST] * goods)
        block("market", goods, [MOST] * goods)
        block("storage_cap", 1, [MOST])
        block("hand", self.splits, [MOST] * self.splits)
        block("cartographer", 1, [comp.carto_max])
        block("workers", len(WORKERS), [SLOTS] * len(WORKERS))
        block("ships", 2, [self.ring] * 2)
        block("since_log", 2, [comp.segment] * 2)
        for name in ("logs", "anchors", "fort", "crates", "crates_taken", "statues", "workshop_points"):
            block(name, 1, [MOST])
        block("ruins_taken", 1, [len(comp.ruins)])
        cards = len(self.cards)
        ones = {"cartographer_used": L["cartographer_used"][0] + j, "passed": L["passed"][0] + j,
                "islets_left": L["islets_left"][0] + j * len(comp.islets), "boats": L["boats"][0] + j * len(comp.boats),
                "milestones": L["milestones"][0] + j * len(comp.milestones), "buildings": L["buildings"][0] + j * cards,
                "large_used": L["large_used"][0] + j * cards,
                "crate_icons": L["crate_icons"][0] + j * len(comp.crate_icons)}
        kept = self._slots[j] = (slots, most, ones)
        return kept

    def _counts(self, state: CooperState, j: int, P: Player) -> tuple[list[int], list[float]]:
        """`_board`'s counts, cards and tokens of the player in slot j, read off its `Player`: the slots written and
        their values (`Writer.part`'s fractions and checks, then the 1s)."""
        slots, most, ones = self._count_slots(j)
        store, market = P.store, P.market
        values = [*[store[g] for g in self.goods], *[market[g] for g in self.goods],
                  state.C.start_storage + sum(P.built.values()), *P.hand, P.carto,
                  P.total_n, P.total_s, P.idle_n, P.idle_s, P.orders_n + P.orders_s, P.ships[0], P.ships[1],
                  P.since[0], P.since[1], P.logs, P.anchors, P.built["fort"], P.crates, P.crates_taken, P.statues,
                  P.vp, P.ruins_taken]
        at: list[int] = []
        out: list[float] = []
        if len(values) != len(slots):
            raise ValueError(f"{len(values)} counts for {len(slots)} slots")
        for k in range(len(values)):  # by index: `zip(..., strict=True)` is a generic call when compiled
            value = values[k]
            if value:
                if value < 0:
                    raise ValueError(f"feature {slots[k]} = {value}: counts are never negative")
                m = most[k]
                if m > 0:
                    at.append(slots[k])
                    out.append(value / m if value < m else 1.0)
        if P.carto_used:
            at.append(ones["cartographer_used"])
        if P.passed:
            at.append(ones["passed"])
        for block, indices in (("islets_left", P.islets), ("boats", P.boats), ("milestones", P.miles)):
            base = ones[block]
            at += [base + k for k in indices]
        card_of = self.cards
        base = ones["buildings"]
        at += [base + card_of[cid] for cid in P.cards]
        base = ones["large_used"]
        at += [base + card_of[cid] for cid in P.large_used]
        base = ones["crate_icons"]
        at += [base + k for k, on in enumerate(P.icons) if on]
        out += [1.0] * (len(at) - len(out))
        return at, out
