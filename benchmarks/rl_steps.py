"""Random PettingZoo steps per second for every boardlab game against `connect_four_v3`, in one run (#35).

    .venv/bin/pip install pygame          # PettingZoo's classic games import it
    .venv/bin/python benchmarks/rl_steps.py --seconds 20

Each env plays random legal actions (from the action mask, as a learner's rollout would) for about
`--seconds` wall-clock seconds in alternation with connect_four_v3 (interleaved rounds, so a change in
the machine's load hits both), through the wrapped AEC env (`env.last()`, `env.step()`), observations
included. Prints steps/s and the ratio to connect_four_v3, by wall clock and by the process's CPU time (on a
shared machine the CPU ratio is the steadier: a step's wall time grows with the other jobs' load, its CPU time
much less), with the load average before and after, as a Markdown table for docs/benchmarks.md.
"""

from __future__ import annotations

import argparse
import os
import platform
import time
from collections.abc import Callable
from datetime import date

import numpy as np


def run_steps(make: Callable[[], object], budget: float, seed: int) -> tuple[int, float, float]:
    """Steps taken, wall seconds and CPU seconds spent by random play in fresh games, for about `budget` seconds."""
    env = make()
    rng = np.random.default_rng(seed)
    steps, spent, game = 0, 0.0, 0
    cpu0 = time.process_time()
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
    return steps, spent, time.process_time() - cpu0


def main(argv: list[str] | None = None) -> None:
    from pettingzoo.classic import connect_four_v3

    import boardlab
    from boardlab.rl import pettingzoo as bpz

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seconds", type=float, default=20.0, help="per env, split over --rounds")
    ap.add_argument("--rounds", type=int, default=4)
    ap.add_argument("--players", type=int, default=2)
    ap.add_argument("--games", default="", help="comma-separated games (default: every registered game)")
    args = ap.parse_args(argv)
    envs: dict[str, Callable[[], object]] = {"connect_four_v3": connect_four_v3.env}
    for name in args.games.split(",") if args.games else boardlab.games():
        envs[name] = lambda name=name: bpz.env(name, players=args.players)
    load = os.getloadavg()
    totals = {k: [0, 0.0, 0.0] for k in envs}
    for r in range(args.rounds):
        for k, make in envs.items():
            for i, x in enumerate(run_steps(make, args.seconds / args.rounds, 1000 * r)):
                totals[k][i] += x
    base = totals["connect_four_v3"][0] / totals["connect_four_v3"][1]
    base_cpu = totals["connect_four_v3"][0] / totals["connect_four_v3"][2]
    mode = "native" if boardlab._compiled.COMPILED else "pure"
    print(f"{date.today()} {platform.processor() or platform.machine()} python {platform.python_version()} {mode};"
          f" load average {load[0]:.1f} before, {os.getloadavg()[0]:.1f} after")
    print("| env | steps/s | × connect_four_v3 | CPU µs/step | × connect_four_v3 (CPU) |\n|---|---:|---:|---:|---:|")
    for k, (steps, spent, cpu) in totals.items():
        rate = steps / spent
        print(f"| {k} | {rate:,.0f} | {rate / base:.3f} | {1e6 * cpu / steps:,.0f} | {steps / cpu / base_cpu:.3f} |")


if __name__ == "__main__":
    main()
