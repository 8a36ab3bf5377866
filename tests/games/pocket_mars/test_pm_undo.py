"""Undo barriers (docs/rules/pocket_mars.md, "Undo barriers"): an action that turns a card face up, lets
someone look at, draw or take a card, shuffles, shows a colour back or tells the table about a hidden hand
can never be undone. `PocketMarsRules.undo_barrier` answers exactly; these tests check it against an
oracle built from the seats' views only (what each seat can read before and after the action), so they
do not trust the code under test.

Why they can fail: the core's old sampled test (replay the action on three determinizations per seat)
let such moves be undone whenever every sample happened to hold the revealed card (e.g. the only black
card a seat had not seen yet), which is what the first two tests catch.
"""

from __future__ import annotations

import os
import random
from typing import Any

import pytest
from pm_helpers import GAME, arrange, ids, new, play_setup, refresh
from test_pm_properties import card_ids_in

from boardlab.core.visibility import reveals_or_draws
from boardlab.games.pocket_mars import actions as A
from boardlab.games.pocket_mars.effects import ALL_SEEN
from boardlab.games.pocket_mars.rules import PocketMarsState
from depth import examples

GAMES = int(os.environ.get("BOARDLAB_PM_UNDO_GAMES", "0")) or examples(12)
"""Random games per configuration in the property test (BOARDLAB_DEEP=1: ten times as many; or set the number)."""


def knowledge(state: PocketMarsState) -> list[Any]:
    """What every seat (and a spectator) can read: the card ids in its view, the deck size, the colour
    backs of every prep module. A change in any of them that the action's notation does not imply is a
    reveal."""
    seats: list[int | None] = [*range(state.num_players), None]
    out: list[Any] = []
    for s in seats:
        v = state.view(s)
        out.append(card_ids_in({k: v[k] for k in ("hands", "deck", "discard", "in_play", "draft", "board")}))
    out.append(len(state.deck))
    out.append([[p["colour"] for p in h["prep"]] for h in state.view(None)["hands"]])
    return out


def oracle(before: PocketMarsState, action: Any, after: PocketMarsState) -> bool:
    """True when the action must be a barrier, judged from views only."""
    kb, ka = knowledge(before), knowledge(after)
    n = before.num_players + 1
    if any(ka[i] - kb[i] for i in range(n)):  # someone can now read a card they could not
        return True
    if ka[n] < kb[n]:  # a draw (or a solo discard from the deck)
        return True
    if before.snapshot()["rng"] != after.snapshot()["rng"]:  # a shuffle
        return True
    grew = any(len(a) > len(b) for a, b in zip(ka[n + 1], kb[n + 1], strict=True))
    replaced = any(sorted(before.prep[q]) != sorted(after.prep[q]) and len(after.prep[q]) >= len(before.prep[q])
                   for q in range(before.nb))
    if grew or replaced:  # a colour back shown
        return True
    step = before.todo[-1]
    return bool(action == A.DO and step[0] == "half" and before._effect(step[3], step[2], step[4]).hold >= 0)


def test_playing_an_opponents_card_the_actor_could_guess_is_still_a_barrier() -> None:
    """P1 plays P2's black prep card, the only black card P1 has not seen. The card turns face up: a
    barrier, even though every determinization of P1's knowledge holds that very card (the old sampled
    test allowed the undo here)."""
    seed = next(s for s in range(100) if new(2, s).start == 0)
    s = new(2, seed)
    play_setup(s)
    arrange(s, hands={0: ["K1", "K2"]}, prep={0: ["K3", "K4"], 1: ["K7", "G1"]})
    for c in ids("K5", "K6"):
        s.deck.remove(c)
        s.discard.append(c)
        s.seen[c] = ALL_SEEN
    before = s.clone()
    s.apply(A.OPP[1][0])
    assert s.knows(None, ids("K7")[0])
    assert not reveals_or_draws(before, A.OPP[1][0], s), "the sampled test misses this reveal"
    assert GAME.undo_barrier(before, A.OPP[1][0], s)


def test_do_on_a_hold_condition_is_a_barrier() -> None:
    """`do` on "if you hold a green card" tells everyone the hand holds a green card: a barrier; `skip`
    tells nothing (it is always offered) and may be undone if nothing else was revealed."""
    seed = next(s for s in range(100) if new(2, s).start == 0)
    s = new(2, seed)
    play_setup(s)
    arrange(s, hands={0: ["G1", "Y1"]}, prep={0: ["G5", "B1"], 1: ["Y2", "P1"]})
    s.earth[0] -= 1  # a colonist in the Greenhouse, so its ability asks and the turn goes on after `skip`
    s.lo[0][0] += 1
    refresh(s)
    s.apply(A.CARD["prep"][ids("G5")[0]])  # own module: value step, then the hold-green bottom action
    while s.todo[-1][0] != "half" or s.todo[-1][3] != 1:
        s.apply(A.SKIP)
    assert s.legal_actions() == [A.DO, A.SKIP]
    for action, barrier in ((A.DO, True), (A.SKIP, False)):
        after = s.clone()
        after.apply(action)
        assert GAME.undo_barrier(s, action, after) is barrier
        assert oracle(s, action, after) is barrier


CONFIGS = [(1, {}), (2, {}), (3, {}), (4, {}), (3, {"draft": True})]


@pytest.mark.parametrize(("players", "options"), CONFIGS)
def test_undo_barrier_is_exact_in_random_games(players: int, options: dict[str, Any]) -> None:
    """Every action of random games: a barrier exactly when the views say something was revealed (no
    reveal slips through, and moves that reveal nothing stay undoable)."""
    undoable = barriers = 0
    for seed in range(GAMES):
        s = new(players, 1000 + seed, **options)
        rng = random.Random(seed)
        while not s.is_over:
            action = rng.choice(s.legal_actions())
            before = s.clone()
            s.apply(action)
            want = oracle(before, action, s)
            assert GAME.undo_barrier(before, action, s) is want, f"{action} at {before.history}"
            barriers += want
            undoable += not want
    assert barriers and undoable
