"""Issue #36's speed table in one command and one run: every game's random play and MCTS cost, each as a ratio
to an outside anchor measured in the same run.

- **Random play**: decisions per CPU second (one `legal_actions()` + one `apply()` of a uniformly chosen
  action, `boardlab.sim.bench.random_playouts`) ÷ the same loop on OpenSpiel's C++ backgammon driven from
  Python (`boardlab.sim.bench.anchor`). Both loops draw their moves from Python's `random.Random`, in every
  mode, so a pure-Python run is not flattered by a slower anchor. Higher is better; ≥ 1.0 is the goal.
- **MCTS**: µs of CPU per iteration of boardlab's ISMCTS bot playing every seat of a seeded game
  (`benchmarks/mcts_speed.measure`) ÷ µs per simulation of OpenSpiel's Python `MCTSBot` on connect four (random
  rollouts). Lower is better; ≤ 1.0 is the goal.

Why one run, interleaved, median of rounds: the machine is shared and noisy; every round measures the anchors
and the games back to back, so a load change hits them alike, and the median of the per-round ratios is kept.
Each round plays other games (seed + round): the same games again would be answered from the position memos the
first round filled.

    python benchmarks/speed_table.py                          # all games, 3 rounds (about 10 minutes)
    python benchmarks/speed_table.py --games block_and_key --rounds 1 --seconds 1 --json-out /tmp/t.json
    BOARDLAB_PURE=1 python benchmarks/speed_table.py         # the pure-Python source
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from mcts_speed import anchor_openspiel, measure


def table_sizes(game: str) -> list[int]:
    """The sizes #36's table reports: solo where the game has it, then 2 and 4 players (or its largest)."""
    from boardlab.core import get_game

    g = get_game(game)
    sizes = [1] if g.min_players == 1 else []
    sizes += sorted({max(2, g.min_players), min(4, g.max_players)})
    return sizes


def one_round(games: list[str], seconds: float, iterations: int, moves: int, seed: int) -> dict[str, Any]:
    """Anchors first, then every game and size: random play, then MCTS (multi-player sizes only)."""
    from boardlab.sim.bench import anchor, random_playouts

    bg = anchor(seconds, seed)
    c4 = anchor_openspiel(seconds)
    if bg is None or c4 is None:
        raise SystemExit("the anchors need OpenSpiel (pip install -e '.[dev]')")
    us_c4 = 1e6 / c4["iterations_per_cpu_s"]
    rows: dict[str, Any] = {}
    for game in games:
        for n in table_sizes(game):
            r = random_playouts(game, n, seconds, seed)
            row = {"random_per_cpu_s": r["decisions_per_cpu_s"],
                   "random_ratio": r["decisions_per_cpu_s"] / bg["decisions_per_cpu_s"]}
            if n >= 2:
                m = measure(game, n, iterations, moves, seed)
                us = 1e6 * m["cpu"] / m["iterations"] if m["iterations"] else float("nan")
                row.update({"mcts_us_per_iteration": us, "mcts_ratio": us / us_c4})
            rows[f"{game}/{n}"] = row
    return {"anchor_backgammon_per_cpu_s": bg["decisions_per_cpu_s"], "anchor_connect_four_us": us_c4,
            "rows": rows}


def median_rows(rounds: list[dict[str, Any]]) -> dict[str, dict[str, float]]:
    """Per game and size, the median of each figure over the rounds."""
    out: dict[str, dict[str, float]] = {}
    for key in rounds[0]["rows"]:
        figures = rounds[0]["rows"][key].keys()
        out[key] = {f: statistics.median(r["rows"][key][f] for r in rounds) for f in figures}
    return out


def markdown(rows: dict[str, dict[str, float]]) -> str:
    """The table as #36 prints it: per game, random ratios and MCTS ratios per size."""
    games: dict[str, list[tuple[int, dict[str, float]]]] = {}
    for key, row in rows.items():
        game, n = key.split("/")
        games.setdefault(game, []).append((int(n), row))
    lines = ["| game | random play ÷ anchor (solo) 2p / 4p | decisions per CPU s | MCTS µs per iteration ÷ anchor "
             "2p / 4p | µs per iteration |", "|---|---|---|---|---|"]
    for game, sizes in games.items():
        rnd = " / ".join(f"{'solo ' if n == 1 else ''}{r['random_ratio']:.2f}" for n, r in sizes)
        per_s = " / ".join(f"{r['random_per_cpu_s']:,.0f}" for _, r in sizes)
        multi = [(n, r) for n, r in sizes if "mcts_ratio" in r]
        mcts = " / ".join(f"{r['mcts_ratio']:.2f}" for _, r in multi)
        us = " / ".join(f"{r['mcts_us_per_iteration']:,.0f}" for _, r in multi)
        lines.append(f"| {game} | {rnd} | {per_s} | {mcts} | {us} |")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> None:
    from boardlab import _compiled
    from boardlab.core.registry import installed_games
    from boardlab.sim.bench import machine

    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", nargs="+", default=None, help="default: every installed game")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--seconds", type=float, default=3.0, help="per random-play figure and per anchor")
    parser.add_argument("--iterations", type=int, default=200, help="MCTS iterations per decision")
    parser.add_argument("--moves", type=int, default=6, help="MCTS decisions timed per game and size")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json-out")
    ns = parser.parse_args(argv)
    games = ns.games or sorted(installed_games())
    native, why = _compiled.status()
    print(f"native build: {why}", flush=True)
    rounds = []
    for i in range(ns.rounds):
        # a new seed per round: with one seed every round after the first replayed the first round's games, and the
        # games' position memos (Block and Key's claim lists) answered from the first round: 75 µs an iteration
        # read where a new game costs 590 (docs/benchmarks.md, 2026-11-28 14:10)
        rounds.append(one_round(games, ns.seconds, ns.iterations, ns.moves, ns.seed + i))
        print(f"round {i + 1}/{ns.rounds} done, load average {os.getloadavg()[0]:.2f}", flush=True)
    rows = median_rows(rounds)
    result = {"machine": machine(), "native": native, "load_avg": os.getloadavg(),
              "time": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()), "settings": vars(ns),
              "anchors": {"backgammon_decisions_per_cpu_s": statistics.median(
                              r["anchor_backgammon_per_cpu_s"] for r in rounds),
                          "connect_four_mcts_us_per_simulation": statistics.median(
                              r["anchor_connect_four_us"] for r in rounds)},
              "rows": rows, "rounds": rounds}
    print(json.dumps(result["anchors"]))
    print(markdown(rows))
    if ns.json_out:
        Path(ns.json_out).write_text(json.dumps(result, indent=1))


if __name__ == "__main__":
    main()
