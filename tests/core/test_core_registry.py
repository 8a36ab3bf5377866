"""The game registry and game configuration: known games, UnknownGameError listing the known ones,
player counts and options refused with ConfigError."""

from __future__ import annotations

import pytest

import boardlab
import boardlab.core
from boardlab.core import registry
from boardlab.core.errors import BoardlabError, ComponentError, ConfigError, UnknownGameError


def test_core_registry_lists_cacao() -> None:
    """`games()` is sorted and contains cacao; get_game returns the registered instance."""
    names = registry.games()
    assert boardlab.core.games() == names
    assert "cacao" in names and names == sorted(names)
    g = boardlab.get_game("cacao")
    assert g.name == "cacao" and g is boardlab.get_game("cacao")
    assert (g.min_players, g.max_players) == (2, 4)
    assert g.title() == "Cacao"


@pytest.mark.parametrize("name", ["nope", "Cacao", "", "cacao "])
def test_core_unknown_game_names_the_known_ones(name: str) -> None:
    """An unknown name raises UnknownGameError whose message lists the registered games."""
    with pytest.raises(UnknownGameError, match="cacao") as e:
        boardlab.get_game(name)
    assert repr(name) in str(e.value)
    with pytest.raises(UnknownGameError):
        boardlab.new_game(name, players=2)
    with pytest.raises(UnknownGameError):
        boardlab.load({"game": name, "players": 2, "seed": 0, "actions": []})
    assert issubclass(UnknownGameError, BoardlabError)


@pytest.mark.parametrize("players", [0, 1, 5, -2, "2", 2.0, None, True])
def test_core_player_count_out_of_range(players: object) -> None:
    """Cacao is for 2-4 players; anything else (including non-integers) is a ConfigError saying so."""
    with pytest.raises(ConfigError, match="2-4"):
        boardlab.new_game("cacao", players=players)  # type: ignore[arg-type]


@pytest.mark.parametrize("players", [2, 3, 4])
def test_core_player_counts_in_range(players: int) -> None:
    s = boardlab.new_game("cacao", players=players, seed=1)
    assert s.num_players == players and not s.is_over


def test_core_unknown_option_lists_the_known_ones() -> None:
    """An unknown option is refused and the message names it and the game's options."""
    with pytest.raises(ConfigError) as e:
        boardlab.new_game("cacao", players=2, expansion="chocolatl")
    assert "'expansion'" in str(e.value) and "components" in str(e.value)


def test_core_option_of_wrong_type() -> None:
    """Option values must have the default's type."""
    with pytest.raises(ConfigError, match="components"):
        boardlab.new_game("cacao", players=2, components=3)


def test_core_bad_component_file_is_named() -> None:
    """A components path that cannot be read is refused with the file named."""
    with pytest.raises(ComponentError, match=r"/no/such/file\.json"):
        boardlab.new_game("cacao", players=2, components="/no/such/file.json")


def test_core_top_level_games_function() -> None:
    """The top-level `boardlab.games()` advertised in boardlab.__all__ lists the games (even after a game
    module was imported)."""
    registry.get_game("cacao")  # imports boardlab.games, as any real use does
    assert "cacao" in boardlab.games()  # type: ignore[operator]
    assert boardlab.games() == registry.games()
