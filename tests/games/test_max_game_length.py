"""`max_game_length` is a true bound per game (#35): it was the default 100,000 for every game but Cacao. Each game
derives its bound from its rules (the derivation is in the method's docstring); random games, the longest options
included, stay within it, and so does a Block and Key table that only digs, which its safety stop ends (D9)."""

from __future__ import annotations

import random

import pytest

from boardlab.core import get_game

DEFAULT = 100_000
# (game, options that make the longest games): each random game below plays to the end within the bound
LONGEST = [("petrichor", {"length": "long", "final_turn": "full"}), ("pocket_mars", {"draft": True}),
           ("pocket_mars", {}), ("block_and_key", {}), ("cooper_island", {"reactivation": "any"}),
           ("cooper_island", {})]


@pytest.mark.parametrize("game", ["block_and_key", "cooper_island", "petrichor", "pocket_mars"])
def test_every_player_count_has_a_bound_of_its_own(game: str) -> None:
    g = get_game(game)
    bounds = [g.max_game_length(n) for n in range(g.min_players, g.max_players + 1)]
    assert all(0 < b < DEFAULT for b in bounds)
    with pytest.raises(Exception, match="players"):
        g.max_game_length(g.max_players + 1)


@pytest.mark.parametrize(("game", "options"), LONGEST, ids=[f"{g}-{'-'.join(o) or 'default'}" for g, o in LONGEST])
def test_random_games_stay_within_the_bound(game: str, options: dict) -> None:
    g = get_game(game)
    rng = random.Random(35)
    for players in range(max(g.min_players, 2 if options.get("draft") else 1), g.max_players + 1):
        bound = g.max_game_length(players)
        state = g.new_game(players, players, **options)
        while not state.is_over:
            assert len(state.history) < bound
            state.apply(rng.choice(state.legal_actions()))
        assert len(state.history) <= bound


def test_block_and_key_safety_stop_ends_a_table_that_only_digs() -> None:
    """The rules let two players dig and return blocks for ever; the engine ends the game at the end of the turn
    that reaches SAFETY_DECISIONS, scored as usual, within `max_game_length`."""
    from boardlab.games.block_and_key.rules import SAFETY_DECISIONS

    g = get_game("block_and_key")
    state = g.new_game(2, 5)
    rng = random.Random(5)
    for _ in range(g.max_game_length(2)):  # no endless loop if the stop is missing
        if state.is_over:
            break
        legal = state.legal_actions()
        digs = [a for a in legal if a[0] in ("dig", "orient", "return", "draw", "keep", "stop")]
        state.apply(rng.choice(digs or legal))
        assert not any(a[0] in ("place", "claim") for a in state.history[-1:])
    assert state.is_over and SAFETY_DECISIONS <= len(state.history) <= g.max_game_length(2)
    assert len(state.scores()) == 2


def test_cooper_island_bound_is_its_rounds_times_seats_times_the_per_round_limit() -> None:
    """The stated bound follows from the stated limit: the built-in rounds x the seats x DECISIONS_PER_SEAT_ROUND
    (docs/rules/cooper_island.md, D29); random games, the open reactivations included, use under half of it per
    seat and round, so the stop is a bound and not a rule a played game meets."""
    from boardlab.games.cooper_island.components import components
    from boardlab.games.cooper_island.rules import DECISIONS_PER_SEAT_ROUND

    g = get_game("cooper_island")
    rounds = components().rounds
    assert rounds == 5
    for players in range(g.min_players, g.max_players + 1):
        assert g.max_game_length(players) == rounds * players * DECISIONS_PER_SEAT_ROUND
        for seed, options in enumerate(({}, {"reactivation": "any"}) * 3):
            state, rng = g.new_game(players, seed, **options), random.Random(seed)
            while not state.is_over:
                state.apply(rng.choice(state.legal_actions()))
            assert state.round == rounds  # ended by its rounds, not by the stop
            assert len(state.history) < rounds * players * DECISIONS_PER_SEAT_ROUND / 2


def test_cooper_island_safety_stop_ends_the_game_at_its_decision() -> None:
    """The stop (D29) ends the game, scored as it stands, with the decision that makes `stop_at`: no decision is
    asked after it, whatever the step under way."""
    g = get_game("cooper_island")
    state, rng = g.new_game(3, 4), random.Random(4)
    for _ in range(40):
        state.apply(rng.choice(state.legal_actions()))
    state.stop_at = len(state.history) + 9
    while not state.is_over:
        assert len(state.history) < state.stop_at
        state.apply(rng.choice(state.legal_actions()))
    assert len(state.history) == state.stop_at and state.legal_actions() == []
    assert len(state.scores()) == 3 and state.winners()
    assert state.view(0)["phase"] == "over"
