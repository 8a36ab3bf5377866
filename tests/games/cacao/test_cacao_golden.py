"""Golden playthroughs (golden/*.json, written once by make_golden.py): replaying each recorded action
log must give exactly the recorded final scores, breakdowns, winners, board and villages."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from cacao_helpers import board_json, recompute_scores

from boardlab.games.cacao import GAME

FILES = sorted((Path(__file__).parent / "golden").glob("*.json"))


def test_cacao_golden_files_cover_every_player_count() -> None:
    """One golden game each for 2, 3 and 4 players, each with a rebuild and a fill choice."""
    data = [json.loads(p.read_text(encoding="utf-8")) for p in FILES]
    assert sorted(d["players"] for d in data) == [2, 3, 4]
    for d in data:
        assert any(a.startswith("rebuild") for a in d["actions"])
        assert any(a.startswith("fill") for a in d["actions"])


@pytest.mark.recorded
@pytest.mark.parametrize("path", FILES, ids=[p.stem for p in FILES])
def test_cacao_golden_replay(path: Path) -> None:
    """The recorded game replays to the same outcome, exactly."""
    d = json.loads(path.read_text(encoding="utf-8"))
    s = GAME.replay(d["players"], d["seed"], d["actions"])
    assert s.is_over
    assert [x.to_json() for x in s.scores()] == d["scores"]
    assert s.winners() == d["winners"]
    assert board_json(s) == d["final"]
    assert [str(a) for a in s.history] == d["actions"]
    # the recorded scores also agree with the tests' own scorer
    assert [dict(x["breakdown"], total=x["total"]) for x in d["scores"]] == recompute_scores(s)  # type: ignore[arg-type]
