# mypy: disable-error-code="misc"
# (actions are dispatched on their kind field, which mypy cannot narrow: `action[1]` of a union of tuples)
"""The interpreter of card and building effects: conditions, costs and the primitive vocabulary
(launch, energy, draw, settle, shift, swap, look, bury; see components.OPS).

Effects run on the state's to-do stack: an effect becomes one `prim` step per primitive; a primitive
either acts at once (launch, energy, settle here, look with one target) or becomes a decision whose
options always include `skip` (every card and building effect is a "may" effect, step by step).
This is a mixin of `PocketMarsState`, kept apart so the rules file reads as the turn structure.
"""

from __future__ import annotations

from typing import Any

from mypy_extensions import mypyc_attr

from .actions import CARD, DO, LOOK, PLACE, SHIFT, SKIP, SWAP, TAKE, PMAction
from .components import Deck, Effect, Prim, Rules

TOP, BOTTOM, ABILITY = 0, 1, 2
ALL_SEEN = 0xFF
Step = tuple[Any, ...]


@mypyc_attr(native_class=False)  # a mixin: native classes cannot be mixed in
class EffectsMixin:
    """Primitive effects over the state fields declared below (set by PocketMarsState)."""

    R: Rules
    cards: Deck
    solo: bool
    nb: int
    cap: int
    earth: list[int]
    ship: list[int]
    energy: list[int]
    lo: list[list[int]]
    hi: list[list[int]]
    hands: list[list[int]]
    prep: list[list[int]]
    deck: list[int]
    discard: list[int]
    stacks: list[list[int]]
    seen: list[int]
    todo: list[Step]

    # -- helpers used by the rules too ----------------------------------------------------------------
    def placed(self, q: int) -> int:
        """Colonists of q in buildings (the tie-break and the 'behind' condition)."""
        return sum(self.lo[b][q] + self.hi[b][q] for b in range(4))

    def others(self, p: int) -> list[int]:
        """Players whose prep module p may use, in seat order after p (solo: the automaton)."""
        raise NotImplementedError

    def _gain(self, p: int, n: int) -> None:
        self.energy[p] = min(self.R.energy_max, self.energy[p] + n)

    def _draw_card(self, q: int) -> int | None:
        """Draw the top card for q, reshuffling first and afterwards if the deck runs out."""
        if not self.deck:
            self._reshuffle()
            if not self.deck:
                return None
        c = self.deck.pop()
        self.seen[c] |= 1 << q
        self.hands[q].append(c)
        if not self.deck:
            self._reshuffle()
        return c

    def _reshuffle(self) -> None:
        raise NotImplementedError

    def _effect(self, which: int, card: int, b: int) -> Effect:
        if which == ABILITY:
            return self.R.buildings[b].ability
        k = self.cards.cards[card]
        return k.top if which == TOP else k.bottom

    def _cond_ok(self, p: int, eff: Effect, b: int, public: bool) -> bool:
        """The effect's conditions: the public ones, or only the hidden one (holding a colour)."""
        for key, arg in eff.cond:
            if (key == "hold") == public:
                continue
            if key == "hold":
                colour = self.cards.colour
                if not any(colour[c] == arg for c in self.hands[p]):
                    return False
            elif key == "absent" or key == "present":
                here = self.lo[b][p] + self.hi[b][p] > 0
                if here != (key == "present"):
                    return False
            else:  # behind: fewer colonists in buildings than some other player
                mine = self.placed(p)
                if not any(self.placed(q) > mine for q in range(self.nb) if q != p):
                    return False
        return True

    def _useful(self, p: int, prim: Prim) -> bool:
        """Cheap test that a primitive could change something (so pointless offers are not made)."""
        op = prim.op
        if op == "launch":
            return self.earth[p] > 0
        if op == "energy":
            return self.energy[p] < self.R.energy_max
        if op == "settle":
            return self.ship[p] > 0
        if op == "bury":
            return bool(self.hands[p] or self.prep[p])
        return True

    # -- an optional effect (card half or building ability) ------------------------------------------
    def _step_half(self, step: Step) -> list[PMAction] | None:
        """Offer an effect. Public reasons (energy, board) drop it silently; a failed "you hold a card
        of colour X" condition still asks (only `skip` possible), so others learn nothing of the hand."""
        _, p, card, which, b = step
        eff = self._effect(which, card, b)
        if self.energy[p] < eff.cost or not self._cond_ok(p, eff, b, public=True):
            return []
        if not any(self._useful(p, prim) for prim in eff.prims):
            return []
        if eff.hold >= 0:
            return [DO, SKIP] if self._cond_ok(p, eff, b, public=False) else [SKIP]
        if eff.direct or (which == TOP and eff.cost == 0):
            self.todo.pop()
            self._push_prims(p, eff, b)
            return None
        return [DO, SKIP]

    def _res_half(self, step: Step, action: PMAction) -> None:
        if action == DO:
            _, p, card, which, b = step
            eff = self._effect(which, card, b)
            self.energy[p] -= eff.cost
            self._push_prims(p, eff, b)

    def _push_prims(self, p: int, eff: Effect, b: int) -> None:
        self.todo.extend(("prim", p, prim, b, prim.n) for prim in reversed(eff.prims))

    # -- primitives ------------------------------------------------------------------------------------
    def _step_prim(self, step: Step) -> list[PMAction] | None:
        _, p, prim, b, left = step
        op = prim.op
        todo = self.todo
        if op == "launch":
            k = min(left, self.earth[p])
            self.earth[p] -= k
            self.ship[p] += k
        elif op == "energy":
            self._gain(p, left)
        elif op == "draw":
            todo.pop()
            todo.extend(("draw1", p) for _ in range(left))
            return None
        elif op == "settle":
            if prim.where == "here":
                k = min(left, self.ship[p])
                self.ship[p] -= k
                self.lo[b][p] += k
            elif self.ship[p]:
                return [*PLACE, SKIP]
        elif op == "look":
            targets = [t for t in self.others(p) if self.prep[t]]
            if len(targets) > 1:
                return [LOOK[t] for t in targets]
            if targets:
                self._look(p, targets[0], left)
        else:
            opts = self._prim_options(p, prim, b)
            if opts:
                opts.append(SKIP)
                return opts
        todo.pop()
        return None

    def _prim_options(self, p: int, prim: Prim, b: int) -> list[PMAction]:
        op = prim.op
        buildings = (b,) if prim.where == "here" else range(4)
        opts: list[PMAction] = []
        if op == "bury":
            bury = CARD["bury"]
            opts += [bury[c] for c in sorted(self.hands[p])]
            opts += [bury[c] for c in self.prep[p]]
            return opts
        lo, hi, cap = self.lo, self.hi, self.cap
        if op == "shift":
            who = (p,) if prim.who == "self" else range(self.nb)
            up_ok = prim.dir != "down"
            down_ok = prim.dir != "up"
            for bb in buildings:
                room = sum(hi[bb]) < cap
                for q in who:
                    if down_ok and hi[bb][q]:
                        opts.append(SHIFT[bb][q][False])
                    if up_ok and room and lo[bb][q]:
                        opts.append(SHIFT[bb][q][True])
            return opts
        for bb in buildings:  # swap
            low, high = lo[bb], hi[bb]
            for q in range(self.nb):
                if low[q]:
                    opts += [SWAP[bb][q][r] for r in range(self.nb) if r != q and high[r]]
        return opts

    def _res_prim(self, step: Step, action: PMAction) -> None:
        _, p, prim, b, left = step
        kind = action[0]
        if kind == "skip":
            return
        if kind == "look":
            self._look(p, action[1], left)
            return
        if kind == "place":
            bb = action[1]
            self.ship[p] -= 1
            self.lo[bb][p] += 1
        elif kind == "shift":
            _, bb, q, up = action
            d = 1 if up else -1
            self.lo[bb][q] -= d
            self.hi[bb][q] += d
        elif kind == "swap":
            _, bb, q, r = action
            self.lo[bb][q] -= 1
            self.hi[bb][q] += 1
            self.hi[bb][r] -= 1
            self.lo[bb][r] += 1
        else:  # bury
            c = action[1]
            (self.hands[p] if c in self.hands[p] else self.prep[p]).remove(c)
            self.deck.insert(0, c)
        if left > 1:
            self.todo.append(("prim", p, prim, b, left - 1))

    def _look(self, p: int, target: int, n: int) -> None:
        """Reveal up to n cards of target's prep module to p (the view remembers: `seen`)."""
        bit = 1 << p
        for c in self.prep[target][:n]:
            self.seen[c] |= bit

    # -- drawing one card (solo: the automaton's prep module replaces the deck) --------------------
    def _step_draw1(self, step: Step) -> list[PMAction] | None:
        q = step[1]
        if self.solo and q == 0 and self.prep[1]:
            return list(TAKE[: len(self.prep[1])])
        self.todo.pop()
        self._draw_card(q)
        return None

    def _res_draw1(self, step: Step, action: PMAction) -> None:
        c = self.prep[1].pop(action[1])
        self.seen[c] |= 1
        self.hands[0].append(c)
