import json, sys, math, collections, statistics as st
def wilson(x, n, z=1.96):
    p = x / n; d = 1 + z*z/n; c = p + z*z/(2*n); h = z*math.sqrt(p*(1-p)/n + z*z/(4*n*n))
    return (c - h) / d, (c + h) / d
allrows = []
for f in sys.argv[1:]:
    rows = [json.loads(l) for l in open(f)]
    deals = collections.Counter(r["deal_seed"] for r in rows)
    rows = [r for r in rows if deals[r["deal_seed"]] == 4]
    allrows += rows
    for name, rs in ((f, rows),) + ((("pooled", allrows),) if f == sys.argv[-1] and len(sys.argv) > 2 else ()):
        n = len(rs); x = sum(r["score_a"] for r in rs)
        w = sum(1 for r in rs if r["score_a"] == 1); t = sum(1 for r in rs if 0 < r["score_a"] < 1)
        seat = [sum(r["score_a"] for r in rs if r["seat_a"] == s) / max(1, sum(1 for r in rs if r["seat_a"] == s)) for s in range(4)]
        mine = st.mean(r["scores"][r["seat_a"]] for r in rs)
        marg = st.mean(r["scores"][r["seat_a"]] - max(v for q, v in enumerate(r["scores"]) if q != r["seat_a"]) for r in rs)
        gre = st.mean(v for r in rs for q, v in enumerate(r["scores"]) if q != r["seat_a"])
        cpu = sum(r["cpu_seconds"][r["seat_a"]] for r in rs) / sum(r["searched_moves"][r["seat_a"]] for r in rs)
        mx = max(r["max_move_seconds"][r["seat_a"]] for r in rs)
        lo, hi = wilson(x, n)
        print(f"{name}: n={n} wins={w} shared={t} losses={n-w-t} share={x/n:.4f} [{lo:.4f}, {hi:.4f}] by seat {[round(s,3) for s in seat]} mcts {mine:.2f} greedy {gre:.2f} margin {marg:+.2f} cpu/move {cpu:.3f} max {mx:.2f} deals {min(r['deal_seed'] for r in rs)}..{max(r['deal_seed'] for r in rs)}")
