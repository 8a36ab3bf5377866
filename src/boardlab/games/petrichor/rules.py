"""Petrichor rules: the seed rulebook translation (default) with the English notes as options, 1-4 players.

The game runs on a to-do stack of small steps (`self.todo`, the end is next), as Pocket Mars does. A step
either acts at once or asks one player a question; questions with one answer are answered automatically,
except the questions about a hand, asked whenever some hand the other seats cannot rule out would have two
answers (`_asks`: their presence must not tell the table about the hand). The to-do stack holds only public
facts (which player, which weather), so views and determinization never leak. Solo: the player is seat 0 and
the South Wind automaton is board index 1 (never a seat): its questions are answered by its card and a d6
(`_sw_choose`).

Round: action phase (`turn` -> `pay`/effect/`vote` -> `second` -> `next`; a pass queues `last` turns,
`limit` and `weather`) -> weather phase (`weather` -> `tie` -> `resolve` -> frost/sun/wind/rain steps) ->
`harvest` -> `cleanup` (or the end). Decisions the sources leave open: docs/rules/petrichor.md.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, ClassVar

from boardlab.core.action_table import FixedActionTable
from boardlab.core.errors import ConfigError
from boardlab.core.game import Game, Option, Score, State
from boardlab.core.rng import Rng
from boardlab.core.solo import AutomatonOpponent
from boardlab.core.step_machine import StepMachine

from . import actions as A
from .actions import CARD, DONE, END, PASS, SKIP, STEPS, Blow, CardAct, Cell, Die, PAction, Rain, Wind
from .components import WHEAT_FACE, Stage, components

FROST, SUN, WIND, RAIN = range(4)
SW = 1  # the solo automaton's board index
EFFECTS = ("frost", "sun", "wind", "rain")
HAND_STEPS = frozenset({"pay", "second", "limit"})
"""Questions whose number of answers depends on the asked player's hidden hand (see `_asks`)."""
_CELLS: dict[tuple[str, int, int], tuple[Cell, ...]] = {}
"""`PetrichorState.cells`: (kind, columns, cells) -> every cell's action of that kind (a few kinds, a few boards)."""
Step = tuple[Any, ...]


class PetrichorState(StepMachine, AutomatonOpponent, State):
    """A Petrichor position. Board arrays are indexed by board player (solo: 0 you, 1 the South Wind)."""

    # -- setup ------------------------------------------------------------------------------------------
    def _setup(self) -> None:
        C = self.C = components(self.options.get("components") or None)
        n = self.num_players
        self.solo = n == 1
        nb = self.nb = 2 if self.solo else n
        k = C.const
        setup = C.setups[n]
        self.rows, self.cols = setup.rows, setup.cols
        cells = self.rows * self.cols
        self.rounds = k["long_rounds"] if self.options.get("length") == "long" else k["short_rounds"]
        self.rng = Rng(self.seed)
        order = list(range(len(C.tiles)))
        self.rng.shuffle(order)
        self.tile = order[:cells]
        self.field = [[0] * nb for _ in range(cells)]
        self.growth = [0] * cells
        self.cloud: list[list[int] | None] = [None] * cells
        self.dark = [False] * cells
        self.supply = [k["drops_per_player"]] * nb
        self.votes = [[0] * nb for _ in range(4)]
        self.vp = [0] * nb
        self.vw = [0] * nb
        self.wheat = [0] * nb
        self.hands = [[0] * 4 for _ in range(n)]
        self.discard = [0] * 4
        self.deck = list(C.deck)
        self.deck_counts = tuple(C.deck.count(w) for w in range(4))
        self.rng.shuffle(self.deck)
        self.dice = [self._roll() for _ in range(k["harvest_dice"])]
        self.round = 1
        self.start = 0
        self.passer: int | None = None
        self.resolving: list[int] = []
        self.sw_deck = list(range(len(C.south_wind))) if self.solo else []
        self.rng.shuffle(self.sw_deck)
        self.sw_card: int | None = None
        self.sw_die: int | None = None
        self.chance = 0  # draws, rolls and shuffles so far: the undo barrier
        self.events: list[list[Any]] = []
        self.todo: list[Step] = []
        self.options_: list[PAction] = []
        self.decider: int | None = None
        self._deal()
        steps: list[Step] = [("cloud", q) for q in reversed(self.order(self.start))]
        steps += self._turn_steps(self.start)
        self.todo.extend(reversed(steps))
        self._run()

    def _roll(self) -> int:
        return self.rng.choice(self.C.die_faces)

    def order(self, first: int) -> list[int]:
        """Board players clockwise from `first`."""
        return [(first + i) % self.nb for i in range(self.nb)]

    def _turn_steps(self, p: int) -> list[Step]:
        return [("auto",), ("turn", 0)] if self.solo else [("turn", p)]

    def _deal(self) -> None:
        """Every player gets the round's cards; an empty deck takes the shuffled discard pile first."""
        per = self.C.setups[self.num_players].cards
        self.chance += 1
        for q in range(self.start, self.start + self.num_players):
            q %= self.num_players
            for _ in range(per):
                if not self.deck:
                    self._reshuffle()
                    if not self.deck:
                        return  # every card is in a hand (only with a user's small deck)
                self.hands[q][self.deck.pop()] += 1

    def _reshuffle(self) -> None:
        pile = [w for w in range(4) for _ in range(self.discard[w])]
        self.discard = [0] * 4
        self.rng.shuffle(pile)
        self.deck = pile + self.deck
        self.events.append(["reshuffle"])

    # -- geometry and small facts ------------------------------------------------------------------------
    def rc(self, cell: int) -> tuple[int, int]:
        return divmod(cell, self.cols)

    def cells(self, kind: str) -> tuple[Cell, ...]:
        """`Cell(kind, *rc(i))` for every cell i, built once per kind and board shape: the cloud, frost, sun,
        reclaim and shine questions list them at every step of a search (equal values, so the same actions)."""
        key = (kind, self.cols, len(self.cloud))
        row = _CELLS.get(key)
        if row is None:
            row = _CELLS[key] = tuple(A.Cell(kind, *self.rc(i)) for i in range(len(self.cloud)))
        return row

    def at(self, r: int, c: int) -> int:
        return r * self.cols + c

    def neighbour(self, cell: int, d: int) -> int | None:
        r, c = self.rc(cell)
        dr, dc = STEPS[d]
        r, c = r + dr, c + dc
        return self.at(r, c) if 0 <= r < self.rows and 0 <= c < self.cols else None

    def crop(self, cell: int) -> str:
        return self.C.tiles[self.tile[cell]].crop

    def threshold(self, cell: int) -> int:
        return self.C.tiles[self.tile[cell]].threshold

    def markers_left(self, q: int) -> int:
        return self.C.const["markers_per_player"] - sum(self.votes[w][q] for w in range(4))

    def on_fields(self, q: int) -> int:
        return sum(f[q] for f in self.field)

    def in_clouds(self, q: int) -> int:
        return sum(cl[q] for cl in self.cloud if cl is not None)

    def own_clouds(self, q: int) -> list[int]:
        return [i for i, cl in enumerate(self.cloud) if cl is not None and cl[q] > 0]

    def final_round(self) -> bool:
        return self.round >= self.rounds

    # -- clouds, drops, sprouting: checked at every change ------------------------------------------------
    def _settle(self, cell: int) -> None:
        """Dark at 4 drops, burst at 8 (every drop falls), removed when empty."""
        cl = self.cloud[cell]
        if cl is None:
            return
        total = sum(cl)
        if total == 0:
            self.cloud[cell], self.dark[cell] = None, False
            return
        k = self.C.const
        if total >= k["dark_at"] and not self.dark[cell]:
            self.dark[cell] = True
            self.events.append(["dark", cell])
        if self.dark[cell] and total >= k["burst_at"]:
            self.events.append(["burst", cell, total])
            self._empty(cell)

    def _empty(self, cell: int) -> None:
        cl = self.cloud[cell]
        assert cl is not None
        f = self.field[cell]
        for q, x in enumerate(cl):
            f[q] += x
        self.cloud[cell], self.dark[cell] = None, False
        self._sprout(cell)

    def _sprout(self, cell: int) -> None:
        if self.growth[cell] == 0 and sum(self.field[cell]) >= self.threshold(cell):
            self.growth[cell] = 1
            self.events.append(["sprout", cell])

    def _add(self, cell: int, q: int, k: int) -> None:
        """k own drops from the supply into the cloud on `cell` (a new white cloud if there is none)."""
        if self.cloud[cell] is None:
            self.cloud[cell] = [0] * self.nb
        self.cloud[cell][q] += k  # type: ignore[index]
        self.supply[q] -= k

    # -- core protocol: the step machine (boardlab.core.step_machine) ----------------------------------
    def _step_options(self, step: Step) -> list[PAction] | None:
        return STEP[step[0]](self, step)

    def _resolve(self, step: Step, action: PAction) -> None:
        RESOLVE[step[0]](self, step, action)

    def _asks(self, step: Step, opts: list[PAction]) -> bool:
        """Two or more answers make a question. At a table of two or more, a question about the hand ("pay",
        "second", "limit") is asked whenever some hand the others cannot rule out would give it two answers,
        even if this hand gives one: its presence would otherwise tell the table about the cards (#33). The
        South Wind is never asked: its card and a d6 answer (`_sw_choose`)."""
        if self.solo:
            return len(opts) > 1 and step[1] != SW
        if step[0] in HAND_STEPS:
            return self._hand_question_public(step)
        return len(opts) > 1

    def unseen_counts(self) -> list[int]:
        """Cards of each weather that nobody has seen face up this deal: the deck plus every hand (all cards
        minus the discard pile), the pool any hidden hand is drawn from, as everyone can count it."""
        return [n - d for n, d in zip(self.deck_counts, self.discard, strict=True)]

    def _hand_question_public(self, step: Step) -> bool:
        """Could the hand question `step` have two answers for some hand of its size drawn from the unseen cards?
        Depends only on public facts (hand size, discard pile, who passed), so every seat may know it."""
        size = sum(self.hands[step[1]])
        if size >= 4 and step[0] == "second":  # any four, besides "end"
            return True
        if size < 2:
            return False
        pool = self.unseen_counts()
        if step[0] == "second":  # a pair, besides "end"
            return max(pool) >= 2
        return sum(x > 0 for x in pool) >= 2  # "pay" / "limit": two weathers in the hand

    def _auto_answer(self, step: Step, opts: list[PAction]) -> PAction:
        return opts[0] if len(opts) == 1 else self._sw_choose(step, opts)

    def _refresh(self) -> None:
        """Recompute the pending question's answers (after determinization changed hidden cards)."""
        if self.todo and self.decider is not None:
            self.options_ = STEP[self.todo[-1][0]](self, self.todo[-1]) or []
        self._legal = None

    # -- setup clouds ----------------------------------------------------------------------------------
    def _step_cloud(self, step: Step) -> list[PAction]:
        cells = self.cells("cloud")
        return [cells[i] for i, cl in enumerate(self.cloud) if cl is None]

    def _res_cloud(self, step: Step, a: Cell) -> None:
        cell = self.at(a.r, a.c)
        self._add(cell, step[1], 1)

    # -- the action phase ----------------------------------------------------------------------------
    def _step_turn(self, step: Step) -> list[PAction]:
        h = self.hands[step[1]]
        opts: list[PAction] = [CARD["play"][w] for w in range(4) if h[w]]
        if sum(h) >= 2:
            opts += CARD["play2"]
        return [*opts, PASS]

    def _pay(self, p: int, w: int, k: int = 1) -> None:
        self.hands[p][w] -= k
        self.discard[w] += k

    def _play_steps(self, p: int, w: int, cards: int) -> list[Step]:
        """Effect, then vote; cards > 0: that many `pay` questions first."""
        steps: list[Step] = [("pay", p, cards)] if cards else []
        return [*steps, self._effect_step(p, w), ("vote", p, w)]

    def _effect_step(self, p: int, w: int) -> Step:
        return ("rain", p, 0, 0) if w == RAIN else (EFFECTS[w], p)

    def _res_turn(self, step: Step, a: PAction) -> None:
        p = step[1]
        if a == PASS:
            self._pass(p)
            return
        assert isinstance(a, CardAct)
        if a.kind == "play":
            self._pay(p, a.weather)
        steps = self._play_steps(p, a.weather, 2 if a.kind == "play2" else 0)
        steps += [("second", p), ("next", p)]
        self.todo.extend(reversed(steps))

    def _step_pay(self, step: Step) -> list[PAction]:
        h = self.hands[step[1]]
        return [CARD["pay"][w] for w in range(4) if h[w]]

    def _res_pay(self, step: Step, a: CardAct) -> None:
        self._pay(step[1], a.weather)
        if step[2] > 1:
            self.todo.append(("pay", step[1], step[2] - 1))

    def _step_second(self, step: Step) -> list[PAction]:
        """The optional second action: two identical cards, or any four as any one (nobody passed yet), or
        "end". With fewer than two cards there is none (public); otherwise "end" is offered even when the hand
        holds no pair, so that the question's presence tells nothing (`_asks`)."""
        h = self.hands[step[1]]
        if self.passer is not None or sum(h) < 2:
            return []
        opts: list[PAction] = [CARD["again"][w] for w in range(4) if h[w] >= 2]
        if sum(h) >= 4:
            opts += CARD["again4"]
        return [*opts, END]

    def _res_second(self, step: Step, a: PAction) -> None:
        if a == END:
            return
        assert isinstance(a, CardAct)
        p = step[1]
        if a.kind == "again":
            self._pay(p, a.weather, 2)
        self.todo.extend(reversed(self._play_steps(p, a.weather, 4 if a.kind == "again4" else 0)))

    def _step_next(self, step: Step) -> None:
        self.todo.pop()
        self.todo.extend(reversed(self._turn_steps((step[1] + 1) % self.num_players)))

    def _pass(self, p: int) -> None:
        """Discard the hand, take the start-player marker (or hand it right); the others get one more turn."""
        for w in range(4):
            self._pay(p, w, self.hands[p][w])
        self.start = (p - 1) % self.nb if self.start == p else p
        self.passer = p
        others = [(p + i) % self.nb for i in range(1, self.nb)]
        steps: list[Step] = [("auto",) if self.solo else ("last", q) for q in others]
        steps += [("limit", q) for q in others if q < self.num_players]
        steps.append(("weather",))
        self.todo.extend(reversed(steps))
        self.events.append(["pass", p, self.start])

    def _step_last(self, step: Step) -> list[PAction]:
        """The one more turn after a pass: one card (seed), or any one action (option final_turn=full)."""
        h = self.hands[step[1]]
        opts: list[PAction] = [CARD["play"][w] for w in range(4) if h[w]]
        if self.options.get("final_turn") == "full" and sum(h) >= 2:
            opts += CARD["play2"]
        return [*opts, PASS]

    def _res_last(self, step: Step, a: PAction) -> None:
        if a == PASS:
            return
        assert isinstance(a, CardAct)
        p = step[1]
        if a.kind == "play":
            self._pay(p, a.weather)
        self.todo.extend(reversed(self._play_steps(p, a.weather, 2 if a.kind == "play2" else 0)))

    def _step_limit(self, step: Step) -> list[PAction]:
        h = self.hands[step[1]]
        if sum(h) <= self.C.const["hand_limit"]:
            return []
        return [CARD["discard"][w] for w in range(4) if h[w]]

    def _res_limit(self, step: Step, a: CardAct) -> None:
        self._pay(step[1], a.weather)
        self.todo.append(step)

    # -- card actions ----------------------------------------------------------------------------------
    def may_skip_reclaim(self) -> bool:
        """Is taking drops back from the fields a choice (seed: 可以, option reclaim=choose) rather than done
        whenever the supply is short (option reclaim=always)?"""
        return self.options.get("reclaim", "choose") == "choose"

    def _step_frost(self, step: Step) -> list[PAction]:
        """A new white cloud with one own drop on a cloudless tile; empty supply: the player may take one of
        their drops back from a field for it (`skip`: no cloud, the card only votes)."""
        p = step[1]
        if sum(cl is not None for cl in self.cloud) >= self.C.const["clouds"]:
            return []
        if not self.supply[p] and not self.on_fields(p):
            return []
        cells = self.cells("frost")
        opts: list[PAction] = [cells[i] for i, cl in enumerate(self.cloud) if cl is None]
        return [*opts, SKIP] if opts and not self.supply[p] and self.may_skip_reclaim() else opts

    def _res_frost(self, step: Step, a: PAction) -> None:
        if a == SKIP:
            return
        assert isinstance(a, Cell)
        p, cell = step[1], self.at(a.r, a.c)
        if self.supply[p]:
            self._add(cell, p, 1)
        else:
            self.todo.append(("reclaim", p, cell, 1, 1, False, False))

    def _step_sun(self, step: Step) -> list[PAction]:
        """Exactly two own drops into a cloud holding yours; short supply: the player may take the rest back
        from the fields (`skip`: the card only votes)."""
        p = step[1]
        if self.supply[p] + self.on_fields(p) < 2:
            return []
        cells = self.cells("sun")
        opts: list[PAction] = [cells[i] for i in self.own_clouds(p)]
        return [*opts, SKIP] if opts and self.supply[p] < 2 and self.may_skip_reclaim() else opts

    def _res_sun(self, step: Step, a: PAction) -> None:
        if a == SKIP:
            return
        assert isinstance(a, Cell)
        p, cell = step[1], self.at(a.r, a.c)
        if self.supply[p] < 2:
            self.todo.append(("reclaim", p, cell, 2 - self.supply[p], 2, False, False))
        else:
            self._add(cell, p, 2)
            self._settle(cell)

    def _step_reclaim(self, step: Step) -> list[PAction]:
        """("reclaim", player, cloud cell, drops still to take back, drops the cloud gets, may stop, Sun weather):
        one of the player's own drops from a field (docs: D6, D21); `skip` stops early where the player may."""
        p = step[1]
        cells = self.cells("reclaim")
        opts: list[PAction] = [cells[i] for i, f in enumerate(self.field) if f[p]]
        return [*opts, SKIP] if opts and step[5] else opts

    def _res_reclaim(self, step: Step, a: PAction) -> None:
        """One own drop back from a field to the supply; after the last one (or `skip`), all the drops the
        action needs go into the cloud at once (so no half-filled cloud is ever seen)."""
        _, p, cell, k, add, stop, shine = step
        if a != SKIP:
            assert isinstance(a, Cell)
            self.field[self.at(a.r, a.c)][p] -= 1
            self.supply[p] += 1
            if k > 1 and self.on_fields(p):
                self.todo.append(("reclaim", p, cell, k - 1, add, stop, shine))
                return
        self._fill(p, cell, min(add, self.supply[p]), shine)

    def _fill(self, p: int, cell: int, k: int, shine: bool) -> None:
        """k own drops from the supply into the cloud on `cell`; the Sun weather logs how many."""
        if shine:
            self.events.append(["shine", p, cell, k])
        self._add(cell, p, k)
        self._settle(cell)

    def _step_wind(self, step: Step) -> list[PAction]:
        """Move a cloud holding your drop one tile orthogonally (clouds meeting merge)."""
        opts: list[PAction] = []
        for i in self.own_clouds(step[1]):
            r, c = self.rc(i)
            opts += [A.Wind("wind", r, c, d) for d in range(4) if self.neighbour(i, d) is not None]
        return opts

    def _res_wind(self, step: Step, a: Wind) -> None:
        self._move_cloud(self.at(a.r, a.c), a.d)

    def _move_cloud(self, cell: int, d: int) -> None:
        to = self.neighbour(cell, d)
        assert to is not None
        cl, dark = self.cloud[cell], self.dark[cell]
        assert cl is not None
        self.cloud[cell], self.dark[cell] = None, False
        there = self.cloud[to]
        if there is None:
            self.cloud[to], self.dark[to] = cl, dark
        else:
            self.cloud[to] = [x + y for x, y in zip(there, cl, strict=True)]
            self.dark[to] = self.dark[to] or dark
            self.events.append(["merge", cell, to])
        self._settle(to)

    def _step_rain(self, step: Step) -> list[PAction]:
        """Up to two clouds holding your drop each let one drop (any colour) fall."""
        _, p, used, count = step
        if count >= 2:
            return []
        opts: list[PAction] = []
        for i in self.own_clouds(p):
            if not used >> i & 1:
                r, c = self.rc(i)
                cl = self.cloud[i]
                assert cl is not None
                opts += [A.Rain("rain", r, c, q) for q in range(self.nb) if cl[q]]
        if opts and count:
            opts.append(DONE)
        return opts

    def _res_rain(self, step: Step, a: PAction) -> None:
        if a == DONE:
            return
        assert isinstance(a, Rain)
        _, p, used, count = step
        cell = self.at(a.r, a.c)
        cl = self.cloud[cell]
        assert cl is not None
        cl[a.q] -= 1
        self.field[cell][a.q] += 1
        self._settle(cell)
        self._sprout(cell)
        self.todo.append(("rain", p, used | 1 << cell, count + 1))

    def _step_vote(self, step: Step) -> list[PAction]:
        """The card's weather, the next one in the cycle, or advance a harvest die (not past wheat)."""
        _, p, w = step
        if self.solo and p == SW:  # the South Wind votes its card's weather (docs: solo)
            return [CARD["vote"][w]] if self.markers_left(p) else []
        opts: list[PAction] = []
        if self.markers_left(p):
            opts += [CARD["vote"][w], CARD["vote"][(w + 1) % 4]]
        return opts + [Die("die", i) for i, v in enumerate(self.dice) if v != WHEAT_FACE]

    def _res_vote(self, step: Step, a: PAction) -> None:
        p = step[1]
        if isinstance(a, Die):
            gain = self.C.const["die_wheat_vp" if self.dice[a.die] == 1 else "die_advance_vp"]
            self.vp[p] += gain
            self.dice[a.die] -= 1
            self.events.append(["die", p, a.die, gain])
        else:
            assert isinstance(a, CardAct)
            self.votes[a.weather][p] += 1

    # -- solo: the South Wind ----------------------------------------------------------------------------
    def _step_auto(self, step: Step) -> None:
        """The South Wind draws its card (reshuffled when empty) and carries out action and vote."""
        self.todo.pop()
        if not self.sw_deck:
            self.sw_deck = list(range(len(self.C.south_wind)))
            self.rng.shuffle(self.sw_deck)
        card = self.sw_deck.pop()
        self.chance += 1
        self.sw_card = card
        sw = self.C.south_wind[card]
        self.events.append(["sw", self.C.south_wind[card].id])
        self.todo.extend(reversed([self._effect_step(SW, sw.action), ("vote", SW, sw.vote)]))

    def _sw_choose(self, step: Step, opts: list[PAction]) -> PAction:
        """The South Wind's choices, rules a person could follow: each option gets a priority from the
        board (below); a d6 picks among the best, option number (d6 - 1) mod count in notation order.
        Frost / setup cloud: the cloudless tile where it has most drops. Sun action and Sun weather: its cloud
        holding most of its drops. Rain: its own drops first, over the tile where it has most; never stops
        early. Wind weather: one of your drops off the tile where you lead it by most. Anything else: d6."""
        kind = step[0]
        opts = [a for a in opts if a not in (DONE, SKIP)] or opts  # it never stops early nor declines a reclaim
        keys = [self._sw_key(kind, a) for a in opts]
        best = max(keys)
        opts = [a for a, k in zip(opts, keys, strict=True) if k == best]
        if len(opts) == 1:
            return opts[0]
        self.sw_die = 1 + self.rng.randbelow(6)
        self.chance += 1
        return opts[(self.sw_die - 1) % len(opts)]

    def _sw_key(self, kind: str, a: PAction) -> int:
        if not isinstance(a, (Cell, Rain, Blow)):
            return 0
        cell = self.at(a.r, a.c)
        if kind in ("cloud", "frost"):
            return self.field[cell][SW]
        if kind in ("sun", "shine"):
            cl = self.cloud[cell]
            return cl[SW] if cl is not None else 0
        if kind == "rain" and isinstance(a, Rain):
            return 100 * (a.q == SW) + self.field[cell][SW]
        if kind == "blow" and isinstance(a, Blow):
            f = self.field[cell]
            return 100 * (a.q != SW) + f[a.q] - f[SW] if a.q != SW else -100
        return 0

    # -- the weather phase ----------------------------------------------------------------------------
    def _step_weather(self, step: Step) -> None:
        """The two weathers with most votes resolve (every voted one in the last round); the start player
        breaks ties."""
        self.todo.pop()
        counts = [sum(v) for v in self.votes]
        cand = [w for w in range(4) if counts[w]]
        self.resolving = []
        self.todo.append(("resolve",))
        if self.final_round() or len(cand) <= 2:
            self.resolving = cand
            return
        second = sorted((counts[w] for w in cand), reverse=True)[1]
        self.resolving = [w for w in cand if counts[w] > second]
        tied = [w for w in cand if counts[w] == second]
        if len(self.resolving) + len(tied) == 2:
            self.resolving += tied
        else:
            self.todo.append(("tie", self.start, tuple(tied)))

    def _step_tie(self, step: Step) -> list[PAction]:
        if len(self.resolving) >= 2:
            return []
        return [CARD["choose"][w] for w in step[2] if w not in self.resolving]

    def _res_tie(self, step: Step, a: CardAct) -> None:
        self.resolving.append(a.weather)
        self.todo.append(step)

    def _step_resolve(self, step: Step) -> None:
        """Voting wins, markers home, then the weathers in the fixed order Frost, Sun, Wind, Rain."""
        self.todo.pop()
        res = sorted(self.resolving)
        self.resolving = res
        self.events.append(["weather", res])
        flowers = self.options.get("voting_wins") == "flowers"
        for w in res:
            v = self.votes[w]
            top = max(v)
            tops = [q for q in range(self.nb) if v[q] == top]
            if flowers:
                if len(tops) == 1:
                    gains = {tops[0]: 2}
                    rest = [x for x in v if x < top]
                    if rest and max(rest) > 0 and rest.count(max(rest)) == 1:
                        gains[v.index(max(rest))] = 1
                else:
                    gains = {q: 1 for q in tops}
            else:
                gains = {tops[0]: 1} if len(tops) == 1 else {}
            for q, g in gains.items():
                self.vw[q] += g
                self.events.append(["vw", w, q, g])
            self.votes[w] = [0] * self.nb
        steps: list[Step] = []
        for w in res:
            if w == FROST:
                steps.append(("frostw",))
            elif w == SUN:
                steps += [("shine", q) for q in self.order(self.start)] + [("grow", SUN)]
            elif w == WIND:
                steps += [("blow", (self.start - 1 - i) % self.nb) for i in range(self.nb)]
            else:
                steps += [("rainw",), ("grow", RAIN)]
        steps.append(("harvest",))
        self.todo.extend(reversed(steps))

    def _step_frostw(self, step: Step) -> None:
        self.todo.pop()
        for i, cl in enumerate(self.cloud):
            if cl is not None and not self.dark[i]:
                self.dark[i] = True
                self.events.append(["dark", i])

    def _step_shine(self, step: Step) -> list[PAction]:
        """Sun weather: one cloud holding your drops gets as many more of yours (short supply: from the
        fields; nothing if you have neither)."""
        p = step[1]
        if not self.supply[p] and not self.on_fields(p):
            return []
        cells = self.cells("shine")
        return [cells[i] for i in self.own_clouds(p)]

    def _res_shine(self, step: Step, a: Cell) -> None:
        """As many more own drops as the player has there; a short supply may be topped up from the player's
        own drops on the fields (seed: 可以回收, one at a time, `skip` to stop; option reclaim=always: all)."""
        p, cell = step[1], self.at(a.r, a.c)
        cl = self.cloud[cell]
        assert cl is not None
        want = min(cl[p], self.supply[p] + self.on_fields(p))
        rest = want - min(want, self.supply[p])
        if rest:
            self.todo.append(("reclaim", p, cell, rest, want, self.may_skip_reclaim(), True))
        else:
            self._fill(p, cell, want, shine=True)

    def _step_grow(self, step: Step) -> None:
        """After Sun, sprouted coffee is grown; after Rain, sprouted rice."""
        self.todo.pop()
        for i in range(len(self.tile)):
            crop = self.C.crops[self.crop(i)]
            if self.growth[i] == 1 and crop.grows_on == step[1]:
                self.growth[i] = 2
                self.events.append(["grow", i])

    def _step_blow(self, step: Step) -> list[PAction]:
        """Wind weather: move one drop (any colour) on the fields to an orthogonally adjacent field."""
        opts: list[PAction] = []
        for i, f in enumerate(self.field):
            r, c = self.rc(i)
            dirs = [d for d in range(4) if self.neighbour(i, d) is not None]
            opts += [A.Blow("blow", r, c, q, d) for q in range(self.nb) if f[q] for d in dirs]
        return opts

    def _res_blow(self, step: Step, a: Blow) -> None:
        cell = self.at(a.r, a.c)
        to = self.neighbour(cell, a.d)
        assert to is not None
        self.field[cell][a.q] -= 1
        self.field[to][a.q] += 1
        self.events.append(["blow", step[1], a.q, cell, to])
        self._sprout(to)

    def _step_rainw(self, step: Step) -> None:
        """Rain weather: every dark cloud empties onto its field and is removed."""
        self.todo.pop()
        for i, cl in enumerate(self.cloud):
            if cl is not None and self.dark[i]:
                self.events.append(["rainw", i, sum(cl)])
                self._empty(i)

    # -- harvest, clean-up, end ----------------------------------------------------------------------------
    def tile_points(self, cell: int) -> tuple[list[int], int | None]:
        """What each board player scores on a sprouted or grown tile, and who takes a wheat token."""
        crop = self.C.crops[self.crop(cell)]
        stage: Stage = crop.grown if self.growth[cell] == 2 and crop.grown else crop.sprouted
        return stage_points(stage, self.field[cell])

    def _step_harvest(self, step: Step) -> None:
        self.todo.pop()
        harvest = self.final_round() or all(v == WHEAT_FACE for v in self.dice)
        if harvest:
            for i in range(len(self.tile)):
                if not self.growth[i]:
                    continue
                pts, token = self.tile_points(i)
                for q, x in enumerate(pts):
                    self.vp[q] += x
                if token is not None:
                    self.wheat[token] += 1
                self.events.append(["harvest", i, pts, token])
                for q, x in enumerate(self.field[i]):
                    self.supply[q] += x
                self.field[i] = [0] * self.nb
                self.growth[i] = 0
        if self.final_round():
            self.todo.clear()
            return
        self.todo.append(("cleanup", harvest))

    def _step_cleanup(self, step: Step) -> None:
        """Round marker, dice rerolled (all after a harvest, else those not on wheat), new cards."""
        self.todo.pop()
        self.round += 1
        self.passer = None
        self.resolving = []
        self.events.append(["round", self.round])
        self.dice = [self._roll() if step[1] or v != WHEAT_FACE else v for v in self.dice]
        self._deal()
        self.todo.extend(reversed(self._turn_steps(self.start)))

    # -- scoring ----------------------------------------------------------------------------------------
    def _score(self, q: int) -> Score:
        most = max(self.wheat)
        tied = self.wheat.count(most)
        bonus = self.C.const["wheat_majority_vp"] // tied if most and self.wheat[q] == most else 0
        parts = {"track": self.vp[q], "voting_wins": self.C.vw_value(self.vw[q]), "wheat": bonus}
        return Score(sum(parts.values()), parts, (self.vw[q], self.wheat[q]))

    def scores(self) -> list[Score]:
        return [self._score(q) for q in range(self.num_players)]

    def automaton_score(self) -> Score:
        """Solo only: the South Wind's score (it is not a seat)."""
        return self._score(SW)

    # -- copies ---------------------------------------------------------------------------------------
    def clone(self) -> PetrichorState:
        s = PetrichorState.__new__(PetrichorState)
        self._copy_base(s)
        s.C, s.solo, s.nb, s.rows, s.cols, s.rounds = self.C, self.solo, self.nb, self.rows, self.cols, self.rounds
        s.rng = self.rng.copy()
        s.tile = self.tile
        s.field = [f[:] for f in self.field]
        s.growth = self.growth[:]
        s.cloud = [None if cl is None else cl[:] for cl in self.cloud]
        s.dark = self.dark[:]
        s.supply, s.vp, s.vw, s.wheat = self.supply[:], self.vp[:], self.vw[:], self.wheat[:]
        s.votes = [v[:] for v in self.votes]
        s.hands = [h[:] for h in self.hands]
        s.discard, s.deck, s.dice = self.discard[:], self.deck[:], self.dice[:]
        s.deck_counts = self.deck_counts
        s.round, s.start, s.passer, s.resolving = self.round, self.start, self.passer, self.resolving[:]
        s.sw_deck, s.sw_card, s.sw_die, s.chance = self.sw_deck[:], self.sw_card, self.sw_die, self.chance
        s.events = self.events[:]
        s.todo = self.todo[:]
        s.options_ = self.options_[:]
        s.decider = self.decider
        return s

    def determinize(self, seat: int, rng: Rng) -> PetrichorState:
        """Resample what `seat` cannot see: the other hands (their sizes kept), the deck order, the South
        Wind's deck order and every future roll. Pools are sorted before shuffling, so the result depends
        only on the seat's information."""
        s = self.clone()
        others = [q for q in range(self.num_players) if q != seat]
        pool = sorted(self.deck + [w for q in others for w in range(4) for _ in range(self.hands[q][w])])
        rng.shuffle(pool)
        for q in others:
            k = sum(self.hands[q])
            s.hands[q] = [0] * 4
            for w in pool[:k]:
                s.hands[q][w] += 1
            pool = pool[k:]
        s.deck = pool
        sw = sorted(self.sw_deck)
        rng.shuffle(sw)
        s.sw_deck = sw
        s.rng = Rng(rng.next64())
        s._refresh()
        return s

    # -- views ----------------------------------------------------------------------------------------
    def _board_json(self) -> dict[str, Any]:
        cells = []
        for i in range(len(self.tile)):
            t = self.C.tiles[self.tile[i]]
            cl = self.cloud[i]
            cells.append({
                "cell": A.cell_text(*self.rc(i)), "tile": t.id, "crop": t.crop, "threshold": t.threshold,
                "growth": ("none", "sprouted", "grown")[self.growth[i]], "drops": self.field[i][:],
                "cloud": None if cl is None else {"drops": cl[:], "dark": self.dark[i]},
            })
        return {
            "rows": self.rows, "cols": self.cols, "cells": cells, "supply": self.supply[:],
            "votes": [v[:] for v in self.votes], "markers_left": [self.markers_left(q) for q in range(self.nb)],
            "vp": self.vp[:], "voting_wins": self.vw[:], "wheat": self.wheat[:], "dice": self.dice[:],
            "round": self.round, "rounds": self.rounds, "start_player": self.start, "passer": self.passer,
            "resolving": self.resolving[:], "discard": self.discard[:], "deck_count": len(self.deck),
        }

    def decision(self, seat: int | None, options: bool = True) -> dict[str, Any] | None:
        """The pending question in public terms (its options only for the seat that decides)."""
        if self.decider is None:
            return None
        step = self.todo[-1]
        out: dict[str, Any] = {"player": self.decider, "step": step[0]}
        if step[0] in ("vote", "pay", "reclaim"):
            out["arg"] = step[2] if step[0] != "reclaim" else A.cell_text(*self.rc(step[2]))
        if options and seat == self.decider:
            out["options"] = [str(a) for a in self.options_]
        return out

    def _view(self, seat: int | None, options: bool = True) -> dict[str, Any]:
        out: dict[str, Any] = {
            "game": "petrichor", "seat": seat, "players": self.num_players, "solo": self.solo,
            "current_player": self.current_player, "decision": self.decision(seat, options),
            **self._board_json(),
            "hand_counts": [sum(h) for h in self.hands],
            "hand": self.hands[seat][:] if seat is not None else None,
            "events": self.events[-40:], "components": self.C.source,
        }
        if self.solo:
            out["south_wind"] = {
                "deck_count": len(self.sw_deck),
                "card": None if self.sw_card is None else self.C.south_wind[self.sw_card].id,
                "die": self.sw_die, "score": self.automaton_score().to_json(),
            }
        return out

    def snapshot(self) -> dict[str, Any]:
        return {
            **self._board_json(), "rng": self.rng.saved_state(), "hands": [h[:] for h in self.hands],
            "deck": self.deck[:], "sw_deck": self.sw_deck[:], "sw_card": self.sw_card, "sw_die": self.sw_die,
            "chance": self.chance, "events": self.events[:], "todo": [list(s) for s in self.todo],
            "decider": self.decider,
        }


def stage_points(stage: Stage, drops: list[int]) -> tuple[list[int], int | None]:
    """Points per player for one crop stage given each player's drops on the tile. Rank ties: the tied
    players all take the lowest of the ranks they share (seed); players without drops score nothing."""
    pts = [0] * len(drops)
    contributors = [q for q, x in enumerate(drops) if x > 0]
    if not contributors:
        return pts, None
    if stage.per_drop is not None:
        return [stage.per_drop * x for x in drops], None
    if stage.contributors is not None:
        table = stage.contributors
        value = table[min(len(contributors), len(table)) - 1]
        return [value if x > 0 else 0 for x in drops], None
    assert stage.rank is not None
    table = stage.rank
    levels = sorted({drops[q] for q in contributors}, reverse=True)
    pos = 0
    token = None
    for level in levels:
        group = [q for q in contributors if drops[q] == level]
        last = pos + len(group) - 1
        value = table[last] if last < len(table) else 0
        for q in group:
            pts[q] = value
        if pos == 0 and len(group) == 1 and stage.first_bonus == "wheat":
            token = group[0]
        pos += len(group)
    return pts, token


def _bind(name: str) -> Callable[..., Any]:
    return getattr(PetrichorState, name)


STEP_KINDS = ("cloud", "turn", "pay", "second", "next", "last", "limit", "frost", "sun", "reclaim", "wind", "rain",
              "vote", "auto", "weather", "tie", "resolve", "frostw", "shine", "grow", "blow", "rainw", "harvest",
              "cleanup")
STEP: dict[str, Callable[[PetrichorState, Step], list[PAction] | None]] = {
    k: _bind(f"_step_{k}") for k in STEP_KINDS}
RESOLVE: dict[str, Callable[[PetrichorState, Step, Any], None]] = {
    k: _bind(f"_res_{k}") for k in STEP_KINDS if hasattr(PetrichorState, f"_res_{k}")}


class PetrichorRules(FixedActionTable, Game):
    """The rules-level half of the game: setup, notation, the integer encoding, what search plays, visibility and
    undo. `game.py` gives it its words and evaluation (`GAME`), since text.py and evaluate.py sit
    above this module."""

    name = "petrichor"
    titles = {"en": "Petrichor", "zh-TW": "雨的味道"}
    min_players = 1
    max_players = 4
    actions_module: ClassVar[Any] = A
    options = {
        "length": Option("short", "short game (4 rounds) or long game (6 rounds)", ("short", "long")),
        "final_turn": Option("one_card", "the one more turn after a pass: one card or pass (seed), or any "
                             "first action incl. two cards as one (English notes)", ("one_card", "full")),
        "voting_wins": Option("seed", "Voting-Wins track: the single top voter +1 (seed), or top +2 / second +1 / "
                              "tied tops +1 each (English notes, Flowers rules)", ("seed", "flowers")),
        "reclaim": Option("choose", "taking own drops back from the fields when the supply is short (Frost, Sun, "
                          "the Sun weather): the player's choice (seed: 可以), or always done (the English notes' "
                          "'take back', as the engine did before #33)", ("choose", "always")),
        "components": Option("", "path of a components file (JSON or TOML) to use instead of the built-in one"),
    }

    # decisions a card can bring, at most: `play` one card (1), its effect (Sun: the cloud, then up to 2 drops
    # taken back: 3), its vote (1), the `second` question (1); `play2` is 8 for two cards, a second action 4 for
    # two (`again`) or 8 for four (`again4`: 4 pays), a `last` turn 5 (or 7 for two cards with final_turn=full),
    # a hand-limit discard 1
    DECISIONS_PER_CARD = 6

    def max_game_length(self, players: int) -> int:
        """A true bound on the decisions of a game with the built-in components and any options (OpenSpiel's
        max_game_length). Rounds: at most `long_rounds`. A round: every turn plays a card or passes, and a card
        leaves the hand when played, paid or discarded, so a round's card decisions are at most
        DECISIONS_PER_CARD per card held at its start (a hand keeps at most `hand_limit` cards into the next
        round and is dealt `cards` more; never more than the deck); then one pass per board player (the passer's,
        the others' `last` turns), at most 2 tie-break choices, and per board player the Sun weather's cloud
        and up to `drops_per_player` drops taken back, and the Wind weather's one drop moved. Plus one first
        cloud per board player (solo: the South Wind's own choices are not decisions, but are counted)."""
        if not self.min_players <= players <= self.max_players:
            raise ConfigError(f"petrichor is for {self.min_players}-{self.max_players} players, not {players}")
        c = components(None)
        k, nb = c.const, max(2, players)
        held = min(len(c.deck), players * (k["hand_limit"] + c.setups[players].cards))
        weather = 2 + nb * (1 + k["drops_per_player"] + 1)
        per_round = self.DECISIONS_PER_CARD * held + nb + weather
        return nb + max(k["short_rounds"], k["long_rounds"]) * per_round

    def _new_state(self, players: int, seed: int, options: dict[str, Any]) -> PetrichorState:
        if not isinstance(options.get("components", ""), str):
            raise ConfigError("option 'components' must be a path")
        s = PetrichorState(players, seed, options)
        s._setup()
        return s

    def action_visible(self, before: State, action: Any, seat: int | None) -> bool:
        """Every Petrichor action is public once played: cards go face up to the discard pile, clouds,
        drops, votes and dice are on the table. Only hands and the deck order are secret."""
        return True

    def undo_barrier(self, before: State, action: Any, after: State) -> bool:
        """No undo past a draw, a die roll or a shuffle (new cards, rerolled harvest dice, the South Wind's
        card or d6), nor past a move that takes cards out of its player's hand when others are at the table:
        the cards were hidden and are now seen (played, paid or discarded face up), and an undo would put
        cards everyone has seen back into a hidden hand."""
        if after.chance != before.chance:  # type: ignore[attr-defined]
            return True
        seat = before.current_player
        if before.num_players < 2 or seat is None or seat >= len(before.hands):  # type: ignore[attr-defined]
            return False
        mine, now = before.hands[seat], after.hands[seat]  # type: ignore[attr-defined]
        return any(n < m for m, n in zip(mine, now, strict=True))


__all__ = ["PetrichorRules", "PetrichorState", "stage_points"]
