"""Benchmarks: random-playout speed of the engine and MCTS speed, one core, seeded.

A decision is one uniformly chosen legal action (`State.random_action`: the list's entry at a random index,
which a game may find without building the list) + one checked `apply()` of it (the work a random playout does).
Numbers go to a JSON file and docs/benchmarks.md.

Both the games' loops and the anchor's loop choose their moves with Python's standard `random.Random`, so the
ratio to the anchor does not depend on whether boardlab's own generator is native (C) or pure Python.
"""

from __future__ import annotations

import os
import platform
import random
import time
from datetime import UTC, datetime
from typing import Any

from boardlab.bots import make_bot
from boardlab.core import Rng, get_game, observe


def random_playouts(game: str, players: int, seconds: float, seed: int = 0) -> dict[str, float]:
    """Play random games for about `seconds`; games/s and decisions/s (wall), and decisions per CPU second
    (the steadier figure on a shared machine)."""
    g = get_game(game)
    rng = random.Random(seed)
    games = decisions = 0
    start, cpu0 = time.perf_counter(), time.process_time()
    while time.perf_counter() - start < seconds:
        state = g.new_game(players, seed + games)
        while not state.is_over:
            state.apply(state.random_action(rng.randrange))  # = legal[rng.randrange(len(legal))], maybe listless
            decisions += 1
        games += 1
    elapsed, cpu = time.perf_counter() - start, time.process_time() - cpu0
    return {"games": games, "decisions": decisions, "seconds": elapsed, "cpu_seconds": cpu,
            "games_per_s": games / elapsed, "decisions_per_s": decisions / elapsed,
            "decisions_per_cpu_s": decisions / cpu if cpu else 0.0}


def anchor(seconds: float, seed: int = 0) -> dict[str, Any] | None:
    """The same random-playout loop on OpenSpiel's C++ backgammon driven from Python (chance outcomes
    sampled), so that figures taken on a busy machine can be read as a ratio to it. None without pyspiel
    (it comes with the `rl` extra)."""
    try:
        import pyspiel  # type: ignore[import-not-found]
    except ImportError:
        return None
    game = pyspiel.load_game("backgammon")
    rng = random.Random(seed)
    games = decisions = 0
    start, cpu0 = time.perf_counter(), time.process_time()
    while time.perf_counter() - start < seconds:
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                state.apply_action(outcomes[rng.randrange(len(outcomes))][0])
            else:
                legal = state.legal_actions()
                state.apply_action(legal[rng.randrange(len(legal))])
                decisions += 1
        games += 1
    elapsed, cpu = time.perf_counter() - start, time.process_time() - cpu0
    return {"game": "open_spiel backgammon (C++)", "games": games, "decisions": decisions, "seconds": elapsed,
            "decisions_per_s": decisions / elapsed, "decisions_per_cpu_s": decisions / cpu if cpu else 0.0}


def mcts_speed(game: str, players: int, iterations: int, moves: int, seed: int = 0) -> dict[str, float]:
    """Time MCTS (fixed iterations) on the first `moves` decisions that offer a real choice."""
    g = get_game(game)
    state = g.new_game(players, seed)
    bot = make_bot("mcts", seed, iterations=iterations)
    rng = Rng(seed)
    timed = 0
    total = 0.0
    while not state.is_over and timed < moves:
        seat = state.current_player
        assert seat is not None
        obs = observe(state, seat)
        if len(g.search_actions(state)) > 1:
            t0 = time.perf_counter()
            action = bot.choose(obs)
            total += time.perf_counter() - t0
            timed += 1
        else:
            action = obs.legal_actions[rng.randbelow(len(obs.legal_actions))]
        state.apply(action)
    return {"moves": timed, "iterations_per_move": iterations, "ms_per_move": 1000 * total / max(1, timed),
            "iterations_per_s": iterations * timed / total if total else 0.0}


def machine() -> dict[str, Any]:
    cpu = platform.processor() or platform.machine()
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as f:
            for line in f:
                if line.startswith("model name"):
                    cpu = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    return {"cpu": cpu, "cores": os.cpu_count(), "python": platform.python_version(),
            "platform": platform.platform(), "date": datetime.now(UTC).strftime("%Y-%m-%d")}


def run(game: str, quick: bool = False, seed: int = 0) -> dict[str, Any]:
    """The full benchmark for one game: random playouts and MCTS speed per player count."""
    g = get_game(game)
    secs = 0.5 if quick else 5.0
    results: dict[str, Any] = {"game": game, "machine": machine(), "quick": quick, "random": {}, "mcts": {},
                               "anchor": anchor(secs, seed)}
    for n in range(g.min_players, g.max_players + 1):
        results["random"][str(n)] = r = random_playouts(game, n, secs, seed)
        if results["anchor"] and results["anchor"]["decisions_per_cpu_s"]:
            r["ratio_to_anchor"] = r["decisions_per_cpu_s"] / results["anchor"]["decisions_per_cpu_s"]
    # MCTS at every multi-player table size (quick runs: the smallest only, to stay short).
    first = max(2, g.min_players)
    for n in [first] if quick else range(first, g.max_players + 1):
        results["mcts"][str(n)] = mcts_speed(game, n, iterations=50 if quick else 500, moves=2 if quick else 10,
                                             seed=seed)
    return results
