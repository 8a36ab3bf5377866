"""A game's own reading of its split's moves (`Game.split_moves`, #35) is the tree of its legal list: at random
positions of every game with an action split, at every player count, each prefix the legal moves reach gets the
same ids offered and each whole sequence names the same move. Block and Key answers a turn from its spot masks
(games/block_and_key/split.py), Cacao a placement from its free spots and hands (games/cacao/split.py), without
the list."""

from __future__ import annotations

import random
from typing import Any

import pytest
from rl_configs import CONFIGS, IDS

from boardlab.core import get_game
from boardlab.rl.common import ActionSpace, LegalTree, MoveTree

SPLIT = [(g, n) for g, n in CONFIGS if get_game(g).action_split(n) is not None]
READ = {"block_and_key": "turn", "cacao": "place"}  # the phase each game answers from its state


def _same_tree(space: ActionSpace, state: Any) -> bool:
    """Assert the position's MoveTree (the game's reading where it has one) equals the legal list's tree at every
    prefix of every legal move, asked after the state moved on (a snapshot: OpenSpiel's copies of a position share
    one); True when the game answered with its own reading. Plays a move on `state`."""
    fast, full = MoveTree(space, state), LegalTree(space, state)
    state.apply(state.legal_actions()[-1])
    prefixes = {p[:k] for p in full.moves for k in range(len(p))}
    for prefix in sorted(prefixes):
        assert fast.options(prefix) == full.options(prefix), f"ids after {prefix} at {state.history[-3:]}"
    for parts, move in full.moves.items():
        got = fast.move(parts)
        assert got == move and type(got) is type(move), f"{parts} names {got!r}, the list {move!r}"
        for k in range(1, len(parts)):
            assert fast.move(parts[:k]) is None, f"{parts[:k]} is not a whole move"
    return not isinstance(fast.source, LegalTree)


def _positions(game: str, players: int, seeds: int, rate: float, rng: random.Random) -> list[Any]:
    g = get_game(game)
    out = []
    for seed in range(seeds):
        state = g.new_game(players, seed)
        while not state.is_over:
            if rng.random() < rate or len(state.history) < 2:
                out.append(state.clone())
            state.apply(rng.choice(state.legal_actions()))
    return out


@pytest.mark.parametrize(("game", "players"), SPLIT, ids=[IDS[CONFIGS.index(c)] for c in SPLIT])
def test_the_games_reading_of_its_moves_is_the_legal_lists_tree(game: str, players: int) -> None:
    space = ActionSpace(get_game(game), players)
    positions = _positions(game, players, 4, 0.15, random.Random(f"{game}{players}"))
    read = [getattr(s, "phase", None) == READ.get(game) for s in positions]
    fast = [_same_tree(space, state) for state in positions]
    assert len(positions) >= 10
    if game in READ:  # the phase the game reads off its state, not from the list
        assert fast == read and sum(read) >= 3


def test_a_wrong_mask_is_caught() -> None:
    """The comparison has teeth: a reading that drops one orientation at one anchor, or names the wrong move,
    fails it."""
    g = get_game("block_and_key")
    space = ActionSpace(g, 2)
    state = next(s for s in _positions("block_and_key", 2, 1, 0.5, random.Random(1))
                 if g.split_moves(s, space.split) is not None and len(s.legal_actions()) > 20)
    assert _same_tree(space, state.clone())

    def drop_one(s: Any, split: Any) -> Any:
        source = type(g).split_moves(g, s, split)
        options = source.options
        source.options = lambda prefix: options(prefix)[:-1] if len(prefix) == 2 else options(prefix)
        return source

    def wrong_move(s: Any, split: Any) -> Any:
        source = type(g).split_moves(g, s, split)
        move = source.move
        source.move = lambda parts: move(parts)._replace(z=9) if len(parts) == 3 else move(parts)
        return source

    for broken in (drop_one, wrong_move):
        g.split_moves = broken  # type: ignore[method-assign]
        try:
            with pytest.raises(AssertionError):
                _same_tree(space, state.clone())
        finally:
            del g.split_moves


def test_a_turn_with_nothing_to_dig_or_place_is_pass() -> None:
    """The one turn move the spot masks cannot show: nothing left to dig and no held block fitting anywhere leaves
    `pass`, in the reading as in the list (the engine plays that pass itself, so play never asks it; a state made
    so must still be read right)."""
    g = get_game("block_and_key")
    space = ActionSpace(g, 2)
    state = next(s for s in _positions("block_and_key", 2, 1, 0.5, random.Random(2)) if s.phase == "turn")
    state.site = [-1] * len(state.site)
    state.supply[state.actor].clear()
    state._legal = state._cache = None  # the legal list remembered before the table was emptied
    assert [str(a) for a in state.legal_actions()] == ["pass"]
    assert _same_tree(space, state)


def test_a_cacao_placement_with_no_spot_is_a_discard() -> None:
    """Cacao's placement turn with no free spot and nothing to rebuild (random games never reach it) leaves the
    discards of the tiles held, in the reading as in the list."""
    g = get_game("cacao")
    space = ActionSpace(g, 2)
    state = next(s for s in _positions("cacao", 2, 1, 0.5, random.Random(3)) if s.phase == "place" and s.pile)
    state.spots = set()
    state._legal = None  # the legal list remembered before the spots were taken away
    assert {a.kind for a in state.legal_actions()} == {"discard"}
    assert _same_tree(space, state)
