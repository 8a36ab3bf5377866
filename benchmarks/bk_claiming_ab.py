"""Block and Key: `claiming` (search's claim detection) now against the version before it was reworked, in one
process, on mid-game turn positions of seeded random games; the answers must be equal. With --mcts, MCTS
iterations per CPU second with the old `claiming` and `search_moves` against the new ones.

Why this shape: the machine is shared and noisy, so only same-process alternating rounds count. The old
code is kept here verbatim (from commit 673737d), run on the same states; CPU time, best and median round.

    python benchmarks/bk_claiming_ab.py                 # claiming alone
    python benchmarks/bk_claiming_ab.py --mcts 3        # also MCTS iterations per CPU second, old vs new
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from functools import lru_cache
from typing import Any

from boardlab.core import new_game, observe
from boardlab.games.block_and_key import geometry as G
from boardlab.games.block_and_key import rules as R
from boardlab.games.block_and_key.actions import Dig, Place
from boardlab.games.block_and_key.rules import BlockAndKeyState, gidx

NEW_CLAIMING = BlockAndKeyState.claiming
NEW_SEARCH_MOVES = BlockAndKeyState.search_moves


# -- the old code (673737d) ----------------------------------------------------------------------------------
@lru_cache(maxsize=16)
def _old_sight_lines(width: int, depth: int) -> dict[int, tuple[tuple[int, int, int, int], ...]]:
    lines: dict[int, list[tuple[int, int, int, int]]] = {}
    for g, row in enumerate(G.projections(width, depth)):
        for v, (i, key, bit) in enumerate(row):
            if bit:
                lines.setdefault(bit.bit_length() - 1, []).append((v, i, key, 1 << g))
    return {pos: tuple(cells) for pos, cells in lines.items()}


_OLD_CUBES: dict[Place, int] = {}


def _old_cube_mask(state: BlockAndKeyState, p: Place) -> int:
    m = _OLD_CUBES.get(p)
    if m is None:
        ori = state.orientation(R._block_index(state.comp)[p.block], p.orient)
        m = _OLD_CUBES[p] = sum(1 << gidx(p.x + dx, p.y + dy, p.z + dz) for dx, dy, dz in ori.cubes)
    return m


def _old_claim_cells(self: BlockAndKeyState, seat: int) -> list[int]:
    """Per colour code, the view cells (on the combined planes) where a newly shown cube of that colour
    could complete one of `seat`'s keys: every other cell of the pattern already shows its colour there.
    A placement that shows none of them cannot claim, so search tests most placements with one AND."""
    views = self.allowed_views(seat)
    every_view = len(views) == len(R.VIEWS)
    planes = self.planes
    hot = [0] * len(planes)
    for k in self.hands[seat]:
        rots, colours = self._fixed.keys[k]
        for origins, every, cells, by_colour in rots:
            base = every if every_view else sum(origins[v] for v in views)
            for colour in colours:
                m = base
                for c, sh in cells:
                    if c != colour:
                        m &= planes[c] >> sh
                        if not m:
                            break
                if m:
                    for sh in by_colour[colour]:
                        hot[colour] |= m << sh
    return hot


def old_claiming(self: BlockAndKeyState, seat: int, places: list[Place]) -> list[Place]:
    hot = _old_claim_cells(self, seat)
    if not any(hot):
        return []
    sight = _old_sight_lines(self.W, self.D)
    vdep = self.vdep
    reach = [0] * len(hot)
    for colour, m in enumerate(hot):
        while m:
            low = m & -m
            for v, i, key, bit in sight[low.bit_length() - 1]:
                if key > vdep[v][i]:
                    reach[colour] |= bit
            m ^= low
    index, colour = R._block_index(self.comp), self._fixed.colour
    colour_of = {bid: colour[index[bid]] for bid in {p.block for p in places}}
    return [p for p in places if reach[colour_of[p.block]] & _old_cube_mask(self, p)
            and self.would_claim(seat, p)]  # (its hot early-outs are implied by reach)


def old_search_moves(self: BlockAndKeyState) -> list[Any]:
    legal = self.legal_actions()
    if self.phase != "turn" or len(legal) <= R.SEARCH_PLACEMENTS:
        return legal
    seat = self.actor
    assert seat is not None
    digs = [a for a in legal if isinstance(a, Dig)]
    places = [a for a in legal if isinstance(a, Place)]
    claim = self.claiming(seat, places)
    if claim:
        return claim
    if len(self.supply[seat]) >= 5:
        digs = digs[:1]
    want = self.comp.enigmas[self.enigma[seat]] + 1
    own = self.view_of[seat]
    dep = self.vdep[own]
    proj = G.projections(self.W, self.D)
    scored = []
    for i, a in enumerate(places):
        b = R._block_index(self.comp)[a.block]
        same = self.comp.block_colour(b) + 1 == want
        cells = set()
        for dx, dy, dz in self.orientation(b, a.orient).cubes:
            j, key, _ = proj[gidx(a.x + dx, a.y + dy, a.z + dz)][own]
            if key > dep[j]:
                cells.add(j)
        gain = sum(1 if same else -(self.vcol[own][j] == want) for j in cells)
        scored.append((-gain, i, a))
    scored.sort()
    return digs + [a for _, _, a in scored[:R.SEARCH_PLACEMENTS]]


# -- positions ---------------------------------------------------------------------------------------------
def positions(games: int, per_game: int) -> list[tuple[BlockAndKeyState, int, list[Place]]]:
    """Turn positions picked at random turns of seeded random games, 1-4 players, both key-view options."""
    out = []
    for g in range(games):
        views = "any" if g % 3 else "own-side"
        s: Any = new_game("block_and_key", 1 + g % 4, seed=1000 + g, key_views=views)
        rng = random.Random(g)
        picks = set(rng.sample(range(2, 40), per_game))
        turns = 0
        while not s.is_over:
            legal = s.legal_actions()
            if s.phase == "turn":
                turns += 1
                if turns in picks:
                    out.append((s.clone(), s.actor, [a for a in legal if isinstance(a, Place)]))
            s.apply(rng.choice(legal))
    return out


def time_claiming(fn: Any, states: list[tuple[BlockAndKeyState, int, list[Place]]], reps: int) -> float:
    t = time.process_time()
    for _ in range(reps):
        for s, seat, places in states:
            fn(s, seat, places)
    return (time.process_time() - t) / (reps * len(states))


def time_mcts(states: list[tuple[BlockAndKeyState, int, list[Place]]], iterations: int) -> tuple[float, list[Any]]:
    """Iterations per CPU second of a seeded MCTS bot deciding each position, and its choices."""
    from boardlab.bots.mcts import MctsBot

    t = time.process_time()
    chosen = [MctsBot(seed=2, iterations=iterations).choose(observe(s, s.current_player)) for s, _, _ in states]
    return iterations * len(states) / (time.process_time() - t), chosen


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=16)
    ap.add_argument("--per-game", type=int, default=4)
    ap.add_argument("--rounds", type=int, default=7)
    ap.add_argument("--reps", type=int, default=3)
    ap.add_argument("--mcts", type=int, default=0, help="rounds of the MCTS comparison (0: none)")
    ap.add_argument("--iterations", type=int, default=60)
    args = ap.parse_args()
    states = positions(args.games, args.per_game)
    claims = 0
    for s, seat, places in states:
        new = NEW_CLAIMING(s, seat, places)
        assert new == old_claiming(s, seat, places) == [p for p in places if s.would_claim(seat, p)]
        assert NEW_SEARCH_MOVES(s) == old_search_moves(s)
        claims += len(new)
    n = sum(len(p) for _, _, p in states)
    print(f"{len(states)} positions, {n / len(states):.0f} placements each, {claims / max(n, 1):.0%} claim: "
          "old == new == would_claim, search_moves old == new")
    ratios = []
    for _ in range(args.rounds):
        t_old = time_claiming(old_claiming, states, args.reps)
        t_new = time_claiming(NEW_CLAIMING, states, args.reps)
        ratios.append(t_old / t_new)
        print(f"claiming  old {t_old * 1e6:7.0f} us  new {t_new * 1e6:7.0f} us  ratio {t_old / t_new:5.2f}")
    print(f"claiming ratio: median {statistics.median(ratios):.2f}, range {min(ratios):.2f}-{max(ratios):.2f}")
    if args.mcts:
        sub = states[:: max(1, len(states) // 8)]
        mr = []
        for _ in range(args.mcts):
            BlockAndKeyState.claiming = old_claiming  # type: ignore[method-assign]
            BlockAndKeyState.search_moves = old_search_moves  # type: ignore[method-assign]
            old, old_chosen = time_mcts(sub, args.iterations)
            BlockAndKeyState.claiming = NEW_CLAIMING  # type: ignore[method-assign]
            BlockAndKeyState.search_moves = NEW_SEARCH_MOVES  # type: ignore[method-assign]
            new, new_chosen = time_mcts(sub, args.iterations)
            assert old_chosen == new_chosen, "the same search must choose the same moves"
            mr.append(new / old)
            print(f"MCTS  old {old:6.0f} it/CPU-s  new {new:6.0f} it/CPU-s  ratio {new / old:5.2f}")
        print(f"MCTS ratio: median {statistics.median(mr):.2f}, range {min(mr):.2f}-{max(mr):.2f}")


if __name__ == "__main__":
    main()
