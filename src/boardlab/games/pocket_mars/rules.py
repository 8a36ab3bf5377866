# mypy: disable-error-code="misc"
# (actions are dispatched on their kind field, which mypy cannot narrow: `action[1]` of a union of tuples)
"""Pocket Mars rules (seed rulebook translation + English notes), 1 to 4 players.

The game runs on a to-do stack of small steps (`self.todo`, the end is next). A step either acts at
once or asks one player a question; `current_player` is whoever is asked, which is not always the
turn's owner: the owner of a card played from their prep module by someone else decides on its bottom
action, and every player makes their own 4-card-rule choices. Single-option questions are answered
automatically. The to-do stack holds only public facts, so views and determinization never leak.

Turn (multiplayer): `turn` -> the steps of the chosen action -> `endturn` (4-card rule for every player
from the start player: `trim`, `fill`, `ready`) -> `next` (end-of-round check).
Solo (the player is seat 0, the Devious Automatics is board index 1 but never a seat): `turn` ->
4-card rule -> `sysfail` -> `android` -> `refill` -> `roundend`.
Decisions not settled by the sources are recorded in docs/rules/pocket_mars.md.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import Any, ClassVar

from mypy_extensions import mypyc_attr

from boardlab.core.action_table import FixedActionTable
from boardlab.core.game import Game, Option, Score, State
from boardlab.core.rng import Rng
from boardlab.core.solo import AutomatonOpponent
from boardlab.core.step_machine import StepMachine

from . import actions as A
from .actions import CARD, DROP, LAUNCH, OPP, PASS, PMAction
from .components import BLACK, CARD_IDS, COLOURS, LETTERS, Prim, Scoring, deck, rules
from .effects import ABILITY, ALL_SEEN, BOTTOM, TOP, EffectsMixin, Step

DA = 1  # the solo automaton's board index
GREEN, YELLOW, BLUE, PURPLE = 0, 1, 2, 3


def _known_card(seen: list[int], bit: int, c: int) -> str | None:
    """The card's name if the seat (`bit`) has seen it or everyone has, else None."""
    return CARD_IDS[c] if seen[c] & bit or seen[c] == ALL_SEEN else None


@mypyc_attr(native_class=False)  # a Python class with compiled methods (see boardlab/_compiled.py)
class PocketMarsState(StepMachine, AutomatonOpponent, EffectsMixin, State):
    """A Pocket Mars position. Board arrays are indexed by board player (solo: 0 you, 1 automaton)."""

    solo_tie_wins = True  # solo: you win if you beat or tie the automaton (total, then colonists in buildings; S9)

    # -- setup ----------------------------------------------------------------------------------------
    def _setup(self) -> None:
        R = self.R = rules()
        self.cards = deck(self.options.get("components") or None)
        n = self.num_players
        self.solo = n == 1
        nb = self.nb = 2 if self.solo else n
        self.cap = R.star2_capacity[n]
        self.rng = Rng(self.seed)
        self.earth = [R.colonists - R.start_ship] * nb
        self.ship = [R.start_ship] * nb
        self.energy = [R.energy_start] * nb
        if self.solo:
            self.ship[DA] = int(self.options.get("automaton_ship", R.solo["automaton_ship"]))
            self.earth[DA] = R.solo["automaton_earth_total"] - self.ship[DA]
        self.lo = [[0] * nb for _ in range(4)]
        self.hi = [[0] * nb for _ in range(4)]
        self.hands: list[list[int]] = [[] for _ in range(nb)]
        self.prep: list[list[int]] = [[] for _ in range(nb)]
        self.packets: list[list[int]] = [[] for _ in range(n)]
        self.stacks: list[list[int]] = [[] for _ in range(5)]
        self.discard: list[int] = []
        self.limbo: list[int] = []  # a card played from hand while its top action resolves
        self.seen = [0] * len(CARD_IDS)  # per card: bitmask of seats that know where it is
        self.drafted = [0] * len(CARD_IDS)  # per card: seats that saw it in a draft packet (D16)
        self.deck = list(range(len(CARD_IDS)))
        self.rng.shuffle(self.deck)
        self.round = 0
        self.start = 0 if self.solo else self.rng.randbelow(n)
        self.turn = self.start
        self.solo_exhausted = False
        self.todo: list[Step] = []
        self.options_: list[PMAction] = []
        self.decider: int | None = None
        order = self.order()
        steps: list[Step] = []
        if self.options.get("draft"):
            for q in order:
                self.packets[q] = [self._deal(q) for _ in range(R.draft_deal)]
                for c in self.packets[q]:
                    self.drafted[c] = 1 << q
            keep = R.hand_size + R.prep_size
            for r in range(keep):
                steps += [("pick", q) for q in order]
                if r < keep - 1:
                    steps.append(("passpackets",))
            steps.append(("draftend",))
        else:
            for q in order:
                self.hands[q] = [self._deal(q) for _ in range(R.hand_size + R.prep_size)]
            if self.solo:
                self.prep[DA] = [self.deck.pop() for _ in range(R.prep_size)]
        steps += [("ready", q) for q in order]
        steps.append(("begin",))
        self.todo.extend(reversed(steps))
        self._run()

    def _deal(self, q: int) -> int:
        c = self.deck.pop()
        self.seen[c] = 1 << q
        return c

    def order(self) -> list[int]:
        """Seats in turn order from the start player."""
        n = self.num_players
        return [(self.start + k) % n for k in range(n)]

    def others(self, p: int) -> list[int]:
        if self.solo:
            return [DA] if p == 0 else []
        n = self.num_players
        return [(p + k) % n for k in range(1, n)]

    # -- core protocol: the step machine (boardlab.core.step_machine) ----------------------------------
    def _step_options(self, step: Step) -> list[PMAction] | None:
        return STEP[step[0]](self, step)

    def _resolve(self, step: Step, action: PMAction) -> None:
        RESOLVE[step[0]](self, step, action)

    def _asks(self, step: Step, opts: list[PMAction]) -> bool:
        return len(opts) > 1 or step[0] == "half"  # see _step_half: no hidden-hand tell

    # -- the turn action ------------------------------------------------------------------------------
    def _step_turn(self, step: Step) -> list[PMAction]:
        """The five actions in a fixed order: hand, own prep, others' prep, launch, energy."""
        p = step[1]
        hand = sorted(self.hands[p])
        prep = self.prep[p]
        acts: list[PMAction] = [CARD["hand"][c] for c in hand]
        acts += [CARD["prep"][c] for c in prep]
        for o in self.others(p):
            acts += OPP[o][: len(self.prep[o])]
        if self.earth[p]:
            acts.append(LAUNCH)
        energy = CARD["energy"]
        acts += [energy[c] for c in sorted(hand + prep)]
        return acts or [PASS]

    def _res_turn(self, step: Step, action: PMAction) -> None:
        p = step[1]
        kind = action[0]
        if kind == "hand":
            c = action[1]
            self.hands[p].remove(c)
            self.seen[c] = ALL_SEEN
            self.limbo.append(c)
            self.todo.append(("todiscard", c))
            self.todo.append(("half", p, c, TOP, self.cards.colour[c]))
        elif kind == "prep":
            self.prep[p].remove(action[1])
            self._play_card(p, p, action[1])
        elif kind == "opp":
            self._play_card(p, action[1], self.prep[action[1]].pop(action[2]))
        elif kind == "launch":
            self.earth[p] -= 1
            self.ship[p] += 1
            if self.solo and self.prep[DA]:
                self.todo.append(("dadrop", p))
        elif kind == "energy":
            c = action[1]
            (self.hands[p] if c in self.hands[p] else self.prep[p]).remove(c)
            self.discard.append(c)
            self._gain(p, self.R.solo["discard_energy"] if self.solo else 1)

    def _play_card(self, actor: int, owner: int, c: int) -> None:
        """A prep-module card goes face up under its building, then the independent steps in order:
        value win (own module, or solo automaton's), bottom action (the owner's), building ability."""
        self.seen[c] = ALL_SEEN
        b = self.cards.colour[c]
        won = False
        if b == BLACK:
            self.discard.append(c)  # the Habitation takes no cards (docs: decision D3)
        else:
            stack = self.stacks[b]
            threshold = self.cards.value[stack[-1]] if stack else self.R.buildings[b].value
            stack.append(c)
            won = self.cards.value[c] > threshold
        steps: list[Step] = []
        if won and (owner == actor or self.solo):
            steps.append(("colonist", actor, b))
        if not (self.solo and owner == DA):
            steps.append(("half", owner, c, BOTTOM, b))
        steps.append(("half", actor, -1, ABILITY, b))
        self.todo.extend(reversed(steps))

    def _step_colonist(self, step: Step) -> list[PMAction]:
        """Value win: asked only when the ship has a colonist to move."""
        return [A.DO, A.SKIP] if self.ship[step[1]] else []

    def _res_colonist(self, step: Step, action: PMAction) -> None:
        if action == A.DO:
            _, p, b = step
            self.ship[p] -= 1
            self.lo[b][p] += 1

    def _step_todiscard(self, step: Step) -> None:
        self.todo.pop()
        self.limbo.remove(step[1])
        self.discard.append(step[1])

    # -- the 4-card rule ------------------------------------------------------------------------------
    def _step_endturn(self, step: Step) -> None:
        """Queue the 4-card rule for every player from the start player, then the round bookkeeping."""
        self.todo.pop()
        steps: list[Step] = []
        for q in self.order():
            steps += [("trim", q), ("fill", q), ("ready", q)]
        steps += [("sysfail",), ("android",), ("refill",), ("roundend",)] if self.solo else [("next",)]
        self.todo.extend(reversed(steps))

    def _total(self, q: int) -> int:
        return len(self.hands[q]) + len(self.prep[q])

    def _step_trim(self, step: Step) -> list[PMAction]:
        """More than 4 cards: one hand card at a time is discarded face down."""
        q = step[1]
        if self._total(q) <= self.R.hand_size + self.R.prep_size:
            return []
        discard = CARD["discard"]
        return [discard[c] for c in sorted(self.hands[q])]

    def _res_trim(self, step: Step, action: PMAction) -> None:
        self.hands[step[1]].remove(action[1])
        self.discard.append(action[1])
        self.todo.append(step)

    def _step_fill(self, step: Step) -> None:
        """Fewer than 4 cards: draw one at a time (solo: maybe a choice), while anything is drawable."""
        q = step[1]
        if self._total(q) >= self.R.hand_size + self.R.prep_size or not self._can_draw(q):
            self.todo.pop()
        else:
            self.todo.append(("draw1", q))

    def _can_draw(self, q: int) -> bool:
        if self.deck:
            return True
        if self.solo:
            return q == 0 and bool(self.prep[DA])
        return bool(self.discard) or any(self.stacks)

    def _step_ready(self, step: Step) -> list[PMAction]:
        """Prep module short: the player picks hand cards for it (never the other way round)."""
        q = step[1]
        if len(self.prep[q]) >= self.R.prep_size or not self.hands[q]:
            return []
        ready = CARD["ready"]
        return [ready[c] for c in sorted(self.hands[q])]

    def _res_ready(self, step: Step, action: PMAction) -> None:
        self.hands[step[1]].remove(action[1])
        self.prep[step[1]].append(action[1])
        self.todo.append(step)

    def _reshuffle(self) -> None:
        """Deck ran out: cards under buildings join the discard pile, all of it becomes the new deck
        (building values are back to 3). Solo has no reshuffle (docs: decision S6)."""
        if self.solo:
            return
        pile = self.discard + [c for s in self.stacks for c in s]
        if not pile:
            return
        self.discard = []
        self.stacks = [[] for _ in range(5)]
        for c in pile:
            self.seen[c] = 0
        pile.sort()
        self.rng.shuffle(pile)
        self.deck = pile + self.deck

    # -- rounds and the end -------------------------------------------------------------------------
    def _step_begin(self, step: Step) -> None:
        self.todo.pop()
        self.round = 1
        self.todo += [("endturn",), ("turn", self.start)]

    def _step_next(self, step: Step) -> None:
        """Next seat; after the last seat of a round, the end check (rules: end of round only)."""
        self.todo.pop()
        nxt = (self.turn + 1) % self.num_players
        if nxt == self.start:
            if self._someone_done() or self.round >= self.R.max_rounds:
                self.todo.clear()
                return
            self.round += 1
        self.turn = nxt
        self.todo += [("endturn",), ("turn", nxt)]

    def _someone_done(self) -> bool:
        return any(self.earth[q] == 0 and self.ship[q] == 0 for q in range(self.nb))

    # -- draft variant ----------------------------------------------------------------------------------
    def _step_pick(self, step: Step) -> list[PMAction]:
        keep = CARD["keep"]
        return [keep[c] for c in sorted(self.packets[step[1]])]

    def _res_pick(self, step: Step, action: PMAction) -> None:
        self.packets[step[1]].remove(action[1])
        self.hands[step[1]].append(action[1])

    def _step_passpackets(self, step: Step) -> None:
        """Draft: every packet goes to the next seat, who now knows its cards. The seats that held it
        before remember having seen those cards (`drafted`) but no longer know where each one is: the
        next holder keeps one of them secretly (D16), so only the holder knows a packet card's place."""
        self.todo.pop()
        n = self.num_players
        new: list[list[int]] = [[] for _ in range(n)]
        for q in range(n):
            to = (q + 1) % n
            new[to] = self.packets[q]
            for c in new[to]:
                self.seen[c] = 1 << to
                self.drafted[c] |= 1 << to
        self.packets = new

    def _step_draftend(self, step: Step) -> None:
        """Draft leftovers are shuffled back; nobody knows where they are any more."""
        self.todo.pop()
        for q in range(self.num_players):
            self.deck += self.packets[q]
            self.packets[q] = []
        for c in self.deck:
            self.seen[c] = 0
        self.deck.sort()
        self.rng.shuffle(self.deck)

    # -- solo: the Devious Automatics ---------------------------------------------------------------
    def _step_dadrop(self, step: Step) -> list[PMAction]:
        """Solo launch: the player picks (blind) which automaton card is discarded."""
        return list(DROP[: len(self.prep[DA])])

    def _res_dadrop(self, step: Step, action: PMAction) -> None:
        self.discard.append(self.prep[DA].pop(action[1]))

    def _discard_top(self, k: int) -> None:
        for _ in range(min(k, len(self.deck))):
            self.discard.append(self.deck.pop())

    def _step_sysfail(self, step: Step) -> None:
        self.todo.pop()
        self._discard_top(self.R.solo["system_failure"])

    def _step_android(self, step: Step) -> None:
        """Solo: the automaton acts only when exactly one card is left in its module."""
        self.todo.pop()
        if len(self.prep[DA]) != 1:
            return
        c = self.prep[DA].pop()
        self.seen[c] = ALL_SEEN
        self.discard.append(c)
        colour = self.cards.colour[c]
        if colour != BLACK:
            if self.ship[DA]:
                self.ship[DA] -= 1
                self.lo[colour][DA] += 1
            elif self.earth[DA]:
                self.earth[DA] -= 1
                self.ship[DA] += 1
        ANDROID[colour](self)

    def _da_green(self) -> None:
        for _ in range(self.R.solo["automaton_promotions"]):
            b = next((b for b in range(4) if self.lo[b][DA] and sum(self.hi[b]) < self.cap), None)
            if b is not None:
                self.lo[b][DA] -= 1
                self.hi[b][DA] += 1
                continue
            b = next((b for b in range(4) if self.hi[b][0]), None)
            if b is not None:
                self.hi[b][0] -= 1
                self.lo[b][0] += 1

    def _da_blue(self) -> None:
        self._discard_top(self.R.solo["automaton_deck_discard"])

    def _da_yellow(self) -> None:
        if self.energy[DA] >= self.R.energy_max:
            self._da_blue()
        else:
            self._gain(DA, self.R.solo["automaton_energy"])

    def _da_purple(self) -> None:
        if self.earth[DA]:
            self.earth[DA] -= 1
            self.ship[DA] += 1

    def _da_black(self) -> None:
        """Spread first (all-buildings bonus), then stack towards four in one building."""
        if not self.ship[DA]:
            self._da_purple()
            return
        counts = [self.lo[b][DA] + self.hi[b][DA] for b in range(4)]
        b = counts.index(0) if 0 in counts else counts.index(max(counts))
        self.ship[DA] -= 1
        self.lo[b][DA] += 1

    def _step_refill(self, step: Step) -> None:
        """Solo: the automaton's module back to 2; failing to refill ends the game (the deck is the clock)."""
        self.todo.pop()
        while len(self.prep[DA]) < self.R.prep_size and self.deck:
            self.prep[DA].append(self.deck.pop())
        if len(self.prep[DA]) < self.R.prep_size:
            self.solo_exhausted = True

    def _step_roundend(self, step: Step) -> None:
        self.todo.pop()
        if self.solo_exhausted or self._someone_done() or self.round >= self.R.max_rounds:
            self.todo.clear()
            return
        self.round += 1
        self.todo += [("endturn",), ("turn", 0)]

    # -- scoring --------------------------------------------------------------------------------------
    def _score(self, q: int, sc: Scoring, top_energy: bool) -> Score:
        lo = sum(self.lo[b][q] for b in range(4))
        hi = sum(self.hi[b][q] for b in range(4))
        counts = [self.lo[b][q] + self.hi[b][q] for b in range(4)]
        parts = {
            "ship": self.ship[q] * sc.ship,
            "star": lo * sc.star,
            "star2": hi * sc.star2,
            "all_buildings": sc.all_buildings if min(counts) > 0 else 0,
            "full_building": sc.full_building if max(counts) >= sc.full_building_size else 0,
            "top_energy": sc.top_energy if top_energy else 0,
        }
        return Score(sum(parts.values()), parts, (lo + hi,))

    def score_totals(self) -> list[int]:
        """`[s.total for s in self.scores()]` without the breakdowns (the evaluation's hot path)."""
        if self.solo:
            return [s.total for s in self.scores()]
        sc = self.R.scoring
        energy = self.energy
        top = max(energy)
        out = []
        for q in range(self.num_players):
            lo0, lo1, lo2, lo3 = (r[q] for r in self.lo)
            hi0, hi1, hi2, hi3 = (r[q] for r in self.hi)
            counts = (lo0 + hi0, lo1 + hi1, lo2 + hi2, lo3 + hi3)
            total = self.ship[q] * sc.ship + (lo0 + lo1 + lo2 + lo3) * sc.star + (hi0 + hi1 + hi2 + hi3) * sc.star2
            if min(counts) > 0:
                total += sc.all_buildings
            if max(counts) >= sc.full_building_size:
                total += sc.full_building
            if energy[q] == top:
                total += sc.top_energy
            out.append(total)
        return out

    def scores(self) -> list[Score]:
        if self.solo:
            return [self._score(0, self.R.solo_player_scoring, self.energy[0] >= self.energy[DA])]
        top = max(self.energy)
        return [self._score(q, self.R.scoring, self.energy[q] == top) for q in range(self.num_players)]

    def automaton_score(self) -> Score:
        """Solo only: the Devious Automatics' score (it is not a seat)."""
        return self._score(DA, self.R.solo_automaton_scoring, self.energy[DA] >= self.energy[0])

    # -- copies ---------------------------------------------------------------------------------------
    def clone(self) -> PocketMarsState:
        s = PocketMarsState.__new__(PocketMarsState)
        self._copy_base(s)
        s.R, s.cards, s.solo, s.nb, s.cap = self.R, self.cards, self.solo, self.nb, self.cap
        s.rng = self.rng.copy()
        s.earth, s.ship, s.energy = self.earth[:], self.ship[:], self.energy[:]
        s.lo = [r[:] for r in self.lo]
        s.hi = [r[:] for r in self.hi]
        s.hands = [h[:] for h in self.hands]
        s.prep = [h[:] for h in self.prep]
        s.packets = [h[:] for h in self.packets]
        s.stacks = [h[:] for h in self.stacks]
        s.discard, s.limbo, s.seen, s.deck = self.discard[:], self.limbo[:], self.seen[:], self.deck[:]
        s.drafted = self.drafted[:]
        s.round, s.start, s.turn, s.solo_exhausted = self.round, self.start, self.turn, self.solo_exhausted
        s.todo = self.todo[:]
        s.options_ = self.options_[:]
        s.decider = self.decider
        return s

    def determinize(self, seat: int, rng: Rng) -> PocketMarsState:
        """Resample every card `seat` does not know, keeping what it knows and every public fact: the
        colours of prep-module cards, counts, and positions of cards it has seen (e.g. one it buried).
        The pool is sorted before shuffling, so the result depends only on the seat's information."""
        s = self.clone()
        bit = 1 << seat
        seen = self.seen
        # slots: (zone list, index, colour constraint or -1)
        slots: list[tuple[list[int], int, int]] = []
        colour = self.cards.colour
        for q in range(self.nb):
            if q == seat:
                continue
            for i, c in enumerate(s.prep[q]):
                if not seen[c] & bit:
                    slots.append((s.prep[q], i, colour[c]))
        zones = [s.hands[q] for q in range(self.nb) if q != seat]
        zones += [s.packets[q] for q in range(self.num_players) if q != seat]
        zones += [s.discard, s.deck]
        for zone in zones:
            slots += [(zone, i, -1) for i, c in enumerate(zone) if not seen[c] & bit]
        pool = sorted(zone[i] for zone, i, _ in slots)
        masks = [seen[zone[i]] for zone, i, _ in slots]
        rng.shuffle(pool)
        new_seen = s.seen
        k = 0
        for zone, i, want in slots:  # colour-constrained prep slots come first
            if want < 0:
                break
            c = pool.pop(next(j for j, c in enumerate(pool) if colour[c] == want))
            zone[i] = c
            new_seen[c] = masks[k]
            k += 1
        for c, (zone, i, _), mask in zip(pool, slots[k:], masks[k:], strict=True):  # the rest in pool order
            zone[i] = c
            new_seen[c] = mask
        s.drafted = [m & bit for m in self.drafted]  # what the others saw in the draft is theirs
        s.rng = Rng(rng.next64())
        s._legal = None
        if s.todo:
            s._run()  # recompute the pending question's options: hidden cards may have changed
        return s

    # -- views ----------------------------------------------------------------------------------------
    def knows(self, seat: int | None, c: int) -> bool:
        """Whether `seat` (None: a spectator) may know card c's identity: the rule `view` applies, so
        narration (`describe_for`) and views can never disagree on what a seat has seen."""
        seen = self.seen[c]
        return seen == ALL_SEEN or (seat is not None and bool(seen >> seat & 1))

    def _board_json(self) -> dict[str, Any]:
        R = self.R
        buildings = []
        for b in range(5):
            stack = self.stacks[b]
            entry: dict[str, Any] = {
                "colour": COLOURS[b], "letter": LETTERS[b],
                "stack": [CARD_IDS[c] for c in stack],
            }
            if b != BLACK:
                entry["value"] = self.cards.value[stack[-1]] if stack else R.buildings[b].value
                entry["star"] = self.lo[b][:]
                entry["star2"] = self.hi[b][:]
                entry["star2_capacity"] = self.cap
            buildings.append(entry)
        return {"buildings": buildings, "earth": self.earth[:], "ship": self.ship[:], "energy": self.energy[:]}

    def _step_json(self, step: Step) -> list[Any]:
        return [x._asdict() if isinstance(x, Prim) else x for x in step]

    def decision(self, seat: int | None, options: bool = True) -> dict[str, Any] | None:
        """The pending question in public terms (its options only for the seat that decides)."""
        if self.decider is None:
            return None
        step = self.todo[-1]
        out: dict[str, Any] = {"player": self.decider, "step": step[0]}
        if step[0] == "half":
            _, _, c, which, b = step
            out["part"] = ("top", "bottom", "ability")[which]
            out["card"] = CARD_IDS[c] if c >= 0 else None
            out["building"] = LETTERS[b]
        elif step[0] == "prim":
            out["effect"] = step[2]._asdict()
            out["building"] = LETTERS[step[3]] if step[3] < 5 else None
            out["left"] = step[4]
        elif step[0] == "colonist":
            out["building"] = LETTERS[step[2]]
        if options and seat == self.decider:
            out["options"] = [str(a) for a in self.options_]
        return out

    def _view(self, seat: int | None, options: bool = True) -> dict[str, Any]:
        bit = 0 if seat is None else 1 << seat
        known = partial(_known_card, self.seen, bit)  # not a closure: mypyc cannot compile one in this class

        players = []
        for q in range(self.nb):
            players.append({
                "hand_count": len(self.hands[q]),
                "hand": sorted(CARD_IDS[c] for c in self.hands[q] if known(c)),
                "prep": [{"colour": COLOURS[self.cards.colour[c]], "card": known(c)} for c in self.prep[q]],
            })
        out: dict[str, Any] = {
            "game": "pocket_mars", "seat": seat, "players": self.num_players, "solo": self.solo,
            "round": self.round, "start_player": self.start, "turn": self.turn,
            "current_player": self.current_player, "decision": self.decision(seat, options),
            "energy_max": self.R.energy_max, "board": self._board_json(), "hands": players,
            "deck": {"count": len(self.deck), "known": [[i, known(c)] for i, c in enumerate(self.deck) if known(c)]},
            "discard": [known(c) for c in self.discard],
            "in_play": [CARD_IDS[c] for c in self.limbo],
            "draft": [{"count": len(pk), "cards": sorted(CARD_IDS[c] for c in pk if known(c))}
                      for pk in self.packets],
            "draft_seen": sorted(CARD_IDS[c] for c, m in enumerate(self.drafted) if m & bit),
            "components": self.cards.source,
        }
        if self.solo:
            out["automaton_score"] = self.automaton_score().to_json()
        return out

    def snapshot(self) -> dict[str, Any]:
        return {
            **self._board_json(),
            "rng": self.rng.saved_state(), "round": self.round, "start": self.start, "turn": self.turn,
            "hands": [[CARD_IDS[c] for c in h] for h in self.hands],
            "prep": [[CARD_IDS[c] for c in h] for h in self.prep],
            "packets": [[CARD_IDS[c] for c in h] for h in self.packets],
            "deck": [CARD_IDS[c] for c in self.deck], "discard": [CARD_IDS[c] for c in self.discard],
            "in_play": [CARD_IDS[c] for c in self.limbo], "seen": self.seen[:],
            "todo": [self._step_json(s) for s in self.todo], "decider": self.decider,
            "solo_exhausted": self.solo_exhausted,
            **({"drafted": self.drafted[:]} if self.options.get("draft") else {}),
        }


def reveals(before: PocketMarsState, action: PMAction, after: PocketMarsState) -> bool:
    """Did `action`, played in `before` and leading to `after`, reveal anything to anyone (the undo
    barrier)? Every way information moves in this game shows up in one of these facts:
    * `seen` changed: a card went face up (played, the automaton's activation), someone drew, took,
      looked at or was passed a card, or a shuffle made cards unknown;
    * the generator moved (a shuffle) or the deck shrank (a draw, the solo deck discards);
    * a card entered a prep module (its colour back is public from then on: `ready`, solo refill);
    * `do` on an effect whose condition is "you hold a card of colour X": only a hand with that colour
      may say `do` (D7), so the answer tells the table about the hand."""
    if action == A.DO and before.todo and before.todo[-1][0] == "half":
        _, _, card, which, b = before.todo[-1]
        if before._effect(which, card, b).hold >= 0:
            return True
    if (after.seen != before.seen or after.rng.saved_state() != before.rng.saved_state()
            or len(after.deck) < len(before.deck)):
        return True
    return any(c not in old for old, new in zip(before.prep, after.prep, strict=True) for c in new)


def _bind(name: str) -> Callable[..., Any]:
    return getattr(PocketMarsState, name)


STEP_KINDS = ("turn", "colonist", "half", "prim", "draw1", "todiscard", "endturn", "trim", "fill", "ready",
              "begin", "next", "pick", "passpackets", "draftend", "dadrop", "sysfail", "android", "refill",
              "roundend")
STEP: dict[str, Callable[[PocketMarsState, Step], list[PMAction] | None]] = {
    k: _bind(f"_step_{k}") for k in STEP_KINDS}
RESOLVE: dict[str, Callable[[PocketMarsState, Step, PMAction], None]] = {
    k: _bind(f"_res_{k}") for k in STEP_KINDS if hasattr(PocketMarsState, f"_res_{k}")}
ANDROID: dict[int, Callable[[PocketMarsState], None]] = {
    GREEN: PocketMarsState._da_green, YELLOW: PocketMarsState._da_yellow, BLUE: PocketMarsState._da_blue,
    PURPLE: PocketMarsState._da_purple, BLACK: PocketMarsState._da_black}


@mypyc_attr(native_class=False)
class PocketMarsRules(FixedActionTable, Game):
    """The rules-level half of the game: setup, notation, the integer encoding, what search plays, visibility and
    undo. `game.py` gives it its words and evaluation (`GAME`), since text.py and evaluate.py sit
    above this module."""

    def action_visible(self, before: State, action: Any, seat: int | None) -> bool:
        """The notation names a card: readable only by seats that know that card (text.py's `names_hidden_card`,
        the narration's own rule, so a log line and its words never disagree)."""
        return not self.text.names_hidden_card(before, action, seat)  # type: ignore[no-any-return]

    name = "pocket_mars"
    titles = {"en": "Pocket Mars", "zh-TW": "口袋火星"}
    min_players = 1
    max_players = 4
    actions_module: ClassVar[Any] = A
    options = {
        "draft": Option(False, "draft variant at setup (2-4 players)", (False, True)),
        "components": Option("", "path of a project-deck file (JSON or TOML) to use instead of the built-in deck"),
        "automaton_ship": Option(5, "solo: colonists the automaton starts with on its ship (5 normal, 6-7 harder)",
                                 (5, 6, 7)),
    }

    def max_game_length(self, players: int) -> int:
        """A true bound on the decisions of a game with the built-in deck and any options (OpenSpiel's
        max_game_length). The game ends at the latest after `max_rounds` rounds (rules.json: the engine's safety
        stop; docs/rules/pocket_mars.md D10), of one turn per seat. A turn: the action (1), then at most the
        longest chain of effects one card can bring (`_effect_chain`: a value-win colonist, the card's bottom
        half and the building's ability, or its top half; an offered effect is one question plus one per unit
        of each primitive, the most a primitive asks); the 4-card rule then discards at most the cards drawn in
        that chain, and asks each seat at most `hand_size + prep_size` draws (solo: which automaton card) and
        `prep_size` cards to ready. Setup: the draft's picks and the first readying."""
        from boardlab.core.errors import ConfigError

        if not self.min_players <= players <= self.max_players:
            raise ConfigError(f"pocket_mars is for {self.min_players}-{self.max_players} players, not {players}")
        R = rules()
        cards = R.hand_size + R.prep_size
        chain = _effect_chain()
        per_turn = 1 + chain + chain + players * (cards + R.prep_size)
        setup = players * (cards + R.prep_size)
        return setup + R.max_rounds * players * per_turn

    def _new_state(self, players: int, seed: int, options: dict[str, Any]) -> PocketMarsState:
        from boardlab.core.errors import ConfigError

        if options.get("draft") and players == 1:
            raise ConfigError("the draft variant needs 2-4 players")
        s = PocketMarsState(players, seed, options)
        s._setup()
        return s

    def component_uses(self, before: State, action: Any) -> list[str]:
        """For balance reports: the card played for its top action (from hand, own or another's prep module)."""
        kind = action[0]
        if kind in ("hand", "prep"):
            return [CARD_IDS[action[1]]]
        if kind == "opp":
            return [CARD_IDS[before.prep[action[1]][action[2]]]]  # type: ignore[attr-defined]
        return []

    def random_search_action(self, state: State, rng: Rng) -> Any:
        """The default's pick, read straight from the question's options (perf only)."""
        opts = state.options_  # type: ignore[attr-defined]  # the legal list of a running game
        return opts[rng.randbelow(len(opts))] if len(opts) > 1 else opts[0]

    def undo_barrier(self, before: State, action: Any, after: State) -> bool:
        """Exact: the action (with the automatic steps it set off) turned a card face up, let someone
        look at, draw or take a card, shuffled, showed a card's colour back, or told the table a hidden
        hand holds a colour (docs: "Undo barriers")."""
        return reveals(before, action, after)  # type: ignore[arg-type]

    def decision_kind(self, state: State) -> str | None:
        """Only an effect with a "you hold a card of colour X" condition offers a number of options that
        depends on the hidden hand (`do`+`skip` or `skip` alone, D7): its kind is "hold". Every other
        question's options follow from public facts (hand and module sizes, the board, packet sizes)."""
        s: PocketMarsState = state  # type: ignore[assignment]
        if s.decider is None:
            return None
        step = s.todo[-1]
        if step[0] == "half" and s._effect(step[3], step[2], step[4]).hold >= 0:
            return "hold"
        return None


__all__ = ["PocketMarsRules", "PocketMarsState"]


def _effect_chain() -> int:
    """The most questions one card played can bring, over the built-in deck: its top half (from hand), or a
    value-win colonist, its bottom half and its building's ability (from a prep module), an effect counting
    one question to take it and one per unit of each primitive (launch 2 = at most 2 questions)."""
    R, d = rules(), deck(None)

    def asks(eff: Any) -> int:
        return 1 + sum(p.n for p in eff.prims)

    ability = max(asks(b.ability) for b in R.buildings)
    launch = 1  # a launch plays no card; solo, it asks which automaton card to drop
    return max(launch, *(max(asks(c.top), 1 + asks(c.bottom) + ability) for c in d.cards))
