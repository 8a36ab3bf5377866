"""Cooper Island rules, 2-4 players: five rounds of income phase, worker phase (spaces A-H) and cleanup.

The game runs on a to-do stack of small steps (`self.todo`, the end is next), as Pocket Mars does: a step
either acts at once or asks one player a question with its options; a question with one option is
answered automatically. A player's menu steps (`income`, `turn`, `after`, `cwin`, `react`) put themselves
back after every free action, so a turn is a sequence of small enumerable decisions. Paying is a step of
its own (`pay`: one source at a time, or `auto`), no change is ever given. What the sources leave open is
decided in docs/rules/cooper_island.md; every number comes from `components.json`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, ClassVar, cast

from mypy_extensions import mypyc_attr

from boardlab.core.action_table import FixedActionTable
from boardlab.core.errors import ConfigError
from boardlab.core.game import Game, Option, Score, State
from boardlab.core.rng import Rng
from boardlab.core.step_machine import StepMachine

from . import actions as A
from .actions import Act
from .components import CODE_TERRAIN, GOODS, RES, TERRAIN_CODE, TERRAINS, Cost, Prim, components

Step = tuple[Any, ...]
Spots = tuple[set[int], dict[str, list[int]], dict[str, set[int]]]
"""(hexes next to the peninsula, the hexes each terrain code may go on, in hex order and as a set):
`CooperState.spots`."""
TERRAIN_RES = {"F": "wood", "M": "food", "R": "stone", "S": "cloth"}
DONE, AUTO, PASS, ANCHOR, SKIP = Act("done"), Act("auto"), Act("pass"), Act("anchor"), Act("skip")
MENUS = frozenset({"income", "turn", "after", "cwin", "clate"})
EX_ANY = Act("ex", "any")
SEARCH_DROPS = frozenset({*A.HEX_ACTS["store h"], EX_ANY})
"""Free actions the search leaves out of a menu (`search_actions`): they only lose value."""
SINGLE_ON = {"": TERRAINS, **{c: (t, "settlement") for t, c in TERRAIN_CODE.items() if c != "S"},
             "S": ("settlement",)}
"""The single tiles that may go on a free hex, by its top terrain code ("": empty), in `TERRAINS` order: the same
terrain, or a settlement on anything."""
DECISIONS_PER_SEAT_ROUND = 100
"""The engine's safety stop (docs: D29): a game ends, scored as it stands, at its `decision_bound`-th decision, on
average 100 per seat and round. The rules bound a round's free actions only through the goods they spend (an
exchange turns 2 goods into 1, a store moves one into storage), with no closed form; random games take at most
about 32 decisions per seat and round (tests/games/test_max_game_length.py)."""


def decision_bound(players: int) -> int:
    """The most decisions a game holds (OpenSpiel's max_game_length): the built-in rounds x the seats x
    DECISIONS_PER_SEAT_ROUND, where the safety stop (D29) ends the game."""
    return components().rounds * players * DECISIONS_PER_SEAT_ROUND


@mypyc_attr(native_class=False)  # a Python class with compiled methods (see boardlab/_compiled.py)
class Player:
    """One player's peninsula, boards and pieces (all public)."""

    __slots__ = ("anchors", "board", "boats", "built", "cards", "carto", "carto_used", "crates", "crates_taken", "cube",
                 "fed", "hand", "icons", "idle_n", "idle_s", "income_used", "islets", "large_used", "logs",
                 "market", "miles", "occ", "orders_n", "orders_s", "passed", "ruin", "ruins_taken", "ships",
                 "since", "stack", "statues", "store", "total_n", "total_s", "vp")
    anchors: int
    board: Board | None  # the menus' facts of stack, cube, occ and ruin; None = stale (see `Board`)
    boats: list[int]  # boat card indices
    built: dict[str, int]  # "small", "large", "fort" -> how many built
    cards: list[str]  # building card ids
    carto: int  # cartographer steps
    carto_used: bool
    crates: int
    crates_taken: int
    cube: list[str]  # per hex: the resource cube on it, "" for none
    fed: bool
    hand: list[int]  # double tiles held, per split
    icons: list[bool]  # crate icons used this round
    idle_n: int
    idle_s: int
    income_used: set[str]
    islets: list[int]
    large_used: set[str]
    logs: int
    market: dict[str, int]
    miles: list[int]
    occ: list[str]  # per hex: the building or statue on it, "" for none
    orders_n: int
    orders_s: int
    passed: bool
    ruin: list[bool]
    ruins_taken: int
    ships: list[int]
    since: list[int]
    stack: list[list[str]]  # per hex: the terrain codes stacked there, bottom first
    statues: int
    store: dict[str, int]
    total_n: int
    total_s: int
    vp: int

    def copy(self) -> Player:
        """Field by field (a loop over `__slots__` with getattr cost a sixth of a search iteration)."""
        o = Player.__new__(Player)
        o.anchors, o.carto, o.carto_used, o.crates, o.crates_taken = (self.anchors, self.carto, self.carto_used,
                                                                      self.crates, self.crates_taken)
        o.fed, o.idle_n, o.idle_s, o.logs, o.orders_n, o.orders_s = (self.fed, self.idle_n, self.idle_s, self.logs,
                                                                     self.orders_n, self.orders_s)
        o.passed, o.ruins_taken, o.statues, o.total_n, o.total_s, o.vp = (self.passed, self.ruins_taken,
                                                                          self.statues, self.total_n, self.total_s,
                                                                          self.vp)
        o.boats, o.cards, o.cube, o.hand, o.icons = self.boats[:], self.cards[:], self.cube[:], self.hand[:], \
            self.icons[:]
        o.islets, o.miles, o.occ, o.ruin = self.islets[:], self.miles[:], self.occ[:], self.ruin[:]
        o.ships, o.since = self.ships[:], self.since[:]
        o.stack = [x[:] for x in self.stack]
        o.built, o.market, o.store = self.built.copy(), self.market.copy(), self.store.copy()
        o.income_used, o.large_used = self.income_used.copy(), self.large_used.copy()
        o.board = self.board  # shared until either side edits its island (`changed`)
        return o

    def changed(self) -> None:
        """Call after any edit of `stack`, `cube`, `occ` or `ruin` (rules and hand-made test positions alike):
        the `Board` read off them is stale."""
        self.board = None

    def height(self, i: int) -> int:
        return len(self.stack[i])

    def storage_used(self) -> int:
        return sum(self.store.values())


@mypyc_attr(native_class=False)  # a Python class with compiled methods (see boardlab/_compiled.py)
class Board:
    """What the menus read off one peninsula's stacks, cubes, buildings and ruins, computed once per change of
    them instead of at every question: a menu is listed at every decision, and in a search most decisions leave
    the island as it was (spots, the island's goods, single-tile spots and counts were a third of an iteration).
    A `Player` holds its `Board` until `Player.changed`; copies share it (nothing here is ever mutated, except
    `sides`, a memo of facts that hold for every holder)."""

    __slots__ = ("counts", "island", "near", "ok", "oks", "places", "sides", "singles", "stores", "tops", "units")
    near: set[int]  # hexes next to the peninsula (covered, or beside a covered hex)
    ok: dict[str, list[int]]  # per terrain code, in hex order: the hexes a tile of it may cover (see `spots`)
    oks: dict[str, set[int]] | None  # the same as sets, made on demand (`spots`)
    island: dict[str, int]  # units of each good in cubes on the island (a cube is worth its hex's height)
    units: int  # all of them
    counts: dict[str, int]  # "tall", "covered", "meadow", "settlement" (`count`)
    tops: list[int] | None  # `free_tops`, made on demand
    places: dict[tuple[int, int], list[tuple[Act, str]]]  # `tile_spots` of a side, kept by `placements`
    sides: dict[tuple[int, int], tuple[bool, frozenset[str]]]  # `side_facts`, filled on demand
    singles: dict[tuple[int, ...], list[Act]]  # `singles_for` by (cartographer, single tiles left), on demand
    stores: list[Act] | None  # `free`'s cubes to store (`store h`), made on demand

    def __init__(self, P: Player, C: Any) -> None:
        stack, nb = P.stack, C.neighbours
        ruin, cube, occ = P.ruin, P.cube, P.occ
        near: set[int] = set()
        free: list[int] = []
        ok: dict[str, list[int]] = {t: free if t == "S" else [] for t in CODE_TERRAIN}  # S: any terrain
        others = [ok[t] for t in CODE_TERRAIN if t != "S"]
        island: dict[str, int] = {}
        units = tall = covered = meadow = settlement = 0
        for i, st in enumerate(stack):  # one pass, in hex order
            if st:
                near.add(i)
                near.update(nb[i])
                h = len(st)
                covered += 1
                if h >= 3:
                    tall += 1
                if st[-1] == "M":
                    meadow += 1
                elif st[-1] == "S":
                    settlement += 1
                c = cube[i]
                if c:
                    island[c] = island.get(c, 0) + h
                    units += h
            if ruin[i] or cube[i] or occ[i]:
                continue
            free.append(i)
            if not st:
                for hexes in others:
                    hexes.append(i)
            elif st[-1] != "S":
                ok[st[-1]].append(i)
        self.near, self.ok, self.oks = near, ok, None
        self.island, self.units = island, units
        self.counts = {"tall": tall, "covered": covered, "meadow": meadow, "settlement": settlement}
        self.tops = None
        self.places = {}
        self.sides = {}
        self.singles = {}
        self.stores = None


def cost_dict(cost: Cost) -> dict[str, int]:
    return dict(cost)


@mypyc_attr(native_class=False)  # a Python class with compiled methods (see boardlab/_compiled.py)
class CooperState(StepMachine, State):
    """A Cooper Island position."""

    # -- setup ----------------------------------------------------------------------------------------
    def _setup(self) -> None:
        C = self.C = components(self.options.get("components") or "")
        n = self.num_players
        rng = Rng(self.seed)
        self.ring = C.segment * n
        self.supply = {r: C.cubes for r in RES}
        self.singles = dict(C.singles)
        self.bag = [s for s, k in enumerate(C.split_counts) for _ in range(k)]
        rng.shuffle(self.bag)
        self.logpool = list(C.log_tokens)
        rng.shuffle(self.logpool)
        self.small = [c.id for c in C.small]
        self.large = [c.id for c in C.large]
        rng.shuffle(self.small)
        rng.shuffle(self.large)
        self.card = {c.id: c for c in C.cards}
        self.seen = {c.id: 0 for c in C.cards}
        self.offer: list[str] = []
        remove, draw = C.orders_in_play[n]
        pool = [k for k in range(len(C.orders)) if k + 1 not in remove]
        rng.shuffle(pool)
        self.orders = sorted(pool[:draw])
        self.order_worker: dict[int, int] = {}
        self.start = rng.randbelow(n)
        self.next_start = self.start
        self.players: list[Player] = []
        nh = len(C.hexes)
        for k in range(n):
            p = Player()
            p.stack = [[] for _ in range(nh)]
            p.cube = [""] * nh
            p.occ = [""] * nh
            p.ruin = [i in C.ruins for i in range(nh)]
            p.board = None
            p.store = {g: 0 for g in GOODS}
            p.store["coin"] = C.start_coins
            p.market = {g: 0 for g in GOODS}
            p.hand = [0, 0, 0]
            p.carto_used = False
            p.idle_n, p.idle_s, p.total_n, p.total_s, p.orders_n, p.orders_s = 2, 0, 2, 0, 0, 0
            p.ships = [k * C.segment, k * C.segment]
            p.since = [0, 0]
            p.logs = p.anchors = 0
            p.islets = list(range(len(C.islets)))
            p.boats = []
            p.built = {"small": 0, "large": 0, "fort": 0}
            p.cards = []
            p.large_used = set()
            p.crates = 0
            p.icons = [False] * len(C.crate_icons)
            p.crates_taken = p.ruins_taken = p.statues = p.vp = 0
            p.miles = []
            p.income_used = set()
            p.passed = False
            p.fed = False
            h = C.start_hex
            p.stack[h].append("M")
            p.cube[h] = "food"
            self.supply["food"] -= 1
            self.players.append(p)
        for k, q in enumerate(self.order()):
            P = self.players[q]
            P.carto = C.carto_start[k]
            for _ in range(C.start_tiles):
                P.hand[self.bag.pop()] += 1
        self.islet_at: dict[int, tuple[int, int]] = {}
        self.cargo = [set(range(n)) for _ in C.cargo]
        self.turned = [False] * len(C.cargo)
        self.spaces: dict[str, list[tuple[int, bool]]] = {x: [] for x in A.SPACES}
        self.a_taken = False
        self.round = 0
        self.phase = "income"
        self.wp_cur = 0
        self.reveals = 0
        self.todo: list[Step] = [("round",)]
        self.options_: list[Act] = []
        self.decider: int | None = None
        self.stop_at = decision_bound(n)
        self._run()

    def order(self) -> list[int]:
        n = self.num_players
        return [(self.start + k) % n for k in range(n)]

    # -- core protocol: the step machine (boardlab.core.step_machine) ----------------------------------
    def _step_options(self, step: Step) -> list[Act] | None:
        return STEP[step[0]](self, step)

    def _apply(self, action: Any) -> None:
        """A decision (the step machine's), then the safety stop (D29): the decision that makes `stop_at` ends
        the game, scored as it stands (the log gets it after this returns)."""
        StepMachine._apply(self, action)
        if self.decider is not None and len(self.history) + 1 >= self.stop_at:
            self.todo.clear()
            self.options_ = []
            self.decider = None
            self.phase = "over"

    def _resolve(self, step: Step, action: Act) -> None:
        RESOLVE[step[0]](self, step, action)

    # -- small helpers --------------------------------------------------------------------------------
    def gain(self, p: int, g: str, n: int) -> None:
        """Goods gained go to the market (store them or lose them at cleanup); cubes while the supply lasts."""
        if g != "coin":
            n = min(n, self.supply[g])
            self.supply[g] -= n
        self.players[p].market[g] += n

    def avail(self, p: int, g: str) -> int:
        """How many units of good g p could pay with now."""
        return self.holdings(p)[g]

    def holdings(self, p: int) -> dict[str, int]:
        """Units p could pay with now, per good, and under "any" all of them: market, storage and the island's
        cubes (its `Board`'s sums; a menu tests many costs: spaces B and D, crates, exchanges)."""
        P = self.players[p]
        market, store = P.market, P.store
        have = {g: market[g] + store[g] for g in GOODS}
        board = P.board or self.board(P)
        for g, h in board.island.items():
            have[g] += h
        have["any"] = sum(market.values()) + sum(store.values()) + board.units
        return have

    def board(self, P: Player) -> Board:
        """P's `Board`, read off the island when an edit made it stale."""
        b = P.board
        if b is None:
            b = P.board = Board(P, self.C)
        return b

    def gap(self, p: int, cost: Cost, have: dict[str, int] | None = None) -> int:
        """How many units the player is short of `cost` (0 = affordable); `have`: this moment's `holdings`."""
        if not cost:
            return 0
        if have is None:
            have = self.holdings(p)
        if cost[0][0] == "any":
            return max(0, cost[0][1] - have["any"])
        return sum(max(0, k - have[g]) for g, k in cost)

    def affordable(self, p: int, cost: Cost, discount: int = 0, have: dict[str, int] | None = None) -> bool:
        return self.gap(p, cost, have) <= discount

    def free_tops(self, p: int) -> list[int]:
        """The highest tiles with no cube, building or statue: where buildings and statues go."""
        P = self.players[p]
        b = P.board or self.board(P)
        if b.tops is None:
            stack, cube, occ = P.stack, P.cube, P.occ
            cand = [i for i, st in enumerate(stack) if st and not cube[i] and not occ[i]]
            top = max((len(stack[i]) for i in cand), default=0)
            b.tops = [i for i in cand if len(stack[i]) == top]
        return b.tops

    def spots(self, P: Player) -> Spots:
        """What every placement test shares (`Board`): the hexes next to the peninsula, and per terrain code, in
        hex order and as a set, the hexes a tile of it may cover before height and connection checks (no ruin,
        cube, building or statue; empty, the same terrain on top, or any terrain for a settlement)."""
        b = P.board or self.board(P)
        oks = b.oks
        if oks is None:
            oks = b.oks = {t: set(v) for t, v in b.ok.items()}
        return b.near, b.ok, oks

    def placements(self, p: int, split: int, side: int, first_only: bool = False) -> list[Act]:
        """Every legal spot for one side of a double tile: `at i j` (first terrain on i), `shim` when a
        single tile from the cartographer evens out a height difference of one. The island's part is kept on the
        board (`Board.places`): a search lists the spots of its root's tile from the root's island, iteration
        after iteration."""
        P = self.players[p]
        shim_ok = not P.carto_used and P.carto >= self.C.shim_cost
        singles = self.singles
        b = P.board or self.board(P)
        found = b.places.get((split, side))
        if found is None:
            found = b.places[(split, side)] = self.tile_spots(P, split, side)
        out = []
        for a, low in found:
            if not low or (shim_ok and singles[low] > 0):
                out.append(a)
                if first_only:
                    break
        return out

    def tile_spots(self, P: Player, split: int, side: int, to_level: bool = False) -> list[tuple[Act, str]]:
        """One side's spots as far as the island decides them, in order: `at i j` and "" where both hexes are as
        high, `at i j shim` and the low hex's terrain where a single tile could even them out; `to_level`: up to
        the first spot of equal heights (all `side_facts` needs)."""
        C = self.C
        t1, t2 = (TERRAIN_CODE[t] for t in C.splits[split][side])
        stack, nb, max_h = P.stack, C.neighbours, C.max_height
        near, ok, oks = self.spots(P)
        ok2 = oks[t2]
        out: list[tuple[Act, str]] = []
        for i in ok[t1]:
            hi = len(stack[i])
            for j in nb[i]:
                if j not in ok2 or (i not in near and j not in near):
                    continue
                hj = len(stack[j])
                if max(hi, hj) + 1 > max_h:
                    continue
                if hi == hj:
                    out.append((A.AT[i][j][0], ""))
                    if to_level:
                        return out
                elif abs(hi - hj) == 1:
                    out.append((A.AT[i][j][1], CODE_TERRAIN[t1 if hi < hj else t2]))
        return out

    def side_open(self, p: int, split: int, side: int) -> bool:
        """Whether one side of a double tile has a legal spot (= `placements(...)` is not empty), from the
        board's `side_facts` and this moment's cartographer and single tiles."""
        P = self.players[p]
        b = P.board or self.board(P)
        facts = b.sides.get((split, side))
        if facts is None:
            facts = b.sides[(split, side)] = self.side_facts(P, split, side)
        plain, lows = facts
        if plain:
            return True
        if not lows or P.carto_used or P.carto < self.C.shim_cost:
            return False
        singles = self.singles
        return any(singles[t] > 0 for t in lows)

    def side_facts(self, P: Player, split: int, side: int) -> tuple[bool, frozenset[str]]:
        """What of one side's spots depends on the island alone: whether a spot of equal heights exists, and the
        terrains of the low hex of the spots a single tile could even out (`tile_spots`, up to a level spot)."""
        spots = self.tile_spots(P, split, side, to_level=True)
        if spots and not spots[-1][1]:
            return True, frozenset()
        return False, frozenset(low for _, low in spots)

    def tile_sides(self, p: int) -> list[Act]:
        """The sides of the tiles in hand with a legal spot."""
        P = self.players[p]
        if not any(P.hand):
            return []
        return [A.TILE[s][side] for s in range(3) if P.hand[s] for side in (0, 1) if self.side_open(p, s, side)]

    def can_place(self, p: int) -> bool:
        P = self.players[p]
        if not any(P.hand):
            return False
        return any(P.hand[s] and self.side_open(p, s, side) for s in range(3) for side in (0, 1))

    def put_tile(self, p: int, i: int, t: str, cube: bool = True) -> None:
        """A tile (or one hex of a double tile) on hex i; its cube is worth the new height."""
        P = self.players[p]
        P.stack[i].append(t)
        P.board = None
        if not cube:
            return
        r = TERRAIN_RES[t]
        if t == "R" and len(P.stack[i]) >= 3:
            r = "gold"
        if self.supply[r] > 0:
            self.supply[r] -= 1
            P.cube[i] = r

    def singles_for(self, p: int) -> list[Act]:
        """Where a single tile from the cartographer may go now (kept on the board per cartographer and tiles
        left: callers must not change the list)."""
        P = self.players[p]
        C = self.C
        if P.carto_used:
            return []
        singles = self.singles
        b = P.board or self.board(P)
        key = (P.carto, *singles.values())  # all the list reads besides the island
        out = b.singles.get(key)
        if out is not None:
            return out
        out = []
        if any(singles[t] > 0 for t in TERRAINS):
            carto, cost, max_h, stack = P.carto, C.single_cost, C.max_height, P.stack
            near = b.near
            for i in b.ok["S"]:  # the free hexes, in order (a settlement goes on any terrain)
                st = stack[i]
                h = len(st) + 1
                if h > max_h or cost[h] > carto or i not in near:
                    continue
                row = A.SINGLE[i]
                out += [row[t] for t in SINGLE_ON[st[-1] if st else ""] if singles[t] > 0]
        b.singles[key] = out
        return out

    def count(self, p: int, what: str) -> int:
        P = self.players[p]
        if what == "boat":
            return len(P.boats)
        if what == "statue":
            return P.statues
        if what == "crate":
            return P.crates_taken
        if what == "log":
            return P.logs
        if what == "building":
            return len(P.cards) + P.built["fort"]
        return (P.board or self.board(P)).counts[what]  # tall, covered, meadow, settlement

    def prim_ok(self, p: int, prims: tuple[Prim, ...]) -> bool:
        """An effect made only of a draw or a place is pointless when it cannot happen."""
        for op, _, _ in prims:
            if op == "draw" and not self.bag:
                return False
            if op == "place" and not self.can_place(p):
                return False
        return True

    # -- free actions ---------------------------------------------------------------------------------
    def free(self, p: int, have: dict[str, int] | None = None) -> list[Act]:
        """The free actions open to p now (`have`: this decision's `holdings`, when the caller has them)."""
        P = self.players[p]
        out: list[Act] = []
        if sum(P.store.values()) < self.C.start_storage + sum(P.built.values()):
            b = P.board or self.board(P)
            if b.stores is None:
                store_h = A.HEX_ACTS["store h"]
                b.stores = [store_h[i] for i, c in enumerate(P.cube) if c]
            out += b.stores
            out += [A.STORE_M[g] for g in GOODS if P.market[g]]
        if have is None:
            have = self.holdings(p)
        if have["cloth"] >= 2:
            out.append(A.EX["cloth"])
        if have["gold"] >= 2:
            out.append(A.EX["gold"])
        if have["any"] >= 4:
            out.append(EX_ANY)
        if P.crates:
            out += [A.USE[k] for k, used in enumerate(P.icons) if not used and self.prim_ok(p, self.C.crate_icons[k])]
        out += [A.ABILITY[c] for c in P.cards if c[0] == "L" and c not in P.large_used
                and self.prim_ok(p, self.card[c].effect)]
        out += self.singles_for(p)
        return out

    def do_free(self, p: int, a: Act) -> None:
        P = self.players[p]
        C = self.C
        k = a.kind
        if k == "store":
            if a.a == "h":
                i = int(a.b) - 1
                g = P.cube[i]
                P.cube[i] = ""
                P.board = None
            else:
                g = a.b
                P.market[g] -= 1
            P.store[g] += 1
        elif k == "ex":
            gets = {"cloth": (("coin", 1, ""),), "gold": (("any", 1, ""),), "any": (("anyc", 1, ""),)}[a.a]
            cost: Cost = {"cloth": (("cloth", 2),), "gold": (("gold", 2),), "any": (("any", 4),)}[a.a]
            self.todo.append(("prims", p, gets))
            self.todo.append(("pay", p, cost, -1))
        elif k == "use":
            j = int(a.a) - 1
            P.icons[j] = True
            P.crates -= 1
            self.todo.append(("prims", p, C.crate_icons[j]))
        elif k == "ability":
            P.large_used.add(a.a)
            self.todo.append(("prims", p, self.card[a.a].effect))
        elif k == "single":
            i = int(a.a) - 1
            h = len(P.stack[i]) + 1
            P.carto -= C.single_cost[h]
            P.carto_used = True
            self.singles[a.b] -= 1
            self.put_tile(p, i, TERRAIN_CODE[a.b])

    def menu_step(self, step: Step, extra: list[Act], done: bool = True) -> list[Act] | None:
        p = step[1]
        if self.check_miles(p):
            return None  # a milestone was reached: its hire step runs first, then this menu again
        return extra + self.free(p) + ([DONE] if done else [])

    def check_miles(self, p: int) -> bool:
        """Milestones are checked whenever the player is about to decide: a new one pushes a hire."""
        P = self.players[p]
        for k, (what, n) in enumerate(self.C.milestones):
            if k not in P.miles and self.count(p, what) >= n:
                P.miles.append(k)
                self.todo.append(("hire", p))
                return True
        return False

    # -- round flow -----------------------------------------------------------------------------------
    def _s_round(self, step: Step) -> None:
        self.todo.pop()
        self.phase = "income"
        for P in self.players:
            P.income_used = set()
            P.carto_used = False
        self.todo.append(("wstart",))
        for q in reversed(self.order()):
            self.todo.append(("income", q))

    def _s_income(self, step: Step) -> list[Act] | None:
        p = step[1]
        P = self.players[p]
        C = self.C
        if self.check_miles(p):  # as in `menu_step`, before anything is listed (listing changes nothing)
            return None
        acts: list[Act] = []
        if "islet" not in P.income_used and P.islets:
            base = p * C.segment
            free_spots = [s for s in C.islet_spots if base + s not in self.islet_at and s not in C.sandbanks]
            acts += [A.ISLET[k][s] for k in P.islets for s in free_spots]
        if "tile" not in P.income_used:
            acts += self.tile_sides(p)
        acts += [A.RUN[b] for b in P.boats if f"boat{b}" not in P.income_used and self.prim_ok(p, C.boats[b])]
        # the seed: 「執行所有包含收入手的動作」: every income action that can be carried out is, so `done`
        # comes only when none is left (free actions stay open throughout)
        return acts + self.free(p) + ([] if acts else [DONE])

    def _r_income(self, step: Step, a: Act) -> None:
        p = step[1]
        P = self.players[p]
        if a == DONE:
            return
        self.todo.append(step)
        if a.kind == "islet":
            k, s = int(a.a) - 1, int(a.b)
            P.income_used.add("islet")
            P.islets.remove(k)
            self.islet_at[p * self.C.segment + s] = (p, k)
            self.push_islet(p, self.C.islets[k])
        elif a.kind == "tile":
            P.income_used.add("tile")
            self.todo.append(("at", p, int(a.a) - 1, "ab".index(a.b)))
        elif a.kind == "run":
            b = int(a.a) - 1
            P.income_used.add(f"boat{b}")
            self.todo.append(("prims", p, self.C.boats[b]))
        else:
            self.do_free(p, a)

    def push_islet(self, p: int, effect: tuple[Prim, ...]) -> None:
        """A placed islet's goods become cubes on the landscape (the seed: 「立即獲取小島上所顯示的資源,並在地形
        板塊的位置放上相對應的資源方塊」, decision D26); its other gains (coin, cartographer) are as anywhere."""
        for op, n, r in reversed(effect):
            if op == "res":
                self.todo += [("icube", p, r)] * n
            else:
                self.todo.append(("prims", p, ((op, n, r),)))

    def cube_hexes(self, p: int) -> list[int]:
        """Tiles that can take a cube: covered, with no cube, building or statue."""
        P = self.players[p]
        return [i for i, st in enumerate(P.stack) if st and not P.cube[i] and not P.occ[i]]

    def _s_icube(self, step: Step) -> list[Act] | None:
        """Which tile the islet's cube goes on (worth that tile's height); none free: the good goes to the market."""
        _, p, g = step
        if self.supply[g] <= 0:
            return []
        hexes = self.cube_hexes(p)
        if not hexes:
            self.todo.pop()
            self.gain(p, g, 1)
            return None
        put = A.HEX_ACTS["cube"]
        return [put[i] for i in hexes]

    def _r_icube(self, step: Step, a: Act) -> None:
        _, p, g = step
        self.supply[g] -= 1
        P = self.players[p]
        P.cube[int(a.a) - 1] = g
        P.board = None

    def _s_wstart(self, step: Step) -> None:
        self.todo.pop()
        self.phase = "worker"
        self.a_taken = False
        self.wp_cur = self.start
        for P in self.players:
            P.carto_used = False
            P.passed = False
        self.todo.append(("wnext",))

    def _s_wnext(self, step: Step) -> None:
        self.todo.pop()
        n = self.num_players
        for k in range(n):
            q = (self.wp_cur + k) % n
            P = self.players[q]
            if (P.idle_n or P.idle_s) and not P.passed:
                self.wp_cur = (q + 1) % n
                self.todo += [("wnext",), ("after", q), ("turn", q)]
                return
        self.todo.append(("cstart",))

    def space_can(self, p: int, x: str, special: bool, have: dict[str, int] | None = None) -> bool:
        """Whether the action of space x can do something for p with `have` (this moment's `holdings`)."""
        P = self.players[p]
        C = self.C
        if x in "AE":
            return True
        if x == "B":
            return len(P.boats) < len(C.boats) and \
                self.affordable(p, C.parking[len(P.boats)], 2 if special else 0, have)
        if x == "C":
            return bool(self.bag) or self.can_place(p) or (special and bool(self.islet_at))
        if x == "D":
            return bool(self.build_kinds(p, 2 if special else 0, have))
        if x == "F":
            return self.ruin_ok(p) or self.statue_ok(p, have) or (special and bool(self.ruin_hexes(p)))
        if x == "G":
            return special or bool(self.bag) or self.can_place(p)
        return bool(self.crate_opts(p, have)) or (special and (bool(self.bag) or self.can_place(p)))

    def _s_turn(self, step: Step) -> list[Act] | None:
        p = step[1]
        P = self.players[p]
        if self.check_miles(p):  # as in `menu_step`, before anything is listed (listing changes nothing)
            return None
        have = self.holdings(p)
        acts = []
        for x in A.SPACES:
            if any(q == p for q, _ in self.spaces[x]):  # one worker of a player per space
                continue
            normal, special = A.SPACE_ACTS[x]
            can = False
            if P.idle_n:
                can = self.space_can(p, x, False, have)
                if can:
                    acts.append(normal)
            # a special worker can do whatever a normal one can (a discount or an extra): asked only if not
            if P.idle_s and (can or self.space_can(p, x, True, have)):
                acts.append(special)
        return (acts or [PASS]) + self.free(p, have)

    def _r_turn(self, step: Step, a: Act) -> None:
        p = step[1]
        P = self.players[p]
        if a == PASS:
            P.passed = True
            return
        if a.kind not in A.SPACES:
            self.todo.append(step)
            self.do_free(p, a)
            return
        x, special = a.kind, a.a == "special"
        occupants = self.spaces[x]
        prev = occupants[-1][0] if occupants else None
        occupants.append((p, special))
        if special:
            P.idle_s -= 1
        else:
            P.idle_n -= 1
            if x == "A" and not self.a_taken:
                self.a_taken = True
                self.next_start = p
        self.todo += self.space_steps(p, x, special)[::-1]
        if prev is not None:  # due when the worker is placed, before the action (docs: decision D5)
            self.todo.append(("fee", p, prev, x, special))

    def space_steps(self, p: int, x: str, special: bool) -> list[Step]:
        """The steps of an action space in the order they happen (the seed's table A-H)."""
        if x == "A":
            return [("prims", p, (("carto", 1, ""),)), *([("prims", p, (("draw", 1, ""), ("place", 1, "")))]
                                                        if special else [("or", p, 1)])]
        if x == "B":
            return [("boatbuy", p, 2 if special else 0)]
        if x == "C":
            return [("prims", p, (("draw", 1, ""), ("place", 1, ""))), *([("isle", p)] if special else [])]
        if x == "D":
            return [("build", p, 2 if special else 0)]
        if x == "E":
            return [("prims", p, (("carto", 3, ""), ("anyc", 1, ""))), *([("useboat", p)] if special else [])]
        if x == "F":
            return [("ruin", p), ("statue", p)] if special else [("f_or", p)]
        if x == "G":
            return [("or", p, 2), *([("prims", p, (("carto", 1, ""),))] if special else [])]
        return [("crate", p), *([("or", p, 1)] if special else [])]

    def _s_after(self, step: Step) -> list[Act] | None:
        return self.menu_step(step, [])

    def _r_after(self, step: Step, a: Act) -> None:
        if a != DONE:
            self.todo.append(step)
            self.do_free(step[1], a)

    # -- action space sub-steps -----------------------------------------------------------------------
    def _s_prims(self, step: Step) -> None:
        """Run an effect, one primitive at a time (later ones wait under the questions of earlier ones)."""
        self.todo.pop()
        _, p, prims = step
        if not prims:
            return
        (op, n, r), rest = prims[0], prims[1:]
        if rest:
            self.todo.append(("prims", p, rest))
        P = self.players[p]
        if op == "res":
            self.gain(p, r, n)
        elif op == "coin":
            self.gain(p, "coin", n)
        elif op == "carto":
            P.carto = min(self.C.carto_max, P.carto + n)
        elif op == "helm":
            self.todo.append(("helm", p, n))
        elif op in ("any", "anyc"):
            self.todo += [("any", p, op == "anyc")] * n
        elif op == "draw":
            for _ in range(n):
                if self.bag:
                    P.hand[self.bag.pop()] += 1
                    self.reveals += 1
        elif op == "place":
            self.todo += [("tile", p)] * n

    def _s_any(self, step: Step) -> list[Act]:
        goods = GOODS if step[2] else RES
        return [Act("res", g) for g in goods if g == "coin" or self.supply[g] > 0]

    def _r_any(self, step: Step, a: Act) -> None:
        self.gain(step[1], a.a, 1)

    def _s_or(self, step: Step) -> list[Act]:
        p = step[1]
        return ([Act("draw")] if self.bag else []) + ([Act("place")] if self.can_place(p) else [])

    def _r_or(self, step: Step, a: Act) -> None:
        self.todo.append(("prims", step[1], ((a.kind, step[2], ""),)))

    def _s_tile(self, step: Step) -> list[Act]:
        return self.tile_sides(step[1])

    def _r_tile(self, step: Step, a: Act) -> None:
        self.todo.append(("at", step[1], int(a.a) - 1, "ab".index(a.b)))

    def _s_at(self, step: Step) -> list[Act]:
        return self.placements(step[1], step[2], step[3])

    def _r_at(self, step: Step, a: Act) -> None:
        _, p, s, side = step
        P = self.players[p]
        C = self.C
        P.hand[s] -= 1
        i, j = int(a.a) - 1, int(a.b) - 1
        t1, t2 = (TERRAIN_CODE[t] for t in C.splits[s][side])
        if a.c == "shim":
            low, lt = (i, t1) if len(P.stack[i]) < len(P.stack[j]) else (j, t2)
            P.carto -= C.shim_cost
            P.carto_used = True
            self.singles[CODE_TERRAIN[lt]] -= 1
            self.put_tile(p, low, lt, cube=False)
        self.put_tile(p, i, t1)
        self.put_tile(p, j, t2)

    def _s_pay(self, step: Step) -> list[Act]:
        """One source at a time: a cube on the island (worth its height), or one from storage or market."""
        _, p, cost, _ = step
        if not cost:
            return []
        P = self.players[p]
        out = [AUTO]
        need = {g for g, k in cost if k > 0}
        anyc = "any" in need
        pay_h = A.HEX_ACTS["pay h"]
        out += [pay_h[i] for i, c in enumerate(P.cube) if c and (anyc or c in need)]
        for z, box in (("s", P.store), ("m", P.market)):
            out += [Act("pay", z, g) for g in GOODS if box[g] and (anyc or g in need)]
        return out

    def take(self, p: int, a: Act) -> tuple[str, int]:
        """Remove one source named by `pay h 4` / `pay s wood` / `pay m coin`; returns (good, value)."""
        P = self.players[p]
        if a.a == "h":
            i = int(a.b) - 1
            g, v = P.cube[i], len(P.stack[i])
            P.cube[i] = ""
            P.board = None
        else:
            g, v = a.b, 1
            (P.store if a.a == "s" else P.market)[g] -= 1
        return g, v

    def _r_pay(self, step: Step, a: Act) -> None:
        _, p, cost, dest = step
        if a == AUTO:
            for src in self.auto_sources(p, cost):
                cost = self.pay_one(p, cost, src, dest)
            return
        cost = self.pay_one(p, cost, a, dest)
        if cost:
            self.todo.append(("pay", p, cost, dest))

    def pay_one(self, p: int, cost: Cost, a: Act, dest: int) -> Cost:
        g, v = self.take(p, a)
        if g != "coin":
            self.supply[g] += 1
        key = g if any(k == g for k, _ in cost) else "any"
        return tuple((k, n - v) if k == key else (k, n) for k, n in cost if not (k == key and n - v <= 0))

    def auto_sources(self, p: int, cost: Cost) -> list[Act]:
        """"Pay cheapest": market, then storage (worth 1 each), then the island cube that wastes least."""
        P = self.players[p]
        market, store, cube = dict(P.market), dict(P.store), list(P.cube)
        out: list[Act] = []
        for g, k in cost:
            goods = GOODS if g == "any" else (g,)
            while k > 0:
                src = next((Act("pay", "m", x) for x in goods if market[x]), None) or \
                    next((Act("pay", "s", x) for x in goods if store[x]), None)
                if src is not None:
                    (market if src.a == "m" else store)[src.b] -= 1
                    k -= 1
                    out.append(src)
                    continue
                hexes = [i for i, c in enumerate(cube) if c and c in goods]
                if not hexes:
                    break
                fits = [i for i in hexes if len(P.stack[i]) >= k]
                pool = fits or hexes  # the lowest hex that covers the rest, else the highest one (first of equals)
                heights = [len(P.stack[h]) for h in pool]
                i = pool[heights.index(min(heights) if fits else max(heights))]
                cube[i] = ""
                k -= len(P.stack[i])
                out.append(Act("pay", "h", str(i + 1)))
        return out

    def _s_cut(self, step: Step) -> list[Act]:
        """Special worker: lower the cost below (the pay step) by one unit of a resource, `left` times."""
        _, p, left = step
        pay = self.todo[-2]
        cost = pay[2]
        if not cost:
            return []
        have = self.holdings(p)
        g0 = self.gap(p, cost, have)
        out = []
        for g, k in cost:
            short = 1 if k > have[g] else 0
            if g0 - short <= left - 1:
                out.append(Act("cut", g))
        return out

    def _r_cut(self, step: Step, a: Act) -> None:
        _, p, left = step
        pay = self.todo[-1]
        cost = tuple((g, k - 1) if g == a.a else (g, k) for g, k in pay[2])
        self.todo[-1] = (pay[0], pay[1], tuple(x for x in cost if x[1] > 0), pay[3])
        if left > 1:
            self.todo.append(("cut", p, left - 1))

    def push_pay(self, p: int, cost: Cost, discount: int = 0, dest: int = -1) -> None:
        self.todo.append(("pay", p, cost, dest))
        if discount:
            self.todo.append(("cut", p, discount))

    def _s_fee(self, step: Step) -> list[Act]:
        """A worker on an occupied space, or a ship in another player's harbour: 1 cube or coin, or an anchor.
        A space's fee is paid before its action, so only with what the action does not then need (the action
        never gives what pays it; the anchor is always open)."""
        p = step[1]
        P = self.players[p]
        pay_h = A.HEX_ACTS["pay h"]
        out = [(pay_h[i], c, len(P.stack[i])) for i, c in enumerate(P.cube) if c]
        for z, box in (("s", P.store), ("m", P.market)):
            out += [(Act("pay", z, g), g, 1) for g in GOODS if box[g]]
        if len(step) > 3:  # a worker's fee: keep the space's action possible after paying
            _, _, _, x, special = step
            have = self.holdings(p)
            kept = []
            for a, g, v in out:
                left = dict(have)
                left[g] -= v
                left["any"] -= v
                if self.space_can(p, x, special, left):
                    kept.append((a, g, v))
            out = kept
        return [a for a, _, _ in out] + [ANCHOR]

    def _r_fee(self, step: Step, a: Act) -> None:
        p, q = step[1], step[2]
        if a == ANCHOR:
            self.players[p].anchors += 1
            return
        g, _ = self.take(p, a)
        self.players[q].market[g] += 1

    def build_kinds(self, p: int, discount: int, have: dict[str, int] | None = None) -> list[Act]:
        P = self.players[p]
        C = self.C
        if not self.free_tops(p):
            return []
        out = []
        for kind, deck in (("small", self.small), ("large", self.large), ("fort", None)):
            slots = C.slots[kind]
            if P.built[kind] < len(slots) and (deck is None or deck) and \
                    self.affordable(p, slots[P.built[kind]], discount, have):
                out.append(Act("build", kind))
        return out

    def _s_build(self, step: Step) -> list[Act]:
        return self.build_kinds(step[1], step[2])

    def _r_build(self, step: Step, a: Act) -> None:
        _, p, disc = step
        kind = a.a
        self.todo.append(("top", p, kind))
        self.push_pay(p, self.C.slots[kind][self.players[p].built[kind]], disc)

    def _s_top(self, step: Step) -> list[Act]:
        return [Act("top", str(i + 1)) for i in self.free_tops(step[1])]

    def _r_top(self, step: Step, a: Act) -> None:
        _, p, kind = step
        P = self.players[p]
        C = self.C
        i = int(a.a) - 1
        settle = C.helm_settlement if P.stack[i][-1] == "S" else 0
        P.board = None  # a statue or fortress now (a card after the pick)
        if kind == "statue":
            P.occ[i] = "statue"
            P.statues += 1
            return
        if kind == "fort":
            P.occ[i] = "fort"
            P.built["fort"] += 1
            if settle:
                self.todo.append(("helm", p, settle))
            return
        deck = self.small if kind == "small" else self.large
        self.offer = [deck.pop(0) for _ in range(min(C.offer, len(deck)))]
        for c in self.offer:
            self.seen[c] |= 1 << p
        self.reveals += 1
        self.todo.append(("pick", p, kind, i))

    def _s_pick(self, step: Step) -> list[Act]:
        return [Act("card", c) for c in self.offer]

    def _r_pick(self, step: Step, a: Act) -> None:
        _, p, kind, i = step
        P = self.players[p]
        C = self.C
        c = a.a
        deck = self.small if kind == "small" else self.large
        deck += [x for x in self.offer if x != c]
        self.offer = []
        self.seen[c] = (1 << self.num_players) - 1
        P.occ[i] = c
        P.board = None
        P.cards.append(c)
        P.built[kind] += 1
        self.reveals += 1
        helm = (C.helm_small if kind == "small" else C.helm_large) + (C.helm_settlement if P.stack[i][-1] == "S" else 0)
        if helm:
            self.todo.append(("helm", p, helm))
        if kind == "small" and self.card[c].effect:
            self.todo.append(("prims", p, self.card[c].effect))

    def _s_boatbuy(self, step: Step) -> list[Act]:
        P = self.players[step[1]]
        return [Act("boat", str(b + 1)) for b in range(len(self.C.boats)) if b not in P.boats]

    def _r_boatbuy(self, step: Step, a: Act) -> None:
        _, p, disc = step
        P = self.players[p]
        self.todo.append(("boatgo", p, int(a.a) - 1))
        self.push_pay(p, self.C.parking[len(P.boats)], disc)

    def _s_boatgo(self, step: Step) -> None:
        self.todo.pop()
        self.players[step[1]].boats.append(step[2])

    def crate_opts(self, p: int, have: dict[str, int] | None = None) -> list[Act]:
        out = []
        for c, holders in enumerate(self.cargo):
            if p not in holders:
                continue
            cost = self.C.cargo[c]
            if have is None:
                have = self.holdings(p)
            if self.affordable(p, cost, 0, have):
                out.append(A.CRATE[c][0])
            if c == self.round and not self.turned[c] and self.affordable(p, cost, 1, have):
                out.append(A.CRATE[c][1])
        return out

    def _s_crate(self, step: Step) -> list[Act]:
        return self.crate_opts(step[1])

    def _r_crate(self, step: Step, a: Act) -> None:
        p = step[1]
        c = int(a.a) - 1
        self.todo.append(("crategot", p, c))
        if a.b == "turn":
            self.turned[c] = True
        self.push_pay(p, self.C.cargo[c], 1 if a.b == "turn" else 0)

    def _s_crategot(self, step: Step) -> None:
        self.todo.pop()
        _, p, c = step
        self.cargo[c].discard(p)
        P = self.players[p]
        P.crates += 1
        P.crates_taken += 1

    def ruin_hexes(self, p: int) -> list[int]:
        P = self.players[p]
        return [i for i, r in enumerate(P.ruin) if r]

    def ruin_ok(self, p: int) -> bool:
        P = self.players[p]
        return bool(self.ruin_hexes(p)) and P.ruins_taken < len(self.C.statue_costs)

    def statue_ok(self, p: int, have: dict[str, int] | None = None) -> bool:
        P = self.players[p]
        return P.statues < P.ruins_taken and bool(self.free_tops(p)) and \
            self.affordable(p, self.C.statue_costs[P.statues], 0, have)

    def _s_f_or(self, step: Step) -> list[Act]:
        p = step[1]
        return ([Act("ruin")] if self.ruin_ok(p) else []) + ([Act("statue")] if self.statue_ok(p) else [])

    def _r_f_or(self, step: Step, a: Act) -> None:
        if a.kind == "statue":
            self._r_statue(step, a)
        else:
            self.todo.append(("ruin", step[1]))

    def _s_ruin(self, step: Step) -> list[Act]:
        p = step[1]
        return [Act("ruin", str(i + 1)) for i in self.ruin_hexes(p)] if self.ruin_ok(p) else []

    def _r_ruin(self, step: Step, a: Act) -> None:
        P = self.players[step[1]]
        P.ruin[int(a.a) - 1] = False
        P.board = None
        P.vp += self.C.workshop_points[P.ruins_taken]
        P.ruins_taken += 1

    def _s_statue(self, step: Step) -> list[Act]:
        """Make a statue from the workshop (pay, then the highest free tile); the special worker may decline."""
        return [Act("statue"), SKIP] if self.statue_ok(step[1]) else []

    def _r_statue(self, step: Step, a: Act) -> None:
        p = step[1]
        if a == SKIP:
            return
        self.todo.append(("top", p, "statue"))
        self.push_pay(p, self.C.statue_costs[self.players[p].statues])

    def _s_isle(self, step: Step) -> list[Act]:
        p = step[1]
        return sorted({Act("isle", f"P{q + 1}", str(k + 1)) for q, k in self.islet_at.values()
                       if self.prim_ok(p, self.C.islets[k])})

    def _r_isle(self, step: Step, a: Act) -> None:
        self.todo.append(("prims", step[1], self.C.islets[int(a.b) - 1]))

    def _s_useboat(self, step: Step) -> list[Act]:
        p = step[1]
        return [Act("useboat", f"P{q + 1}", str(b + 1)) for q in range(self.num_players)
                for b in self.players[q].boats if self.prim_ok(p, self.C.boats[b])]

    def _r_useboat(self, step: Step, a: Act) -> None:
        self.todo.append(("prims", step[1], self.C.boats[int(a.b) - 1]))

    # -- ships ----------------------------------------------------------------------------------------
    def _s_helm(self, step: Step) -> list[Act] | None:
        """Helm points: each one first lifts an anchor (docs: decision D7), the rest move one ship."""
        _, p, n = step
        P = self.players[p]
        k = min(P.anchors, n)
        if k:
            P.anchors -= k
            self.todo[-1] = ("helm", p, n - k)
            return None
        if n <= 0:
            return []
        return [Act("ship", "1"), Act("ship", "2")]

    def _r_helm(self, step: Step, a: Act) -> None:
        self.todo.append(("move", step[1], int(a.a) - 1, step[2]))

    def _s_move(self, step: Step) -> None:
        """One beach per helm point; the beach entered gives its islet bonus, log token and harbour toll."""
        self.todo.pop()
        _, p, ship, n = step
        if n <= 0:
            return
        C = self.C
        P = self.players[p]
        pos = (P.ships[ship] + (1 if ship == 0 else -1)) % self.ring
        P.ships[ship] = pos
        self.todo.append(("move", p, ship, n - 1))
        seg, k = divmod(pos, C.segment)
        if k in C.log_beaches and self.logpool:
            g = self.logpool.pop()
            self.reveals += 1
            P.logs += 1
            P.since[ship] = 0
            self.gain(p, g, 1)
        else:
            P.since[ship] += 1
        if k == 0 and seg != p:
            self.todo.append(("fee", p, seg))
        if pos in self.islet_at:
            self.todo.append(("prims", p, C.islets[self.islet_at[pos][1]]))

    # -- hiring ---------------------------------------------------------------------------------------
    def _s_hire(self, step: Step) -> list[Act]:
        P = self.players[step[1]]
        out = []
        if P.total_n < 4:
            out.append(Act("hire", "normal"))
        if P.total_s < 2 and len(self.order_worker) < len(self.orders):
            out.append(Act("hire", "special"))
        return [*out, SKIP] if out else []  # the seed: 「你可以選擇…拿取一個工人」, a hire may be declined

    def _r_hire(self, step: Step, a: Act) -> None:
        p = step[1]
        P = self.players[p]
        if a == SKIP:
            return
        if a.a == "normal":
            P.total_n += 1
            P.idle_n += 1
        else:
            P.total_s += 1
            P.idle_s += 1
            self.todo.append(("order", p))

    def _s_order(self, step: Step) -> list[Act]:
        P = self.players[step[1]]
        kinds = (["normal"] if P.idle_n else []) + (["special"] if P.idle_s else [])
        return [Act("order", str(k + 1), w) for k in self.orders if k not in self.order_worker for w in kinds]

    def _r_order(self, step: Step, a: Act) -> None:
        p = step[1]
        P = self.players[p]
        self.order_worker[int(a.a) - 1] = p
        if a.b == "normal":
            P.idle_n -= 1
            P.orders_n += 1
        else:
            P.idle_s -= 1
            P.orders_s += 1

    # -- cleanup --------------------------------------------------------------------------------------
    def _s_cstart(self, step: Step) -> None:
        self.todo.pop()
        self.phase = "cleanup"
        for P in self.players:
            P.carto_used = False
        self.todo.append(("cend",))
        for q in reversed(self.order()):
            self.todo += [("clate", q), ("cbonus", q), ("react", q), ("feed", q), ("cwin", q)]

    def _s_cwin(self, step: Step) -> list[Act] | None:
        return self.menu_step(step, [])

    def _r_cwin(self, step: Step, a: Act) -> None:
        if a != DONE:
            self.todo.append(step)
            self.do_free(step[1], a)

    def _s_clate(self, step: Step) -> list[Act] | None:
        """Free actions are "any time": after the helm steps, before the market is emptied (to store what
        sailing gave, or use it)."""
        return self.menu_step(step, [])

    def _r_clate(self, step: Step, a: Act) -> None:
        self._r_cwin(step, a)

    def _s_feed(self, step: Step) -> None:
        """Feed: pay the upkeep in food; if there is not enough, all food goes and each missing one is an anchor."""
        self.todo.pop()
        p = step[1]
        P = self.players[p]
        need = self.C.upkeep[self.hires(p)]
        have = self.avail(p, "food")
        if have >= need:
            P.fed = True
            if need:
                self.push_pay(p, (("food", need),))
            return
        P.fed = False
        for i, c in enumerate(P.cube):
            if c == "food":
                P.cube[i] = ""
                P.board = None
                self.supply["food"] += 1
        for box in (P.store, P.market):
            self.supply["food"] += box["food"]
            box["food"] = 0
        P.anchors += need - have

    def _s_react(self, step: Step) -> list[Act]:
        """Reactivate a used large building (2 coins) or a crate (1 coin); free for fortress owners. The seed
        (「你可以支付2硬幣將一張使用過的大建築卡翻回來 或是 支付1硬幣將一個板條箱指示物變為未使用」) allows one
        per clean-up; the option `reactivation=any` keeps the engine's earlier reading, any number (D14)."""
        p = step[1]
        P = self.players[p]
        C = self.C
        fort = bool(P.built["fort"])
        if fort and self.options.get("reactivation") == "any":
            P.large_used.clear()
            P.crates += sum(P.icons)
            P.icons = [False] * len(P.icons)
            return []
        coins = self.avail(p, "coin")
        out = [Act("react", c) for c in sorted(P.large_used) if fort or coins >= C.react_large]
        out += [Act("react", "crate", str(k + 1)) for k, u in enumerate(P.icons)
                if u and (fort or coins >= C.react_crate)]
        return [*out, DONE] if out else []

    def _r_react(self, step: Step, a: Act) -> None:
        p = step[1]
        P = self.players[p]
        if a == DONE:
            return
        if self.options.get("reactivation") == "any":
            self.todo.append(step)
        fee = 0 if P.built["fort"] else self.C.react_crate if a.a == "crate" else self.C.react_large
        if a.a == "crate":
            P.icons[int(a.b) - 1] = False
            P.crates += 1
        else:
            P.large_used.discard(a.a)
        if fee:
            self.push_pay(p, (("coin", fee),))

    def _s_cbonus(self, step: Step) -> None:
        """Fed with 3+ hires (+1 helm), then the statues (+1 each), then the road's top three (+1): the seed's
        clean-up steps a, c and d, each a gain of its own with its own choice of ship (decision D20)."""
        self.todo.pop()
        p = step[1]
        P = self.players[p]
        C = self.C
        gains = [C.fed_helm if P.fed and self.hires(p) >= C.fed_helm_from else 0, P.statues,
                 1 if all(P.stack[i] for i in C.road) else 0]
        self.todo += [("helm", p, n) for n in reversed(gains) if n]

    def hires(self, p: int) -> int:
        """Workers hired so far (the seed: hiring the 3rd and 4th costs more food; a hire may be declined)."""
        P = self.players[p]
        return P.total_n - 2 + P.total_s

    def _s_cend(self, step: Step) -> None:
        self.todo.pop()
        for P in self.players:
            P.idle_n = P.total_n - P.orders_n
            P.idle_s = P.total_s - P.orders_s
            for g in GOODS:
                if g != "coin":
                    self.supply[g] += P.market[g]
                P.market[g] = 0
        self.spaces = {x: [] for x in A.SPACES}
        self.round += 1
        if self.round >= self.C.rounds:
            self.phase = "over"
            return
        self.start = self.next_start
        self.todo.append(("round",))

    # -- scoring --------------------------------------------------------------------------------------
    def card_points(self, p: int, score: tuple[str, str, int]) -> int:
        op, what, n = score
        return n if op == "flat" else n * self.count(p, what)

    def score_parts(self, p: int) -> dict[str, int]:
        """The points of p's score by kind (the search's leaves need only these, not the tiebreak)."""
        P = self.players[p]
        C = self.C
        orders = 0
        for k, q in self.order_worker.items():
            if q == p:
                what, tiers = C.orders[k]
                have = self.count(p, what)
                orders += max((pts for need, pts in tiers if have >= need), default=0)
        buildings = sum(self.card_points(p, self.card[c].score) for c in P.cards)
        if P.built["fort"]:
            buildings += self.card_points(p, C.fort_score)
        left = P.storage_used() + sum(P.market.values()) + P.carto + sum(P.hand)
        parts = {
            "logs": C.per_log * P.logs + sum(P.since),
            "orders": orders,
            "buildings": buildings,
            "workshop": P.vp,
            "leftovers": left // C.leftover,
            "anchors": C.anchor * P.anchors,
        }
        return parts

    def score_of(self, p: int) -> Score:
        parts = self.score_parts(p)
        P = self.players[p]
        empty = sum(1 for i, s in enumerate(P.stack) if not s and not P.ruin[i])
        return Score(sum(parts.values()), parts, (-empty,))

    def scores(self) -> list[Score]:
        return [self.score_of(p) for p in range(self.num_players)]

    # -- copies ---------------------------------------------------------------------------------------
    def clone(self) -> CooperState:
        s = CooperState.__new__(CooperState)
        self._copy_base(s)
        s.C, s.ring, s.card = self.C, self.ring, self.card
        s.supply, s.singles = dict(self.supply), dict(self.singles)
        s.bag, s.logpool, s.small, s.large = self.bag[:], self.logpool[:], self.small[:], self.large[:]
        s.seen, s.offer = dict(self.seen), self.offer[:]
        s.orders, s.order_worker = self.orders, dict(self.order_worker)
        s.start, s.next_start = self.start, self.next_start
        s.players = [P.copy() for P in self.players]
        s.islet_at = dict(self.islet_at)
        s.cargo = [set(x) for x in self.cargo]
        s.turned = self.turned[:]
        s.spaces = {x: v[:] for x, v in self.spaces.items()}
        s.a_taken, s.round, s.phase = self.a_taken, self.round, self.phase
        s.wp_cur, s.reveals = self.wp_cur, self.reveals
        s.todo = self.todo[:]
        s.options_ = self.options_[:]
        s.decider = self.decider
        s.stop_at = self.stop_at
        return s

    def determinize(self, seat: int, rng: Rng) -> CooperState:
        """Resample what `seat` cannot know: the bag order, the log tokens' order, and the building cards it
        has not seen (in the decks and in another player's open offer). Pools are sorted before shuffling,
        so the result depends only on the seat's information."""
        s = self.clone()
        s.bag = sorted(s.bag)
        rng.shuffle(s.bag)
        s.logpool = sorted(s.logpool)
        rng.shuffle(s.logpool)
        bit = 1 << seat
        slots: list[tuple[list[str], int]] = []
        for zone in (s.small, s.large, s.offer):
            slots += [(zone, i) for i, c in enumerate(zone) if not self.seen[c] & bit]
        for group in ("S", "L"):
            mine = [(z, i) for z, i in slots if z[i][0] == group]
            pool = sorted(z[i] for z, i in mine)
            masks = [self.seen[z[i]] for z, i in mine]
            rng.shuffle(pool)
            for (z, i), c, m in zip(mine, pool, masks, strict=True):
                z[i] = c
                s.seen[c] = m
        s._legal = None
        if s.todo and s.todo[-1][0] == "pick":  # the only question whose answers name hidden cards (the offer)
            s._run()  # every other question keeps its answers: they read no order of a bag, pool or deck
        return s

    # -- views ----------------------------------------------------------------------------------------
    def player_json(self, p: int) -> dict[str, Any]:
        P = self.players[p]
        C = self.C
        return {
            "hexes": [{"id": i + 1, "q": C.hexes[i][0], "r": C.hexes[i][1], "tiles": "".join(P.stack[i]),
                       "height": len(P.stack[i]), "cube": P.cube[i], "occ": P.occ[i], "ruin": P.ruin[i],
                       "road": i in C.road} for i in range(len(C.hexes))],
            "storage": {g: k for g, k in P.store.items() if k}, "storage_cap": C.start_storage + sum(P.built.values()),
            "market": {g: k for g, k in P.market.items() if k}, "hand": P.hand[:], "cartographer": P.carto,
            "cartographer_used": P.carto_used, "workers": {"normal": P.total_n, "special": P.total_s,
                                                           "idle_normal": P.idle_n, "idle_special": P.idle_s,
                                                           "on_orders": P.orders_n + P.orders_s},
            "ships": P.ships[:], "since_log": P.since[:], "logs": P.logs, "anchors": P.anchors,
            "islets_left": [k + 1 for k in P.islets], "boats": [b + 1 for b in P.boats],
            "buildings": P.cards[:], "fort": P.built["fort"], "large_used": sorted(P.large_used),
            "crates": P.crates, "crate_icons": P.icons[:], "crates_taken": P.crates_taken,
            "ruins_taken": P.ruins_taken, "statues": P.statues, "workshop_points": P.vp,
            "milestones": [k + 1 for k in P.miles], "passed": P.passed,
        }

    def public_json(self) -> dict[str, Any]:
        return {
            "round": self.round + 1, "rounds": self.C.rounds, "phase": self.phase, "start_player": self.start,
            "next_start": self.next_start, "ring": self.ring, "segment": self.C.segment,
            "islets": [{"beach": b, "owner": q, "islet": k + 1} for b, (q, k) in sorted(self.islet_at.items())],
            "sandbanks": [q * self.C.segment + b for q in range(self.num_players) for b in self.C.sandbanks],
            "spaces": {x: [[q, sp] for q, sp in v] for x, v in self.spaces.items()},
            "cargo": [{"card": c + 1, "crates": sorted(h), "turned": self.turned[c]} for c, h in enumerate(self.cargo)],
            "orders": [{"order": k + 1, "worker": self.order_worker.get(k)} for k in self.orders],
            "supply": dict(self.supply), "singles": dict(self.singles),
            "bag": len(self.bag), "log_tokens": len(self.logpool),
            "players_": [self.player_json(p) for p in range(self.num_players)],
        }

    def decision(self, seat: int | None, options: bool = True) -> dict[str, Any] | None:
        if self.decider is None:
            return None
        out: dict[str, Any] = {"player": self.decider, "step": self.todo[-1][0]}
        if options and seat == self.decider:
            out["options"] = [str(a) for a in self.options_]
        return out

    def _view(self, seat: int | None, options: bool = True) -> dict[str, Any]:
        bit = 0 if seat is None else 1 << seat
        pub = self.public_json()
        out: dict[str, Any] = {
            "game": "cooper_island", "seat": seat, "players": self.num_players,
            "current_player": self.current_player, "decision": self.decision(seat, options),
            **{k: v for k, v in pub.items() if k != "players_"}, "boards": pub["players_"],
            "decks": {"small": len(self.small), "large": len(self.large),
                      "known": [[name, i, c] for name, deck in (("small", self.small), ("large", self.large))
                                for i, c in enumerate(deck) if self.seen[c] & bit]},
            "offer": [c if self.seen[c] & bit else None for c in self.offer],
            "components": self.C.source,
        }
        return out

    def snapshot(self) -> dict[str, Any]:
        return {
            **self.public_json(), "bag_order": self.bag[:], "log_order": self.logpool[:],
            "small": self.small[:], "large": self.large[:], "offer": self.offer[:], "seen": dict(self.seen),
            "todo": [list(map(str, s)) for s in self.todo], "decider": self.decider, "reveals": self.reveals,
        }


STEP: dict[str, Callable[[CooperState, Step], list[Act] | None]] = {
    k[3:]: getattr(CooperState, k) for k in dir(CooperState) if k.startswith("_s_")}
"""Each step kind's `_s_<kind>` (what it asks), looked up once: a search runs a step machine step at every move."""
RESOLVE: dict[str, Callable[[CooperState, Step, Act], None]] = {
    k[3:]: getattr(CooperState, k) for k in dir(CooperState) if k.startswith("_r_")}
"""Each step kind's `_r_<kind>` (what an answer does)."""


@mypyc_attr(native_class=False)
class CooperRules(FixedActionTable, Game):
    """The rules-level half of the game: setup, notation, the integer encoding, what search plays, visibility and
    undo. `game.py` gives it its words and evaluation (`GAME`), since text.py and evaluate.py sit
    above this module."""

    name = "cooper_island"
    titles = {"en": "Cooper Island", "zh-TW": "庫柏島"}
    min_players = 2
    max_players = 4
    actions_module: ClassVar[Any] = A
    levels: ClassVar[dict[str, tuple[str, dict[str, Any]]]] = {"easy": ("greedy", {"samples": 1})}
    """People's `easy` is greedy on one determinization, not uniform random: a random seat here spends its goods on
    bookkeeping moves, takes anchors and never builds or sails (#31; docs/rules/cooper_island.md, "Easy bots")."""
    mast = 0.4  # MAST playouts: as strong or stronger at 2, 3 and 4 players, the only gain at 4 (docs/strength-log.md)
    options = {
        "reactivation": Option("one", "clean-up reactivations: 'one' large building or crate (seed rules) or "
                                      "'any' number, each paid", ("one", "any")),
        "components": Option("", "path of a components file (JSON or TOML) to use instead of the built-in one"),
    }

    def _new_state(self, players: int, seed: int, options: dict[str, Any]) -> CooperState:
        from boardlab.core.errors import ComponentError

        try:
            components(options.get("components") or "")
        except ComponentError as e:
            raise ConfigError(str(e)) from e
        s = CooperState(players, seed, options)
        s._setup()
        return s

    def max_game_length(self, players: int) -> int:
        """A true bound on a game's decisions (OpenSpiel's max_game_length): `decision_bound`, where the engine's
        safety stop ends the game (docs: D29). Every round's non-free decisions are bounded by its workers (at most
        6 a seat) and what each action asks, but its free actions (exchanges, stores, crate icons, abilities,
        single tiles) only through the goods they spend, so the rules alone give no closed form."""
        if not self.min_players <= players <= self.max_players:
            raise ConfigError(f"cooper_island is for {self.min_players}-{self.max_players} players, not {players}")
        return decision_bound(players)

    def search_actions(self, state: State) -> list[Any]:
        """Bots pay with `auto` (cheapest, least waste) instead of choosing each source."""
        legal = cast(list[Act], state.legal_actions())
        if legal and legal[0] == AUTO:  # a payment's menu (`_s_pay` lists it first; no other menu has it)
            return [AUTO]
        s: CooperState = state  # type: ignore[assignment]
        step = s.todo[-1][0] if s.todo else ""
        if step == "fee":  # an anchor, or the cheapest single cube or coin (market, storage, lowest hex)
            P = s.players[s.todo[-1][1]]
            cheapest = min(((a.a != "m", a.a != "s", len(P.stack[int(a.b) - 1]) if a.a == "h" else 0, n, a)
                            for n, a in enumerate(legal) if a.kind == "pay"), default=None)
            return [ANCHOR] if cheapest is None else [ANCHOR, cheapest[-1]]
        if step in MENUS:  # free actions that only lose value are left out of the search (people keep them)
            return [a for a in legal if a not in SEARCH_DROPS] or legal
        return legal

    def action_visible(self, before: State, action: Any, seat: int | None) -> bool:
        """Every action is public: hands of tiles lie open, a picked building is built face up; only the
        cards left in an offer stay secret, and no notation names them."""
        return True

    def undo_barrier(self, before: State, action: Any, after: State) -> bool:
        """A draw from the bag, a log token, or building cards drawn or revealed: no undo past it."""
        return after.reveals != before.reveals  # type: ignore[attr-defined]


__all__ = ["CooperRules", "CooperState"]
