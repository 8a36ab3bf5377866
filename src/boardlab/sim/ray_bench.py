"""How much Ray speeds up `simulate`: the same seeded games in one process, on a local Ray with 1 and 2
CPUs, and (for reference) in a pool of 2 processes; wall-clock seconds, games/s, and a check that
every results file is byte for byte the first one.

    python -m boardlab.sim.ray_bench --games 40 --iterations 50

Ray's start-up (`ray.init`) is timed apart from the games: a cluster pays it once per session.
"""

from __future__ import annotations

import argparse
import json
import tempfile
import time
from pathlib import Path
from typing import Any

from .bench import machine
from .runner import simulate


def run(game: str = "cacao", seats: tuple[str, ...] = ("mcts", "greedy"), games: int = 40, iterations: int = 50,
        seed: int = 1) -> dict[str, Any]:
    import ray

    budgets = {"iterations": iterations}
    out: dict[str, Any] = {"game": game, "seats": list(seats), "games": games, "budgets": budgets,
                           "machine": machine(), "runs": {}}
    with tempfile.TemporaryDirectory() as tmp:
        files: dict[str, bytes] = {}

        def timed(label: str, **kw: Any) -> None:
            path = Path(tmp) / f"{label}.jsonl"
            t0, c0 = time.perf_counter(), time.process_time()
            simulate(game, list(seats), games, seed, budgets=budgets, results=path, **kw)
            wall = time.perf_counter() - t0
            out["runs"][label] = {"seconds": wall, "games_per_s": games / wall,
                                  "driver_cpu_s": time.process_time() - c0}
            files[label] = path.read_bytes()

        timed("one process")
        for cpus in (1, 2):
            t0 = time.perf_counter()
            ray.init(num_cpus=cpus, include_dashboard=False, log_to_driver=False, configure_logging=False)
            start = time.perf_counter() - t0
            try:
                timed(f"ray {cpus} cpu", ray="local")  # joins the Ray started above
            finally:
                ray.shutdown()
            out["runs"][f"ray {cpus} cpu"]["ray_init_s"] = start
        timed("process pool 2", jobs=2)
        base = out["runs"]["one process"]["seconds"]
        for label, r in out["runs"].items():
            r["speedup"] = base / r["seconds"]
            r["identical_results"] = files[label] == files["one process"]
    return out


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--game", default="cacao")
    ap.add_argument("--games", type=int, default=40)
    ap.add_argument("--iterations", type=int, default=50)
    ap.add_argument("--out", type=Path, default=None)
    args = ap.parse_args(argv)
    result = run(args.game, games=args.games, iterations=args.iterations)
    text = json.dumps(result, indent=1)
    print(text)
    if args.out:
        args.out.write_text(text, encoding="utf-8")


if __name__ == "__main__":
    main()
