"""Setup (seed §setup) and the landscape rules: stacking, cubes worth the height, gold from height 3,
shims and single tiles by the cartographer, islets in the income phase."""

from __future__ import annotations

import pytest
from ci_helpers import give, legal, new, play, refresh, tile

from boardlab.core.errors import ComponentError, ConfigError, IllegalActionError


@pytest.mark.parametrize("players,orders", [(2, 4), (3, 6), (4, 8)])
def test_royal_orders_by_player_count(players: int, orders: int) -> None:
    """4p all 8; 3p 6 of 8; 2p: #8 removed, then 4 of the other 7 (seed, setup 4)."""
    for seed in range(12):
        s = new(players, seed)
        assert len(s.orders) == orders
        if players == 2:
            assert 7 not in s.orders  # order #8 (index 7) never in a 2-player game


def test_player_setup() -> None:
    """Start meadow with 1 food; 2 double tiles; 1 coin in storage; 2 normal workers; 6 islets; cartographer
    at 3 for the first and second player and 4 for the third and fourth (seed, setup 3, 6, 8, 9)."""
    s = new(4, 3)
    order = s.order()
    for k, q in enumerate(order):
        P = s.players[q]
        assert P.carto == (3 if k < 2 else 4)
        assert sum(P.hand) == 2
        assert P.store["coin"] == 1
        assert (P.total_n, P.idle_n, P.total_s) == (2, 2, 0)
        assert len(P.islets) == 6
        start = s.C.start_hex
        assert P.stack[start] == ["M"] and P.cube[start] == "food"
    assert s.current_player == s.start and s.phase == "income"


def test_two_to_four_players_only() -> None:
    with pytest.raises(ConfigError):
        new(1)
    with pytest.raises(ConfigError):
        new(5)


def test_a_double_tile_puts_a_cube_on_each_hex_worth_its_height() -> None:
    s = new(2, 0)
    p = s.current_player
    P = s.players[p]
    P.hand = [1, 0, 0]
    # split 1 side a = forest + meadow: forest on 17, meadow on 13 (both next to the start tile on 18)
    play(s, "tile 1 a", "at 17 13")
    assert P.stack[16] == ["F"] and P.cube[16] == "wood"
    assert P.stack[12] == ["M"] and P.cube[12] == "food"
    assert s.avail(p, "wood") == 1


def test_stacking_only_on_the_same_terrain_settlement_on_any() -> None:
    s = new(2, 0)
    p = s.current_player
    P = s.players[p]
    tile(s, 0 if p else 1, 1, "F")  # the other player's board does not matter
    tile(s, p, 17, "F")
    tile(s, p, 13, "R")
    P.hand = [1, 0, 0]  # split 1: a = forest/meadow, b = mountain/settlement
    spots_a = set(s.placements(p, 0, 0))
    assert all(not (a.a == "13" and a.b == "17") for a in spots_a)  # forest cannot go on the mountain
    assert any(a.a == "17" and a.b == "13" for a in s.placements(p, 0, 1)) is False  # mountain not on forest
    # side b with the settlement on the forest and the mountain on the mountain: both legal
    assert any(a.a == "13" and a.b == "17" for a in s.placements(p, 0, 1))
    play(s, "tile 1 b", "at 13 17")
    assert P.stack[12] == ["R", "R"] and P.stack[16] == ["F", "S"]
    assert P.cube[12] == "stone" and P.cube[16] == "cloth"
    assert s.avail(p, "cloth") == 2  # a cube is worth the height of its hex


def test_never_on_ruins_never_on_a_cube_and_always_connected() -> None:
    s = new(2, 0)
    p = s.current_player
    C = s.C
    for split in range(3):
        for side in (0, 1):
            for a in s.placements(p, split, side):
                i, j = int(a.a) - 1, int(a.b) - 1
                assert i not in C.ruins and j not in C.ruins
                assert i != C.start_hex and j != C.start_hex  # the start tile carries its food cube
                near = set(C.neighbours[C.start_hex])
                assert i in near or j in near  # connected to the only tile on the island


def test_mountain_at_height_three_gives_gold() -> None:
    """Decision D2: a mountain cube on a hex 3 or more high is gold instead of stone."""
    s = new(2, 0)
    p = s.current_player
    P = s.players[p]
    tile(s, p, 13, "RR")
    tile(s, p, 14, "RR")
    P.hand = [0, 1, 0]  # split 2: a = forest/mountain; b = meadow/settlement
    tile(s, p, 19, "FF")
    play(s, "tile 2 a", "at 19 14")
    assert P.stack[13] == ["R", "R", "R"] and P.cube[13] == "gold"
    assert P.cube[18] == "wood" and s.avail(p, "gold") == 3


def test_shim_costs_one_cartographer_step_and_once_per_phase() -> None:
    s = new(2, 0)
    p = s.current_player
    P = s.players[p]
    tile(s, p, 13, "F")  # height 1 next to an empty hex 17 (height 0)
    P.hand = [1, 0, 0]
    acts = s.placements(p, 0, 0)  # forest/meadow
    texts = [str(a) for a in acts]
    assert "at 13 17 shim" in texts  # forest on forest (height 1), meadow on a meadow shim on 17
    assert "at 17 13 shim" not in texts and "at 17 13" not in texts  # the meadow half cannot cover the forest
    assert "at 13 17" not in texts  # heights 1 and 0 need a shim
    P.hand = [0, 0, 1]  # split 3 a = forest/settlement: forest on 13 (height 1), settlement on 17 (height 0)
    acts = [str(a) for a in s.placements(p, 2, 0)]
    assert "at 13 17 shim" in acts and "at 13 17" not in acts
    carto = P.carto
    play(s, "tile 3 a", "at 13 17 shim")
    assert P.stack[16] == ["S", "S"] and P.stack[12] == ["F", "F"]
    assert P.carto == carto - 1 and P.carto_used
    assert not s.singles_for(p)  # the cartographer was used in this phase
    P.hand = [0, 0, 1]
    assert all(a.c != "shim" for a in s.placements(p, 2, 0))


def test_single_tile_cost_depends_on_height() -> None:
    s = new(2, 0)
    p = s.current_player
    P = s.players[p]
    P.carto = 2
    opts = legal(s)
    assert "single 17 meadow" in opts  # height 1 costs 2
    tile(s, p, 13, "F", cube="")
    refresh(s)
    assert "single 13 forest" not in legal(s)  # height 2 costs 3
    P.carto = 3
    refresh(s)
    assert "single 13 forest" in legal(s) and "single 13 meadow" not in legal(s) and "single 13 settlement" in legal(s)
    play(s, "single 13 forest")
    assert P.carto == 0 and P.stack[12] == ["F", "F"] and P.cube[12] == "wood"


def test_income_islet_gives_its_bonus_at_once() -> None:
    s = new(2, 0)
    p = s.current_player
    P = s.players[p]
    play(s, "islet 1 2")  # islet 1 = 1 wood (reconstructed), beside beach 2 of this peninsula
    assert P.market["wood"] == 1 and 0 not in P.islets
    assert s.islet_at[p * s.C.segment + 2] == (p, 0)
    assert not any(a.startswith("islet") for a in legal(s))  # one islet per income phase
    with pytest.raises(IllegalActionError):
        play(s, "islet 2 3")


def test_storage_makes_a_cube_worth_one_and_is_limited() -> None:
    s = new(2, 0)
    p = s.current_player
    P = s.players[p]
    tile(s, p, 13, "MM", cube="food")
    play(s, "store h 13")
    assert P.store["food"] == 1 and not P.cube[12] and s.avail(p, "food") == 2  # 1 on the start hex + 1 stored
    give(s, p, "market", wood=3)
    play(s, "store m wood")  # 3 slots: coin, food, wood
    assert P.storage_used() == 3
    assert not any(a.startswith("store") for a in legal(s))


def test_user_components_are_validated_with_located_errors(tmp_path) -> None:
    import json
    from importlib import resources

    doc = json.loads(resources.files("boardlab.games.cooper_island").joinpath("components.json").read_text())
    doc["islets"][2]["provenance"] = "guess"
    bad = tmp_path / "c.json"
    bad.write_text(json.dumps(doc))
    with pytest.raises(ConfigError, match=r"islets\[2\]\.provenance"):
        new(2, 0, components=str(bad))
    doc["islets"][2]["provenance"] = "reconstructed"
    doc["parking"][1]["cost"] = {"wod": 2}
    bad.write_text(json.dumps(doc))
    with pytest.raises(ConfigError, match=r"parking\[1\]\.cost\.wod"):
        new(2, 0, components=str(bad))
    doc["parking"][1]["cost"] = {"wood": 2}
    doc["boats"][0]["effect"] = [{"op": "helm", "n": 3}]
    good = tmp_path / "ok.json"
    good.write_text(json.dumps(doc))
    s = new(2, 0, components=str(good))
    assert s.C.boats[0] == (("helm", 3, ""),)
    broken = tmp_path / "broken.json"
    broken.write_text("{ nope")
    with pytest.raises(ConfigError, match=r"broken.json:1:3"):
        new(2, 0, components=str(broken))
    from boardlab.games.cooper_island.components import components
    with pytest.raises(ComponentError):
        components(str(broken))


def test_every_component_entry_has_a_provenance() -> None:
    import json
    from importlib import resources

    doc = json.loads(resources.files("boardlab.games.cooper_island").joinpath("components.json").read_text())
    for key, val in doc.items():
        if isinstance(val, list):
            assert all(e.get("provenance") in ("official", "seed", "reconstructed") for e in val), key
        elif isinstance(val, dict) and key not in ("orders_in_play",):
            assert val.get("provenance") in ("official", "seed", "reconstructed"), key
