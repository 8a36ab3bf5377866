"""The `boardlab` command driven end to end in real processes: play with scripted input, simulate, bench."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import boardlab
from boardlab.bots import make_bot
from boardlab.core import observe
from zh_marks import stray_marks

BOARDLAB = [sys.executable, "-m", "boardlab.cli"]


def run(args: list[str], stdin: str = "", timeout: float = 120) -> subprocess.CompletedProcess[str]:
    return subprocess.run([*BOARDLAB, *args], input=stdin, capture_output=True, text=True, timeout=timeout,
                          env={"COLUMNS": "160", "PATH": "/usr/bin:/bin", "TERM": "dumb"})


def scripted_moves(seed: int) -> tuple[list[str], boardlab.State]:
    """What a person at seat 0 types (the first legal action, in notation) against the CLI's seeded random
    bot at seat 1, and the game that results."""
    state = boardlab.new_game("cacao", players=2, seed=seed)
    bot = make_bot("random", seed * 7 + 1)
    typed = []
    while not state.is_over:
        seat = state.current_player
        if seat == 0:
            action = state.legal_actions()[0]
            typed.append(str(action))
        else:
            action = bot.choose(observe(state, seat))
        state.apply(action)
    return typed, state


def test_play_a_whole_game_with_scripted_input(tmp_path: Path) -> None:
    typed, expected = scripted_moves(seed=5)
    save = tmp_path / "game.json"
    # a bad line and a help request first: both are answered and the game goes on
    proc = run(["play", "cacao", "--seats", "me,random", "--seed", "5", "--save", str(save)],
               stdin="nonsense move\nhelp\n" + "\n".join(typed) + "\n")
    assert proc.returncode == 0, proc.stderr[-2000:]
    out = proc.stdout
    assert "Not understood: 'nonsense move'." in out
    assert "Game over" in out and "Winner(s)" in out
    for category in ("gold", "temples", "sun", "water"):
        assert category in out
    data = json.loads(save.read_text())
    assert data["state"] == expected.snapshot()
    assert boardlab.load(data).scores() == expected.scores()


def test_play_refuses_an_illegal_move_with_its_reason() -> None:
    proc = run(["play", "cacao", "--seats", "me,random", "--seed", "1"], stdin="1111r0@5,6\n")
    assert "Illegal:" in proc.stdout and "next to" in proc.stdout
    assert proc.returncode == 1  # input ended before the game did
    assert "Input ended" in proc.stdout


def test_play_in_traditional_chinese() -> None:
    proc = run(["play", "cacao", "--seats", "me,random", "--seed", "1", "--lang", "zh-TW"], stdin="")
    assert "叢林展示區" in proc.stdout and "紅色" in proc.stdout


def test_a_whole_game_in_traditional_chinese_reads_as_chinese() -> None:
    """Every line a zh-TW player reads, from the header to the final table: Chinese punctuation (no "手牌: 4"),
    the seed and the score table's columns in Chinese, not the breakdown's keys ("gold", "tie-break")."""
    typed, _ = scripted_moves(seed=5)
    proc = run(["play", "cacao", "--seats", "me,random", "--seed", "5", "--lang", "zh-TW"],
               stdin="nonsense\nhelp\n" + "\n".join(typed) + "\n")
    assert proc.returncode == 0, proc.stderr[-2000:]
    out = proc.stdout
    assert "隨機種子 5" in out and "seed" not in out
    assert "無法理解：「nonsense」。" in out
    for category in ("金幣", "神廟", "太陽指示物", "水源區", "總計"):
        assert category in out
    table = out[out.rindex("遊戲結束"):]  # the final score table (the move menus above show notation, e.g. gold1@-6,0)
    assert not any(word in table for word in ("gold", "temples", "water", "tie-break"))
    assert stray_marks(out) == []


def test_play_rejects_unknown_game_and_bot() -> None:
    assert "no game named 'chess'" in run(["play", "chess"]).stdout
    proc = run(["play", "cacao", "--seats", "me,wizard"])
    assert proc.returncode == 2 and "unknown bot kind 'wizard'" in proc.stdout


def test_simulate_writes_json_and_plot(tmp_path: Path) -> None:
    out, png = tmp_path / "r.json", tmp_path / "r.png"
    proc = run(["simulate", "cacao", "--seats", "greedy,random", "--games", "6", "--seed", "3", "--jobs", "2",
                "--out", str(out), "--plot", str(png)])
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert "win rate" in proc.stdout and "first-player advantage" in proc.stdout
    data = json.loads(out.read_text())
    assert data["summary"]["games"] == 6 and len(data["records"]) == 6
    rec = data["records"][0]
    replayed = boardlab.get_game("cacao").replay(2, rec["seed"], rec["actions"])
    assert [s.total for s in replayed.scores()] == rec["scores"]
    assert png.read_bytes()[:4] == b"\x89PNG"


def test_simulate_is_reproducible(tmp_path: Path) -> None:
    a, b = tmp_path / "a.json", tmp_path / "b.json"
    for path in (a, b):
        assert run(["simulate", "cacao", "--seats", "random,random,random", "--games", "4", "--seed", "9",
                    "--out", str(path)]).returncode == 0
    def games(path: Path) -> list[dict[str, object]]:
        return [{k: v for k, v in r.items() if k != "seconds"} for r in json.loads(path.read_text())["records"]]

    assert games(a) == games(b)


def test_bench_quick(tmp_path: Path) -> None:
    out = tmp_path / "bench.json"
    proc = run(["bench", "cacao", "--quick", "--out", str(out)])
    assert proc.returncode == 0, proc.stderr[-2000:]
    data = json.loads(out.read_text())
    assert data[0]["game"] == "cacao"
    assert set(data[0]["random"]) == {"2", "3", "4"}
    assert all(v["decisions_per_s"] > 0 for v in data[0]["random"].values())
    assert data[0]["mcts"]["2"]["iterations_per_s"] > 0
    # the anchor (OpenSpiel's C++ backgammon, from the rl extra that `make test` installs) is measured in the
    # same run, and each row is given as a ratio to it
    assert data[0]["anchor"]["decisions_per_cpu_s"] > 0
    assert all(v["ratio_to_anchor"] > 0 for v in data[0]["random"].values())


def test_games_lists_cacao() -> None:
    proc = run(["games", "--lang", "zh-TW"])
    assert "cacao" in proc.stdout and "可可亞" in proc.stdout


def test_play_and_simulate_take_a_wide_seed(tmp_path: Path) -> None:
    """A 128-bit --seed deals with the wide generator: the save holds it as a decimal string and loads back
    to the same game; the bots' seeds are narrow and not the seed's low bits; simulate records replay."""
    from boardlab.cli import _bot_seed
    from boardlab.core.rng import Rng

    wide = (1 << 128) | 0xC0FFEE
    save = tmp_path / "wide.json"
    proc = run(["play", "cacao", "--seats", "random,random", "--seed", str(wide), "--save", str(save)])
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert f"seed {wide}" in proc.stdout
    data = json.loads(save.read_text())
    assert data["seed"] == str(wide)
    assert boardlab.load(data).snapshot() == data["state"]
    assert boardlab.new_game("cacao", players=2, seed=wide).snapshot() != boardlab.new_game(
        "cacao", players=2, seed=wide & ((1 << 64) - 1)).snapshot()
    assert _bot_seed(5, 1) == 36 and _bot_seed(2**62, 1) == (2**62 * 7 + 1) & ((1 << 64) - 1)  # as before
    assert not Rng(_bot_seed(wide, 1)).wide and _bot_seed(wide, 1) != _bot_seed(wide, 0)
    assert _bot_seed(wide, 1) != (wide * 7 + 1) & ((1 << 64) - 1)
    out = tmp_path / "sim.json"
    proc = run(["simulate", "cacao", "--seats", "random,random", "--games", "2", "--seed", str(wide),
                "--out", str(out)])
    assert proc.returncode == 0, proc.stderr[-2000:]
    rec = json.loads(out.read_text())["records"][1]
    assert rec["seed"] == wide * 100_003 + 1
    replayed = boardlab.get_game("cacao").replay(2, rec["seed"], rec["actions"])
    assert [s.total for s in replayed.scores()] == rec["scores"]
