"""MCTS speed of the current code against a pinned older version of the whole package, in one run.

Why this shape: a speed-up is only meaningful against the old code on the same machine under the
same load, and this machine is shared. So the old package (the engines and the bot as they were at
`BASELINE`, extracted with `git archive`, nothing copied into the tree) and the current one are run
as alternating subprocesses, several rounds each, and the best round of each is compared. Every run
plays the same seeded game with a fixed iteration budget; the benchmark also reports whether the old
and new bots chose the same moves (they should wherever the search itself was not changed on purpose).

    python benchmarks/mcts_speed.py                       # cacao + pocket_mars, 2-4 players
    python benchmarks/mcts_speed.py --games cacao --players 2 --rounds 3 --json-out speed.json
    python benchmarks/mcts_speed.py --games cooper_island --players 4 --baseline acb3285 --old-src /tmp/old/src
        # --old-src: a copy of the old src/ with its native build (`make native` there), so both sides run native
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tarfile
import tempfile
import time
from pathlib import Path
from typing import Any

BASELINE = "e4a054a2059cfa326322b392be2c8326fabe1d88"
"""The commit before issue #14's speed work (2026-11-23)."""

ROOT = Path(__file__).resolve().parent.parent


def measure(game: str, players: int, iterations: int, moves: int, seed: int,
            bot_options: dict[str, Any] | None = None) -> dict[str, Any]:
    """Worker side (runs inside the package under test): the MCTS bot plays every seat of one seeded
    game at a fixed iteration budget; the first `moves` searched decisions are timed (CPU and wall)."""
    from boardlab.bots import make_bot
    from boardlab.core import get_game, observe

    g = get_game(game)
    state = g.new_game(players, seed)
    bots = [make_bot("mcts", seed * 10 + s, iterations=iterations, **(bot_options or {})) for s in range(players)]
    timed = 0
    wall = cpu = 0.0
    log: list[str] = []
    while not state.is_over and timed < moves:
        seat = state.current_player
        assert seat is not None
        obs = observe(state, seat)
        t0, c0 = time.perf_counter(), time.process_time()
        action = bots[seat].choose(obs)
        if len(obs.legal_actions) > 1:
            wall += time.perf_counter() - t0
            cpu += time.process_time() - c0
            timed += 1
        log.append(str(action))
        state.apply(action)
    its = sum(b.total_iterations for b in bots)  # type: ignore[attr-defined]
    return {"moves": timed, "iterations": its, "wall": wall, "cpu": cpu, "log": log,
            "iterations_per_cpu_s": its / cpu if cpu else 0.0, "ms_per_move": 1000 * cpu / max(1, timed)}


def extract(commit: str, into: Path) -> Path:
    """The package as it was at `commit`, unpacked under `into` (returns the directory for PYTHONPATH)."""
    tar = into / "src.tar"
    with open(tar, "wb") as f:
        subprocess.run(["git", "archive", commit, "src/boardlab"], cwd=ROOT, stdout=f, check=True)
    with tarfile.open(tar) as t:
        t.extractall(into, filter="data")
    return into / "src"


def run_worker(src: Path, args: dict[str, Any], pure: bool = True) -> dict[str, Any]:
    """One measurement in a fresh process; `pure=False` lets the current package use its native build."""
    env = {**os.environ, "PYTHONPATH": str(src), "PYTHONHASHSEED": "0"}
    env.pop("BOARDLAB_PURE", None)
    if pure:
        env["BOARDLAB_PURE"] = "1"
    here = str(Path(__file__).resolve().parent)
    code = (f"import json,sys; sys.path.insert(0, {here!r}); from mcts_speed import measure\n"
            "import boardlab\ncompiled = getattr(getattr(boardlab, '_compiled', None), 'COMPILED', False)\n"
            "print(json.dumps({**measure(**json.loads(sys.argv[1])), 'compiled': compiled}))")
    out = subprocess.run([sys.executable, "-c", code, json.dumps(args)], env=env, check=True,
                         capture_output=True, text=True, cwd=str(src.parent))
    result: dict[str, Any] = json.loads(out.stdout)
    return result


def anchor_openspiel(seconds: float = 3.0) -> dict[str, Any] | None:
    """OpenSpiel's Python MCTS on connect four, if open_spiel is installed (an outside yardstick)."""
    try:
        import numpy as np
        import pyspiel
        from open_spiel.python.algorithms import mcts
    except ImportError:
        return None
    game = pyspiel.load_game("connect_four")
    bot = mcts.MCTSBot(game, 1.4, 200, mcts.RandomRolloutEvaluator(1, np.random.RandomState(0)),
                       random_state=np.random.RandomState(0))
    state = game.new_initial_state()
    moves, c0 = 0, time.process_time()
    while time.process_time() - c0 < seconds and not state.is_terminal():
        state.apply_action(bot.step(state))
        moves += 1
    cpu = time.process_time() - c0
    return {"game": "connect_four", "iterations": 200 * moves, "iterations_per_cpu_s": 200 * moves / cpu}


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", nargs="+", default=["cacao", "pocket_mars"])
    parser.add_argument("--players", nargs="+", type=int, default=[2, 3, 4])
    parser.add_argument("--iterations", type=int, default=300)
    parser.add_argument("--moves", type=int, default=12)
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--baseline", default=BASELINE)
    parser.add_argument("--old-src", help="a directory holding the old `boardlab` package with its native build "
                                          "(a snapshot); old and new then both run native, --baseline only names it")
    parser.add_argument("--json-out")
    ns = parser.parse_args(argv)
    rows = []
    from boardlab import _compiled

    native, why = _compiled.status()
    print(f"native build: {why}", flush=True)
    with tempfile.TemporaryDirectory() as tmp:
        old_src = Path(ns.old_src) if ns.old_src else extract(ns.baseline, Path(tmp))
        old_native = bool(ns.old_src)
        new_src = ROOT / "src"
        for game in ns.games:
            for n in ns.players:
                args = {"game": game, "players": n, "iterations": ns.iterations, "moves": ns.moves, "seed": ns.seed}
                old: list[dict[str, Any]] = []
                new: list[dict[str, Any]] = []
                nat: list[dict[str, Any]] = []
                for _ in range(ns.rounds):  # alternate, so a load change hits every side alike
                    old.append(run_worker(old_src, args, pure=not old_native))
                    new.append(run_worker(new_src, args))
                    if native:
                        nat.append(run_worker(new_src, args, pure=False))
                o = max(old, key=lambda r: r["iterations_per_cpu_s"])
                assert o["compiled"] or not old_native, "the old native build was not loaded"
                w = max(new, key=lambda r: r["iterations_per_cpu_s"])
                same = sum(1 for a, b in zip(o["log"], w["log"], strict=False) if a == b)
                row = {"game": game, "players": n, "old_it_per_s": round(o["iterations_per_cpu_s"]),
                       "new_it_per_s": round(w["iterations_per_cpu_s"]),
                       "speedup": round(w["iterations_per_cpu_s"] / o["iterations_per_cpu_s"], 2),
                       "old_ms_per_move": round(o["ms_per_move"], 1), "new_ms_per_move": round(w["ms_per_move"], 1),
                       "same_moves": f"{same}/{min(len(o['log']), len(w['log']))}",
                       "identical_game": o["log"] == w["log"]}
                if nat:
                    c = max(nat, key=lambda r: r["iterations_per_cpu_s"])
                    assert c["compiled"], "the native build was not loaded"
                    row.update({"native_it_per_s": round(c["iterations_per_cpu_s"]),
                                "native_speedup": round(c["iterations_per_cpu_s"] / o["iterations_per_cpu_s"], 2),
                                "native_ms_per_move": round(c["ms_per_move"], 1),
                                "native_same_as_pure": c["log"] == w["log"]})
                rows.append(row)
                print(json.dumps(row), flush=True)
    anchor = anchor_openspiel()
    from boardlab.sim.bench import machine

    result = {"baseline": ns.baseline, "old_native": bool(ns.old_src), "iterations": ns.iterations,
              "moves": ns.moves, "rounds": ns.rounds,
              "machine": machine(), "load_avg": os.getloadavg(), "rows": rows, "anchor": anchor}
    print(json.dumps({k: v for k, v in result.items() if k != "rows"}))
    if ns.json_out:
        Path(ns.json_out).write_text(json.dumps(result, indent=1))


if __name__ == "__main__":
    main()
