"""Rules §2 "C) Activate workers": which edges activate (new tile's edges facing jungle, including
spaces filled this turn; other tiles' edges facing newly filled spaces, for their owners), once per
worker, turn player first then clockwise, skipping and partial use, edge order, market limited by
fruit, and the storage / sun / water caps. Temples are not asked about."""

from __future__ import annotations

import pytest
from cacao_helpers import (
    E,
    N,
    S,
    W,
    assert_illegal,
    facing,
    gold,
    legal_strings,
    make_state,
    pending,
    play,
    worker,
)

import boardlab
from boardlab.games.cacao.rules import CacaoState

AROUND = {N: (1, -1), E: (2, 0), S: (1, 1), W: (0, 0)}  # the jungle cells around the worker cell 1,0


def surrounded(kinds: dict[int, str], tile: str, rot: int = 0, players: int = 2, **village: int) -> CacaoState:
    """Player 0 places `tile` r`rot` at 1,0 with the given jungle tiles around it (N/E/S/W)."""
    jungle = {AROUND[d]: k for d, k in kinds.items()}
    villages = [dict(village)] + [{} for _ in range(players - 1)]
    hands = [[tile, "1111"]] + [["1111", "2101"] for _ in range(players - 1)]
    s = make_state(players, jungle=jungle, villages=villages, hands=hands)
    return play(s, f"{tile}r{rot}@1,0")


def uses(s: CacaoState, x: int, y: int, d: str) -> set[int]:
    """The worker counts offered for one pending edge."""
    return {a.count for a in s.legal_actions() if a[0] == "use" and (a.x, a.y, "NESW"[a.edge]) == (x, y, d)}


TWO_SPACES = {(0, -1): worker(1, "1111", 0), (2, 1): worker(1, "1111", 0)}


def test_cacao_new_tile_edges_and_others_facing_filled_spaces_activate() -> None:
    """The new tile's four edges (two facing spaces filled this turn) and the other player's edges facing
    those spaces activate; the other player's edge facing the old market does not (already used)."""
    s = make_state(workers=TWO_SPACES, display=["gold2", "water"], pile=["temple", "sun"])
    play(s, "1111r0@1,0", "fill gold2@2,0")
    assert pending(s, 0) == {(1, 0, "N", 1, "water"), (1, 0, "E", 1, "gold2"),
                             (1, 0, "S", 1, "market2"), (1, 0, "W", 1, "plantation1")}
    assert pending(s, 1) == {(0, -1, "E", 1, "water"), (2, 1, "N", 1, "gold2")}
    assert s.queue == [0, 1] and s.current_player == 0
    play(s, "auto")
    assert s.current_player == 1
    play(s, "auto")
    assert gold(s) == [2 + 2, 2]  # P0: gold mine 2, then harvest 1 and sell at the price-2 market
    assert [v.water for v in s.villages] == [1, 1]
    assert s.turn == 1 and s.phase == "place"


def test_cacao_turn_players_own_older_tile_activates_on_filled_space() -> None:
    """A worker tile of the turn's player placed earlier activates too when a space next to it is filled."""
    workers = {(0, -1): worker(0, "1111", 0), (2, 1): worker(1, "1111", 0)}
    s = make_state(workers=workers, display=["gold2", "water"])
    play(s, "1111r0@1,0", "fill water@2,0")
    assert (0, -1, "E", 1, "gold2") in pending(s, 0)
    assert pending(s, 1) == {(2, 1, "N", 1, "water")}


def test_cacao_edge_with_no_workers_facing_filled_space_is_not_asked() -> None:
    """An edge showing 0 workers is spent but there is nothing to decide."""
    workers = {(2, 1): facing(1, 0, N)}
    s = make_state(workers=workers, display=["gold2", "water"])
    play(s, "2101r0@1,0", "fill gold2@2,0")
    assert 1 not in s.pending
    assert (2, 1, 1, N) in s.activated


def test_cacao_each_worker_activates_once() -> None:
    """The new tile's edge facing a space filled this turn activates once; later tiles placed next to the
    same jungle tile do not re-activate older workers."""
    s = make_state(workers={(2, 1): worker(1, "1111", 0)}, display=["gold2", "water"], pile=["sun", "temple"],
                   hands=[["2101", "1111"], ["2101", "1111"]])
    # (after this turn the display is refilled to water + temple)
    play(s, "2101r1@1,0", "fill gold2@2,0")  # r1: the 2 faces east, towards the gold mine
    assert [e for e in pending(s, 0) if e[2] == "E"] == [(1, 0, "E", 2, "gold2")]
    play(s, "auto", "auto")
    assert gold(s) == [4, 2]
    # player 1 now places next to the same gold mine: only the new tile's edge activates
    play(s, "2101r3@3,0", "fill temple@3,1")  # r3: the 2 faces west, towards 2,0; 3,1 had to be filled
    assert set(s.pending) == {1}
    assert pending(s, 1) == {(3, 0, "W", 2, "gold2")}
    play(s, "auto")
    assert gold(s) == [4, 6]


def test_cacao_activation_order_turn_player_then_clockwise() -> None:
    """Players decide one after another starting with the turn's player, then clockwise (3 players,
    turn of player 1: 1, 2, 0); each gains on their own village."""
    workers = {(0, -1): worker(2, "1111", 0), (2, 1): worker(0, "1111", 0)}
    s = make_state(3, workers=workers, display=["gold2", "gold1"], turn=1)
    play(s, "1111r0@1,0", "fill gold2@2,0")
    assert s.queue == [1, 2, 0]
    order = []
    while s.phase == "activate":
        order.append(s.current_player)
        play(s, "auto")
    assert order == [1, 2, 0]
    assert gold(s) == [2, 1 + 2 + 2, 1]


def test_cacao_not_your_turn_to_decide() -> None:
    """During activations only the deciding player may act."""
    s = make_state(workers=TWO_SPACES, display=["gold2", "water"])
    play(s, "1111r0@1,0", "fill gold2@2,0")
    with pytest.raises(boardlab.IllegalActionError):
        s.apply(s.legal_actions()[0], seat=1)
    assert "no activated" in assert_illegal(s, "use 2,1 N 1")  # player 1's edge, but player 0 decides


def test_cacao_skipping_and_partial_use() -> None:
    """k=0 skips an edge; k < n uses part of it; an edge is resolved once (all its workers before the
    next edge), so it cannot be used again."""
    s = surrounded({E: "gold2", W: "water", S: "sun"}, "2101", 1)  # N1 E2 S1 W0
    assert uses(s, 1, 0, "E") == {0, 1, 2}
    play(s, "use 1,0 E 1")
    assert gold(s) == [2, 0]
    assert "no activated" in assert_illegal(s, "use 1,0 E 1")
    play(s, "use 1,0 S 0")
    assert s.villages[0].sun == 0
    assert pending(s, 0) == set()
    assert s.turn == 1  # W faces water with 0 workers: nothing left to decide


def test_cacao_too_many_workers_refused() -> None:
    """Using more workers than the edge shows is refused."""
    s = surrounded({E: "gold2", S: "sun"}, "2101", 1)
    assert "2 worker" in assert_illegal(s, "use 1,0 E 3")


def test_cacao_harvest_then_sell_order_matters() -> None:
    """Edge order is the player's: harvesting first then selling earns; selling first (no fruit) cannot."""
    s = surrounded({W: "plantation1", E: "market3"}, "1111")
    assert uses(s, 1, 0, "E") == {0}
    assert_illegal(s, "use 1,0 E 1")
    play(s, "use 1,0 W 1")
    assert uses(s, 1, 0, "E") == {0, 1}
    play(s, "use 1,0 E 1")
    assert (s.villages[0].fruit, s.villages[0].gold) == (0, 3)

    s2 = surrounded({W: "plantation1", E: "market3"}, "1111")
    play(s2, "use 1,0 E 0", "use 1,0 W 1")
    assert (s2.villages[0].fruit, s2.villages[0].gold) == (1, 0)


def test_cacao_market_limited_by_fruit_held() -> None:
    """A 2-worker market edge with 1 fruit in storage sells at most 1."""
    s = surrounded({E: "market4", W: "temple"}, "2101", 1, fruit=1)
    assert uses(s, 1, 0, "E") == {0, 1}
    assert_illegal(s, "use 1,0 E 2")
    play(s, "use 1,0 E 1")
    assert (s.villages[0].fruit, s.villages[0].gold) == (0, 4)


def test_cacao_auto_uses_best_order() -> None:
    """`auto` harvests before selling (best gold), here 2 fruit then 2 sold at 4."""
    s = surrounded({N: "plantation2", E: "market4", S: "water"}, "2101", 1)
    play(s, "auto")
    v = s.villages[0]
    assert (v.fruit, v.gold, v.water) == (0, 8, 1)


@pytest.mark.parametrize(
    ("fruit", "kind", "rot", "expected"),
    [(4, "plantation2", 0, 5), (3, "plantation2", 1, 5), (5, "plantation1", 0, 5), (0, "plantation2", 1, 4)],
)
def test_cacao_storage_cap_five(fruit: int, kind: str, rot: int, expected: int) -> None:
    """Fruit beyond 5 is wasted (r0: 1 worker east, r1: 2 workers east)."""
    s = surrounded({E: kind, W: "temple"}, "2101", rot, fruit=fruit)
    play(s, "auto")
    assert s.villages[0].fruit == expected


@pytest.mark.parametrize(("sun", "expected"), [(3, 3), (2, 3), (0, 2)])
def test_cacao_sun_cap_three(sun: int, expected: int) -> None:
    """At most 3 sun tokens; extra ones are wasted (a 2-worker edge on a sun site)."""
    s = surrounded({E: "sun", W: "temple"}, "2101", 1, sun=sun)
    play(s, "use 1,0 E 2")
    assert s.villages[0].sun == expected


@pytest.mark.parametrize(("water", "count", "expected"), [(8, 1, 8), (7, 2, 8), (6, 2, 8), (0, 2, 2)])
def test_cacao_water_cap_sixteen(water: int, count: int, expected: int) -> None:
    """The carrier moves one field per worker and stops on 16 (field 8)."""
    s = surrounded({E: "water", W: "temple"}, "2101", 1, water=water)
    play(s, f"use 1,0 E {count}")
    assert s.villages[0].water == expected
    assert s.scores()[0].breakdown["water"] == (-10, -4, -1, 0, 2, 4, 7, 11, 16)[expected]


def test_cacao_gold_mines_pay_per_worker() -> None:
    """A value-1 mine pays 1 per worker, a value-2 mine 2 per worker."""
    s = surrounded({E: "gold1", W: "gold2"}, "3100", 1)  # r1: N0 E3 S1 W0 -> E3 on gold1
    play(s, "auto")
    assert gold(s)[0] == 3
    s2 = surrounded({E: "gold1", W: "gold2"}, "2101", 3)  # r3: W2 on gold2, E0
    play(s2, "auto")
    assert gold(s2)[0] == 4


def test_cacao_temple_edges_are_not_asked() -> None:
    """A temple has no immediate effect: its edges are spent without a decision, the turn ends."""
    s = surrounded({E: "temple", W: "temple", N: "temple", S: "temple"}, "1111")
    assert s.turn == 1 and s.phase == "place"
    assert {(1, 0, 1, d) for d in range(4)} <= s.activated


def test_cacao_use_offers() -> None:
    """The decision lists `auto` and, per pending edge, every count from 0 to what can be used (a market
    with no fruit in storage: only 0)."""
    s = surrounded({E: "gold2", W: "market2"}, "1111")
    assert legal_strings(s) == {"auto", "use 1,0 E 0", "use 1,0 E 1", "use 1,0 W 0"}
