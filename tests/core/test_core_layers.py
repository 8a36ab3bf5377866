"""The layering (README, "Layers"): the core imports no game, the registry finds the built-in games through
their entry points, and the `no_cycles` import contract (scripts/import_contracts.py) finds cycles, lazy ones
included. `lint-imports` itself runs in `make test` (scripts/test.sh)."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from importlib.metadata import entry_points
from pathlib import Path
from types import ModuleType

import grimp
import pytest

import boardlab
from boardlab.core import registry

ROOT = Path(__file__).resolve().parents[2]


def _contracts() -> ModuleType:
    spec = importlib.util.spec_from_file_location("import_contracts", ROOT / "scripts" / "import_contracts.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_core_imports_no_game_until_asked() -> None:
    """Importing boardlab (and so the core) loads no game package; the first registry question loads them all."""
    code = ("import sys, boardlab\n"
            "before = sorted(m for m in sys.modules if m.startswith('boardlab.games'))\n"
            "names = boardlab.core.games()\n"
            "after = {m for m in sys.modules if m.startswith('boardlab.games')}\n"
            "print(before, names, 'boardlab.games.cacao.game' in after)\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.strip()
    assert out == "[] ['block_and_key', 'cacao', 'cooper_island', 'petrichor', 'pocket_mars'] True"


def test_registry_games_are_the_entry_points() -> None:
    """Every built-in game is an entry point of the group `boardlab.games` naming its package's `GAME`, the
    instance its states answer with; the package stays callable as `boardlab.games()`."""
    points = {p.name: p for p in entry_points(group=registry.ENTRY_POINTS)}
    assert sorted(points) == registry.installed_games() == ["block_and_key", "cacao", "cooper_island", "petrichor",
                                                            "pocket_mars"]
    # other games may have joined by `register` in this process (a test worker's toy games): the entry points
    # are all there, and the package answers as the registry does
    assert set(points) <= set(registry.games()) and boardlab.games() == registry.games()
    for name, point in points.items():
        game = registry.get_game(name)
        assert point.value == f"boardlab.games.{name}.game:GAME" and point.load() is game
        state = game.new_game(game.min_players, seed=1)
        assert state.game is game


@pytest.mark.parametrize("name", ["block_and_key", "petrichor", "pocket_mars"])
def test_state_words_come_from_the_game(name: str) -> None:
    """Where the words live in text.py, `State.why_illegal` asks the game (the state imports no text)."""
    state = boardlab.new_game(name, players=2, seed=3)
    action = state.legal_actions()[0]
    state.apply(action)
    words = state.why_illegal(action)
    assert words == state.game.why_illegal(state, action) != f"{action} is not a legal action now"


def test_view_adds_scores_and_winners_once_over() -> None:
    """`State.view` is the game's `_view` plus, once over, `scores` and `winners` (no other key changes)."""
    state = boardlab.new_game("petrichor", players=1, seed=2)
    assert "scores" not in state.view(0)
    while not state.is_over:
        state.apply(state.legal_actions()[0])
    seen = state.view(0)
    assert seen == {**state._view(0), "scores": [s.to_json() for s in state.scores()], "winners": state.winners()}


def test_no_cycles_contract_finds_lazy_and_long_cycles() -> None:
    """Strongly connected components of more than one module, self-contained: a lazy import counts like any."""
    graph = grimp.ImportGraph()
    for importer, imported in [("p.a", "p.b"), ("p.b", "p.c"), ("p.c", "p.a"),  # a 3-cycle
                               ("p.d", "p.e"), ("p.e", "p.d"),                  # a 2-cycle (e.g. a lazy import)
                               ("p.f", "p.a"), ("p.g", "p.g2")]:                # no cycle
        graph.add_import(importer=importer, imported=imported, line_number=1, line_contents="import x")
    found = _contracts().strongly_connected(graph, set(graph.modules))
    assert found == [["p.a", "p.b", "p.c"], ["p.d", "p.e"]]


def test_no_cycles_contract_on_the_package() -> None:
    """Today's package has no cycle outside the one `allowed` for now in pyproject.toml (boardlab.server)."""
    graph = grimp.build_graph("boardlab", exclude_type_checking_imports=True, cache_dir=None)
    modules = {m for m in graph.modules if not m.startswith("boardlab.server")}
    assert _contracts().strongly_connected(graph, modules) == []
