"""Component data per player count (cacao.md section 1): worker tiles, jungle tiles, start tiles,
hand and display sizes, the village board. Expected values are the rulebook's, typed into
cacao_helpers by hand, never read from components.json."""

from __future__ import annotations

from collections import Counter

import pytest
from cacao_helpers import (
    DISPLAY,
    HAND,
    JUNGLE_FULL,
    START,
    STORAGE,
    SUN_MAX,
    TILE_EDGES,
    WATER_TRACK,
    edges_of,
    jungle_set,
    make_state,
    worker_set,
)

import boardlab
from boardlab.games.cacao.components import load

PLAYERS = (2, 3, 4)


@pytest.mark.parametrize(
    ("players", "expected"),
    [
        (2, {"1111": 4, "2101": 5, "3001": 1, "3100": 1}),
        (3, {"1111": 3, "2101": 5, "3001": 1, "3100": 1}),
        (4, {"1111": 3, "2101": 4, "3001": 1, "3100": 1}),
    ],
)
@pytest.mark.parametrize("seed", [0, 1, 99])
def test_cacao_worker_tiles_per_player(players: int, seed: int, expected: dict[str, int]) -> None:
    """Each player's hand + deck is 4/5/1/1 (2p), 3/5/1/1 (3p), 3/4/1/1 (4p): 11/10/9 tiles."""
    s = boardlab.new_game("cacao", players=players, seed=seed)
    assert len(s.hands) == len(s.decks) == players
    for p in range(players):
        assert Counter(s.hands[p]) + Counter(s.decks[p]) == Counter(expected)
        assert len(s.hands[p]) == HAND == 3
    assert sum(expected.values()) == {2: 11, 3: 10, 4: 9}[players]


@pytest.mark.parametrize("players", PLAYERS)
def test_cacao_jungle_tiles_in_play(players: int) -> None:
    """21 jungle tiles in 2p (7 removed), 28 in 3-4p, the 2 start tiles included (not counted twice)."""
    s = boardlab.new_game("cacao", players=players, seed=5)
    in_play = Counter(s.jungle.values()) + Counter(s.display) + Counter(s.pile)
    assert in_play == jungle_set(players)
    assert sum(in_play.values()) == (21 if players == 2 else 28)
    assert sum(JUNGLE_FULL.values()) == 28


def test_cacao_two_player_removals() -> None:
    """2p removes 2 single plantations, 1 price-3 market, 1 gold-1 mine, 1 water, 1 sun site, 1 temple."""
    two, four = jungle_set(2), jungle_set(4)
    assert four - two == Counter({"plantation1": 2, "market3": 1, "gold1": 1, "water": 1, "sun": 1, "temple": 1})
    s = boardlab.new_game("cacao", players=2, seed=11)
    c = Counter(s.jungle.values()) + Counter(s.display) + Counter(s.pile)
    assert c["temple"] == 4 and c["gold2"] == 1 and c["plantation1"] == 4 and c["market3"] == 3


@pytest.mark.parametrize("players", PLAYERS)
def test_cacao_start_tiles_pile_and_display(players: int) -> None:
    """Start: single plantation at 0,0 and price-2 market diagonally at 1,1; pile 19 (2p) or 26 (3-4p)
    before the 2-tile display is drawn from it."""
    s = boardlab.new_game("cacao", players=players, seed=3)
    assert s.jungle == START
    assert len(s.display) == DISPLAY == 2
    assert len(s.pile) + len(s.display) == (19 if players == 2 else 26)
    assert len(s.pile) == (17 if players == 2 else 24)
    assert s.workers == {}
    assert all(v.fruit == v.gold == v.sun == v.water == 0 for v in s.villages)
    assert s.current_player == 0 and s.turn == 0


def test_cacao_village_board() -> None:
    """Water track -10..16 (9 fields, carrier starts on -10), storage 5, sun 3, temple 6/3."""
    comp = load()
    assert comp.water_track == WATER_TRACK
    assert comp.storage == STORAGE and comp.sun_max == SUN_MAX
    assert comp.hand_size == HAND and comp.display_size == DISPLAY
    assert (comp.temple_first, comp.temple_second) == (6, 3)
    s = make_state()
    assert [sc.breakdown["water"] for sc in s.scores()] == [-10, -10]


def test_cacao_worker_tile_edges_and_chirality() -> None:
    """Edges are clockwise from north; 3-0-0-1 with its 3 on the right has its 1 on top, 3-1-0-0 on the
    bottom (RB p.1 pictures); a quarter turn is clockwise; only distinct rotations are offered."""
    comp = load()
    for w in comp.workers:
        assert w.edges == TILE_EDGES[w.id]
        for r in range(4):
            assert comp.edges_at[(w.id, r)] == edges_of(w.id, r)
    # 3 on the right (east): the 1 of 3-0-0-1 is on top (north), the 1 of 3-1-0-0 at the bottom (south).
    assert edges_of("3001", 1) == (1, 3, 0, 0)
    assert edges_of("3100", 1) == (0, 3, 1, 0)
    assert comp.rotations == {"1111": (0,), "2101": (0, 1, 2, 3), "3001": (0, 1, 2, 3), "3100": (0, 1, 2, 3)}
    assert all(sum(e) == 4 for e in TILE_EDGES.values())


def test_cacao_jungle_tile_kinds_and_values() -> None:
    """Plantations 1/2 fruit, markets 2/3/4, gold mines 1/2, water, sun, temple (OV)."""
    comp = load()
    got = {j.id: (j.kind, j.value, j.count) for j in comp.jungle}
    assert got == {
        "plantation1": ("plantation", 1, 6), "plantation2": ("plantation", 2, 2),
        "market2": ("market", 2, 2), "market3": ("market", 3, 4), "market4": ("market", 4, 1),
        "gold1": ("gold", 1, 2), "gold2": ("gold", 2, 1), "water": ("water", 1, 3),
        "sun": ("sun", 1, 2), "temple": ("temple", 0, 5),
    }
    assert all(w.per_colour == {"1111": 4, "2101": 5, "3001": 1, "3100": 1}[w.id] for w in comp.workers)


@pytest.mark.parametrize("players", PLAYERS)
def test_cacao_setup_depends_on_seed_only(players: int) -> None:
    """Same seed, same setup; the shuffles differ between seeds."""
    a = boardlab.new_game("cacao", players=players, seed=42).snapshot()
    b = boardlab.new_game("cacao", players=players, seed=42).snapshot()
    assert a == b
    others = {tuple(boardlab.new_game("cacao", players=players, seed=k).snapshot()["pile"]) for k in range(10)}
    assert len(others) > 5


def test_cacao_worker_set_totals() -> None:
    """22 / 30 / 36 worker tiles in a 2 / 3 / 4 player game."""
    assert [sum(worker_set(n).values()) * n for n in PLAYERS] == [22, 30, 36]
