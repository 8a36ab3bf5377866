"""Win share of MCTS in whole deals only (every deal played once from each seat), per file and pooled.

Usage: python whole_deals.py pm4_6000-a.jsonl pm4_6000-b.jsonl"""
import collections
import json
import statistics as st
import sys

from boardlab.sim.stats import wilson


def report(name: str, rs: list[dict]) -> None:
    n = len(rs)
    x = sum(r["score_a"] for r in rs)
    wins = sum(1 for r in rs if r["score_a"] == 1)
    shared = sum(1 for r in rs if 0 < r["score_a"] < 1)
    seat = [st.mean(r["score_a"] for r in rs if r["seat_a"] == s) for s in range(len(rs[0]["kinds"]))]
    mine = st.mean(r["scores"][r["seat_a"]] for r in rs)
    margin = st.mean(r["scores"][r["seat_a"]] - max(v for q, v in enumerate(r["scores"]) if q != r["seat_a"])
                     for r in rs)
    cpu = sum(r["cpu_seconds"][r["seat_a"]] for r in rs) / sum(r["searched_moves"][r["seat_a"]] for r in rs)
    lo, hi = wilson(x, n)
    print(f"{name}: n={n} wins={wins} shared={shared} losses={n - wins - shared} share={x / n:.4f} "
          f"[{lo:.4f}, {hi:.4f}] by seat {[round(s, 3) for s in seat]} mcts {mine:.2f} margin {margin:+.2f} "
          f"cpu/move {cpu:.3f}")


pooled: list[dict] = []
for path in sys.argv[1:]:
    with open(path) as f:
        rows = [json.loads(line) for line in f]
    deals = collections.Counter(r["deal_seed"] for r in rows)
    rows = [r for r in rows if deals[r["deal_seed"]] == len(r["kinds"])]
    pooled += rows
    report(path, rows)
if len(sys.argv) > 2:
    report("pooled", pooled)
