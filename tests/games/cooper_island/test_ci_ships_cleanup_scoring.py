"""Ships (helm points, islets, captain's logs, harbour tolls, anchors), the cleanup phase in the seed's
order, the end after round 5, final scoring and the tie-break."""

from __future__ import annotations

from ci_helpers import at, give, legal, new, play, random_game, skip_income, tile


def test_ships_sail_opposite_ways_round_the_whole_island() -> None:
    s = new(2, 0)
    p = s.current_player
    P = s.players[p]
    base = p * s.C.segment
    at(s, ("helm", p, 3))
    play(s, "ship 1")
    assert P.ships[0] == base + 3
    at(s, ("helm", p, 2))
    play(s, "ship 2")
    assert P.ships[1] == (base - 2) % s.ring


def test_captains_log_every_five_spaces_scores_one_point_per_space() -> None:
    s = new(2, 0)
    p = s.current_player
    P = s.players[p]
    at(s, ("helm", p, 7))
    play(s, "ship 1")
    assert P.logs == 1 and P.since[0] == 2  # the log symbol on beach 5, then 2 more
    assert s.score_of(p).breakdown["logs"] == 7
    assert sum(P.market.values()) >= 1  # the log token's good


def test_passing_any_players_islet_gives_its_bonus() -> None:
    s = new(2, 0)
    p = s.current_player
    q = 1 - p
    s.islet_at[q * s.C.segment + 8] = (q, 1)  # the other player's islet 2 (1 stone) beside their beach 8
    P = s.players[p]
    # ship 2 sails counter-clockwise from p's harbour into q's segment: beach 9 then beach 8 of q
    at(s, ("helm", p, 2))
    play(s, "ship 2")
    assert P.market["stone"] == 1


def test_harbour_toll_or_anchor() -> None:
    s = new(2, 0)
    p = s.current_player
    q = 1 - p
    P = s.players[p]
    P.ships[0] = (q * s.C.segment - 1) % s.ring  # one beach before q's harbour
    at(s, ("helm", p, 1))
    play(s, "ship 1")
    assert s.todo[-1] == ("fee", p, q)
    assert "anchor" in legal(s)
    play(s, "pay s coin")
    assert s.players[q].market["coin"] == 1 and P.store["coin"] == 0


def test_anchors_are_lifted_by_helm_points_first() -> None:
    """Decision D7: each helm point first lifts one anchor; the rest move a ship."""
    s = new(2, 0)
    p = s.current_player
    P = s.players[p]
    P.anchors = 2
    at(s, ("helm", p, 3))
    assert P.anchors == 0
    play(s, "ship 1")
    assert P.since[0] == 1
    P.anchors = 3
    at(s, ("helm", p, 2))
    assert P.anchors == 1 and s.todo[-1][0] != "move"


def test_feeding_short_costs_anchors_and_fed_with_three_hires_gives_helm() -> None:
    s = new(2, 0)
    p = s.current_player
    P = s.players[p]
    P.miles = [0, 1, 2, 3]
    P.total_n, P.total_s = 4, 2  # 4 hires: upkeep 3 (reconstructed)
    tile(s, p, 18, "", cube="")  # the start food cube is gone
    P.cube[17] = ""
    P.changed()
    s.supply["food"] += 1
    give(s, p, "market", food=1)
    at(s, ("feed", p))
    assert P.anchors == 2 and P.market["food"] == 0 and not P.fed
    P.anchors = 0
    give(s, p, food=3)
    s.todo.append(("cbonus", p))
    at(s, ("feed", p))
    play(s, "auto")
    assert P.fed and P.store["food"] == 0
    # the bonus step: fed with 3+ hires = +1 helm (no statues, no road)
    assert s.todo[-1] == ("helm", p, 1)


def test_cleanup_statues_and_road_give_helm_market_discarded_round_advances() -> None:
    s = skip_income(new(2, 0))
    p = s.start
    P = s.players[p]
    P.statues = 2
    for h in (1, 2, 3):
        tile(s, p, h, "F")
    P.miles = [0, 1, 2, 3]
    P.total_n, P.total_s = 4, 2
    P.idle_n, P.idle_s = 4, 2
    give(s, p, food=3)
    give(s, p, "market", wood=2)
    while s.phase == "worker":
        acts = s.legal_actions()
        s.apply(next((a for a in acts if str(a) in ("pass", "done")), acts[0]))
    assert s.phase == "cleanup"
    seen_helm = []
    while s.round == 0:
        if s.todo[-1][0] == "helm" and s.todo[-1][1] == p:
            seen_helm.append(s.todo[-1][2])
        acts = s.legal_actions()
        s.apply(next((a for a in acts if str(a) in ("done", "auto", "ship 1")), acts[0]))
    assert seen_helm[:3] == [1, 2, 1]  # fed with 4 hires, then 2 statues, then the road's top three: 3 gains
    assert all(v == 0 for v in P.market.values())
    assert s.round == 1 and s.phase == "income"
    assert all(not v for v in s.spaces.values())
    assert P.idle_n == P.total_n - P.orders_n


def test_the_game_ends_after_round_five() -> None:
    s = random_game(2, 11)
    assert s.is_over and s.round == 5 and s.phase == "over"


def test_final_scoring_parts() -> None:
    s = new(3, 0)
    p = 0
    P = s.players[p]
    P.logs, P.since = 3, [2, 4]
    P.anchors = 2
    P.carto = 4
    P.hand = [1, 1, 0]
    P.store = {"wood": 1, "stone": 0, "food": 0, "gold": 0, "cloth": 0, "coin": 2}
    P.vp = 1
    P.cards = ["S7", "L3"]  # Chapel 3 flat; Guild Hall 2 per building (reconstructed)
    k = s.orders[0]
    s.order_worker[k] = p
    sc = s.score_of(p).breakdown
    assert sc["logs"] == 3 * 5 + 6
    assert sc["anchors"] == -2
    assert sc["leftovers"] == (1 + 2 + 4 + 2) // 5
    assert sc["buildings"] == 3 + 2 * 2
    assert sc["workshop"] == 1
    what, tiers = s.C.orders[k]
    have = s.count(p, what)
    assert sc["orders"] == max((pts for need, pts in tiers if have >= need), default=0)
    assert s.score_of(p).total == sum(sc.values())


def test_tie_break_fewer_empty_island_spaces() -> None:
    s = new(2, 0)
    tile(s, 1, 13, "F")
    a, b = s.score_of(0), s.score_of(1)
    assert a.total == b.total
    assert b.tiebreak > a.tiebreak
    s.phase = "over"
    s.todo.clear()
    s._legal = None
    s._run()
    assert s.is_over and s.winners() == [1]
