"""The narration's cache of recently played moves is safe when tables are rebuilt in several threads at once (the
server rebuilds tables from their logs in worker threads after a start: #32's kill -9 run met a KeyError there,
a shared 8-entry cache evicting one thread's entry between its write and its read)."""

from __future__ import annotations

import random
import sys
import threading

from boardlab.core import get_game
from boardlab.core.narration import after_of


def test_after_of_from_many_threads_at_once() -> None:
    game = get_game("pocket_mars")
    positions = []
    for seed in range(16):  # more distinct positions than the cache holds
        s = game.new_game(2, seed)
        rng = random.Random(seed)
        for _ in range(5):
            s.apply(rng.choice(s.legal_actions()))
        positions.append(s)
    errors: list[BaseException] = []

    def narrate(k: int) -> None:
        try:
            for i in range(1500):
                s = positions[(k * 7 + i) % len(positions)]
                a = s.legal_actions()[0]
                assert len(after_of(s, a).history) == len(s.history) + 1
        except BaseException as e:
            errors.append(e)

    old = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)  # switch threads as often as possible: the race shows at once
    try:
        threads = [threading.Thread(target=narrate, args=(k,)) for k in range(8)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
    finally:
        sys.setswitchinterval(old)
    assert not errors, repr(errors[0])
