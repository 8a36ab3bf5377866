"""Inclusive CPU time per method of Block and Key's state in random play (`boardlab bench`'s loop), native or pure.

Why: the state class is a Python (non-native) class even in the native build, so its methods call each other
through attribute look-ups, and wrapping them on the class with a timer sees every call; perf cannot follow the
compiled call chains (no frame pointers) and cProfile does not see into compiled code. Each method's time counts
its outermost call only. The wrappers' own cost (a clock read per call) roughly halves the rate, so read the
shares, not the absolute figures.

    python benchmarks/bk_methods.py --players 2 --seconds 6
"""

from __future__ import annotations

import argparse
import functools
import time
from collections import Counter, defaultdict
from collections.abc import Callable
from typing import Any

METHODS = ("random_action", "is_legal", "_apply", "_settle", "_place", "_matches", "_claims_asked", "_nothing_fits",
           "spot_masks", "spot_count", "_turn_choices", "_digs", "legal_actions", "_setup", "_end_turn",
           "_after_action", "_refill_site", "_draw_block")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--seconds", type=float, default=6.0)
    ns = parser.parse_args(argv)
    from boardlab import _compiled
    from boardlab.games.block_and_key import rules
    from boardlab.sim.bench import random_playouts

    spent: defaultdict[str, float] = defaultdict(float)
    calls: Counter[str] = Counter()
    active: Counter[str] = Counter()

    def wrap(name: str, f: Callable[..., Any]) -> Callable[..., Any]:
        @functools.wraps(f)
        def timed(*args: Any, **kwargs: Any) -> Any:
            calls[name] += 1
            if active[name]:
                return f(*args, **kwargs)
            active[name] += 1
            t = time.process_time()
            try:
                return f(*args, **kwargs)
            finally:
                spent[name] += time.process_time() - t
                active[name] -= 1
        return timed

    random_playouts("block_and_key", ns.players, 1.0)  # warm the memos
    plain = random_playouts("block_and_key", ns.players, ns.seconds / 2)
    for name in METHODS:
        setattr(rules.BlockAndKeyState, name, wrap(name, getattr(rules.BlockAndKeyState, name)))
    r = random_playouts("block_and_key", ns.players, ns.seconds)
    print(f"native {_compiled.COMPILED}, {ns.players} players: {plain['decisions_per_cpu_s']:.0f} decisions per CPU s "
          f"unwrapped, {r['decisions_per_cpu_s']:.0f} wrapped")
    for name, t in sorted(spent.items(), key=lambda item: -item[1]):
        print(f"{name:15s} {100 * t / r['cpu_seconds']:5.1f}%  {calls[name] / r['decisions']:.2f} calls per decision")


if __name__ == "__main__":
    main()
