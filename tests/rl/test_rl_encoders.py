"""Hand-made observation tensors (#35, rl/encoders/): every built-in game's is bounded, has one slot per feature
(its layout's named blocks tile the vector, and no two different views of a seat share a tensor), is identical
under every determinization the seat allows and differs where the seat's information differs; games without one
keep the hashed encoding; the doc tables every block of every layout."""

from __future__ import annotations

import importlib.util
import json
import random
import re
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from rl_configs import CONFIGS

from boardlab.core import Rng, get_game, observe
from boardlab.rl.common import observation, observation_size
from boardlab.rl.encoders import BUILT_IN, encoder_for

DOC = Path(__file__).resolve().parents[2] / "docs" / "research.md"
GAMES = sorted(BUILT_IN)
TITLES = {"pocket_mars": "Pocket Mars", "petrichor": "Petrichor", "cacao": "Cacao", "cooper_island": "Cooper Island",
          "block_and_key": "Block and Key"}


def _pocket_mars(v: dict[str, Any]) -> None:
    v.pop("automaton_score", None)
    v["discard"] = sorted(map(str, v["discard"]))  # only ever reshuffled


def _petrichor(v: dict[str, Any]) -> None:
    for key in ("events", "rows", "cols"):  # the recent event log (history, not position); the grid's size
        v.pop(key, None)
    for c in v["cells"]:
        c.pop("tile")  # a tile's id: its crop and threshold are what it means
    if "south_wind" in v:
        v["south_wind"].pop("score")  # a function of the board


def _cacao(v: dict[str, Any]) -> None:
    v.pop("move")  # the move counter (history: the information-state tensor carries it)
    for t in v["board"]["workers"]:
        del t["tile"], t["rot"]  # a worker tile's type and rotation: its edges are what they mean
    for v2 in v["villages"]:
        v2.pop("water_value")  # read off the water track
    for key in ("hand", "display"):  # sets: their order means nothing
        v[key] = sorted(v[key] or [])
    v["pending"] = sorted((e["x"], e["y"], e["edge"]) for es in v["pending"].values() for e in es)


def _cooper_island(v: dict[str, Any]) -> None:
    for key in ("ring", "segment", "sandbanks", "rounds"):  # fixed by the player count and the components
        v.pop(key)
    for b in v["boards"]:
        for x in b["hexes"]:
            del x["q"], x["r"], x["height"]  # where the hex lies (fixed); its height is its stack's length


def _block_and_key(v: dict[str, Any]) -> None:
    # fixed tables and what follows from the rest: the orientation table, the reconstruction flag, the claim
    # threshold (the player count), the solo game's length and rating (its score), the five views and the column
    # heights (functions of the cubes), the core's side colours (its turn)
    for key in ("orientations", "reconstructed", "threshold", "solo_turns", "rating"):
        v.pop(key, None)
    t = v["temple"]
    for key in ("views", "heights", "core_sides", "height"):
        t.pop(key)
    # a block's orientation index and anchor (its cubes are where it is) and the order blocks were placed in
    t["blocks"] = sorted((b["block"], b["by"], sorted(b["cubes"])) for b in t["blocks"])
    for e in v["seats"]:
        e.pop("side")  # fixed by the player count and seat
        for key in ("claimed", "hand"):  # a key card's pattern, points and icons: its id names them
            if key in e:
                e[key] = [k["id"] for k in e[key]]
    if v.get("ancients") and v["ancients"].get("placed"):
        v["ancients"]["placed"] = True  # where the ancients placed their block: it is on the temple


# What each encoding leaves out on purpose (docs/research.md says why), removed from the view before comparing.
LEFT_OUT: dict[str, Callable[[dict[str, Any]], None]] = {
    "pocket_mars": _pocket_mars,
    "petrichor": _petrichor,
    "cacao": _cacao,
    "cooper_island": _cooper_island,
    "block_and_key": _block_and_key,
}
COMMON = ("components", "scores", "game", "seat", "players")  # file name; final scores (a function of the board)


def information(game: str, view: dict[str, Any]) -> str:
    """The view without what the encoding leaves out on purpose; the decision's options are in the action mask."""
    v = json.loads(json.dumps(view, default=str))
    for key in COMMON:
        v.pop(key, None)
    if v.get("decision"):
        v["decision"].pop("options", None)
    LEFT_OUT[game](v)
    return json.dumps(v, sort_keys=True)


def configs() -> list[tuple[str, int]]:
    """Every game with a built-in encoder at every player count."""
    return [(g, n) for g, n in CONFIGS if g in BUILT_IN]


@pytest.mark.parametrize("game", GAMES)
def test_the_layout_names_blocks_that_tile_the_vector(game: str) -> None:
    enc = encoder_for(game)
    assert enc is not None
    spans = sorted(span for name, span in enc.layout.items() if name != "size")
    at = 0
    for start, length in spans:
        assert start == at and length > 0, f"a gap or an overlap at {start}"
        at += length
    assert at == enc.layout["size"][0] == observation_size(get_game(game), 2)


@pytest.mark.parametrize(("game", "players"), configs(), ids=lambda x: str(x))
def test_the_tensor_is_bounded_and_collision_free(game: str, players: int) -> None:
    """Over random games, every value is in [0, 1] and no two views of a seat that differ (beyond what the
    encoding leaves out on purpose) share a tensor."""
    g = get_game(game)
    size = observation_size(g, players)
    seen: dict[bytes, str] = {}
    for seed in range(3):  # short games (solo) play more than one
        if len(seen) > 40:
            break
        state, rng = g.new_game(players, seed), random.Random(seed)
        while not state.is_over:
            for seat in range(players):
                obs = observation(state, seat)
                assert obs.shape == (size,) and obs.dtype == np.float32
                assert obs.min() >= 0.0 and obs.max() <= 1.0
                info = information(game, state.view(seat))
                assert seen.setdefault(obs.tobytes(), info) == info, "two different views share a tensor"
            state.apply(rng.choice(state.legal_actions()))
    assert len(seen) > 20


@pytest.mark.parametrize("game", GAMES)
def test_the_tensor_follows_the_seats_information_only(game: str) -> None:
    """Every determinization the seat's observation samples leaves its tensor bit for bit; in those worlds the
    other seat's tensor changes exactly where that seat's information changes (what it alone had seen is
    redealt), which happens in every game with hidden information."""
    g = get_game(game)
    state, rng = g.new_game(2, 1), random.Random(1)  # seed 1: a Cooper Island building offer is drawn
    same = changed = 0
    while not state.is_over:
        if len(state.history) % 2 == 0:
            for seat in range(2):
                world = observe(state, seat).sample(Rng(len(state.history) * 2 + seat))
                assert np.array_equal(observation(world, seat), observation(state, seat))
                same += 1
                other = 1 - seat
                differs = information(game, world.view(other)) != information(game, state.view(other))
                assert differs == (not np.array_equal(observation(world, other), observation(state, other)))
                changed += differs
        state.apply(rng.choice(state.legal_actions()))
    assert same > 10
    assert changed > 0 or not g.hidden_information


def test_games_without_a_hand_made_encoder_keep_the_hashed_one() -> None:
    """A user-added game (the server tests' toy game) gets the hashed view, as before."""
    if "toygame" not in sys.modules:  # the module the server tests import as `toygame` (registers "tally")
        spec = importlib.util.spec_from_file_location("toygame", Path(__file__).parents[1] / "server" / "toygame.py")
        assert spec is not None and spec.loader is not None
        sys.modules["toygame"] = module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
    g = get_game("tally")
    assert encoder_for("tally") is None and observation_size(g, 2) == g.observation_size(2)
    state = g.new_game(2, 1)
    assert np.array_equal(observation(state, 0), np.asarray(g.encode_observation(state, 0), np.float32))


@pytest.mark.parametrize("game", GAMES)
def test_the_research_doc_tables_every_block(game: str) -> None:
    text = DOC.read_text(encoding="utf-8")
    start = text.index(f"### {TITLES[game]} observation tensor")
    end = text.find("\n### ", start + 1)
    table = text[start:end if end > 0 else None]
    first_cells = re.findall(r"^\| (`[^|]*) \|", table, flags=re.M)
    named = {name for cell in first_cells for name in re.findall(r"`(\w+)`", cell)}
    enc = encoder_for(game)
    assert enc is not None
    assert named == set(enc.layout) - {"size"}
    assert f"{enc.layout['size'][0]:,} floats" in table
