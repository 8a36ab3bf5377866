"""Petrichor in the terminal through the generic `boardlab play` command, in a real process: a person typing
menu numbers against a bot, in English and Traditional Chinese, and a saved game that replays."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from pt_helpers import GAME


def run(args: list[str], stdin: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "boardlab.cli", *args], input=stdin, capture_output=True, text=True,
                          timeout=120, env={"COLUMNS": "160", "PATH": "/usr/bin:/bin", "TERM": "dumb"})


def test_play_in_the_terminal_against_a_bot(tmp_path: Path) -> None:
    save = tmp_path / "game.json"
    out = run(["play", "petrichor", "--seats", "me,greedy", "--seed", "5", "--save", str(save)], "1\n" * 600)
    assert out.returncode == 0, out.stderr[-2000:]
    text = out.stdout
    assert "Petrichor" in text and "harvest dice" in text and "votes:" in text
    assert "your hand:" in text  # the person sees their own hand
    data = json.loads(save.read_text())
    state = GAME.from_json(data)
    assert state.is_over and data["game"] == "petrichor"


def test_play_in_traditional_chinese() -> None:
    out = run(["play", "petrichor", "--seats", "me,random", "--seed", "2", "--lang", "zh-TW"], "1\n" * 600)
    assert out.returncode == 0, out.stderr[-2000:]
    assert "雨的味道" in out.stdout and "收穫骰" in out.stdout and "霜寒" in out.stdout
