"""Bots on the toy hidden-hand game: legality, seeded reproducibility, the factory, and strength."""

from __future__ import annotations

import pytest
from bots_toygame import ToyState, new_toy

from boardlab.bots import BOT_KINDS, LEVELS, GreedyBot, MctsBot, RandomBot, bot_options, make_bot
from boardlab.bots.arena import match, summarize, wilson
from boardlab.core import Action, Agent, Observation, TimedAgent, observe, play_game

FAST = {"random": {}, "greedy": {"samples": 2}, "mcts": {"iterations": 60}}


class LegalityChecker:
    """Wraps an agent and fails the test at once if it returns an illegal action."""

    def __init__(self, agent: Agent) -> None:
        self.agent = agent
        self.name = agent.name
        self.calls = 0

    def choose(self, obs: Observation) -> Action:
        action = self.agent.choose(obs)
        assert action in obs.legal_actions, f"{self.name} chose illegal {action}"
        self.calls += 1
        return action


def test_factory_knows_every_kind_and_level() -> None:
    assert set(BOT_KINDS) == {"random", "greedy", "mcts"}
    assert isinstance(make_bot("random", 1), RandomBot)
    assert isinstance(make_bot("greedy", 1), GreedyBot)
    assert isinstance(make_bot("mcts", 1, iterations=5), MctsBot)
    for level, (kind, _) in LEVELS.items():
        assert make_bot(level, 1).name == kind
    assert "iterations" in bot_options("mcts") and "seconds" in bot_options("mcts")


def test_factory_refuses_unknown_kind_and_option() -> None:
    with pytest.raises(ValueError, match="unknown bot kind"):
        make_bot("alphazero")
    with pytest.raises(TypeError, match="iterations"):
        make_bot("random", iterations=10)
    with pytest.raises(ValueError):
        make_bot("mcts", iterations=0)


@pytest.mark.parametrize("kind", sorted(BOT_KINDS))
def test_bots_only_return_legal_actions(kind: str) -> None:
    for seed in range(3):
        agents = [LegalityChecker(make_bot(kind, seed + s, **FAST[kind])) for s in range(2)]
        state = play_game(new_toy(seed), agents)
        assert state.is_over and all(a.calls > 0 for a in agents)


def test_timed_agent_counts_each_seats_moves() -> None:
    """The wrapper the arena and the simulation runner share: it passes the choice through unchanged."""
    checkers = [LegalityChecker(make_bot("random", s)) for s in range(2)]
    timed = [TimedAgent(c) for c in checkers]
    state = play_game(new_toy(7), timed)
    plain = play_game(new_toy(7), [make_bot("random", s) for s in range(2)])
    assert [str(a) for a in state.history] == [str(a) for a in plain.history]
    assert [t.moves for t in timed] == [c.calls for c in checkers]
    assert sum(t.moves for t in timed) == len(state.history)
    assert all(0 < t.searched <= t.moves and t.seconds >= t.max_seconds > 0 for t in timed)


@pytest.mark.parametrize("kind", sorted(BOT_KINDS))
def test_same_seed_same_game_other_seed_other_game(kind: str) -> None:
    def history(bot_seed: int) -> list[str]:
        agents = [make_bot(kind, bot_seed + s, **FAST[kind]) for s in range(2)]
        return [str(a) for a in play_game(new_toy(5), agents).history]

    assert history(1) == history(1)
    if kind != "greedy":  # greedy is nearly deterministic by design; its seed only breaks ties
        assert any(history(1) != history(s) for s in (2, 3, 4))


def test_mcts_seconds_budget_is_respected() -> None:
    import time

    bot = MctsBot(seed=1, seconds=0.05)
    state = new_toy(3)
    start = time.perf_counter()
    action = bot.choose(observe(state, state.current_player))
    assert time.perf_counter() - start < 0.5
    assert action in state.legal_actions() and bot.last_iterations > 0


def test_mcts_handles_actions_that_exist_only_in_some_determinizations() -> None:
    # The follower's answers depend on its hidden hand: the tree below the leader's move must hold
    # children for many different follower hands, each counted as available only when it was.
    state = new_toy(7)
    bot = MctsBot(seed=0, iterations=300)
    root_seat = state.current_player
    assert root_seat is not None
    action = bot.choose(observe(state, root_seat))
    assert action in state.legal_actions()
    assert bot.last_iterations == 300


def test_mcts_beats_random_on_the_toy_game() -> None:
    results = match("mcts", "random", games=16, seed=11, game=ToyState.game, iterations=120)
    s = summarize(results)
    assert s["win_rate_a"] >= 0.8, s


def test_arena_pairs_deals_and_swaps_seats() -> None:
    results = match("random", "random", games=4, seed=3, game=ToyState.game)
    assert [(r.deal_seed, r.seat_a) for r in results] == [(3, 0), (3, 1), (4, 0), (4, 1)]
    assert all(0.0 <= r.score_a <= 1.0 for r in results)
    again = match("random", "random", games=4, seed=3, game=ToyState.game, jobs=2)
    assert [r.history for r in results] == [r.history for r in again]
    assert [r.scores for r in results] == [r.scores for r in again]
    assert len({r.history for r in results}) == 4


def test_wilson_interval() -> None:
    low, high = wilson(150, 200)
    assert 0.68 < low < 0.70 and 0.80 < high < 0.81
    assert wilson(0, 10)[0] == 0.0 and wilson(10, 10)[1] == pytest.approx(1.0)


def test_mcts_takes_the_games_playout_depth_unless_told() -> None:
    """`playout_depth="game"` (the default) is the game's measured depth: the same search as that depth given
    explicitly, for a game that keeps the core's 12 and for one that declares its own."""
    from boardlab.core import get_game

    for name in ("cacao", "block_and_key"):
        game = get_game(name)
        state = game.new_game(2, 5)
        while len(state.legal_actions()) < 2:
            state.apply(state.legal_actions()[0])
        obs = observe(state, state.current_player)
        tuned = MctsBot(seed=3, iterations=30)
        told = MctsBot(seed=3, iterations=30, playout_depth=game.playout_depth)
        assert tuned.choose(obs) == told.choose(obs)
        assert tuned.last_stats == told.last_stats
    assert get_game("cacao").playout_depth == 12
    with pytest.raises(ValueError):
        MctsBot(playout_depth=-1)
    with pytest.raises(ValueError):
        MctsBot(playout_depth="deep")


def test_heavy_playouts_weigh_that_many_samples_per_decision(monkeypatch: pytest.MonkeyPatch) -> None:
    """`playout_samples=k`: every playout decision with a choice evaluates k candidates one move ahead for the
    deciding seat (and the leaf evaluation follows); with 1 no candidate is evaluated. The search stays
    reproducible and plays legal moves."""
    from bots_toygame import ToyGame

    calls: list[int] = []
    real = ToyGame.evaluate

    def counting(self: ToyGame, state: ToyState, seat: int) -> float:
        calls.append(seat)
        return real(self, state, seat)

    monkeypatch.setattr(ToyGame, "evaluate", counting)
    monkeypatch.setattr(ToyGame, "evaluate_all", lambda self, s: [real(self, s, q) for q in range(s.num_players)])
    state = new_toy(4)
    obs = observe(state, state.current_player)
    light = MctsBot(seed=2, iterations=40, playout_depth=3, playout_samples=1)
    light.choose(obs)
    assert calls == []  # (the leaves are scored by evaluate_all, not counted here)
    heavy = MctsBot(seed=2, iterations=40, playout_depth=3, playout_samples=3)
    action = heavy.choose(obs)
    assert action in obs.legal_actions
    assert calls and len(calls) % 3 == 0 and len(calls) <= 40 * 3 * 3
    again = MctsBot(seed=2, iterations=40, playout_depth=3, playout_samples=3)
    assert again.choose(obs) == action and again.last_stats == heavy.last_stats
    assert heavy.last_stats != light.last_stats
    for bad in (0, -1):
        with pytest.raises(ValueError):
            MctsBot(playout_samples=bad)
    with pytest.raises(TypeError):  # compiled or not
        MctsBot(playout_samples=1.5)  # type: ignore[arg-type]


def test_mast_playouts_learn_action_means_within_one_search() -> None:
    """`mast=e`: playouts pick by the mean reward each action earned its seat in this search (uniformly with
    probability e). Every action of an iteration is counted once, the table starts empty on every move, the
    search stays reproducible and plays legal moves, and bad settings are refused."""
    state = new_toy(3)
    obs = observe(state, state.current_player)
    plain = MctsBot(seed=5, iterations=60, playout_depth=4)
    plain.choose(obs)
    bot = MctsBot(seed=5, iterations=60, playout_depth=4, mast=0.3)
    action = bot.choose(obs)
    assert action in obs.legal_actions
    counts = sum(int(stat[1]) for stat in bot._mast.values())
    assert counts >= 60  # at least the action each iteration expanded, then its playout's
    assert all(0.0 <= stat[0] <= stat[1] for stat in bot._mast.values())  # rewards are in [0, 1]
    assert bot.last_stats != plain.last_stats  # the playouts changed
    again = MctsBot(seed=5, iterations=60, playout_depth=4, mast=0.3)
    assert again.choose(obs) == action and again.last_stats == bot.last_stats and again._mast == bot._mast
    before = bot.rng.copy()
    bot.choose(obs)  # a second search starts from an empty table: it ends as a fresh bot's with that rng does
    fresh = MctsBot(seed=0, iterations=60, playout_depth=4, mast=0.3)
    fresh.rng = before
    fresh.choose(obs)
    assert fresh._mast == bot._mast and fresh.last_stats == bot.last_stats
    for bad in (0, -0.1, 1.5, True, "yes"):
        with pytest.raises(ValueError):
            MctsBot(mast=bad)  # type: ignore[arg-type]
    with pytest.raises(ValueError):
        MctsBot(mast=0.2, playout_samples=2)


def test_mast_default_is_the_games(monkeypatch: pytest.MonkeyPatch) -> None:
    """`mast="game"` (the default) plays the game's `Game.mast`: none for a game that sets none, the game's share
    where it sets one (searching exactly as if told), and none when `playout_samples` chose the other policy."""
    state = new_toy(3)
    obs = observe(state, state.current_player)
    assert type(state.game).mast is None

    def search(**options: object) -> MctsBot:
        bot = MctsBot(seed=5, iterations=60, playout_depth=4, **options)  # type: ignore[arg-type]
        bot.choose(obs)
        return bot

    assert search()._mast == {} and search().last_stats == search(mast=None).last_stats
    monkeypatch.setattr(type(state.game), "mast", 0.3)
    default, told = search(), search(mast=0.3)
    assert default._mast and default._mast == told._mast and default.last_stats == told.last_stats
    assert search(mast=None)._mast == {}
    sampled = search(playout_samples=2)
    assert sampled._mast == {} and sampled.last_stats == search(mast=None, playout_samples=2).last_stats


def test_every_games_search_settings_are_valid_and_reach_the_levels() -> None:
    """Each game's `mast` is None or a share in (0, 1]; where a game sets one (Cooper Island, measured in
    docs/strength-log.md), the bot people play (`hard`, built without search options) plays its playouts with it."""
    import boardlab.games  # noqa: F401  (registers the games)
    from boardlab.core.registry import games, get_game

    for name in games():
        share = get_game(name).mast
        assert share is None or (isinstance(share, float) and 0 < share <= 1), (name, share)
    with_mast = [name for name in games() if get_game(name).mast is not None]
    assert with_mast, "no game sets a MAST share, so this test checks nothing"
    for name in with_mast:
        state = get_game(name).new_game(2, seed=3)
        while len(state.legal_actions()) < 2:
            state.apply(state.legal_actions()[0])
        bot = make_bot("hard", 0, seconds=None, iterations=30)
        assert isinstance(bot, MctsBot)
        bot.choose(observe(state, state.current_player))
        assert bot._mast, name  # the table filled: MAST playouts ran
        plain = make_bot("hard", 0, seconds=None, iterations=30, mast=None)
        assert isinstance(plain, MctsBot)
        plain.choose(observe(state, state.current_player))
        assert not plain._mast
