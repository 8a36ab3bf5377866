"""Cacao rules (official rulebook, 2015), for 2-4 players.

A turn is decomposed into small decisions:
  1. the turn's player places (or rebuilds, or - with no legal spot - discards) a worker tile;
  2. the same player assigns display tiles to the jungle spaces the placement triggered, one at a time
     (then the rest come blind from the pile, see docs/rules/cacao.md);
  3. every player with activated workers, the turn's player first and then clockwise, resolves their
     edges one at a time (`use` an edge with 0..n of its workers), or all at once with `auto`;
  4. end of turn: draw a worker tile, refill the display, next player.
Forced decisions with a single option are taken automatically.

Board: a dict from (x, y) to tiles. Jungle spaces are the cells with x + y even (the start
plantation is at 0,0 and the start market at 1,1); worker tiles go on cells with x + y odd.
"""

from __future__ import annotations

from bisect import insort
from itertools import permutations
from typing import Any, ClassVar, NamedTuple

from mypy_extensions import mypyc_attr

from boardlab.core.action_split import ActionSplit
from boardlab.core.action_table import ParsesNotation
from boardlab.core.errors import ActionParseError, ConfigError
from boardlab.core.game import Game, Option, Score, State
from boardlab.core.rng import Rng

from . import actions as A
from .actions import AUTO, STEPS, CacaoAction, Discard, Fill, Place, Use
from .components import Components, load

PLACE, FILL, ACTIVATE, OVER = "place", "fill", "activate", "over"

_SIDES: tuple[tuple[int, int, int, int], ...] = tuple(
    (d, dx, dy, (d + 2) % 4) for d, (dx, dy) in enumerate(STEPS))
"""Per edge d: d, its STEPS offset and the opposite edge (the neighbour's edge that faces back)."""
_AROUND: tuple[tuple[int, int, int, int, int, int, int, int], ...] = (
    (0, -1, 0, -2, 1, -1, -1, -1), (1, 0, 1, -1, 2, 0, 1, 1), (0, 1, 1, 1, 0, 2, -1, 1), (-1, 0, -1, -1, -1, 1, -2, 0))
"""Per STEPS offset of a placed tile: that jungle space's offset, then its three other neighbours' offsets
(relative to the placed tile), to test whether a placement makes the space need filling."""


class Worker(NamedTuple):
    """A worker tile on the board (the top one where a tile was rebuilt)."""

    owner: int
    tile: str
    rot: int
    edges: tuple[int, int, int, int]  # workers facing N, E, S, W
    layers: int  # 1, or 2 once rebuilt


class Edge(NamedTuple):
    """An activated edge waiting for its owner's decision."""

    x: int
    y: int
    edge: int
    workers: int
    jungle: str  # jungle tile id it faces


class Village:
    """One player's village board and supply."""

    __slots__ = ("fruit", "gold", "sun", "water")

    def __init__(self, fruit: int = 0, gold: int = 0, sun: int = 0, water: int = 0) -> None:
        self.fruit, self.gold, self.sun, self.water = fruit, gold, sun, water

    def copy(self) -> Village:
        return Village(self.fruit, self.gold, self.sun, self.water)

    def to_json(self) -> dict[str, int]:
        return {"fruit": self.fruit, "gold": self.gold, "sun": self.sun, "water": self.water}


@mypyc_attr(native_class=False)  # a Python class with compiled methods (see boardlab/_compiled.py)
class CacaoState(State):
    """A Cacao position. See the module docstring for the decision structure."""

    def __init__(self, players: int, seed: int, options: dict[str, Any]) -> None:
        super().__init__(players, seed, options)
        self.comp: Components = load(options.get("components", ""))

    # -- setup ----------------------------------------------------------------------------------
    def _setup(self) -> None:
        comp, n = self.comp, self.num_players
        rng = Rng(self.seed)
        self.jungle: dict[tuple[int, int], str] = {}
        self.workers: dict[tuple[int, int], Worker] = {}
        self.spots: set[tuple[int, int]] = set()
        starts = [t.id for t in comp.jungle for _ in range(t.start)]
        plantation = next(i for i in starts if self._kind(i) == "plantation")
        market = next(i for i in starts if self._kind(i) == "market")
        self._put_jungle(0, 0, plantation)
        self._put_jungle(1, 1, market)
        pile = []
        for t in comp.jungle:
            pile += [t.id] * (t.count - t.start - (t.removed_2p if n == 2 else 0))
        rng.shuffle(pile)
        self.pile: list[str] = pile  # top of the pile is the end of the list
        self.display: list[str] = [pile.pop() for _ in range(min(comp.display_size, len(pile)))]
        self.hands: list[list[str]] = []
        self.decks: list[list[str]] = []
        for _ in range(n):
            deck = [w.id for w in comp.workers for _ in range(w.per_colour - w.removed[n])]
            rng.shuffle(deck)
            hand = sorted(deck.pop() for _ in range(min(comp.hand_size, len(deck))))
            self.hands.append(hand)
            self.decks.append(deck)
        self.villages = [Village() for _ in range(n)]
        self.rng_state: int | str = rng.saved_state()
        self.turn = 0
        self.phase = PLACE
        self.placed: tuple[int, int] | None = None  # the tile placed this turn
        self.to_fill: list[tuple[int, int]] = []
        self.filled: list[tuple[int, int]] = []
        self.queue: list[int] = []  # players still to resolve activations, first is deciding
        self.pending: dict[int, list[Edge]] = {}
        self.activated: set[tuple[int, int, int, int]] = set()  # (x, y, layer, edge) ever activated

    def _kind(self, jungle_id: str) -> str:
        return self.comp.kind_of[jungle_id]

    def _put_jungle(self, x: int, y: int, jungle_id: str) -> None:
        self.jungle[(x, y)] = jungle_id
        for dx, dy in STEPS:
            c = (x + dx, y + dy)
            if c not in self.workers:
                self.spots.add(c)

    # -- core protocol --------------------------------------------------------------------------
    @property
    def current_player(self) -> int | None:
        if self.phase == OVER:
            return None
        if self.phase == ACTIVATE:
            return self.queue[0]
        return self.turn

    @property
    def is_over(self) -> bool:
        return self.phase == OVER

    def _legal_actions(self) -> list[CacaoAction]:  # type: ignore[override]  # only Cacao actions
        if self.phase == PLACE:
            return self._placements()
        if self.phase == FILL:
            kinds = sorted(set(self.display))
            return [Fill("fill", k, x, y) for k in kinds for (x, y) in self.to_fill]
        return self._uses(self.queue[0])

    def _placements(self) -> list[CacaoAction]:
        p = self.turn
        types = sorted(set(self.hands[p]))
        comp = self.comp
        rots = [(t, comp.rotations[t]) for t in types]
        spots = sorted(self.spots)
        out: list[CacaoAction] = []
        for t, rs in rots:
            for r in rs:
                table = A.place_table("place", t, r)
                out += [table[c] for c in spots]
        if self._may_rebuild(p):
            own = sorted(c for c, w in self.workers.items() if w.owner == p and w.layers == 1)
            for t, rs in rots:
                for r in rs:
                    table = A.place_table("rebuild", t, r)
                    out += [table[c] for c in own]
        if not out:
            out = [Discard("discard", t) for t in types]
        return out

    def random_placement(self, rng: Rng) -> CacaoAction:
        """`_placements()[rng.randbelow(len)]` (no draw for a single option) without building the list:
        random playouts need one placement per turn, not all of them."""
        p = self.turn
        types = sorted(set(self.hands[p]))
        rotations = self.comp.rotations
        rots = [(t, r) for t in types for r in rotations[t]]
        spots = sorted(self.spots)
        own = sorted(c for c, w in self.workers.items() if w.owner == p and w.layers == 1) \
            if self._may_rebuild(p) else []
        n_place = len(rots) * len(spots)
        total = n_place + len(rots) * len(own)
        if total == 0:
            return Discard("discard", types[rng.randbelow(len(types)) if len(types) > 1 else 0])
        i = rng.randbelow(total) if total > 1 else 0
        if i < n_place:
            t, r = rots[i // len(spots)]
            return A.place_table("place", t, r)[spots[i % len(spots)]]
        i -= n_place
        t, r = rots[i // len(own)]
        return A.place_table("rebuild", t, r)[own[i % len(own)]]

    def random_fill(self, rng: Rng) -> CacaoAction:
        """`_legal_actions()[rng.randbelow(len)]` in the fill phase (no draw for a single option) without
        building the list: playouts fill about once a turn and use one of the choices."""
        kinds = sorted(set(self.display))
        to_fill = self.to_fill
        total = len(kinds) * len(to_fill)
        i = rng.randbelow(total) if total > 1 else 0
        x, y = to_fill[i % len(to_fill)]
        return Fill("fill", kinds[i // len(to_fill)], x, y)

    def _may_rebuild(self, p: int) -> bool:
        return not self.pile and not self.display and self.villages[p].sun > 0

    def _uses(self, p: int) -> list[CacaoAction]:
        out: list[CacaoAction] = [AUTO]
        fruit = self.villages[p].fruit
        for e in self.pending[p]:
            top = min(e.workers, fruit) if self._kind(e.jungle) == "market" else e.workers
            out += [Use("use", e.x, e.y, e.edge, k) for k in range(top + 1)]
        return out

    def _apply(self, action: CacaoAction) -> None:  # type: ignore[override]  # reach a Cacao state
        kind = action[0]
        if kind == "place" or kind == "rebuild":
            self._place(action)  # type: ignore[arg-type]
        elif kind == "discard":
            self.hands[self.turn].remove(action[1])  # type: ignore[misc, arg-type]  # a Discard
            self._end_turn()
        elif kind == "fill":
            self._fill(action)  # type: ignore[arg-type]
        elif kind == "use":
            self._use(action)  # type: ignore[arg-type]
        else:
            self._auto(self.queue[0])
            self._next_activator()

    # -- A) placing ------------------------------------------------------------------------------
    def _place(self, a: Place) -> None:
        p = self.turn
        kind, tile, rot, x, y = a
        edges = self.comp.edges_at[(tile, rot)]
        self.hands[p].remove(tile)
        pos = (x, y)
        workers = self.workers
        if kind == "rebuild":
            self.villages[p].sun -= 1
            workers[pos] = Worker(p, tile, rot, edges, 2)
            self.placed = pos
            self._activate()
            return
        workers[pos] = Worker(p, tile, rot, edges, 1)
        self.spots.discard(pos)
        self.placed = pos
        # B) jungle spaces next to the new tile with two or more worker tiles must be filled: the new
        # tile is one of them, so a space triggers when any of its three other neighbours is a worker
        jungle = self.jungle
        triggered = []
        for dx, dy, ax, ay, bx, by, cx, cy in _AROUND:
            c = (x + dx, y + dy)
            if c in jungle:
                continue
            if (x + ax, y + ay) in workers or (x + bx, y + by) in workers or (x + cx, y + cy) in workers:
                triggered.append(c)
        self.to_fill = triggered
        self.filled = []
        self._continue_filling()

    # -- B) filling jungle spaces ---------------------------------------------------------------
    def _continue_filling(self) -> None:
        """Ask for the next display choice, or finish blind from the pile, then activate."""
        while self.to_fill:
            if self.display:
                kinds = set(self.display)
                if len(kinds) == 1 and len(self.display) >= len(self.to_fill):
                    # identical tiles for every space: every choice gives the same board
                    k = self.display[0]
                    for c in list(self.to_fill):
                        self._fill_space(c, k)
                        self.display.remove(k)
                    continue
                if len(kinds) * len(self.to_fill) > 1:
                    self.phase = FILL
                    return
                k, c = self.display[0], self.to_fill[0]
                self._fill_space(c, k)
                self.display.remove(k)
            elif self.pile:
                self._fill_space(self.to_fill[0], self.pile.pop())
            else:
                self.to_fill = []  # nothing left to fill with
        self._activate()

    def _fill_space(self, c: tuple[int, int], jungle_id: str) -> None:
        self.to_fill.remove(c)
        self.filled.append(c)
        self._put_jungle(c[0], c[1], jungle_id)

    def _fill(self, a: Fill) -> None:
        self._fill_space((a.x, a.y), a.jungle)
        self.display.remove(a.jungle)
        self._continue_filling()

    # -- C) activating workers ------------------------------------------------------------------
    def _activate(self) -> None:
        pending: dict[int, list[Edge]] = {}
        pos = self.placed
        assert pos is not None
        workers, jungle, activated, kind_of = self.workers, self.jungle, self.activated, self.comp.kind_of
        w = workers[pos]
        x, y = pos
        layers, edges, owner = w.layers, w.edges, w.owner
        # the engine's hottest path in search (_SIDES: each direction's offsets, no enumerate or % 4)
        for d, dx, dy, _ in _SIDES:
            j = jungle.get((x + dx, y + dy))
            if j is not None:
                key = (x, y, layers, d)
                if key in activated:
                    raise AssertionError(f"worker edge {key} activated twice")
                activated.add(key)
                n = edges[d]
                if n and kind_of[j] != "temple":
                    if owner in pending:
                        pending[owner].append(Edge(x, y, d, n, j))
                    else:
                        pending[owner] = [Edge(x, y, d, n, j)]
        filled = self.filled
        if filled:
            for cx, cy in filled:
                j = jungle[(cx, cy)]
                temple = kind_of[j] == "temple"  # marks the edges; nothing to decide
                for _, dx, dy, e in _SIDES:
                    c = (cx + dx, cy + dy)
                    other = workers.get(c)
                    if other is not None and c != pos:
                        key = (c[0], c[1], other.layers, e)
                        if key in activated:
                            raise AssertionError(f"worker edge {key} activated twice")
                        activated.add(key)
                        n = other.edges[e]
                        if n and not temple:
                            o = other.owner
                            if o in pending:
                                pending[o].append(Edge(c[0], c[1], e, n, j))
                            else:
                                pending[o] = [Edge(c[0], c[1], e, n, j)]
            self.filled = []
        self.pending = pending
        if not pending:
            self.queue = []
            self.phase = ACTIVATE
            self._end_turn()
            return
        n = self.num_players
        t = self.turn
        self.queue = [(t + i) % n for i in range(n) if (t + i) % n in pending]
        self.phase = ACTIVATE

    def _use(self, a: Use) -> None:
        p = self.queue[0]
        edges = self.pending[p]
        for i, e in enumerate(edges):
            if e.x == a.x and e.y == a.y and e.edge == a.edge:
                del edges[i]
                self._resolve(p, e.jungle, a.count)
                break
        if not edges:
            self._next_activator()

    def _resolve(self, p: int, jungle_id: str, k: int) -> None:
        """Carry out `k` activations of one jungle tile for player p."""
        t = self.comp.jungle_by_id[jungle_id]
        v = self.villages[p]
        comp = self.comp
        if t.kind == "plantation":
            v.fruit = min(comp.storage, v.fruit + t.value * k)
        elif t.kind == "market":
            v.fruit -= k
            v.gold += t.value * k
        elif t.kind == "gold":
            v.gold += t.value * k
        elif t.kind == "water":
            v.water = min(len(comp.water_track) - 1, v.water + k)
        elif t.kind == "sun":
            v.sun = min(comp.sun_max, v.sun + k)

    def best_order(self, p: int) -> list[Edge]:
        """The order of p's pending edges that ends with the most gold, then the most fruit,
        using every activation (selling as many as fruit allows). Only plantations and markets
        interact, so only their order is searched."""
        edges = self.pending.get(p, [])
        if len(edges) <= 1:
            return list(edges)  # nothing to order (the general case below gives the same)
        kind_of = self.comp.kind_of
        fruit_edges: list[Edge] = []
        others: list[Edge] = []
        for e in edges:  # one pass, kinds looked up once (search calls this every activation)
            kind = kind_of[e.jungle]
            if kind == "plantation" or kind == "market":
                fruit_edges.append(e)
            else:
                others.append(e)
        if len(fruit_edges) <= 1:
            return fruit_edges + others
        v0 = self.villages[p]
        # A pure function of the fruit, the gold and the edges' tiles and workers: memoised per
        # component set (search resolves the same few situations many thousands of times).
        memo = self.comp.order_memo
        key = (v0.fruit, v0.gold, tuple([(e.jungle, e.workers) for e in fruit_edges]))  # no generator: hot
        perm = memo.get(key)
        if perm is not None:
            return [fruit_edges[i] for i in perm] + others
        best: tuple[tuple[int, int], list[Edge]] | None = None
        for order in permutations(fruit_edges):
            fruit, gold = v0.fruit, v0.gold
            for e in order:
                t = self.comp.jungle_by_id[e.jungle]
                if t.kind == "plantation":
                    fruit = min(self.comp.storage, fruit + t.value * e.workers)
                else:
                    k = min(fruit, e.workers)
                    fruit -= k
                    gold += t.value * k
            if best is None or (gold, fruit) > best[0]:
                best = ((gold, fruit), list(order))
        assert best is not None
        if len(memo) < 100_000:
            memo[key] = tuple(next(i for i, f in enumerate(fruit_edges) if f is e) for e in best[1])
        return best[1] + others

    def _auto(self, p: int) -> None:
        kind_of, v = self.comp.kind_of, self.villages[p]
        edges = self.pending.get(p, [])
        # best_order of zero or one edge is that edge list itself: skip the call and its copy
        for e in (self.best_order(p) if len(edges) > 1 else edges):
            k = min(e.workers, v.fruit) if kind_of[e.jungle] == "market" else e.workers
            self._resolve(p, e.jungle, k)
        self.pending[p] = []

    def _next_activator(self) -> None:
        p = self.queue.pop(0)
        del self.pending[p]
        if not self.queue:
            self._end_turn()

    # -- end of turn -----------------------------------------------------------------------------
    def _end_turn(self) -> None:
        p = self.turn
        if self.decks[p]:
            insort(self.hands[p], self.decks[p].pop())  # = append + sort: hands are kept sorted
        while len(self.display) < self.comp.display_size and self.pile:
            self.display.append(self.pile.pop())
        self.placed = None
        self.turn = (p + 1) % self.num_players
        self.phase = OVER if not self.hands[self.turn] else PLACE

    # -- scoring ---------------------------------------------------------------------------------
    def temple_scores(self) -> list[int]:
        """Points per player from every temple, each scored on its own (RB p.4)."""
        n = self.num_players
        pts = [0] * n
        first, second = self.comp.temple_first, self.comp.temple_second
        kind_of = self.comp.kind_of
        for (tx, ty), j in self.jungle.items():
            if kind_of[j] != "temple":
                continue
            count = [0] * n
            for d, (dx, dy) in enumerate(STEPS):
                w = self.workers.get((tx + dx, ty + dy))
                if w is not None:
                    count[w.owner] += w.edges[(d + 2) % 4]
            present = sorted({c for c in count if c > 0}, reverse=True)
            if not present:
                continue
            top = [i for i in range(n) if count[i] == present[0]]
            for i in top:
                pts[i] += first // len(top)
            if len(top) == 1 and len(present) > 1:
                runners = [i for i in range(n) if count[i] == present[1]]
                for i in runners:
                    pts[i] += second // len(runners)
        return pts

    def scores(self) -> list[Score]:
        temples = self.temple_scores()
        track = self.comp.water_track
        out = []
        for i, v in enumerate(self.villages):
            parts = {"gold": v.gold, "temples": temples[i], "sun": v.sun, "water": track[v.water]}
            out.append(Score(sum(parts.values()), parts, (v.fruit,)))
        return out

    # -- copies, views, saves --------------------------------------------------------------------
    def clone(self) -> CacaoState:
        s = CacaoState.__new__(CacaoState)
        self._copy_base(s)
        s.comp = self.comp
        s.jungle = dict(self.jungle)
        s.workers = dict(self.workers)
        s.spots = set(self.spots)
        s.pile = list(self.pile)
        s.display = list(self.display)
        s.hands = [list(h) for h in self.hands]
        s.decks = [list(d) for d in self.decks]
        s.villages = [v.copy() for v in self.villages]
        s.rng_state = self.rng_state
        s.turn, s.phase, s.placed = self.turn, self.phase, self.placed
        s.to_fill = list(self.to_fill)
        s.filled = list(self.filled)
        s.queue = list(self.queue)
        s.pending = {p: list(e) for p, e in self.pending.items()}
        s.activated = set(self.activated)
        return s

    def determinize(self, seat: int, rng: Rng) -> CacaoState:
        """Resample what `seat` cannot see: every pile's order and the other players' hands.
        Pools are sorted before shuffling so the result depends only on the seat's knowledge."""
        s = self.clone()
        for p in range(self.num_players):
            if p == seat:
                pool = sorted(s.decks[p])
                rng.shuffle(pool)
                s.decks[p] = pool
            else:
                pool = sorted(s.hands[p] + s.decks[p])
                rng.shuffle(pool)
                k = len(s.hands[p])
                s.hands[p] = sorted(pool[:k])
                s.decks[p] = pool[k:]
        pile = sorted(s.pile)
        rng.shuffle(pile)
        s.pile = pile
        s.rng_state = rng.next64()
        return s

    def _board_json(self) -> dict[str, Any]:
        return {
            "jungle": [{"x": x, "y": y, "tile": j} for (x, y), j in sorted(self.jungle.items())],
            "workers": [{"x": x, "y": y, "owner": w.owner, "tile": w.tile, "rot": w.rot,
                         "edges": list(w.edges), "layers": w.layers}
                        for (x, y), w in sorted(self.workers.items())],
        }

    def _board_view(self) -> dict[str, Any]:
        """The board part of `view`, built once per position: a server views each position once per
        seat, and the board is the same for all of them (views are read-only snapshots)."""
        cached = getattr(self, "_board_cache", None)
        if cached is not None and cached[0] == len(self.history):
            return cached[1]
        board = self._board_json()
        self._board_cache = (len(self.history), board)
        return board

    def _view(self, seat: int | None) -> dict[str, Any]:
        track = self.comp.water_track
        return {
            "game": "cacao",
            "seat": seat,
            "players": self.num_players,
            "turn": self.turn,
            "current_player": self.current_player,
            "phase": self.phase,
            "move": len(self.history),
            "board": self._board_view(),
            "display": list(self.display),
            "jungle_pile": len(self.pile),
            "placed": list(self.placed) if self.placed else None,
            "to_fill": [list(c) for c in self.to_fill],
            "pending": {str(p): [e._asdict() for e in es] for p, es in self.pending.items()},
            "villages": [dict(v.to_json(), water_value=track[v.water], hand=len(self.hands[i]),
                              pile=len(self.decks[i])) for i, v in enumerate(self.villages)],
            "hand": list(self.hands[seat]) if seat is not None else None,
            "rebuild_allowed": not self.pile and not self.display,
            "scores": None,  # filled in by `State.view` once the game is over (the keys keep their place)
            "winners": None,
            "components": {"source": self.comp.source},
        }

    def snapshot(self) -> dict[str, Any]:
        return {
            **self._board_json(),
            "pile": list(self.pile),
            "display": list(self.display),
            "hands": [list(h) for h in self.hands],
            "decks": [list(d) for d in self.decks],
            "villages": [v.to_json() for v in self.villages],
            "turn": self.turn,
            "phase": self.phase,
            "placed": list(self.placed) if self.placed else None,
            "to_fill": [list(c) for c in self.to_fill],
            "queue": list(self.queue),
            "pending": {str(p): [list(e) for e in es] for p, es in self.pending.items()},
            "activated": sorted(list(k) for k in self.activated),
        }


@mypyc_attr(native_class=False)
class CacaoRules(ParsesNotation, Game):
    """The rules-level half of the game: setup, notation, the integer encoding, what search plays, visibility and
    undo. `game.py` gives it its words and evaluation (`GAME`), since text.py and evaluate.py sit
    above this module."""

    name = "cacao"
    titles = {"en": "Cacao", "zh-TW": "可可亞"}
    min_players = 2
    max_players = 4
    actions_module: ClassVar[Any] = A
    options = {
        "components": Option("", "path of a component file to use instead of the official set"),
    }
    GRID = 64  # |x|, |y| <= GRID for the integer action encoding (64 tiles can never reach further)

    def _new_state(self, players: int, seed: int, options: dict[str, Any]) -> CacaoState:
        s = CacaoState(players, seed, options)
        s._setup()
        return s

    # Integer encoding: blocks of ids, one per action type, over a (2*GRID+1)^2 grid.
    def _cells(self) -> int:
        return (2 * self.GRID + 1) ** 2

    def _cell(self, x: int, y: int) -> int:
        g = self.GRID
        if not (-g <= x <= g and -g <= y <= g):
            raise ActionParseError(f"cell {x},{y} is outside the encodable grid (|x|,|y| <= {g})")
        return (y + g) * (2 * g + 1) + (x + g)

    def _uncell(self, c: int) -> tuple[int, int]:
        w = 2 * self.GRID + 1
        return c % w - self.GRID, c // w - self.GRID

    def _blocks(self) -> list[tuple[str, int]]:
        comp = load()
        cells = self._cells()
        nw, nj = len(comp.workers), len(comp.jungle)
        return [("place", nw * 4 * cells), ("rebuild", nw * 4 * cells), ("discard", nw),
                ("fill", nj * cells), ("use", cells * 4 * 5), ("auto", 1)]

    def num_distinct_actions(self, players: int) -> int:
        return sum(size for _, size in self._blocks())

    def action_split(self, players: int) -> ActionSplit:
        """Learning interfaces name a move in up to four small choices (306 ids instead of 1,031,747): a
        placement as its kind and worker tile, then the column, the row, the rotation; a fill as its jungle
        tile, column, row; a use as `use`, column, row, then the edge and worker count together."""
        return _split()

    # at most per turn: the placement, a fill for each of the 4 jungle spaces around the new tile, and a `use`
    # for each activated edge: the new tile's 4, and the 3 other worker tiles next to each filled space
    DECISIONS_PER_TURN = 1 + 4 + 4 + 4 * 3

    def max_game_length(self, players: int) -> int:
        """A true bound (OpenSpiel's max_game_length): every turn takes one worker tile from its player's
        hand and the game ends when the player to move has none, so there are at most as many turns as worker
        tiles (standard components), each of at most DECISIONS_PER_TURN decisions."""
        if not self.min_players <= players <= self.max_players:
            raise ConfigError(f"cacao is for {self.min_players}-{self.max_players} players, not {players}")
        tiles = players * sum(w.per_colour - w.removed[players] for w in load().workers)
        return tiles * self.DECISIONS_PER_TURN

    def action_to_id(self, action: Any, players: int) -> int:
        comp, cells = load(), self._cells()
        base = 0
        for kind, size in self._blocks():
            if kind == action[0]:
                break
            base += size
        else:
            raise ActionParseError(f"{action!r} is not a Cacao action")
        try:
            if isinstance(action, Place):
                return base + (comp.worker(action.tile) * 4 + action.rot) * cells + self._cell(action.x, action.y)
            if isinstance(action, Discard):
                return base + comp.worker(action.tile)
            if isinstance(action, Fill):
                return base + comp.jungle_index(action.jungle) * cells + self._cell(action.x, action.y)
        except KeyError as e:
            raise ActionParseError(f"unknown tile {e.args[0]!r} in {action}") from None
        if isinstance(action, Use):
            if not 0 <= action.count <= 4:
                raise ActionParseError(f"{action}: an edge has at most 4 workers")
            return base + (self._cell(action.x, action.y) * 4 + action.edge) * 5 + action.count
        return base

    def id_to_action(self, action_id: int, players: int) -> CacaoAction:
        comp, cells = load(), self._cells()
        rest, kind = action_id, ""
        for block, size in self._blocks():
            if rest < size:
                kind = block
                break
            rest -= size
        if not kind or action_id < 0:
            raise ActionParseError(f"action id {action_id} is out of range")
        if kind in ("place", "rebuild"):
            tr, c = divmod(rest, cells)
            t, r = divmod(tr, 4)
            return Place(kind, comp.workers[t].id, r, *self._uncell(c))
        if kind == "discard":
            return Discard("discard", comp.workers[rest].id)
        if kind == "fill":
            j, c = divmod(rest, cells)
            return Fill("fill", comp.jungle[j].id, *self._uncell(c))
        if kind == "use":
            ce, k = divmod(rest, 5)
            c, e = divmod(ce, 4)
            return Use("use", *self._uncell(c), e, k)
        return AUTO

    def search_actions(self, state: State) -> list[Any]:
        """Search bots resolve activations with `auto` (the best order), keeping placement and
        filling choices whole: the branching of edge-by-edge choices buys search nothing."""
        if state.phase == ACTIVATE:  # type: ignore[attr-defined]
            return [AUTO]  # (the legal list of that phase always starts with AUTO)
        return state.legal_actions()

    def random_search_action(self, state: State, rng: Rng) -> Any:
        """The same pick as the default, found without listing every placement (perf only)."""
        phase = state.phase  # type: ignore[attr-defined]
        if phase == ACTIVATE:
            return AUTO
        if phase == PLACE and state._legal is None:
            return state.random_placement(rng)  # type: ignore[attr-defined]
        if phase == FILL and state._legal is None:
            return state.random_fill(rng)  # type: ignore[attr-defined]
        legal = state.legal_actions()
        return legal[rng.randbelow(len(legal))] if len(legal) > 1 else legal[0]

    def component_uses(self, before: State, action: Any) -> list[str]:
        """For balance reports: the worker tile placed (or rebuilt), the jungle tile laid."""
        if isinstance(action, Place):
            return [action.tile]
        if isinstance(action, Fill):
            return [action.jungle]
        return []

    def action_visible(self, before: State, action: Any, seat: int | None) -> bool:
        """Every Cacao action is public once played: tiles are placed (or discarded) face up,
        fills and activations happen on the table."""
        return True

    def undo_barrier(self, before: State, action: Any, after: State) -> bool:
        """An action cannot be undone once it revealed something: a worker tile from the hidden hand
        turned face up (placed, rebuilt or discarded), a blind jungle tile drawn from the pile, or (at
        the end of the turn) a worker tile drawn into the hand. Fills and activations that draw
        nothing may be undone (docs/rules/cacao.md, "Undo")."""
        b, a = before, after
        if isinstance(action, (Place, Discard)):
            return True
        return len(a.pile) != len(b.pile) or a.turn != b.turn  # type: ignore[attr-defined]


_SPLIT: list[ActionSplit] = []


def _split() -> ActionSplit:
    """Cacao's action split over the built-in components (as the flat ids are), built once."""
    if _SPLIT:
        return _SPLIT[0]
    comp, g = load(), CacaoRules.GRID
    place = (("kind", "tile"), ("x",), ("y",), ("rot",))
    _SPLIT.append(ActionSplit(
        steps={"place": place, "rebuild": place, "discard": (("kind", "tile"),),
               "fill": (("kind", "jungle"), ("x",), ("y",)), "use": (("kind",), ("x",), ("y",), ("edge", "count")),
               "auto": (("kind",),)},
        domains={"tile": [w.id for w in comp.workers], "jungle": [j.id for j in comp.jungle],
                 "x": range(-g, g + 1), "y": range(-g, g + 1), "rot": range(4), "edge": range(4), "count": range(5)}))
    return _SPLIT[0]
