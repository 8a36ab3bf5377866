"""Time per observation: every boardlab game's hand-made tensor (rl/encoders/) and its hashed view
(`Game.encode_observation`, what every game used before #35), against `connect_four_v3`'s observation, in one run.

    pip install --target /tmp/pg pygame              # PettingZoo's classic games import it
    PYTHONPATH=/tmp/pg .venv/bin/python benchmarks/rl_encode.py --seconds 2

Positions are collected first from seeded random games (every seat of every position); then the encoders run over
the same positions in interleaved rounds (each game's hashed and hand-made encoders and connect_four_v3, in turn,
so that a change in the machine's load hits them alike). Both boardlab timings include building the seat's view,
as `rl.common.observation` does. Prints µs per observation and the ratio of connect_four_v3's time to each (1.0:
as fast as connect_four_v3, below 1: slower), as a Markdown table for docs/benchmarks.md.
"""

from __future__ import annotations

import argparse
import platform
import random
import time
from collections.abc import Callable
from datetime import date
from typing import Any

import numpy as np


def per_call(fn: Callable[[Any], Any], items: list[Any], budget: float) -> tuple[int, float]:
    """Calls and seconds spent calling `fn` over `items` (cycling) for about `budget` seconds."""
    calls, spent = 0, 0.0
    while spent < budget:
        t0 = time.perf_counter()
        for item in items:
            fn(item)
        spent += time.perf_counter() - t0
        calls += len(items)
    return calls, spent


def boardlab_positions(name: str, players: int, games: int) -> list[tuple[Any, int]]:
    """(state, seat) for every seat of every position of `games` seeded random games."""
    from boardlab.core import get_game

    g = get_game(name)
    out = []
    for seed in range(games):
        state, rng = g.new_game(players, seed), random.Random(seed)
        while not state.is_over:
            out += [(state.clone(), seat) for seat in range(players)]
            state.apply(rng.choice(state.legal_actions()))
    return out


def connect_four_positions(games: int) -> tuple[Any, list[Any]]:
    """The raw connect_four_v3 env and a snapshot (board, agent) of every position of `games` random games."""
    from pettingzoo.classic import connect_four_v3

    env = connect_four_v3.env()
    raw = env.unwrapped
    rng = np.random.default_rng(0)
    out = []
    for game in range(games):
        env.reset(seed=game)
        for _agent in env.agent_iter():
            obs, _, term, trunc, _ = env.last()
            for a in raw.agents:
                out.append((list(raw.board), a))
            env.step(None if term or trunc else int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    return raw, out


def main(argv: list[str] | None = None) -> None:
    import boardlab
    from boardlab.rl.common import observation
    from boardlab.rl.encoders import encoder_for

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seconds", type=float, default=2.0, help="per encoder, split over --rounds")
    ap.add_argument("--rounds", type=int, default=4)
    ap.add_argument("--players", type=int, default=2)
    ap.add_argument("--games", type=int, default=2, help="random games whose positions are encoded")
    args = ap.parse_args(argv)

    raw, c4 = connect_four_positions(20)

    def c4_observe(item: tuple[list[int], str]) -> Any:
        raw.board = item[0]
        return raw.observe(item[1])

    timers: dict[str, tuple[Callable[[Any], Any], list[Any]]] = {"connect_four_v3": (c4_observe, c4)}
    for name in boardlab.games():
        if encoder_for(name) is None:
            continue
        items = boardlab_positions(name, args.players, args.games)
        timers[f"{name} hashed"] = (lambda sv: sv[0].game.encode_observation(sv[0], sv[1]), items)
        timers[f"{name} hand-made"] = (lambda sv: observation(sv[0], sv[1]), items)
    totals = {k: [0, 0.0] for k in timers}
    for _ in range(args.rounds):
        for k, (fn, items) in timers.items():
            calls, spent = per_call(fn, items, args.seconds / args.rounds)
            totals[k][0] += calls
            totals[k][1] += spent
    base = totals["connect_four_v3"][1] / totals["connect_four_v3"][0]
    print(f"{date.today()} {platform.processor() or platform.machine()} python {platform.python_version()}")
    print("| encoder | µs per observation | × connect_four_v3 (its time / this time) |\n|---|---:|---:|")
    for k, (calls, spent) in totals.items():
        each = spent / calls
        print(f"| {k} | {each * 1e6:,.1f} | {base / each:.3f} |")


if __name__ == "__main__":
    main()
