"""Rules §2 "Game end" and "Scoring": the game ends after every tile is placed (not when the jungle
tiles run out); each temple scores on its own with the split rules; only top tiles count; +1 per sun
token; the water field's value; tie-break by fruit, then a shared win."""

from __future__ import annotations

import random

import pytest
from cacao_helpers import (
    STEP,
    WATER_TRACK,
    S,
    W,
    choose,
    facing,
    make_state,
    play,
    recompute_scores,
    rot_facing,
    temple_points,
    worker,
)

import boardlab
from boardlab.core.errors import GameOverError
from boardlab.games.cacao.rules import CacaoState, Worker

TEMPLE = (2, 2)


def temple_state(players: int, tiles: list[tuple[int, int]]) -> CacaoState:
    """A temple at 2,2 with up to 4 worker tiles around it, given as (owner, workers facing the temple)."""
    workers: dict[tuple[int, int], Worker] = {}
    for d, (owner, count) in enumerate(tiles):
        dx, dy = STEP[d]
        workers[(TEMPLE[0] + dx, TEMPLE[1] + dy)] = facing(owner, count, (d + 2) % 4)
    jungle = {(0, 0): "plantation1", (1, 1): "market2", TEMPLE: "temple"}
    return make_state(players, jungle=jungle, workers=workers)


TEMPLE_CASES = [
    (3, [(0, 2), (1, 2), (2, 1)], [3, 3, 0]),  # tie for first: split 6, nobody second
    (2, [(0, 3)], [6, 0]),  # alone: 6, no second
    (3, [(0, 3), (1, 1), (2, 1)], [6, 1, 1]),  # clear first, two tied second: 3 // 2 each
    (3, [(0, 2), (1, 2), (2, 2)], [2, 2, 2]),  # three tied first: 6 // 3
    (4, [(0, 1), (1, 1), (2, 1), (3, 1)], [1, 1, 1, 1]),  # four tied first: 6 // 4
    (4, [(0, 3), (1, 1), (2, 1), (3, 1)], [6, 1, 1, 1]),  # three tied second: 3 // 3
    (3, [(0, 3), (1, 2), (2, 1)], [6, 3, 0]),  # third place gets nothing
    (2, [(0, 2), (1, 1)], [6, 3]),
    (2, [(0, 1), (0, 1), (1, 2)], [3, 3]),  # two tiles of one player add up
    (2, [(0, 0), (1, 0)], [0, 0]),  # at least one worker needed
    (2, [(0, 0), (1, 1)], [0, 6]),
    (4, [(0, 2), (0, 1), (1, 2), (2, 1)], [6, 3, 0, 0]),
    (4, [(0, 1), (1, 3), (2, 2), (3, 2)], [0, 6, 1, 1]),
]


@pytest.mark.parametrize(("players", "tiles", "expected"), TEMPLE_CASES)
def test_cacao_temple_majorities(players: int, tiles: list[tuple[int, int]], expected: list[int]) -> None:
    """Most workers 6, second 3; ties split rounded down; a tie for first leaves no second (RB p.4)."""
    s = temple_state(players, tiles)
    assert [sc.breakdown["temples"] for sc in s.scores()] == expected
    assert temple_points([sum(c for o, c in tiles if o == p) for p in range(players)]) == expected


def test_cacao_temple_counts_workers_on_the_facing_edge_only() -> None:
    """Only the edge facing the temple counts, not the whole tile: a 3-0-0-1 showing its 1 towards the
    temple counts 1 and loses to a 2-1-0-1 showing its 2."""
    workers = {(2, 1): worker(0, "3001", rot_facing("3001", 3, S)), (3, 2): worker(1, "2101", rot_facing("2101", 0, W))}
    s = make_state(jungle={(0, 0): "plantation1", (1, 1): "market2", TEMPLE: "temple"}, workers=workers)
    assert [sc.breakdown["temples"] for sc in s.scores()] == [3, 6]


def test_cacao_score_parts_sun_water_gold() -> None:
    """Total = gold + temples + 1 per sun token + water field value (negative values subtract)."""
    villages = [{"gold": 10, "sun": 2, "water": 0, "fruit": 4}, {"gold": 3, "sun": 3, "water": 8}]
    s = make_state(villages=villages)
    sc = s.scores()
    assert dict(sc[0].breakdown) == {"gold": 10, "temples": 0, "sun": 2, "water": -10}
    assert sc[0].total == 2
    assert dict(sc[1].breakdown) == {"gold": 3, "temples": 0, "sun": 3, "water": 16}
    assert sc[1].total == 22
    for water, value in enumerate(WATER_TRACK):
        s2 = make_state(villages=[{"water": water}, {}])
        assert s2.scores()[0].total == value


TEMPLES_ONLY = {(0, 0): "temple", (1, 1): "temple"}  # no decisions during the turns


def finished(villages: list[dict[str, int]]) -> CacaoState:
    """Both players hold one last tile; both place it (one worker each next to temple 0,0), game over."""
    s = make_state(jungle=TEMPLES_ONLY, villages=villages, hands=[["1111"], ["1111"]])
    return play(s, "1111r0@0,-1", "1111r0@-1,0")


def test_cacao_tiebreak_most_fruit() -> None:
    """Equal points: most fruit left wins (fruit is otherwise worth nothing)."""
    s = finished([{"gold": 5, "fruit": 1}, {"gold": 5, "fruit": 3}])
    assert s.is_over
    assert [x.total for x in s.scores()] == [5 + 3 - 10, 5 + 3 - 10]
    assert s.winners() == [1]
    assert s.returns() == [0.0, 1.0]


def test_cacao_shared_win() -> None:
    """Equal points and equal fruit: a shared win."""
    s = finished([{"gold": 5, "fruit": 2}, {"gold": 5, "fruit": 2}])
    assert s.winners() == [0, 1]
    assert s.returns() == [0.5, 0.5]


def test_cacao_more_points_beats_more_fruit() -> None:
    """The fruit tie-break only matters on equal points."""
    s = finished([{"gold": 6, "fruit": 0}, {"gold": 5, "fruit": 5}])
    assert s.winners() == [0]


def test_cacao_game_ends_after_every_players_last_tile() -> None:
    """The game ends after the round in which everyone placed their last tile, not before."""
    s = make_state(3, jungle=TEMPLES_ONLY, hands=[["1111"], ["1111"], ["2101"]])
    play(s, "1111r0@0,-1")
    assert not s.is_over and s.current_player == 1
    play(s, "1111r0@-1,0")
    assert not s.is_over and s.current_player == 2
    play(s, "2101r0@2,1")
    assert s.is_over and s.current_player is None
    assert s.legal_actions() == []
    with pytest.raises(GameOverError):
        s.apply(boardlab.get_game("cacao").parse_action(s, "1111r0@1,0"))


def test_cacao_game_ends_after_a_final_discard_too() -> None:
    """A discarded last tile still counts as that player's turn."""
    full = {c: facing(1, 1, 0) for c in [(0, -1), (1, 0), (-1, 0), (0, 1), (2, 1), (1, 2)]}
    s = make_state(workers=full, hands=[["1111"], ["2101"]])
    play(s, "discard 1111", "discard 2101")
    assert s.is_over


@pytest.mark.parametrize("players", [2, 3, 4])
def test_cacao_game_does_not_end_when_jungle_tiles_run_out(players: int) -> None:
    """Once the jungle pile and display are empty, play goes on until every worker tile is placed."""
    s = boardlab.new_game("cacao", players=players, seed=2024)
    assert isinstance(s, CacaoState)
    rng = random.Random(7)
    saw_empty_supply = False
    while not s.is_over:
        if not s.pile and not s.display and s.phase == "place":
            saw_empty_supply = True
            assert any(s.hands)
        s.apply(choose(rng, s.legal_actions()))
    assert saw_empty_supply
    assert not any(s.hands) and not any(s.decks)
    placements = [a for a in s.history if a[0] in ("place", "rebuild", "discard")]
    assert len(placements) == {2: 22, 3: 30, 4: 36}[players]


def test_cacao_scores_match_independent_recomputation_on_a_full_game() -> None:
    """A full game's final scores equal the test's own recomputation from the board."""
    s = boardlab.new_game("cacao", players=4, seed=77)
    assert isinstance(s, CacaoState)
    rng = random.Random(77)
    while not s.is_over:
        s.apply(choose(rng, s.legal_actions()))
    assert [dict(x.breakdown, total=x.total) for x in s.scores()] == recompute_scores(s)
