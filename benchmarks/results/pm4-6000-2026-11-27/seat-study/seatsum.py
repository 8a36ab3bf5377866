"""Summary of seatstudy.py: each variant over the deals every variant finished, paired with B4 (MCTS in the last seat,
the default search) by deal."""
import collections
import json
import statistics as st
import sys

rows = []
for path in sys.argv[1:]:
    with open(path) as fh:
        rows += [json.loads(line) for line in fh]
deals = collections.Counter(r["deal"] for r in rows)
whole = {d for d, c in deals.items() if c == 4}
by = collections.defaultdict(dict)
for r in rows:
    if r["deal"] in whole:
        by[r["variant"]][r["deal"]] = r
base = by["B4"]
for v, d in by.items():
    n = len(d)
    w = sum(r["score_a"] for r in d.values())
    mine = [r["scores"][r["seat"]] for r in d.values()]
    marg = [r["scores"][r["seat"]] - max(s for q, s in enumerate(r["scores"]) if q != r["seat"]) for r in d.values()]
    diff = [d[k]["score_a"] - base[k]["score_a"] for k in d]
    se = (st.pvariance(diff) / n) ** 0.5 if n > 1 else 0
    cpu = st.mean(r["cpu"] for r in d.values())
    print(f"{v:4} n={n} win {w/n:.3f}  score {st.mean(mine):.2f}  margin {st.mean(marg):+.2f}  "
          f"vs B4 {st.mean(diff):+.3f} (se {se:.3f})  cpu/game {cpu:.1f}")
