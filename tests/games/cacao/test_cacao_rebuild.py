"""Rules §2 "Overbuilding (rebuilding) with a sun token" and the no-legal-spot fallback: only once the
pile AND the display are empty, costs a sun token, own tile only, each tile once (no third layer), any
rotation, activates the new top tile's edges, no filling; without a sun token the tile is placed
normally; with no spot and no rebuild the tile is discarded and the turn goes on."""

from __future__ import annotations

import pytest
from cacao_helpers import (
    assert_illegal,
    legal_strings,
    make_state,
    pending,
    play,
    worker,
)

from boardlab.games.cacao.rules import CacaoState

BOARD = {(1, 0): worker(0, "1111", 0), (0, 1): worker(1, "1111", 0)}
# every worker cell next to the two start tiles taken: no normal placement is left
FULL = {
    (0, -1): worker(1, "1111", 0), (1, 0): worker(0, "1111", 0), (-1, 0): worker(1, "1111", 0),
    (0, 1): worker(1, "1111", 0), (2, 1): worker(1, "1111", 0), (1, 2): worker(1, "1111", 0),
}


def rebuild_state(sun: int = 1, pile: list[str] | None = None, display: list[str] | None = None,
                  workers: dict | None = None) -> CacaoState:
    return make_state(workers=BOARD if workers is None else workers, villages=[{"sun": sun}, {"sun": 3}],
                      pile=pile or [], display=display or [], hands=[["2101", "3100"], ["2101"]],
                      decks=[["1111"], []])


def rebuilds(s: CacaoState) -> set[str]:
    return {str(a) for a in s.legal_actions() if a[0] == "rebuild"}


def test_cacao_rebuild_offered_on_own_tiles_in_any_rotation() -> None:
    """Pile and display empty, a sun token: every hand tile, every rotation, on each own tile (not on
    the other player's); normal placements remain available."""
    s = rebuild_state()
    assert rebuilds(s) == {f"rebuild {t}r{r}@1,0" for t in ("2101", "3100") for r in range(4)}
    assert any(a[0] == "place" for a in s.legal_actions())


@pytest.mark.parametrize(("pile", "display"), [([], ["temple"]), (["temple"], []), (["sun"], ["water", "gold1"])])
def test_cacao_no_rebuild_while_jungle_tiles_remain(pile: list[str], display: list[str]) -> None:
    """Rebuilding needs the pile AND the display empty."""
    s = rebuild_state(pile=pile, display=display)
    assert rebuilds(s) == set()
    assert "pile and display are empty" in assert_illegal(s, "rebuild 2101r0@1,0")


def test_cacao_no_rebuild_without_sun() -> None:
    """Without a sun token the tile must be placed normally."""
    s = rebuild_state(sun=0)
    assert rebuilds(s) == set()
    assert "sun" in assert_illegal(s, "rebuild 2101r0@1,0")
    assert {a[0] for a in s.legal_actions()} == {"place"}


def test_cacao_rebuild_only_on_own_tile() -> None:
    """Another player's tile cannot be overbuilt, nor an empty cell."""
    s = rebuild_state()
    assert "yours" in assert_illegal(s, "rebuild 2101r0@0,1")
    assert "yours" in assert_illegal(s, "rebuild 2101r0@0,-1")


def test_cacao_rebuild_costs_a_sun_and_activates_the_new_top_tile() -> None:
    """The new tile lies on top (2 layers), a sun token is paid, its edges facing jungle tiles activate
    (even where the old tile's edge was already used), and no jungle filling happens."""
    s = rebuild_state(sun=2)
    play(s, "rebuild 2101r3@1,0")  # r3: 2 workers west (plantation), 1 north, 0 east, 1 south (market)
    w = s.workers[(1, 0)]
    assert (w.owner, w.tile, w.rot, w.layers, w.edges) == (0, "2101", 3, 2, (1, 0, 1, 2))
    assert s.villages[0].sun == 1
    assert pending(s, 0) == {(1, 0, "W", 2, "plantation1"), (1, 0, "S", 1, "market2")}
    assert {(1, 0, 2, 3), (1, 0, 2, 2)} <= s.activated
    play(s, "use 1,0 W 2", "use 1,0 S 1")
    v = s.villages[0]
    assert (v.fruit, v.gold, v.sun) == (1, 2, 1)
    assert s.hands[0] == ["1111", "3100"]  # drew from the deck as usual
    assert (1, -1) not in s.jungle and (2, 0) not in s.jungle
    assert s.turn == 1


def test_cacao_each_tile_rebuilt_only_once() -> None:
    """A rebuilt tile is never offered again (no third layer), by anyone."""
    workers = {(1, 0): worker(0, "1111", 0, layers=2), (-1, 0): worker(0, "1111", 0)}
    s = rebuild_state(workers=workers)
    assert rebuilds(s) == {f"rebuild {t}r{r}@-1,0" for t in ("2101", "3100") for r in range(4)}
    assert "already rebuilt" in assert_illegal(s, "rebuild 2101r0@1,0")


def test_cacao_rebuild_is_the_turns_placement() -> None:
    """Rebuilding replaces the placement: one per turn, then the next player."""
    s = rebuild_state(sun=3)
    play(s, "rebuild 3100r0@1,0")  # N3 E1: no jungle there, nothing to decide
    assert s.turn == 1 and s.villages[0].sun == 2


def test_cacao_no_spot_with_sun_rebuilds_instead_of_discarding() -> None:
    """No free worker cell next to a jungle tile, but a sun token and an own tile: rebuild is offered,
    discard is not."""
    s = rebuild_state(workers=FULL)
    assert {a[0] for a in s.legal_actions()} == {"rebuild"}


def test_cacao_no_spot_no_rebuild_discards() -> None:
    """No legal spot and no rebuild possible: the player discards a hand tile of their choice; it leaves
    the game and the turn ends normally (draw, next player)."""
    s = rebuild_state(sun=0, workers=FULL)
    assert legal_strings(s) == {"discard 2101", "discard 3100"}
    assert "no legal spot" in assert_illegal(s, "discard 1111")
    before = dict(s.workers)
    play(s, "discard 3100")
    assert s.hands[0] == ["1111", "2101"]
    assert s.workers == before
    assert s.turn == 1


def test_cacao_discard_not_allowed_when_a_spot_exists() -> None:
    """Discarding is only the fallback."""
    s = rebuild_state(sun=0)
    assert not any(a[0] == "discard" for a in s.legal_actions())
    assert "only allowed" in assert_illegal(s, "discard 2101")


def test_cacao_rebuilt_tiles_only_with_no_own_tile_means_discard() -> None:
    """A sun token but every own tile already rebuilt and no spot: discard."""
    workers = dict(FULL)
    workers[(1, 0)] = worker(0, "1111", 0, layers=2)
    s = rebuild_state(sun=2, workers=workers)
    assert {a[0] for a in s.legal_actions()} == {"discard"}
