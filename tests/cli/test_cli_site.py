"""Mend-list items of issue #12 on the command line, in real processes: the busy-port message and
`make run PORT=`, the terminal legend and move-code help, partial codes, `bench --quick` figures."""

from __future__ import annotations

import re
import socket
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
BOARDLAB = [sys.executable, "-m", "boardlab.cli"]
ENV = {"COLUMNS": "200", "PATH": "/usr/bin:/bin", "TERM": "dumb"}


def run(args: list[str], stdin: str = "", timeout: float = 120) -> subprocess.CompletedProcess[str]:
    return subprocess.run([*BOARDLAB, *args], input=stdin, capture_output=True, text=True, timeout=timeout, env=ENV)


def test_busy_port_says_which_and_how_to_pick_another() -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        proc = run(["serve", "--port", str(port)], timeout=60)
    assert proc.returncode == 1
    assert f"port {port} on 127.0.0.1 is already in use" in proc.stderr
    assert f"--port {port + 1}" in proc.stderr and f"make run PORT={port + 1}" in proc.stderr
    assert "http://" not in proc.stdout  # no address printed for a server that never started


def test_make_run_takes_port() -> None:
    out = subprocess.run(["make", "-n", "run", "PORT=8123"], cwd=ROOT, capture_output=True, text=True, timeout=30)
    assert re.search(r"boardlab serve --port 8123\b", out.stdout), out.stdout
    default = subprocess.run(["make", "-n", "run"], cwd=ROOT, capture_output=True, text=True, timeout=30)
    assert re.search(r"boardlab serve\s*$", default.stdout, re.M), default.stdout


def test_terminal_legend_codes_and_partial_code() -> None:
    proc = run(["play", "cacao", "--seats", "me,random", "--seed", "5"], stdin="c\nzz9\nhelp\nquit\n")
    out = proc.stdout
    assert proc.returncode == 0, proc.stderr[-2000:]
    # the legend and what a code like c21 means, shown once at the start and again on help
    assert out.count("Legend") == 2 and out.count("c21 = on space c, the 2nd tile of your hand") == 2
    assert "M2/M3/M4 market" in out
    # a partial code is answered with the codes it starts, not "Not understood"
    assert "'c' is the start of" in out and "Not understood: c\n" not in out
    assert "c10" in out.split("'c' is the start of")[1].splitlines()[0]
    # a real mistake says what to do next
    assert "Not understood: 'zz9'." in out and "'moves' for the list" in out


def test_terminal_help_in_zh_tw() -> None:
    out = run(["play", "cacao", "--seats", "me,random", "--seed", "5", "--lang", "zh-TW"], stdin="c\nquit\n").stdout
    assert "圖例" in out and "行動代碼" in out and "「c」是" in out


def test_bench_quick_does_not_copy_mcts_figures_to_other_player_counts(tmp_path: Path) -> None:
    proc = run(["bench", "pocket_mars", "--quick", "--out", str(tmp_path / "b.json")], timeout=300)
    assert proc.returncode == 0, proc.stderr[-2000:]
    rows = {m.group(1): m.group(0) for m in re.finditer(r"pocket_mars\s*│\s*(\d)\s*│.*", proc.stdout)}
    assert set(rows) == {"1", "2", "3", "4"}, proc.stdout
    measured = [p for p, row in rows.items() if "—" not in row]
    assert measured == ["2"], rows  # MCTS is measured at 2 players only; the other rows say so


def test_zh_tw_terminal_text_uses_chinese_punctuation() -> None:
    from boardlab.cli import UI

    for key, text in UI["zh-TW"].items():
        # an ASCII , : ; ( ) next to a Chinese character is a template left in English style
        assert not re.search(r"[\u3000-\u9fff][,:;()]|[,:;()]\s*[\u3000-\u9fff]", text), (key, text)
    out = run(["play", "cacao", "--seats", "me,random", "--seed", "5", "--lang", "zh-TW"], stdin="zz9\nquit\n").stdout
    assert "無法理解：「zz9」。請輸入" in out
    assert "隨機電腦" in out and "random" not in out.split("\n")[0]  # the bot's name in Chinese too
