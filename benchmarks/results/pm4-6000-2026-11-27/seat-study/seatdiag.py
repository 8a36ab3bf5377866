"""Diagnostic: the search's operating point by seat in Pocket Mars, 4 players (root rewards, eval scale)."""
import json
import statistics as st
import sys
from collections import defaultdict

from boardlab.bots import MctsBot
from boardlab.core import get_game
from boardlab.core.agent import observe

g = get_game("pocket_mars")
with open(sys.argv[1]) as fh:
    rows = [json.loads(line) for line in fh][: int(sys.argv[2])]
out = defaultdict(lambda: defaultdict(list))
for r in rows:
    a = r["seat_a"]
    hist = r["history"]
    state = g.new_game(4, r["deal_seed"])
    k = 0
    for i, act in enumerate(hist):
        if state.current_player == a and len(state.legal_actions()) > 1:
            k += 1
            if k % 4 == 0:
                bot = MctsBot(seed=i, iterations=1000)
                bot.choose(observe(state, a))
                stats = bot.last_stats
                best = max(stats.values(), key=lambda t: t[0])
                out[a]["best_mean"].append(best[1])
                out[a]["rms"].append((bot._eval_sq / max(bot._eval_n, 1)) ** 0.5)
                out[a]["spread"].append(max(m for v, m in stats.values()) - min(m for v, m in stats.values() ))
                ev = g.evaluate(state, a)
                out[a]["eval_now"].append(ev)
        state.apply(g.parse_action(state, act))
for a in sorted(out):
    print(a, {k: round(st.mean(v), 3) for k, v in out[a].items()}, len(out[a]["rms"]))
