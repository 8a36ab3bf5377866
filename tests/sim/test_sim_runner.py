"""Simulation runner: every backend (one process, a process pool, Ray tasks) plays the same seeded
games and writes the same results file byte for byte; results stream as JSON lines and a stopped
run resumes without replaying or losing a game."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from boardlab.cli import app
from boardlab.sim import simulate
from boardlab.sim.runner import GameRecord

ENTRANTS = ["mcts", "greedy"]
BUDGET = {"iterations": 8}


def run(path: Path, games: int, **kw) -> list[GameRecord]:
    return simulate("cacao", ENTRANTS, games, seed=5, budgets=BUDGET, results=path, **kw)


def test_results_file_streams_in_game_order_with_a_header(tmp_path: Path) -> None:
    path = tmp_path / "r.jsonl"
    seen: list[int] = []
    records = run(path, 3, progress=seen.append)
    assert seen == [1, 2, 3]
    lines = path.read_text().splitlines()
    header = json.loads(lines[0])
    assert header == {"kind": "boardlab-simulation", "game": "cacao", "entrants": ENTRANTS, "seed": 5,
                      "game_options": {}, "budgets": BUDGET}
    rows = [json.loads(x) for x in lines[1:]]
    assert [r["index"] for r in rows] == [0, 1, 2]
    assert all("seconds" not in r for r in rows)
    assert [GameRecord.from_json(r).result_json() for r in rows] == [r.result_json() for r in records]


def test_process_pool_gives_the_same_file(tmp_path: Path) -> None:
    run(tmp_path / "one.jsonl", 4)
    run(tmp_path / "pool.jsonl", 4, jobs=2)
    assert (tmp_path / "one.jsonl").read_bytes() == (tmp_path / "pool.jsonl").read_bytes()


def test_a_stopped_run_resumes_without_replaying(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    full = tmp_path / "full.jsonl"
    run(full, 5)
    part = tmp_path / "part.jsonl"
    run(part, 3)
    with part.open("a") as f:  # the run was killed while writing game 3's line
        f.write('{"index": 3, "seed": 5000')
    played: list[int] = []
    import boardlab.sim.runner as runner

    real = runner.play_one

    def counting(*args, **kwargs):
        played.append(args[2])
        return real(*args, **kwargs)

    monkeypatch.setattr(runner, "play_one", counting)
    seen: list[int] = []
    records = run(part, 5, progress=seen.append)
    assert played == [3, 4]  # games 0-2 came from the file
    assert seen == [3, 4, 5]
    assert [r.index for r in records] == [0, 1, 2, 3, 4]
    assert part.read_bytes() == full.read_bytes()


def test_a_file_of_another_simulation_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "r.jsonl"
    run(path, 1)
    with pytest.raises(ValueError, match="another simulation"):
        simulate("cacao", ENTRANTS, 2, seed=6, budgets=BUDGET, results=path)


def test_ray_tasks_give_the_same_file_as_one_process(tmp_path: Path) -> None:
    """Through the command line: `--ray` alone starts a local Ray (2 CPUs) and stops it afterwards."""
    one = tmp_path / "one.jsonl"
    run(one, 4)
    ray_file = tmp_path / "ray.jsonl"
    res = CliRunner().invoke(app, ["simulate", "cacao", "--seats", ",".join(ENTRANTS), "--games", "4", "--seed", "5",
                                   "--iterations", "8", "--results", str(ray_file), "--ray", "--jobs", "2"])
    assert res.exit_code == 0, res.output
    assert ray_file.read_bytes() == one.read_bytes()
    import ray

    assert not ray.is_initialized()


def test_a_rerun_with_fewer_games_keeps_every_finished_game(tmp_path: Path,
                                                             monkeypatch: pytest.MonkeyPatch) -> None:
    """#35: a results file is never truncated. Rerunning with a smaller `games` plays nothing, returns the games
    asked for, and leaves the file byte for byte as it was (the games beyond stay)."""
    path = tmp_path / "r.jsonl"
    run(path, 3)
    before = path.read_bytes()
    import boardlab.sim.runner as runner

    monkeypatch.setattr(runner, "play_one", lambda *a, **k: pytest.fail("no game should be played"))
    records = run(path, 1)
    assert [r.index for r in records] == [0]
    assert path.read_bytes() == before
