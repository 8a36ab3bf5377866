"""Shared helpers for the Cacao tests.

Everything rules-related here is written independently of the engine, from the rulebook summary in
/work/shared/rules/cacao.md: the component sets, the rotation convention, the temple scoring and the
invariants. Positions are built by taking a fresh game and overwriting its fields (`make_state`), then
driven through the public API only (`legal_actions`, `apply`, `scores`, `winners`).
"""

from __future__ import annotations

import json
import random
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

import boardlab
from boardlab.core.errors import IllegalActionError
from boardlab.games.cacao import GAME, CacaoState
from boardlab.games.cacao.rules import Village, Worker

Cell = tuple[int, int]
N, E, S, W = 0, 1, 2, 3
STEP: dict[int, Cell] = {N: (0, -1), E: (1, 0), S: (0, 1), W: (-1, 0)}
LETTER = "NESW"

# -- component data, copied by hand from the rulebook (cacao.md section 1), not from components.json --
TILE_EDGES: dict[str, tuple[int, int, int, int]] = {
    "1111": (1, 1, 1, 1),
    "2101": (2, 1, 0, 1),
    "3001": (3, 0, 0, 1),
    "3100": (3, 1, 0, 0),
}
WORKERS_PER_PLAYER: dict[int, dict[str, int]] = {
    2: {"1111": 4, "2101": 5, "3001": 1, "3100": 1},
    3: {"1111": 3, "2101": 5, "3001": 1, "3100": 1},
    4: {"1111": 3, "2101": 4, "3001": 1, "3100": 1},
}
JUNGLE_FULL: dict[str, int] = {
    "plantation1": 6, "plantation2": 2, "market2": 2, "market3": 4, "market4": 1,
    "gold1": 2, "gold2": 1, "water": 3, "sun": 2, "temple": 5,
}
JUNGLE_REMOVED_2P: dict[str, int] = {"plantation1": 2, "market3": 1, "gold1": 1, "water": 1, "sun": 1, "temple": 1}
JUNGLE_KIND: dict[str, tuple[str, int]] = {
    "plantation1": ("plantation", 1), "plantation2": ("plantation", 2),
    "market2": ("market", 2), "market3": ("market", 3), "market4": ("market", 4),
    "gold1": ("gold", 1), "gold2": ("gold", 2), "water": ("water", 1), "sun": ("sun", 1), "temple": ("temple", 0),
}
WATER_TRACK = (-10, -4, -1, 0, 2, 4, 7, 11, 16)
STORAGE, SUN_MAX, HAND, DISPLAY = 5, 3, 3, 2
START = {(0, 0): "plantation1", (1, 1): "market2"}


def jungle_set(players: int) -> Counter[str]:
    """Every jungle tile in a game of `players` (start tiles included)."""
    c = Counter(JUNGLE_FULL)
    if players == 2:
        c.subtract(JUNGLE_REMOVED_2P)
    return +c


def worker_set(players: int) -> Counter[str]:
    """One player's worker tiles in a game of `players`."""
    return Counter(WORKERS_PER_PLAYER[players])


def edges_of(tile: str, rot: int) -> tuple[int, int, int, int]:
    """Workers facing N, E, S, W after `rot` clockwise quarter turns (printed edge i ends up facing i + rot)."""
    e = TILE_EDGES[tile]
    return (e[(0 - rot) % 4], e[(1 - rot) % 4], e[(2 - rot) % 4], e[(3 - rot) % 4])


def rot_facing(tile: str, index: int, direction: int) -> int:
    """The rotation that turns printed edge `index` of `tile` towards `direction`."""
    return (direction - index) % 4


def worker(owner: int, tile: str, rot: int, layers: int = 1) -> Worker:
    """A worker tile for the board, its edges computed from the rulebook convention."""
    return Worker(owner, tile, rot, edges_of(tile, rot), layers)


def facing(owner: int, count: int, direction: int, layers: int = 1) -> Worker:
    """A worker tile of `owner` showing exactly `count` (0..3) workers towards `direction`."""
    tile, index = {0: ("2101", 2), 1: ("1111", 0), 2: ("2101", 0), 3: ("3001", 0)}[count]
    return worker(owner, tile, rot_facing(tile, index, direction), layers)


def neighbours(c: Cell) -> list[Cell]:
    return [(c[0] + dx, c[1] + dy) for dx, dy in STEP.values()]


def expected_spots(jungle: Mapping[Cell, str], workers: Mapping[Cell, Any]) -> set[Cell]:
    """Empty worker cells orthogonally next to at least one jungle tile."""
    return {n for c in jungle for n in neighbours(c) if n not in workers and n not in jungle}


def make_state(
    players: int = 2,
    *,
    seed: int = 0,
    jungle: Mapping[Cell, str] | None = None,
    workers: Mapping[Cell, Worker] | None = None,
    pile: Sequence[str] = (),
    display: Sequence[str] = (),
    hands: Sequence[Sequence[str]] | None = None,
    decks: Sequence[Sequence[str]] | None = None,
    villages: Sequence[Mapping[str, int]] | None = None,
    turn: int = 0,
) -> CacaoState:
    """A position at the start of `turn`'s turn with the given board and supplies.

    Defaults: the two start tiles, no worker tiles, empty pile and display, hands 1111/2101/3001 and
    empty decks, empty villages. Worker edges already facing jungle tiles count as activated before.
    """
    s = boardlab.new_game("cacao", players=players, seed=seed)
    assert isinstance(s, CacaoState)
    s.jungle = dict(START if jungle is None else jungle)
    s.workers = dict(workers or {})
    s.pile = list(pile)
    s.display = list(display)
    s.hands = [sorted(h) for h in hands] if hands is not None else [["1111", "2101", "3001"] for _ in range(players)]
    s.decks = [list(d) for d in decks] if decks is not None else [[] for _ in range(players)]
    s.villages = [Village(**v) for v in villages] if villages is not None else [Village() for _ in range(players)]
    s.turn = turn
    s.phase = "place"
    s.placed = None
    s.to_fill, s.filled, s.queue, s.pending = [], [], [], {}
    s.activated = {
        (x, y, layer, d)
        for (x, y), w in s.workers.items()
        for layer in range(1, w.layers + 1)
        for d, (dx, dy) in STEP.items()
        if (x + dx, y + dy) in s.jungle
    }
    s.spots = expected_spots(s.jungle, s.workers)
    s._legal = None
    return s


def play(state: CacaoState, *texts: str) -> CacaoState:
    """Apply actions given in notation, in order."""
    for t in texts:
        state.apply(GAME.parse_action(state, t))
    return state


def pending(state: CacaoState, player: int) -> set[tuple[int, int, str, int, str]]:
    """The player's activated, unresolved edges as (x, y, edge letter, workers, jungle id)."""
    return {(e.x, e.y, LETTER[e.edge], e.workers, e.jungle) for e in state.pending.get(player, [])}


def legal_strings(state: CacaoState) -> set[str]:
    return {str(a) for a in state.legal_actions()}


def assert_illegal(state: CacaoState, text: str) -> str:
    """`text` is refused with IllegalActionError and the state is left exactly as it was; returns the message."""
    before = json.dumps(state.snapshot(), sort_keys=True)
    history = list(state.history)
    try:
        state.apply(GAME.parse_action(state, text))
    except IllegalActionError as e:
        message = str(e)
    else:
        raise AssertionError(f"{text!r} was accepted")
    assert json.dumps(state.snapshot(), sort_keys=True) == before
    assert state.history == history
    return message


def gold(state: CacaoState) -> list[int]:
    return [v.gold for v in state.villages]


# -- independent scoring ----------------------------------------------------------------------------
def temple_points(counts: Sequence[int]) -> list[int]:
    """One temple's points from each player's worker count facing it (RB p.4)."""
    pts = [0] * len(counts)
    levels = sorted({c for c in counts if c > 0}, reverse=True)
    if not levels:
        return pts
    firsts = [i for i, c in enumerate(counts) if c == levels[0]]
    for i in firsts:
        pts[i] = 6 // len(firsts)
    if len(firsts) == 1 and len(levels) > 1:
        seconds = [i for i, c in enumerate(counts) if c == levels[1]]
        for i in seconds:
            pts[i] = 3 // len(seconds)
    return pts


def recompute_scores(state: CacaoState) -> list[dict[str, int]]:
    """Final scores from the board and villages alone: gold, each temple on its own, sun, water."""
    n = state.num_players
    temples = [0] * n
    for cell, jid in state.jungle.items():
        if JUNGLE_KIND[jid][0] != "temple":
            continue
        counts = [0] * n
        for d, (dx, dy) in STEP.items():
            w = state.workers.get((cell[0] - dx, cell[1] - dy))  # the tile on the opposite side of d
            if w is not None:
                counts[w.owner] += edges_of(w.tile, w.rot)[d]  # its edge facing direction d
        temples = [a + b for a, b in zip(temples, temple_points(counts), strict=True)]
    return [
        {"gold": v.gold, "temples": temples[i], "sun": v.sun, "water": WATER_TRACK[v.water],
         "total": v.gold + temples[i] + v.sun + WATER_TRACK[v.water]}
        for i, v in enumerate(state.villages)
    ]


def expected_winners(state: CacaoState) -> list[int]:
    """Most points; tie-break most fruit; still tied: shared win."""
    totals = [s["total"] for s in recompute_scores(state)]
    keys = [(t, v.fruit) for t, v in zip(totals, state.villages, strict=True)]
    return [i for i, k in enumerate(keys) if k == max(keys)]


# -- seeded random play --------------------------------------------------------------------------------
def choose(rng: random.Random, legal: Sequence[Any]) -> Any:
    """A random legal action, the kind (place/rebuild/discard/fill/use/auto) drawn first so rare kinds
    such as rebuilds are tried often."""
    kinds = sorted({a[0] for a in legal})
    kind = rng.choice(kinds)
    return rng.choice([a for a in legal if a[0] == kind])


class Ledger:
    """Tiles that left view during play: worker tiles buried by rebuilds and discarded tiles, per player."""

    def __init__(self, players: int) -> None:
        self.buried = [Counter[str]() for _ in range(players)]
        self.discarded = [Counter[str]() for _ in range(players)]

    def note(self, state: CacaoState, action: Any) -> None:
        """Call before applying `action` to `state`."""
        if action[0] == "rebuild":
            self.buried[state.turn][state.workers[(action.x, action.y)].tile] += 1
        elif action[0] == "discard":
            self.discarded[state.turn][action.tile] += 1


def play_random(
    state: CacaoState,
    rng: random.Random,
    after: Callable[[CacaoState, Any], None] | None = None,
    ledger: Ledger | None = None,
) -> CacaoState:
    """Play to the end with `choose`; `after(state, action)` runs after every action."""
    while not state.is_over:
        action = choose(rng, state.legal_actions())
        if ledger is not None:
            ledger.note(state, action)
        state.apply(action)
        if after is not None:
            after(state, action)
    return state


def random_game(players: int, seed: int) -> CacaoState:
    """A finished game: engine seed and choice seed both `seed`."""
    s = boardlab.new_game("cacao", players=players, seed=seed)
    assert isinstance(s, CacaoState)
    return play_random(s, random.Random(seed))


def play_until(state: CacaoState, rng: random.Random, stop: Callable[[CacaoState], bool]) -> CacaoState:
    """Random play until `stop(state)` or the end."""
    while not state.is_over and not stop(state):
        state.apply(choose(rng, state.legal_actions()))
    return state


def board_json(state: CacaoState) -> dict[str, Any]:
    """The final board and villages, in a stable JSON form (for golden files)."""
    return {
        "jungle": [[x, y, j] for (x, y), j in sorted(state.jungle.items())],
        "workers": [[x, y, w.owner, w.tile, w.rot, w.layers] for (x, y), w in sorted(state.workers.items())],
        "villages": [v.to_json() for v in state.villages],
    }


def shifted(cells: Iterable[Cell], d: int) -> set[Cell]:
    dx, dy = STEP[d]
    return {(x + dx, y + dy) for x, y in cells}


class Invariants:
    """Everything that must hold after every action of any game (used by the property tests).

    Call `note(state, action)` before each action (tile ledger, who rebuilds) and `after(state)` after
    it. Facts about the board are re-verified whenever the board changed; tiles are never removed, so
    activated edges already verified stay valid and only new ones are checked (none may vanish)."""

    def __init__(self, players: int) -> None:
        self.ledger = Ledger(players)
        self.jungle: dict[Cell, str] = {}
        self.workers: dict[Cell, Worker] = {}
        self.spots: set[Cell] = set()
        self.activated: set[tuple[int, int, int, int]] = set()
        self.gold = [0] * players
        self.sun = [0] * players
        self.rebuilder = -1
        self.pile = 10**6
        self.display_at_turn_start: list[str] = []
        self.jungle_tiles = sorted(jungle_set(players).elements())
        self.worker_tiles = sorted(worker_set(players).elements())

    def note(self, s: CacaoState, action: Any) -> None:
        self.ledger.note(s, action)
        self.rebuilder = s.turn if action[0] == "rebuild" else -1

    def after(self, s: CacaoState) -> None:
        jungle, workers = s.jungle, s.workers
        if jungle != self.jungle or workers != self.workers or s.spots != self.spots:
            self.check_board(s)
            self.jungle, self.workers, self.spots = dict(jungle), dict(workers), set(s.spots)
        for v in s.villages:
            assert 0 <= v.fruit <= STORAGE and 0 <= v.sun <= SUN_MAX and 0 <= v.water < len(WATER_TRACK)
        gold = [v.gold for v in s.villages]
        assert all(a <= b for a, b in zip(self.gold, gold, strict=True)), "gold went down"
        self.gold = gold
        # sun tokens are only spent on rebuilding: exactly one, paid by the rebuilding player
        sun = [v.sun for v in s.villages]
        for p in range(s.num_players):
            if p == self.rebuilder:
                assert sun[p] == self.sun[p] - 1, f"player {p} rebuilt without paying one sun token"
            else:
                assert sun[p] >= self.sun[p], f"player {p} lost a sun token without rebuilding"
        self.sun = sun
        # the jungle pile only shrinks; the display is only refilled at the end of a turn
        assert len(s.pile) <= self.pile
        self.pile = len(s.pile)
        if s.phase == "place" or s.is_over:
            self.display_at_turn_start = list(s.display)
        else:
            assert not Counter(s.display) - Counter(self.display_at_turn_start), "display refilled mid-turn"
        assert self.activated <= s.activated, "an activation was forgotten"
        for x, y, layer, d in s.activated - self.activated:
            w = workers.get((x, y))
            assert w is not None and 1 <= layer <= w.layers, f"activated edge {(x, y, layer, d)} of no tile"
            dx, dy = STEP[d]
            assert (x + dx, y + dy) in jungle, f"activated edge {(x, y, layer, d)} faces no jungle tile"
        self.activated = set(s.activated)
        self.check_tiles(s)
        self.check_turn(s)

    @staticmethod
    def check_board(s: CacaoState) -> None:
        """Checkerboard: worker tiles on odd cells, jungle tiles on even ones, never two of a kind side by
        side, every worker tile next to a jungle tile; the legal cells are the empty odd cells next to one."""
        jcells, wcells = set(s.jungle), set(s.workers)
        assert all((x + y) % 2 == 1 for x, y in wcells), "a worker tile on a jungle cell"
        assert all((x + y) % 2 == 0 for x, y in jcells), "a jungle tile on a worker cell"
        for d in (E, S):
            assert not wcells & shifted(wcells, d), "worker tiles side by side"
            assert not jcells & shifted(jcells, d), "jungle tiles side by side"
        near_jungle = set().union(*(shifted(jcells, d) for d in STEP))
        assert wcells <= near_jungle, "a worker tile touches no jungle tile"
        assert s.spots == near_jungle - wcells - jcells

    def check_tiles(self, s: CacaoState) -> None:
        """Conservation: jungle tiles on the board + display + pile, and each player's worker tiles on the
        board (rebuilt ones hide one) + hand + deck + discards, are the sets for the player count."""
        assert sorted([*s.jungle.values(), *s.display, *s.pile]) == self.jungle_tiles
        assert len(s.display) <= DISPLAY
        ledger = self.ledger
        for p in range(s.num_players):
            have = [w.tile for w in s.workers.values() if w.owner == p]
            have += [*ledger.buried[p].elements(), *s.hands[p], *s.decks[p], *ledger.discarded[p].elements()]
            assert sorted(have) == self.worker_tiles, f"player {p}'s worker tiles are not conserved"
            layers = sum(w.layers - 1 for w in s.workers.values() if w.owner == p)
            assert sum(ledger.buried[p].values()) == layers

    @staticmethod
    def check_turn(s: CacaoState) -> None:
        """Turn structure: a legal action while running; at the start of a turn a full display (if the pile
        allows), hands of 3 while decks last, one tile per player per round, no space left unfilled while
        jungle tiles remain, every worker edge facing a jungle tile activated."""
        n = s.num_players
        if s.is_over:
            assert s.current_player is None and s.legal_actions() == []
            return
        assert s.legal_actions(), "no legal action in a running game"
        assert s.current_player in range(n)
        if s.phase != "place":
            return
        assert not s.pending and not s.queue and not s.to_fill
        assert s.current_player == s.turn
        assert len(s.display) == DISPLAY or not s.pile
        left = [len(s.hands[p]) + len(s.decks[p]) for p in range(n)]
        for p in range(n):
            assert len(s.hands[p]) == HAND or not s.decks[p]
            assert left[p] == left[s.turn] - (1 if p < s.turn else 0)
        assert s.hands[s.turn]
        wcells, jungle = set(s.workers), s.jungle
        if s.pile or s.display:
            touching = Counter(c for d in STEP for c in shifted(wcells, d) if c not in jungle)
            assert max(touching.values(), default=0) < 2, "a space should have been filled"
        for (x, y), w in s.workers.items():
            for d, (dx, dy) in STEP.items():
                if (x + dx, y + dy) in jungle:
                    for layer in range(1, w.layers + 1):
                        assert (x, y, layer, d) in s.activated, f"edge {(x, y, layer, d)} never activated"


def all_lists_of_strings(obj: Any) -> list[tuple[str, list[Any]]]:
    """Every non-empty list holding a string inside a JSON value, with its path (e.g. ".display")."""
    out: list[tuple[str, list[Any]]] = []
    stack: list[tuple[str, Any]] = [("", obj)]
    while stack:
        path, o = stack.pop()
        if isinstance(o, dict):
            stack.extend((f"{path}.{k}", v) for k, v in o.items() if isinstance(v, (dict, list)))
        elif isinstance(o, list):
            if any(isinstance(x, str) for x in o):
                out.append((path, o))
            stack.extend((f"{path}[{i}]", v) for i, v in enumerate(o) if isinstance(v, (dict, list)))
    return out
