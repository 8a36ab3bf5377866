"""Cooper Island through the generic `boardlab play` command, in a real process: a person types moves in
notation against the CLI's seeded random bot; the saved game equals the same game played in-process."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import boardlab
from boardlab.bots import make_bot
from boardlab.core import observe


def run(args: list[str], stdin: str = "") -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "boardlab.cli", *args], input=stdin, capture_output=True,
                          text=True, timeout=180, env={"COLUMNS": "160", "PATH": "/usr/bin:/bin", "TERM": "dumb"})


def test_play_cooper_island_in_the_terminal(tmp_path: Path) -> None:
    seed = 4
    state = boardlab.new_game("cooper_island", players=2, seed=seed)
    bot = make_bot("random", seed * 7 + 1)
    typed = []
    while not state.is_over:
        seat = state.current_player
        if seat == 0:  # a person who always takes the last legal action ("done" when it is offered)
            action = state.legal_actions()[-1]
            # "h" is the terminal's help key: a normal worker is typed "H normal" (any space letter works)
            typed.append(f"{action} normal" if len(str(action)) == 1 else str(action))
        else:
            action = bot.choose(observe(state, seat))
        state.apply(action)
    save = tmp_path / "game.json"
    proc = run(["play", "cooper_island", "--seats", "me,random", "--seed", str(seed), "--save", str(save)],
               stdin="not a move\n" + "\n".join(typed) + "\n")
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert "Sea ring" in proc.stdout and "Action spaces" in proc.stdout and "Winner(s)" in proc.stdout
    data = json.loads(save.read_text())
    assert data["state"] == state.snapshot()


def test_play_cooper_island_in_traditional_chinese() -> None:
    proc = run(["play", "cooper_island", "--seats", "me,random", "--seed", "1", "--lang", "zh-TW"], stdin="")
    assert "環島航道" in proc.stdout and "行動區域" in proc.stdout and "重建" in proc.stdout
