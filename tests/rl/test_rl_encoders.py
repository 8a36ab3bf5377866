"""Hand-made observation tensors (#35, rl/encoders.py): Pocket Mars's is bounded, has one slot per feature (no two
different views of a seat share a tensor), is identical under every determinization the seat allows and differs
where the seat's information differs; games without one keep the hashed encoding; the doc tables the layout."""

from __future__ import annotations

import json
import random
import re
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from boardlab.core import Rng, get_game
from boardlab.rl.common import observation, observation_size
from boardlab.rl.encoders import PocketMarsEncoder, encoder_for

DOC = Path(__file__).resolve().parents[2] / "docs" / "research.md"


def information(view: dict[str, Any]) -> str:
    """The view without what the encoding leaves out on purpose: the options of the decision (the action mask
    carries them), the solo automaton's score (a function of the board), the components' file name, and the
    discard pile's order (it is only ever reshuffled)."""
    v = {k: x for k, x in view.items() if k not in ("components", "automaton_score")}
    if v.get("decision"):
        v["decision"] = {k: x for k, x in v["decision"].items() if k != "options"}
    v["discard"] = sorted(map(str, v["discard"]))
    return json.dumps(v, sort_keys=True)


@pytest.mark.parametrize("players", [1, 2, 3, 4])
def test_pocket_mars_tensor_is_bounded_and_collision_free(players: int) -> None:
    g = get_game("pocket_mars")
    size = observation_size(g, players)
    seen: dict[bytes, str] = {}
    for seed in range(2):
        state, rng = g.new_game(players, seed), random.Random(seed)
        while not state.is_over:
            for seat in range(players):
                obs = observation(state, seat)
                assert obs.shape == (size,) and obs.dtype == np.float32
                assert obs.min() >= 0.0 and obs.max() <= 1.0
                info = information(state.view(seat))
                assert seen.setdefault(obs.tobytes(), info) == info, "two different views share a tensor"
            state.apply(rng.choice(state.legal_actions()))
    assert len(seen) > 30  # distinct positions met (solo games are short)


def test_pocket_mars_tensor_follows_the_seats_information_only() -> None:
    """Redealing what a seat cannot see leaves its tensor bit for bit; the other seat's tensor, which sees
    other cards, changes in some of those worlds."""
    g = get_game("pocket_mars")
    state, rng = g.new_game(2, 5), random.Random(5)
    same = changed = 0
    while not state.is_over:
        if len(state.history) % 5 == 0:
            for seat in range(2):
                world = state.determinize(seat, Rng(len(state.history) * 2 + seat))
                assert np.array_equal(observation(world, seat), observation(state, seat))
                same += 1
                changed += not np.array_equal(observation(world, 1 - seat), observation(state, 1 - seat))
        state.apply(rng.choice(state.legal_actions()))
    assert same > 10 and changed > 0


def test_games_without_a_hand_made_encoder_keep_the_hashed_one() -> None:
    g = get_game("cacao")
    assert encoder_for("cacao") is None and observation_size(g, 2) == g.observation_size(2)
    state = g.new_game(2, 1)
    assert np.array_equal(observation(state, 0), np.asarray(g.encode_observation(state, 0), np.float32))


def test_the_research_doc_tables_every_block() -> None:
    text = DOC.read_text(encoding="utf-8")
    table = text[text.index("### Pocket Mars observation tensor"):]
    first_cells = re.findall(r"^\| (`[^|]*) \|", table, flags=re.M)
    named = {name for cell in first_cells for name in re.findall(r"`(\w+)`", cell)}
    assert named == set(PocketMarsEncoder().layout) - {"size"}
