"""Balance reports: the numbers agree with the games they come from, component counts agree with an
independent reading of the action logs, the page is self-contained, and the command line writes it."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from boardlab.core import get_game
from boardlab.sim.report import report
from boardlab.sim.stats import holm


@pytest.fixture(scope="module")
def cacao_report(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("cacao")
    report("cacao", out, games=8, seed=3)
    return out


def replayed(rows: list[dict[str, Any]]) -> Iterator[Any]:
    """Every action of the 2-player Cacao games' logs, parsed on the replayed state (an independent reading)."""
    g = get_game("cacao")
    for r in rows:
        state = g.new_game(2, r["seed"])
        for text in r["actions"]:
            a = g.parse_action(state, text)
            yield a
            state.apply(a)


def test_seat_numbers_match_the_games(cacao_report: Path) -> None:
    data = json.loads((cacao_report / "report.json").read_text())
    rows = [json.loads(x) for x in (cacao_report / "games.jsonl").read_text().splitlines()[1:]]
    assert data["games"] == len(rows) == 8 and data["players"] == 2
    for s in data["seats"]:
        share = sum(1 / len(r["winners"]) for r in rows if s["seat"] in r["winners"]) / 8
        assert s["win_share"] == pytest.approx(share)
        assert s["win_ci95"][0] - 1e-9 <= share <= s["win_ci95"][1] + 1e-9
        assert s["scores"] == [r["scores"][s["seat"]] for r in rows]
    assert sum(s["win_share"] for s in data["seats"]) == pytest.approx(1.0)
    fpa = data["first_player_advantage"]
    assert fpa["value"] == pytest.approx(data["seats"][0]["win_share"] - 0.5)
    assert fpa["ci95"][0] - 1e-9 <= fpa["value"] <= fpa["ci95"][1] + 1e-9
    assert data["length"]["decisions"] == [r["decisions"] for r in rows]
    assert sum(data["ends"].values()) == 8
    assert set(data["ends"]) <= {"outright win", "decided on the tie-break", "shared win"}


def test_component_counts_match_the_action_logs(cacao_report: Path) -> None:
    """Every worker tile placed ('place'/'rebuild' notation starts with the tile id) and every jungle
    tile laid ('fill ...') is counted once, under its id."""
    data = json.loads((cacao_report / "report.json").read_text())
    rows = [json.loads(x) for x in (cacao_report / "games.jsonl").read_text().splitlines()[1:]]
    counted = {c["component"]: c["times_played"] for c in data["components"]}
    expected: dict[str, int] = {}
    for a in replayed(rows):
        tile = getattr(a, "tile", None) if a[0] in ("place", "rebuild") else getattr(a, "jungle", None)
        if tile is not None:
            expected[tile] = expected.get(tile, 0) + 1
    assert counted == expected
    for c in data["components"]:
        assert 0 <= c["win_ci95"][0] <= c["win_share_when_played"] + 1e-9
        assert c["win_share_when_played"] <= c["win_ci95"][1] + 1e-9 <= 1 + 1e-9
        if c["value"] is not None:
            assert c["value"] == pytest.approx(c["win_share_when_played"] - c["win_share_when_not_played"])


def test_values_have_intervals_and_adjusted_p_values(cacao_report: Path) -> None:
    """Issue #35: each value has Newcombe's interval, a p-value and its Holm and Benjamini-Hochberg adjustments,
    and the page warns how many comparisons it makes."""
    data = json.loads((cacao_report / "report.json").read_text())
    for family in ("components", "actions"):
        tested = [c for c in data[family] if c["value"] is not None]
        assert tested, family
        for c in tested:
            assert c["value_ci95"][0] - 1e-9 <= c["value"] <= c["value_ci95"][1] + 1e-9
            assert 0 < c["p"] <= c["q_bh"] + 1e-12 and c["q_bh"] <= c["p_holm"] + 1e-12 <= 1 + 1e-12
        assert holm([c["p"] for c in tested]) == pytest.approx([c["p_holm"] for c in tested])
    for c in data["category_ci95"]:
        assert c["ci95"][0] <= c["mean"] <= c["ci95"][1]
        assert c["mean"] == pytest.approx(data["categories"][c["category"]])
    page = (cacao_report / "report.html").read_text()
    assert "comparisons.</b>" in page and "Holm" in page and "<h2>Actions</h2>" in page
    assert "Worker tile 1-1-1-1" in page  # a component id is shown with its name


def test_action_counts_match_the_action_logs(cacao_report: Path) -> None:
    data = json.loads((cacao_report / "report.json").read_text())
    rows = [json.loads(x) for x in (cacao_report / "games.jsonl").read_text().splitlines()[1:]]
    expected: dict[str, int] = {}
    for a in replayed(rows):
        expected[a[0]] = expected.get(a[0], 0) + 1
    assert "place" in expected and set(expected) <= {"auto", "fill", "place", "rebuild", "use"}
    assert {a["action"]: a["times_used"] for a in data["actions"]} == expected


def test_page_is_self_contained(cacao_report: Path) -> None:
    page = (cacao_report / "report.html").read_text()
    assert page.count("<svg") >= 4
    assert not re.search(r"""(src|href)=["']?(https?:|//|[\w./-]+\.(js|css|png))""", page)
    assert "First-player advantage" in page and "Components" in page
    csv_lines = (cacao_report / "components.csv").read_text().splitlines()
    assert len(csv_lines) == 1 + len(json.loads((cacao_report / "report.json").read_text())["components"])


def test_cli_report_for_pocket_mars(tmp_path: Path) -> None:
    out = tmp_path / "pm"
    res = subprocess.run([sys.executable, "-m", "boardlab.cli", "report", "pocket_mars", "--players", "3",
                          "--games", "3", "--out", str(out), "--option", "draft=true"],
                         capture_output=True, text=True, timeout=300,
                         env={"PATH": "/usr/bin:/bin", "COLUMNS": "120"})
    assert res.returncode == 0, res.stderr + res.stdout
    assert "wrote" in res.stdout and "playing" in res.stderr
    data = json.loads((out / "report.json").read_text())
    assert data["players"] == 3 and data["games"] == 3
    first = json.loads((out / "games.jsonl").read_text().splitlines()[1])
    assert first["actions"][0].startswith("keep ")  # --option draft=true reached the games
    assert "keep" in {a["action"] for a in data["actions"]}
    assert data["components"], "Pocket Mars reports its cards"
    from boardlab.games.pocket_mars.components import CARD_IDS

    assert {c["component"] for c in data["components"]} <= set(CARD_IDS)


def test_bad_seat_count_is_refused(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="seats given"):
        report("cacao", tmp_path, players=3, seats=["greedy", "greedy"], games=1)
