"""Random PettingZoo steps per second for every boardlab game against `connect_four_v3`, in one run (#35).

    .venv/bin/pip install pygame          # PettingZoo's classic games import it
    .venv/bin/python benchmarks/rl_steps.py --seconds 20

Each env plays random legal actions (from the action mask, as a learner's rollout would) for about
`--seconds` wall-clock seconds in alternation with connect_four_v3 (interleaved rounds, so a change in
the machine's load hits both), through the wrapped AEC env (`env.last()`, `env.step()`), observations
included. Prints steps/s and the ratio to connect_four_v3, and a Markdown table for docs/benchmarks.md.
"""

from __future__ import annotations

import argparse
import platform
import time
from collections.abc import Callable
from datetime import date

import numpy as np


def run_steps(make: Callable[[], object], budget: float, seed: int) -> tuple[int, float]:
    """Steps taken and seconds spent by random play in fresh games, for about `budget` seconds."""
    env = make()
    rng = np.random.default_rng(seed)
    steps, spent, game = 0, 0.0, 0
    while spent < budget:
        t0 = time.perf_counter()
        env.reset(seed=seed + game)
        for _agent in env.agent_iter():
            obs, _, term, trunc, _ = env.last()
            action = None if term or trunc else int(rng.choice(np.flatnonzero(obs["action_mask"])))
            env.step(action)
            steps += 1
        spent += time.perf_counter() - t0
        game += 1
    return steps, spent


def main(argv: list[str] | None = None) -> None:
    from pettingzoo.classic import connect_four_v3

    import boardlab
    from boardlab.rl import pettingzoo as bpz

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seconds", type=float, default=20.0, help="per env, split over --rounds")
    ap.add_argument("--rounds", type=int, default=4)
    ap.add_argument("--players", type=int, default=2)
    args = ap.parse_args(argv)
    envs: dict[str, Callable[[], object]] = {"connect_four_v3": connect_four_v3.env}
    for name in boardlab.games():
        envs[name] = lambda name=name: bpz.env(name, players=args.players)
    totals = {k: [0, 0.0] for k in envs}
    for r in range(args.rounds):
        for k, make in envs.items():
            steps, spent = run_steps(make, args.seconds / args.rounds, 1000 * r)
            totals[k][0] += steps
            totals[k][1] += spent
    base = totals["connect_four_v3"][0] / totals["connect_four_v3"][1]
    print(f"{date.today()} {platform.processor() or platform.machine()} python {platform.python_version()}")
    print("| env | steps/s | × connect_four_v3 |\n|---|---:|---:|")
    for k, (steps, spent) in totals.items():
        rate = steps / spent
        print(f"| {k} | {rate:,.0f} | {rate / base:.3f} |")


if __name__ == "__main__":
    main()
