"""Speed work must not change play: 20 seeded random games (1 to 4 players) list the same legal actions in the
same order and end with the same scores as the engine did before the optimisations of issue #8.

If a rule change is meant to alter play, regenerate the digest with
`cd tests/games/block_and_key && ../../../.venv/bin/python -c "import test_bk_replay_digest as t; print(t.digest())"`
and say why in the commit."""

from __future__ import annotations

import hashlib

import pytest
from bk_helpers import GAME

from boardlab.core import Rng

# re-recorded for #33: per-block face contact, every Ancients' spot, solo turn 11's card, no block fits -> the end,
# claims asked where they may hurt
EXPECTED = ("ba295c4ecfd52c951fcebff5dac3fe5cad96cc1a83f84b4eab444cfa0cec0a81", 1471)


def digest(games: int = 20) -> tuple[str, int]:
    """SHA-256 over every legal-action list (in order) and the final scores; and the number of decisions."""
    h = hashlib.sha256()
    decisions = 0
    for i in range(games):
        s = GAME.new_game((2, 3, 1, 4)[i % 4], 1000 + i)
        rng = Rng(i)
        while not s.is_over:
            legal = s.legal_actions()
            h.update(repr(list(legal)).encode())
            s.apply(legal[rng.randbelow(len(legal))])
            decisions += 1
        h.update(repr([sc.to_json() for sc in s.scores()]).encode())
    return h.hexdigest(), decisions


@pytest.mark.recorded
def test_seeded_random_games_replay_exactly_as_before() -> None:
    assert digest() == EXPECTED
