"""Block and Key engine speed (issue #8) of the current code against a pinned older version, in one run.

Two figures: random play (decisions per CPU second, as `boardlab bench` counts them: one `legal_actions()`
plus one `apply()` of a uniformly chosen action) at every table size, and the cost of listing the legal
actions of a turn on a crowded temple (25 blocks placed, memo cleared, µs per listing). The old package
(extracted with `git archive`, see mcts_speed.py) and the current one run as alternating subprocesses, the
anchor (OpenSpiel's C++ backgammon, `boardlab.sim.bench.anchor`) before and after; best round of each.

    python benchmarks/bk_speed.py --rounds 3 --seconds 3
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from mcts_speed import ROOT, extract

BASELINE = "68814236bfe4e60dcfa86cffeda867446539876a"
"""The commit before this round of Block and Key speed work (2026-11-23)."""


def crowded_turns(count: int = 10, blocks: int = 25, players: int = 4) -> list[Any]:
    """Positions of seeded random 4-player games where a seat is to take a turn with >= `blocks` placed."""
    from boardlab.core import Rng, get_game

    g = get_game("block_and_key")
    out: list[Any] = []
    seed = 0
    while len(out) < count:
        s = g.new_game(players, seed)
        rng = Rng(seed)
        while not s.is_over:
            if s.phase == "turn" and len(s.placed) >= blocks:  # type: ignore[attr-defined]
                out.append(s)
                break
            legal = s.legal_actions()
            s.apply(legal[rng.randbelow(len(legal))])
        seed += 1
    return out


def listing_us(reps: int = 20) -> dict[str, float]:
    """µs of CPU per listing of a turn's legal actions on a crowded temple, from scratch every time (the
    placement memo and the per-state caches cleared), best of 5 rounds over 10 positions."""
    from boardlab.games.block_and_key import rules

    states = crowded_turns()
    best = float("inf")
    sizes = [len(s.legal_actions()) for s in states]
    for _ in range(5):
        c0 = time.process_time()
        for _ in range(reps):
            for s in states:
                rules._SPOTS.clear()
                s._legal = s._cache = None
                if hasattr(s, "_boards"):
                    s._boards = None  # the current engine's per-temple boards, built from scratch too
                s.legal_actions()
        best = min(best, (time.process_time() - c0) / reps / len(states))
    return {"us_per_listing": best * 1e6, "mean_actions": sum(sizes) / len(sizes),
            "placed": sum(len(s.placed) for s in states) / len(states)}


def measure(seconds: float) -> dict[str, Any]:
    """Worker side (runs inside the package under test)."""
    from boardlab.sim.bench import random_playouts

    random = {str(n): random_playouts("block_and_key", n, seconds)["decisions_per_cpu_s"] for n in (1, 2, 3, 4)}
    return {"random": random, **listing_us()}


def run_worker(src: Path, seconds: float) -> dict[str, Any]:
    env = {**os.environ, "PYTHONPATH": str(src), "PYTHONHASHSEED": "0"}
    here = str(Path(__file__).resolve().parent)
    code = (f"import json,sys; sys.path.insert(0, {here!r}); from bk_speed import measure; "
            "print(json.dumps(measure(float(sys.argv[1]))))")
    out = subprocess.run([sys.executable, "-c", code, str(seconds)], env=env, check=True, capture_output=True,
                         text=True, cwd=str(src.parent))
    result: dict[str, Any] = json.loads(out.stdout)
    return result


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--seconds", type=float, default=3.0)
    parser.add_argument("--baseline", default=BASELINE)
    parser.add_argument("--json-out")
    ns = parser.parse_args(argv)
    from boardlab.sim.bench import anchor, machine

    anchors = [anchor(ns.seconds)]
    old: list[dict[str, Any]] = []
    new: list[dict[str, Any]] = []
    with tempfile.TemporaryDirectory() as tmp:
        old_src = extract(ns.baseline, Path(tmp))
        for _ in range(ns.rounds):  # alternate, so a load change hits both sides alike
            old.append(run_worker(old_src, ns.seconds))
            new.append(run_worker(ROOT / "src", ns.seconds))
            print(json.dumps({"old": old[-1], "new": new[-1]}), flush=True)
    anchors.append(anchor(ns.seconds))
    a = max((x["decisions_per_cpu_s"] for x in anchors if x), default=0.0)
    rows = []
    for n in ("1", "2", "3", "4"):
        o = max(r["random"][n] for r in old)
        w = max(r["random"][n] for r in new)
        rows.append({"players": int(n), "old_decisions_per_cpu_s": round(o), "new_decisions_per_cpu_s": round(w),
                     "old_x_anchor": round(o / a, 3) if a else None, "new_x_anchor": round(w / a, 3) if a else None,
                     "speedup": round(w / o, 2)})
    listing = {"old_us": round(min(r["us_per_listing"] for r in old), 1),
               "new_us": round(min(r["us_per_listing"] for r in new), 1),
               "mean_actions": new[0]["mean_actions"], "placed": new[0]["placed"]}
    result = {"baseline": ns.baseline, "seconds": ns.seconds, "rounds": ns.rounds, "machine": machine(),
              "load_avg": os.getloadavg(), "anchor_decisions_per_cpu_s": [x and round(x["decisions_per_cpu_s"])
                                                                          for x in anchors],
              "rows": rows, "crowded_listing": listing}
    print(json.dumps(result, indent=1))
    if ns.json_out:
        Path(ns.json_out).write_text(json.dumps(result, indent=1))


if __name__ == "__main__":
    main()
