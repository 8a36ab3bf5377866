"""Bot-versus-bot matches for strength measurements: a library function that returns data, prints nothing.

Games come in pairs on the same deal with the seats swapped, so a lucky deal helps both bots once
(half of the games have each bot first). Everything is derived from one `seed`, so a match is
reproducible when the bots are budgeted by iterations. `python -m boardlab.bots.arena` prints a
JSON summary for quick experiments.
"""

from __future__ import annotations

import time
from collections.abc import Mapping, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import asdict, dataclass, field
from typing import Any

from boardlab.core import Game, TimedAgent, get_game, play_game
from boardlab.core.stats import wilson

from . import bot_options, make_bot


@dataclass(frozen=True)
class GameResult:
    """One finished game of a match, from bot A's point of view."""

    index: int
    deal_seed: int
    seat_a: int
    kinds: tuple[str, ...]  # bot kind per seat
    scores: tuple[int, ...]
    winners: tuple[int, ...]
    score_a: float  # 1 win, 0 loss, 1/k when A shares the win with k-1 others
    decisions: int
    seconds: tuple[float, ...]  # thinking time per seat (wall clock)
    cpu_seconds: tuple[float, ...]  # thinking time per seat (process CPU: what a quiet machine would take)
    max_move_seconds: tuple[float, ...]  # longest single decision per seat (wall clock)
    moves: tuple[int, ...]  # choose() calls per seat
    searched_moves: tuple[int, ...]  # calls with more than one legal action (the ones that think)
    iterations: tuple[int, ...] = field(default=())  # MCTS iterations per seat (0 for other kinds)
    history: tuple[str, ...] = field(default=())  # the action log: `game.replay` rebuilds the game

    def to_json(self) -> dict[str, Any]:
        return asdict(self)


def _options_for(kind: str, shared: Mapping[str, Any], own: Mapping[str, Any] | None) -> dict[str, Any]:
    accepted = set(bot_options(kind))
    return {**{k: v for k, v in shared.items() if k in accepted}, **(own or {})}


def play_one(
    index: int,
    kind_a: str,
    kind_b: str,
    seed: int,
    game: str | Game = "cacao",
    players: int = 2,
    game_options: Mapping[str, Any] | None = None,
    a_options: Mapping[str, Any] | None = None,
    b_options: Mapping[str, Any] | None = None,
    budgets: Mapping[str, Any] | None = None,
    max_decisions: int = 100_000,
) -> GameResult:
    """Game number `index` of a match: deal `seed + index // players`, bot A in seat `index % players`."""
    g = get_game(game) if isinstance(game, str) else game
    deal_seed = seed + index // players
    seat_a = index % players
    state = g.new_game(players, deal_seed, **dict(game_options or {}))
    kinds = tuple(kind_a if s == seat_a else kind_b for s in range(players))
    budgets = budgets or {}
    agents = []
    for s, kind in enumerate(kinds):
        own = a_options if s == seat_a else b_options
        bot_seed = (seed * 1_000_003 + index * 101 + s) & 0xFFFFFFFF
        agents.append(TimedAgent(make_bot(kind, bot_seed, **_options_for(kind, budgets, own))))
    play_game(state, agents, max_decisions)
    decisions = len(state.history)
    winners = tuple(state.winners())
    return GameResult(
        index=index,
        deal_seed=deal_seed,
        seat_a=seat_a,
        kinds=kinds,
        scores=tuple(s.total for s in state.scores()),
        winners=winners,
        score_a=1.0 / len(winners) if seat_a in winners else 0.0,
        decisions=decisions,
        seconds=tuple(a.seconds for a in agents),
        cpu_seconds=tuple(a.cpu_seconds for a in agents),
        max_move_seconds=tuple(a.max_seconds for a in agents),
        moves=tuple(a.moves for a in agents),
        searched_moves=tuple(a.searched for a in agents),
        iterations=tuple(int(getattr(a.agent, "total_iterations", 0)) for a in agents),
        history=tuple(str(a) for a in state.history),
    )


def match(
    kind_a: str,
    kind_b: str,
    games: int = 200,
    seed: int = 0,
    jobs: int = 1,
    game: str | Game = "cacao",
    players: int = 2,
    game_options: Mapping[str, Any] | None = None,
    a_options: Mapping[str, Any] | None = None,
    b_options: Mapping[str, Any] | None = None,
    **budgets: Any,
) -> list[GameResult]:
    """Play `games` games of bot A against bot(s) B and return the per-game results, in order.

    `budgets` (e.g. iterations=, seconds=, samples=) go to every bot whose kind accepts them;
    `a_options`/`b_options` override them per side. `jobs` > 1 plays games in that many processes.
    """
    if games < 1:
        raise ValueError("a match needs games >= 1")
    args = [(i, kind_a, kind_b, seed, game, players, game_options, a_options, b_options, budgets)
            for i in range(games)]
    if jobs <= 1:
        return [play_one(*a) for a in args]
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        return list(pool.map(_play_args, args))


def _play_args(args: tuple[Any, ...]) -> GameResult:
    return play_one(*args)


def summarize(results: Sequence[GameResult]) -> dict[str, Any]:
    """Win rate of bot A (ties count half) with its 95% Wilson interval, and per-side timing."""
    n = len(results)
    score = sum(r.score_a for r in results)
    low, high = wilson(score, n)
    a_sec = sum(r.seconds[r.seat_a] for r in results)
    b_sec = sum(sum(s for i, s in enumerate(r.seconds) if i != r.seat_a) for r in results)
    a_cpu = sum(r.cpu_seconds[r.seat_a] for r in results)
    b_cpu = sum(sum(s for i, s in enumerate(r.cpu_seconds) if i != r.seat_a) for r in results)
    a_moves = sum(r.searched_moves[r.seat_a] for r in results)
    b_moves = sum(sum(m for i, m in enumerate(r.searched_moves) if i != r.seat_a) for r in results)
    a_iters = sum(r.iterations[r.seat_a] for r in results) if results and results[0].iterations else 0
    return {
        "games": n,
        "a": results[0].kinds[results[0].seat_a] if results else None,
        "wins_a": sum(1 for r in results if r.score_a == 1.0),
        "ties": sum(1 for r in results if 0.0 < r.score_a < 1.0),
        "losses_a": sum(1 for r in results if r.score_a == 0.0),
        "win_rate_a": score / n if n else 0.0,
        "wilson95_a": (low, high),
        "a_first_win_rate": _rate([r for r in results if r.seat_a == 0]),
        "a_second_win_rate": _rate([r for r in results if r.seat_a != 0]),
        "a_seconds_per_searched_move": a_sec / a_moves if a_moves else 0.0,
        "b_seconds_per_searched_move": b_sec / b_moves if b_moves else 0.0,
        "a_cpu_seconds_per_searched_move": a_cpu / a_moves if a_moves else 0.0,
        "b_cpu_seconds_per_searched_move": b_cpu / b_moves if b_moves else 0.0,
        "a_searched_moves": a_moves,
        "a_max_move_seconds": max((r.max_move_seconds[r.seat_a] for r in results), default=0.0),
        "a_iterations_per_second": a_iters / a_sec if a_sec else 0.0,
        "a_iterations_per_cpu_second": a_iters / a_cpu if a_cpu else 0.0,
        "mean_decisions": sum(r.decisions for r in results) / n if n else 0.0,
    }


def _rate(results: Sequence[GameResult]) -> float | None:
    return sum(r.score_a for r in results) / len(results) if results else None


def _main(argv: Sequence[str] | None = None) -> None:
    import argparse
    import json

    parser = argparse.ArgumentParser(description="Bot A vs bot B; prints a JSON summary.")
    parser.add_argument("kind_a")
    parser.add_argument("kind_b")
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--game", default="cacao")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--iterations", type=int)
    parser.add_argument("--seconds", type=float)
    parser.add_argument("--playout-depth", type=int, default=-2, help="-1: to the end; default: the bot's")
    parser.add_argument("--exploration", type=float)
    parser.add_argument("--samples", type=int)
    parser.add_argument("--json-out", help="also write per-game results here")
    ns = parser.parse_args(argv)
    budgets: dict[str, Any] = {k: v for k, v in (("iterations", ns.iterations), ("seconds", ns.seconds),
                                                  ("exploration", ns.exploration), ("samples", ns.samples))
                               if v is not None}
    if ns.playout_depth != -2:
        budgets["playout_depth"] = None if ns.playout_depth == -1 else ns.playout_depth
    start = time.perf_counter()
    results = match(ns.kind_a, ns.kind_b, ns.games, ns.seed, ns.jobs, ns.game, ns.players, **budgets)
    summary = {"kind_a": ns.kind_a, "kind_b": ns.kind_b, "budgets": budgets, **summarize(results),
               "wall_seconds": time.perf_counter() - start}
    if ns.json_out:
        with open(ns.json_out, "w") as f:
            json.dump({"summary": summary, "games": [r.to_json() for r in results]}, f, indent=1)
    print(json.dumps(summary, indent=1))


if __name__ == "__main__":
    _main()
