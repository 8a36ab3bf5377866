"""The worked examples of cacao.md §2b (rulebook and the Chinese seed write-up), played through the
public API."""

from __future__ import annotations

import pytest
from cacao_helpers import (
    E,
    N,
    S,
    W,
    facing,
    gold,
    make_state,
    pending,
    play,
    worker,
)

from boardlab.games.cacao.rules import CacaoState

YELLOW, RED, PURPLE = 0, 1, 2


def market_example() -> CacaoState:
    """Yellow (seat 0) is to place next to the start plantation (0,0) and market (1,1); Red's tile at 2,1
    (1 worker facing north) and Red's 1 stored fruit; the display offers a price-3 market."""
    s = make_state(workers={(2, 1): worker(RED, "1111", 0)}, display=["market3", "gold1"], pile=["sun", "water"],
                   villages=[{}, {"fruit": 1}])
    # Yellow: 2-1-0-1 r0 -> 2 north (empty space), 1 east (the new market), 0 south (start market),
    # 1 west (start plantation). Placing it makes 2,0 touch two worker tiles: it must be filled.
    return play(s, "2101r0@1,0", "fill market3@2,0")


def test_cacao_seed_market_example_step_by_step() -> None:
    """Seed, step C: Yellow harvests 1 fruit and sells it at the new price-3 market (+3, back to 0 fruit);
    Red, whose worker faces the same market, sells the 1 fruit he holds (+3)."""
    s = market_example()
    assert pending(s, YELLOW) == {(1, 0, "W", 1, "plantation1"), (1, 0, "E", 1, "market3")}
    assert pending(s, RED) == {(2, 1, "N", 1, "market3")}
    play(s, "use 1,0 W 1", "use 1,0 E 1", "use 2,1 N 1")
    assert gold(s) == [3, 3]
    assert [v.fruit for v in s.villages] == [0, 0]


def test_cacao_seed_market_example_with_auto() -> None:
    """`auto` finds the same outcome for both players."""
    s = market_example()
    play(s, "auto", "auto")
    assert gold(s) == [3, 3]
    assert [v.fruit for v in s.villages] == [0, 0]


def test_cacao_rebuild_example() -> None:
    """Seed/RB rebuild example: pile and display empty, Red pays a sun token and rebuilds his own tile;
    its edges face a double plantation (1 worker: 2 fruit), a price-4 market (2 workers: sells 2 x 4 = 8)
    and a water tile (carrier +1); the temple gets its 0-worker edge."""
    jungle = {(1, -1): "plantation2", (2, 0): "market4", (1, 1): "water", (0, 0): "temple"}
    s = make_state(jungle=jungle, workers={(1, 0): worker(RED, "1111", 0)}, turn=RED,
                   villages=[{}, {"sun": 1}], hands=[["1111"], ["2101", "1111"]])
    play(s, "rebuild 2101r1@1,0")  # N1 E2 S1 W0
    assert pending(s, RED) == {(1, 0, "N", 1, "plantation2"), (1, 0, "E", 2, "market4"), (1, 0, "S", 1, "water")}
    play(s, "use 1,0 N 1", "use 1,0 E 2", "use 1,0 S 1")
    v = s.villages[RED]
    assert (v.fruit, v.gold, v.water, v.sun) == (0, 8, 1, 0)
    assert s.workers[(1, 0)].layers == 2


def test_cacao_temple_tie_example() -> None:
    """RB/seed temple example: Yellow 2, Red 2, Purple 1 -> Yellow 3, Red 3 (split of 6), Purple 0 (no second
    place after a tie for first)."""
    t = (2, 2)
    workers = {(2, 1): facing(YELLOW, 2, S), (3, 2): facing(RED, 2, W), (2, 3): facing(PURPLE, 1, N)}
    s = make_state(3, jungle={(0, 0): "plantation1", (1, 1): "market2", t: "temple"}, workers=workers)
    assert [x.breakdown["temples"] for x in s.scores()] == [3, 3, 0]


def test_cacao_two_worker_edge_on_value_two_gold_mine() -> None:
    """Seed reader question: an edge of 2 workers on a value-2 gold mine: each worker once, 2 x 2 = 4 gold."""
    s = make_state(jungle={(2, 0): "gold2"}, hands=[["2101"], ["1111"]])
    play(s, "2101r1@1,0")  # the 2 faces east, towards the mine
    assert pending(s, 0) == {(1, 0, "E", 2, "gold2")}
    play(s, "use 1,0 E 2")
    assert gold(s) == [4, 0]


@pytest.mark.parametrize(
    ("players", "tiles", "expected"),
    [
        (2, [(0, 2)], [6, 0]),  # a single player on a temple: 6, nobody gets 3
        (3, [(0, 3), (1, 1), (2, 1)], [6, 1, 1]),  # clear first, two tied for second: 3 // 2 = 1 each
    ],
)
def test_cacao_rulebook_temple_examples(players: int, tiles: list[tuple[int, int]], expected: list[int]) -> None:
    """RB: one player alone on a temple takes 6; a clear first and two tied seconds give 6, 1, 1."""
    t = (2, 2)
    cells = {N: (2, 1), E: (3, 2), S: (2, 3), W: (1, 2)}
    workers = {cells[d]: facing(o, c, (d + 2) % 4) for d, (o, c) in enumerate(tiles)}
    s = make_state(players, jungle={(0, 0): "plantation1", (1, 1): "market2", t: "temple"}, workers=workers)
    assert [x.breakdown["temples"] for x in s.scores()] == expected
