"""Who is asked, and what, tells nobody a secret: for every installed game, the public shape of what follows a
position (which seat decides, the kind of question, how many questions in a row before play passes) is the
same in every world a watching seat cannot tell apart from the true one.

Why: the other seats see every question (the view's `current_player` and decision, the time a reply takes). An
engine that answers a one-option question itself, or skips a question nobody could answer differently, makes
the question's presence depend on the deciding seat's hidden cards (#33: Petrichor asked "second action?" only
when the hand held a pair or four cards).

How: random games; at sampled positions, for every seat S that is not deciding, resample everything S cannot see
(`determinize`, as the bots' `Observation` does) and follow the true continuation in each world, as long as
S can read the actions (`action_visible`) and they are legal there (an action S saw refutes the worlds where
it was impossible), until play passes from the deciding seat. After every action the shape must be the one
of the true game, unless the world was refuted by what S saw: a chance outcome or a card shown face up that
differs in S's view, after an action the game itself counts as revealing or drawing (`undo_barrier`). After
an action that reveals nothing, a world whose view differs at all is the leak: the engine went on differently
by itself (answered a question it would ask in the true game, or skipped one).
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from boardlab.core import get_game
from boardlab.core.game import State
from boardlab.core.registry import installed_games
from boardlab.core.rng import Rng
from depth import examples

SHAPE_KEYS = ("current_player", "decision", "phase")
"""The view's keys that name the pending question (games use `decision` or `phase`); `options` are left out."""

WORLDS = 6
"""Worlds sampled per watching seat and position."""


def shape(state: State, seat: int) -> tuple[Any, ...]:
    """The public shape of the pending question as `seat` sees it: who decides, what kind of question."""
    view = state.view(seat)
    decision = view.get("decision")
    if isinstance(decision, dict):
        decision = {k: v for k, v in decision.items() if k != "options"}
    return state.current_player, decision, view.get("phase"), state.game.decision_kind(state)


def rest(state: State, seat: int) -> dict[str, Any]:
    """Everything else `seat` sees: a world whose rest differs from the true one was refuted by what the seat saw
    (a chance outcome, a card shown), so its shape proves nothing."""
    return {k: v for k, v in state.view(seat).items() if k not in SHAPE_KEYS}


def continuation(state: State, rng: random.Random, limit: int) -> list[Any]:
    """The true game's next actions from `state`: the deciding seat's run and the first action after it."""
    s = state.clone()
    first = s.current_player
    out: list[Any] = []
    while not s.is_over and len(out) < limit:
        who = s.current_player
        a = rng.choice(s.legal_actions())
        out.append(a)
        s.apply(a)
        if who != first:
            break
    return out


def check_position(state: State, actions: list[Any], salt: int) -> int:
    """Compare the true continuation with every sampled world of every watching seat; the number of world
    steps compared."""
    game = state.game
    decider = state.current_player
    compared = 0
    for seat in range(state.num_players):
        if seat == decider:
            continue
        for k in range(WORLDS):
            true, world = state.clone(), state.determinize(seat, Rng(salt * 31 + k))
            assert world.view(seat) == true.view(seat), "a determinization must look the same to the seat"
            for a in actions:
                if true.current_player == seat:
                    break  # the watching seat decides: it knows its own cards
                if not game.action_visible(true, a, seat):
                    break
                legal = world.legal_actions()
                assert legal or world.is_over, (
                    f"seat {seat} sees a question with no answer in a world it cannot rule out: {shape(world, seat)}")
                if a not in legal:
                    break  # the action S saw refutes this world
                before = true.clone()
                true.apply(a)
                world.apply(a)
                if rest(world, seat) != rest(true, seat):
                    barrier = game.undo_barrier(before, a, true)  # not in the assert: pytest cannot name mypyc's
                    assert barrier, (
                        f"after {a}, which shows nothing and draws nothing (no undo barrier), seat {seat} sees "
                        f"{rest(world, seat)} in a world it could not tell from the true one, where it sees "
                        f"{rest(true, seat)}: the engine moved on differently by itself")
                    break  # refuted by what the action showed (a draw, a roll, cards face up)
                assert shape(world, seat) == shape(true, seat), (
                    f"after {a} seat {seat} would see {shape(world, seat)} in a world it cannot tell from the true "
                    f"one, where it sees {shape(true, seat)}: the question tells seat {seat} about hidden cards")
                compared += 1
    return compared


GAMES = installed_games()
POSITIONS = examples(80)
"""Positions examined per game (spread over the player counts); each costs a few dozen clones."""


@pytest.mark.parametrize("name", GAMES)
def test_who_is_asked_depends_only_on_public_information(name: str) -> None:
    game = get_game(name)
    counts = [n for n in range(max(2, game.min_players), game.max_players + 1)]
    rng = random.Random(0x33)
    compared = 0
    checked = 0
    seed = 0
    while checked < POSITIONS:
        players = counts[seed % len(counts)]
        seed += 1
        state = game.new_game(players, seed)
        while not state.is_over and checked < POSITIONS:
            if rng.random() < 0.1:
                compared += check_position(state, continuation(state, rng, 12), seed * 1000 + checked)
                checked += 1
            state.apply(rng.choice(state.legal_actions()))
    assert compared >= POSITIONS, f"only {compared} world steps compared: the test would prove nothing"
