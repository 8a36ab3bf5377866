"""OpenSpiel: every registered game loads by name, passes OpenSpiel's own random_sim_test (the C++
API checks, on our Python games), resamples from the information state without leaking, and
OpenSpiel's ISMCTS plays a whole game of it."""

from __future__ import annotations

import json
import random

import numpy as np
import pyspiel
import pytest
from open_spiel.python.algorithms import ismcts, mcts
from rl_configs import CONFIGS, IDS

import boardlab
from boardlab.core import get_game
from boardlab.rl import openspiel as bos
from boardlab.rl.common import observation


def test_every_game_is_registered_under_its_name() -> None:
    names = bos.register_all()
    assert names == [f"boardlab_{g}" for g in boardlab.games()]
    registered = pyspiel.registered_names()
    assert all(n in registered for n in names)
    g = pyspiel.load_game("boardlab_cacao", {"players": 3, "seed": 4})
    assert g.num_players() == 3
    assert g.num_distinct_actions() == get_game("cacao").action_split(3).size  # compact actions (#35)
    assert g.get_type().chance_mode == pyspiel.GameType.ChanceMode.SAMPLED_STOCHASTIC
    assert g.get_type().information == pyspiel.GameType.Information.IMPERFECT_INFORMATION


# OpenSpiel's C++ random_sim_test on one random game of 2 players of every game, with serialisation (#35).
TWO = [(g, n) for g, n in CONFIGS if n == 2]


@pytest.mark.parametrize(("game", "players"), TWO, ids=[f"{g}-{n}p" for g, n in TWO])
def test_openspiel_random_sim_test_with_serialize(game: str, players: int) -> None:
    """OpenSpiel's C++ checks, serialising and deserialising the state along the game. pyspiel never asks a
    Python game for its RNG state, so the check runs on `fixed_deal=True` (the same game with one deal, nothing
    random outside the state); the sampled game serialises through `bos.serialize_game_and_state`."""
    fixed = bos.load(game, players, seed=2, fixed_deal=True)
    assert fixed.get_type().chance_mode == pyspiel.GameType.ChanceMode.DETERMINISTIC
    pyspiel.random_sim_test(fixed, num_sims=1, serialize=True, verbose=False)


def test_serialize_game_and_state_round_trips_the_deal_and_the_records() -> None:
    """#35: serialisation was unimplemented. A state (and a resampled one) comes back equal, with the seats'
    records and the game's next deal; bad text is refused with a clear error."""
    sgame = bos.load("pocket_mars", 2, seed=4)
    state = sgame.new_initial_state()
    rng = random.Random(1)
    for _ in range(12):
        state.apply_action(rng.choice(state.legal_actions()))
    game2, back = bos.deserialize_game_and_state(bos.serialize_game_and_state(sgame, state))
    assert str(back) == str(state) and back.records == state.records
    assert game2.get_rng_state() == sgame.get_rng_state()  # the next deal
    assert str(game2.new_initial_state()) == str(sgame.new_initial_state())
    assert back.information_state_tensor(0) == state.information_state_tensor(0)
    world = state.resample_from_infostate(1, pyspiel.UniformProbabilitySampler(0.0, 1.0))
    world.apply_action(world.legal_actions()[0])
    again = sgame.deserialize_state(world.serialize())
    assert str(again) == str(world) and again.information_state_string(1) == world.information_state_string(1)
    with pytest.raises(ValueError, match="no 'GameRNGState' section"):
        bos.deserialize_game_and_state(pyspiel.serialize_game_and_state(bos.load("cacao", 2, seed=0, fixed_deal=True),
                                                                        state))


def test_information_state_tensor_has_perfect_recall() -> None:
    """#35: the information-state tensor was the observation tensor, so two (state, seat) pairs with different
    information-state strings shared a tensor. Now it is the observation, then the seat's record: different
    strings, different tensors; it starts with the observation tensor; it is bounded and 0/1 beyond it."""
    sgame = bos.load("pocket_mars", 2, seed=1)
    seen: dict[tuple[float, ...], str] = {}
    obs_size = sgame.observation_tensor_shape()[0]
    for deal in range(3):
        state = sgame.new_initial_state()
        rng = random.Random(deal)
        while not state.is_terminal():
            for seat in range(2):
                tensor = state.information_state_tensor(seat)
                assert tensor[:obs_size] == state.observation_tensor(seat)
                assert set(tensor[obs_size:]) <= {0.0, 1.0}
                key = tuple(tensor)
                text = state.information_state_string(seat)
                assert seen.setdefault(key, text) == text
            state.apply_action(rng.choice(state.legal_actions()))


@pytest.mark.parametrize(("game", "players"), CONFIGS, ids=IDS)
def test_strings_tensors_and_resampling(game: str, players: int) -> None:
    """Along a random game: legal actions are the sub-choices (ascending) some boardlab legal action continues with
    after the player's choices so far; tensors have the declared shape and begin with the seat's observation tensor;
    the observation string is the seat's view and its choices so far; resampling for the seat to move keeps its
    information state (string and tensor) and changes only what it cannot see."""
    sgame = bos.load(game, players, seed=9)
    state = sgame.new_initial_state()
    rng = random.Random(9)
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    shape = sgame.observation_tensor_shape()
    resampled_differently = 0
    step = 0
    while not state.is_terminal():
        p = state.current_player()
        inner = state.inner
        legal = state.legal_actions()
        so_far = state.prefix
        parts = [sgame.space.parts(a) for a in inner.legal_actions()]
        assert legal == sorted({q[len(so_far)] for q in parts if q[:len(so_far)] == so_far})
        step += 1
        if step % 3 == 0:
            view, _, partial = state.observation_string(p).partition(" | so far: ")
            assert json.loads(view) == json.loads(json.dumps(inner.view(p), default=str))
            assert partial == ", ".join(sgame.space.describe(t) for t in so_far)
            assert len(state.observation_tensor(p)) == shape[0]
            assert len(state.information_state_tensor(p)) == sgame.information_state_tensor_shape()[0]
            # both tensors start with the seat's observation tensor (the game's hand-made one, #35), then the move
            # so far (compact actions)
            seen = observation(inner, p)
            obs_t = np.asarray(state.observation_tensor(p), np.float32)
            assert np.array_equal(obs_t[:len(seen)], seen)
            assert np.array_equal(obs_t[len(seen):], sgame.space.partial(so_far))
            assert np.array_equal(np.asarray(state.information_state_tensor(p)[:shape[0]], np.float32), obs_t)
        if step % 7 == 0:
            world = state.resample_from_infostate(p, sampler)
            assert world.information_state_string(p) == state.information_state_string(p)
            assert world.observation_tensor(p) == state.observation_tensor(p)
            assert world.information_state_tensor(p) == state.information_state_tensor(p)
            assert world.legal_actions() == legal
            resampled_differently += str(world) != str(state)
        state.apply_action(rng.choice(legal))
    util = state.returns()
    assert util == [max(2, players) * r - 1 for r in state.inner.returns()]
    if players > 1:
        assert abs(sum(util)) < 1e-9
        if get_game(game).hidden_information:
            assert resampled_differently > 0


def test_information_state_records_only_what_the_seat_saw() -> None:
    """A Pocket Mars card readied face down is '?' in the other seat's record, its own notation in the
    actor's; the information-state string never contains what the seat could not see."""
    sgame = bos.load("pocket_mars", 2, seed=3)
    state = sgame.new_initial_state()
    actor = state.current_player()
    action = state.legal_actions()[0]
    text = state.action_to_string(actor, action)
    state.apply_action(action)
    other = 1 - actor
    assert state.records[actor][-1] == f"{actor}:{text}"
    visible = get_game("pocket_mars").action_visible
    if not visible(sgame.new_initial_state().inner, get_game("pocket_mars").parse_action(
            sgame.new_initial_state().inner, text), other):
        assert state.records[other][-1] == f"{actor}:?"
        assert text not in state.information_state_string(other).split("|")[-1]


def test_openspiel_ismcts_plays_a_whole_cacao_game() -> None:
    sgame = bos.load("cacao", 2, seed=1)
    state = sgame.new_initial_state()
    rs = np.random.RandomState(0)
    bot = ismcts.ISMCTSBot(sgame, mcts.RandomRolloutEvaluator(1, rs), 2.0, 8, random_state=rs,
                           allow_inconsistent_action_sets=True)
    while not state.is_terminal():
        legal = state.legal_actions()
        state.apply_action(legal[0] if len(legal) == 1 else int(bot.step(state)))
    assert sorted(state.returns()) in ([-1.0, 1.0], [0.0, 0.0])


def test_spiel_match_runs_and_resumes(tmp_path) -> None:
    from boardlab.rl import spiel_match

    out = tmp_path / "m.jsonl"
    spiel_match.main(["--games", "1", "--simulations", "3", "--out", str(out)])
    spiel_match.main(["--games", "2", "--simulations", "3", "--out", str(out)])
    rows = [json.loads(x) for x in out.read_text().splitlines()]
    assert [r["index"] for r in rows] == [0, 1]
    assert rows[0]["deal"] == rows[1]["deal"] and rows[0]["spiel_seat"] != rows[1]["spiel_seat"]
    s = spiel_match.summary(rows)
    assert s["games"] == 2 and s["ci95"][0] - 1e-9 <= s["spiel_win_rate"] <= s["ci95"][1] + 1e-9


def test_boardlab_evaluator_gives_zero_sum_values_and_drives_ismcts() -> None:
    sgame = bos.load("cacao", 3, seed=2)
    state = sgame.new_initial_state()
    ev = bos.BoardlabEvaluator(depth=6, random_state=np.random.RandomState(1))
    rng = random.Random(2)
    for _ in range(20):
        v = ev.evaluate(state)
        assert v.shape == (3,) and abs(v.sum()) < 0.5 and (v >= -1).all() and (v <= 2).all()
        state.apply_action(rng.choice(state.legal_actions()))
    two = bos.load("pocket_mars", 2, seed=5).new_initial_state()
    rs = np.random.RandomState(3)
    bot = ismcts.ISMCTSBot(two.get_game(), bos.BoardlabEvaluator(4, rs), 2.0, 6, random_state=rs,
                           allow_inconsistent_action_sets=True)
    while not two.is_terminal():
        legal = two.legal_actions()
        two.apply_action(legal[0] if len(legal) == 1 else int(bot.step(two)))
    assert sorted(two.returns()) in ([-1.0, 1.0], [0.0, 0.0])


@pytest.mark.parametrize("players", [2, 3, 4])
def test_cacao_max_game_length_is_a_true_bound(players: int) -> None:
    """#35: max_game_length was 100,000 for every game. Cacao's is the worker tiles (one per turn) times the most
    decisions a turn can hold; random games keep every turn within that and the game within the bound."""
    g = get_game("cacao")
    bound = g.max_game_length(players)
    state = g.new_game(players, 0)
    tiles = sum(len(h) for h in state.hands) + sum(len(d) for d in state.decks)
    assert bound == tiles * g.DECISIONS_PER_TURN < 100_000
    rng = random.Random(players)
    for seed in range(3):
        state = g.new_game(players, seed)
        turn = 0
        while not state.is_over:
            action = rng.choice(state.legal_actions())
            turn = 1 if action[0] in ("place", "rebuild", "discard") else turn + 1
            assert turn <= g.DECISIONS_PER_TURN
            state.apply(action)
        assert len(state.history) <= bound
    depth = get_game("cacao").action_split(players).depth  # OpenSpiel counts each sub-choice of a move
    assert bos.load("cacao", players).max_game_length() == bound * depth
    assert bos.load("cacao", players, actions="flat").max_game_length() == bound


def test_iterations_for_spends_the_cpu_budget() -> None:
    """#35: at equal CPU time each bot gets the iterations its calibrated CPU per iteration allows."""
    from boardlab.rl import spiel_match

    assert spiel_match.iterations_for(0.1, 0.0025) == 40
    assert spiel_match.iterations_for(0.1, 0.00013) == 769
    assert spiel_match.iterations_for(0.001, 0.5) == 1  # never zero: a searched move searches
    with pytest.raises(ValueError):
        spiel_match.iterations_for(0.1, 0.0)


def test_spiel_match_equal_cpu_records_the_calibration(tmp_path) -> None:
    """#35: `--cpu-seconds` calibrates both bots' CPU per iteration in the run, gives each the matching iterations,
    stores the calibration in every record and reuses it when the run resumes; equal knowledge runs with it."""
    from boardlab.rl import spiel_match

    out = tmp_path / "cpu.jsonl"
    args = ["--simulations", "3", "--cpu-seconds", "0.002", "--calibration-moves", "1", "--evaluator", "boardlab",
            "--out", str(out)]
    spiel_match.main(["--games", "1", *args])
    spiel_match.main(["--games", "2", *args])
    rows = [json.loads(x) for x in out.read_text().splitlines()]
    assert [r["index"] for r in rows] == [0, 1]
    cal = rows[0]["calibration"]
    assert rows[1]["calibration"] == cal and cal["deal"] == 6_000_000 - 1 and cal["evaluator"] == "boardlab"
    assert min(cal["searched"]) >= 1 and cal["spiel_cpu_per_iteration"] > 0 and cal["boardlab_cpu_per_iteration"] > 0
    for r in rows:
        assert r["cpu_seconds"] == 0.002 and r["evaluator"] == "boardlab"
        assert r["simulations"] == max(2, spiel_match.iterations_for(0.002, cal["spiel_cpu_per_iteration"]))
        assert r["boardlab_simulations"] == spiel_match.iterations_for(0.002, cal["boardlab_cpu_per_iteration"])
    s = spiel_match.summary(rows)
    assert s["games"] == 2 and s["spiel_iterations"] == [rows[0]["simulations"]]


def test_cpu_budget_follows_the_cpu_per_iteration_measured_in_the_game() -> None:
    """#35: a count fixed by an early calibration missed the CPU budget by up to 1.7x over a game; with `adapt` the
    next move's count comes from the bot's own CPU per iteration so far, without it from the calibration."""
    from boardlab.rl.spiel_match import CpuBudget

    fixed, adapted = CpuBudget(0.1, 0.001, False), CpuBudget(0.1, 0.001, True)
    assert fixed.next() == adapted.next() == 100
    for b in (fixed, adapted):
        b.spent(0.2, 100)  # the game got dearer: 2 ms an iteration
        b.spent(0.2, 100)
    assert fixed.next() == 100 and adapted.next() == 50


def test_spiel_match_adapt_records_iterations_per_move(tmp_path) -> None:
    """#35: `--adapt` plays with per-move counts and records each bot's total iterations and the flag."""
    from boardlab.rl import spiel_match

    out = tmp_path / "adapt.jsonl"
    spiel_match.main(["--games", "1", "--simulations", "3", "--cpu-seconds", "0.002", "--calibration-moves", "1",
                      "--adapt", "--out", str(out)])
    (row,) = [json.loads(x) for x in out.read_text().splitlines()]
    assert row["adapt"] is True and row["cpu_seconds"] == 0.002
    assert all(it >= s for it, s in zip(row["iterations"], row["searched"], strict=True))
    assert spiel_match.summary([row])["spiel_iterations_per_move"] == row["iterations"][0] / row["searched"][0]
