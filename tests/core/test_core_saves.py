"""Saves (Game.from_json / boardlab.load): a good save round-trips; a truncated, malformed, edited or
unreplayable save raises SaveError with a message saying what is wrong."""

from __future__ import annotations

import copy
import json
import random
from typing import Any

import pytest

import boardlab
from boardlab.core.errors import SaveError
from boardlab.core.game import State

GAME = boardlab.get_game("cacao")


def midgame(seed: int = 4, moves: int = 40) -> State:
    s = boardlab.new_game("cacao", players=3, seed=seed)
    rng = random.Random(seed)
    for _ in range(moves):
        s.apply(rng.choice(s.legal_actions()))
    return s


def save() -> dict[str, Any]:
    return json.loads(json.dumps(midgame().to_json()))


def test_core_save_round_trip() -> None:
    """A save loads back to the same snapshot and history; the log alone (no snapshot) is enough."""
    s = midgame()
    data = json.loads(json.dumps(s.to_json()))
    assert data["game"] == "cacao" and data["format"] == 1
    for loaded in (GAME.from_json(data), boardlab.load(data)):
        assert loaded.snapshot() == s.snapshot()
        assert loaded.history == s.history
    del data["state"]
    assert GAME.from_json(data).snapshot() == s.snapshot()


@pytest.mark.parametrize("field", ["game", "players", "seed", "actions"])
def test_core_truncated_save(field: str) -> None:
    """A save missing a required field names it."""
    data = save()
    del data[field]
    with pytest.raises(SaveError, match=repr(field)):
        GAME.from_json(data)


@pytest.mark.parametrize("data", [[], "cacao", None, 3])
def test_core_save_not_an_object(data: Any) -> None:
    with pytest.raises(SaveError, match="JSON object"):
        GAME.from_json(data)
    with pytest.raises(SaveError):
        boardlab.load(data)


def test_core_save_for_another_game() -> None:
    data = save()
    data["game"] = "pocket_mars"
    with pytest.raises(SaveError, match="pocket_mars"):
        GAME.from_json(data)


@pytest.mark.parametrize(
    ("field", "value", "message"),
    [
        ("actions", "2101r0@1,0", "list"),
        ("players", "three", "'players' must be an integer"),
        ("players", 3.5, "'players' must be an integer"),
        ("seed", None, "'seed' must be an integer"),
        ("options", [1, 2], "'options' must be an object"),
        ("players", 9, "bad configuration"),
        ("options", {"variant": 1}, "bad configuration"),
    ],
)
def test_core_malformed_save(field: str, value: Any, message: str) -> None:
    """Malformed fields give a SaveError (never a bare TypeError/ValueError) that says what is wrong."""
    data = save()
    data[field] = value
    with pytest.raises(SaveError, match=message):
        GAME.from_json(data)


def edited(path: list[Any], value: Any) -> dict[str, Any]:
    data = save()
    node = data["state"]
    for key in path[:-1]:
        node = node[key]
    node[path[-1]] = value
    return data


@pytest.mark.parametrize(
    ("path", "value"),
    [(["villages", 0, "gold"], 999), (["turn"], 2), (["pile"], []), (["hands", 1], ["3001", "3001", "3001"])],
)
def test_core_edited_snapshot(path: list[Any], value: Any) -> None:
    """A snapshot that does not match the replayed log is refused."""
    data = edited(path, value)
    with pytest.raises(SaveError, match="does not match"):
        GAME.from_json(data)


def test_core_illegal_action_in_log() -> None:
    """An illegal action in the log: SaveError naming its index and notation, and why it is illegal."""
    data = save()
    data["state"] = None
    i = next(i for i, a in enumerate(data["actions"]) if i > 3 and "@" in a and not a.startswith("fill"))
    far = data["actions"][i].split("r")[0] + "r0@51,50"  # the same tile, far from every jungle tile
    bad = copy.deepcopy(data)
    bad["actions"][i] = far
    with pytest.raises(SaveError, match=rf"action #{i} \({far}\) cannot be replayed: .*next to"):
        GAME.from_json(bad)
    garbage = copy.deepcopy(data)
    garbage["actions"][0] = "hello world"
    with pytest.raises(SaveError, match="action #0"):
        GAME.from_json(garbage)
    extra = copy.deepcopy(data)
    extra["actions"].insert(0, "auto")
    with pytest.raises(SaveError, match="action #0"):
        GAME.from_json(extra)


def test_core_actions_after_the_end() -> None:
    """A log that goes on after the game ended is refused."""
    s = boardlab.new_game("cacao", players=2, seed=1)
    rng = random.Random(1)
    while not s.is_over:
        s.apply(rng.choice(s.legal_actions()))
    data = json.loads(json.dumps(s.to_json()))
    data["state"] = None
    data["actions"].append("auto")
    with pytest.raises(SaveError, match="over"):
        GAME.from_json(data)
