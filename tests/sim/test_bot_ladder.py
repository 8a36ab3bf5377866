"""The bot ladder file the server seeds bot ratings from (issue #34): what a calibration run writes, the checks a
broken file fails with (saying where), the `boardlab ladder --site` command, and the shipped file itself: every
game, every level the site offers, in a sane order."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from boardlab.bots import LEVELS, level_preset
from boardlab.cli import app
from boardlab.core import games
from boardlab.server import ratings
from boardlab.server.botseed import LADDER_FILE
from boardlab.sim.bot_ladder import LadderFileError, calibrate, load, merge, seeds, validate

FIVE = ("block_and_key", "cacao", "cooper_island", "petrichor", "pocket_mars")


@pytest.fixture(scope="module")
def small() -> dict[str, Any]:
    """A tiny run, stamped as the command stamps it."""
    run = calibrate("cacao", players=2, games=2, seed=3, hard_iterations=5)
    run.update(command="test", commit="abc1234", date="2026-11-28 00:00 UTC")
    return merge(None, run)


def test_a_run_rates_every_level_the_site_offers(small: dict[str, Any]) -> None:
    rows = validate(small)
    assert {r.level for r in rows} == set(LEVELS) and {(r.game, r.players) for r in rows} == {("cacao", 2)}
    run = small["runs"][0]
    assert run["games"] == 3 * 2 and all(lv["games"] == 4 for lv in run["levels"].values())
    assert run["levels"]["hard"]["plays"] == "mcts {'iterations': 5}"  # the budget it really searched
    again = calibrate("cacao", players=2, games=2, seed=3, hard_iterations=5)
    assert again["levels"] == run["levels"]  # an iteration budget replays exactly


def test_a_new_run_of_a_game_and_count_replaces_the_old(small: dict[str, Any]) -> None:
    other = copy.deepcopy(small["runs"][0])
    other["seed"] = 9
    other3 = {**copy.deepcopy(other), "players": 3}
    data = merge(merge(small, other), other3)
    assert [(r["game"], r["players"], r["seed"]) for r in data["runs"]] == [("cacao", 2, 9), ("cacao", 3, 9)]
    assert set(seeds(validate(data))["cacao"]) == set(LEVELS)
    assert {r.players for r in seeds(validate(data))["cacao"].values()} == {2}  # the site seeds from 2 players


def broken(small: dict[str, Any], where: str, value: Any) -> dict[str, Any]:
    data = copy.deepcopy(small)
    *path, last = where.split(".")
    node: Any = data
    for key in path:
        node = node[int(key)] if isinstance(node, list) else node[key]
    if value is KeyError:
        del node[last]
    else:
        node[last] = value
    return data


@pytest.mark.parametrize(("where", "value", "message"), [
    ("format", 7, "format: must be 1"),
    ("runs", {}, "runs: must be a list"),
    ("runs.0.game", "chess", "runs[0].game: no such game 'chess'"),
    ("runs.0.players", 9, "runs[0].players: cacao takes 2-4 players, not 9"),
    ("runs.0.commit", KeyError, "runs[0]: 'commit' is missing"),
    ("runs.0.levels.hard.sigma", -1.0, "runs[0].levels.hard.sigma: must be above 0"),
    ("runs.0.levels.easy.mu", "high", "runs[0].levels.easy.mu: must be a number, not 'high'"),
    ("runs.0.levels.medium.games", KeyError, "runs[0].levels.medium: 'games' is missing"),
    ("runs.0.levels.expert", {"mu": 30.0, "sigma": 1.0, "games": 4}, "runs[0].levels.expert: no such level"),
])
def test_a_broken_file_says_where(small: dict[str, Any], where: str, value: Any, message: str) -> None:
    with pytest.raises(LadderFileError, match=message.replace("[", r"\[").replace("]", r"\]")):
        validate(broken(small, where, value), list(games()))


def test_a_second_run_of_the_same_table_and_bad_json_are_refused(small: dict[str, Any], tmp_path: Path) -> None:
    twice = copy.deepcopy(small)
    twice["runs"].append(copy.deepcopy(twice["runs"][0]))
    with pytest.raises(LadderFileError, match=r"runs\[1\]: a second run of cacao at 2 players"):
        validate(twice)
    bad = tmp_path / "ladder.json"
    bad.write_text("{not json", encoding="utf-8")
    with pytest.raises(LadderFileError, match=f"{bad}: Expecting property name"):
        load(bad)


def test_the_command_writes_and_refuses_to_overwrite_a_broken_file(tmp_path: Path) -> None:
    out = tmp_path / "ladder.json"
    r = CliRunner().invoke(app, ["ladder", "cacao", "--site", "--games", "2", "--hard-iterations", "5", "--file",
                                 str(out)])
    assert r.exit_code == 0, r.output
    run = json.loads(out.read_text())["runs"][0]
    assert run["command"].startswith("boardlab ladder") and run["commit"] and run["date"].endswith("UTC")
    assert validate(json.loads(out.read_text()))
    out.write_text(json.dumps({"format": 1, "runs": [{"game": "cacao"}]}), encoding="utf-8")
    r = CliRunner().invoke(app, ["ladder", "cacao", "--site", "--games", "2", "--file", str(out)])
    assert r.exit_code == 2 and "'players' is missing" in r.output, r.output


def test_the_shipped_file_rates_every_offered_level_of_every_game_in_a_sane_order() -> None:
    """Every game at 2 players, every level; the strong above the weak as the site shows them (the conservative
    figure): hard above medium and easy, and medium above easy where easy is the random bot. Cooper Island's easy is
    its own preset (greedy with one sample), which the ladder finds level with medium (docs/server.md)."""
    rows = load(LADDER_FILE, list(games()))
    seeded = seeds(rows)
    assert set(FIVE) <= set(seeded)
    for game in FIVE:
        lv = seeded[game]
        assert set(lv) == set(LEVELS) and all(r.players == 2 for r in lv.values()), game
        shown = {level: ratings.shown(r.mu, r.sigma) for level, r in lv.items()}
        assert shown["hard"] > shown["medium"] and shown["hard"] > shown["easy"], (game, shown)
        if level_preset("easy", game)[0] == "random":
            assert shown["medium"] > shown["easy"], (game, shown)
        assert all(r.games >= 16 for r in lv.values()), (game, lv)
