"""Bots finish games: random, greedy and ISMCTS (small budgets) through the core's game loop."""

from __future__ import annotations

import pytest
from ci_helpers import check_invariants, new

from boardlab.bots import make_bot
from boardlab.core.agent import play_game


@pytest.mark.parametrize("kinds,players", [(("random", "greedy"), 2), (("random", "random", "random", "random"), 4),
                                           (("mcts", "random"), 2)])
def test_bots_finish_games(kinds: tuple[str, ...], players: int) -> None:
    bots = [make_bot(k, seed=i, **({"iterations": 8} if k == "mcts" else {})) for i, k in enumerate(kinds)]
    s = play_game(new(players, 3), bots)
    assert s.is_over
    check_invariants(s)


def test_greedy_beats_random_mostly() -> None:
    wins = 0
    for seed in range(3):
        s = play_game(new(2, seed), [make_bot("greedy", seed=seed), make_bot("random", seed=seed)])
        wins += 0 in s.winners()
    assert wins >= 2


def test_search_actions_keep_a_small_sensible_set() -> None:
    """Bots pay with `auto`, give the cheapest cube or take an anchor for a fee, and do not search the
    value-losing free actions (storing an island cube, 4 → 1); people keep every legal action."""
    from ci_helpers import GAME, at, give, legal, play, skip_income

    s = skip_income(new(2, 0))
    play(s, "E", "res wood", "done", "E")  # the fee is due when the worker is placed (D5)
    assert s.todo[-1][0] == "fee"
    assert [str(a) for a in GAME.search_actions(s)] == ["anchor", "pay s coin"]
    s2 = new(2, 1)
    r = s2.current_player
    give(s2, r, "market", wood=4)
    at(s2, ("income", r))
    acts = [str(a) for a in GAME.search_actions(s2)]
    assert "ex any" in legal(s2) and "ex any" not in acts
    assert "store h 18" in legal(s2) and "store h 18" not in acts and "store m wood" in acts


def test_evaluate_all_equals_evaluate_per_seat() -> None:
    import random

    from ci_helpers import GAME

    s = new(3, 2)
    rng = random.Random(2)
    for _ in range(120):
        s.apply(rng.choice(s.legal_actions()))
    assert GAME.evaluate_all(s) == [GAME.evaluate(s, q) for q in range(3)]


def test_easy_level_is_a_greedy_beginner_here_and_uniform_random_elsewhere() -> None:
    """#31: uniform random (the generic `easy`) never sails nor builds in Cooper Island; the game's own `easy`
    preset (`Game.levels`) is greedy on one determinization, and other games keep the generic level."""
    from boardlab.bots import GreedyBot, RandomBot

    easy = make_bot("easy", seed=1, game="cooper_island")
    assert isinstance(easy, GreedyBot) and easy.samples == 1
    assert isinstance(make_bot("easy", seed=1, game="cacao"), RandomBot)
    assert isinstance(make_bot("easy", seed=1), RandomBot)


def test_a_game_between_easy_bots_sails_and_builds() -> None:
    s = play_game(new(2, 5), [make_bot("easy", seed=q, game="cooper_island") for q in range(2)])
    assert s.is_over
    for q in range(2):
        assert s.score_of(q).breakdown["logs"] > 0, f"seat {q} never sailed"
    assert sum(len(P.cards) + P.built["fort"] for P in s.players) >= 2


def test_the_server_plays_the_games_own_easy_level() -> None:
    """A table's `easy` seat in the server asks the game's preset (the server passes the game's name)."""
    from boardlab.core import observe
    from boardlab.server.bots import BotJob, game_modules, run_job

    s = new(2, 7)
    seat = s.current_player
    job = BotJob("cooper_island", game_modules(), 2, 7, {}, (), seat, "easy", 11, 1.0)
    want = make_bot("greedy", seed=11, samples=1).choose(observe(s, seat))
    assert run_job(job) == str(want)
