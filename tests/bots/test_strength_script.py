"""benchmarks/strength.py: a run split by `--first` (between processes, or continued in a later session)
plays exactly the games of one uninterrupted run, so a pre-registered run may span sessions."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def run(tmp: Path, name: str, *extra: str) -> list[dict[str, object]]:
    out = tmp / name
    cmd = [sys.executable, str(ROOT / "benchmarks" / "strength.py"), "--game", "pocket_mars", "--players", "2",
           "--seed", "4242", "--a", "mcts", "--a-options", '{"iterations": 20}', "--stream", str(out), *extra]
    subprocess.run(cmd, check=True, capture_output=True, text=True, timeout=600)
    return [json.loads(line) for line in out.read_text().splitlines()]


def comparable(g: dict[str, object]) -> dict[str, object]:
    return {k: v for k, v in g.items() if k not in ("seconds", "cpu_seconds", "max_move_seconds")}


def test_first_continues_a_run_exactly(tmp_path: Path) -> None:
    whole = run(tmp_path, "whole.jsonl", "--games", "4")
    head = run(tmp_path, "head.jsonl", "--games", "2")
    tail = run(tmp_path, "tail.jsonl", "--games", "4", "--first", "2")
    assert [g["index"] for g in tail] == [2, 3]
    assert [comparable(g) for g in head + tail] == [comparable(g) for g in whole]


def test_first_needs_stream() -> None:
    r = subprocess.run([sys.executable, str(ROOT / "benchmarks" / "strength.py"), "--games", "2", "--first", "1"],
                       capture_output=True, text=True, timeout=60)
    assert r.returncode != 0 and "--first needs --stream" in r.stderr
