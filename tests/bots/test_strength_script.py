"""benchmarks/strength.py: a run split by `--first` (between processes, or continued in a later session)
plays exactly the games of one uninterrupted run, so a pre-registered run may span sessions."""

from __future__ import annotations

import gzip
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

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


def summary(*args: str) -> dict[str, object]:
    r = subprocess.run([sys.executable, str(ROOT / "benchmarks" / "strength.py"), "--summarize", *args],
                       capture_output=True, text=True, timeout=60)
    assert r.returncode == 0, r.stderr
    return dict(json.loads(r.stdout))


def test_summarize_pools_parts_and_keeps_whole_deals(tmp_path: Path) -> None:
    head = run(tmp_path, "head.jsonl", "--games", "3")  # deals 0 and 1 (1 only from seat 0)
    tail = run(tmp_path, "tail.jsonl", "--games", "4", "--first", "2")  # deal 1 from both seats
    parts = [str(tmp_path / "head.jsonl"), str(tmp_path / "tail.jsonl")]
    assert summary(*parts)["games"] == 4  # game 2 is in both files, counted once
    assert summary(str(tmp_path / "head.jsonl"))["games"] == 3
    whole = summary(str(tmp_path / "head.jsonl"), "--whole-deals")
    assert whole["games"] == 2
    assert whole["wins_a"] + whole["ties"] + whole["losses_a"] == 2  # type: ignore[operator]
    assert len(head) == 3 and len(tail) == 2


def test_summarize_refuses_two_different_games_of_one_index(tmp_path: Path) -> None:
    run(tmp_path, "a.jsonl", "--games", "1")
    other = tmp_path / "b.jsonl"
    cmd = [sys.executable, str(ROOT / "benchmarks" / "strength.py"), "--game", "pocket_mars", "--players", "2",
           "--seed", "4242", "--games", "1", "--a", "random", "--stream", str(other)]  # the same game 0, another bot
    subprocess.run(cmd, check=True, capture_output=True, timeout=600)
    r = subprocess.run([sys.executable, str(ROOT / "benchmarks" / "strength.py"), "--summarize",
                        str(tmp_path / "a.jsonl"), str(other)], capture_output=True, text=True, timeout=60)
    assert r.returncode != 0 and "game 0 differs" in r.stderr


def test_summarize_pools_runs_of_different_seeds(tmp_path: Path) -> None:
    run(tmp_path, "a.jsonl", "--games", "3")  # seed 4242: deals 4242 (whole) and 4243 (seat 0 only)
    other = tmp_path / "b.jsonl"
    cmd = [sys.executable, str(ROOT / "benchmarks" / "strength.py"), "--game", "pocket_mars", "--players", "2",
           "--seed", "4243", "--games", "2", "--a", "random", "--stream", str(other)]  # deal 4243 again, another run
    subprocess.run(cmd, check=True, capture_output=True, timeout=600)
    files = [str(tmp_path / "a.jsonl"), str(other)]
    assert summary(*files)["games"] == 5  # indices 0 and 1 of each run are different games
    assert summary(*files, "--whole-deals")["games"] == 4  # the first run's half deal does not join the second's


def test_summarize_reads_gzipped_records_like_plain_ones(tmp_path: Path) -> None:
    run(tmp_path, "plain.jsonl", "--games", "2")
    packed = tmp_path / "packed.jsonl.gz"
    packed.write_bytes(gzip.compress((tmp_path / "plain.jsonl").read_bytes()))
    plain = summary(str(tmp_path / "plain.jsonl"))
    both = summary(str(packed), str(tmp_path / "plain.jsonl"))  # the same games: counted once, not refused
    assert summary(str(packed)) | {"files": None} == plain | {"files": None}
    assert both["games"] == plain["games"] == 2


def test_summarize_reads_a_kept_record() -> None:
    records = ROOT / "benchmarks" / "results" / "strength-records"
    s = summary(str(records / "strength-petrichor4_500-issue33-2026-11-28.jsonl.gz"))
    assert (s["games"], s["wins_a"], s["ties"], s["losses_a"]) == (200, 145, 3, 52)  # docs/strength.md's row 9


def paired_of(*args: str) -> dict[str, Any]:
    return dict(summary(*args)["paired"])  # type: ignore[call-overload]


def test_paired_compares_games_of_the_same_deal_and_seat(tmp_path: Path) -> None:
    run(tmp_path, "mcts.jsonl", "--games", "4")
    other = tmp_path / "random.jsonl"
    cmd = [sys.executable, str(ROOT / "benchmarks" / "strength.py"), "--game", "pocket_mars", "--players", "2",
           "--seed", "4242", "--games", "3", "--a", "random", "--stream", str(other)]  # deals 4242 and 4243 (seat 0)
    subprocess.run(cmd, check=True, capture_output=True, timeout=600)
    p = paired_of(str(tmp_path / "mcts.jsonl"), "--paired", str(other))
    assert p["games"] == 3  # the fourth MCTS game (deal 4243, seat 1) has no random game to pair with
    assert abs(p["difference"] - (p["win_rate_new"] - p["win_rate_old"])) < 1e-12
    assert p["new_better"] + p["old_better"] <= 3
    same = paired_of(str(other), "--paired", str(other))
    assert (same["difference"], same["difference_se"], same["difference_z"], same["new_better"]) == (0, 0, None, 0)


def test_paired_needs_summarize() -> None:
    r = subprocess.run([sys.executable, str(ROOT / "benchmarks" / "strength.py"), "--paired", "x.jsonl"],
                       capture_output=True, text=True, timeout=60)
    assert r.returncode != 0 and "--paired needs --summarize" in r.stderr
