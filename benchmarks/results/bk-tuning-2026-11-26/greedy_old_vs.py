"""mcts (with whatever eval the src copy has) vs greedy whose evaluation drops the HAND term (the old eval)."""
import sys, json
import boardlab.bots as B
from boardlab.bots.basic import GreedyBot
import boardlab.games.block_and_key.evaluate as E

class OldGreedy(GreedyBot):
    def choose(self, obs):
        saved = E.HAND
        E.HAND = 0.0
        try:
            return super().choose(obs)
        finally:
            E.HAND = saved

B._CLASSES["greedy_old"] = OldGreedy
sys.argv = [sys.argv[0]] + sys.argv[1:]
sys.path.insert(0, "/work/main/benchmarks")
import strength
strength.main()
