"""The bot ladder: entrants, finish ranks, a reproducible round robin, ratings and the CLI command."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from boardlab.bots.ladder import Entrant, finish_ranks, pairwise, parse_entrant, ratings, run_ladder
from boardlab.cli import app


def test_parse_entrant() -> None:
    assert parse_entrant("mcts:300") == Entrant("mcts:300", "mcts", {"iterations": 300})
    assert parse_entrant("mcts:0.5s") == Entrant("mcts:0.5s", "mcts", {"seconds": 0.5})
    assert parse_entrant("hard") == Entrant("hard", "hard")
    with pytest.raises(ValueError, match="unknown bot kind"):
        parse_entrant("alphazero")
    with pytest.raises(ValueError, match="only mcts"):
        parse_entrant("greedy:3")
    with pytest.raises(ValueError, match="bad budget"):
        parse_entrant("mcts:lots")


def test_finish_ranks_share_ties() -> None:
    assert finish_ranks([10, 30, 20], [1]) == [3, 1, 2]
    assert finish_ranks([30, 30, 5, 5], [0, 1]) == [1, 1, 3, 3]
    assert finish_ranks([30, 31, 5], [0]) == [1, 2, 3]  # the winner by tie-break is still first


def test_round_robin_is_complete_reproducible_and_rates_the_strong_higher() -> None:
    field = [parse_entrant(t) for t in ("random", "greedy", "mcts:15")]
    results = run_ladder("cacao", field, games=4, players=2, seed=5)
    assert len(results) == 3 * 4  # 3 pairs x 4 games
    for r in results:
        assert sorted(r.ranks)[0] == 1 and len(set(r.seating)) == 2
    # seats rotate: every entrant of a pair sits first in half of its games
    pair = [r for r in results if set(r.seating) == {0, 2}]
    assert sorted(r.seating[0] for r in pair) == [0, 0, 2, 2]
    again = run_ladder("cacao", field, games=4, players=2, seed=5)
    assert [(r.seating, r.scores) for r in results] == [(r.seating, r.scores) for r in again]
    rows = ratings(field, results)
    assert rows[-1]["entrant"] == "random"  # lost every game in both Cacao measurements of docs/strength-log.md
    assert all(r["ci95"][0] < r["mu"] < r["ci95"][1] for r in rows)
    shares = pairwise(field, results)
    assert set(shares) == {"random vs greedy", "random vs mcts:15", "greedy vs mcts:15"}


def test_three_player_tables() -> None:
    field = [parse_entrant(t) for t in ("random", "greedy", "mcts:5", "mcts:10")]
    results = run_ladder("cacao", field, games=3, players=3, seed=1)
    assert len(results) == 4 * 3 and all(len(r.ranks) == 3 for r in results)


def test_cli_ladder_writes_ratings(tmp_path: Path) -> None:
    out = tmp_path / "ladder.json"
    res = CliRunner().invoke(app, ["ladder", "cacao", "--entrants", "random,greedy", "--games", "2",
                                   "--out", str(out)])
    assert res.exit_code == 0, res.output
    data = json.loads(out.read_text())
    assert [r["entrant"] for r in data["ratings"]] and "PlackettLuce" in data["rating_model"]
    bad = CliRunner().invoke(app, ["ladder", "cacao", "--entrants", "random,nobody"])
    assert bad.exit_code == 2
