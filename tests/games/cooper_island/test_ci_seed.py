"""Issue #33, Cooper Island: where the engine left the seed (002_…). One test per bullet, each named after it;
the decisions and the seed's words are in docs/rules/cooper_island.md (D5, D14, D20, D26-D29)."""

from __future__ import annotations

import json
from importlib import resources

import pytest
from ci_helpers import GAME, at, coins, give, legal, new, play, refresh, skip_income, tile

from boardlab.core.errors import ConfigError


def worker_state(seed: int = 0, **options: object):
    s = skip_income(new(2, seed, **options))
    assert s.phase == "worker" and s.current_player == s.start
    return s


def empty_handed(s, q: int) -> None:
    """Take every coin and cube from q (test set-up)."""
    P = s.players[q]
    for box in (P.store, P.market):
        for g in box:
            if g != "coin":
                s.supply[g] += box[g]
            box[g] = 0
    for i, c in enumerate(P.cube):
        if c:
            s.supply[c] += 1
            P.cube[i] = ""
    P.changed()


# -- islet goods ----------------------------------------------------------------------------------------
def test_islet_goods_become_a_cube_on_a_landscape_tile() -> None:
    """「立即獲取小島上所顯示的資源,並在地形板塊的位置放上相對應的資源方塊」: the islet's good is a cube on a tile
    of the island (worth its height), not a market good lost at clean-up."""
    s = new(2, 0)
    p = s.current_player
    P = s.players[p]
    tile(s, p, 13, "MM")  # a free 2-high tile (no cube); the start hex 18 holds its food cube
    tile(s, p, 17, "R")
    refresh(s)
    play(s, "islet 1 2")  # islet 1 = 1 wood (reconstructed)
    assert s.todo[-1][0] == "icube" and legal(s) == ["cube 13", "cube 17"]  # covered tiles with no cube, any terrain
    play(s, "cube 13")
    assert P.cube[12] == "wood" and P.market["wood"] == 0
    assert s.avail(p, "wood") == 2  # worth the tile's height, like every island cube
    assert s.islet_at[p * s.C.segment + 2] == (p, 0)


def test_islet_good_goes_to_the_market_when_no_tile_is_free() -> None:
    s = new(2, 0)
    p = s.current_player
    P = s.players[p]
    play(s, "islet 1 2")  # only the start hex is covered, and it holds a cube
    assert P.market["wood"] == 1 and all(c in ("", "food") for c in P.cube)


# -- the fee is due when the worker is placed ------------------------------------------------------------
def test_fee_for_an_occupied_space_is_due_when_the_worker_is_placed() -> None:
    """「當放置時,必須支付…如果不想或是不能支付,則拿取一枚船錨」: nothing the action gives can pay it."""
    s = worker_state()
    p = s.current_player
    q = 1 - p
    play(s, "E", "res wood", "done")
    empty_handed(s, q)
    refresh(s)
    play(s, "E")  # q has nothing when placing: the anchor is the only answer, taken before the action
    assert s.players[q].anchors == 1 and s.todo[-1][0] == "any"
    play(s, "res stone")
    assert s.players[q].market["stone"] == 1 and s.todo[-1][0] == "after"  # no fee asked after the action
    assert s.players[p].market == dict.fromkeys(s.players[p].market, 0) | {"wood": 1}


def test_fee_cannot_spend_what_the_spaces_cost_needs() -> None:
    s = worker_state()
    p = s.current_player
    q = 1 - p
    for k in (p, q):
        empty_handed(s, k)
        give(s, k, wood=1, coin=1)
    refresh(s)
    play(s, "B", "boat 1", "auto", "done")  # parking 1 costs 1 wood (reconstructed)
    play(s, "B")
    assert s.todo[-1][0] == "fee"
    assert set(legal(s)) == {"pay s coin", "anchor"}  # the wood must still pay for the boat
    play(s, "pay s coin", "boat 2", "auto")
    assert s.players[q].boats == [1] and s.players[p].market["coin"] == 1


# -- one reactivation per clean-up -------------------------------------------------------------------------
def _react_state(**options: object):
    s = worker_state(**options)
    p = s.current_player
    P = s.players[p]
    P.cards = ["L2"]
    s.large.remove("L2")
    P.large_used = {"L2"}
    P.icons = [True, False, False, False, False]
    give(s, p, coin=4)
    at(s, ("react", p))
    return s, p, P


def test_one_reactivation_per_cleanup() -> None:
    """「你可以支付2硬幣將一張使用過的大建築卡翻回來 或是 支付1硬幣將一個板條箱指示物變為未使用」: one, not both."""
    s, p, P = _react_state()
    assert set(legal(s)) == {"react L2", "react crate 1", "done"}
    play(s, "react crate 1", "auto")
    assert P.icons[0] is False and "L2" in P.large_used and coins(s, p) == 4
    assert s.todo[-1][0] != "react"  # the step is over: no second reactivation


def test_unlimited_reactivation_is_a_named_option() -> None:
    s, p, P = _react_state(reactivation="any")
    play(s, "react crate 1", "auto")
    assert set(legal(s)) == {"react L2", "done"}
    play(s, "react L2", "auto")
    assert P.large_used == set() and coins(s, p) == 2
    meta = json.loads(resources.files("boardlab.games.cooper_island").joinpath("about.json").read_text("utf-8"))
    labels = meta["options_meta"]["reactivation"]
    assert set(labels["choices"]["en"]) == set(labels["choices"]["zh-TW"]) == set(GAME.options["reactivation"].choices)
    assert labels["en"] and labels["zh-TW"]
    with pytest.raises(ConfigError):
        new(2, 0, reactivation="two")


def test_fortress_makes_the_one_reactivation_free() -> None:
    s = worker_state()
    p = s.current_player
    P = s.players[p]
    P.built["fort"] = 1
    P.cards = ["L2"]
    s.large.remove("L2")
    P.large_used = {"L2"}
    P.icons = [True, False, False, False, False]
    empty_handed(s, p)
    at(s, ("react", p))
    assert set(legal(s)) == {"react L2", "react crate 1", "done"}
    play(s, "react L2")
    assert P.large_used == set() and P.icons[0] is True


# -- statue and road helm are separate gains -----------------------------------------------------------
def test_statue_helm_and_road_helm_are_separate_gains() -> None:
    """Clean-up steps c (statues) and d (road) each move a ship of the player's choice."""
    s = worker_state()
    p = s.current_player
    P = s.players[p]
    P.statues = 1
    for h in s.C.road:
        tile(s, p, h + 1, "F")
    at(s, ("cbonus", p))
    assert s.todo[-1] == ("helm", p, 1) and s.todo[-2] == ("helm", p, 1)
    play(s, "ship 1", "ship 2")
    base = p * s.C.segment
    assert P.ships == [base + 1, (base - 1) % s.ring]


# -- what the seed offers --------------------------------------------------------------------------------
def test_a_hire_may_be_declined() -> None:
    """「你可以選擇從未雇用工人的位置拿取一個工人」: taking the worker is a choice; the upkeep counts hires."""
    s = worker_state()
    p = s.current_player
    P = s.players[p]
    P.miles = [0]
    at(s, ("hire", p))
    assert set(legal(s)) == {"hire normal", "hire special", "skip"}
    play(s, "skip")
    assert (P.total_n, P.total_s) == (2, 0) and s.hires(p) == 0


def test_free_actions_after_the_cleanup_helm_before_goods_are_discarded() -> None:
    s = worker_state()
    p = s.current_player
    P = s.players[p]
    s.logpool.append("stone")
    s.todo = [("cend",), ("clate", p), ("helm", p, 5)]
    refresh(s)
    play(s, "ship 1")  # passes the log symbol on beach 5: a stone to the market
    assert P.market["stone"] == 1 and s.todo[-1][0] == "clate"
    assert "store m stone" in legal(s)
    play(s, "store m stone")
    assert P.store["stone"] == 1


def test_income_actions_are_carried_out_where_they_can_be() -> None:
    """「執行所有包含收入手的動作」: no `done` while an income action can still be carried out."""
    s = new(2, 0)
    p = s.current_player
    opts = legal(s)
    assert "done" not in opts and any(a.startswith("islet") for a in opts)
    play(s, "islet 6 2")  # +1 cartographer
    opts = legal(s)
    assert "done" not in opts and any(a.startswith("tile") for a in opts)
    while any(a.startswith("tile") or a.startswith("at") for a in legal(s)):
        play(s, next(a for a in legal(s) if a.startswith(("tile", "at"))))
    assert s.current_player == p and "done" in legal(s)


# -- sandbanks ---------------------------------------------------------------------------------------------
def test_sandbanks_are_in_the_data_the_view_and_the_save() -> None:
    s = new(3, 1)
    assert s.C.sandbanks == (4, 9)
    seg = s.C.segment
    want = [q * seg + b for q in range(3) for b in (4, 9)]
    assert s.view(0)["sandbanks"] == want and s.snapshot()["sandbanks"] == want
    islet_beaches = {int(a.split()[2]) for a in legal(s) if a.startswith("islet")}
    assert islet_beaches and not islet_beaches & {4, 9}
    assert "=" in GAME.render_text(s, 0, "en")


def test_no_islet_on_a_sandbank(tmp_path) -> None:
    doc = json.loads(resources.files("boardlab.games.cooper_island").joinpath("components.json").read_text("utf-8"))
    doc["ring"]["islet_spots"] = [1, 2, 3, 4, 6, 7, 8]
    f = tmp_path / "c.json"
    f.write_text(json.dumps(doc), "utf-8")
    with pytest.raises(ConfigError, match=r"ring\.islet_spots.*sandbank"):
        new(2, 0, components=str(f))
    del doc["ring"]["sandbanks"]
    f.write_text(json.dumps(doc), "utf-8")
    with pytest.raises(ConfigError, match=r"sandbanks"):
        new(2, 0, components=str(f))
