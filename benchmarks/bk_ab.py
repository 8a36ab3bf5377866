"""Block and Key's random play and MCTS cost, an older native build against the current one, interleaved (#36);
`--game` measures another game the same way (#33's before/after of Cooper Island).

Why: on this shared machine two separate runs of `speed_table.py` can see loads that differ by a factor of 3,
so a before/after is measured with both packages as alternating subprocesses, each round the anchor first,
and compared as medians of per-round ratios. The old package must be a copy of `src/` with its own native
build (`cp -a src /tmp/old-src`, `git checkout OLD -- src` there or a worktree, then
`PYTHONPATH=/tmp/old-src python scripts/compile.py build`), or it runs from source.

    python benchmarks/bk_ab.py --old-src /tmp/old-src --rounds 3 --json-out ab.json
    python benchmarks/bk_ab.py --game cooper_island --old-src /tmp/old-src --rounds 3   # sizes 2 and 4
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent


def sizes(game: str) -> tuple[int, ...]:
    """The table sizes measured: solo where the game has one, then 2 and 4 players."""
    from boardlab.core import get_game

    return (1, 2, 4) if get_game(game).min_players == 1 else (2, 4)


def measure(seconds: float, iterations: int, moves: int, game: str = "block_and_key") -> dict[str, Any]:
    """Worker side: the backgammon anchor, random play per size, then OpenSpiel's MCTS on connect four (the MCTS
    anchor, if installed) and ours at 2 and 4 players (after a warm-up)."""
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from mcts_speed import anchor_openspiel
    from mcts_speed import measure as mcts

    from boardlab import _compiled
    from boardlab.sim.bench import anchor, random_playouts

    out: dict[str, Any] = {"native": _compiled.COMPILED, "anchor": anchor(seconds)["decisions_per_cpu_s"]}  # type: ignore[index]
    for n in sizes(game):
        out[f"random/{n}"] = random_playouts(game, n, seconds)["decisions_per_cpu_s"]
    c4 = anchor_openspiel(seconds)
    if c4 is not None:
        out["anchor_c4_us"] = 1e6 / c4["iterations_per_cpu_s"]
    mcts(game, 2, 50, 2, 1)
    for n in (2, 4):
        r = mcts(game, n, iterations, moves, 1)
        out[f"mcts_us/{n}"] = 1e6 * r["cpu"] / r["iterations"]
    return out


def run(src: Path, seconds: float, iterations: int, moves: int, game: str) -> dict[str, Any]:
    env = {**os.environ, "PYTHONPATH": str(src), "PYTHONHASHSEED": "0"}
    env.pop("BOARDLAB_PURE", None)
    code = (f"import json, sys; sys.path.insert(0, {str(Path(__file__).resolve().parent)!r}); "
            f"from bk_ab import measure; print(json.dumps(measure({seconds}, {iterations}, {moves}, {game!r})))")
    done = subprocess.run([sys.executable, "-c", code], env=env, check=True, capture_output=True, text=True)
    result: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    return result


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", default="block_and_key")
    parser.add_argument("--old-src", required=True, type=Path)
    parser.add_argument("--new-src", type=Path, default=ROOT / "src")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--seconds", type=float, default=2.0)
    parser.add_argument("--iterations", type=int, default=200)
    parser.add_argument("--moves", type=int, default=4)
    parser.add_argument("--json-out")
    ns = parser.parse_args(argv)
    rounds: list[dict[str, Any]] = []
    for _ in range(ns.rounds):
        for side, src in (("old", ns.old_src), ("new", ns.new_src)):
            rounds.append({"side": side, **run(src, ns.seconds, ns.iterations, ns.moves, ns.game)})
            print(json.dumps(rounds[-1]), flush=True)
    summary: dict[str, dict[str, float]] = {}
    for side in ("old", "new"):
        rs = [r for r in rounds if r["side"] == side]
        summary[side] = {**{f"random_ratio/{n}": statistics.median(r[f"random/{n}"] / r["anchor"] for r in rs)
                            for n in sizes(ns.game)},
                         **{f"mcts_us/{n}": statistics.median(r[f"mcts_us/{n}"] for r in rs) for n in (2, 4)}}
        if all("anchor_c4_us" in r for r in rs):  # per iteration ÷ OpenSpiel's per simulation, as speed_table.py
            summary[side].update({f"mcts_ratio/{n}": statistics.median(r[f"mcts_us/{n}"] / r["anchor_c4_us"]
                                                                       for r in rs) for n in (2, 4)})
    result = {"load_avg": os.getloadavg(), "settings": {k: str(v) for k, v in vars(ns).items()}, "rounds": rounds,
              "summary": summary}
    print(json.dumps(summary, indent=1))
    if ns.json_out:
        Path(ns.json_out).write_text(json.dumps(result, indent=1))


if __name__ == "__main__":
    main()
