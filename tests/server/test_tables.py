"""The table log kept in memory: compact, masked per viewer, and out of the garbage collector's way."""

from __future__ import annotations

import gc
import random

import pytest

from boardlab.core import get_game
from boardlab.server import policy
from boardlab.server.table import TableLog, make_entry


def _played(game_name: str, players: int, moves: int, seed: int = 3) -> list[tuple[object, object, int]]:
    """(state before, action, seat) for the first `moves` random moves of a game."""
    game = get_game(game_name)
    rng = random.Random(seed)
    state = game.new_game(players, seed)
    out = []
    while not state.is_over and len(out) < moves:
        action = rng.choice(state.legal_actions())
        seat = state.current_player
        out.append((state.clone(), action, seat))
        state.apply(action, seat)
    return out


def test_log_rows_are_untracked_by_the_garbage_collector() -> None:
    game = get_game("cacao")
    played = enumerate(_played("cacao", 3, 60))
    log = TableLog(make_entry(game, n, seat, a, before, 3) for n, (before, a, seat) in played)
    gc.collect()
    assert len(log) == 60
    assert not any(gc.is_tracked(row) for row in log._rows)
    last = log.pop()
    assert last.n == 59 and len(log) == 59
    assert [e.n for e in log.upto(3)] == [0, 1, 2]


@pytest.mark.parametrize(("game_name", "players"), [("pocket_mars", 3), ("cacao", 2)])
def test_entries_show_each_viewer_only_what_it_may_read(game_name: str, players: int) -> None:
    game = get_game(game_name)
    hidden = 0
    for n, (before, action, seat) in enumerate(_played(game_name, players, 80)):
        e = make_entry(game, n, seat, action, before, players)
        assert e.notation == str(action)
        for viewer in policy.viewers(players):
            may = viewer == seat or game.action_visible(before, action, viewer)
            hidden += not may
            assert e.visible_to(viewer, players) is may
            for lang in policy.LANGS:
                want = (
                    game.describe_move(before, action, lang)
                    if may
                    else game.describe_for(before, action, viewer, lang)
                )
                assert e.text(viewer, lang, players) == want
        assert e.text(0, "xx", players) == e.text(0, "en", players)  # unknown language: English
    if game_name == "pocket_mars":
        assert hidden > 0  # the test saw masked moves, not only public ones
