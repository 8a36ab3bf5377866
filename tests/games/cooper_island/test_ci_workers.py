"""The worker phase (seed §2): spaces A-H with their normal and special effects, occupied spaces, paying
without change, the special workers' discount, buildings, statues, crates and hiring."""

from __future__ import annotations

import pytest
from ci_helpers import at, coins, give, legal, new, play, refresh, skip_income, tile

from boardlab.core.errors import IllegalActionError


def worker_state(seed: int = 0):
    s = skip_income(new(2, seed))
    assert s.phase == "worker" and s.current_player == s.start
    return s


def test_a_normal_is_draw_or_place_plus_cartographer_and_takes_start_player() -> None:
    s = worker_state()
    p = s.current_player
    other = 1 - p
    P = s.players[p]
    carto, hand, bag = P.carto, sum(P.hand), len(s.bag)
    play(s, "A")
    assert P.carto == carto + 1
    assert set(legal(s)) <= {"draw", "place"} and "draw" in legal(s)
    play(s, "draw")
    assert sum(P.hand) == hand + 1 and len(s.bag) == bag - 1
    assert s.next_start == p
    play(s, "done")
    # the other player's normal worker on A does not take the start player back, and pays a fee
    assert s.current_player == other
    play(s, "A")
    assert s.next_start == p


def test_first_normal_worker_on_a_takes_the_start_player_for_next_round() -> None:
    s = worker_state(1)
    p = s.current_player
    other = 1 - p
    play(s, "E", "res wood", "done")
    assert s.current_player == other
    play(s, "A", "draw")
    assert s.next_start == other


def test_a_special_does_both_draw_and_place() -> None:
    s = worker_state()
    p = s.current_player
    P = s.players[p]
    P.idle_s = P.total_s = 1
    refresh(s)
    hexes = sum(len(x) for x in P.stack)
    hand = sum(P.hand)
    play(s, "A special")
    # drawn automatically, then the placement question (the hand now has 3 tiles)
    assert s.todo[-1][0] == "tile" or s.todo[-1][0] == "at"
    while s.todo[-1][0] in ("tile", "at"):
        s.apply(s.legal_actions()[0])
    assert sum(len(x) for x in P.stack) == hexes + 2 and sum(P.hand) == hand


def test_occupied_space_costs_one_cube_or_coin_to_the_previous_occupant_or_an_anchor() -> None:
    s = worker_state()
    p = s.current_player
    q = 1 - p
    play(s, "E", "res wood", "done")
    assert s.current_player == q
    play(s, "E")  # the fee is due when the worker is placed, before the action (D5)
    assert s.todo[-1][0] == "fee"
    opts = legal(s)
    assert "anchor" in opts and "pay s coin" in opts and "pay h 18" in opts
    before = s.players[p].market["coin"]
    play(s, "pay s coin", "res stone")
    assert s.players[p].market["coin"] == before + 1 and s.players[q].store["coin"] == 0
    play(s, "done")
    # a space holding one's own worker is never offered again
    assert s.current_player == p
    assert "E" not in legal(s)
    with pytest.raises(IllegalActionError):
        play(s, "E")


def test_occupied_space_anchor_instead_of_paying() -> None:
    s = worker_state()
    p = s.current_player
    q = 1 - p
    play(s, "E", "res wood", "done", "E", "anchor", "res stone")
    assert s.players[q].anchors == 1


def test_paying_never_gives_change() -> None:
    """A 3-high wood cube paying a 1-wood boat is spent whole (seed: 無法分開支付)."""
    s = worker_state()
    p = s.current_player
    P = s.players[p]
    tile(s, p, 13, "FFF", cube="wood")
    P.miles = [1]  # the "3 high" milestone is not what this test is about
    play(s, "B", "boat 1")
    assert s.todo[-1][0] == "pay"
    play(s, "pay h 13")
    assert not P.cube[12] and P.boats == [0] and s.avail(p, "wood") == 0
    assert P.store["wood"] == 0 and P.market["wood"] == 0


def test_b_special_takes_two_off_the_cost() -> None:
    s = worker_state()
    p = s.current_player
    P = s.players[p]
    P.idle_s = P.total_s = 1
    P.boats = [0, 1, 2]  # the 4th parking space costs wood 3, cloth 1
    P.miles = [0]  # the boat milestone was already reached
    give(s, p, wood=2)
    refresh(s)
    assert "B special" in legal(s) and "B" not in legal(s)
    play(s, "B special", "boat 6")
    assert s.todo[-1][0] == "cut"
    assert set(legal(s)) == {"cut wood", "cut cloth"}
    play(s, "cut cloth", "auto")  # now only wood 3 left, 2 available: the second cut must be wood
    assert P.boats == [0, 1, 2, 5] and P.store["wood"] == 0


def test_d_builds_on_the_highest_free_tile_with_helm_and_draws_four() -> None:
    s = worker_state()
    p = s.current_player
    P = s.players[p]
    tile(s, p, 13, "SS")  # highest free tile, a settlement: +1 helm
    tile(s, p, 17, "F")
    give(s, p, wood=1, stone=1)
    s.small.remove("S7")
    s.small.insert(2, "S7")  # the Chapel (no effect, reconstructed) is among the 4 drawn
    deck = len(s.small)
    play(s, "D", "auto")  # only a small building is affordable, and only hex 13 is free and highest
    assert s.todo[-1][0] == "pick" and s.todo[-1][3] == 12
    assert len(s.offer) == 4 and len(s.small) == deck - 4
    offer = list(s.offer)
    pick = "S7"
    play(s, f"card {pick}")
    assert P.occ[12] == pick and P.cards == [pick]
    assert s.small[-3:] == [c for c in offer if c != pick]  # the rest go under the deck
    # helm: 1 (small) + 1 (settlement) = 2; the seat chooses a ship
    assert s.todo[-1] == ("helm", p, 2)
    play(s, "ship 1")
    assert P.ships[0] == p * s.C.segment + 2 and P.since[0] == 2


def test_fortress_makes_reactivation_free() -> None:
    """With the option `reactivation=any` (the seed's one reactivation: test_ci_seed.py), all are free and automatic."""
    s = skip_income(new(2, 0, reactivation="any"))
    p = s.current_player
    P = s.players[p]
    P.built["fort"] = 1
    P.cards = ["L2"]
    s.large.remove("L2")
    P.large_used = {"L2"}
    P.icons = [True, False, False, False, False]
    at(s, ("react", p))
    assert P.large_used == set() and P.icons[0] is False and P.crates == 1


def test_reactivation_costs_coins_without_a_fortress() -> None:
    s = skip_income(new(2, 0, reactivation="any"))
    p = s.current_player
    P = s.players[p]
    P.cards = ["L2"]
    s.large.remove("L2")
    P.large_used = {"L2"}
    P.icons = [True, False, False, False, False]
    give(s, p, coin=1)  # 2 coins in all
    at(s, ("react", p))
    assert set(legal(s)) == {"react L2", "react crate 1", "done"}
    play(s, "react L2", "auto")
    assert coins(s, p) == 0 and P.large_used == set()
    assert "react crate 1" not in legal(s)


def test_f_ruin_to_workshop_points_on_slots_two_and_three() -> None:
    s = worker_state()
    p = s.current_player
    P = s.players[p]
    play(s, "F")
    assert set(legal(s)) == {"ruin 7", "ruin 8", "ruin 15"} or legal(s) == ["ruin"] or "ruin" in legal(s)
    if "ruin" in legal(s):
        play(s, "ruin")
    play(s, "ruin 8")
    assert not P.ruin[7] and P.ruins_taken == 1 and P.vp == 0
    P.ruins_taken = 1
    at(s, ("ruin", p))
    play(s, "ruin 7")
    assert P.vp == 1
    at(s, ("ruin", p))
    assert legal(s) == ["ruin 15"] or s.players[p].ruins_taken == 3
    assert P.vp == 2 and P.ruins_taken == 3
    at(s, ("ruin", p))  # the workshop is full: nothing happens
    assert P.ruins_taken == 3


def test_f_statue_goes_on_the_highest_free_tile() -> None:
    s = worker_state()
    p = s.current_player
    P = s.players[p]
    P.ruins_taken = 1
    P.ruin[6] = False
    tile(s, p, 13, "RR")
    give(s, p, stone=2)
    refresh(s)
    play(s, "F", "statue")
    play(s, "auto")
    assert P.occ[12] == "statue" and P.statues == 1 and P.store["stone"] == 0


def test_h_crate_from_the_current_card_turned_costs_one_less_once() -> None:
    s = worker_state()
    p = s.current_player
    P = s.players[p]
    give(s, p, wood=1)  # card 1 costs wood 1 + food 1; the start food cube pays the food
    refresh(s)
    play(s, "H")
    opts = legal(s)
    assert "crate 1 turn" in opts and "crate 1" in opts
    play(s, "crate 1 turn", "cut food", "auto")
    assert s.turned[0] and P.crates == 1 and p not in s.cargo[0]
    assert P.store["wood"] == 0 and P.cube[17] == "food"


def test_crate_icons_are_used_once_each() -> None:
    s = worker_state()
    p = s.current_player
    P = s.players[p]
    P.crates = 2
    refresh(s)
    play(s, "use 4")  # 2 coins to the market
    assert P.market["coin"] == 2 and P.icons[3]
    assert "use 4" not in legal(s)


def test_exchanges() -> None:
    s = worker_state()
    p = s.current_player
    P = s.players[p]
    give(s, p, "market", cloth=2, gold=2)
    refresh(s)
    play(s, "ex cloth", "auto")
    assert P.market["cloth"] == 0 and P.market["coin"] == 1
    play(s, "ex gold", "auto", "res stone")
    assert P.market["gold"] == 0 and P.market["stone"] == 1
    give(s, p, "market", wood=2)
    play(s, "ex any", "auto", "res coin")
    assert P.market == {"wood": 0, "stone": 0, "food": 0, "gold": 0, "cloth": 0, "coin": 1}
    assert P.store["coin"] == 1 and P.cube[17] == "food"  # market goods went first, one unit each


def test_milestone_hires_and_special_goes_with_a_royal_order() -> None:
    s = worker_state()
    p = s.current_player
    P = s.players[p]
    tile(s, p, 13, "MMM")  # milestone 2 (a hex 3 high, reconstructed)
    refresh(s)
    assert s.todo[-1][0] == "hire" and set(legal(s)) == {"hire normal", "hire special", "skip"}
    play(s, "hire special")
    assert s.todo[-1][0] == "order"
    k = s.orders[0]
    play(s, f"order {k + 1} normal")
    assert s.order_worker[k] == p and P.idle_n == 1 and P.idle_s == 1 and P.orders_n == 1
    assert P.miles == [1]


def test_e_and_g_specials() -> None:
    s = worker_state()
    p = s.current_player
    P = s.players[p]
    P.idle_s = P.total_s = 1
    q = 1 - p
    s.players[q].boats = [5]  # the other player's boat 6: 2 helm
    refresh(s)
    carto = P.carto
    play(s, "E special", "res coin")
    assert P.carto == min(s.C.carto_max, carto + 3)
    assert legal(s) == ["ship 1", "ship 2"]  # useboat P2 6 was the only boat, so it ran at once
    play(s, "ship 2")
    assert P.since[1] == 2
