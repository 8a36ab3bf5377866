"""Block and Key's log tells the story (issue #31): every key claimed and every change of the public score
(key points; the secret Enigma bonus only once the game is over) named with the move that made it, blocks
by colour and shape, the core cube's turn previewed, and why the game ended."""

from __future__ import annotations

import random

from boardlab.games.block_and_key import GAME
from boardlab.games.block_and_key.actions import Orient, Place
from story import random_moves


def test_claimed_keys_reach_the_log() -> None:
    claims = 0
    for seed in range(2):
        for before, a, s in random_moves("block_and_key", 2, seed):
            for q in range(2):
                for k in s.claimed[q][len(before.claimed[q]):]:
                    key = s.comp.keys[k]
                    claims += 1
                    assert f"claims key {key.id} ({key.points} points)" in GAME.describe_move(before, a, "en")
                    assert f"完成鑰匙 {key.id}" in GAME.describe_move(before, a, "zh-TW")
    assert claims


def test_the_mid_game_story_does_not_tell_the_enigma() -> None:
    """The Enigma card is secret: the line of a move is the same whichever Enigma colours the seats hold."""
    s = GAME.new_game(3, 5)
    rng = random.Random(5)
    for _ in range(40):
        a = rng.choice(s.legal_actions())
        other = s.clone()
        other.enigma = [(e + 1) % 4 for e in s.enigma]
        other._cache = None
        for lang in ("en", "zh-TW"):
            assert GAME.describe_for(s, a, None, lang) == GAME.describe_for(other, a, None, lang)
        s.apply(a)


def test_the_core_cube_and_the_blocks_are_named_in_words() -> None:
    s = GAME.new_game(2, 1)
    turns = [a for a in s.legal_actions() if isinstance(a, Orient)]
    lines = {GAME.describe_action(a, "en") for a in turns}
    assert len(lines) == len(turns)  # each turn previews different faces
    assert all("face looks south" in line for line in lines)
    assert all("面朝南" in GAME.describe_action(a, "zh-TW") for a in turns)
    while not any(isinstance(a, Place) for a in s.legal_actions()):
        s.apply(s.legal_actions()[0])
    place = next(a for a in s.legal_actions() if isinstance(a, Place))
    line = GAME.describe_action(place, "en")
    assert f"({place.block}, orientation {place.orient}) at column " in line and "/" not in line, line
