"""A baseline that learns: MaskablePPO (sb3-contrib) on boardlab's Gymnasium env against the greedy bot.

    pip install -e ".[learn]"        # sb3-contrib and a CPU torch; never part of the default install
    python examples/train_ppo.py --game pocket_mars,petrichor --steps 50000 --seed 0 --out ppo-runs

Per game it writes to `--out`: `<game>-curve.csv` (training episodes: steps so far, return, rolling win share
against greedy), `<game>-curve.png` (that curve) and `<game>-summary.json` (budget, wall time, and the final
policy's win share against `random` and `greedy` over fresh seeds with 95% Wilson intervals, beside the masked
random policy's on the same seeds). The learner's seat is drawn at each reset (the env's default), so it plays
first and second. Only `train` imports torch: the rest (arguments, the SB3 wrapper, the evaluation, the curve)
runs without it, which is what the default test run checks (tests/rl/test_rl_ppo_example.py).
"""

from __future__ import annotations

import argparse
import csv
import json
import platform
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import gymnasium
import numpy as np

from boardlab.core import games as game_names
from boardlab.core.stats import wilson
from boardlab.rl import gymnasium as bgym

# A policy for evaluation: (observation vector, action mask) -> action id.
Policy = Callable[[np.ndarray, np.ndarray], int]

EVAL_SEED_BASE = 1_000_000_007  # evaluation games are dealt from seeds far from the training stream's
WINDOW = 200  # training episodes in the curve's rolling win share


class MaskedVector(gymnasium.ObservationWrapper):
    """The env with a plain Box observation and `action_masks()`, the two things MaskablePPO asks for.

    boardlab's env hands a Dict {observation, action_mask}; SB3's MlpPolicy wants one vector and
    sb3-contrib reads the mask from the env's `action_masks()` method, so the mask is kept aside here
    (a script-level adapter: the library's Dict is what PettingZoo-style masked agents expect).
    """

    def __init__(self, env: gymnasium.Env) -> None:
        super().__init__(env)
        self.observation_space = env.observation_space["observation"]
        self._mask = np.ones(env.action_space.n, dtype=bool)
        self.episodes: list[tuple[int, float]] = []  # (steps so far, return) at each episode's end
        self.steps = 0
        self.progress = 0  # print a line every this many steps (0: silent)

    def observation(self, observation: dict[str, np.ndarray]) -> np.ndarray:
        self._mask = observation["action_mask"].astype(bool)
        return observation["observation"]

    def step(self, action: Any) -> tuple[np.ndarray, float, bool, bool, dict]:
        obs, reward, terminated, truncated, info = super().step(action)
        self.steps += 1
        if terminated or truncated:
            self.episodes.append((self.steps, float(reward)))
        if self.progress and self.steps % self.progress == 0:
            recent = [win_share(r) for _, r in self.episodes[-WINDOW:]]
            print(f"{self.steps} steps, {len(self.episodes)} games, win share of the last {len(recent)}: "
                  f"{sum(recent) / max(1, len(recent)):.3f}", flush=True)
        return obs, reward, terminated, truncated, info

    def action_masks(self) -> np.ndarray:
        return self._mask


def make_env(game: str, opponent: str = "greedy") -> MaskedVector:
    """The 2-player env of `game`, the other seat played by boardlab's `opponent` bot."""
    return MaskedVector(bgym.env(game, opponents=[opponent]))


def win_share(reward: float) -> float:
    """A 2-player return (+1 win, -1 loss, 0 tie) as a win share, a tie counting half."""
    return (reward + 1.0) / 2.0


def random_policy(seed: int) -> Policy:
    """The masked random policy: the baseline any learner should beat."""
    rng = np.random.default_rng(seed)
    return lambda obs, mask: int(rng.choice(np.flatnonzero(mask)))


def evaluate(policy: Policy, game: str, opponent: str, games: int, seed: int) -> dict[str, Any]:
    """Win share of `policy` over `games` fresh games against `opponent`, with its 95% Wilson interval."""
    if games < 1:
        raise ValueError("games must be at least 1")
    env = make_env(game, opponent)
    wins = 0.0
    for i in range(games):
        obs, _ = env.reset(seed=EVAL_SEED_BASE + seed * 100_003 + i)
        done, reward = False, 0.0
        while not done:
            obs, reward, terminated, truncated, _ = env.step(policy(obs, env.action_masks()))
            done = terminated or truncated
        wins += win_share(reward)
    low, high = wilson(wins, games)
    return {"opponent": opponent, "games": games, "win_share": wins / games, "ci95": [low, high]}


def curve_rows(episodes: Sequence[tuple[int, float]], window: int = WINDOW) -> list[dict[str, float]]:
    """Per training episode: steps so far, its return, and the win share over the last `window` episodes."""
    rows, shares = [], []
    for n, (steps, reward) in enumerate(episodes, start=1):
        shares.append(win_share(reward))
        recent = shares[-window:]
        rows.append({"episode": n, "steps": steps, "return": reward, "win_share": sum(recent) / len(recent)})
    return rows


def write_curve(rows: Sequence[dict[str, float]], game: str, out: Path, baseline: float | None = None) -> None:
    """`<game>-curve.csv` and `<game>-curve.png` in `out`."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    out.mkdir(parents=True, exist_ok=True)
    with open(out / f"{game}-curve.csv", "w", newline="") as f:
        writer = csv.DictWriter(f, fieldnames=["episode", "steps", "return", "win_share"])
        writer.writeheader()
        writer.writerows(rows)
    fig, ax = plt.subplots(figsize=(7, 3.5))
    ax.plot([r["steps"] for r in rows], [r["win_share"] for r in rows], label=f"MaskablePPO (last {WINDOW} games)")
    if baseline is not None:
        ax.axhline(baseline, color="grey", linestyle="--", linewidth=1, label="masked random policy")
    ax.set_xlabel("training steps (learner decisions)")
    ax.set_ylabel("win share vs greedy")
    ax.set_ylim(0, 1)
    ax.set_title(f"{game}, 2 players, against greedy")
    ax.legend(loc="upper left")
    fig.tight_layout()
    fig.savefig(out / f"{game}-curve.png", dpi=100)
    plt.close(fig)


def train(game: str, steps: int, seed: int, out: Path, eval_games: int) -> dict[str, Any]:
    """Train on `game` for `steps` learner decisions, evaluate, write the curve and the summary."""
    import sb3_contrib
    import torch
    from sb3_contrib import MaskablePPO

    torch.set_num_threads(1)  # 2 shared cores: one process, one thread
    env = make_env(game, "greedy")
    env.progress = 10_000
    model = MaskablePPO("MlpPolicy", env, seed=seed, n_steps=1024, batch_size=256, n_epochs=4,
                        learning_rate=3e-4, gamma=0.99, ent_coef=0.01,
                        policy_kwargs={"net_arch": [128, 128]}, device="cpu", verbose=0)
    start = time.perf_counter()
    model.learn(total_timesteps=steps)
    train_seconds = time.perf_counter() - start

    def learned(obs: np.ndarray, mask: np.ndarray) -> int:
        action, _ = model.predict(obs, action_masks=mask, deterministic=True)
        return int(action)

    start = time.perf_counter()
    results: dict[str, Any] = {"ppo": [], "random_policy": []}
    for opponent in ("random", "greedy"):
        results["ppo"].append(evaluate(learned, game, opponent, eval_games, seed))
        results["random_policy"].append(evaluate(random_policy(seed), game, opponent, eval_games, seed))
    eval_seconds = time.perf_counter() - start
    baseline = results["random_policy"][1]["win_share"]
    write_curve(curve_rows(env.episodes), game, out, baseline)
    summary = {
        "game": game, "players": 2, "opponent_in_training": "greedy", "steps": env.steps,
        "training_episodes": len(env.episodes), "seed": seed, "eval_games": eval_games,
        "train_seconds": round(train_seconds, 1), "eval_seconds": round(eval_seconds, 1),
        "evaluation": results,
        "machine": f"{platform.machine()}, {platform.processor() or platform.system()}, torch threads 1",
        "versions": {"sb3_contrib": sb3_contrib.__version__, "torch": torch.__version__},
        "date": time.strftime("%Y-%m-%d", time.gmtime()),
    }
    (out / f"{game}-summary.json").write_text(json.dumps(summary, indent=2) + "\n")
    return summary


def parse_args(argv: Sequence[str] | None = None) -> argparse.Namespace:
    """The command line; bad games and budgets are refused here, before any training."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--game", default="pocket_mars,petrichor", help="comma-separated games (2 players each)")
    ap.add_argument("--steps", type=int, default=50_000, help="learner decisions per game")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--out", type=Path, default=Path("ppo-runs"), help="directory for the curves and summaries")
    ap.add_argument("--eval-games", type=int, default=200, help="fresh games per opponent in the final evaluation")
    args = ap.parse_args(argv)
    args.games = [g.strip() for g in args.game.split(",") if g.strip()]
    unknown = [g for g in args.games if g not in game_names()]
    if not args.games or unknown:
        ap.error(f"unknown game {', '.join(unknown) or '(none)'}; choose from {', '.join(game_names())}")
    if args.steps < 1:
        ap.error("--steps must be at least 1")
    if args.eval_games < 1:
        ap.error("--eval-games must be at least 1")
    return args


def main(argv: Sequence[str] | None = None) -> None:
    args = parse_args(argv)
    for game in args.games:
        s = train(game, args.steps, args.seed, args.out, args.eval_games)
        for who in ("ppo", "random_policy"):
            for r in s["evaluation"][who]:
                print(f"{game}: {who} vs {r['opponent']}: {r['win_share']:.3f} "
                      f"[{r['ci95'][0]:.3f}, {r['ci95'][1]:.3f}] over {r['games']} games")
        print(f"{game}: {s['steps']} steps in {s['train_seconds']} s; wrote {args.out}/{game}-*")


if __name__ == "__main__":
    main()
