"""`boardlab bench`'s anchor: the ratio to it must not depend on the build mode (issue #36, "an honest anchor")."""

from __future__ import annotations

import pytest

from boardlab.sim import bench

pytest.importorskip("pyspiel")


class CountingRng:
    """Stands in for boardlab's generator in the bench module and counts the draws made through it."""

    draws = 0

    def __init__(self, seed: int) -> None:
        self.seed = seed

    def randbelow(self, n: int) -> int:
        CountingRng.draws += 1
        return 0


def test_the_anchor_draws_nothing_from_boardlabs_own_generator(monkeypatch: pytest.MonkeyPatch) -> None:
    """boardlab's `Rng` is C when native and Python under BOARDLAB_PURE=1: an anchor loop drawing from it ran
    slower in pure mode and flattered the pure ratios by ~10%. The anchor draws from Python's `random`."""
    monkeypatch.setattr(bench, "Rng", CountingRng)
    CountingRng.draws = 0
    result = bench.anchor(0.05)
    assert result is not None and result["decisions"] > 0
    assert CountingRng.draws == 0


def test_the_games_loop_chooses_with_the_same_generator_as_the_anchor(monkeypatch: pytest.MonkeyPatch) -> None:
    """The playout loop's own choices (not the game's shuffles, which are the engine's work) use `random` too."""
    monkeypatch.setattr(bench, "Rng", CountingRng)
    CountingRng.draws = 0
    result = bench.random_playouts("pocket_mars", 2, 0.05)
    assert result["decisions"] > 0
    assert CountingRng.draws == 0
