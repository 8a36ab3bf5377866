"""The Gymnasium loop on a boardlab game: one seat against boardlab bots, masked random actions.

    python examples/gym_random_agent.py --game cacao --episodes 5 --opponents greedy

Nothing is trained: it shows the loop a learner plugs into (observation tensor, action mask, reward at
the end) and prints the mean return, a baseline any learning agent should beat.
"""

from __future__ import annotations

import argparse

import numpy as np

from boardlab.rl import gymnasium as bgym


def run(game: str, opponents: list[str], episodes: int, seed: int = 0) -> float:
    env = bgym.env(game, opponents=opponents)
    rng = np.random.default_rng(seed)
    total = 0.0
    for episode in range(episodes):
        obs, info = env.reset(seed=seed + episode)
        done = False
        while not done:
            legal = np.flatnonzero(obs["action_mask"])  # a policy would score these from obs["observation"]
            obs, reward, terminated, truncated, info = env.step(int(rng.choice(legal)))
            done = terminated or truncated
        total += reward
        print(f"episode {episode}: seat {info['seat'] + 1}, {info['decisions']} decisions, return {reward:+.1f}")
    return total / episodes


if __name__ == "__main__":
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--game", default="cacao")
    ap.add_argument("--opponents", default="greedy", help="comma-separated bot names, one per other seat")
    ap.add_argument("--episodes", type=int, default=5)
    args = ap.parse_args()
    mean = run(args.game, args.opponents.split(","), args.episodes)
    print(f"mean return {mean:+.2f}")
